import Foundation
import Testing
@testable import StudyKit

/// The default `--jobs` through the binary against a llama-server that reports two parallel
/// slots (`GET /props` → `total_slots: 2`). llama-server is not installed here, so the server is
/// a scripted double (`fault_model_server.py --mode slots`) that answers discovery and
/// `/tokenize` only: these runs plan, they do not generate.
@Suite("studykit binary: the default --jobs from a server's slots", .serialized)
struct ServerSlotsEndToEndTests {
    static let longPDF = TestPaths.packageRoot.appendingPathComponent("samples/long.pdf").path

    static func environment(_ server: FaultModelServer, cache: URL) throws -> [String: String] {
        [
            "STUDYKIT_LOCAL_URL": try LoopbackPorts.closedURL(), "STUDYKIT_REMOTE_URL": server.url,
            "STUDYKIT_REMOTE_API_KEY": "sk-test-slots", "STUDYKIT_CACHE_DIR": cache.path,
        ]
    }

    @Test func routeExplainPlansTwoChunkRequestsAtATimeAndEnginesSaysWhy() async throws {
        let server = try FaultModelServer(.slots)
        let scratch = try ScratchDirectory("slots")
        let environment = try Self.environment(server, cache: scratch.url)

        let plan = try await StudykitBinary.run(["route", "flashcards", Self.longPDF, "--explain", "--json"], environment: environment)
        #expect(plan.status == 0, "\(plan.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: plan.stdoutData) as? [String: Any])
        let chunks = try #require(object["chunks"] as? [String: Any], "a 2,048-token window cuts samples/long.pdf: \(plan.stdout)")
        #expect(chunks["engine"] as? String == "remote")
        #expect(chunks["window"] as? Int == 2048)
        #expect(chunks["jobs"] as? Int == 2)
        #expect(chunks["jobsFrom"] as? String == "server slots")
        let remote = try #require((object["engines"] as? [[String: Any]])?.first { $0["engine"] as? String == "remote" })
        #expect(remote["jobs"] as? Int == 2)
        #expect(remote["jobsFrom"] as? String == "server slots")

        let text = try await StudykitBinary.run(["route", "flashcards", Self.longPDF, "--explain"], environment: environment)
        #expect(text.stdout.contains("  jobs:       2 at a time (server slots) when the document is read in chunks"), "\(text.stdout)")
        #expect(text.stdout.contains("to a model, 2 at a time (server slots)"), "\(text.stdout)")

        // The slots were kept with the rest of the discovery: `engines` reads them from the cache.
        let engines = try await StudykitBinary.run(["engines", "--json"], environment: environment)
        let rows = try #require(try JSONSerialization.jsonObject(with: engines.stdoutData) as? [[String: Any]])
        let row = try #require(rows.first { $0["engine"] as? String == "remote" })
        #expect(row["parallelRequests"] as? String == "2 (server slots)")
        #expect((row["discovery"] as? String)?.hasPrefix("from the cache") == true, "\(row)")
        // `cache clear` forgets them with the other discoveries.
        let clear = try await StudykitBinary.run(["cache", "clear"], environment: environment)
        #expect(clear.status == 0, "\(clear.stderr)")
        let again = try await StudykitBinary.run(["engines", "--json"], environment: environment)
        let fresh = try #require((try JSONSerialization.jsonObject(with: again.stdoutData) as? [[String: Any]])?.first { $0["engine"] as? String == "remote" })
        #expect(fresh["discovery"] as? String == "asked the server now")
        #expect(fresh["parallelRequests"] as? String == "2 (server slots)")
    }

    @Test func routeExplainTakesJobsAndSaysWhereTheNumberCameFrom() async throws {
        let server = try FaultModelServer(.slots)
        let scratch = try ScratchDirectory("slots-jobs")
        let environment = try Self.environment(server, cache: scratch.url)
        // The server answers discovery and /tokenize only: a plan that asked for a generation would fail.
        let plan = try await StudykitBinary.run(["route", "flashcards", Self.longPDF, "--explain", "--json", "--jobs", "3"], environment: environment)
        #expect(plan.status == 0, "\(plan.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: plan.stdoutData) as? [String: Any])
        let chunks = try #require(object["chunks"] as? [String: Any], "\(plan.stdout)")
        #expect(chunks["jobs"] as? Int == 3)
        #expect(chunks["jobsFrom"] as? String == "--jobs")
        let remote = try #require((object["engines"] as? [[String: Any]])?.first { $0["engine"] as? String == "remote" })
        #expect(remote["jobs"] as? Int == 3)
        #expect(remote["jobsFrom"] as? String == "--jobs")

        let text = try await StudykitBinary.run(["route", "flashcards", Self.longPDF, "--explain", "--jobs", "1"], environment: environment)
        #expect(text.stdout.contains("  jobs:       1 at a time (--jobs) when the document is read in chunks"), "\(text.stdout)")
        #expect(text.stdout.contains("to a model, 1 at a time (--jobs)"), "\(text.stdout)")

        let zero = try await StudykitBinary.run(["route", "flashcards", Self.longPDF, "--explain", "--jobs", "0"], environment: environment)
        #expect(zero.status == 64)
        #expect(zero.stderr.contains("Invalid value '0' for '--jobs'"), "\(zero.stderr)")
    }

    @Test func aBatchTakesTwoDocumentsAtATimeUnlessToldOtherwise() async throws {
        let server = try FaultModelServer(.slots)
        let scratch = try ScratchDirectory("slots-batch")
        let input = scratch.url.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        // A document that fails on import: the batch decides its jobs, reports, and asks no model.
        try FileManager.default.copyItem(
            at: TestPaths.fixtures.appendingPathComponent("Import/corrupt.pdf"), to: input.appendingPathComponent("corrupt.pdf"))
        let environment = try Self.environment(server, cache: scratch.url.appendingPathComponent("cache"))
        let out = scratch.url.appendingPathComponent("kits").path
        for (extra, jobs, from) in [([String](), 2, "server slots"), (["--jobs", "3"], 3, "--jobs")] {
            let run = try await StudykitBinary.run(["batch", input.path, "--out", out, "--json"] + extra, environment: environment)
            #expect(run.status == 65, "\(run.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: run.stdoutData) as? [String: Any], "\(run.stdout)")
            let summary = try #require(report["summary"] as? [String: Any])
            #expect(summary["jobs"] as? Int == jobs)
            #expect(summary["jobsFrom"] as? String == from)
        }
    }
}
