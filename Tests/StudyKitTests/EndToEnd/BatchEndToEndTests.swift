import Foundation
import Testing
@testable import StudyKit

/// `studykit batch` through the built binary, on the builtin engine (no server): a bad document
/// among good ones, a rerun, and the order of the report with several documents at a time.
@Suite("studykit binary: batch")
struct BatchEndToEndTests {
    /// A folder of inputs copied from the samples and fixtures, plus a cache and an output folder.
    final class Workspace: Sendable {
        let scratch: ScratchDirectory
        var input: URL { scratch.url.appendingPathComponent("in") }
        var kits: URL { scratch.url.appendingPathComponent("kits") }
        var environment: [String: String] { ["STUDYKIT_CACHE_DIR": scratch.url.appendingPathComponent("cache").path] }

        init(_ files: [(name: String, from: URL?)]) throws {
            scratch = try ScratchDirectory("batch")
            for file in files {
                let url = scratch.url.appendingPathComponent("in").appendingPathComponent(file.name)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                if let from = file.from {
                    try FileManager.default.copyItem(at: from, to: url)
                } else {
                    try Data().write(to: url)
                }
            }
        }

        func batch(_ extra: [String] = []) async throws -> StudykitBinary.Result {
            try await StudykitBinary.run(["batch", input.path, "--out", kits.path, "--engine", "builtin"] + extra, environment: environment)
        }

        func kitIsComplete(_ name: String) -> Bool {
            KitWriter.fileNames.allSatisfy { FileManager.default.fileExists(atPath: kits.appendingPathComponent(name).appendingPathComponent($0).path) }
        }
    }

    static func sample(_ name: String) -> URL { TestPaths.packageRoot.appendingPathComponent("samples").appendingPathComponent(name) }
    static func fixture(_ name: String) -> URL { TestPaths.fixtures.appendingPathComponent("Import").appendingPathComponent(name) }

    @Test(.timeLimit(.minutes(5)))
    func aCorruptEncryptedOrEmptyDocumentNeverStopsTheOthers() async throws {
        let workspace = try Workspace([
            ("corrupt.pdf", Self.fixture("corrupt.pdf")), ("empty.md", nil), ("encrypted.pdf", Self.fixture("encrypted.pdf")),
            ("good.txt", Self.sample("paste.txt")), ("page.html", Self.sample("article.html")), ("sub/notes.pdf", Self.sample("notes.pdf")),
        ])
        let run = try await workspace.batch()
        // The first failed document in the order given decides the code: the corrupt PDF's 65.
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.isEmpty, "no progress when piped: \(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 7, "one line per document and the totals: \(run.stdout)")
        let input = workspace.input.path
        #expect(lines[0].hasPrefix("FAILED   \(input)/corrupt.pdf (exit 65): "))
        #expect(lines[0].contains("is not a readable PDF"))
        #expect(lines[1] == "FAILED   \(input)/empty.md (exit 65): no text in \(input)/empty.md")
        #expect(lines[2].hasPrefix("FAILED   \(input)/encrypted.pdf (exit 65): "))
        #expect(lines[2].contains("--password"))
        #expect(lines[3] == "OK       \(input)/good.txt → \(workspace.kits.path)/good/ (builtin)")
        #expect(lines[4] == "OK       \(input)/page.html → \(workspace.kits.path)/page/ (builtin)")
        #expect(lines[5] == "OK       \(input)/sub/notes.pdf → \(workspace.kits.path)/notes/ (builtin)")
        #expect(lines[6].hasPrefix("batch: 6 documents: 3 made, 3 failed · "))
        for name in ["good", "page", "notes"] { #expect(workspace.kitIsComplete(name), "\(name): every file import --out writes") }
        let folders = try FileManager.default.contentsOfDirectory(atPath: workspace.kits.path).sorted()
        #expect(folders == ["good", "notes", "page"], "a failed document leaves no kit folder")
        // Each kit is the one `import --out` writes for the document.
        let kit = try String(contentsOf: workspace.kits.appendingPathComponent("notes/kit.json"), encoding: .utf8)
        #expect(kit.contains("sub/notes.pdf"), "kit.json names its source")
    }

    @Test(.timeLimit(.minutes(5)))
    func aRerunSkipsUpToDateKitsAndRedoesChangedOrIncompleteOnes() async throws {
        let workspace = try Workspace([
            ("a.txt", Self.sample("paste.txt")), ("b.html", Self.sample("article.html")), ("c.md", Self.sample("eval/en-physics-newton.txt")),
        ])
        let first = try await workspace.batch()
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        let kitMD = workspace.kits.appendingPathComponent("a/kit.md")
        let written = try FileManager.default.attributesOfItem(atPath: kitMD.path)[.modificationDate] as? Date

        let second = try await workspace.batch(["--json"])
        #expect(second.status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: second.stdoutData) as? [String: Any])
        let documents = try #require(report["documents"] as? [[String: Any]])
        #expect(documents.map { $0["status"] as? String } == ["skipped", "skipped", "skipped"])
        #expect((report["summary"] as? [String: Any])?["skipped"] as? Int == 3)
        #expect(try FileManager.default.attributesOfItem(atPath: kitMD.path)[.modificationDate] as? Date == written, "a skipped kit is not rewritten")

        // A changed file and a kit missing a file are made again; the other is still skipped.
        let changed = workspace.input.appendingPathComponent("a.txt")
        try (try String(contentsOf: changed, encoding: .utf8) + "\nOne more sentence about the light reactions of photosynthesis.\n")
            .write(to: changed, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: workspace.kits.appendingPathComponent("b/kit.html"))
        let third = try await workspace.batch()
        #expect(third.status == 0)
        let lines = third.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("OK       "))
        #expect(lines[1].hasPrefix("OK       "))
        #expect(lines[2].hasPrefix("SKIPPED  \(workspace.input.path)/c.md → "))
        #expect(lines[3].hasPrefix("batch: 3 documents: 2 made, 1 skipped (up to date), 0 failed · "))
        #expect(workspace.kitIsComplete("b"))
        #expect(try FileManager.default.attributesOfItem(atPath: kitMD.path)[.modificationDate] as? Date != written)

        // --no-cache makes every kit again.
        let forced = try await workspace.batch(["--no-cache"])
        #expect(forced.stdout.split(separator: "\n").prefix(3).allSatisfy { $0.hasPrefix("OK       ") }, "\(forced.stdout)")
    }

    /// A long PDF first and short texts after it, three at a time: the short ones finish first,
    /// the report keeps the order given.
    @Test(.timeLimit(.minutes(5)))
    func withSeveralJobsTheReportKeepsTheOrderGiven() async throws {
        let names = ["1-long.pdf", "2-paste.txt", "3-newton.txt", "4-article.html", "5-printing.md"]
        let workspace = try Workspace(zip(names, [
            Self.sample("long.pdf"), Self.sample("paste.txt"), Self.sample("eval/en-physics-newton.txt"), Self.sample("article.html"),
            Self.sample("eval/en-history-printing.md"),
        ]).map { ($0, Optional($1)) })
        let run = try await workspace.batch(["--jobs", "3", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: run.stdoutData) as? [String: Any])
        let documents = try #require(report["documents"] as? [[String: Any]])
        #expect(documents.map { ($0["source"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } } == names)
        #expect(documents.allSatisfy { $0["status"] as? String == "ok" && $0["engines"] as? [String] == ["builtin"] })
        #expect((report["summary"] as? [String: Any])?["jobs"] as? Int == 3)
        for document in documents { #expect(workspace.kitIsComplete(try #require(document["name"] as? String))) }
    }
}
