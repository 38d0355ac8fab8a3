import Foundation
import Synchronization
@testable import StudyKit

/// A scripted language model for router tests: it answers from a script and counts every call,
/// so a test can assert exactly which engines were called, in what order and how often.
final class ScriptedModel: LanguageModel {
    /// What one `respond` call does.
    enum Step: Sendable {
        case answer(String)
        /// An answer cut off at the response limit (`finishReason` `"length"`).
        case cut(String)
        case fail(EngineError)
        /// Streamed snapshots, then the last one as the answer.
        case stream([String])
        /// Streamed snapshots, then the stream fails (a server's deadline, a connection lost).
        case streamThenFail([String], EngineError)
        /// Never answers: waits until the call is cancelled (a server that hangs).
        case hang
    }

    struct Calls: Equatable {
        var availability = 0
        var contextSize = 0
        var tokenCount = 0
        var tokenize = 0
        var respond = 0
        var prompts: [String] = []
        /// The JSON Schema of each request, in order.
        var schemas: [String] = []
        /// Snapshots a streamed step actually yielded before its consumer stopped.
        var snapshots = 0
        /// `measuredSpeed(calibrate: true)` calls that had to measure.
        var calibrations = 0
    }

    let kind: EngineKind
    private let name: String
    /// Like a server engine without a configured model: the name is only known once the engine
    /// has been contacted, while the identity is fixed from the start.
    private let nameKnownAfterContact: Bool
    private let available: Availability
    private let window: Int
    private let state: Mutex<(steps: [Step], calls: Calls)>
    private let log: CallLog?
    private let clock: TestClock?
    private let secondsPerCall: Double
    private let model: String?
    let streamsCheaply: Bool
    private let declaredLanguages: LanguageSupport?
    /// The speed a calibration finds (`nil`: the engine cannot tell), and whether it is known
    /// without one (as after a first request in process).
    private let speed: GenerationSpeed?
    private let measured: Mutex<Bool>

    /// What the engine declares; by default what engines of its kind do (local: English).
    var languages: LanguageSupport { declaredLanguages ?? .defaultFor(kind) }

    init(
        _ kind: EngineKind, available: Availability = .available, window: Int = 2048, steps: [Step] = [],
        log: CallLog? = nil, nameKnownAfterContact: Bool = false, clock: TestClock? = nil, secondsPerCall: Double = 0,
        model: String? = nil, streamsCheaply: Bool = false, languages: LanguageSupport? = nil,
        speed: GenerationSpeed? = nil, speedKnown: Bool = false
    ) {
        self.speed = speed
        self.measured = Mutex(speedKnown)
        self.declaredLanguages = languages
        self.clock = clock
        self.secondsPerCall = secondsPerCall
        self.model = model
        self.streamsCheaply = streamsCheaply
        self.kind = kind
        self.name = "scripted-\(kind.rawValue)"
        self.nameKnownAfterContact = nameKnownAfterContact
        self.available = available
        self.window = window
        self.state = Mutex((steps, Calls()))
        self.log = log
    }

    var calls: Calls { state.withLock { $0.calls } }

    /// The request deadline a server engine declares (`nil`: none), set by ``withDeadline(_:)``.
    var generationDeadline: TimeInterval? { declaredDeadline.withLock { $0 } }

    /// This engine, declaring a request deadline of `seconds` as a server engine does.
    func withDeadline(_ seconds: TimeInterval?) -> ScriptedModel {
        declaredDeadline.withLock { $0 = seconds }
        return self
    }

    var modelName: String {
        guard nameKnownAfterContact else { return name }
        return state.withLock { $0.calls.availability > 0 } ? name : "server default"
    }

    var identity: String { model ?? "scripted://\(kind.rawValue)" }

    func availability() async -> Availability {
        state.withLock { $0.calls.availability += 1 }
        return available
    }

    func measuredSpeed(calibrate: Bool) async -> GenerationSpeed? {
        guard let speed else { return nil }
        let known = measured.withLock { known -> Bool in
            if !known, calibrate {
                known = true
                state.withLock { $0.calls.calibrations += 1 }
                return true
            }
            return known
        }
        return known ? speed : nil
    }

    func contextSize() async throws -> ContextWindow {
        state.withLock { $0.calls.contextSize += 1 }
        return ContextWindow(tokens: window, source: .configured(setting: "TEST"))
    }

    /// One token per four UTF-8 bytes, rounded up: exact for this model by definition.
    static func tokens(_ text: String) -> Int { (text.utf8.count + 3) / 4 }

    func tokenCount(for text: String) async throws -> TokenCount {
        state.withLock { $0.calls.tokenCount += 1 }
        return TokenCount(count: Self.tokens(text), method: .exact)
    }

    func tokenize(_ text: String) async throws -> [Int]? {
        state.withLock { $0.calls.tokenize += 1 }
        return Array(repeating: 7, count: Self.tokens(text))
    }

    func respond(to request: GenerationRequest) async throws -> RawResponse {
        let step = state.withLock { state -> Step? in
            state.calls.respond += 1
            state.calls.prompts.append(request.prompt)
            state.calls.schemas.append(request.jsonSchema)
            return state.steps.isEmpty ? nil : state.steps.removeFirst()
        }
        log?.append(kind)
        clock?.advance(by: secondsPerCall)
        switch step {
        case .streamThenFail(_, let error):
            throw error
        case .stream(let snapshots):
            return RawResponse(
                text: snapshots.last ?? "", usage: Usage(promptTokens: Self.tokens(request.prompt), completionTokens: 1),
                model: name, finishReason: "stop")
        case .answer(let text):
            return RawResponse(
                text: text, usage: Usage(promptTokens: Self.tokens(request.prompt), completionTokens: Self.tokens(text)),
                model: name, finishReason: "stop")
        case .cut(let text):
            return RawResponse(
                text: text, usage: Usage(promptTokens: Self.tokens(request.prompt), completionTokens: request.options.maximumResponseTokens ?? 0),
                model: name, finishReason: "length")
        case .fail(let error):
            throw error
        case .hang:
            try await Task.sleep(nanoseconds: 600 * 1_000_000_000)
            throw EngineError.transport("the hanging step was not cancelled")
        case nil:
            throw EngineError.transport("script exhausted")
        }
    }

    private let declaredDeadline = Mutex<TimeInterval?>(nil)
}

extension ScriptedModel {
    /// A `.stream` step yields its snapshots one by one (counted in ``Calls/snapshots``) and
    /// stops as soon as the consumer does; other steps answer as ``respond(to:)`` does.
    func streamResponse(to request: GenerationRequest) -> AsyncThrowingStream<GenerationEvent, any Error> {
        let next = state.withLock { $0.steps.first }
        let (streamed, failure): ([String]?, EngineError?) = switch next {
        case .stream(let snapshots): (snapshots, nil)
        case .streamThenFail(let snapshots, let error): (snapshots, error)
        default: (nil, nil)
        }
        guard let snapshots = streamed else {
            return AsyncThrowingStream { continuation in
                let task = Task {
                    do {
                        let response = try await self.respond(to: request)
                        continuation.yield(.partial(response.text))
                        continuation.yield(.completed(response))
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
        _ = state.withLock { state in
            state.calls.respond += 1
            state.calls.prompts.append(request.prompt)
            state.calls.schemas.append(request.jsonSchema)
            state.steps.removeFirst()
        }
        log?.append(kind)
        clock?.advance(by: secondsPerCall)
        var index = 0
        let name = self.name
        return AsyncThrowingStream(unfolding: { [self] in
            guard index < snapshots.count else {
                if let failure, index == snapshots.count { throw failure }
                if index == snapshots.count {
                    index += 1
                    let text = snapshots.last ?? ""
                    return .completed(RawResponse(
                        text: text, usage: Usage(promptTokens: Self.tokens(request.prompt), completionTokens: Self.tokens(text)),
                        model: name, finishReason: "stop"))
                }
                return nil
            }
            let snapshot = snapshots[index]
            index += 1
            state.withLock { $0.calls.snapshots += 1 }
            return .partial(snapshot)
        })
    }
}

/// A clock for tests: it stands still until told to move.
final class TestClock: DayClock {
    private let current: Mutex<Date>
    init(_ start: Date = Date(timeIntervalSince1970: 1_750_000_000)) { current = Mutex(start) }
    func now() -> Date { current.withLock { $0 } }
    var timeZone: TimeZone { TimeZone(identifier: "UTC")! }
    func advance(by seconds: Double) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// The order in which engines were asked to generate, across engines.
final class CallLog: Sendable {
    private let entries = Mutex<[EngineKind]>([])
    func append(_ kind: EngineKind) { entries.withLock { $0.append(kind) } }
    var kinds: [EngineKind] { entries.withLock { $0 } }
}
