import Foundation
import Testing
@testable import StudyKit

/// Issue 56: studykit through a real LiteLLM proxy (scripts/serve-models --gateway: LiteLLM in front
/// of two llama-cpp-python servers serving SmolLM2-135M behind one model name, `study-remote`),
/// and a scripted server whose `/openapi.json` is 5 MB. scripts/test starts the gateway and
/// exports `STUDYKIT_TEST_GATEWAY_URL`; a gateway that does not answer fails the test (never
/// skips it). A few short requests only: CI runs this on two cores.
@Suite("Integration: the remote engine behind a LiteLLM gateway", .serialized)
struct GatewayIntegrationTests {
    private static let processEnvironment = ProcessInfo.processInfo.environment
    static let url = processEnvironment["STUDYKIT_TEST_GATEWAY_URL"] ?? "http://127.0.0.1:8393/v1"
    static let key = processEnvironment["STUDYKIT_TEST_GATEWAY_API_KEY"] ?? "sk-studykit-gateway"
    static let model = processEnvironment["STUDYKIT_TEST_GATEWAY_MODEL"] ?? "study-remote"
    static let hint = "start it with scripts/install-gateway and scripts/serve-models --gateway (scripts/test does both)"
    static let paste = "samples/paste.txt"

    /// Fails the test when the gateway does not answer `GET /v1/models` with its key.
    static func requireGateway() async throws {
        let base = url.hasSuffix("/v1") ? String(url.dropLast(3)) : url
        let answers = await LoopbackHTTP.answers(base, key: key, deadline: 60)
        try #require(answers, "the LiteLLM gateway at \(url) does not answer: \(hint)")
    }

    /// The remote is the gateway, configured as a user would (URL, key, model: no window); local is down.
    static func environment(cache: URL) throws -> [String: String] {
        [
            "STUDYKIT_LOCAL_URL": try LoopbackPorts.closedURL(), "STUDYKIT_REMOTE_URL": url, "STUDYKIT_REMOTE_API_KEY": key,
            "STUDYKIT_REMOTE_MODEL": model, "STUDYKIT_CACHE_DIR": cache.path, "STUDYKIT_DEADLINE": "300",
        ]
    }

    /// `studykit engines --json`'s row for the remote engine.
    static func remoteRow(_ environment: [String: String]) async throws -> [String: Any] {
        let engines = try await StudykitBinary.run(["engines", "--json"], environment: environment)
        #expect(engines.status == 0, "\(engines.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: engines.stdoutData) as? [[String: Any]], "\(engines.stdout)")
        let remote = try #require(rows.first { $0["engine"] as? String == "remote" })
        #expect(remote["available"] as? Bool == true, "\(remote)")
        return remote
    }

    @Test(.timeLimit(.minutes(10)))
    func enginesListsTheGatewayWithItsWindowAndHeadlineAndSummaryAreAnsweredThroughIt() async throws {
        try await Self.requireGateway()
        let scratch = try ScratchDirectory("gateway")
        let environment = try Self.environment(cache: scratch.url)

        let remote = try await Self.remoteRow(environment)
        #expect(remote["dialect"] as? String == "litellm", "\(remote)")
        // The window comes from the gateway's model info (scripts/serve-models sets max_input_tokens).
        #expect(remote["contextSize"] as? Int == 8192, "\(remote)")
        #expect(remote["contextSource"] as? String == "discovered from GET /v1/model/info (max_input_tokens)", "\(remote)")
        #expect(remote["tokenCounting"] as? String == "estimate")
        // LiteLLM's 2 MB OpenAPI document was not read, and engines says so.
        let notes = remote["discoveryNotes"] as? [String] ?? []
        #expect(notes.contains { $0.hasPrefix("discovery: GET /openapi.json was ") && $0.contains("over the probe's 64 KB limit") }, "\(remote)")

        // route --explain says how tokens are counted.
        let explain = try await StudykitBinary.run(["route", "summary", Self.paste, "--explain"], environment: environment)
        #expect(explain.status == 0, "\(explain.stderr)")
        #expect(explain.stdout.contains("  counting:   estimated, the litellm server offers no tokenizer"), "\(explain.stdout)")

        // Answered through the gateway: --verbose names each request's id and the backend that
        // served it. (A model's answer may still be refused by validation: then 69, and the
        // request went through all the same.)
        for task in ["headline", "summary"] {
            let run = try await StudykitBinary.run(
                [task, Self.paste, "--engine", "remote", "--json", "--verbose", "--no-cache"], environment: environment)
            #expect(run.status == 0 || run.status == 69, "\(task): \(run.stderr)")
            let served = run.stderr.split(separator: "\n").filter {
                $0.contains("studykit: remote request ") && $0.contains(": answered (http 200), served by http://127.0.0.1:")
            }
            #expect(!served.isEmpty, "\(task): no request answered through the gateway: \(run.stderr)")
            if run.status == 0 {
                let envelope = try #require(try JSONSerialization.jsonObject(with: run.stdoutData) as? [String: Any])
                #expect(envelope["engine"] as? String == "remote", "\(task): \(run.stdout)")
            }
        }
    }

    @Test func aServerWhoseOpenAPIDocumentIsFiveMegabytesIsStillAvailableAsPlainOpenAI() async throws {
        let server = try FaultModelServer(.bigspec)
        let scratch = try ScratchDirectory("bigspec")
        let environment = [
            "STUDYKIT_LOCAL_URL": try LoopbackPorts.closedURL(), "STUDYKIT_REMOTE_URL": server.url + "/v1",
            "STUDYKIT_REMOTE_API_KEY": "sk-test-bigspec", "STUDYKIT_REMOTE_CONTEXT_SIZE": "8192", "STUDYKIT_CACHE_DIR": scratch.url.path,
        ]
        let remote = try await Self.remoteRow(environment)
        #expect(remote["dialect"] as? String == "openai", "\(remote)")
        #expect(remote["contextSize"] as? Int == 8192, "\(remote)")
        #expect(remote["model"] as? String == "bigspec-model", "\(remote)")
        let notes = remote["discoveryNotes"] as? [String] ?? []
        #expect(
            notes.contains("discovery: GET /openapi.json was over the probe's 64 KB limit; treated as a plain OpenAI server"),
            "\(remote)")
    }
}
