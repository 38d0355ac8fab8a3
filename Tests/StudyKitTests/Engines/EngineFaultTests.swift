import Foundation
import Testing
@testable import StudyKit

/// Faults a real model server cannot be made to produce, through a scripted transport.
@Suite("OpenAICompatibleEngine faults (scripted HTTP)")
struct EngineFaultTests {
    static let secret = "sk-test-0123456789-super-secret"
    static let chat = "/v1/chat/completions"

    static func completion(_ content: String, finish: String = "stop") -> String {
        let escaped = String(decoding: try! JSONEncoder().encode(content), as: UTF8.self)
        return #"{"id":"c1","object":"chat.completion","model":"scripted-model","choices":[{"index":0,"message":{"role":"assistant","content":"#
            + escaped + #"},"finish_reason":"\#(finish)"}],"usage":{"prompt_tokens":12,"completion_tokens":7,"total_tokens":19}}"#
    }

    static func remote(
        _ transport: any HTTPTransport, sleeper: RecordingSleeper = RecordingSleeper(), dialect: ServerDialect = .openAI,
        deadline: TimeInterval = 120
    ) -> OpenAICompatibleEngine {
        let endpoint = EngineConfiguration.Endpoint(
            url: URL(string: "https://api.example.com/v1")!, model: "gpt-test", contextSize: 8192,
            contextSizeSetting: "STUDYKIT_REMOTE_CONTEXT_SIZE", apiKey: APIKey(secret), apiKeySetting: "STUDYKIT_REMOTE_API_KEY",
            dialect: dialect)
        return OpenAICompatibleEngine(kind: .remote, endpoint: endpoint, deadline: deadline, transport: transport, timing: sleeper.timing)
    }

    static let models: [String: ScriptedReply] = [
        "/v1/models": .json(#"{"object":"list","data":[{"id":"gpt-test","object":"model"}]}"#)
    ]

    @Test func insufficientQuotaIsNotRetried() async throws {
        let transport = ScriptedEngineTransport(
            routes: Self.models, queue: [try .fixture(429, "openai-insufficient-quota"), .json(Self.completion("{}"))])
        let sleeper = RecordingSleeper()
        do {
            _ = try await Self.remote(transport, sleeper: sleeper).respond(to: EngineTestSchema.request())
            Issue.record("expected quotaExceeded")
        } catch let error as EngineError {
            guard case .quotaExceeded(let detail) = error else { Issue.record("got \(error)"); return }
            #expect(detail.contains("exceeded your current quota"))
            #expect(error.exitCode == .unavailable)
        }
        #expect(transport.calls(to: Self.chat) == 1)
        #expect(sleeper.sleeps.isEmpty)
    }

    @Test func aRateLimitIsRetriedAfterRetryAfter() async throws {
        let transport = ScriptedEngineTransport(
            routes: Self.models,
            queue: [try .fixture(429, "openai-rate-limit", headers: ["Retry-After": "1"]), .json(Self.completion(#"{"title":"t","blurb":"b"}"#))])
        let sleeper = RecordingSleeper()
        let response = try await Self.remote(transport, sleeper: sleeper).respond(to: EngineTestSchema.request())
        #expect(response.text == #"{"title":"t","blurb":"b"}"#)
        #expect(sleeper.sleeps == [.seconds(1)])
        #expect(transport.calls(to: Self.chat) == 2)
    }

    @Test func aRetryAfterGivenAsAnHTTPDateIsHonoured() async throws {
        // The seam's clock says 2027-01-15T08:00:00Z; the server asks to come back 3 s later.
        let transport = ScriptedEngineTransport(
            routes: Self.models,
            queue: [
                .json(429, #"{"error":{"message":"slow down","type":"requests","code":"rate_limit_exceeded"}}"#,
                    headers: ["Retry-After": "Fri, 15 Jan 2027 08:00:03 GMT"]),
                .json(Self.completion("{}")),
            ])
        let sleeper = RecordingSleeper()
        _ = try await Self.remote(transport, sleeper: sleeper).respond(to: EngineTestSchema.request())
        #expect(sleeper.sleeps == [.seconds(3)])
    }

    @Test func aRetryAfterBeyondTheCapFailsAtOnce() async throws {
        let transport = ScriptedEngineTransport(
            routes: Self.models, queue: [try .fixture(429, "openai-rate-limit", headers: ["Retry-After": "3600"])])
        let sleeper = RecordingSleeper()
        await #expect(throws: EngineError.rateLimited(retryAfter: 3600)) {
            _ = try await Self.remote(transport, sleeper: sleeper).respond(to: EngineTestSchema.request())
        }
        #expect(sleeper.sleeps.isEmpty)
        #expect(transport.calls(to: Self.chat) == 1)
    }

    @Test func aServerErrorThenSuccessTakesTwoCalls() async throws {
        let transport = ScriptedEngineTransport(
            routes: Self.models,
            queue: [.json(500, #"{"error":{"message":"boom","type":"server_error"}}"#), .json(Self.completion("{}"))])
        let sleeper = RecordingSleeper()
        let response = try await Self.remote(transport, sleeper: sleeper).respond(to: EngineTestSchema.request())
        #expect(response.usage == Usage(promptTokens: 12, completionTokens: 7, method: .reported))
        #expect(transport.calls(to: Self.chat) == 2)
        #expect(sleeper.sleeps.count == 1)
    }

    @Test func persistentServerErrorsStopAfterTwoRetries() async throws {
        let failing = ScriptedReply.json(503, #"{"error":{"message":"overloaded"}}"#)
        let transport = ScriptedEngineTransport(routes: Self.models, queue: [failing, failing, failing, failing])
        let sleeper = RecordingSleeper()
        await #expect(throws: EngineError.http(status: 503, message: "overloaded")) {
            _ = try await Self.remote(transport, sleeper: sleeper).respond(to: EngineTestSchema.request())
        }
        #expect(transport.calls(to: Self.chat) == 3)
        // Exponential backoff: 0.5 s then 1 s (the seam's jitter factor is exactly 1).
        #expect(sleeper.sleeps == [.milliseconds(500), .seconds(1)])
    }

    @Test func aPersistentRateLimitEndsRateLimited() async throws {
        let limited = try ScriptedReply.fixture(429, "openai-rate-limit", headers: ["Retry-After": "2"])
        let transport = ScriptedEngineTransport(routes: Self.models, queue: [limited, limited, limited, limited])
        let sleeper = RecordingSleeper()
        await #expect(throws: EngineError.rateLimited(retryAfter: 2)) {
            _ = try await Self.remote(transport, sleeper: sleeper).respond(to: EngineTestSchema.request())
        }
        #expect(transport.calls(to: Self.chat) == 3)
        #expect(sleeper.sleeps == [.seconds(2), .seconds(2)])
    }

    @Test func reportsForUnconfiguredEnginesSayWhyWithoutNetwork() async throws {
        let transport = ScriptedEngineTransport()
        let reports = await engineReports(configuration: EngineConfiguration(), transport: transport)
        #expect(reports.map(\.kind) == [.local, .remote])
        #expect(reports.allSatisfy { !$0.availability.isAvailable && $0.contextWindowProblem != nil && $0.tokenCounting == .unknown })
        #expect(reports[1].apiKey == "not set")
        #expect(transport.requests.isEmpty)
    }

    @Test func aClientErrorIsNotRetried() async throws {
        let transport = ScriptedEngineTransport(
            routes: Self.models, queue: [.json(404, #"{"error":{"message":"The model `gpt-test` does not exist"}}"#)])
        await #expect(throws: EngineError.http(status: 404, message: "The model `gpt-test` does not exist")) {
            _ = try await Self.remote(transport).respond(to: EngineTestSchema.request())
        }
        #expect(transport.calls(to: Self.chat) == 1)
    }

    @Test func aRefusedConnectionIsUnavailableAfterAtMostThreeAttempts() async throws {
        let refused = ScriptedReply.fail(.connectionFailed("https://api.example.com/v1/chat/completions", reason: "Connection refused"))
        let transport = ScriptedEngineTransport(routes: Self.models, queue: [refused, refused, refused, refused])
        do {
            _ = try await Self.remote(transport).respond(to: EngineTestSchema.request())
            Issue.record("expected unavailable")
        } catch let error as EngineError {
            guard case .unavailable(let reason) = error else { Issue.record("got \(error)"); return }
            #expect(reason.contains("Connection refused"))
        }
        #expect(transport.calls(to: Self.chat) == 3)
    }

    @Test func aRealRefusedPortIsUnavailable() async throws {
        let endpoint = EngineConfiguration.Endpoint(url: URL(string: "http://127.0.0.1:9")!, contextSizeSetting: "STUDYKIT_LOCAL_CONTEXT_SIZE")
        let engine = OpenAICompatibleEngine(kind: .local, endpoint: endpoint, timing: RecordingSleeper().timing)
        guard case .unavailable(let reason) = await engine.availability() else {
            Issue.record("a closed port should be unavailable")
            return
        }
        #expect(reason.contains("http://127.0.0.1:9"))
        #expect(reason.contains("scripts/serve-models"))
    }

    @Test func aStreamCutMidWayIsTruncated() async throws {
        let events = """
            data: {"choices":[{"index":0,"delta":{"role":"assistant"},"finish_reason":null}]}

            data: {"choices":[{"index":0,"delta":{"content":"{\\"title\\": \\"Pho"},"finish_reason":null}]}


            """
        for cut in [ScriptedReply.events(events), .events(events, failAfter: .connectionFailed("x", reason: "Connection reset by peer"))] {
            let transport = ScriptedEngineTransport(routes: Self.models, queue: [cut])
            var snapshots: [String] = []
            do {
                for try await event in Self.remote(transport).streamResponse(to: EngineTestSchema.request()) {
                    if case .partial(let text) = event { snapshots.append(text) }
                }
                Issue.record("expected the cut stream to fail")
            } catch let error as EngineError {
                guard case .truncated(let detail) = error else { Issue.record("got \(error)"); continue }
                #expect(detail.contains("https://api.example.com/v1/chat/completions"))
                #expect(error.exitCode == .dataError)
            }
            #expect(snapshots == [#"{"title": "Pho"#])
        }
    }

    @Test func aStreamAcrossChunkBoundariesAssemblesTheAnswer() async throws {
        // \r\n line ends, a ping comment, the usage chunk OpenAI sends with include_usage, 3-byte chunks.
        let events = [
            #"data: {"model":"gpt-test","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}"#,
            ": ping",
            #"data: {"model":"gpt-test","choices":[{"index":0,"delta":{"content":"{\"title\":"},"finish_reason":null}]}"#,
            #"data: {"model":"gpt-test","choices":[{"index":0,"delta":{"content":"\"Ré\"}"},"finish_reason":null}]}"#,
            #"data: {"model":"gpt-test","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#,
            #"data: {"model":"gpt-test","choices":[],"usage":{"prompt_tokens":20,"completion_tokens":5,"total_tokens":25}}"#,
            "data: [DONE]",
        ].map { $0 + "\r\n\r\n" }.joined()
        let transport = ScriptedEngineTransport(routes: Self.models, queue: [.events(events, chunkSize: 3)])
        var snapshots: [String] = []
        var final: RawResponse?
        for try await event in Self.remote(transport).streamResponse(to: EngineTestSchema.request()) {
            switch event {
            case .partial(let text): snapshots.append(text)
            case .completed(let response): final = response
            }
        }
        #expect(snapshots == [#"{"title":"#, #"{"title":"Ré"}"#])
        #expect(final == RawResponse(
            text: #"{"title":"Ré"}"#, usage: Usage(promptTokens: 20, completionTokens: 5, method: .reported), model: "gpt-test",
            finishReason: "stop"))
        let body = try #require(transport.requests.last?.body)
        let sent = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect((sent["stream_options"] as? [String: Any])?["include_usage"] as? Bool == true)
    }

    @Test func finishReasonLengthComesBackCutWithTheReportedUsage() async throws {
        let transport = ScriptedEngineTransport(routes: Self.models, queue: [.json(Self.completion(#"{"title": "Ph"#, finish: "length"))])
        let response = try await Self.remote(transport).respond(to: EngineTestSchema.request(maxTokens: 5))
        #expect(response == RawResponse(
            text: #"{"title": "Ph"#, usage: Usage(promptTokens: 12, completionTokens: 7, method: .reported), model: "scripted-model",
            finishReason: "length"))
    }

    @Test func aNonJSONBodyIsAClearError() async throws {
        let transport = ScriptedEngineTransport(routes: Self.models, queue: [.text(200, "<html><body>Gateway login</body></html>")])
        do {
            _ = try await Self.remote(transport).respond(to: EngineTestSchema.request())
            Issue.record("expected invalidOutput")
        } catch let error as EngineError {
            guard case .invalidOutput(let problems) = error else { Issue.record("got \(error)"); return }
            #expect(problems == ["the answer to /v1/chat/completions is not JSON: '<html><body>Gateway login</body></html>'"])
        }
        let failing = ScriptedEngineTransport(routes: Self.models, queue: [.text(502, "<html>Bad gateway</html>")])
        let engine = OpenAICompatibleEngine(
            kind: .remote, endpoint: Self.remote(failing).endpoint, retryPolicy: .init(maxRetries: 0), transport: failing,
            timing: RecordingSleeper().timing)
        await #expect(throws: EngineError.http(status: 502, message: "<html>Bad gateway</html>")) {
            _ = try await engine.respond(to: EngineTestSchema.request())
        }
    }

    @Test func aRejectedKeyIsAnAuthenticationErrorWithoutTheKey() async throws {
        let transport = ScriptedEngineTransport(routes: ["/v1/models": try .fixture(401, "openai-invalid-key")])
        let engine = Self.remote(transport)
        guard case .unavailable(let reason) = await engine.availability() else {
            Issue.record("a rejected key should make the engine unavailable")
            return
        }
        #expect(reason.contains("STUDYKIT_REMOTE_API_KEY"))
        do {
            _ = try await engine.respond(to: EngineTestSchema.request())
            Issue.record("expected authentication")
        } catch let error as EngineError {
            guard case .authentication = error else { Issue.record("got \(error)"); return }
            #expect(error.exitCode == .unavailable)
            #expect(!error.message.contains("sk-test"))
        }
    }

    @Test func theKeyGoesOnlyIntoTheAuthorizationHeaderAndNeverIntoMessages() async throws {
        // Every error the engine can raise, with a server that echoes the key back.
        let echo = #"{"error":{"message":"bad request for key \#(Self.secret)","code":"x"}}"#
        let replies: [ScriptedReply] = [
            .json(400, echo), .json(401, echo), .json(403, echo), .json(429, echo.replacingOccurrences(of: #""x""#, with: #""insufficient_quota""#)),
            .json(500, echo), .fail(.connectionFailed("https://api.example.com", reason: "refused")),
            .events("data: \(echo)\n\n"),
        ]
        for reply in replies {
            let transport = ScriptedEngineTransport(routes: Self.models, queue: Array(repeating: reply, count: 3))
            let engine = Self.remote(transport)
            var messages: [String] = []
            do { _ = try await engine.respond(to: EngineTestSchema.request()) } catch let error as EngineError {
                messages += [error.message, "\(error)", String(reflecting: error)]
            }
            do { for try await _ in engine.streamResponse(to: EngineTestSchema.request()) {} } catch let error as EngineError {
                messages += [error.message, "\(error)"]
            }
            #expect(!messages.isEmpty)
            for message in messages { #expect(!message.contains(Self.secret), "leaked in: \(message)") }
        }
        let transport = ScriptedEngineTransport(routes: Self.models, queue: [.json(Self.completion("{}"))])
        _ = try await Self.remote(transport).respond(to: EngineTestSchema.request())
        for request in transport.requests {
            #expect(request.headers["Authorization"] == "Bearer \(Self.secret)")
            #expect(request.maxRedirects == 0)
            #expect(!request.url.absoluteString.contains(Self.secret))
            #expect(!String(decoding: request.body ?? Data(), as: UTF8.self).contains(Self.secret))
        }
    }

    @Test func aContextLengthErrorBecomesContextExceeded() async throws {
        let body = #"{"error":{"message":"This model's maximum context length is 2048 tokens. However, you requested 3100 tokens (3020 in the messages, 80 in the completion). Please reduce the length of the messages or completion.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}"#
        let transport = ScriptedEngineTransport(routes: Self.models, queue: [.json(400, body)])
        await #expect(throws: EngineError.contextExceeded(tokens: 3100, window: 2048)) {
            _ = try await Self.remote(transport).respond(to: EngineTestSchema.request())
        }
    }

    @Test func aBlackHoledServerFailsWithinItsDeadline() async throws {
        let server = try FixtureServer()
        let transport = BlackHole(slow: server.url("/slow?seconds=30"))
        let endpoint = EngineConfiguration.Endpoint(
            url: URL(string: "http://127.0.0.1:\(server.port)")!, contextSize: 2048, contextSizeSetting: "STUDYKIT_LOCAL_CONTEXT_SIZE",
            dialect: .llamaCppPython)
        let engine = OpenAICompatibleEngine(
            kind: .local, endpoint: endpoint, deadline: 1, discoveryDeadline: 1, transport: transport, timing: RecordingSleeper().timing)
        do {
            _ = try await engine.respond(to: EngineTestSchema.request())
            Issue.record("expected a timeout")
        } catch let error as EngineError {
            #expect(error == .transport("the local engine at http://127.0.0.1:\(server.port) did not answer within 1 s; try again, or raise STUDYKIT_DEADLINE"))
        }
    }

    /// Sends every request to the fixture server's `/slow` route through the real libcurl transport.
    struct BlackHole: HTTPTransport {
        let slow: URL
        let curl = CurlTransport()
        func stream(_ request: HTTPRequest) async throws -> HTTPStreamingResponse {
            var request = request
            request.url = slow
            return try await curl.stream(request)
        }
    }
}

@Suite("Local engine: loopback only")
struct LoopbackTests {
    @Test(arguments: [
        ("127.0.0.1", true), ("127.8.9.10", true), ("localhost", true), ("LOCALHOST", true), ("::1", true), ("[::1]", true),
        ("0:0:0:0:0:0:0:1", true), ("::ffff:127.0.0.1", true),
        ("127.0.0.1.evil.com", false), ("10.0.0.1", false), ("128.0.0.1", false), ("localhost.evil.com", false),
        ("evil.com", false), ("0.0.0.0", false), ("::", false), ("::2", false), ("127.1", false), ("2130706433", false),
    ])
    func parsesTheHost(host: String, loopback: Bool) {
        #expect(OpenAICompatibleEngine.isLoopback(host: host) == loopback)
    }

    @Test(arguments: ["http://10.0.0.1:8080", "http://127.0.0.1.evil.com", "http://127.0.0.1@evil.com:8080", "https://api.openai.com/v1"])
    func refusesOtherHostsBeforeAnyConnection(url: String) async throws {
        let transport = ScriptedEngineTransport(routes: ScriptedEngineTransport.llamaCppPythonRoutes)
        let endpoint = EngineConfiguration.Endpoint(url: URL(string: url)!, contextSize: 2048, contextSizeSetting: "STUDYKIT_LOCAL_CONTEXT_SIZE")
        let engine = OpenAICompatibleEngine(kind: .local, endpoint: endpoint, transport: transport)
        let refusal = EngineError.notLoopback(url)
        #expect(await engine.availability() == .unavailable(reason: refusal.message))
        await #expect(throws: refusal) { _ = try await engine.respond(to: EngineTestSchema.request()) }
        await #expect(throws: refusal) { _ = try await engine.contextSize() }
        await #expect(throws: refusal) { _ = try await engine.tokenCount(for: "x") }
        await #expect(throws: refusal) { for try await _ in engine.streamResponse(to: EngineTestSchema.request()) {} }
        #expect(transport.requests.isEmpty)
        #expect(refusal.exitCode == .unavailable)
        #expect(refusal.message.contains("'\(url)'"))
    }

    @Test func aRemoteEngineMayUseAnyHost() async throws {
        let transport = ScriptedEngineTransport(routes: ScriptedEngineTransport.llamaCppPythonRoutes)
        let endpoint = EngineConfiguration.Endpoint(url: URL(string: "http://10.0.0.1:8080")!, contextSizeSetting: "STUDYKIT_REMOTE_CONTEXT_SIZE")
        #expect(await OpenAICompatibleEngine(kind: .remote, endpoint: endpoint, transport: transport).availability() == .available)
        #expect(transport.requests.first?.url.absoluteString == "http://10.0.0.1:8080/v1/models")
    }
}

@Suite("EngineError messages")
struct EngineErrorMessageTests {
    @Test func anUnusableAnswerNamesItsFirstThreeProblemsAndCountsTheRest() {
        let problems = (0..<39).map { "branches[\($0)].label repeats branches[0].label" }
        let message = EngineError.invalidOutput(problems).message
        #expect(message == "the model's answer is not usable: branches[0].label repeats branches[0].label; "
            + "branches[1].label repeats branches[0].label; branches[2].label repeats branches[0].label (and 36 more)")
        #expect(EngineError.invalidOutput(Array(problems.prefix(3))).message.hasSuffix("branches[2].label repeats branches[0].label"))
        #expect(!message.contains("\n"))
    }
}
