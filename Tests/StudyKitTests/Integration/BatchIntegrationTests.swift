import Foundation
import Testing
@testable import StudyKit

/// `studykit batch` with several documents at a time against a real OpenAI-compatible server on
/// loopback as the remote engine: the scale-out path (docs/scale-out.md) in small. The server
/// is our own (a batch holds a server for minutes: not the shared ones), it answers one request
/// at a time like a single llama-cpp-python process; local is down, so every model part goes to it.
@Suite("Integration: batch against the loopback remote server")
struct BatchIntegrationTests {
    @Test(.timeLimit(.minutes(8)))
    func documentsRunTogetherAgainstTheRemoteAndTheReportKeepsTheirOrder() async throws {
        let server = try await OwnModelServer.start(contextSize: 8192, alias: "smollm2-135m-remote", apiKey: "batch-test-key")
        let scratch = try ScratchDirectory("batch-remote")
        let input = scratch.url.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let samples = TestPaths.packageRoot.appendingPathComponent("samples")
        let names = ["1-paste.txt", "2-article.html", "3-newton.txt"]
        for (name, sample) in zip(names, ["paste.txt", "article.html", "eval/en-physics-newton.txt"]) {
            try FileManager.default.copyItem(at: samples.appendingPathComponent(sample), to: input.appendingPathComponent(name))
        }
        var environment = try server.studykitEnvironment(local: false, remote: true, cache: scratch.url.appendingPathComponent("cache"))
        environment["STUDYKIT_DEADLINE"] = nil
        // Three documents at a time, asked for: by default a batch sends a server that serves one
        // request at a time (as this one does) one document at a time (ServerJobsIntegrationTests).
        let run = try await StudykitBinary.run(
            ["batch", input.path, "--out", scratch.url.appendingPathComponent("kits").path, "--budget", "60", "--json", "--jobs", "3"],
            environment: environment)
        await server.stop()

        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
        let documents = try #require(report["documents"] as? [[String: Any]])
        let summary = try #require(report["summary"] as? [String: Any])
        #expect(documents.map { ($0["source"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } } == names)
        #expect(documents.allSatisfy { $0["status"] as? String == "ok" }, "\(documents)")
        #expect(summary["jobs"] as? Int == 3)
        #expect(summary["jobsFrom"] as? String == "--jobs")

        // The documents overlapped in time: their own durations add up to more than the batch's.
        let wall = try #require(summary["seconds"] as? Double)
        let total = documents.compactMap { $0["seconds"] as? Double }.reduce(0, +)
        #expect(total > wall * 1.2, "documents ran together: \(total) s of documents in \(wall) s")

        // Every document talked to the server, and each kit says honestly which of its parts it
        // answered. (Whether a part is answered by the model is not a property of the batch: on a
        // loaded machine a single-request server's availability probes time out while it serves
        // another document, and those parts fall back, as docs/scale-out.md says.)
        for name in names.map({ ($0 as NSString).deletingPathExtension }) {
            let kitJSON = scratch.url.appendingPathComponent("kits/\(name)/kit.json")
            let kit = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: kitJSON)) as? [String: Any])
            let parts = try #require(kit["parts"] as? [[String: Any]])
            for part in parts where part["engine"] as? String == "remote" {
                #expect(part["model"] as? String == "smollm2-135m-remote")
            }
            let usage = try #require(kit["usage"] as? [String: Any])
            #expect((usage["requests"] as? Int ?? 0) >= 1, "\(name): every document asked the server (discovery at least)")
        }
    }
}
