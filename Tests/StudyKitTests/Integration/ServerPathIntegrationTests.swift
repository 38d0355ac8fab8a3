import Foundation
import Synchronization
import Testing
@testable import StudyKit

/// The server path against real llama-cpp-python servers (SmolLM2-135M): studykit's grammar is
/// sent and holds, discovery is kept between runs, and `engines --refresh` asks again. An
/// unreachable server fails these tests; they are never skipped.
@Suite("The server path against the real model server", .serialized)
struct ServerPathIntegrationTests {
    static let paste = TestPaths.samples.appendingPathComponent("paste.txt")

    /// An engine on the shared local server (2,048 tokens) whose exchanges are recorded.
    static func sharedLocalEngine() async throws -> (OpenAICompatibleEngine, RecordingTransport) {
        try await SharedModelServers.require([.local])
        let transport = RecordingTransport()
        let configuration = try EngineConfiguration.resolve(
            environment: ["STUDYKIT_LOCAL_URL": SharedModelServers.localURL, "STUDYKIT_LOCAL_CONTEXT_SIZE": "2048"], fileText: nil)
        return (try #require(configuration.localEngine(transport: transport) as? OpenAICompatibleEngine), transport)
    }

    @Test func ourGrammarIsSentAndAnAnswerCannotBreakItsWordLimits() async throws {
        let (engine, transport) = try await Self.sharedLocalEngine()
        // The model is asked to copy an answer that breaks both limits: a 13-word title, and
        // a blurb of two sentences.
        let request = GenerationRequest(
            instructions: "You repeat JSON exactly.",
            prompt: #"{"title": "Mitosis divides one cell into two identical daughter cells in four phases", "blurb": "Mitosis divides one cell into two identical cells. It has four phases."}"#,
            schemaName: "headline", jsonSchema: jsonSchemaText(for: .headline),
            options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 120))
        let response = try await engine.respond(to: request)

        let chat = try #require(transport.exchanges.map(\.request).last { $0.url.path == "/v1/chat/completions" })
        let body = try #require(chat.body)
        let sent = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(sent["grammar"] as? String == OpenAICompatibleEngine.grammar(for: request))
        #expect(sent["response_format"] == nil)

        let answer = try #require(try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: String], "\(response.text)")
        let title = try #require(answer["title"])
        let blurb = try #require(answer["blurb"])
        // The grammar holds the title to the schema's 6 words and room to finish (9), never
        // glued words; validation then refuses anything over 6.
        let words = title.split(separator: " ")
        #expect((1...GenerationSchema.StringConstraints.grammarWords(6)).contains(words.count), "title: \(title)")
        #expect(words.allSatisfy { $0.count <= GenerationSchema.StringConstraints.longestWord }, "title: \(title)")
        if words.count > 6 { #expect(Headline(title: title, blurb: blurb).validationIssues().contains { $0.path == "title" }) }
        // One sentence: the only sentence end is the last character.
        #expect(blurb.dropLast().allSatisfy { !".?".contains($0) } && ".!?".contains(blurb.last ?? " "), "blurb: \(blurb)")
    }

    /// The router streams a server's answers; llama-cpp-python sends no usage in a stream, so its
    /// answer is metered by its events (one per token) and one count of the prompt, which match
    /// what its tokenizer counts.
    @Test func aStreamedAnswerIsMeteredByItsEventsAndOnePromptCount() async throws {
        let (engine, transport) = try await Self.sharedLocalEngine()
        let request = GenerationRequest(
            instructions: "You answer in JSON.", prompt: "Give a title for notes on photosynthesis.",
            schemaName: "headline", jsonSchema: jsonSchemaText(for: .headline),
            options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 60))
        _ = try await engine.tokenCount(for: "warm")  // discovery first, out of the count below
        transport.reset()
        var final: RawResponse?
        for try await event in engine.streamResponse(to: request) {
            if case .completed(let response) = event { final = response }
        }
        let answer = try #require(final)
        let paths = transport.exchanges.map { $0.request.url.path }
        #expect(paths == ["/v1/chat/completions", "/extras/tokenize/count"], "\(paths)")
        #expect(answer.usage.method == .counted)
        let prompt = try await engine.tokenCount(for: request.instructions + "\n" + request.prompt).count
        #expect(answer.usage.promptTokens == prompt)
        let recounted = try await engine.tokenCount(for: answer.text).count
        #expect(abs(answer.usage.completionTokens - recounted) <= 2, "\(answer.usage.completionTokens) events, \(recounted) tokens")
    }

    /// Discovery asked once, kept in the cache: the second run's requests are the count and the
    /// answer, and the server's access log shows no discovery request for it; `engines` reads the
    /// cache; `engines --refresh` asks the server again.
    @Test func discoveryIsCachedBetweenRunsAndRefreshAsksAgain() async throws {
        let server = try await OwnModelServer.start(contextSize: 2048, alias: "smollm2-135m-local")
        defer { Task { await server.stop() } }
        let cache = try ScratchDirectory("server-path")
        let environment = try server.studykitEnvironment(local: true, remote: false, cache: cache.url)
        let paste = try Data(contentsOf: Self.paste)
        let discovery = ["GET /v1/models", "GET /props", "GET /openapi.json"]
        // Since the start: the readiness check already asked GET /v1/models.
        let before = discovery.map { server.requests(matching: $0) }
        func discoveryRequests() -> [Int] { zip(discovery, before).map { server.requests(matching: $0) - $1 } }

        let first = try await StudykitBinary.run(["headline", "--no-cache", "--engine", "local", "--json"], stdin: paste, environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        let made = try LiveEnvelope(first)
        let firstUsage = try #require(made.object["usage"] as? [String: Any])
        #expect((firstUsage["discovery"] as? [String: String])?["local"] == "server")
        #expect(discoveryRequests() == [1, 1, 1])
        // Whatever the model wrote, the run says whether it asked again, and the usage counts it.
        let firstReasks = try #require(firstUsage["reasks"] as? Int)
        #expect(firstReasks == (made.object["reasked"] as? Bool == true ? 1 : 0))

        let chatsBefore = server.requests(matching: "POST /v1/chat/completions")
        let second = try await StudykitBinary.run(["headline", "--no-cache", "--engine", "local", "--json"], stdin: paste, environment: environment)
        #expect(second.status == 0, "\(second.stderr)")
        let usage = try #require(try LiveEnvelope(second).object["usage"] as? [String: Any])
        #expect((usage["discovery"] as? [String: String])?["local"] == "cache")
        #expect(discoveryRequests() == [1, 1, 1], "the second run asked the server what it is again")
        // Only generation reached the server: one chat completion per ask (the first and any re-ask
        // or shortening ask), and the run's request count holds them and its token counts.
        let chats = server.requests(matching: "POST /v1/chat/completions") - chatsBefore
        let secondReasks = try #require(usage["reasks"] as? Int)
        #expect(chats >= 1 + secondReasks && chats <= 3, "chat completions: \(chats)")
        let requests = try #require(usage["requests"] as? Int)
        #expect(requests >= chats && requests <= chats + 1, "requests: \(requests), chats: \(chats)")

        let engines = try await StudykitBinary.run(["engines", "--json"], environment: environment)
        #expect(engines.status == 0, "\(engines.stderr)")
        let local = try Self.localRow(engines)
        #expect((local["discovery"] as? String)?.hasPrefix("from the cache") == true, "\(local)")
        #expect((local["answerShape"] as? String)?.contains("'grammar'") == true, "\(local)")
        #expect(discoveryRequests() == [1, 1, 1])

        let refreshed = try await StudykitBinary.run(["engines", "--refresh", "--json"], environment: environment)
        #expect(refreshed.status == 0, "\(refreshed.stderr)")
        #expect(try Self.localRow(refreshed)["discovery"] as? String == "asked the server now")
        #expect(discoveryRequests() == [2, 2, 2])
        await server.stop()
    }

    /// The server behind the same URL restarted with a smaller window: the first request fails
    /// with the server's context error, which says the server changed, and the window it names
    /// is what the next run budgets for (llama-cpp-python reports its window nowhere else).
    @Test func aServerRestartedWithAnotherWindowIsRediscoveredAfterTheFailure() async throws {
        let first = try await OwnModelServer.start(contextSize: 2048, alias: "smollm2-135m-local")
        let cache = try ScratchDirectory("server-path")
        let environment = try first.studykitEnvironment(local: true, remote: false, cache: cache.url)
        let paste = try Data(contentsOf: Self.paste)
        let before = try await StudykitBinary.run(["engines", "--json"], environment: environment)
        #expect(try Self.localRow(before)["contextSize"] as? Int == 2048)
        await first.stop()

        // 256 tokens: less than the headline's prompt alone, so the server refuses it.
        let second = try await OwnModelServer.start(contextSize: 256, alias: "smollm2-135m-local", port: first.port)
        let failed = try await StudykitBinary.run(["headline", "--no-cache", "--engine", "local"], stdin: paste, environment: environment)
        #expect(failed.status == 69, "\(failed.stderr)")
        #expect(failed.stderr.contains("256"), "\(failed.stderr)")

        let after = try await StudykitBinary.run(["engines", "--json"], environment: environment)
        await second.stop()
        let local = try Self.localRow(after)
        #expect(local["contextSize"] as? Int == 256, "\(local)")
        #expect(local["contextSource"] as? String == "discovered from the server's context-length error", "\(local)")
    }

    static func localRow(_ run: StudykitBinary.Result) throws -> [String: Any] {
        let rows = try #require(try JSONSerialization.jsonObject(with: run.stdoutData) as? [[String: Any]], "\(run.stdout)")
        return try #require(rows.first { $0["engine"] as? String == "local" })
    }
}
