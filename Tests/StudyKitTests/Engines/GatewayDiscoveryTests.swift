import Foundation
import Testing
@testable import StudyKit

/// Issue 56: discovery is best effort, and LiteLLM's proxy is recognised, through scripted answers
/// shaped like LiteLLM 1.108.7's (GatewayDiscovery.swift says what it sends). The real proxy is
/// GatewayIntegrationTests.
@Suite("OpenAICompatibleEngine behind a gateway (scripted HTTP)")
struct GatewayDiscoveryTests {
    static let models = ScriptedReply.json(#"{"data":[{"id":"study-remote","object":"model","owned_by":"openai"}],"object":"list"}"#)

    /// A LiteLLM gateway's discovery answers (its generations are queued by each test).
    static var gateway: [String: ScriptedReply] {
        ["/v1/models": models, "/v1/model/info": modelInfo([#""max_input_tokens":8192,"supports_response_schema":true"#])]
    }

    /// LiteLLM's model info for two deployments of `study-remote` (and one of another model).
    static func modelInfo(_ windows: [String]) -> ScriptedReply {
        let entries = windows.enumerated().map { index, window in
            #"{"model_name":"study-remote","litellm_params":{"model":"openai/smollm2","api_base":"http://127.0.0.1:\#(8424 + index)/v1"},"model_info":{"id":"d\#(index)",\#(window)}}"#
        } + [#"{"model_name":"other","litellm_params":{"model":"openai/x"},"model_info":{"max_input_tokens":128000}}"#]
        return .json(#"{"data":["# + entries.joined(separator: ",") + "]}")
    }

    /// An answer whose `Content-Length` says how big it is, and whose body is never read.
    static func announced(_ bytes: Int) -> ScriptedReply {
        ScriptedReply(status: 200, headers: ["Content-Type": "application/json", "Content-Length": String(bytes)], chunks: [Data("{".utf8)])
    }

    static func engine(
        _ transport: ScriptedEngineTransport, contextSize: Int? = nil, dialect: ServerDialect? = nil, sleeper: RecordingSleeper = RecordingSleeper()
    ) -> OpenAICompatibleEngine {
        let endpoint = EngineConfiguration.Endpoint(
            url: URL(string: "http://127.0.0.1:8423/v1")!, model: "study-remote", contextSize: contextSize,
            contextSizeSetting: "STUDYKIT_REMOTE_CONTEXT_SIZE", apiKey: APIKey("sk-gateway-secret"), apiKeySetting: "STUDYKIT_REMOTE_API_KEY",
            dialect: dialect)
        return OpenAICompatibleEngine(kind: .remote, endpoint: endpoint, transport: transport, timing: sleeper.timing)
    }

    @Test func liteLLMIsRecognisedByItsModelInfoAndItsWindowIsTheSmallestDeployments() async throws {
        let transport = ScriptedEngineTransport(routes: [
            "/v1/models": Self.models, "/openapi.json": Self.announced(2_048_397),
            "/v1/model/info": Self.modelInfo([#""max_input_tokens":8192,"max_tokens":8192"#, #""max_input_tokens":null,"max_tokens":4096"#]),
        ])
        let engine = Self.engine(transport, contextSize: 32000)
        #expect(await engine.availability() == .available)
        #expect(try await engine.dialect() == .liteLLM)
        // The gateway may send a request to either deployment: the smaller window holds.
        #expect(try await engine.contextSize() == ContextWindow(tokens: 4096, source: .discovered(endpoint: "GET /v1/model/info (max_tokens)")))
        #expect(try await engine.tokenCount(for: "abcdef") == TokenCount(count: 2, method: .estimate))
        let description = await engine.describe()
        #expect(description.discoveryNotes == ["discovery: GET /openapi.json was 2.0 MB, over the probe's 64 KB limit; the server is litellm"])
        #expect(description.concurrency == "not reported (the gateway serves the model with 2 deployments)")
        // Its deployments do not say they take json_schema: llama.cpp's form is sent from the start.
        #expect(description.answerShape?.hasPrefix("JSON Schema in 'response_format' as json_object + schema (GET /v1/model/info") == true)
        #expect(transport.requests.map(\.url.path) == ["/v1/models", "/props", "/openapi.json", "/v1/model/info"])
    }

    @Test func aGatewayWithoutAWindowTakesTheSettingElseTheDocumentedDefault() async throws {
        let routes = ["/v1/models": Self.models, "/v1/model/info": Self.modelInfo([#""max_input_tokens":null"#])]
        let configured = Self.engine(ScriptedEngineTransport(routes: routes), contextSize: 16000)
        #expect(try await configured.contextSize() == ContextWindow(tokens: 16000, source: .configured(setting: "STUDYKIT_REMOTE_CONTEXT_SIZE")))
        let window = try await Self.engine(ScriptedEngineTransport(routes: routes)).contextSize()
        #expect(window.tokens == OpenAICompatibleEngine.gatewayDefaultWindow)
        guard case .assumed(let reason) = window.source else { Issue.record("got \(window.source)"); return }
        #expect(reason.contains("set STUDYKIT_REMOTE_CONTEXT_SIZE"))
    }

    struct ProbeFault: Sendable, CustomStringConvertible {
        var description: String
        var reply: ScriptedReply
        var note: String
    }

    /// Whatever goes wrong with an optional probe, the server is available as plain OpenAI, and
    /// the note names the probe.
    @Test(arguments: [
        ProbeFault(
            description: "5 MB without a length", reply: ScriptedReply(status: 200, chunks: Array(repeating: Data(repeating: 32, count: 1 << 20), count: 5)),
            note: "discovery: GET /openapi.json was over the probe's 64 KB limit; treated as a plain OpenAI server"),
        ProbeFault(
            description: "5 MB announced", reply: announced(5 << 20),
            note: "discovery: GET /openapi.json was 5.0 MB, over the probe's 64 KB limit; treated as a plain OpenAI server"),
        ProbeFault(
            description: "a deadline", reply: .fail(.timedOut("http://127.0.0.1:8423/openapi.json", seconds: 120)),
            note: "discovery: GET /openapi.json failed (http://127.0.0.1:8423/openapi.json did not answer within 120 s; try again later or raise the deadline); treated as a plain OpenAI server"),
        ProbeFault(description: "not JSON", reply: .text(200, "<html>docs</html>"), note: ""),
        ProbeFault(
            description: "refused", reply: .json(401, #"{"error":"no"}"#),
            note: "discovery: GET /openapi.json was refused (http 401); treated as a plain OpenAI server"),
    ])
    func anOptionalProbeThatFailsLeavesItsFactUnknown(_ fault: ProbeFault) async throws {
        let transport = ScriptedEngineTransport(routes: ["/v1/models": Self.models, "/openapi.json": fault.reply])
        let engine = Self.engine(transport, contextSize: 8192)
        #expect(await engine.availability() == .available)
        #expect(try await engine.dialect() == .openAI)
        #expect(try await engine.contextSize().tokens == 8192)
        #expect(await engine.describe().discoveryNotes == (fault.note.isEmpty ? [] : [fault.note]))
    }

    @Test func aModelListOverItsCapLeavesTheModelsUnknownNotTheEngineUnavailable() async throws {
        let transport = ScriptedEngineTransport(routes: ["/v1/models": Self.announced(40 << 20)])
        let engine = Self.engine(transport, contextSize: 8192)
        #expect(await engine.availability() == .available)
        #expect(await engine.describe().discoveryNotes.first == "discovery: GET /v1/models was 40.0 MB, over the probe's 4.0 MB limit; treated as a plain OpenAI server")
    }

    @Test func aRefusedJSONSchemaIsSentAgainAsJSONObjectAtOnceAndRemembered() async throws {
        let refusal = #"{"error":{"message":"litellm.InternalServerError: InternalServerError: OpenAIException - 1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), 'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema'}","type":"internal_server_error","code":"500"}}"#
        let answer = ScriptedReply.json(EngineFaultTests.completion(#"{"title":"t","blurb":"b"}"#))
        let transport = ScriptedEngineTransport(routes: Self.gateway, queue: [.json(500, refusal), answer, answer])
        let sleeper = RecordingSleeper()
        let engine = Self.engine(transport, contextSize: 8192, dialect: .liteLLM, sleeper: sleeper)
        _ = try await engine.respond(to: EngineTestSchema.request())
        _ = try await engine.respond(to: EngineTestSchema.request())
        let bodies = transport.requests.filter { $0.url.path == "/v1/chat/completions" }.compactMap { $0.body }
            .map { String(decoding: $0, as: UTF8.self) }
        try #require(bodies.count == 3)
        #expect(bodies[0].contains(#""type":"json_schema""#))
        #expect(bodies[1].contains(#""response_format":{"type":"json_object","schema":"#))
        #expect(bodies[2].contains(#""type":"json_object""#), "the refusal is remembered")
        #expect(sleeper.sleeps.isEmpty, "a refused answer shape is not retried")
        #expect(await engine.describe().answerShape?.hasPrefix("JSON Schema in 'response_format' as json_object + schema") == true)
    }

    @Test func aGatewayBudgetIsAQuotaAndIsNotRetried() async throws {
        let budget = #"{"error":{"message":"Budget has been exceeded! Current cost: 1.2, Max budget: 1.0","type":"budget_exceeded","param":null,"code":"422"}}"#
        let transport = ScriptedEngineTransport(routes: Self.gateway, queue: [.json(422, budget)])
        await #expect(throws: EngineError.quotaExceeded("Budget has been exceeded! Current cost: 1.2, Max budget: 1.0")) {
            _ = try await Self.engine(transport, contextSize: 8192, dialect: .liteLLM).respond(to: EngineTestSchema.request())
        }
        #expect(transport.calls(to: "/v1/chat/completions") == 1)
    }

    @Test func eachSentRequestCarriesTheGatewaysIdAndBackendAndAFailureNamesIt() async throws {
        let headers = [
            "x-litellm-call-id": "1cc3e007-7eff", "x-litellm-model-api-base": "http://127.0.0.1:8424/v1",
            "x-litellm-attempted-retries": "1",
        ]
        let failed = ScriptedReply.json(503, #"{"error":{"message":"No deployments available","type":"None"}}"#, headers: headers)
        let answered = ScriptedReply.json(200, EngineFaultTests.completion(#"{"title":"t","blurb":"b"}"#), headers: headers)
        let transport = ScriptedEngineTransport(routes: Self.gateway, queue: [failed, answered, failed, failed, failed])
        let engine = Self.engine(transport, contextSize: 8192, dialect: .liteLLM)
        let log = SentRequestLog()
        _ = try await SentRequestLog.$current.withValue(log) { try await engine.respond(to: EngineTestSchema.request()) }
        #expect(log.requests.map(\.status) == [503, 200])
        #expect(log.requests.allSatisfy { $0.requestID == "1cc3e007-7eff" && $0.servedBy == "http://127.0.0.1:8424/v1" })
        // Still failing after the retries: the message names the gateway's request.
        await #expect(
            throws: EngineError.http(
                status: 503,
                message: "No deployments available (request 1cc3e007-7eff, served by http://127.0.0.1:8424/v1, 1 retry at the gateway)")
        ) {
            _ = try await engine.respond(to: EngineTestSchema.request())
        }
    }

    @Test func aSingleServersRequestIdIsNotTracedOnlyAGatewaysIs() async throws {
        let answered = ScriptedReply.json(
            200, EngineFaultTests.completion(#"{"title":"t","blurb":"b"}"#), headers: ["x-request-id": "cd74fca4f3ed"])
        let transport = ScriptedEngineTransport(routes: ["/v1/models": Self.models], queue: [answered])
        let log = SentRequestLog()
        _ = try await SentRequestLog.$current.withValue(log) {
            try await Self.engine(transport, contextSize: 8192, dialect: .openAI).respond(to: EngineTestSchema.request())
        }
        #expect(log.requests == [SentRequest(outcome: .answered, status: 200)])
    }

    @Test func vLLMsWindowIsReadFromItsModelList() async throws {
        let models = ScriptedReply.json(
            #"{"object":"list","data":[{"id":"study-7b","object":"model","owned_by":"vllm","max_model_len":32768}]}"#)
        let engine = Self.engine(ScriptedEngineTransport(routes: ["/v1/models": models]))
        #expect(try await engine.contextSize() == ContextWindow(tokens: 32768, source: .discovered(endpoint: "GET /v1/models (max_model_len)")))
        #expect(try await engine.dialect() == .openAI)
    }

    struct InfoCase: Sendable, CustomStringConvertible {
        var description: String
        var body: String
        var model: String?
        var expected: GatewayModelInfo?
    }

    @Test(arguments: [
        InfoCase(description: "not model info", body: #"{"data":[{"id":"x"}]}"#, model: nil, expected: nil),
        InfoCase(description: "no deployments", body: #"{"data":[]}"#, model: nil, expected: nil),
        InfoCase(
            description: "the model's deployments only",
            body: #"{"data":[{"model_name":"a","model_info":{"max_input_tokens":8192.0}},{"model_name":"b","model_info":{"max_input_tokens":2048}}]}"#,
            model: "a", expected: GatewayModelInfo(count: 1, window: .init(tokens: 8192, field: "max_input_tokens"), takeJSONSchema: false)),
        InfoCase(
            description: "every deployment takes json_schema",
            body: #"{"data":[{"model_name":"a","model_info":{"supports_response_schema":true}},{"model_name":"a","model_info":{"supports_response_schema":true}}]}"#,
            model: "a", expected: GatewayModelInfo(count: 2, window: nil, takeJSONSchema: true)),
        InfoCase(
            description: "one deployment does not say",
            body: #"{"data":[{"model_name":"a","model_info":{"supports_response_schema":true}},{"model_name":"a","model_info":{"supports_response_schema":null}}]}"#,
            model: "a", expected: GatewayModelInfo(count: 2, window: nil, takeJSONSchema: false)),
        InfoCase(
            description: "no window anywhere", body: #"{"data":[{"model_name":"a","litellm_params":{"model":"openai/a"}}]}"#, model: "a",
            expected: GatewayModelInfo(count: 1, window: nil, takeJSONSchema: false)),
    ])
    func modelInfoIsReadPerModel(_ testCase: InfoCase) {
        #expect(GatewayModelInfo(body: Data(testCase.body.utf8), model: testCase.model) == testCase.expected)
    }
}

extension GatewayModelInfo {
    init(count: Int, window: Window?, takeJSONSchema: Bool) {
        self.init(body: Data(#"{"data":[{"model_name":"x","model_info":{}}]}"#.utf8), model: nil)!
        self.count = count
        self.window = window
        self.takeJSONSchema = takeJSONSchema
    }
}
