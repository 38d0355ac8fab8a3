import Foundation
import Testing
@testable import StudyKit

#if canImport(Glibc)
import Glibc
#endif

/// Two gaps in what the cache file keeps, through the built binary: a quota reservation left by
/// a process killed mid-call (SIGKILL) stops counting once it expires, and `cache clear` forgets
/// what discovery learnt about each server, with `cache stats` counting everything stored.
/// The binary runs on threads of its own (``StudykitBinary``): these tests never hold the
/// cooperative pool, which the suite's budget tests need.
@Suite("Cache and ledger end to end (the built binary)", .serialized)
struct CacheAndLedgerEndToEndTests {
    /// The cache directory's database file.
    static func databasePath(_ cache: URL) throws -> String {
        try CacheLocation.databasePath(environment: ["STUDYKIT_CACHE_DIR": cache.path])
    }

    @Test func aReservationLeftByAProcessKilledMidCallStopsCountingOnceItExpires() async throws {
        let server = try FaultModelServer(.slow)
        let cache = try TestPaths.temporaryDirectory("stale-reservation")
        defer { try? FileManager.default.removeItem(at: cache) }
        var environment = [
            "STUDYKIT_LOCAL_URL": "http://127.0.0.1:1", "STUDYKIT_REMOTE_URL": server.url, "STUDYKIT_REMOTE_API_KEY": "sk-test-stale",
            "STUDYKIT_REMOTE_CONTEXT_SIZE": "8192", "STUDYKIT_REMOTE_DAILY_QUOTA": "3", "STUDYKIT_CACHE_DIR": cache.path,
            // The call must still be open when the test kills it: on a loaded machine the test's
            // task can wake minutes late (the binary had given up at 120 s and exited 69).
            "STUDYKIT_DEADLINE": "900",
        ]
        let started = Date()
        let running = try StudykitBinary.start(["summary", "samples/paste.txt", "--engine", "remote", "--no-cache"], environment: environment)
        guard await server.generationStarted(within: 120) else {
            running.process.terminate()
            _ = await running.finished()
            Issue.record("no generation reached the server")
            return
        }
        kill(running.process.processIdentifier, SIGKILL)
        let killed = await running.finished()
        #expect(killed.status == SIGKILL, "\(killed.stderr)")

        // The killed call never settled: its allowance is held, and `engines` shows it, with its expiry.
        let clock = TestClock(Date())
        let ledger = try UsageLedger(path: try Self.databasePath(cache), clock: clock)
        let held = try ledger.openReservations(engine: .remote)
        #expect(held.count == 1)
        let expiry = try #require(held.first?.expiresAt)
        // The remote engine's 900 s generation deadline plus the minute's margin, counted from
        // the reservation, which a loaded machine may take a while to reach after the start.
        #expect(expiry.timeIntervalSince(started) > 900 && expiry.timeIntervalSinceNow <= 961, "expires \(expiry)")
        environment["STUDYKIT_REMOTE_URL"] = try LoopbackPorts.closedURL()
        let engines = try await StudykitBinary.run(["engines", "--json"], environment: environment)
        #expect(engines.status == 0, "\(engines.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: engines.stdoutData) as? [[String: Any]])
        let remote = try #require(rows.first { $0["engine"] as? String == "remote" })
        let shown = try #require(remote["reservations"] as? [[String: Any]], "\(remote)")
        #expect(shown.count == 1)
        #expect((shown.first?["expiresAt"] as? String) == ISO8601DateFormatter().string(from: expiry))
        let text = try await StudykitBinary.run(["engines"], environment: environment)
        #expect(text.stdout.contains("reservations:\n    "), "\(text.stdout)")

        // Until it expires it counts: two requests of the three are left.
        let quota = DailyQuota.requests(3)
        let first = try #require(try ledger.reserve(engine: .remote, tokens: 10, quota: quota))
        try ledger.settle(first, engine: .remote, spent: Spending(), requests: [])
        #expect(try ledger.heldReservations(engine: .remote) == 1)

        // Past it (the clock is injected: nothing sleeps) it no longer counts: the three
        // requests of the day are all there again, and a fourth is refused.
        clock.advance(by: expiry.timeIntervalSince(clock.now()) + 1)
        #expect(try ledger.heldReservations(engine: .remote) == 0)
        for _ in 0..<3 { #expect(try ledger.reserve(engine: .remote, tokens: 10, quota: quota) != nil) }
        #expect(try ledger.reserve(engine: .remote, tokens: 10, quota: quota) == nil)
    }

    /// `studykit engines` shows what the quota check enforces: the remaining quota is the limit
    /// less what was spent and what open reservations hold, with both shown.
    @Test func enginesShowsTheQuotaLessWhatIsUsedAndWhatIsReserved() async throws {
        let cache = try TestPaths.temporaryDirectory("quota-standing")
        defer { try? FileManager.default.removeItem(at: cache) }
        let ledger = try UsageLedger(path: try Self.databasePath(cache))
        try ledger.record(engine: .remote, tokensIn: 120, tokensOut: 30)
        _ = try #require(try ledger.reserve(engine: .remote, tokens: 900, quota: .requests(3), expiresAt: Date().addingTimeInterval(300)))
        let environment = [
            "STUDYKIT_LOCAL_URL": try LoopbackPorts.closedURL(), "STUDYKIT_REMOTE_URL": try LoopbackPorts.closedURL(),
            "STUDYKIT_REMOTE_API_KEY": "sk-test-standing", "STUDYKIT_REMOTE_DAILY_QUOTA": "3", "STUDYKIT_CACHE_DIR": cache.path,
        ]
        let engines = try await StudykitBinary.run(["engines", "--json"], environment: environment)
        #expect(engines.status == 0, "\(engines.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: engines.stdoutData) as? [[String: Any]])
        let remote = try #require(rows.first { $0["engine"] as? String == "remote" })
        #expect(remote["quotaUsed"] as? Int == 1, "\(remote)")
        #expect(remote["quotaReserved"] as? Int == 1, "\(remote)")
        #expect(remote["quotaRemaining"] as? Int == 1, "3 less 1 used and 1 held: \(remote)")
        let text = try await StudykitBinary.run(["engines"], environment: environment)
        #expect(text.stdout.contains("quotaUsed:      1\n  quotaReserved:  1\n  quotaRemaining: 1\n"), "\(text.stdout)")
        // In tokens, the reservation holds its estimate.
        var tokens = environment
        tokens["STUDYKIT_REMOTE_DAILY_QUOTA"] = "2000 tokens"
        let tokenRun = try await StudykitBinary.run(["engines", "--json"], environment: tokens)
        let tokenRows = try #require(try JSONSerialization.jsonObject(with: tokenRun.stdoutData) as? [[String: Any]])
        let tokenRemote = try #require(tokenRows.first { $0["engine"] as? String == "remote" })
        #expect(tokenRemote["quotaUsed"] as? Int == 150 && tokenRemote["quotaReserved"] as? Int == 900, "\(tokenRemote)")
        #expect(tokenRemote["quotaRemaining"] as? Int == 950, "\(tokenRemote)")
    }

    @Test func cacheClearForgetsDiscoveriesKeepsTheLedgerAndStatsCountsEverything() async throws {
        let cache = try TestPaths.temporaryDirectory("clear-discoveries")
        defer { try? FileManager.default.removeItem(at: cache) }
        let path = try Self.databasePath(cache)
        // A result, what discovery learnt about a server, and a model's attempt.
        try ResultCache(path: path).put(
            CacheEntry(payload: cacheTestPayload("kept"), engine: .remote, model: "gpt-test-1"), for: CacheKeyFields().key)
        try DiscoveryRecords(path: path).save(
            "http://127.0.0.1:8080/v1", StoredDiscovery(payload: #"{"window":2048}"#, discoveredAt: Date()))
        let key = AttemptKey(engine: .local, model: "smollm2", task: "summary", job: .part, promptVersion: "summary-v1")
        try UsageLedger(path: path).recordAttempt(Attempt(key: key, outcome: .cut, duration: 12, at: Date()))
        let environment = ["STUDYKIT_CACHE_DIR": cache.path]
        // And the in-process model's kept instructions.
        let prefixes = CacheLocation.prefixDirectory(environment: environment)
        try FileManager.default.createDirectory(atPath: prefixes, withIntermediateDirectories: true)
        try Data("kept keys and values".utf8).write(to: URL(fileURLWithPath: prefixes).appendingPathComponent("a.kv"))

        func stats() async throws -> [String: Any] {
            let run = try await StudykitBinary.run(["cache", "stats", "--json"], environment: environment)
            #expect(run.status == 0, "\(run.stderr)")
            return try #require(try JSONSerialization.jsonObject(with: run.stdoutData) as? [String: Any])
        }
        let before = try await stats()
        #expect(before["entries"] as? Int == 1)
        #expect(before["discoveries"] as? Int == 1)
        #expect(before["attempts"] as? Int == 1)

        let cleared = try await StudykitBinary.run(["cache", "clear"], environment: environment)
        #expect(cleared.status == 0, "\(cleared.stderr)")
        #expect(cleared.stdout.hasPrefix("removed 1 cached result and 1 server discovery"), "\(cleared.stdout)")
        #expect(cleared.stdout.contains("--attempts"))

        let after = try await stats()
        #expect(after["entries"] as? Int == 0)
        #expect(after["discoveries"] as? Int == 0)
        // The capability record is not a cache: it has its own command, and stays.
        #expect(after["attempts"] as? Int == 1)
        #expect(try DiscoveryRecords(path: path).load("http://127.0.0.1:8080/v1") == nil)
        #expect(!FileManager.default.fileExists(atPath: prefixes))

        let forgot = try await StudykitBinary.run(["cache", "clear", "--attempts"], environment: environment)
        #expect(forgot.stdout.hasPrefix("forgot 1 recorded attempt"), "\(forgot.stdout)")
        #expect(try await stats()["attempts"] as? Int == 0)
    }
}
