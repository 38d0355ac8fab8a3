import Foundation
import Testing

/// Issue #14, items 7 and 8, through the binary: 100 deterministic mutations of the committed
/// PDFs never crash or hang studykit, and a 500-page book imports whole.
@Suite("studykit binary: PDF mutation corpus and a 500-page PDF", .serialized)
struct PDFCorpusEndToEndTests {
    static func script(_ name: String, _ arguments: [String]) throws -> (status: Int32, stdout: Data, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", TestPaths.packageRoot.appendingPathComponent("scripts/\(name)").path] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let (stdout, stderr) = StudykitBinary.readToEnd(process, out: out, err: err)
        return (process.terminationStatus, stdout, String(decoding: stderr, as: UTF8.self))
    }

    @Test func aHundredMutationsNeverCrashOrHang() throws {
        let corpus = try TestPaths.temporaryDirectory("pdf-mutations")
        defer { try? FileManager.default.removeItem(at: corpus) }
        let generated = try Self.script("pdf-mutations", ["generate", corpus.path])
        #expect(generated.status == 0, "\(generated.stderr)")
        let run = try Self.script("pdf-mutations", ["run", StudykitBinary.path, corpus.path, "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "\(run.stderr)")
        let summary = try #require(report["summary"] as? [String: Any])
        #expect(summary["mutations"] as? Int == 100)
        #expect(summary["crashes"] as? Int == 0)
        #expect(summary["hangs"] as? Int == 0)
        // Every file is read (0) or refused as bad data (65) with one line on stderr.
        let codes = (summary["exitCodes"] as? [String: Int] ?? [:]).keys.sorted()
        #expect(Set(codes).isSubset(of: ["0", "65"]), "\(codes)")
        #expect(summary["badErrorLines"] as? Int == 0)
        let rows = report["rows"] as? [[String: Any]] ?? []
        #expect(rows.filter { ($0["file"] as? String ?? "").hasPrefix("original-") }.allSatisfy { $0["status"] as? Int == 0 })
    }

    @Test func aFiveHundredPagePDFImportsWhole() async throws {
        let directory = try TestPaths.temporaryDirectory("big-pdf")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pdf = directory.appendingPathComponent("book.pdf").path
        let made = try Self.script("make-big-pdf", [pdf, "500"])
        #expect(made.status == 0, "\(made.stderr)")
        let result = try await StudykitBinary.run(["text", pdf])
        #expect(result.status == 0, "\(result.stderr)")
        // Every page's section is there, the first and the last.
        #expect(result.stdout.contains("Section 1: study notes part 1"))
        #expect(result.stdout.contains("Section 500: study notes part 500"))
        #expect(result.stdout.components(separatedBy: "Section ").count - 1 == 500)
    }
}
