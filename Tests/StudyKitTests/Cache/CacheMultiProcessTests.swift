import Foundation
import Testing
@testable import StudyKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Environment variable that turns ``CacheWriterProcess/writeLoop()`` from skipped into a
/// writer: its value is the database path.
private let writerPathVariable = "STUDYKIT_TEST_CACHE_WRITER"
/// How many iterations the writer runs; `0` means until it is killed.
private let writerCountVariable = "STUDYKIT_TEST_CACHE_WRITES"
/// A file the writer creates after its first committed write, so the parent knows it is busy.
private let writerReadyVariable = "STUDYKIT_TEST_CACHE_READY"

/// The writer half of the multi-process tests. It only runs when a parent test re-launches
/// the test runner with ``writerPathVariable`` set; in a normal run it is skipped.
@Suite("Cache writer process")
struct CacheWriterProcess {
    static let keyCount = 10

    @Test(.enabled(if: ProcessInfo.processInfo.environment[writerPathVariable] != nil))
    func writeLoop() throws {
        let environment = ProcessInfo.processInfo.environment
        let path = try #require(environment[writerPathVariable])
        let count = Int(environment[writerCountVariable] ?? "") ?? 200
        let pid = getpid()
        let cache = try ResultCache(path: path)
        let ledger = try UsageLedger(path: path)
        var index = 0
        while count == 0 || index < count {
            var fields = CacheKeyFields()
            fields.content = "document \(index % Self.keyCount)"
            // Large payloads make each commit span many pages, so a kill lands mid-write.
            let entry = CacheEntry(
                payload: cacheTestPayload("process \(pid) write \(index)", padding: 64_000), engine: .remote,
                model: "process \(pid)")
            try cache.put(entry, for: fields.key)
            try ledger.record(engine: .remote, tokensIn: 1, tokensOut: 1)
            if index == 0, let ready = environment[writerReadyVariable] {
                _ = FileManager.default.createFile(atPath: ready, contents: Data())
            }
            index += 1
        }
    }
}

@Suite("Cache multi-process", .serialized)
struct CacheMultiProcessTests {
    /// The running test binary, re-launched as a writer.
    static var runner: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    }

    static func launchWriter(path: String, count: Int, ready: String? = nil) throws -> Process {
        let process = Process()
        process.executableURL = runner
        process.arguments = ["--testing-library", "swift-testing", "--filter", "CacheWriterProcess/writeLoop"]
        var environment = ProcessInfo.processInfo.environment
        environment[writerPathVariable] = path
        environment[writerCountVariable] = String(count)
        environment[writerReadyVariable] = ready
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    static func expectSound(_ path: String) throws {
        let cache = try ResultCache(path: path)
        let report = try cache.integrityReport()
        #expect(report.integrityCheck == "ok")
        #expect(report.checksumMismatches == 0)
        var fields = CacheKeyFields()
        for index in 0..<CacheWriterProcess.keyCount {
            fields.content = "document \(index)"
            if let cached = try cache.get(fields.key) {
                // Payload and model were written by the same process in the same transaction.
                let writer = cached.model.replacingOccurrences(of: "process ", with: "")
                #expect(cached.payload.hasPrefix(#"{"overview":"process \#(writer) write "#))
            }
        }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/exe")))
    func twoProcessesWritingTheSameKeys() throws {
        let directory = try CacheTestDirectory()
        let path = directory.databasePath
        let writers = try (0..<2).map { _ in try Self.launchWriter(path: path, count: 200) }
        for writer in writers {
            writer.waitUntilExit()
            #expect(writer.terminationReason == .exit)
            #expect(writer.terminationStatus == 0, "a writer process failed")
        }
        try Self.expectSound(path)
        // Every one of the 400 increments landed: none lost to a race between processes.
        let ledger = try UsageLedger(path: path)
        #expect(try ledger.usage(engine: .remote).requests == 400)
        #expect(try ResultCache(path: path).stats().entries == CacheWriterProcess.keyCount)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/exe")))
    func killingWritersMidWriteLeavesNoCorruptEntry() throws {
        let directory = try CacheTestDirectory()
        let path = directory.databasePath
        let kills = 50
        var killed = 0
        for round in 0..<kills {
            let ready = directory.url.appendingPathComponent("ready-\(round)").path
            let writer = try Self.launchWriter(path: path, count: 0, ready: ready)
            // Wait until it has committed at least once, then let it run into another write.
            var waited = 0
            while !FileManager.default.fileExists(atPath: ready), writer.isRunning, waited < 30_000 {
                usleep(2_000)
                waited += 1
            }
            #expect(writer.isRunning, "writer \(round) stopped before it was killed")
            usleep(UInt32.random(in: 0..<20_000))
            if kill(writer.processIdentifier, SIGKILL) == 0 { killed += 1 }
            writer.waitUntilExit()
            #expect(writer.terminationReason == .uncaughtSignal)
            // Every tenth round, a fresh connection recovers the log and checks every row.
            if round % 10 == 9 { try Self.expectSound(path) }
        }
        #expect(killed == kills)
        try Self.expectSound(path)
        #expect(try ResultCache(path: path).stats().entries == CacheWriterProcess.keyCount)
        #expect(try UsageLedger(path: path).usage(engine: .remote).requests >= kills)
    }
}
