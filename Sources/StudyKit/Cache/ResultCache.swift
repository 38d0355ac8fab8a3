import Foundation
import Synchronization

/// A validated result to store: the caller has already decoded and validated `payload`; or,
/// with another ``Kind``, what a model answered that is kept without being a result.
public struct CacheEntry: Sendable, Equatable {
    /// What an entry is.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// A validated result, shown as it is when asked again.
        case result
        /// A model's answer to one item job as it came, judged again on every use.
        case itemAnswer = "item-answer"
        /// The fact that a model failed a whole part request in a way greedy decoding repeats.
        case failedRequest = "failed-request"
    }

    /// What the entry is; a result unless said otherwise.
    public var kind: Kind = .result
    /// The result as JSON text (the typed value re-encoded after validation).
    public var payload: String
    /// The engine that answered.
    public var engine: EngineKind
    /// The model that answered.
    public var model: String
    /// What fitting did to the input, as the caller's own JSON text; `nil` when nothing was cut.
    public var fittedInfo: String?

    /// Creates an entry.
    public init(payload: String, engine: EngineKind, model: String, fittedInfo: String? = nil, kind: Kind = .result) {
        self.kind = kind
        self.payload = payload
        self.engine = engine
        self.model = model
        self.fittedInfo = fittedInfo
    }
}

/// A result read back from the cache, its checksum verified.
public struct CachedResult: Sendable, Equatable {
    /// The stored result as JSON text.
    public var payload: String
    /// The engine that answered originally.
    public var engine: EngineKind
    /// The model that answered originally.
    public var model: String
    /// When the result was stored.
    public var createdAt: Date
    /// The caller's fitted-info JSON text, if any.
    public var fittedInfo: String?

    /// Creates a result; public so test doubles of ``ResultCaching`` can return one.
    public init(payload: String, engine: EngineKind, model: String, createdAt: Date, fittedInfo: String? = nil) {
        self.payload = payload
        self.engine = engine
        self.model = model
        self.createdAt = createdAt
        self.fittedInfo = fittedInfo
    }
}

/// The seam the router uses to look results up and store them; ``ResultCache`` is the
/// production implementation, and a test can pass a double.
public protocol ResultCaching: Sendable {
    /// The stored, verified result for `key`, or `nil`.
    func get(_ key: CacheKey) throws(CacheError) -> CachedResult?
    /// Stores an already-validated result for `key`, replacing any previous one.
    func put(_ entry: CacheEntry, for key: CacheKey) throws(CacheError)
}

/// What `studykit cache stats` shows.
public struct CacheStats: Sendable, Equatable {
    /// Stored results.
    public var entries: Int
    /// Kept model answers that are no results: item answers and failed part requests.
    public var keptAnswers: Int = 0
    /// Bytes of stored payload text.
    public var payloadBytes: Int
    /// Bytes on disk: the database file plus its write-ahead log (also holds the usage ledger).
    public var fileBytes: Int
    /// Lookups answered from the cache since the counters were last reset.
    public var hits: Int
    /// Lookups that found nothing usable since the counters were last reset.
    public var misses: Int
}

/// The outcome of a full consistency check of the cache file.
public struct CacheIntegrityReport: Sendable, Equatable {
    /// The output of `PRAGMA integrity_check`; `"ok"` for a sound file.
    public var integrityCheck: String
    /// Stored results.
    public var entries: Int
    /// Stored results whose payload no longer matches its checksum.
    public var checksumMismatches: Int

    /// Whether the file and every row are sound.
    public var isSound: Bool { integrityCheck == "ok" && checksumMismatches == 0 }
}

/// The persistent cache of validated model results, in SQLite.
///
/// `Sendable`: one connection per instance, serialised behind a `Mutex`. A connection is
/// cheap to keep and expensive to open (WAL setup and a schema check), and SQLite already
/// coordinates separate connections and processes through its file locks, so several
/// instances on one file are safe too. Calls block while another process holds the write
/// lock (up to the busy timeout); they are short, so callers need not hop off their thread.
public final class ResultCache: ResultCaching {
    /// The database file.
    public let path: String
    private let database: Mutex<SQLiteDatabase>
    private let clock: any DayClock

    /// Opens or creates the cache at `path`.
    /// - Throws: ``CacheError`` when the file cannot be opened, is damaged, or is newer.
    public convenience init(path: String, clock: any DayClock = SystemDayClock()) throws(CacheError) {
        try self.init(path: path, clock: clock, busyTimeoutMilliseconds: SQLiteDatabase.busyTimeoutMilliseconds)
    }

    /// Opens the cache with a chosen busy timeout; tests use a short one.
    init(path: String, clock: any DayClock, busyTimeoutMilliseconds: Int32) throws(CacheError) {
        self.path = path
        self.database = Mutex(try SQLiteDatabase(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds))
        self.clock = clock
    }

    /// Opens the cache where ``CacheLocation`` says it lives for `environment`.
    public convenience init(environment: [String: String], clock: any DayClock = SystemDayClock()) throws(CacheError) {
        try self.init(path: CacheLocation.databasePath(environment: environment), clock: clock)
    }

    /// The stored result for `key`, or `nil` (a miss).
    ///
    /// A row whose payload does not match its checksum, or whose fields no longer decode, is
    /// deleted and reported as a miss: a damaged entry is never served. Every call counts as
    /// a hit or a miss in the persisted counters.
    public func get(_ key: CacheKey) throws(CacheError) -> CachedResult? {
        try database.withLock { (db: inout SQLiteDatabase) throws(CacheError) -> CachedResult? in
            try db.immediateTransaction { () throws(CacheError) -> CachedResult? in
                let rows = try db.query(
                    "SELECT payload, checksum, engine, model, created_at, fitted FROM results WHERE key = ?",
                    [.text(key.digest)]
                ) { row in
                    Self.decodeRow(
                        payload: row.bytes(at: 0), checksum: row.text(at: 1), engine: row.text(at: 2),
                        model: row.text(at: 3), createdAt: row.real(at: 4), fittedInfo: row.text(at: 5))
                }
                let result = rows.first ?? nil
                if result == nil, !rows.isEmpty {
                    try db.run("DELETE FROM results WHERE key = ?", [.text(key.digest)])
                }
                try Self.bump(result == nil ? "misses" : "hits", in: db)
                return result
            }
        }
    }

    /// Stores `entry` as the result for `key`, replacing any previous one, in one transaction.
    /// - Throws: ``CacheError/invalidPayload(_:)`` when `payload` or `fittedInfo` is not JSON.
    public func put(_ entry: CacheEntry, for key: CacheKey) throws(CacheError) {
        try put(entry, for: key, beforeCommit: nil)
    }

    /// ``put(_:for:)`` with a seam for crash tests: `beforeCommit` runs inside the transaction,
    /// after the row is written and before `COMMIT`, so a test can kill the process there.
    func put(_ entry: CacheEntry, for key: CacheKey, beforeCommit: (() -> Void)?) throws(CacheError) {
        try Self.requireJSON(entry.payload)
        if let fitted = entry.fittedInfo { try Self.requireJSON(fitted) }
        let createdAt = clock.now().timeIntervalSince1970
        try database.withLock { (db: inout SQLiteDatabase) throws(CacheError) in
            try db.immediateTransaction { () throws(CacheError) in
                try db.run(
                    """
                    INSERT OR REPLACE INTO results (key, task, engine, model, payload, checksum, fitted, created_at, \
                    kind)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(key.digest), .text(key.task.rawValue), .text(entry.engine.rawValue),
                        .text(entry.model), .text(entry.payload), .text(try SHA256Digest.hex(of: entry.payload)),
                        entry.fittedInfo.map(SQLiteValue.text) ?? .null, .real(createdAt), .text(entry.kind.rawValue),
                    ])
                beforeCommit?()
            }
        }
    }

    /// Entry count, sizes and the hit/miss counters.
    public func stats() throws(CacheError) -> CacheStats {
        try database.withLock { (db: inout SQLiteDatabase) throws(CacheError) -> CacheStats in
            try db.readTransaction { () throws(CacheError) -> CacheStats in
                let totals = try db.query(
                    "SELECT COUNT(*), COALESCE(SUM(LENGTH(CAST(payload AS BLOB))), 0) FROM results WHERE kind = "
                        + "'result'"
                ) { ($0.integer(at: 0), $0.integer(at: 1)) }.first ?? (0, 0)
                let kept =
                    try db.query("SELECT COUNT(*) FROM results WHERE kind != 'result'") { $0.integer(at: 0) }.first ?? 0
                let counters = try db.query("SELECT name, value FROM counters") { ($0.text(at: 0) ?? "",
                    $0.integer(at: 1)) }
                let counter = { (name: String) in Int(counters.first { $0.0 == name }?.1 ?? 0) }
                return CacheStats(
                    entries: Int(totals.0), keptAnswers: Int(kept), payloadBytes: Int(totals.1),
                    fileBytes: db.fileSize(),
                    hits: counter("hits"), misses: counter("misses"))
            }
        }
    }

    /// Removes every result, or only `task`'s, and returns how many results were removed (the
    /// kept model answers go with them, uncounted; ``clearCounts(task:)`` counts both).
    @discardableResult
    public func clear(task: StudyTask? = nil) throws(CacheError) -> Int {
        try clearCounts(task: task).results
    }

    /// Removes every entry, or only `task`'s — results and kept model answers — and returns how
    /// many of each were removed.
    ///
    /// Clearing everything also resets the hit/miss counters, so the next `stats` describes
    /// the fresh cache; the usage ledger is never touched (it guards the remote quota).
    public func clearCounts(task: StudyTask? = nil) throws(CacheError) -> (results: Int, keptAnswers: Int) {
        try database.withLock { (db: inout SQLiteDatabase) throws(CacheError) -> (results: Int, keptAnswers: Int) in
            try db.immediateTransaction { () throws(CacheError) -> (results: Int, keptAnswers: Int) in
                let filter = task == nil ? "" : " AND task = ?"
                let values: [SQLiteValue] = task.map { [.text($0.rawValue)] } ?? []
                try db.run("DELETE FROM results WHERE kind = 'result'" + filter, values)
                let results = db.changes
                try db.run("DELETE FROM results WHERE kind != 'result'" + filter, values)
                let kept = db.changes
                if task == nil { try db.run("DELETE FROM counters") }
                return (results, kept)
            }
        }
    }

    /// Checks the file (`PRAGMA integrity_check`) and every row's checksum, changing nothing.
    public func integrityReport() throws(CacheError) -> CacheIntegrityReport {
        try database.withLock { (db: inout SQLiteDatabase) throws(CacheError) -> CacheIntegrityReport in
            try db.readTransaction { () throws(CacheError) -> CacheIntegrityReport in
                let check = try db.integrityCheck()
                let rows = try db.query("SELECT payload, checksum FROM results") { row in (row.bytes(at: 0),
                    row.text(at: 1)) }
                var mismatches = 0
                for (payload, checksum) in rows where try payload.map(SHA256Digest.hex(of:)) != checksum {
                    mismatches += 1
                }
                return CacheIntegrityReport(integrityCheck: check, entries: rows.count, checksumMismatches: mismatches)
            }
        }
    }

    // MARK: Rows

    private static func decodeRow(
        payload: [UInt8]?, checksum: String?, engine: String?, model: String?, createdAt: Double, fittedInfo: String?
    ) -> CachedResult? {
        // A row whose checksum cannot be computed is a miss, like one whose checksum is wrong.
        guard let payload, let checksum, (try? SHA256Digest.hex(of: payload)) == checksum,
            let engine = engine.flatMap(EngineKind.init(rawValue:)), let model
        else { return nil }
        return CachedResult(
            payload: String(decoding: payload, as: UTF8.self), engine: engine, model: model,
            createdAt: Date(timeIntervalSince1970: createdAt), fittedInfo: fittedInfo)
    }

    private static func bump(_ counter: String, in db: SQLiteDatabase) throws(CacheError) {
        try db.run(
            "INSERT INTO counters (name, value) VALUES (?, 1) ON CONFLICT(name) DO UPDATE SET value = value + 1",
            [.text(counter)])
    }

    /// Only JSON text goes in: a cheap last guard against caching an unvalidated model reply.
    private static func requireJSON(_ text: String) throws(CacheError) {
        let parsed = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        guard parsed != nil else {
            let preview = text.count > 40 ? String(text.prefix(40)) + "…" : text
            throw .invalidPayload(preview)
        }
    }
}
