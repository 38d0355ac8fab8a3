import Foundation

// MARK: - Skipping a model that keeps failing

/// What the router does with the capability memory (``AttemptRecording``): skip a model for a
/// job it failed on its last attempts, and estimate how long a job will take. Pure.
///
/// - A model that failed a job (same engine, model, task, job kind and prompt version) on its
///   last ``failuresToSkip`` attempts is skipped for that job for ``skipDuration`` after the
///   newest failure. A new model or a new prompt version is a new key, so it is tried at once.
/// - Item jobs are many and small: a model is skipped for items only after
///   ``itemFailuresToSkip`` failed items in a row, so two bad cards do not end rewriting.
public struct CapabilityPolicy: Sendable, Equatable {
    /// Failed attempts in a row that make a model skip a part or chunk; 0 never skips.
    public var failuresToSkip: Int
    /// How long a skip lasts after the newest failure.
    public var skipDuration: TimeInterval

    /// The default: skip after 2 failures in a row, for 24 hours.
    public init(failuresToSkip: Int = 2, skipDuration: TimeInterval = 86_400) {
        self.failuresToSkip = max(0, failuresToSkip)
        self.skipDuration = skipDuration
    }

    /// The policy configured by `STUDYKIT_SKIP_AFTER_FAILURES` (a whole number, 0 to never skip).
    /// - Throws: ``EngineError/invalidConfiguration(key:value:reason:)`` quoting a malformed value.
    public init(environment: [String: String]) throws(EngineError) {
        guard let text = environment["STUDYKIT_SKIP_AFTER_FAILURES"]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
            self.init()
            return
        }
        guard let count = Int(text), count >= 0 else {
            throw .invalidConfiguration(
                key: "STUDYKIT_SKIP_AFTER_FAILURES", value: text, reason: "expected a whole number of failures, 0 to never skip")
        }
        self.init(failuresToSkip: count)
    }

    /// Failed items in a row that make a model skip item rewrites: 10 by default. Items are
    /// small (about a second each) and an instruction model that writes half of them well still
    /// meets six hard cards in a row (a run of cloze cards on one dense section), which at 6
    /// ended the rewrites of the next document too.
    public var itemFailuresToSkip: Int { failuresToSkip * 5 }

    /// How many recent attempts ``skipReason(recent:job:now:)`` needs to see.
    public func window(for job: JobKind) -> Int { job == .item ? itemFailuresToSkip : failuresToSkip }

    /// Why the model must be skipped for this job now, or `nil` when it may be tried.
    /// - Parameter recent: the key's newest attempts, newest first.
    public func skipReason(recent: [Attempt], job: JobKind, now: Date) -> String? {
        let needed = window(for: job)
        guard needed > 0, recent.count >= needed else { return nil }
        let last = recent.prefix(needed)
        guard last.allSatisfy(\.outcome.isFailure), let newest = last.first?.at,
            now.timeIntervalSince(newest) < skipDuration
        else { return nil }
        let seconds = last.reduce(0) { $0 + $1.duration }
        let outcomes = Dictionary(grouping: last, by: \.outcome).keys.map(\.rawValue).sorted().joined(separator: ", ")
        return "skipped: failed the last \(needed) attempts (\(outcomes); \(Self.seconds(seconds)))"
    }

    /// How long the job took lately: the mean of the key's newest 3 attempts, or `nil` with no record.
    public func expectedDuration(recent: [Attempt]) -> Double? {
        let last = recent.prefix(3)
        guard !last.isEmpty else { return nil }
        return last.reduce(0) { $0 + $1.duration } / Double(last.count)
    }

    /// `61 s`, or `0.4 s` below ten seconds.
    static func seconds(_ value: Double) -> String {
        value < 10 ? String(format: "%.1f s", value) : "\(Int(value.rounded())) s"
    }
}

// MARK: - Estimating a job before there is a record

/// Estimates how long an attempt takes from its size, before the ledger has a record of the job.
///
/// A model's cost is counted in decode-token units: a prompt token is far cheaper to process
/// than a response token is to generate (batched, not one by one), so it weighs
/// ``promptWeight``. The seconds per unit come from the model's other attempts in the ledger
/// (measured on its first request of any job), else from a conservative default per engine kind.
public enum DurationEstimate {
    /// A prompt token costs this share of a generated token.
    static let promptWeight = 0.1
    /// Seconds per generated token when nothing is measured yet.
    static func defaultSecondsPerToken(_ kind: EngineKind) -> Double {
        switch kind {
        case .local: return 0.03
        case .remote: return 0.02
        case .builtin: return 0
        }
    }

    /// Seconds per decode-token unit measured over `attempts`, or `nil` when they carry no tokens.
    static func measuredSecondsPerToken(_ attempts: [Attempt]) -> Double? {
        let units = attempts.reduce(0.0) { $0 + Double($1.tokensIn) * promptWeight + Double($1.tokensOut) }
        let seconds = attempts.reduce(0.0) { $0 + $1.duration }
        guard units >= 20, seconds > 0 else { return nil }
        return seconds / units
    }

    /// The expected seconds for a prompt of `promptTokens` and a response of at most `responseTokens`.
    public static func seconds(promptTokens: Int, responseTokens: Int, kind: EngineKind, modelAttempts: [Attempt]) -> Double {
        let perToken = measuredSecondsPerToken(modelAttempts) ?? defaultSecondsPerToken(kind)
        return (Double(promptTokens) * promptWeight + Double(responseTokens)) * perToken
    }
}

// MARK: - The time budget

/// The time a whole job may take (`--budget`): no model attempt starts whose expected duration
/// does not fit what is left; the builtin engine fills the rest.
public struct TimeBudget: Sendable, Equatable {
    /// The whole budget in seconds.
    public var seconds: Double
    /// When it runs out.
    public var deadline: Date

    /// A budget of `seconds` starting at `start`.
    public init(seconds: Double, start: Date) {
        self.seconds = seconds
        self.deadline = start.addingTimeInterval(seconds)
    }

    /// Seconds left at `now`, never negative.
    public func remaining(at now: Date) -> Double { max(0, deadline.timeIntervalSince(now)) }

    /// The default for a command: `import` gets about 30 s when only local models serve, other
    /// commands 30 s; with a remote model configured, 300 s for `import` and 120 s for the rest.
    /// `feynman` gets 5 s (15 s with a remote model): a whole answer that cannot fit is left to
    /// the builtin claim check, whose corrections the model phrases one at a time.
    public static func defaultSeconds(for task: StudyTask, remoteConfigured: Bool) -> Double {
        switch (task, remoteConfigured) {
        // Feedback on an explanation is a Post-it job: seconds, or the builtin check answers.
        case (.feynman, false): return 5
        case (.feynman, true): return 15
        case (.studyKit, false): return 30
        case (.studyKit, true): return 300
        case (_, false): return 30
        case (_, true): return 120
        }
    }
}

// MARK: - What --json shows of each attempt

/// One model attempt or skip, as `--json` reports it per part.
public struct AttemptReport: Sendable, Equatable {
    /// The engine.
    public var engine: EngineKind
    /// Its model.
    public var model: String
    /// Part, chunk or item.
    public var job: JobKind
    /// How it ended.
    public var outcome: AttemptOutcome
    /// Seconds it took.
    public var seconds: Double

    /// Creates a report.
    public init(engine: EngineKind, model: String, job: JobKind, outcome: AttemptOutcome, seconds: Double) {
        self.engine = engine
        self.model = model
        self.job = job
        self.outcome = outcome
        self.seconds = seconds
    }

    /// The report as JSON.
    var jsonValue: JSONValue {
        [
            "engine": .string(engine.rawValue), "model": .string(model), "job": .string(job.rawValue),
            "outcome": .string(outcome.rawValue), "seconds": .number((seconds * 1000).rounded() / 1000),
        ]
    }
}
