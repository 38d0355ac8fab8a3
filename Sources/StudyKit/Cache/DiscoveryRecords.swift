import Foundation
import Synchronization

/// What discovery learnt about one server, as stored: the engine's own encoding, and when.
public struct StoredDiscovery: Sendable, Equatable {
    /// The engine's encoding of what it learnt (JSON text); the store does not read it.
    public var payload: String
    /// When the server was asked.
    public var discoveredAt: Date

    /// Creates a record.
    public init(payload: String, discoveredAt: Date) {
        self.payload = payload
        self.discoveredAt = discoveredAt
    }
}

/// The seam an OpenAI-compatible engine keeps its discovery in across runs, keyed by server
/// (base URL and configured dialect). Best effort by contract: a store that cannot read or
/// write behaves as empty, so a broken cache file costs a discovery, never a failed run.
public protocol DiscoveryStoring: Sendable {
    /// The record for `server`, if one was saved.
    func load(_ server: String) -> StoredDiscovery?
    /// Saves (replacing) the record for `server`.
    func save(_ server: String, _ record: StoredDiscovery)
    /// Forgets `server`, so the next run asks it again.
    func forget(_ server: String)
}

/// ``DiscoveryStoring`` in the studykit database (the `discoveries` table), shared with the
/// result cache and the ledger.
public final class DiscoveryRecords: DiscoveryStoring {
    /// The database file.
    public let path: String
    private let database: Mutex<SQLiteDatabase>

    /// Opens or creates the store at `path`.
    public init(path: String) throws(CacheError) {
        self.path = path
        self.database = Mutex(try SQLiteDatabase(path: path))
    }

    /// Opens the store where ``CacheLocation`` says the database lives for `environment`.
    public convenience init(environment: [String: String]) throws(CacheError) {
        try self.init(path: CacheLocation.databasePath(environment: environment))
    }

    public func load(_ server: String) -> StoredDiscovery? {
        try? database.withLock { (db: inout SQLiteDatabase) throws(CacheError) -> StoredDiscovery? in
            try db.readTransaction { () throws(CacheError) -> StoredDiscovery? in
                try db.query("SELECT payload, discovered_at FROM discoveries WHERE server = ?", [.text(server)]) {
                    StoredDiscovery(payload: $0.text(at: 0) ?? "",
                        discoveredAt: Date(timeIntervalSince1970: $0.real(at: 1)))
                }.first
            }
        }
    }

    public func save(_ server: String, _ record: StoredDiscovery) {
        try? database.withLock { (db: inout SQLiteDatabase) throws(CacheError) in
            try db.immediateTransaction { () throws(CacheError) in
                try db.run(
                    "INSERT OR REPLACE INTO discoveries (server, payload, discovered_at) VALUES (?, ?, ?)",
                    [.text(server), .text(record.payload), .real(record.discoveredAt.timeIntervalSince1970)])
            }
        }
    }

    /// How many servers' discoveries are stored.
    public func count() throws(CacheError) -> Int {
        try database.withLock { (db: inout SQLiteDatabase) throws(CacheError) -> Int in
            try db.readTransaction { () throws(CacheError) -> Int in
                Int(try db.query("SELECT COUNT(*) FROM discoveries") { $0.integer(at: 0) }.first ?? 0)
            }
        }
    }

    /// Forgets every server's discovery (`studykit cache clear`); returns how many were removed.
    @discardableResult
    public func forgetAll() throws(CacheError) -> Int {
        try database.withLock { (db: inout SQLiteDatabase) throws(CacheError) -> Int in
            try db.immediateTransaction { () throws(CacheError) -> Int in
                try db.run("DELETE FROM discoveries")
                return db.changes
            }
        }
    }

    public func forget(_ server: String) {
        try? database.withLock { (db: inout SQLiteDatabase) throws(CacheError) in
            try db.immediateTransaction { () throws(CacheError) in
                try db.run("DELETE FROM discoveries WHERE server = ?", [.text(server)])
            }
        }
    }
}
