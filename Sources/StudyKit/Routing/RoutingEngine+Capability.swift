import Foundation
import Synchronization

// MARK: - Capability memory and the time budget in the router

extension RoutingEngine {
    /// The record key of a whole part of `task` on `engine`.
    static func partKey(_ engine: any LanguageModel, task: StudyTask) -> AttemptKey {
        AttemptKey(
            engine: engine.kind, model: engine.identity, task: task.name, job: .part,
            promptVersion: task.promptTemplateVersion)
    }

    /// The capability memory as this router consults and feeds it.
    var recorder: AttemptRecorder { AttemptRecorder(memory: memory, capability: capability, clock: clock, note: note) }

    /// Runs one model call, cancelled when what is left of `budget` runs out: an attempt that
    /// was expected to fit but runs over (a slow server, a wrong estimate) fails as timed out and
    /// the builtin engine fills in, instead of the whole job overrunning its budget. Both engines
    /// stop on cancellation (curl's progress callback, llama.cpp between tokens).
    ///
    /// `floor` is the least time the call gets: a second for a generation, which was only started
    /// because it was expected to fit; none for the steps around it (discovery, the window, token
    /// counts), which must never carry a run past its budget: with nothing left they do not start.
    func withinBudget<T: Sendable>(
        _ budget: TimeBudget?, floor: Double = 1, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        guard let budget else { return try await operation() }
        let remaining = budget.remaining(at: clock.now())
        guard floor > 0 || remaining > 0 else { throw BudgetSkip(reason: Self.budgetUsedUp(budget)) }
        let left = max(floor, remaining)
        return try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(left * 1_000_000_000))
                throw EngineError.transport(
                    "timed out: the \(CapabilityPolicy.seconds(budget.seconds)) budget ran out during the attempt; it "
                        + "was stopped"
                )
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            return first
        }
    }

    /// Why nothing more is started once `budget` is spent.
    static func budgetUsedUp(_ budget: TimeBudget) -> String {
        FallbackReason.budgetUsedUp(seconds: budget.seconds).text
    }

    /// An engine's availability within what is left of `budget` (unbounded without one): a
    /// server that accepts and never answers costs at most the rest of the budget, not its
    /// discovery deadline.
    func availability(of engine: any LanguageModel, within budget: TimeBudget?) async -> Availability {
        do {
            return try await withinBudget(budget, floor: 0) { await engine.availability() }
        } catch {
            return .unavailable(reason: Self.reason(for: error))
        }
    }


    /// How a failed attempt counts in the record; `nil` for a cancellation, which is no attempt.
    static func outcome(for error: any Error) -> AttemptOutcome? {
        switch error {
        case is CancellationError: return nil
        // Held back by the quota before anything was sent: no attempt of the model.
        case is QuotaHeld: return nil
        case is RepeatedAnswer: return .repeated
        case is CopiedAnswer: return .copied
        case let error as EngineError:
            switch error {
            case .truncated: return .cut
            case .invalidOutput, .contextExceeded: return .invalid
            case .transport(let detail) where detail.lowercased().contains("timed out"): return .timedOut
            default: return .transportError
            }
        default: return .invalid
        }
    }
}

/// The attempts of one run, in order, for `--json`.
final class AttemptLog: Sendable {
    private let entries = Mutex<[AttemptReport]>([])
    private let cachedItems = Mutex<Set<String>>([])

    func append(_ report: AttemptReport) { entries.withLock { $0.append(report) } }

    var reports: [AttemptReport] { entries.withLock { $0 } }

    /// Notes that the item at `path` was judged from an answer kept by an earlier run.
    func answeredFromCache(_ path: String) { _ = cachedItems.withLock { $0.insert(path) } }

    /// The items judged from answers kept by earlier runs, by path.
    var itemsFromCache: Set<String> { cachedItems.withLock { $0 } }
}

/// The answers models gave to item jobs in this process, by model, job version, instructions
/// and prompt: an identical item job is answered from here, not asked again.
final class ItemAnswers: Sendable {
    struct Key: Hashable, Sendable {
        let model: String
        let version: String
        let instructions: String
        let prompt: String
    }

    /// What the model answered: its text, an answer cut at the token limit, or one stopped
    /// once it broke a rule no later token could mend (``ItemRewriter/ItemJob/settledRefusal``),
    /// with what it had written by then.
    enum Answer: Sendable, Equatable {
        case text(String)
        case cut
        case stopped(String)
    }

    /// The `finishReason` of an item answer stopped once it broke a settled rule.
    static let stoppedFinishReason = "refused"

    private let answers = Mutex<[Key: Answer]>([:])
    private let stored = Mutex<Set<Key>>([])

    subscript(key: Key) -> Answer? {
        get { answers.withLock { $0[key] } }
        set { answers.withLock { $0[key] = newValue } }
    }

    /// Keeps `answer`, read from the result cache where an earlier run kept it.
    func keepStored(_ answer: Answer, for key: Key) {
        self[key] = answer
        _ = stored.withLock { $0.insert(key) }
    }

    /// Whether the answer for `key` came from an earlier run (through the result cache).
    func isStored(_ key: Key) -> Bool { stored.withLock { $0.contains(key) } }
}

/// Thrown inside the router when an attempt would not fit the time budget.
struct BudgetSkip: Error {
    let reason: String
}

/// An answer stopped because it began repeating itself; reported like a cut answer.
struct RepeatedAnswer: StudyKitError, Equatable {
    /// Why the item a loop was writing is dropped when the items before it are kept (#53).
    static let loopReason = "the answer started repeating itself here (a loop) and was stopped"
    let detail: String
    var message: String { detail }
    var exitCode: ExitCode { .unavailable }
}

// MARK: - Item provenance

/// How one item of a part was made, as `--json` shows it.
public struct ItemProvenance: Sendable, Equatable {
    /// Who made an item.
    public enum Kind: String, Sendable, Equatable {
        /// Written by a model as part of a whole answer.
        case written
        /// Selected by the builtin engine, then rephrased by a model, validated and grounded.
        case rewritten
        /// Written by a model as part of a whole answer, then cut where a rule says how (a label
        /// to its head phrase, a card's answer to its key words), never reworded (#53).
        case repaired
        /// Selected from the material by the builtin engine and shipped as it is.
        case extracted
    }

    /// Where the item is in the result (`cards[3]`, `overview`, `branches[1].label`).
    public var path: String
    /// Who made it.
    public var kind: Kind
    /// Why an extracted item was not rewritten, or which model rewrote it.
    public var note: String?

    /// Creates a record.
    public init(path: String, kind: Kind, note: String? = nil) {
        self.path = path
        self.kind = kind
        self.note = note
    }

    /// The record as JSON.
    var jsonValue: JSONValue {
        var object: JSONObject = ["path": .string(path), "provenance": .string(kind.rawValue)]
        if let note { object["note"] = .string(note) }
        return .object(object)
    }
}
