import Foundation
import Testing
@testable import StudyKit

@Suite("Cache concurrency")
struct CacheConcurrencyTests {
    static let keyCount = 10
    static let writesPerWriter = 200

    @Test func twoConnectionsWritingTheSameKeysConcurrently() async throws {
        let directory = try CacheTestDirectory()
        let clock = CacheTestClock("2025-03-09T12:00:00Z")
        let first = try ResultCache(path: directory.databasePath, clock: clock)
        let second = try ResultCache(path: directory.databasePath, clock: clock)
        let firstLedger = try UsageLedger(path: directory.databasePath, clock: clock)
        let secondLedger = try UsageLedger(path: directory.databasePath, clock: clock)

        // Plain threads, so a writer blocked in SQLite's busy handler never starves the
        // other writer of a cooperative-pool thread.
        let failures = try await withThrowingTaskGroup(of: [String].self) { group in
            for (name, cache, ledger) in [("first", first, firstLedger), ("second", second, secondLedger)] {
                group.addTask {
                    await runOnThread {
                        var failures: [String] = []
                        for index in 0..<Self.writesPerWriter {
                            var fields = CacheKeyFields()
                            fields.content = "document \(index % Self.keyCount)"
                            let entry = CacheEntry(
                                payload: cacheTestPayload("\(name) \(index)", padding: 2_000), engine: .remote, model: name)
                            do {
                                try cache.put(entry, for: fields.key)
                                try ledger.record(engine: .remote, tokensIn: 1, tokensOut: 2)
                                // Read back a key the other writer is also replacing.
                                _ = try cache.get(fields.key)
                            } catch {
                                failures.append((error as? CacheError)?.message ?? "\(error)")
                            }
                        }
                        return failures
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(failures.isEmpty)

        let report = try first.integrityReport()
        #expect(report.integrityCheck == "ok")
        #expect(report.entries == Self.keyCount)
        #expect(report.checksumMismatches == 0)
        var fields = CacheKeyFields()
        for index in 0..<Self.keyCount {
            fields.content = "document \(index)"
            let cached = try #require(try second.get(fields.key))
            #expect(cached.payload.hasPrefix(#"{"overview":"\#(cached.model) "#), "payload and model come from the same write")
        }
        let usage = try firstLedger.usage(engine: .remote)
        #expect(usage.requests == 2 * Self.writesPerWriter)
        #expect(usage.tokensOut == 4 * Self.writesPerWriter)
        let stats = try first.stats()
        #expect(stats.hits + stats.misses == 2 * Self.writesPerWriter + Self.keyCount)
    }
}

/// Runs `body` on a new thread and resumes with its result.
private func runOnThread<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.start()
    }
}
