import Foundation
import Testing
@testable import StudyKit

@Suite("Usage ledger")
struct UsageLedgerTests {
    /// A file from before reservations had an expiry keeps its held reservation (which counts for
    /// its day, as it did); new ones get theirs and stop counting after it.
    @Test func reservationsOfAVersionFourFileSurviveTheExpiryMigration() throws {
        let directory = try CacheTestDirectory()
        let clock = CacheTestClock("2025-03-09T10:00:00+01:00")
        do {
            let raw = try SQLiteDatabase(path: directory.databasePath)
            try raw.execute(
                """
                DROP TABLE reservations;
                CREATE TABLE reservations (id INTEGER PRIMARY KEY AUTOINCREMENT, engine TEXT NOT NULL, day TEXT NOT NULL,
                    requests INTEGER NOT NULL, tokens INTEGER NOT NULL, created_at REAL NOT NULL);
                INSERT INTO reservations (engine, day, requests, tokens, created_at) VALUES ('remote', '2025-03-09', 1, 700, 0);
                PRAGMA user_version=4
                """)
        }
        let ledger = try UsageLedger(path: directory.databasePath, clock: clock)
        let old = try ledger.openReservations(engine: .remote)
        #expect(old.map(\.tokens) == [700])
        #expect(old.first?.expiresAt == nil)
        let quota = DailyQuota.requests(3)
        _ = try #require(try ledger.reserve(engine: .remote, tokens: 10, quota: quota, expiresAt: clock.now().addingTimeInterval(180)))
        #expect(try ledger.heldReservations(engine: .remote) == 2)
        clock.advance(hours: 1)
        #expect(try ledger.heldReservations(engine: .remote) == 1, "the new one expired; the old one counts for its day")
    }

    @Test func recordsAddUpPerEnginePerDay() throws {
        let directory = try CacheTestDirectory()
        let clock = CacheTestClock("2025-03-09T10:00:00+01:00")
        let ledger = try UsageLedger(path: directory.databasePath, clock: clock)
        try ledger.record(engine: .remote, tokensIn: 1000, tokensOut: 200)
        try ledger.record(engine: .remote, tokensIn: 500, tokensOut: 50)
        try ledger.record(engine: .local, tokensIn: 80, tokensOut: 20)

        let day = try LedgerDay("2025-03-09")
        #expect(ledger.today == day)
        #expect(try ledger.usage(engine: .remote, on: day)
            == DailyUsage(engine: .remote, day: day, tokensIn: 1500, tokensOut: 250, requests: 2))
        #expect(try ledger.usage(engine: .local).requests == 1)
        #expect(try ledger.usage(engine: .builtin) == DailyUsage(engine: .builtin, day: day, tokensIn: 0, tokensOut: 0, requests: 0))
    }

    @Test func dayRollsOverAtLocalMidnight() throws {
        let directory = try CacheTestDirectory()
        // 23:30 in Berlin is still 22:30 UTC: the local calendar day is what counts.
        let clock = CacheTestClock("2025-03-09T23:30:00+01:00")
        let ledger = try UsageLedger(path: directory.databasePath, clock: clock)
        try ledger.record(engine: .remote, tokensIn: 10, tokensOut: 10)
        clock.advance(hours: 1)
        #expect(ledger.today == (try LedgerDay("2025-03-10")))
        try ledger.record(engine: .remote, tokensIn: 1, tokensOut: 1)
        try ledger.record(engine: .remote, tokensIn: 1, tokensOut: 1)

        #expect(try ledger.usage(engine: .remote, on: LedgerDay("2025-03-09")).requests == 1)
        #expect(try ledger.usage(engine: .remote).requests == 2)
        #expect(try ledger.standing(.requests(3)).remaining == 1)
        #expect(try ledger.standing(.requests(3), on: LedgerDay("2025-03-09")).remaining == 2)
    }

    @Test func ledgerSurvivesReopeningAndSharesTheFileWithTheCache() throws {
        let directory = try CacheTestDirectory()
        let clock = CacheTestClock("2025-03-09T12:00:00Z", zone: "UTC")
        let cache = try ResultCache(path: directory.databasePath, clock: clock)
        try cache.put(CacheEntry(payload: "{}", engine: .remote, model: "m"), for: CacheKeyFields().key)
        do {
            let ledger = try UsageLedger(path: directory.databasePath, clock: clock)
            try ledger.record(engine: .remote, tokensIn: 7, tokensOut: 3)
        }
        #expect(try cache.clear() == 1)
        let reopened = try UsageLedger(path: directory.databasePath, clock: clock)
        #expect(try reopened.usage(engine: .remote).totalTokens == 10)
    }

    struct QuotaCase: Sendable, CustomTestStringConvertible {
        var text: String
        var expected: DailyQuota?
        var testDescription: String { "'\(text)'" }
    }

    static let quotaCases: [QuotaCase] = [
        QuotaCase(text: "200", expected: .requests(200)),
        QuotaCase(text: "200 requests", expected: .requests(200)),
        QuotaCase(text: "  1 request ", expected: .requests(1)),
        QuotaCase(text: "200 Requests", expected: .requests(200)),
        QuotaCase(text: "0", expected: .requests(0)),
        QuotaCase(text: "50000 tokens", expected: .tokens(50_000)),
        QuotaCase(text: "50_000 tokens", expected: .tokens(50_000)),
        QuotaCase(text: "1,000,000 TOKENS", expected: .tokens(1_000_000)),
        QuotaCase(text: "", expected: nil),
        QuotaCase(text: "   ", expected: nil),
        QuotaCase(text: "lots", expected: nil),
        QuotaCase(text: "-5", expected: nil),
        QuotaCase(text: "2.5", expected: nil),
        QuotaCase(text: "200 dollars", expected: nil),
        QuotaCase(text: "tokens 200", expected: nil),
        QuotaCase(text: "200 tokens per day", expected: nil),
        QuotaCase(text: "99999999999999999999999", expected: nil),
        QuotaCase(text: "_", expected: nil),
        QuotaCase(text: "٣٠٠", expected: nil),
    ]

    @Test("daily quota parsing", arguments: quotaCases)
    func quotaParsing(testCase: QuotaCase) throws {
        if let expected = testCase.expected {
            #expect(try DailyQuota(parsing: testCase.text) == expected)
        } else {
            #expect(throws: CacheError.invalidQuota(testCase.text)) { try DailyQuota(parsing: testCase.text) }
            #expect(CacheError.invalidQuota(testCase.text).message.contains("'\(testCase.text)'"))
        }
    }

    @Test func quotaDescriptionIsReadable() throws {
        #expect(try DailyQuota(parsing: "200").description == "200 requests per day")
        #expect(try DailyQuota(parsing: "50000 tokens").description == "50000 tokens per day")
    }

    @Test func negativeAmountsNeverRefundTheQuota() throws {
        let directory = try CacheTestDirectory()
        let ledger = try UsageLedger(path: directory.databasePath, clock: CacheTestClock("2025-03-09T12:00:00Z"))
        try ledger.record(engine: .remote, tokensIn: 100, tokensOut: 100)
        try ledger.record(engine: .remote, tokensIn: -50, tokensOut: -50, requests: -1)
        #expect(try ledger.usage(engine: .remote) == DailyUsage(
            engine: .remote, day: try LedgerDay("2025-03-09"), tokensIn: 100, tokensOut: 100, requests: 1))
    }

    @Test func exhaustedByRequests() throws {
        let directory = try CacheTestDirectory()
        let ledger = try UsageLedger(path: directory.databasePath, clock: CacheTestClock("2025-03-09T12:00:00Z"))
        let quota = DailyQuota.requests(3)
        #expect(try ledger.standing(quota).remaining == 3)
        for _ in 0..<2 { try ledger.record(engine: .remote, tokensIn: 1, tokensOut: 1) }
        #expect(try ledger.standing(quota).remaining == 1)
        #expect(try ledger.standing(quota).remaining != 0)
        try ledger.record(engine: .local, tokensIn: 1, tokensOut: 1)
        #expect(try ledger.standing(quota).remaining != 0, "local requests do not spend the remote quota")
        try ledger.record(engine: .remote, tokensIn: 1, tokensOut: 1)
        #expect(try ledger.standing(quota).remaining == 0)
        try ledger.record(engine: .remote, tokensIn: 1, tokensOut: 1)
        #expect(try ledger.standing(quota).remaining == 0)
    }

    @Test func exhaustedByTokensCountsInAndOut() throws {
        let directory = try CacheTestDirectory()
        let ledger = try UsageLedger(path: directory.databasePath, clock: CacheTestClock("2025-03-09T12:00:00Z"))
        let quota = try DailyQuota(parsing: "1000 tokens")
        try ledger.record(engine: .remote, tokensIn: 600, tokensOut: 300)
        #expect(try ledger.standing(quota).remaining == 100)
        #expect(try ledger.standing(quota).remaining != 0)
        try ledger.record(engine: .remote, tokensIn: 50, tokensOut: 50)
        #expect(try ledger.standing(quota).remaining == 0)
        #expect(try ledger.standing(.requests(10)).remaining == 8)
    }

    @Test(arguments: ["2025-02-30", "2025-13-01", "2025-3-9", "20250309", "yesterday", "2025-03-09T00:00", ""])
    func invalidDaysAreRejected(text: String) {
        #expect(throws: CacheError.invalidDay(text)) { try LedgerDay(text) }
    }

    @Test func dayFromDateUsesTheGivenTimeZone() throws {
        let instant = try #require(ISO8601DateFormatter().date(from: "2024-02-29T23:30:00Z"))
        #expect(LedgerDay(date: instant, timeZone: TimeZone(identifier: "UTC")!).text == "2024-02-29")
        #expect(LedgerDay(date: instant, timeZone: TimeZone(identifier: "Asia/Tokyo")!).text == "2024-03-01")
        #expect(LedgerDay(date: instant, timeZone: TimeZone(identifier: "America/New_York")!).text == "2024-02-29")
        #expect(try LedgerDay("2024-02-29").text == "2024-02-29")
    }
}
