import Foundation
import Testing
@testable import StudyKit

/// The server path with a scripted transport, for what a real llama-cpp-python cannot show:
/// a server that refuses `grammar`, a server replaced behind a cached discovery, a day passing.
/// (The real server's side is in ``ServerPathIntegrationTests``.)
@Suite("The server path: grammar, discovery kept a day, rediscovery")
struct ServerPathTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let chat = "/v1/chat/completions"

    static func engine(
        _ transport: ScriptedEngineTransport, store: (any DiscoveryStoring)? = nil, at now: Date = start,
        dialect: ServerDialect? = nil
    ) -> OpenAICompatibleEngine {
        let endpoint = EngineConfiguration.Endpoint(
            url: URL(string: "http://127.0.0.1:8080/")!, model: "scripted-model", contextSize: 2048,
            contextSizeSetting: "STUDYKIT_LOCAL_CONTEXT_SIZE", dialect: dialect)
        let timing = OpenAICompatibleEngine.RetryTiming(sleep: { _ in }, random: { 0.5 }, now: { now })
        return OpenAICompatibleEngine(kind: .local, endpoint: endpoint, transport: transport, timing: timing, discoveryStore: store)
    }

    /// llama-cpp-python as 0.3.36 answers discovery: its API document names `grammar`.
    static func llamaCppPython(grammarListed: Bool = true) throws -> [String: ScriptedReply] {
        var routes = ScriptedEngineTransport.llamaCppPythonRoutes
        var document = try #require(
            try JSONSerialization.jsonObject(with: Data(try fixtureText("llama-cpp-python-openapi").utf8)) as? [String: Any])
        if !grammarListed {
            var components = try #require(document["components"] as? [String: Any])
            var schemas = try #require(components["schemas"] as? [String: Any])
            var request = try #require(schemas["CreateChatCompletionRequest"] as? [String: Any])
            var properties = try #require(request["properties"] as? [String: Any])
            properties["grammar"] = nil
            request["properties"] = properties
            schemas["CreateChatCompletionRequest"] = request
            components["schemas"] = schemas
            document["components"] = components
        }
        routes["/openapi.json"] = .json(String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self))
        return routes
    }

    static func fixtureText(_ name: String) throws -> String {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures/Engines"))
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// A headline the typed layer accepts for ``EngineTestSchema/request(maxTokens:)``'s notes.
    static let validHeadline = #"{"title":"Photosynthesis in chloroplasts","blurb":"Photosynthesis turns light, water and carbon dioxide into sugar and oxygen."}"#

    static func sentBody(_ request: HTTPRequest?) throws -> [String: Any] {
        let body = try #require(request?.body)
        return try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    }

    // MARK: grammar

    @Test func llamaCppPythonIsFoundByItsAPIDocumentAndGetsOurGrammar() async throws {
        var routes = try Self.llamaCppPython()
        routes[Self.chat] = .json(EngineFaultTests.completion(Self.validHeadline))
        let transport = ScriptedEngineTransport(routes: routes)
        let engine = Self.engine(transport)
        _ = try await engine.respond(to: EngineTestSchema.request())
        #expect(transport.requests.map(\.url.path) == ["/v1/models", "/props", "/openapi.json", Self.chat])
        let sent = try Self.sentBody(transport.requests.last)
        // The grammar the in-process engine decodes under, instead of response_format.
        #expect(sent["grammar"] as? String == (try GrammarConverter.grammar(forJSONSchema: EngineTestSchema.headline)))
        #expect(sent["response_format"] == nil)
        #expect(sent["repeat_penalty"] as? Int == 1)
        #expect(await engine.describe().answerShape?.hasPrefix("studykit's GBNF in 'grammar'") == true)
    }

    @Test func theGrammarKeepsTheWordLimitsOfTheSchema() throws {
        // The real headline schema: the title's six words are in the grammar itself, with room
        // to finish (9: one, then at most eight more); validation keeps the six.
        let grammar = try #require(OpenAICompatibleEngine.grammar(for: GenerationRequest(
            instructions: "", prompt: "", schemaName: "headline", jsonSchema: jsonSchemaText(for: .headline))))
        #expect(grammar.contains("{0,8}"), "six words and room to finish: one, then at most eight more")
    }

    @Test func aLlamaCppPythonWhoseRequestsHaveNoGrammarFieldGetsResponseFormat() async throws {
        var routes = try Self.llamaCppPython(grammarListed: false)
        routes[Self.chat] = .json(EngineFaultTests.completion(Self.validHeadline))
        let transport = ScriptedEngineTransport(routes: routes)
        let engine = Self.engine(transport)
        _ = try await engine.respond(to: EngineTestSchema.request())
        let sent = try Self.sentBody(transport.requests.last)
        #expect(sent["grammar"] == nil)
        #expect((sent["response_format"] as? [String: Any])?["type"] as? String == "json_object")
        #expect(await engine.describe().answerShape?.contains("does not list 'grammar'") == true)
    }

    @Test func llamaServerGetsOurGrammar() async throws {
        let transport = ScriptedEngineTransport(routes: [
            "/v1/models": .json(#"{"object":"list","data":[{"id":"m","object":"model"}]}"#),
            "/props": try .fixture("llama-server-props"),
            Self.chat: .json(EngineFaultTests.completion(Self.validHeadline)),
        ])
        _ = try await Self.engine(transport).respond(to: EngineTestSchema.request())
        #expect(transport.requests.map(\.url.path) == ["/v1/models", "/props", Self.chat])
        let sent = try Self.sentBody(transport.requests.last)
        #expect(sent["grammar"] is String)
        #expect(sent["response_format"] == nil)
    }

    @Test(arguments: [ServerDialect.openAI, .ollama])
    func jsonSchemaServersNeverGetTheGrammar(dialect: ServerDialect) async throws {
        let transport = ScriptedEngineTransport(routes: [
            "/v1/models": .json(#"{"object":"list","data":[{"id":"m","object":"model"}]}"#),
            Self.chat: .json(EngineFaultTests.completion(Self.validHeadline)),
        ])
        _ = try await Self.engine(transport, dialect: dialect).respond(to: EngineTestSchema.request())
        let sent = try Self.sentBody(transport.requests.last)
        #expect(sent["grammar"] == nil)
        #expect(sent["repeat_penalty"] == nil)
        #expect((sent["response_format"] as? [String: Any])?["type"] as? String == "json_schema")
    }

    @Test func aServerThatRefusesTheGrammarGetsResponseFormatAndTheAnswerStillValidates() async throws {
        let scratch = try ScratchDirectory("server-path")
        let store = try DiscoveryRecords(path: scratch.url.appendingPathComponent("studykit.sqlite3").path)
        var routes = try Self.llamaCppPython()
        routes["/props"] = .text(404, "not found")
        let transport = ScriptedEngineTransport(
            routes: routes,
            queue: [
                .json(400, #"{"error":{"message":"Unrecognized request argument supplied: grammar","type":"invalid_request_error"}}"#),
                .json(EngineFaultTests.completion(Self.validHeadline)),
            ])
        let engine = Self.engine(transport, store: store)
        let response = try await engine.respond(to: EngineTestSchema.request())
        let result = try decodeResult(for: .headline, modelOutput: response.text)
        guard case .headline(let headline) = result else { Issue.record("not a headline: \(result)"); return }
        #expect(headline.title == "Photosynthesis in chloroplasts")

        let chats = transport.requests.filter { $0.url.path == Self.chat }
        #expect(chats.count == 2)
        #expect(try Self.sentBody(chats.first)["grammar"] is String)
        let second = try Self.sentBody(chats.last)
        #expect(second["grammar"] == nil)
        #expect((second["response_format"] as? [String: Any])?["type"] as? String == "json_object")
        #expect(second["repeat_penalty"] as? Int == 1, "the same sampling either way")
        let shape = try #require(await engine.describe().answerShape)
        #expect(shape.contains("JSON Schema in 'response_format'") && shape.contains("refused 'grammar'"), "\(shape)")

        // The refusal is remembered: the next run sends response_format straight away.
        let next = ScriptedEngineTransport(routes: [Self.chat: .json(EngineFaultTests.completion(Self.validHeadline))])
        _ = try await Self.engine(next, store: store).respond(to: EngineTestSchema.request())
        #expect(next.requests.map(\.url.path) == [Self.chat])
        #expect(try Self.sentBody(next.requests.last)["grammar"] == nil)
    }

    // MARK: discovery kept between runs

    @Test func discoveryIsKeptADayInTheCacheThenAskedAgain() async throws {
        let scratch = try ScratchDirectory("server-path")
        let store = try DiscoveryRecords(path: scratch.url.appendingPathComponent("studykit.sqlite3").path)
        let first = ScriptedEngineTransport(routes: try Self.llamaCppPython())
        let engine = Self.engine(first, store: store)
        #expect(try await engine.tokenCount(for: "Hello") == TokenCount(count: 3, method: .exact))
        #expect(await engine.traffic() == EngineTraffic(requests: 4, discoveryFromCache: false))

        // An hour later, another run: no discovery request at all, and the grammar is still known.
        var routes = try Self.llamaCppPython()
        routes[Self.chat] = .json(EngineFaultTests.completion(Self.validHeadline))
        let later = ScriptedEngineTransport(routes: routes)
        let again = Self.engine(later, store: store, at: Self.start.addingTimeInterval(3600))
        _ = try await again.tokenCount(for: "Hello")
        _ = try await again.respond(to: EngineTestSchema.request())
        #expect(later.requests.map(\.url.path) == ["/extras/tokenize/count", Self.chat])
        #expect(try Self.sentBody(later.requests.last)["grammar"] is String)
        #expect(await again.traffic() == EngineTraffic(requests: 2, discoveryFromCache: true))
        #expect(await again.describe().discovery?.hasPrefix("from the cache, 60 min old") == true)

        // A day later the record has expired.
        let nextDay = ScriptedEngineTransport(routes: try Self.llamaCppPython())
        _ = try await Self.engine(nextDay, store: store, at: Self.start.addingTimeInterval(Discovery.lifetime + 1)).tokenCount(for: "Hello")
        #expect(nextDay.calls(to: "/v1/models") == 1)
    }

    @Test func a404OnAnEndpointTheCacheNamedRediscoversTheServer() async throws {
        let scratch = try ScratchDirectory("server-path")
        let store = try DiscoveryRecords(path: scratch.url.appendingPathComponent("studykit.sqlite3").path)
        _ = try await Self.engine(ScriptedEngineTransport(routes: try Self.llamaCppPython()), store: store).contextSize()

        // The same URL now runs llama-server: /extras/tokenize/count is gone (404).
        let replaced = ScriptedEngineTransport(routes: [
            "/v1/models": .json(#"{"object":"list","data":[{"id":"m","object":"model"}]}"#),
            "/props": try .fixture("llama-server-props"),
            "/tokenize": .json(#"{"tokens":[19556,905,28]}"#),
        ])
        let engine = Self.engine(replaced, store: store)
        #expect(try await engine.tokenCount(for: "Hello world,") == TokenCount(count: 3, method: .exact))
        #expect(replaced.requests.map(\.url.path) == ["/extras/tokenize/count", "/v1/models", "/props", "/tokenize"])
        #expect(try await engine.dialect() == .llamaServer)
        let record = try #require(store.load(engine.discoveryKey))
        #expect(record.payload.contains(#""dialect":"llama-server""#))
    }

    @Test func aServerRestartedWithASmallerWindowIsRediscoveredAfterTheFailure() async throws {
        let scratch = try ScratchDirectory("server-path")
        let store = try DiscoveryRecords(path: scratch.url.appendingPathComponent("studykit.sqlite3").path)
        let models = ScriptedReply.json(#"{"object":"list","data":[{"id":"m","object":"model"}]}"#)
        let before = ScriptedEngineTransport(routes: ["/v1/models": models, "/props": try .fixture("llama-server-props")])
        #expect(try await Self.engine(before, store: store).contextSize().tokens == 4096)

        // Restarted with n_ctx 2048: the first request says so, and the server is asked again.
        let after = ScriptedEngineTransport(routes: [
            "/v1/models": models, "/props": .json(#"{"default_generation_settings":{"n_ctx":2048},"total_slots":1}"#),
            Self.chat: .json(400, #"{"error":{"message":"the request exceeds the available context size, try increasing it: maximum context length is 2048 tokens. However, you requested 3000 tokens","code":"context_length_exceeded"}}"#),
        ])
        let engine = Self.engine(after, store: store)
        #expect(try await engine.contextSize().tokens == 4096, "still the cached window")
        await #expect(throws: EngineError.contextExceeded(tokens: 3000, window: 2048)) {
            try await engine.respond(to: EngineTestSchema.request())
        }
        #expect(after.requests.map(\.url.path) == [Self.chat, "/v1/models", "/props"])
        #expect(try await engine.contextSize() == ContextWindow(tokens: 2048, source: .discovered(endpoint: "GET /props")))
        // The next run reads the new window from the cache.
        let next = ScriptedEngineTransport()
        #expect(try await Self.engine(next, store: store).contextSize().tokens == 2048)
        #expect(next.requests.isEmpty)
    }

    @Test func llamaCppPythonsWindowIsLearntFromItsContextError() async throws {
        let scratch = try ScratchDirectory("server-path")
        let store = try DiscoveryRecords(path: scratch.url.appendingPathComponent("studykit.sqlite3").path)
        var routes = try Self.llamaCppPython()
        routes[Self.chat] = .json(400, #"{"error":{"message":"This model's maximum context length is 512 tokens. However, you requested 700 tokens (500 in the messages, 200 in the completion). Please reduce the length of the messages or completion.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}"#)
        let engine = Self.engine(ScriptedEngineTransport(routes: routes), store: store)
        // Configured as 2,048; the server was started with 512 and reports it nowhere but here.
        #expect(try await engine.contextSize() == ContextWindow(tokens: 2048, source: .configured(setting: "STUDYKIT_LOCAL_CONTEXT_SIZE")))
        await #expect(throws: EngineError.contextExceeded(tokens: 700, window: 512)) {
            try await engine.respond(to: EngineTestSchema.request())
        }
        let learnt = ContextWindow(tokens: 512, source: .discovered(endpoint: "the server's context-length error"))
        #expect(try await engine.contextSize() == learnt)
        let next = ScriptedEngineTransport()
        #expect(try await Self.engine(next, store: store).contextSize() == learnt)
        #expect(next.requests.isEmpty)
    }

    @Test func aStoredRecordThatCannotBeReadIsRediscovered() async throws {
        let scratch = try ScratchDirectory("server-path")
        let store = try DiscoveryRecords(path: scratch.url.appendingPathComponent("studykit.sqlite3").path)
        let transport = ScriptedEngineTransport(routes: try Self.llamaCppPython())
        let engine = Self.engine(transport, store: store)
        store.save(engine.discoveryKey, StoredDiscovery(payload: "{not json", discoveredAt: Self.start))
        #expect(try await engine.dialect() == .llamaCppPython)
        #expect(transport.calls(to: "/v1/models") == 1)
    }
}
