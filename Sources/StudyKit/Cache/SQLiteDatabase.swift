internal import CSQLite
import Foundation

// The only file that imports sqlite3. Handles are owned by classes and released in `deinit`;
// result codes become `CacheError` cases; nothing of the C API leaks out of this file.

/// A value bound to a statement parameter.
enum SQLiteValue {
    case text(String)
    case integer(Int64)
    case real(Double)
    case null
}

/// One open connection to the studykit database (the result cache and the usage ledger), or to
/// a plain file that studykit writes once (an Anki collection, opened with `managed: false`).
///
/// The connection runs in WAL mode, so readers never block the writer and a process killed
/// mid-write leaves the last committed state behind. Every write goes through
/// ``immediateTransaction(_:)``, which takes the write lock up front (`BEGIN IMMEDIATE`) so two
/// processes never deadlock upgrading a read lock, and retries when `SQLITE_BUSY` still escapes
/// the busy timeout.
///
/// Not `Sendable` by itself: callers keep it behind a `Mutex` because a connection opened with
/// `SQLITE_OPEN_NOMUTEX` must only be used by one thread at a time.
final class SQLiteDatabase {
    /// The schema version stored in `PRAGMA user_version`: the last step of ``SchemaMigrations/steps``.
    static var schemaVersion: Int { SchemaMigrations.steps.last?.version ?? 0 }
    /// How long SQLite itself waits for another connection's lock before returning busy.
    static let busyTimeoutMilliseconds: Int32 = 5_000
    /// How many times a busy transaction is retried after the busy timeout gave up.
    static let busyRetries = 5

    /// The database file.
    let path: String
    private let handle: OpaquePointer

    /// Opens (creating if needed) the database at `path`, switches it to WAL and migrates it.
    /// - Parameters:
    ///   - busyTimeoutMilliseconds: how long to wait for another connection's lock; tests
    ///     shorten it to reach the retry path quickly.
    ///   - managed: `false` opens the file as it is: no WAL (the file must stand alone, as in a
    ///     zip) and none of studykit's tables (the caller brings its own schema).
    init(
        path: String, busyTimeoutMilliseconds: Int32 = SQLiteDatabase.busyTimeoutMilliseconds, managed: Bool = true
    ) throws(CacheError) {
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &opened, flags, nil)
        guard status == SQLITE_OK, let opened else {
            let reason = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(opened)
            throw Self.error(code: status, path: path, reason: reason, opening: true)
        }
        self.path = path
        self.handle = opened
        sqlite3_busy_timeout(opened, busyTimeoutMilliseconds)
        guard managed else { return }
        // From here on `deinit` closes the handle if configuration throws.
        try withBusyRetry { () throws(CacheError) in
            // journal_mode answers with a row naming the mode actually in effect.
            let mode = try query("PRAGMA journal_mode=WAL") { $0.text(at: 0) }.first ?? nil
            guard mode?.lowercased() == "wal" else {
                throw CacheError.sqlite(path: path, code: SQLITE_ERROR,
                    reason: "could not switch to wal mode, got \(mode ?? "nothing")")
            }
        }
        try execute("PRAGMA synchronous=NORMAL")
        try migrate()
    }

    deinit {
        // close_v2 defers the close if a statement is somehow still alive, instead of failing.
        sqlite3_close_v2(handle)
    }

    // MARK: Statements

    /// Runs one or more statements that take no parameters and return no rows.
    func execute(_ sql: String) throws(CacheError) {
        let status = sqlite3_exec(handle, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw error(code: status) }
    }

    /// Prepares one statement.
    func prepare(_ sql: String) throws(CacheError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else { throw error(code: status) }
        return SQLiteStatement(handle: statement, database: self)
    }

    /// Runs a statement with `values` bound in order, ignoring any rows.
    func run(_ sql: String, _ values: [SQLiteValue] = []) throws(CacheError) {
        let statement = try prepare(sql)
        try statement.bind(values)
        while try statement.step() {}
    }

    /// Runs a query with `values` bound in order and maps each row.
    func query<Row>(
        _ sql: String, _ values: [SQLiteValue] = [], row: (SQLiteStatement) throws(CacheError) -> Row
    ) throws(CacheError) -> [Row] {
        let statement = try prepare(sql)
        try statement.bind(values)
        var rows: [Row] = []
        while try statement.step() {
            rows.append(try row(statement))
        }
        return rows
    }

    /// Rows changed by the most recent INSERT, UPDATE or DELETE.
    var changes: Int {
        Int(sqlite3_changes(handle))
    }

    // MARK: Transactions

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, rolling back when it throws.
    ///
    /// The write lock is taken before `body` reads anything, so a concurrent writer waits in
    /// SQLite's busy handler instead of failing at commit. If busy still escapes (another
    /// process held the lock past the timeout), the whole transaction is retried a bounded
    /// number of times; `body` must therefore only touch the database.
    func immediateTransaction<Value>(_ body: () throws(CacheError) -> Value) throws(CacheError) -> Value {
        try transaction(begin: "BEGIN IMMEDIATE", body)
    }

    /// Runs read-only `body` inside a deferred transaction: one consistent snapshot across its
    /// queries, never blocking a writer (WAL), retried like a write if busy escapes (a reader
    /// can meet busy while another connection recovers the log after a crash).
    func readTransaction<Value>(_ body: () throws(CacheError) -> Value) throws(CacheError) -> Value {
        try transaction(begin: "BEGIN DEFERRED", body)
    }

    private func transaction<Value>(
        begin: String, _ body: () throws(CacheError) -> Value
    ) throws(CacheError) -> Value {
        try withBusyRetry { () throws(CacheError) -> Value in
            try execute(begin)
            do throws(CacheError) {
                let value = try body()
                try execute("COMMIT")
                return value
            } catch {
                if sqlite3_get_autocommit(handle) == 0 {
                    sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
                }
                throw error
            }
        }
    }

    private func withBusyRetry<Value>(_ body: () throws(CacheError) -> Value) throws(CacheError) -> Value {
        var attempt = 0
        while true {
            do throws(CacheError) {
                return try body()
            } catch {
                guard case .busy = error, attempt < Self.busyRetries else { throw error }
                attempt += 1
                // Back off a little more each time so two retrying processes drift apart.
                usleep(UInt32(10_000 * attempt + Int.random(in: 0..<10_000)))
            }
        }
    }

    // MARK: Schema

    /// Creates or upgrades the schema, recorded in `PRAGMA user_version`.
    private func migrate() throws(CacheError) {
        try immediateTransaction { () throws(CacheError) in
            let version = try query("PRAGMA user_version") { $0.integer(at: 0) }.first ?? 0
            if version > Int64(Self.schemaVersion) {
                throw CacheError.newerSchema(path: path, version: Int(version))
            }
            for step in SchemaMigrations.steps where version < Int64(step.version) {
                try execute(step.sql)
            }
            try execute("PRAGMA user_version=\(Self.schemaVersion)")
        }
    }

    /// The text of `PRAGMA integrity_check`: `"ok"` for a sound file.
    func integrityCheck() throws(CacheError) -> String {
        let lines = try query("PRAGMA integrity_check") { $0.text(at: 0) ?? "" }
        return lines.joined(separator: "\n")
    }

    /// The size in bytes of the database file plus its write-ahead log.
    func fileSize() -> Int {
        [path, path + "-wal"].reduce(0) { total, file in
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.intValue
            return total + (size ?? 0)
        }
    }

    // MARK: Errors

    fileprivate func error(code: Int32) -> CacheError {
        Self.error(code: code, path: path, reason: String(cString: sqlite3_errmsg(handle)), opening: false)
    }

    private static func error(code: Int32, path: String, reason: String, opening: Bool) -> CacheError {
        switch code & 0xff {
        case SQLITE_BUSY, SQLITE_LOCKED:
            return .busy(path: path)
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            return .corrupt(path: path)
        case SQLITE_FULL:
            return .diskFull(path: path)
        case SQLITE_READONLY, SQLITE_PERM:
            return .readOnly(path: path)
        case SQLITE_CANTOPEN:
            return .cannotOpen(path: path, reason: reason.lowercased())
        default:
            return opening
                ? .cannotOpen(path: path, reason: reason.lowercased())
                : .sqlite(path: path, code: code & 0xff, reason: reason)
        }
    }
}

/// A prepared statement, finalized in `deinit`.
///
/// It keeps its database alive so the connection is never closed under it.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private let database: SQLiteDatabase

    fileprivate init(handle: OpaquePointer, database: SQLiteDatabase) {
        self.handle = handle
        self.database = database
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Binds `values` to parameters 1, 2, … in order.
    func bind(_ values: [SQLiteValue]) throws(CacheError) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .text(let text):
                // TRANSIENT: SQLite copies the bytes, because the Swift buffer dies after this call.
                status = sqlite3_bind_text(handle, index, text, -1, studykit_sqlite_transient())
            case .integer(let number):
                status = sqlite3_bind_int64(handle, index, number)
            case .real(let number):
                status = sqlite3_bind_double(handle, index, number)
            case .null:
                status = sqlite3_bind_null(handle, index)
            }
            guard status == SQLITE_OK else { throw database.error(code: status) }
        }
    }

    /// Advances; `true` when a row is available, `false` when the statement is done.
    func step() throws(CacheError) -> Bool {
        let status = sqlite3_step(handle)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.error(code: status)
        }
    }

    /// The column as text, or `nil` for NULL.
    func text(at column: Int32) -> String? {
        guard let bytes = bytes(at: column) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The column's raw bytes exactly as stored, or `nil` for NULL; checksums are computed on
    /// these so that invalid UTF-8 in a damaged row cannot be repaired into a match.
    func bytes(at column: Int32) -> [UInt8]? {
        guard sqlite3_column_type(handle, column) != SQLITE_NULL else { return nil }
        // Ask for the pointer first: it may convert the value, which changes the byte count.
        let pointer = sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        guard let pointer, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// The column as a 64-bit integer (0 for NULL).
    func integer(at column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    /// The column as a double (0 for NULL).
    func real(at column: Int32) -> Double {
        sqlite3_column_double(handle, column)
    }

    /// The column as a double, or `nil` for NULL.
    func optionalReal(at column: Int32) -> Double? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : sqlite3_column_double(handle, column)
    }
}
