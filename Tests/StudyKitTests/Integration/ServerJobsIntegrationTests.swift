import Foundation
import Testing
@testable import StudyKit

/// The default `--jobs` against the real loopback server: llama-cpp-python serves one request
/// at a time behind one model lock (no setting changes that), so a chunked run and a batch
/// send it one request at a time unless `--jobs` says otherwise.
@Suite("Integration: the default --jobs against llama-cpp-python")
struct ServerJobsIntegrationTests {
    @Test(.timeLimit(.minutes(6)))
    func aChunkedRunAndABatchSendTheSerializingServerOneRequestAtATime() async throws {
        // The remote with a 2,048-token window: samples/long.pdf is cut in many chunks.
        let server = try await OwnModelServer.start(contextSize: 2048, alias: "smollm2-135m-remote", apiKey: "jobs-test-key")
        let scratch = try ScratchDirectory("server-jobs")
        let environment = try server.studykitEnvironment(
            local: false, remote: true, cache: scratch.url.appendingPathComponent("cache"), remoteWindow: 2048)
        let pdf = TestPaths.packageRoot.appendingPathComponent("samples/long.pdf").path

        let plan = try await StudykitBinary.run(["route", "flashcards", pdf, "--explain", "--json"], environment: environment)
        #expect(plan.status == 0, "\(plan.stderr)")
        let planned = try #require(
            (try JSONSerialization.jsonObject(with: plan.stdoutData) as? [String: Any])?["chunks"] as? [String: Any], "\(plan.stdout)")
        #expect(planned["jobs"] as? Int == 1)
        #expect(planned["jobsFrom"] as? String == "serializing server")

        // A real chunked run: one chunk to the model (the rest past --max-chunks to the builtin
        // engine), within 30 s.
        let run = try await StudykitBinary.run(
            ["flashcards", pdf, "--json", "--max-chunks", "1", "--budget", "30"], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("1 at a time (serializing server)"), "\(run.stderr)")
        let envelope = try #require(try JSONSerialization.jsonObject(with: run.stdoutData) as? [String: Any], "\(run.stdout)")
        let coverage = try #require(envelope["coverage"] as? [String: Any])
        #expect((coverage["chunks"] as? Int ?? 0) > 10)
        #expect(coverage["jobs"] as? Int == 1)
        #expect(coverage["jobsFrom"] as? String == "serializing server")
        // The chunk went to the server (its answer may not have come within 30 s: uvicorn logs a
        // request only once answered, so the attempt record says it).
        let attempts = (envelope["attempts"] as? [[String: Any]] ?? []).filter { $0["engine"] as? String == "remote" }
        #expect(!attempts.isEmpty, "\(envelope["attempts"] ?? "no attempts")")

        // A batch against it: one document at a time (a corrupt PDF: no generation needed).
        let input = scratch.url.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: TestPaths.fixtures.appendingPathComponent("Import/corrupt.pdf"), to: input.appendingPathComponent("corrupt.pdf"))
        let batch = try await StudykitBinary.run(
            ["batch", input.path, "--out", scratch.url.appendingPathComponent("kits").path, "--json"], environment: environment)
        await server.stop()
        #expect(batch.status == 65, "\(batch.stderr)")
        let summary = try #require(
            (try JSONSerialization.jsonObject(with: batch.stdoutData) as? [String: Any])?["summary"] as? [String: Any], "\(batch.stdout)")
        #expect(summary["jobs"] as? Int == 1)
        #expect(summary["jobsFrom"] as? String == "serializing server")
    }
}
