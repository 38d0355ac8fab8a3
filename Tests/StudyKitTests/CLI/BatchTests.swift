import Foundation
import Synchronization
import Testing
@testable import StudyKit

@Suite("batch: names, jobs, parsing and bounded concurrency")
struct BatchTests {
    // MARK: names

    @Test(arguments: [
        ("notes", "notes"),
        ("My notes: week 1", "My-notes-week-1"),
        ("../../etc/passwd", "etc-passwd"),
        (".hidden", "hidden"),
        ("--rm -rf", "rm-rf"),
        ("a\u{0}b\nc\u{1B}[31m", "a-b-c-31m"),
        ("火山の噴火", "火山の噴火"),
        ("Économie v2.1", "Économie-v2.1"),
        ("///", "document"),
        ("", "document"),
    ])
    func aNameIsSafeForTheFileSystem(stem: String, expected: String) {
        #expect(BatchNaming.safeName(stem) == expected)
    }

    @Test func aLongNameIsCutToAHundredBytesOnACharacterBoundary() {
        let name = BatchNaming.safeName(String(repeating: "é", count: 80))
        #expect(name.utf8.count <= 100)
        #expect(name == String(repeating: "é", count: 50))
    }

    @Test func collisionsGetASuffixInTheOrderGiven() {
        let items = BatchNaming.items(for: [
            "a/notes.pdf", "b/notes.txt", "c/Notes.md", "notes-2.html", "https://example.org/guide/notes.html", "https://example.org/",
        ])
        #expect(items.map(\.name) == ["notes", "notes-2", "Notes-3", "notes-2-2", "notes-4", "example.org"])
        #expect(items.map(\.source).first == "a/notes.pdf")
    }

    @Test func documentsAtATimeDefaultToOneOnThisMachineAndWhatTheRemoteServesAtOnce() {
        // Only this machine's engines: one, whatever a local server could take.
        #expect(BatchNaming.defaultJobs(remoteServes: false, concurrency: .init(requests: 4, source: .serverSlots))
            == JobsChoice(jobs: 1, source: .localEngines))
        // A remote: its slots, one for a serializing server, four when it says nothing or did not answer.
        #expect(BatchNaming.defaultJobs(remoteServes: true, concurrency: .init(requests: 2, source: .serverSlots))
            == JobsChoice(jobs: 2, source: .serverSlots))
        #expect(BatchNaming.defaultJobs(remoteServes: true, concurrency: .init(requests: 1, source: .serializingServer))
            == JobsChoice(jobs: 1, source: .serializingServer))
        #expect(BatchNaming.defaultJobs(remoteServes: true, concurrency: .init(requests: nil, source: .unreported))
            == JobsChoice(jobs: 4, source: .assumed))
        #expect(BatchNaming.defaultJobs(remoteServes: true, concurrency: nil) == JobsChoice(jobs: 4, source: .assumed))
    }

    // MARK: parsing

    @Test func batchParsesItsFlags() throws {
        let command = try parseCommand([
            "batch", "notes/", "extra.pdf", "--out", "kits", "--jobs", "3", "--engine", "builtin", "--budget", "20", "--json", "--no-cache",
        ])
        var expected = BatchSettings(sources: ["notes/", "extra.pdf"], outputDirectory: "kits")
        expected.jobs = 3
        expected.engine = .builtin
        expected.budget = 20
        expected.json = true
        expected.noCache = true
        #expect(command == .batch(expected))
    }

    @Test(arguments: [
        (["batch", "notes/"], "Missing expected argument '--out <dir>'. See 'studykit batch --help'."),
        (["batch", "--out", "kits"], "Missing expected argument '<dirs or files…>'. See 'studykit batch --help'."),
        (["batch", "notes/", "--out", "kits", "--jobs", "0"], "Invalid value '0' for '--jobs': expected a whole number from 1 to 64."),
        (["batch", "-", "--out", "kits"], "Invalid value '-' for '<dirs or files…>': expected files or folders (batch does not read stdin)."),
        (["batch", "notes/", "--out", "kits", "--format", "anki"], "Unknown option '--format'. See 'studykit batch --help'."),
        (["batch", "notes/", "--out", "kits", "--offline", "--engine", "remote"],
         "Invalid value 'remote' for '--engine': expected auto, local or builtin with --offline."),
    ])
    func badBatchCommandLinesAreUsageErrors(arguments: [String], message: String) {
        #expect(throws: UsageError.self) { try parseCommand(arguments) }
        do { _ = try parseCommand(arguments) } catch { #expect(error.message == message) }
    }

    @Test func helpDocumentsTheExitStatus() throws {
        let help = HelpText.command(try #require(CommandSpec.named("batch")))
        #expect(help.contains("EXIT STATUS: 0 when every document succeeded or was skipped"))
        #expect(help.contains("--jobs <n>"))
    }

    // MARK: finding documents

    @Test func foldersAreSearchedWithoutHiddenFilesReadmesOrTheOutputFolder() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-batch-find-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for path in ["b.md", "a.txt", "sub/c.pdf", "sub/d.html", ".hidden/e.txt", ".f.txg", "README.md", "kits/k/kit.md", "image.png"] {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: url)
        }
        let runner = Runner(environment: [:], standardInput: { Data() }, output: DiscardingSink(), errorOutput: DiscardingSink())
        let found = try runner.documentFiles([root.path], excluding: root.appendingPathComponent("kits").path)
        #expect(found.map { String($0.dropFirst(root.path.count + 1)) } == ["a.txt", "b.md", "sub/c.pdf", "sub/d.html"])
        #expect(try runner.documentFiles([root.path, "/nonexistent/x.pdf"], keepMissing: true).last == "/nonexistent/x.pdf")
        #expect(throws: ImportError.fileNotFound("/nonexistent/x.pdf")) { try runner.documentFiles(["/nonexistent/x.pdf"]) }
    }

    // MARK: bounded concurrency

    /// Jobs that finish in reverse order (the first sleeps longest) come back in input order, and
    /// never more than `jobs` run at once, while `jobs` do run together.
    @Test(arguments: [1, 2, 4])
    func jobsRunBoundedAndResultsKeepTheInputOrder(jobs: Int) async {
        let running = Mutex((now: 0, most: 0))
        let finished = Mutex<[Int]>([])
        let items = Array(0..<8)
        let results = await BoundedJobs.map(items, jobs: jobs) { item in
            running.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
            try? await Task.sleep(for: .milliseconds(20 * (8 - item)))
            running.withLock { $0.now -= 1 }
            finished.withLock { $0.append(item) }
            return "doc\(item)"
        }
        #expect(results == items.map { "doc\($0)" })
        #expect(running.withLock { $0.most } == jobs)
        if jobs > 1 { #expect(finished.withLock { $0 } != items, "with \(jobs) jobs the short ones finish first") }
    }

    // MARK: the report

    @Test func theReportHasOneLinePerDocumentInOrderAndTheTotals() throws {
        let results = [
            BatchResult(item: BatchItem(source: "a.pdf", name: "a"), directory: "out/a", status: .made(engines: [.remote, .builtin], usage: ["requests": 3]), seconds: 2),
            BatchResult(item: BatchItem(source: "b.pdf", name: "b"), directory: "out/b",
                        status: .failed(message: "'b.pdf' is not a readable PDF", exitCode: .dataError), seconds: 0),
            BatchResult(item: BatchItem(source: "c.txt", name: "c"), directory: "out/c", status: .skipped, seconds: 0),
        ]
        let lines = BatchReport.lines(results, seconds: 2.04)
        #expect(lines == [
            "OK       a.pdf → out/a/ (remote, builtin)",
            "FAILED   b.pdf (exit 65): 'b.pdf' is not a readable PDF",
            "SKIPPED  c.txt → out/c/ (kit complete, file unchanged since the run that wrote it)",
            "batch: 3 documents: 1 made, 1 skipped (up to date), 1 failed · 2.0 s",
        ])
        let json = BatchReport.json(results, jobs: JobsChoice(jobs: 2, source: .option), seconds: 2)
        guard case .object(let object) = json, case .array(let documents)? = object["documents"], case .object(let summary)? = object["summary"] else {
            Issue.record("not an object with documents and summary: \(json)")
            return
        }
        #expect(documents.count == 3)
        guard case .object(let made) = documents[0], case .object(let failed) = documents[1] else {
            Issue.record("documents are objects: \(documents)")
            return
        }
        #expect(made["status"] == "ok")
        #expect(made["usage"] == ["requests": 3], "the kit's own usage, as in its kit.json")
        #expect(failed["exitCode"] == .integer(65))
        #expect(failed["usage"] == nil)
        #expect(summary["failed"] == .integer(1))
        #expect(summary["jobs"] == .integer(2))
        #expect(summary["jobsFrom"] == "--jobs")
    }
}
