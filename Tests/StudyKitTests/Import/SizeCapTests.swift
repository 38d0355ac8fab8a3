import Foundation
import Synchronization
import Testing
@testable import StudyKit

/// Every source has one size cap (`--max-bytes`, 50 MB by default): files, stdin and URLs.
@Suite("Size caps of files and stdin")
struct SizeCapTests {
    /// A stdin of `size` bytes that hands out what is asked for and remembers the largest request.
    final class EndlessInput: Sendable {
        let size: Int
        let largestRequest = Mutex(0)
        init(size: Int) { self.size = size }
        func read(upTo limit: Int) -> Data {
            largestRequest.withLock { $0 = max($0, limit) }
            return Data(repeating: UInt8(ascii: "a"), count: min(size, limit + 1))
        }
    }

    @Test func theDefaultCapIsFiftyMegabytes() {
        #expect(ImportOptions().maxBytes == 50_000_000)
        #expect(ImportOptions.defaultMaxBytes == 50_000_000)
    }

    @Test func stdinOverTheCapIsRefusedWithoutReadingItAll() async {
        let input = EndlessInput(size: 60_000_000)
        let importer = Importer(standardInputUpTo: { input.read(upTo: $0) })
        await #expect(throws: ImportError.tooLarge("stdin", limit: 50_000_000)) { _ = try await importer.load(.standardInput) }
        // Only one byte past the cap is ever asked for: a huge or endless stdin is not held in memory.
        #expect(input.largestRequest.withLock { $0 } == 50_000_000)
    }

    @Test func stdinAtTheCapIsRead() async throws {
        let input = EndlessInput(size: 1000)
        let importer = Importer(standardInputUpTo: { input.read(upTo: $0) })
        let document = try await importer.load(.standardInput, options: ImportOptions(maxBytes: 1000))
        #expect(document.characterCount == 1000)
        await #expect(throws: ImportError.tooLarge("stdin", limit: 999)) {
            _ = try await importer.load(.standardInput, options: ImportOptions(maxBytes: 999))
        }
    }

    @Test func aFileOverTheCapIsRefusedBeforeItIsRead() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-cap-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(repeating: UInt8(ascii: "b"), count: 2000).write(to: URL(fileURLWithPath: path))
        let importer = Importer()
        await #expect(throws: ImportError.tooLarge(path, limit: 1999)) {
            _ = try await importer.load(.file(path), options: ImportOptions(maxBytes: 1999))
        }
        let document = try await importer.load(.file(path), options: ImportOptions(maxBytes: 2000))
        #expect(document.characterCount == 2000)
    }

    @Test func aPipeNamedAsAFileIsCappedToo() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-fifo-\(UUID().uuidString)").path
        #expect(mkfifo(path, 0o600) == 0)
        defer { try? FileManager.default.removeItem(atPath: path) }
        // 150 kB through a pipe, which has no size to look at before reading. (The writer writes
        // it all and closes: a reader that stopped early would raise SIGPIPE in this process.)
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: path) else { return }
            try? handle.write(contentsOf: Data(repeating: 0x63, count: 150_000))
            try? handle.close()
        }
        writer.start()
        await #expect(throws: ImportError.tooLarge(path, limit: 100_000)) {
            _ = try await Importer().load(.file(path), options: ImportOptions(maxBytes: 100_000))
        }
    }

    @Test func theMessageIsOneLineNamingTheSourceTheLimitAndTheFlag() {
        let error = ImportError.tooLarge("notes.pdf", limit: 50_000_000)
        #expect(error.exitCode == .dataError)
        #expect(error.message == "'notes.pdf' is larger than the 50 MB limit (50000000 bytes); raise it with --max-bytes if you mean it, or pass a smaller part")
        #expect(ImportError.tooLarge("stdin", limit: 1500).message.hasPrefix("stdin is larger than the 1 kB limit (1500 bytes)"))
        #expect(!error.message.contains("\n"))
    }

    /// Through the binary, as a student pipes a dump into it: more than 50 MB on stdin.
    @Test func theBinaryRefusesMoreThanFiftyMegabytesOnStdin() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "yes 'the chloroplast holds chlorophyll' | head -c 52000000 | \"$0\" text -", StudykitBinary.path]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let (stdout, stderr) = StudykitBinary.readToEnd(process, out: out, err: err)
        #expect(process.terminationStatus == 65)
        #expect(stdout.isEmpty)
        #expect(String(decoding: stderr, as: UTF8.self)
            == "studykit: stdin is larger than the 50 MB limit (50000000 bytes); raise it with --max-bytes if you mean it, or pass a smaller part\n")
    }
}
