import Foundation
import Testing
@testable import StudyKit

/// #54 against the real llama-cpp-python server: with a remote configured and no `--budget`, a
/// document longer than the remote window is read in chunks by default, under a whole-job
/// budget sized for its chunks (not the fixed default of one request), and `--json` reports the
/// coverage. A small fixture against a 2,048-token window keeps CI's time down: the textbook
/// against the 8,192-token window is measured in RESULTS.md.
@Suite("Integration: chunked by default through a remote")
struct ChunkedByDefaultIntegrationTests {
    @Test(.timeLimit(.minutes(8)))
    func aDocumentLongerThanTheRemoteWindowIsReadInChunksWithoutABudget() async throws {
        let server = try await OwnModelServer.start(contextSize: 2048, alias: "smollm2-135m-remote", apiKey: "chunk-default-key")
        let scratch = try ScratchDirectory("chunked-default")
        var environment = try server.studykitEnvironment(
            local: false, remote: true, cache: scratch.url.appendingPathComponent("cache"), remoteWindow: 2048)
        // A request this small model cannot finish ends here, not at the 300 s of a busy machine.
        environment["STUDYKIT_DEADLINE"] = "90"
        let notes = try ["en-biology-immune.md", "en-computing-hash-tables.md"].map { name in
            try String(contentsOf: TestPaths.samples.appendingPathComponent("eval").appendingPathComponent(name), encoding: .utf8)
        }
        let file = scratch.url.appendingPathComponent("two-topics.md")
        try notes.joined(separator: "\n\n").write(to: file, atomically: true, encoding: .utf8)

        // Two chunks to the model, both started at once (the server queues the second), so
        // the test makes two chunk requests whatever the first one's time does to the estimate
        // of the second; the chunks past them are the builtin engine's.
        let run = try await StudykitBinary.run(
            ["flashcards", file.path, "--json", "--max-chunks", "2", "--jobs", "2"], environment: environment)
        await server.stop()
        #expect(run.status == 0, "\(run.stderr)")
        let envelope = try #require(try JSONSerialization.jsonObject(with: run.stdoutData) as? [String: Any], "\(run.stdout)")
        let coverage = try #require(envelope["coverage"] as? [String: Any], "not chunked: \(run.stdout)")
        #expect((coverage["chunks"] as? Int ?? 0) >= 3, "\(coverage)")
        // The budget is the whole job's and sized for the chunks: more than flashcards' fixed 120 s.
        let budget = try #require(coverage["budget"] as? [String: Any], "\(coverage)")
        #expect((budget["seconds"] as? Double ?? 0) > TimeBudget.defaultSeconds(for: .flashcards, remoteConfigured: true))
        #expect(budget["for"] as? String == "the whole job")
        // Body sections with cards, out of all: reported on the run.
        let sections = try #require(coverage["sections"] as? [String: Any], "\(coverage)")
        #expect((sections["total"] as? Int ?? 0) >= 2)
        let remoteAttempts = (envelope["attempts"] as? [[String: Any]] ?? []).filter { $0["engine"] as? String == "remote" }
        #expect(remoteAttempts.count >= 2, "\(envelope["attempts"] ?? "no attempts")")
    }
}
