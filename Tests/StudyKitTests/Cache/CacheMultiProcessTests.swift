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
/// A start line: the writer announces itself by creating `<value>.<pid>`, then waits until
/// `<value>` exists, so several writers begin their loops together.
private let writerStartVariable = "STUDYKIT_TEST_CACHE_START"
/// Bytes of padding per payload; large payloads spill pages to the log before the commit.
private let writerPaddingVariable = "STUDYKIT_TEST_CACHE_PADDING"
/// A file the writer creates after its first committed write, so the parent knows it is busy.
private let writerReadyVariable = "STUDYKIT_TEST_CACHE_READY"
/// A file the writer creates in the middle of its second write, after the row is written and
/// before the commit, where it then waits to be killed.
private let writerPauseVariable = "STUDYKIT_TEST_CACHE_PAUSE"

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
        let padding = Int(environment[writerPaddingVariable] ?? "") ?? 64_000
        let pid = getpid()
        let cache = try ResultCache(path: path)
        let ledger = try UsageLedger(path: path)
        // Keys and padding are built once, so the loop spends nearly all its time inside `put`,
        // and a random kill lands there. Payloads larger than SQLite's page cache (2 MB) spill
        // pages to the log before the commit, so a kill can leave a torn transaction behind.
        let keys = (0..<Self.keyCount).map { index in
            var fields = CacheKeyFields()
            fields.content = "document \(index)"
            return fields.key
        }
        let tail = #"","keyPoints":[""# + String(repeating: "x", count: padding) + #""]}"#
        if let start = environment[writerStartVariable] {
            _ = FileManager.default.createFile(atPath: "\(start).\(pid)", contents: Data())
            var waited = 0
            while !FileManager.default.fileExists(atPath: start), waited < 30_000 {
                usleep(1_000)
                waited += 1
            }
        }
        var index = 0
        while count == 0 || index < count {
            let entry = CacheEntry(
                payload: #"{"overview":"process \#(pid) write \#(index)"# + tail, engine: .remote, model: "process \(pid)")
            if index == 1, let pause = environment[writerPauseVariable] {
                try cache.put(entry, for: keys[index % Self.keyCount]) {
                    _ = FileManager.default.createFile(atPath: pause, contents: Data())
                    sleep(60)
                }
            } else {
                try cache.put(entry, for: keys[index % Self.keyCount])
            }
            try ledger.record(engine: .remote, tokensIn: 1, tokensOut: 1)
            // A lookup reads and then writes (the hit/miss counters): the lock-upgrade case.
            _ = try cache.get(keys[(index + 1) % Self.keyCount])
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

    static func launchWriter(
        path: String, count: Int, padding: Int = 64_000, ready: String? = nil, start: String? = nil,
        pause: String? = nil
    ) throws -> Process {
        let process = Process()
        process.executableURL = runner
        process.arguments = ["--testing-library", "swift-testing", "--filter", "CacheWriterProcess/writeLoop"]
        var environment = ProcessInfo.processInfo.environment
        environment[writerPathVariable] = path
        environment[writerCountVariable] = String(count)
        environment[writerPaddingVariable] = String(padding)
        environment[writerReadyVariable] = ready
        environment[writerStartVariable] = start
        environment[writerPauseVariable] = pause
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Whether the write-ahead log ends in frames after its last commit frame: the writer died
    /// while its transaction was being written. Reads the documented WAL format: a 32-byte
    /// header (page size at byte 8, salts at 16–23), then frames of a 24-byte header (commit
    /// size at byte 4, non-zero only on a commit frame; salts at 8–15) and one page.
    static func logEndsInUncommittedFrames(_ walPath: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: walPath), data.count >= 32 else { return false }
        let bytes = [UInt8](data)
        func word(_ offset: Int) -> Int {
            bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        let pageSize = word(8)
        let salts = bytes[16..<24]
        var offset = 32
        var framesSinceCommit = 0
        // Frames from an earlier generation of the log carry other salts: stop there.
        while pageSize > 0, offset + 24 + pageSize <= bytes.count, bytes[offset + 8..<offset + 16].elementsEqual(salts) {
            framesSinceCommit = word(offset + 4) != 0 ? 0 : framesSinceCommit + 1
            offset += 24 + pageSize
        }
        return framesSinceCommit > 0
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
        let start = directory.url.appendingPathComponent("start").path
        let writers = try (0..<2).map { _ in try Self.launchWriter(path: path, count: 200, start: start) }
        // Both connections are open before either writes, so their loops overlap.
        for writer in writers {
            while !FileManager.default.fileExists(atPath: "\(start).\(writer.processIdentifier)"), writer.isRunning {
                usleep(1_000)
            }
        }
        _ = FileManager.default.createFile(atPath: start, contents: Data())
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

    /// Waits until `file` exists or `writer` stops (at most 60 s).
    static func waitFor(_ file: String, while writer: Process) {
        var waited = 0
        while !FileManager.default.fileExists(atPath: file), writer.isRunning, waited < 30_000 {
            usleep(2_000)
            waited += 1
        }
    }

    /// 50 `kill -9` rounds. Odd rounds kill the writer at a random moment of its loop; even
    /// rounds kill it while it holds a transaction whose 4 MB row has already spilled pages
    /// into the log, the case recovery must undo. (Random kills alone land inside that window
    /// only by chance, and on a loaded machine almost never.)
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/exe")))
    func killingWritersMidWriteLeavesNoCorruptEntry() throws {
        let directory = try CacheTestDirectory()
        let path = directory.databasePath
        let kills = 50
        var killed = 0
        for round in 0..<kills {
            let paused = round % 2 == 0
            let ready = directory.url.appendingPathComponent("ready-\(round)").path
            let pause = directory.url.appendingPathComponent("pause-\(round)").path
            let writer = try Self.launchWriter(
                path: path, count: 0, padding: 4_000_000, ready: ready, pause: paused ? pause : nil)
            // Wait until it has committed at least once, then until it is inside its next write.
            Self.waitFor(ready, while: writer)
            if paused {
                Self.waitFor(pause, while: writer)
            } else {
                usleep(UInt32.random(in: 0..<50_000))
            }
            #expect(writer.isRunning, "writer \(round) stopped before it was killed")
            if kill(writer.processIdentifier, SIGKILL) == 0 { killed += 1 }
            writer.waitUntilExit()
            #expect(writer.terminationReason == .uncaughtSignal)
            if paused {
                // The proof that this kill interrupted a write: the log ends in frames that no
                // commit covers.
                #expect(Self.logEndsInUncommittedFrames(path + "-wal"), "round \(round) left no torn transaction")
            }
            // Every tenth round, a fresh connection recovers the log and checks every row.
            if round % 10 == 9 { try Self.expectSound(path) }
        }
        #expect(killed == kills)
        try Self.expectSound(path)
        // Each writer committed at least once before it was killed.
        #expect((1...CacheWriterProcess.keyCount).contains(try ResultCache(path: path).stats().entries))
        #expect(try UsageLedger(path: path).usage(engine: .remote).requests >= kills)
    }
}
