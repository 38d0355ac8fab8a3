import Foundation
import Testing
@testable import StudyKit

/// The engine against real llama-cpp-python servers serving SmolLM2-135M (started by
/// `scripts/serve-models`). An unreachable server fails the test; it is never skipped.
@Suite("OpenAICompatibleEngine against the real model servers", .serialized)
struct EngineIntegrationTests {
    static let environment = ProcessInfo.processInfo.environment
    static let localURL = environment["STUDYKIT_TEST_LOCAL_URL"] ?? "http://127.0.0.1:8391"
    static let remoteURL = environment["STUDYKIT_TEST_REMOTE_URL"] ?? "http://127.0.0.1:8392"
    static let remoteKey = environment["STUDYKIT_TEST_REMOTE_API_KEY"] ?? "studykit-test-key"
    static let hint = "start the model servers with scripts/serve-models"

    /// The local engine as the CLI would build it from the variables serve-models prints.
    static func configuration(remoteKey: String = remoteKey) throws -> EngineConfiguration {
        try EngineConfiguration.resolve(
            environment: [
                "STUDYKIT_LOCAL_URL": localURL, "STUDYKIT_LOCAL_CONTEXT_SIZE": "2048",
                "STUDYKIT_REMOTE_URL": remoteURL, "STUDYKIT_REMOTE_API_KEY": remoteKey, "STUDYKIT_REMOTE_CONTEXT_SIZE": "8192",
                "STUDYKIT_REMOTE_MODEL": "smollm2-135m-remote",
            ], fileText: nil)
    }

    /// Fails (not skips) with the hint when the server does not answer.
    static func reachable(_ engine: any LanguageModel) async throws -> any LanguageModel {
        let availability = await engine.availability()
        try #require(availability == .available, "\(hint) (\(availability))")
        return engine
    }

    static func local() async throws -> any LanguageModel { try await reachable(try configuration().localEngine()) }
    static func remote() async throws -> any LanguageModel { try await reachable(try configuration().remoteEngine()) }

    /// The server's own count, asked directly.
    static func serverCount(_ text: String) async throws -> Int {
        let request = HTTPRequest(
            url: URL(string: localURL + "/extras/tokenize/count")!, method: "POST", headers: ["Content-Type": "application/json"],
            body: try JSONSerialization.data(withJSONObject: ["input": text]))
        let response = try await CurlTransport().send(request)
        let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any], Comment(rawValue: hint))
        return try #require(object["count"] as? Int)
    }

    @Test func bothServersAreAvailableAsLlamaCppPython() async throws {
        let local = try #require(try await Self.local() as? OpenAICompatibleEngine)
        let remote = try #require(try await Self.remote() as? OpenAICompatibleEngine)
        #expect(try await local.dialect() == .llamaCppPython)
        #expect(try await remote.dialect() == .llamaCppPython)
        #expect(local.modelName == "smollm2-135m-local")
        #expect(remote.modelName == "smollm2-135m-remote")
    }

    @Test func theWindowsAreTheConfiguredOnes() async throws {
        #expect(try await Self.local().contextSize() == ContextWindow(tokens: 2048, source: .configured(setting: "STUDYKIT_LOCAL_CONTEXT_SIZE")))
        #expect(try await Self.remote().contextSize() == ContextWindow(tokens: 8192, source: .configured(setting: "STUDYKIT_REMOTE_CONTEXT_SIZE")))
    }

    @Test(arguments: ["Hello world, tokens!", "Photosynthesis converts light energy into chemical energy.", "naïve café — 東京"])
    func tokenCountIsTheServerTokenizers(text: String) async throws {
        let engine = try await Self.local()
        let count = try await engine.tokenCount(for: text)
        #expect(count == TokenCount(count: try await Self.serverCount(text), method: .exact))
        let tokens = try #require(try await engine.tokenize(text))
        #expect(tokens.count == count.count)
        #expect(try await engine.detokenize(tokens) == text)
    }

    /// The test request under the real headline schema, whose word limits the grammar sent to
    /// these servers enforces: with llama.cpp's greedy sampling and no repeat penalty (as in
    /// process), an unbounded string may run on to the response limit.
    static func bounded() -> GenerationRequest {
        var request = EngineTestSchema.request(maxTokens: 120)
        request.jsonSchema = jsonSchemaText(for: .headline)
        return request
    }

    @Test func aStructuredAnswerMatchesTheSchema() async throws {
        for engine in [try await Self.local(), try await Self.remote()] {
            let response = try await engine.respond(to: Self.bounded())
            let object = try #require(try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any], "not JSON: \(response.text)")
            #expect(Set(object.keys).isSuperset(of: ["title", "blurb"]))
            #expect(object["title"] is String)
            #expect(object["blurb"] is String)
            #expect(response.usage.promptTokens > 0)
            #expect(response.usage.completionTokens > 0)
            #expect(response.usage.method == .reported)
            #expect(response.finishReason == "stop")
            #expect(response.model == engine.modelName)
        }
    }

    @Test func greedyDecodingIsReproducible() async throws {
        let engine = try await Self.local()
        let first = try await engine.respond(to: Self.bounded())
        let second = try await engine.respond(to: Self.bounded())
        #expect(first.text == second.text)
    }

    @Test func streamingGrowsThenCompletesWithTheLastSnapshot() async throws {
        let engine = try await Self.remote()
        var snapshots: [String] = []
        var completed: RawResponse?
        for try await event in engine.streamResponse(to: Self.bounded()) {
            switch event {
            case .partial(let text):
                #expect(completed == nil)
                snapshots.append(text)
            case .completed(let response):
                completed = response
            }
        }
        let final = try #require(completed)
        #expect(snapshots.count > 1)
        for (shorter, longer) in zip(snapshots, snapshots.dropFirst()) {
            #expect(longer.hasPrefix(shorter) && longer.count > shorter.count)
        }
        #expect(final.text == snapshots.last)
        #expect(try JSONSerialization.jsonObject(with: Data(final.text.utf8)) is [String: Any])
        // llama-cpp-python sends no usage while streaming: counted with its tokenizer.
        #expect(final.usage.method == .counted)
        #expect(final.usage.promptTokens > 0 && final.usage.completionTokens > 0)
        let recount = try await engine.tokenCount(for: final.text).count
        #expect(final.usage.completionTokens == recount)
    }

    @Test func aWrongKeyIsAClearAuthenticationError() async throws {
        _ = try await Self.remote()
        let wrong = "wrong-key-\(UUID().uuidString)"
        let engine = try Self.configuration(remoteKey: wrong).remoteEngine()
        do {
            _ = try await engine.respond(to: EngineTestSchema.request())
            Issue.record("a wrong key should be refused")
        } catch let error as EngineError {
            guard case .authentication(let detail) = error else { Issue.record("got \(error)"); return }
            #expect(detail == "the remote engine at \(Self.remoteURL) refused the API key from STUDYKIT_REMOTE_API_KEY (http 401: Invalid API key); check the key")
            #expect(!error.message.contains(wrong))
        }
        guard case .unavailable(let reason) = await engine.availability() else {
            Issue.record("a wrong key should make the engine unavailable")
            return
        }
        #expect(!reason.contains(wrong))
    }

    @Test func theResponseLimitCutsTheAnswerAndItsUsageIsReported() async throws {
        let engine = try await Self.local()
        let response = try await engine.respond(to: EngineTestSchema.request(maxTokens: 3))
        #expect(response.finishReason == "length")
        #expect(response.usage.completionTokens == 3)
        #expect(response.usage.promptTokens > 0)
    }

    @Test func anOversizedPromptExceedsTheContext() async throws {
        let engine = try await Self.local()
        var request = EngineTestSchema.request()
        request.prompt = String(repeating: "The mitochondria is the powerhouse of the cell. ", count: 300)
        do {
            _ = try await engine.respond(to: request)
            Issue.record("a prompt longer than the window should be refused")
        } catch let error as EngineError {
            guard case .contextExceeded(let tokens, let window) = error else { Issue.record("got \(error)"); return }
            #expect(window == 2048)
            #expect(tokens > 2048)
        }
    }

    @Test func reportsNameEachEngineWithoutTheKey() async throws {
        _ = try await Self.local()
        let reports = await engineReports(configuration: try Self.configuration())
        #expect(reports.map(\.kind) == [.local, .remote])
        for report in reports {
            #expect(report.availability == .available)
            #expect(report.tokenCounting == .exact)
            #expect(report.dialect == "llama-cpp-python")
            #expect(!"\(report)".contains(Self.remoteKey))
        }
        #expect(reports[0].contextWindow?.tokens == 2048)
        #expect(reports[1].contextWindow == ContextWindow(tokens: 8192, source: .configured(setting: "STUDYKIT_REMOTE_CONTEXT_SIZE")))
        #expect(reports[0].apiKey == nil)
        #expect(reports[1].apiKey == "set")
    }
}
