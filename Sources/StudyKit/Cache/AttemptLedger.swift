import Foundation
import Synchronization

// MARK: - What an attempt is

/// The size of job a model was asked to do; the record is kept per kind, so a model that
/// cannot write a whole part is not kept from rewriting one item.
public enum JobKind: String, Sendable, Hashable, CaseIterable {
    /// A whole part (a summary, a deck of flashcards, a whole kit).
    case part
    /// One chunk of a document too large for the window.
    case chunk
    /// One extracted item to rephrase (a card, a branch label, an overview).
    case item
}

/// How one model attempt ended.
public enum AttemptOutcome: String, Sendable, Hashable, CaseIterable {
    /// The answer passed validation and grounding.
    case accepted
    /// The answer did not validate (schema, rules or grounding), after the re-ask if there was one.
    case invalid
    /// The answer was cut at the response limit.
    case cut
    /// The answer started repeating entries it had already produced and was stopped early.
    case repeated
    /// The engine did not answer in time.
    case timedOut = "timed-out"
    /// The request failed on the way (connection, HTTP, server error).
    case transportError = "transport-error"
    /// The answer passed, but every text of it was the material's own words, word for word (a
    /// headline or summary a model copied, ``ItemProvenance/written(in:model:material:cached:)``):
    /// it is shipped, yet the model added nothing the builtin engine does not give in a tenth of
    /// a second, so the attempt counts against the model like a failure. Qwen2.5-Coder-0.5B's
    /// headline was the material's opening sentence and title on most documents, at ~3 s each.
    case copied

    /// Everything but ``accepted`` counts against the model.
    public var isFailure: Bool { self != .accepted }
}

/// Which job of which model a record is about. A change of model or of prompt version is a
/// new key, so an old record never blocks a new model or a reworded prompt.
public struct AttemptKey: Sendable, Hashable, CustomStringConvertible {
    /// The engine kind.
    public var engine: EngineKind
    /// The model's identity (``LanguageModel/identity``).
    public var model: String
    /// The task (`flashcards`, `import`, …).
    public var task: String
    /// Part, chunk or item.
    public var job: JobKind
    /// The prompt template version the job was asked with.
    public var promptVersion: String

    /// Creates a key.
    public init(engine: EngineKind, model: String, task: String, job: JobKind, promptVersion: String) {
        self.engine = engine
        self.model = model
        self.task = task
        self.job = job
        self.promptVersion = promptVersion
    }

    /// `local SmolLM2 flashcards/part (flashcards/2)`.
    public var description: String { "\(engine.rawValue) \(model) \(task)/\(job.rawValue) (\(promptVersion))" }
}

/// One recorded attempt.
public struct Attempt: Sendable, Equatable {
    /// What was attempted, by whom.
    public var key: AttemptKey
    /// How it ended.
    public var outcome: AttemptOutcome
    /// Wall-clock seconds it took, re-ask included.
    public var duration: Double
    /// Prompt tokens sent.
    public var tokensIn: Int
    /// Response tokens received.
    public var tokensOut: Int
    /// When it ended.
    public var at: Date

    /// Creates an attempt.
    public init(key: AttemptKey, outcome: AttemptOutcome, duration: Double, tokensIn: Int = 0, tokensOut: Int = 0,
        at: Date) {
        self.key = key
        self.outcome = outcome
        self.duration = duration
        self.tokensIn = tokensIn
        self.tokensOut = tokensOut
        self.at = at
    }
}

/// One key's record as `studykit engines` shows it.
public struct AttemptSummary: Sendable, Equatable {
    /// The job.
    public var key: AttemptKey
    /// Attempts recorded.
    public var attempts: Int
    /// How many were accepted.
    public var accepted: Int
    /// The newest attempt's outcome.
    public var lastOutcome: AttemptOutcome
    /// When the newest attempt ended.
    public var lastAt: Date
    /// Mean seconds per attempt.
    public var meanDuration: Double
}

// MARK: - The seam

/// The capability memory: every model attempt, so the router can skip a model that keeps
/// failing a job and estimate how long a job takes. ``UsageLedger`` is the production store.
public protocol AttemptRecording: Sendable {
    /// Adds one attempt.
    func recordAttempt(_ attempt: Attempt) throws(CacheError)
    /// The newest `limit` attempts for `key`, newest first.
    func recentAttempts(_ key: AttemptKey, limit: Int) throws(CacheError) -> [Attempt]
    /// The newest `limit` attempts of a model, over every job, newest first (for speed estimates).
    func recentAttempts(engine: EngineKind, model: String, limit: Int) throws(CacheError) -> [Attempt]
    /// Every key's record, by engine, model, task and job.
    func attemptSummaries() throws(CacheError) -> [AttemptSummary]
    /// Forgets every job attempt (the sent requests stay); returns how many were removed.
    func forgetAttempts() throws(CacheError) -> Int
}

// MARK: - SQLite

extension UsageLedger: AttemptRecording {
    /// Adds one attempt (negative figures count as zero).
    public func recordAttempt(_ attempt: Attempt) throws(CacheError) {
        try database.withLock { (db: inout SQLiteDatabase) throws(CacheError) in
            try db.immediateTransaction { () throws(CacheError) in
                try db.run(
                    """
                    INSERT INTO attempts (engine, model, task, job, prompt_version, outcome, duration, tokens_in, \
                    tokens_out, at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(attempt.key.engine.rawValue), .text(attempt.key.model), .text(attempt.key.task),
                        .text(attempt.key.job.rawValue), .text(attempt.key.promptVersion),
                        .text(attempt.outcome.rawValue),
                        .real(max(0, attempt.duration)), .integer(Int64(max(0, attempt.tokensIn))),
                        .integer(Int64(max(0, attempt.tokensOut))), .real(attempt.at.timeIntervalSince1970),
                    ])
            }
        }
    }

    /// The newest `limit` attempts for `key`, newest first.
    public func recentAttempts(_ key: AttemptKey, limit: Int) throws(CacheError) -> [Attempt] {
        try select(
            "WHERE level = 'job' AND engine = ? AND model = ? AND task = ? AND job = ? AND prompt_version = ?",
            [.text(key.engine.rawValue), .text(key.model), .text(key.task), .text(key.job.rawValue),
                .text(key.promptVersion)],
            limit: limit)
    }

    /// The newest `limit` attempts of a model over every job, newest first.
    public func recentAttempts(engine: EngineKind, model: String, limit: Int) throws(CacheError) -> [Attempt] {
        try select("WHERE level = 'job' AND engine = ? AND model = ?", [.text(engine.rawValue), .text(model)],
            limit: limit)
    }

    /// Every key's record.
    public func attemptSummaries() throws(CacheError) -> [AttemptSummary] {
        let rows = try database.withLock { (db: inout SQLiteDatabase) throws(CacheError) -> [AttemptSummary?] in
            try db.readTransaction { () throws(CacheError) -> [AttemptSummary?] in
                try db.query(
                    """
                    SELECT engine, model, task, job, prompt_version, COUNT(*),
                           SUM(outcome = 'accepted'), AVG(duration), MAX(at),
                           (SELECT outcome FROM attempts AS newest
                            WHERE newest.level = 'job' AND newest.engine = a.engine AND newest.model = a.model AND \
                    newest.task = a.task
                              AND newest.job = a.job AND newest.prompt_version = a.prompt_version
                            ORDER BY at DESC, id DESC LIMIT 1)
                    FROM attempts AS a WHERE level = 'job'
                    GROUP BY engine, model, task, job, prompt_version
                    ORDER BY engine, model, task, job, prompt_version
                    """
                ) { row -> AttemptSummary? in
                    guard let engine = row.text(at: 0).flatMap(EngineKind.init(rawValue:)),
                        let job = row.text(at: 3).flatMap(JobKind.init(rawValue:)),
                        let last = row.text(at: 9).flatMap(AttemptOutcome.init(rawValue:))
                    else { return nil }
                    let key = AttemptKey(
                        engine: engine, model: row.text(at: 1) ?? "", task: row.text(at: 2) ?? "", job: job,
                        promptVersion: row.text(at: 4) ?? "")
                    return AttemptSummary(
                        key: key, attempts: Int(row.integer(at: 5)), accepted: Int(row.integer(at: 6)),
                        lastOutcome: last,
                        lastAt: Date(timeIntervalSince1970: row.real(at: 8)), meanDuration: row.real(at: 7))
                }
            }
        }
        return rows.compactMap { $0 }
    }

    /// Forgets every job attempt (the capability memory); the sent requests stay, as the record of what was spent.
    public func forgetAttempts() throws(CacheError) -> Int {
        try database.withLock { (db: inout SQLiteDatabase) throws(CacheError) -> Int in
            try db.immediateTransaction { () throws(CacheError) -> Int in
                // The request rows are the record of what was spent: only the capability memory goes.
                let count =
                    try db.query("SELECT COUNT(*) FROM attempts WHERE level = 'job'") { $0.integer(at: 0) }.first ?? 0
                try db.run("DELETE FROM attempts WHERE level = 'job'")
                return Int(count)
            }
        }
    }

    private func select(_ filter: String, _ values: [SQLiteValue], limit: Int) throws(CacheError) -> [Attempt] {
        let rows = try database.withLock { (db: inout SQLiteDatabase) throws(CacheError) -> [Attempt?] in
            try db.readTransaction { () throws(CacheError) -> [Attempt?] in
                try db.query(
                    """
                    SELECT engine, model, task, job, prompt_version, outcome, duration, tokens_in, tokens_out, at
                    FROM attempts \(filter) ORDER BY at DESC, id DESC LIMIT \(max(0, limit))
                    """, values
                ) { row -> Attempt? in
                    guard let engine = row.text(at: 0).flatMap(EngineKind.init(rawValue:)),
                        let job = row.text(at: 3).flatMap(JobKind.init(rawValue:)),
                        let outcome = row.text(at: 5).flatMap(AttemptOutcome.init(rawValue:))
                    else { return nil }
                    return Attempt(
                        key: AttemptKey(
                            engine: engine, model: row.text(at: 1) ?? "", task: row.text(at: 2) ?? "", job: job,
                            promptVersion: row.text(at: 4) ?? ""),
                        outcome: outcome, duration: row.real(at: 6), tokensIn: Int(row.integer(at: 7)),
                        tokensOut: Int(row.integer(at: 8)), at: Date(timeIntervalSince1970: row.real(at: 9)))
                }
            }
        }
        return rows.compactMap { $0 }
    }
}
