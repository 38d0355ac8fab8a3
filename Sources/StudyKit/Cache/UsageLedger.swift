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

    /// What one request holding `tokens` takes of the quota, in its unit.
    func charge(tokens: Int) -> Int {
        switch self {
        case .requests: return 1
        case .tokens: return max(0, tokens)
        }
    }

    /// Whether the quota counts requests (else tokens).
    var isRequests: Bool { charge(tokens: 0) == 1 }

    /// How much of the quota `usage` has spent, in the quota's unit.
    public func spent(by usage: DailyUsage) -> Int {
        switch self {
        case .requests: return usage.requests
        case .tokens: return usage.totalTokens
        }
    }
}

/// The seam the router uses to honour a daily quota: record what a request spent, and read a
/// day's totals. ``UsageLedger`` is the production implementation; ``standing(_:engine:on:)``
/// (spent, held and left) comes for free from ``usage(engine:on:)`` and the open reservations.
public protocol UsageMetering: Sendable {
    /// Today's local calendar day, by the meter's clock.
    var today: LedgerDay { get }
    /// Adds `requests` requests and their tokens to `engine`'s count for today.
    func record(engine: EngineKind, tokensIn: Int, tokensOut: Int, requests: Int) throws(CacheError)
    /// What `engine` spent on `day` (today when `nil`).
    func usage(engine: EngineKind, on day: LedgerDay?) throws(CacheError) -> DailyUsage
    /// Checks `quota` and holds one request and `tokens` against it in the same transaction,
    /// so concurrent callers never both take the last of it; `nil` when the quota has no room
    /// (what is spent, plus what others hold, plus this request would exceed it). After
    /// `expiresAt` the allowance no longer counts (its process died without settling); `nil`
    /// holds it for its whole day.
    func reserve(engine: EngineKind, tokens: Int, quota: DailyQuota,
        expiresAt: Date?) throws(CacheError) -> QuotaReservation?
    /// Replaces `reservation` (if any) with what was spent, and records each sent request, in
    /// one transaction. With nothing spent this releases the reservation.
    func settle(_ reservation: QuotaReservation?, engine: EngineKind, spent: Spending,
        requests: [RequestRecord]) throws(CacheError)
    /// The allowances held against `engine`'s quota today that ``reserve(engine:tokens:quota:expiresAt:)``
    /// counts: requests in flight, or never settled and not yet expired. A meter without a
    /// reservations table holds none.
    func openReservations(engine: EngineKind) throws(CacheError) -> [QuotaReservation]
}

/// Where a daily quota stands on a day, as ``UsageMetering/reserve(engine:tokens:quota:expiresAt:)``
/// judges it: what was spent, what open reservations hold, and what is left of the limit after
/// both, each in the quota's unit (requests or tokens).
public struct QuotaStanding: Sendable, Equatable {
    /// The quota.
    public var quota: DailyQuota
    /// Spent (settled) on the day.
    public var used: Int
    /// Held by open reservations: requests in flight, or left by a killed process until they expire.
    public var reserved: Int

    /// Creates a standing.
    public init(quota: DailyQuota, used: Int, reserved: Int) {
        self.quota = quota
        self.used = used
        self.reserved = reserved
    }

    /// What a new request may still take, never negative.
    public var remaining: Int { max(0, quota.limit - used - reserved) }

    /// Why the quota has no room, as the router and `route --explain` say it; `nil` when it has.
    public var fullReason: String? {
        guard remaining == 0 else { return nil }
        guard reserved > 0 else { return "the remote daily quota (\(quota)) is used up" }
        return "the remote daily quota (\(quota)) is taken: \(used) used and \(reserved) reserved by requests still "
            + "open"
    }
}

/// An allowance held in the ledger between the quota check and the real usage.
public struct QuotaReservation: Sendable, Equatable {
    /// The row that holds it (0 for a meter without a reservations table).
    public var id: Int64
    /// The day it counts towards: the day the request was made.
    public var day: LedgerDay
    /// Requests held.
    public var requests: Int
    /// Tokens held: the prompt's estimate plus the response reserve.
    public var tokens: Int
    /// When it was taken.
    public var createdAt: Date? = nil
    /// When it stops counting if it is never settled; `nil`: at the end of its day.
    public var expiresAt: Date? = nil
}

/// What one metered model call spent.
public struct Spending: Sendable, Equatable {
    /// Requests the provider may bill.
    public var requests = 0
    /// Prompt tokens, reported or estimated.
    public var tokensIn = 0
    /// Response tokens, reported or estimated.
    public var tokensOut = 0

    /// Creates a figure.
    public init(requests: Int = 0, tokensIn: Int = 0, tokensOut: Int = 0) {
        self.requests = requests
        self.tokensIn = tokensIn
        self.tokensOut = tokensOut
    }

    /// Whether anything was spent.
    public var isZero: Bool { requests == 0 && tokensIn == 0 && tokensOut == 0 }
}

/// One sent request as the ledger keeps it: a row of `attempts` at level `request`.
public struct RequestRecord: Sendable, Equatable {
    /// The job it was part of.
    public var key: AttemptKey
    /// How it ended (``SentRequest/Outcome``).
    public var outcome: SentRequest.Outcome
    /// The HTTP status, when an answer arrived.
    public var status: Int?
    /// Prompt tokens it counts for.
    public var tokensIn: Int
    /// Response tokens it counts for.
    public var tokensOut: Int
    /// Whether the tokens are an estimate (no answer said what it cost).
    public var estimated: Bool
    /// When it was recorded.
    public var at: Date

    /// Creates a record.
    public init(key: AttemptKey, outcome: SentRequest.Outcome, status: Int?, tokensIn: Int, tokensOut: Int,
        estimated: Bool, at: Date) {
        self.key = key
        self.outcome = outcome
        self.status = status
        self.tokensIn = tokensIn
        self.tokensOut = tokensOut
        self.estimated = estimated
        self.at = at
    }
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

    /// None: a meter without a reservations table holds nothing.
    public func openReservations(engine: EngineKind) throws(CacheError) -> [QuotaReservation] { [] }

    /// What `engine` spent of `quota` on `day` (today when omitted) and what open reservations
    /// hold against it (they count today only: a past day can take no more).
    public func standing(_ quota: DailyQuota, engine: EngineKind = .remote,
        on day: LedgerDay? = nil) throws(CacheError) -> QuotaStanding {
        let day = day ?? today
        let used = quota.spent(by: try usage(engine: engine, on: day))
        let open = day == today ? try openReservations(engine: engine) : []
        let reserved = open.reduce(0) { $0 + (quota.isRequests ? $1.requests : $1.tokens) }
        return QuotaStanding(quota: quota, used: used, reserved: reserved)
    }

    /// Checks, then holds nothing: a meter without a reservations table (two calls at once may
    /// both pass). ``UsageLedger`` does both in one transaction.
    public func reserve(engine: EngineKind, tokens: Int, quota: DailyQuota,
        expiresAt: Date?) throws(CacheError) -> QuotaReservation? {
        let day = today
        let spent = quota.spent(by: try usage(engine: engine, on: day))
        guard spent + quota.charge(tokens: tokens) <= quota.limit else { return nil }
        return QuotaReservation(id: 0, day: day, requests: 1, tokens: max(0, tokens))
    }

    /// Records what was spent (the reservation held nothing).
    public func settle(_ reservation: QuotaReservation?, engine: EngineKind, spent: Spending,
        requests: [RequestRecord]) throws(CacheError) {
        guard !spent.isZero else { return }
        try record(engine: engine, tokensIn: spent.tokensIn, tokensOut: spent.tokensOut, requests: spent.requests)
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
                try Self.add(Spending(requests: requests, tokensIn: tokensIn, tokensOut: tokensOut), engine: engine,
                    day: day, in: db)
            }
        }
    }

    /// Adds `spent` to `engine`'s row for `day` with one UPSERT, inside the caller's transaction.
    static func add(_ spent: Spending, engine: EngineKind, day: LedgerDay, in db: SQLiteDatabase) throws(CacheError) {
        try db.run(
            """
            INSERT INTO usage (engine, day, tokens_in, tokens_out, requests) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT(engine, day) DO UPDATE SET
                tokens_in = tokens_in + excluded.tokens_in,
                tokens_out = tokens_out + excluded.tokens_out,
                requests = requests + excluded.requests
            """,
            [
                .text(engine.rawValue), .text(day.text), .integer(Int64(max(0, spent.tokensIn))),
                .integer(Int64(max(0, spent.tokensOut))), .integer(Int64(max(0, spent.requests))),
            ])
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

// MARK: - Reservations

extension UsageLedger {
    /// Checks `quota` against what `engine` spent today plus every allowance held, and holds one
    /// request and `tokens` if there is room, inside one `BEGIN IMMEDIATE` transaction: the
    /// write lock is taken before the read, so of four processes racing for the last request,
    /// exactly one gets it. A held allowance that is never settled (the process was killed
    /// mid-request) counts until `expiresAt` (the request's deadline plus a margin: a request
    /// still running by then has been stopped), then no longer, and is removed.
    public func reserve(engine: EngineKind, tokens: Int, quota: DailyQuota,
        expiresAt: Date? = nil) throws(CacheError) -> QuotaReservation? {
        let now = clock.now()
        let day = LedgerDay(date: now, timeZone: clock.timeZone)
        let tokens = max(0, tokens)
        return try database.withLock { (db: inout SQLiteDatabase) throws(CacheError) -> QuotaReservation? in
            try db.immediateTransaction { () throws(CacheError) -> QuotaReservation? in
                try db.run("DELETE FROM reservations WHERE expires_at IS NOT NULL AND expires_at <= ?",
                    [.real(now.timeIntervalSince1970)])
                let key: [SQLiteValue] = [.text(engine.rawValue), .text(day.text)]
                let spent = try db.query(
                    "SELECT tokens_in + tokens_out, requests FROM usage WHERE engine = ? AND day = ?", key
                ) { (tokens: Int($0.integer(at: 0)), requests: Int($0.integer(at: 1))) }.first ?? (0, 0)
                let held = try db.query(
                    "SELECT COALESCE(SUM(tokens), 0), COUNT(*) FROM reservations WHERE engine = ? AND day = ?", key
                ) { (tokens: Int($0.integer(at: 0)), requests: Int($0.integer(at: 1))) }.first ?? (0, 0)
                let taken = quota.isRequests ? spent.requests + held.requests : spent.tokens + held.tokens
                guard taken + quota.charge(tokens: tokens) <= quota.limit else { return nil }
                try db.run(
                    "INSERT INTO reservations (engine, day, requests, tokens, created_at, expires_at) VALUES (?, ?, 1, "
                        + "?, ?, ?)",
                    key + [
                        .integer(Int64(tokens)), .real(now.timeIntervalSince1970),
                        expiresAt.map { .real($0.timeIntervalSince1970) } ?? .null,
                    ])
                let id = try db.query("SELECT last_insert_rowid()") { $0.integer(at: 0) }.first ?? 0
                return QuotaReservation(id: id, day: day, requests: 1, tokens: tokens, createdAt: now,
                    expiresAt: expiresAt)
            }
        }
    }

    /// Drops `reservation`, adds what was spent to its day (today without one), and records each
    /// sent request as a row of `attempts` at level `request`, in one transaction.
    public func settle(_ reservation: QuotaReservation?, engine: EngineKind, spent: Spending,
        requests: [RequestRecord]) throws(CacheError) {
        let day = reservation?.day ?? today
        try database.withLock { (db: inout SQLiteDatabase) throws(CacheError) in
            try db.immediateTransaction { () throws(CacheError) in
                if let reservation, reservation.id > 0 {
                    try db.run("DELETE FROM reservations WHERE id = ?", [.integer(reservation.id)])
                }
                if !spent.isZero { try Self.add(spent, engine: engine, day: day, in: db) }
                for request in requests {
                    try db.run(
                        """
                        INSERT INTO attempts (engine, model, task, job, prompt_version, outcome, duration, tokens_in, \
                        tokens_out, at,
                                              level, status, estimated)
                        VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, 'request', ?, ?)
                        """,
                        [
                            .text(request.key.engine.rawValue), .text(request.key.model), .text(request.key.task),
                            .text(request.key.job.rawValue), .text(request.key.promptVersion),
                            .text(request.outcome.rawValue),
                            .integer(Int64(max(0, request.tokensIn))), .integer(Int64(max(0, request.tokensOut))),
                            .real(request.at.timeIntervalSince1970), request.status.map { .integer(Int64($0)) }
                            ?? .null,
                            .integer(request.estimated ? 1 : 0),
                        ])
                }
            }
        }
    }

    /// The sent requests recorded for `engine`, oldest first.
    public func requestRecords(engine: EngineKind) throws(CacheError) -> [RequestRecord] {
        let rows = try database.withLock { (db: inout SQLiteDatabase) throws(CacheError) -> [RequestRecord?] in
            try db.readTransaction { () throws(CacheError) -> [RequestRecord?] in
                try db.query(
                    """
                    SELECT model, task, job, prompt_version, outcome, status, tokens_in, tokens_out, estimated, at
                    FROM attempts WHERE level = 'request' AND engine = ? ORDER BY id
                    """, [.text(engine.rawValue)]
                ) { row -> RequestRecord? in
                    guard let job = row.text(at: 2).flatMap(JobKind.init(rawValue:)),
                        let outcome = row.text(at: 4).flatMap(SentRequest.Outcome.init(rawValue:))
                    else { return nil }
                    let key = AttemptKey(
                        engine: engine, model: row.text(at: 0) ?? "", task: row.text(at: 1) ?? "", job: job,
                        promptVersion: row.text(at: 3) ?? "")
                    return RequestRecord(
                        key: key, outcome: outcome, status: row.text(at: 5).flatMap { Int($0) },
                        tokensIn: Int(row.integer(at: 6)), tokensOut: Int(row.integer(at: 7)),
                        estimated: row.integer(at: 8) != 0,
                        at: Date(timeIntervalSince1970: row.real(at: 9)))
                }
            }
        }
        return rows.compactMap { $0 }
    }

    /// Allowances that count now for `engine` today (requests in flight, or never settled and
    /// not yet expired).
    public func heldReservations(engine: EngineKind) throws(CacheError) -> Int {
        try openReservations(engine: engine).count
    }

    /// The allowances that count now for `engine` today, oldest first: requests in flight, or
    /// never settled (a killed process) and not yet past their expiry.
    public func openReservations(engine: EngineKind) throws(CacheError) -> [QuotaReservation] {
        let now = clock.now()
        let day = LedgerDay(date: now, timeZone: clock.timeZone)
        return try database.withLock { (db: inout SQLiteDatabase) throws(CacheError) -> [QuotaReservation] in
            try db.readTransaction { () throws(CacheError) -> [QuotaReservation] in
                try db.query(
                    """
                    SELECT id, requests, tokens, created_at, expires_at FROM reservations
                    WHERE engine = ? AND day = ? AND (expires_at IS NULL OR expires_at > ?) ORDER BY id
                    """, [.text(engine.rawValue), .text(day.text), .real(now.timeIntervalSince1970)]
                ) { row in
                    QuotaReservation(
                        id: row.integer(at: 0), day: day, requests: Int(row.integer(at: 1)),
                        tokens: Int(row.integer(at: 2)),
                        createdAt: Date(timeIntervalSince1970: row.real(at: 3)),
                        expiresAt: row.optionalReal(at: 4).map(Date.init(timeIntervalSince1970:)))
                }
            }
        }
    }
}

// MARK: - What the ledger holds

/// How much the ledger holds, for `studykit cache stats`.
public struct LedgerContents: Sendable, Equatable {
    /// Days with recorded usage (all engines).
    public var usageDays: Int
    /// Model attempts in the capability memory (`studykit engines` shows them).
    public var attempts: Int
    /// Sent requests recorded with their outcome (the record of what was spent).
    public var requests: Int
    /// Quota reservations that count now (in flight, or unsettled and not yet expired).
    public var openReservations: Int
}

extension UsageLedger {
    /// Counts what the ledger holds.
    public func contents() throws(CacheError) -> LedgerContents {
        let now = clock.now().timeIntervalSince1970
        return try database.withLock { (db: inout SQLiteDatabase) throws(CacheError) -> LedgerContents in
            try db.readTransaction { () throws(CacheError) -> LedgerContents in
                func count(_ sql: String, _ values: [SQLiteValue] = []) throws(CacheError) -> Int {
                    Int(try db.query(sql, values) { $0.integer(at: 0) }.first ?? 0)
                }
                return LedgerContents(
                    usageDays: try count("SELECT COUNT(DISTINCT day) FROM usage"),
                    attempts: try count("SELECT COUNT(*) FROM attempts WHERE level = 'job'"),
                    requests: try count("SELECT COUNT(*) FROM attempts WHERE level = 'request'"),
                    openReservations: try count(
                        "SELECT COUNT(*) FROM reservations WHERE expires_at IS NULL OR expires_at > ?", [.real(now)]))
            }
        }
    }
}

// MARK: - A ledger that could not be opened

/// Stands in for a ledger that could not be opened: every call fails with the error, so a
/// configured daily quota fails closed (remote is treated as over quota) instead of going
/// uncounted.
public struct UnavailableLedger: UsageMetering {
    /// Why the ledger could not be opened.
    public let error: CacheError
    /// The clock that names today.
    public let clock: any DayClock

    /// Creates a stand-in for a ledger that failed with `error`.
    public init(error: CacheError, clock: any DayClock = SystemDayClock()) {
        self.error = error
        self.clock = clock
    }

    /// Today by the clock.
    public var today: LedgerDay { clock.today }
    /// Always throws ``error``.
    public func record(engine: EngineKind, tokensIn: Int, tokensOut: Int,
        requests: Int) throws(CacheError) { throw error }
    /// Always throws ``error``.
    public func usage(engine: EngineKind, on day: LedgerDay?) throws(CacheError) -> DailyUsage { throw error }
    /// Always throws ``error``.
    public func reserve(engine: EngineKind, tokens: Int, quota: DailyQuota,
        expiresAt: Date?) throws(CacheError) -> QuotaReservation? {
        throw error
    }
    /// Always throws ``error``.
    public func settle(_ reservation: QuotaReservation?, engine: EngineKind, spent: Spending,
        requests: [RequestRecord]) throws(CacheError) {
        throw error
    }
    /// Always throws ``error``.
    public func openReservations(engine: EngineKind) throws(CacheError) -> [QuotaReservation] { throw error }
}
