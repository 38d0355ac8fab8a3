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

    /// Whether a local model's item rewrites in one run are bounded by their part's allowance
    /// and stopped on their own refusals (``ItemAllowance``); off, every item is asked while the
    /// budget and the record allow (tests that script many refused answers to follow each one).
    public var boundsItemRewrites: Bool

    /// Whether a remote model's key points copied word for word are given back to it to restate
    /// (``RoutingEngine/restatingCopiedKeyPoints(_:items:engine:request:material:log:)``, #53). On
    /// in the configured policy (``init(environment:)``), which the commands use; off by default,
    /// so that a router built in a test answers as its scripted engines are scripted.
    public var restatesCopiedKeyPoints: Bool

    /// Whether the items the judge added from the builtin engine to a model's part to reach the
    /// count asked for are offered to that model to rephrase
    /// (``ItemRewriter/rewritingTopUps(_:items:)``, #53). On in the configured policy, off by
    /// default, as ``restatesCopiedKeyPoints`` is.
    public var rewritesTopUps: Bool

    /// The default: skip after 2 failures in a row, for 24 hours.
    public init(
        failuresToSkip: Int = 2, skipDuration: TimeInterval = 86_400, boundsItemRewrites: Bool = true,
        restatesCopiedKeyPoints: Bool = false, rewritesTopUps: Bool = false
    ) {
        self.failuresToSkip = max(0, failuresToSkip)
        self.skipDuration = skipDuration
        self.boundsItemRewrites = boundsItemRewrites
        self.restatesCopiedKeyPoints = restatesCopiedKeyPoints
        self.rewritesTopUps = rewritesTopUps
    }

    /// The policy configured by `STUDYKIT_SKIP_AFTER_FAILURES` (a whole number, 0 to never skip).
    /// - Throws: ``EngineError/invalidConfiguration(key:value:reason:)`` quoting a malformed value.
    public init(environment: [String: String]) throws(EngineError) {
        guard let text = environment["STUDYKIT_SKIP_AFTER_FAILURES"]?.trimmingCharacters(in: .whitespaces),
            !text.isEmpty
        else {
            self.init(restatesCopiedKeyPoints: true, rewritesTopUps: true)
            return
        }
        guard let count = Int(text), count >= 0 else {
            throw .invalidConfiguration(
                key: "STUDYKIT_SKIP_AFTER_FAILURES", value: text,
                reason: "expected a whole number of failures, 0 to never skip")
        }
        self.init(failuresToSkip: count, restatesCopiedKeyPoints: true, rewritesTopUps: true)
    }

    /// Failed items in a row that make a model skip item rewrites: 10 by default. Items are
    /// small (about a second each) and an instruction model that writes half of them well still
    /// meets six hard cards in a row (a run of cloze cards on one dense section), which at 6
    /// ended the rewrites of the next document too.
    public var itemFailuresToSkip: Int { failuresToSkip * 5 }

    /// The most model time an accepted item may cost on the record before the model is skipped
    /// for that item job: 3.75 s, the kit's bar of 8 model items in `import`'s 30 s. A job that
    /// yields less pulls the kit below that bar and only delays it: a model that gets one card
    /// in four right at 1.2 s a card costs about 5 s an accepted card, and the builtin card it
    /// would replace takes no time at all.
    public var itemSecondsPerAccepted: Double = 3.75

    /// How many recent item attempts the cost of an accepted item is measured over.
    static let itemYieldWindow = 20

    /// How many recent attempts ``skipReason(recent:job:now:runStarted:)`` needs to see.
    public func window(for job: JobKind) -> Int {
        job == .item ? 2 * max(itemFailuresToSkip, Self.itemYieldWindow) : failuresToSkip
    }

    /// Why the model must be skipped for this job now, or `nil` when it may be tried.
    /// - Parameter recent: the key's newest attempts, newest first.
    ///
    /// An item job is also skipped when its record says an accepted item costs too much: over
    /// its last ``itemYieldWindow`` attempts of the last ``skipDuration`` (at least
    /// ``itemFailuresToSkip`` of them), more than ``itemSecondsPerAccepted`` of model time per
    /// accepted item. The skip ends as those attempts age out. Only attempts made before
    /// `runStarted` count for it: a run that started trying a job finishes its items, judged on
    /// what the model showed before the run began. An item job asked once per document (the
    /// summary's overview) is judged as a part is: on its last ``failuresToSkip`` attempts.
    public func skipReason(
        recent: [Attempt], job: JobKind, now: Date, runStarted: Date? = nil, oncePerDocument: Bool = false
    ) -> String? {
        let perItem = job == .item && !oncePerDocument
        let needed = perItem ? itemFailuresInARowToSkip(recent, now: now) : failuresToSkip
        let last = recent.prefix(needed)
        if needed > 0, recent.count >= needed, last.allSatisfy(\.outcome.isFailure), let newest = last.first?.at,
            now.timeIntervalSince(newest) < skipDuration {
            let seconds = last.reduce(0) { $0 + $1.duration }
            return FallbackReason.failedRecently(attempts: needed, outcomes: last.map(\.outcome), seconds: seconds).text
        }
        if job == .item, oncePerDocument {
            return firstSuccessSkip(itemRecord(recent, now: now, runStarted: runStarted))
        }
        guard perItem else { return nil }
        return yieldSkip(itemRecord(recent, now: now, runStarted: runStarted))
    }

    /// Why an item job asked once per document (``itemRecord(_:now:runStarted:)``: the summary's
    /// overview) costs too much to try again, or `nil`. Such a job is judged on few attempts, one
    /// a document, so ``yieldSkip(_:)``'s ten would take ten documents: here, while none of its
    /// attempts on record was accepted, the model time a first accepted answer is expected to
    /// cost is weighed against ``itemSecondsPerAccepted`` — the attempts' mean seconds over the
    /// chance of success that one success and one failure added to the record give, 1 in 3
    /// after one failure. Qwen2.5-Coder-0.5B's overview fails in 1.5–1.7 s on 2 cores (it copies
    /// a key sentence; 0 of 4 documents accepted): about 5 s an accepted overview, so it is not
    /// asked again for a day; one that failed in a second is asked on the next document.
    private func firstSuccessSkip(_ considered: [Attempt]) -> String? {
        guard itemFailuresToSkip > 0, !considered.isEmpty, !considered.contains(where: { $0.outcome == .accepted })
        else { return nil }
        let seconds = considered.reduce(0) { $0 + $1.duration }
        let expected = seconds / Double(considered.count) * Double(considered.count + 2)
        guard expected > itemSecondsPerAccepted else { return nil }
        return FallbackReason.firstAnswerTooCostly(
            attempts: considered.count, seconds: seconds, expected: expected, limit: itemSecondsPerAccepted).text
    }

    /// Failed items in a row that skip an item job: ``itemFailuresToSkip``, or more when the
    /// attempts before that run show the model getting items right — as many failures in a row as
    /// that acceptance rate makes a one-in-a-thousand event, at most ``itemYieldWindow``. At 10,
    /// one hard stretch of one document (five cards in thirteen right, then ten refused, four of
    /// them as wrong cards) skipped the model's card rewrites for a day, the rest of that document
    /// first; a model that gets none right is still skipped after 10.
    func itemFailuresInARowToSkip(_ recent: [Attempt], now: Date) -> Int {
        guard itemFailuresToSkip > 0 else { return 0 }
        let run = recent.prefix { $0.outcome.isFailure }.count
        let before = recent.dropFirst(run).prefix(Self.itemYieldWindow).filter {
            now.timeIntervalSince($0.at) < skipDuration
        }
        let accepted = before.filter { $0.outcome == .accepted }.count
        guard accepted > 0 else { return itemFailuresToSkip }
        // The rate with one success and one failure added, as ``itemFailuresToStop`` reads it.
        let rate = Double(accepted + 1) / Double(before.count + 2)
        guard rate < 1 else { return itemFailuresToSkip }
        let rare = Int((log(0.001) / log(1 - rate)).rounded(.up))
        return min(max(itemFailuresToSkip, rare), max(itemFailuresToSkip, Self.itemYieldWindow))
    }

    /// What an item job's record says of the model before this run: its newest
    /// ``itemYieldWindow`` attempts made before `runStarted`, of those the last ``skipDuration``.
    private func itemRecord(_ recent: [Attempt], now: Date, runStarted: Date?) -> [Attempt] {
        recent.filter { attempt in runStarted.map { attempt.at < $0 } ?? true }
            .prefix(Self.itemYieldWindow)
            .filter { now.timeIntervalSince($0.at) < skipDuration }
    }

    /// Why an item job costs too much per accepted item on its record (``itemRecord(_:now:runStarted:)``), or `nil`.
    private func yieldSkip(_ considered: [Attempt]) -> String? {
        guard itemFailuresToSkip > 0, considered.count >= itemFailuresToSkip else { return nil }
        let accepted = considered.filter { $0.outcome == .accepted }.count
        let seconds = considered.reduce(0) { $0 + $1.duration }
        guard accepted == 0 || seconds / Double(accepted) > itemSecondsPerAccepted else { return nil }
        return FallbackReason.itemsTooCostly(
            accepted: accepted, attempts: considered.count, seconds: seconds, limit: itemSecondsPerAccepted).text
    }

    /// How many failed items in a row on one document stop the rest of that job on it, from the
    /// job's record before the run: the number of failures in a row that the record's acceptance
    /// rate makes a one-in-ten event, so the document is harder for the model than its usual
    /// material (a model that gets 4 key points in 7 right stops after 3 failures; one that gets 3
    /// cards in 12, after 7). `nil` with fewer than ``itemEvidenceAttempts`` attempts on record, or
    /// with skipping turned off: without a record, every item of the document is tried.
    public func itemFailuresToStop(recent: [Attempt], now: Date, runStarted: Date?) -> Int? {
        let considered = itemRecord(recent, now: now, runStarted: runStarted)
        guard failuresToSkip > 0, considered.count >= Self.itemEvidenceAttempts else { return nil }
        let accepted = considered.filter { $0.outcome == .accepted }.count
        // The rate with one success and one failure added, so a short perfect record does not
        // make a single failure decisive.
        let rate = Double(accepted + 1) / Double(considered.count + 2)
        return max(failuresToSkip, Int((log(0.1) / log(1 - rate)).rounded(.up)))
    }

    /// The fewest attempts on record that say how often a model gets an item job right.
    static let itemEvidenceAttempts = 5

    /// When a skip for `recent` ends at the latest: 24 h after the newest failure, or for an item
    /// job skipped on its cost, when too few of its attempts are left in the window to judge.
    public func skipEnds(recent: [Attempt], job: JobKind, oncePerDocument: Bool = false) -> Date? {
        guard let newest = recent.first?.at else { return nil }
        let perItem = job == .item && !oncePerDocument
        // An item job skipped on its cost: ``yieldSkip(_:)`` needs ``itemFailuresToSkip`` attempts.
        let needed = perItem ? itemFailuresToSkip : failuresToSkip
        if perItem, needed > 0, recent.count >= needed {
            let inARow = itemFailuresInARowToSkip(recent, now: newest)
            if recent.count < inARow || !recent.prefix(inARow).allSatisfy(\.outcome.isFailure) {
                return recent[needed - 1].at.addingTimeInterval(skipDuration)
            }
        }
        return newest.addingTimeInterval(skipDuration)
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
    public static func seconds(
        promptTokens: Int, responseTokens: Int, kind: EngineKind, modelAttempts: [Attempt]
    ) -> Double {
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
    /// When it started.
    public var start: Date { deadline.addingTimeInterval(-seconds) }

    /// A budget of `seconds` starting at `start`.
    public init(seconds: Double, start: Date) {
        self.seconds = seconds
        self.deadline = start.addingTimeInterval(seconds)
    }

    /// Seconds left at `now`, never negative.
    public func remaining(at now: Date) -> Double { max(0, deadline.timeIntervalSince(now)) }

    /// The default for a command: `import` gets about 30 s when only local models serve, other
    /// commands 30 s; with a remote model configured, 240–300 s for `import` and 120 s for the rest.
    /// `feynman` gets 5 s (15 s with a remote model): a whole answer that cannot fit is left to
    /// the builtin claim check, whose corrections the model phrases one at a time.
    ///
    /// `import` on local models alone grows with the material (#54): 30 s up to
    /// ``inProcessKitCharacters`` characters, then a second per 2,000 more, at most
    /// ``inProcessKitCap`` — the small model's item rewrites spread over a textbook's sections
    /// in the time a student waits for a book (105 pages, 100,000 characters: 74 s).
    /// `import` with a remote model grows too, from 240 s for a one-page note (up to
    /// ``remoteKitCharacters``) by a second per 25 characters more, to 300 s from 4,000
    /// characters: #53's line is a one-page note's kit in 4 minutes, and on Qwen2.5-Coder-1.5B
    /// (2 threads) a quiz started with 110 s left took 114 s and was refused, the kit 266 s; the
    /// budget stops such a part where the line is and the builtin engine fills it.
    /// The remote cases are sized for a document that fits the remote window: one that does not
    /// is read in chunks under ``ChunkedRunner/sizedBudget(_:tasks:floor:)``, this plus what its
    /// chunks are expected to take at the remote model's measured speed (#54).
    public static func defaultSeconds(for task: StudyTask, remoteConfigured: Bool, characterCount: Int = 0) -> Double {
        switch (task, remoteConfigured) {
        // Feedback on an explanation is a Post-it job: seconds, or the builtin check answers.
        case (.feynman, false): return 5
        case (.feynman, true): return 15
        case (.studyKit, false):
            let more = Double(max(0, characterCount - inProcessKitCharacters)) / 2_000
            return min(inProcessKitCap, 30 + more.rounded(.down))
        case (.studyKit, true):
            let more = Double(max(0, characterCount - remoteKitCharacters)) / 25
            return min(remoteKitCap, 240 + more.rounded(.down))
        case (_, false): return 30
        case (_, true): return 120
        }
    }

    /// A one-page note (#53: about 2,000 characters): its remote kit's default is 240 s.
    static let remoteKitCharacters = 2_500
    /// The longest default remote `import` of a document that fits the remote window.
    static let remoteKitCap = 300.0
    /// The characters an in-process `import` reads in its first 30 s.
    static let inProcessKitCharacters = 10_000
    /// The longest default in-process `import`: under #54's 90 s for a textbook.
    static let inProcessKitCap = 80.0
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
