import Foundation
import Testing
@testable import StudyKit

/// Dialect discovery from recorded-shape server answers (llama-server and Ollama are not installed here).
@Suite("OpenAICompatibleEngine dialect discovery")
struct EngineDiscoveryTests {
    static func engine(_ transport: ScriptedEngineTransport, model: String? = nil, contextSize: Int? = nil, dialect: ServerDialect? = nil)
        -> OpenAICompatibleEngine
    {
        let endpoint = EngineConfiguration.Endpoint(
            url: URL(string: "http://127.0.0.1:8080/")!, model: model, contextSize: contextSize,
            contextSizeSetting: "STUDYKIT_LOCAL_CONTEXT_SIZE", dialect: dialect)
        return OpenAICompatibleEngine(kind: .local, endpoint: endpoint, transport: transport, timing: RecordingSleeper().timing)
    }

    @Test func llamaServerReportsItsWindowAndTokenizes() async throws {
        let transport = ScriptedEngineTransport(routes: [
            "/v1/models": .json(#"{"object":"list","data":[{"id":"SmolLM2-135M-Instruct.Q4_1.gguf","object":"model"}]}"#),
            "/props": try .fixture("llama-server-props"),
            "/tokenize": .json(#"{"tokens":[19556,905,28]}"#),
            "/detokenize": .json(#"{"content":"Hello world,"}"#),
        ])
        // A configured size does not override what the server reports.
        let engine = Self.engine(transport, contextSize: 1000)
        #expect(try await engine.contextSize() == ContextWindow(tokens: 4096, source: .discovered(endpoint: "GET /props")))
        #expect(try await engine.dialect() == .llamaServer)
        #expect(try await engine.tokenCount(for: "Hello world,") == TokenCount(count: 3, method: .exact))
        #expect(try await engine.tokenize("Hello world,") == [19556, 905, 28])
        #expect(try await engine.detokenize([19556, 905, 28]) == "Hello world,")
        #expect(engine.modelName == "SmolLM2-135M-Instruct.Q4_1.gguf")
        let tokenizeBody = try #require(transport.requests.first { $0.url.path == "/tokenize" }?.body)
        #expect(String(decoding: tokenizeBody, as: UTF8.self) == #"{"content":"Hello world,"}"#)
    }

    @Test func theSameTextIsTokenizedOnTheServerOnce() async throws {
        let transport = ScriptedEngineTransport(routes: [
            "/v1/models": .json(#"{"object":"list","data":[{"id":"SmolLM2-135M-Instruct.Q4_1.gguf","object":"model"}]}"#),
            "/props": try .fixture("llama-server-props"),
            "/tokenize": .json(#"{"tokens":[19556,905,28]}"#),
        ])
        let engine = Self.engine(transport)
        for _ in 0..<3 { #expect(try await engine.tokenize("Hello world,") == [19556, 905, 28]) }
        #expect(transport.requests.count { $0.url.path == "/tokenize" } == 1)
        // Another text is another request; the first is still remembered.
        _ = try await engine.tokenize("Another text")
        _ = try await engine.tokenize("Hello world,")
        #expect(transport.requests.count { $0.url.path == "/tokenize" } == 2)
        // Four other texts later, it has been forgotten.
        for index in 0..<4 { _ = try await engine.tokenize("text \(index)") }
        _ = try await engine.tokenize("Hello world,")
        #expect(transport.requests.count { $0.url.path == "/tokenize" } == 7)
    }

    @Test func ollamaReportsItsContextLengthAndEstimatesTokens() async throws {
        let transport = ScriptedEngineTransport(routes: [
            "/v1/models": .json(#"{"object":"list","data":[{"id":"smollm2:135m","object":"model"}]}"#),
            "/api/version": try .fixture("ollama-version"),
            "/api/show": try .fixture("ollama-show"),
        ])
        let engine = Self.engine(transport, model: "smollm2:135m")
        #expect(try await engine.contextSize() == ContextWindow(tokens: 8192, source: .discovered(endpoint: "POST /api/show")))
        #expect(try await engine.dialect() == .ollama)
        #expect(try await engine.tokenCount(for: "abcdef") == TokenCount(count: 2, method: .estimate))
        #expect(try await engine.tokenize("abc") == nil)
        let show = try #require(transport.requests.first { $0.url.path == "/api/show" }?.body)
        #expect(String(decoding: show, as: UTF8.self) == #"{"model":"smollm2:135m"}"#)
    }

    @Test func llamaCppPythonUsesTheConfiguredWindow() async throws {
        let transport = ScriptedEngineTransport(routes: ScriptedEngineTransport.llamaCppPythonRoutes)
        let engine = Self.engine(transport, contextSize: 2048)
        #expect(try await engine.contextSize() == ContextWindow(tokens: 2048, source: .configured(setting: "STUDYKIT_LOCAL_CONTEXT_SIZE")))
        #expect(try await engine.dialect() == .llamaCppPython)
        #expect(try await engine.tokenCount(for: "abc") == TokenCount(count: 3, method: .exact))
    }

    @Test func anUnreportedUnconfiguredWindowIsUnavailableWithAReason() async throws {
        let transport = ScriptedEngineTransport(routes: ScriptedEngineTransport.llamaCppPythonRoutes)
        await #expect(
            throws: EngineError.unavailable(
                reason: "the local engine at http://127.0.0.1:8080/ (llama-cpp-python) does not report its context window; set STUDYKIT_LOCAL_CONTEXT_SIZE to the server's context size (n_ctx)")
        ) {
            _ = try await Self.engine(transport).contextSize()
        }
    }

    @Test func aPlainOpenAIServerEstimates() async throws {
        let transport = ScriptedEngineTransport(routes: ["/v1/models": .json(#"{"object":"list","data":[]}"#)])
        let engine = Self.engine(transport, contextSize: 16000)
        #expect(try await engine.dialect() == .openAI)
        #expect(try await engine.tokenCount(for: "abcdef") == TokenCount(count: 2, method: .estimate))
        #expect(try await engine.contextSize().source == .configured(setting: "STUDYKIT_LOCAL_CONTEXT_SIZE"))
    }

    @Test func discoveryHappensOncePerEngine() async throws {
        let transport = ScriptedEngineTransport(routes: ScriptedEngineTransport.llamaCppPythonRoutes)
        let engine = Self.engine(transport, contextSize: 2048)
        async let first = engine.contextSize()
        async let second = engine.contextSize()
        _ = try await (first, second)
        _ = await engine.availability()
        #expect(transport.calls(to: "/v1/models") == 1)
        #expect(transport.calls(to: "/props") == 1)
    }

    @Test func aConfiguredDialectSkipsTheProbes() async throws {
        let transport = ScriptedEngineTransport(routes: ScriptedEngineTransport.llamaCppPythonRoutes)
        _ = try await Self.engine(transport, contextSize: 2048, dialect: .llamaCppPython).contextSize()
        // Only the grammar question is left to ask: its API document says whether `grammar` is read.
        #expect(transport.requests.map(\.url.path) == ["/v1/models", "/openapi.json"])
    }

    struct FormatCase: Sendable {
        var dialect: ServerDialect
        var expected: String
        var grammar: GrammarSupport = .notOffered(reason: "test")
    }

    @Test(arguments: [
        FormatCase(dialect: .llamaCppPython, expected: #"{"schema":\#(EngineTestSchema.headline),"type":"json_object"}"#),
        FormatCase(dialect: .llamaServer, expected: #"{"schema":\#(EngineTestSchema.headline),"type":"json_object"}"#),
        FormatCase(dialect: .ollama, expected: #"{"json_schema":{"name":"headline","schema":\#(EngineTestSchema.headline)},"type":"json_schema"}"#),
        FormatCase(dialect: .openAI, expected: #"{"json_schema":{"name":"headline","schema":\#(EngineTestSchema.strictHeadline),"strict":true},"type":"json_schema"}"#),
    ])
    func theDialectChoosesTheResponseFormat(_ format: FormatCase) async throws {
        let transport = ScriptedEngineTransport(
            routes: ScriptedEngineTransport.llamaCppPythonRoutes.merging(["/v1/chat/completions": .json(EngineFaultTests.completion("{}"))]) { $1 })
        let engine = Self.engine(transport, dialect: format.dialect)
        // Without grammar support (a server that refused it), the schema goes as response_format.
        var found = try await engine.discovery()
        found.grammar = format.grammar
        engine.cache.replace(with: found)
        _ = try await engine.respond(to: EngineTestSchema.request())
        let body = try #require(transport.requests.last?.body)
        let sent = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        let responseFormat = try JSONSerialization.data(withJSONObject: try #require(sent["response_format"]), options: [.sortedKeys, .withoutEscapingSlashes])
        let expected = try JSONSerialization.data(
            withJSONObject: try JSONSerialization.jsonObject(with: Data(format.expected.utf8)), options: [.sortedKeys, .withoutEscapingSlashes])
        #expect(String(decoding: responseFormat, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        let messages = try #require(sent["messages"] as? [[String: String]])
        #expect(messages.map { $0["role"] } == ["system", "user"])
        #expect(sent["temperature"] as? Int == 0)
        #expect(sent["max_tokens"] as? Int == 80)
        #expect(sent["seed"] as? Int == 1)
        #expect(sent["grammar"] == nil)
    }
}
