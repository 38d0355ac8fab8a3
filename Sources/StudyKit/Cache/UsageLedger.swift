import Foundation
import Synchronization

/// What one engine spent on one local calendar day.
public struct DailyUsage: Sendable, Equatable {
    /// The engine.
    public var engine: EngineKind
    /// The day.
    public var day: LedgerDay
    /// Prompt tokens sent.
    public var tokensIn: Int
    /// Completion tokens received.
    public var tokensOut: Int
    /// Requests made.
    public var requests: Int

    /// Tokens in both directions: what a token quota counts.
    public var totalTokens: Int { tokensIn + tokensOut }
}

/// A daily allowance for an engine, parsed from configuration such as
/// `STUDYKIT_REMOTE_DAILY_QUOTA`.
public enum DailyQuota: Sendable, Equatable, CustomStringConvertible {
    /// At most this many requests per day.
    case requests(Int)
    /// At most this many tokens (in plus out) per day.
    case tokens(Int)

    /// Parses `"200"` or `"200 requests"` (requests per day) and `"50000 tokens"` (tokens per
    /// day). Case and surrounding spaces do not matter; `_` and `,` may group digits.
    /// - Throws: ``CacheError/invalidQuota(_:)`` quoting `text` when it is anything else.
    public init(parsing text: String) throws(CacheError) {
        let words = text.lowercased().split(whereSeparator: \.isWhitespace)
        guard (1...2).contains(words.count) else { throw .invalidQuota(text) }
        let digits = words[0].filter { $0 != "_" && $0 != "," }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            words[0].first?.isNumber == true, let limit = Int(digits)
        else { throw .invalidQuota(text) }
        switch words.count == 2 ? String(words[1]) : "requests" {
        case "requests", "request": self = .requests(limit)
        case "tokens", "token": self = .tokens(limit)
        default: throw .invalidQuota(text)
        }
    }

    /// The daily limit, in the quota's own unit.
    public var limit: Int {
        switch self {
        case .requests(let limit), .tokens(let limit): return limit
        }
    }

    /// The quota as `studykit engines` shows it, e.g. `200 requests per day`.
    public var description: String {
        switch self {
        case .requests(let limit): return "\(limit) requests per day"
        case .tokens(let limit): return "\(limit) tokens per day"
        }
    }

    /// How much of the quota `usage` has spent, in the quota's unit.
    public func spent(by usage: DailyUsage) -> Int {
        switch self {
        case .requests: return usage.requests
        case .tokens: return usage.totalTokens
        }
    }
}

/// The seam the router uses to honour a daily quota: record what a request spent, and read a
/// day's totals. ``UsageLedger`` is the production implementation; `remaining` and
/// `isExhausted` come for free from ``usage(engine:on:)``.
public protocol UsageMetering: Sendable {
    /// Today's local calendar day, by the meter's clock.
    var today: LedgerDay { get }
    /// Adds `requests` requests and their tokens to `engine`'s count for today.
    func record(engine: EngineKind, tokensIn: Int, tokensOut: Int, requests: Int) throws(CacheError)
    /// What `engine` spent on `day` (today when `nil`).
    func usage(engine: EngineKind, on day: LedgerDay?) throws(CacheError) -> DailyUsage
}

extension UsageMetering {
    /// Records one request.
    public func record(engine: EngineKind, tokensIn: Int, tokensOut: Int) throws(CacheError) {
        try record(engine: engine, tokensIn: tokensIn, tokensOut: tokensOut, requests: 1)
    }

    /// What `engine` spent today.
    public func usage(engine: EngineKind) throws(CacheError) -> DailyUsage {
        try usage(engine: engine, on: nil)
    }

    /// How much of `quota` is left for `engine` on `day` (today when omitted), never negative.
    public func remaining(_ quota: DailyQuota, engine: EngineKind = .remote, on day: LedgerDay? = nil) throws(CacheError) -> Int {
        let spent = quota.spent(by: try usage(engine: engine, on: day))
        return max(0, quota.limit - spent)
    }

    /// Whether `engine` has used up `quota` on `day` (today when omitted).
    public func isExhausted(_ quota: DailyQuota, engine: EngineKind = .remote, on day: LedgerDay? = nil) throws(CacheError) -> Bool {
        try remaining(quota, engine: engine, on: day) == 0
    }
}

/// Counts what each engine spent per local calendar day, so the router can honour a remote
/// daily quota across runs and across concurrent processes.
///
/// Shares the database file with ``ResultCache`` and, like it, is `Sendable` by keeping its
/// own connection behind a `Mutex`; increments are single UPSERTs inside `BEGIN IMMEDIATE`,
/// so two processes recording at once never lose a count.
public final class UsageLedger: UsageMetering {
    /// The database file.
    public let path: String
    /// The clock that decides which day a record counts towards.
    public let clock: any DayClock
    let database: Mutex<SQLiteDatabase>

    /// Opens or creates the ledger at `path`.
    public init(path: String, clock: any DayClock = SystemDayClock()) throws(CacheError) {
        self.path = path
        self.clock = clock
        self.database = Mutex(try SQLiteDatabase(path: path))
    }

    /// Opens the ledger where ``CacheLocation`` says it lives for `environment`.
    public convenience init(environment: [String: String], clock: any DayClock = SystemDayClock()) throws(CacheError) {
        try self.init(path: CacheLocation.databasePath(environment: environment), clock: clock)
    }

    /// Today's day according to the injected clock.
    public var today: LedgerDay { clock.today }

    /// Adds `requests` requests and their tokens to `engine`'s count for today; negative
    /// amounts count as zero, so a confused caller can never refund a quota.
    public func record(engine: EngineKind, tokensIn: Int, tokensOut: Int, requests: Int) throws(CacheError) {
        let day = today
        try database.withLock { (db: inout SQLiteDatabase) throws(CacheError) in
            try db.immediateTransaction { () throws(CacheError) in
                try db.run(
                    """
                    INSERT INTO usage (engine, day, tokens_in, tokens_out, requests) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(engine, day) DO UPDATE SET
                        tokens_in = tokens_in + excluded.tokens_in,
                        tokens_out = tokens_out + excluded.tokens_out,
                        requests = requests + excluded.requests
                    """,
                    [
                        .text(engine.rawValue), .text(day.text), .integer(Int64(max(0, tokensIn))),
                        .integer(Int64(max(0, tokensOut))), .integer(Int64(max(0, requests))),
                    ])
            }
        }
    }

    /// What `engine` spent on `day` (today when `nil`); zeros for a day with no record.
    public func usage(engine: EngineKind, on day: LedgerDay?) throws(CacheError) -> DailyUsage {
        let day = day ?? today
        let row = try database.withLock { (db: inout SQLiteDatabase) throws(CacheError) -> (Int64, Int64, Int64)? in
            try db.readTransaction { () throws(CacheError) -> (Int64, Int64, Int64)? in
                try db.query(
                    "SELECT tokens_in, tokens_out, requests FROM usage WHERE engine = ? AND day = ?",
                    [.text(engine.rawValue), .text(day.text)]
                ) { ($0.integer(at: 0), $0.integer(at: 1), $0.integer(at: 2)) }.first
            }
        }
        return DailyUsage(
            engine: engine, day: day, tokensIn: Int(row?.0 ?? 0), tokensOut: Int(row?.1 ?? 0),
            requests: Int(row?.2 ?? 0))
    }
}
