import Foundation
import Testing
@testable import StudyKit

@Suite("Result cache")
struct ResultCacheTests {
    @Test func putThenGetRoundTrips() throws {
        let directory = try CacheTestDirectory()
        let clock = CacheTestClock("2025-03-09T10:00:00+01:00")
        let cache = try ResultCache(path: directory.databasePath, clock: clock)
        let key = CacheKeyFields().key
        let entry = CacheEntry(
            payload: cacheTestPayload("héllo – ✓"), engine: .local, model: "smollm2-135m",
            fittedInfo: #"{"fitted":true,"keptCharacters":1200}"#)
        try cache.put(entry, for: key)

        let cached = try #require(try cache.get(key))
        #expect(cached.payload == entry.payload)
        #expect(cached.engine == .local)
        #expect(cached.model == "smollm2-135m")
        #expect(cached.fittedInfo == entry.fittedInfo)
        #expect(cached.createdAt == clock.now())
    }

    @Test func putReplacesThePreviousEntry() throws {
        let directory = try CacheTestDirectory()
        let cache = try ResultCache(path: directory.databasePath)
        let key = CacheKeyFields().key
        try cache.put(CacheEntry(payload: cacheTestPayload("old"), engine: .remote, model: "m"), for: key)
        try cache.put(CacheEntry(payload: cacheTestPayload("new"), engine: .remote, model: "m"), for: key)
        #expect(try cache.get(key)?.payload == cacheTestPayload("new"))
        #expect(try cache.stats().entries == 1)
    }

    @Test func entriesSurviveReopening() throws {
        let directory = try CacheTestDirectory()
        let key = CacheKeyFields().key
        do {
            let cache = try ResultCache(path: directory.databasePath)
            try cache.put(CacheEntry(payload: "[1,2,3]", engine: .builtin, model: "extractive"), for: key)
        }
        let reopened = try ResultCache(path: directory.databasePath)
        #expect(try reopened.get(key)?.payload == "[1,2,3]")
    }

    @Test func statsCountHitsMissesEntriesAndBytes() throws {
        let directory = try CacheTestDirectory()
        let cache = try ResultCache(path: directory.databasePath)
        var fields = CacheKeyFields()
        let payloads = [cacheTestPayload("a"), cacheTestPayload("bb", padding: 100)]
        for (index, payload) in payloads.enumerated() {
            fields.content = "doc \(index)"
            try cache.put(CacheEntry(payload: payload, engine: .remote, model: "m"), for: fields.key)
        }
        fields.content = "doc 0"
        _ = try cache.get(fields.key)
        _ = try cache.get(fields.key)
        fields.content = "doc 1"
        _ = try cache.get(fields.key)
        fields.content = "never stored"
        _ = try cache.get(fields.key)

        let stats = try cache.stats()
        #expect(stats.entries == 2)
        #expect(stats.hits == 3)
        #expect(stats.misses == 1)
        #expect(stats.payloadBytes == payloads.map(\.utf8.count).reduce(0, +))
        #expect(stats.fileBytes > stats.payloadBytes)

        // Counters are persisted: a second instance on the same file sees them.
        let other = try ResultCache(path: directory.databasePath)
        #expect(try other.stats().hits == 3)
    }

    @Test func clearByTaskRemovesOnlyThatTask() throws {
        let directory = try CacheTestDirectory()
        let cache = try ResultCache(path: directory.databasePath)
        var fields = CacheKeyFields()
        for (task, count) in [(StudyTask.summary, 3), (.quiz, 2), (.headline, 1)] {
            fields.task = task
            for index in 0..<count {
                fields.content = "doc \(index)"
                try cache.put(CacheEntry(payload: cacheTestPayload("\(task)"), engine: .remote, model: "m"), for: fields.key)
            }
        }
        #expect(try cache.clear(task: .quiz) == 2)
        #expect(try cache.clear(task: .quiz) == 0)
        #expect(try cache.stats().entries == 4)
        fields.task = .summary
        fields.content = "doc 0"
        #expect(try cache.get(fields.key) != nil)
        fields.task = .quiz
        #expect(try cache.get(fields.key) == nil)
    }

    /// Kept model answers (an item's answer, a failed part request) live beside the results
    /// but are counted apart, and go with their task's results on `clear`.
    @Test func keptAnswersAreCountedApartFromResults() throws {
        let directory = try CacheTestDirectory()
        let cache = try ResultCache(path: directory.databasePath)
        var fields = CacheKeyFields()
        let kinds: [CacheEntry.Kind] = [.result, .itemAnswer, .itemAnswer, .failedRequest]
        for (index, kind) in kinds.enumerated() {
            fields.content = "doc \(index)"
            try cache.put(CacheEntry(payload: "{}", engine: .local, model: "m", kind: kind), for: fields.key)
        }
        #expect(try cache.stats().entries == 1)
        #expect(try cache.stats().keptAnswers == 3)
        // A kept answer is read back by its key like a result.
        #expect(try cache.get(fields.key)?.payload == "{}")
        let none = try cache.clearCounts(task: .quiz)
        #expect(none.results == 0 && none.keptAnswers == 0)
        let removed = try cache.clearCounts(task: fields.task)
        #expect(removed.results == 1)
        #expect(removed.keptAnswers == 3)
        #expect(try cache.stats().keptAnswers == 0)
    }

    @Test func clearAllRemovesEverythingAndResetsCounters() throws {
        let directory = try CacheTestDirectory()
        let cache = try ResultCache(path: directory.databasePath)
        var fields = CacheKeyFields()
        for index in 0..<5 {
            fields.content = "doc \(index)"
            try cache.put(CacheEntry(payload: "{}", engine: .local, model: "m"), for: fields.key)
        }
        _ = try cache.get(fields.key)
        #expect(try cache.clear() == 5)
        let stats = try cache.stats()
        #expect(stats.entries == 0)
        #expect(stats.payloadBytes == 0)
        #expect(stats.hits == 0)
        #expect(stats.misses == 0)
    }

    @Test func corruptedPayloadReadsAsMissAndIsRemoved() throws {
        let directory = try CacheTestDirectory()
        let cache = try ResultCache(path: directory.databasePath)
        let key = CacheKeyFields().key
        var otherFields = CacheKeyFields()
        otherFields.content = "a different document"
        let other = otherFields.key
        try cache.put(CacheEntry(payload: cacheTestPayload("good"), engine: .remote, model: "m"), for: key)
        try cache.put(CacheEntry(payload: cacheTestPayload("other"), engine: .remote, model: "m"), for: other)

        // Damage the row behind the cache's back, as a bad disk or a stray tool would.
        let raw = try SQLiteDatabase(path: directory.databasePath)
        try raw.run("UPDATE results SET payload = ? WHERE key = ?", [.text(#"{"overview":"gar"#), .text(key.digest)])
        #expect(try cache.integrityReport().checksumMismatches == 1)

        #expect(try cache.get(key) == nil)
        let remaining = try raw.query("SELECT COUNT(*) FROM results WHERE key = ?", [.text(key.digest)]) { $0.integer(at: 0) }
        #expect(remaining == [0])
        #expect(try cache.stats().misses == 1)
        #expect(try cache.get(other)?.payload == cacheTestPayload("other"))
        #expect(try cache.integrityReport().isSound)
    }

    @Test func rowWithUnknownEngineIsAMissAndIsRemoved() throws {
        let directory = try CacheTestDirectory()
        let cache = try ResultCache(path: directory.databasePath)
        let key = CacheKeyFields().key
        try cache.put(CacheEntry(payload: "{}", engine: .remote, model: "m"), for: key)
        let raw = try SQLiteDatabase(path: directory.databasePath)
        try raw.run("UPDATE results SET engine = 'quantum'")
        #expect(try cache.get(key) == nil)
        #expect(try cache.stats().entries == 0)
    }

    @Test(arguments: ["", "not json", #"{"open":"#])
    func nonJSONPayloadIsRefused(payload: String) throws {
        let directory = try CacheTestDirectory()
        let cache = try ResultCache(path: directory.databasePath)
        #expect(throws: CacheError.self) {
            try cache.put(CacheEntry(payload: payload, engine: .remote, model: "m"), for: CacheKeyFields().key)
        }
        #expect(throws: CacheError.self) {
            try cache.put(CacheEntry(payload: "{}", engine: .remote, model: "m", fittedInfo: payload), for: CacheKeyFields().key)
        }
        #expect(try cache.stats().entries == 0)
    }

    @Test func aLockHeldPastEveryRetryIsReportedAsBusyAndClearsAfterwards() throws {
        let directory = try CacheTestDirectory()
        let cache = try ResultCache(
            path: directory.databasePath, clock: SystemDayClock(), busyTimeoutMilliseconds: 10)
        let key = CacheKeyFields().key
        let entry = CacheEntry(payload: "{}", engine: .remote, model: "m")
        let other = try SQLiteDatabase(path: directory.databasePath)
        try other.execute("BEGIN IMMEDIATE")
        #expect(throws: CacheError.busy(path: directory.databasePath)) { try cache.put(entry, for: key) }
        #expect(throws: CacheError.busy(path: directory.databasePath)) { try cache.get(key) }
        // Reads take no write lock in WAL mode, so stats still answer.
        #expect(try cache.stats().entries == 0)
        try other.execute("COMMIT")
        try cache.put(entry, for: key)
        #expect(try cache.get(key)?.payload == "{}")
    }

    @Test func fileThatIsNotADatabaseIsReportedAsCorrupt() throws {
        let directory = try CacheTestDirectory()
        try Data(String(repeating: "this is not sqlite\n", count: 200).utf8).write(to: URL(fileURLWithPath: directory.databasePath))
        #expect(throws: CacheError.corrupt(path: directory.databasePath)) {
            _ = try ResultCache(path: directory.databasePath)
        }
    }

    @Test func newerSchemaIsRefused() throws {
        let directory = try CacheTestDirectory()
        do {
            let raw = try SQLiteDatabase(path: directory.databasePath)
            try raw.execute("PRAGMA user_version=99")
        }
        #expect(throws: CacheError.newerSchema(path: directory.databasePath, version: 99)) {
            _ = try ResultCache(path: directory.databasePath)
        }
    }

    @Test func databaseUsesWriteAheadLogging() throws {
        let directory = try CacheTestDirectory()
        _ = try ResultCache(path: directory.databasePath)
        let raw = try SQLiteDatabase(path: directory.databasePath)
        #expect(try raw.query("PRAGMA journal_mode") { $0.text(at: 0) } == ["wal"])
        #expect(try raw.query("PRAGMA user_version") { $0.integer(at: 0) } == [Int64(SQLiteDatabase.schemaVersion)])
    }

    @Test func errorMessagesAreOneLowerCaseLineQuotingTheValue() {
        let errors: [CacheError] = [
            .cannotCreateDirectory(path: "/x", reason: "permission denied"), .cannotOpen(path: "/x", reason: "r"),
            .busy(path: "/x"), .corrupt(path: "/x"), .diskFull(path: "/x"), .readOnly(path: "/x"),
            .newerSchema(path: "/x", version: 9), .sqlite(path: "/x", code: 1, reason: "r"),
        ]
        for error in errors {
            #expect(error.message.contains("'/x'"))
            #expect(!error.message.contains("\n"))
            #expect(error.message.first?.isLowercase == true)
            #expect(error.exitCode == .failure)
        }
        #expect(CacheError.invalidQuota("lots").message.contains("'lots'"))
        #expect(CacheError.invalidQuota("lots").exitCode == .usage)
    }
}
