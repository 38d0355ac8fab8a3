import Foundation
import Testing
@testable import StudyKit

/// The router streams a model server's answers even when nobody watches: an answer that starts
/// repeating itself is cut where it starts, instead of decoding to the response limit, and an
/// abandoned attempt closes its stream, which stops the server (a plain request it decodes to the
/// end while the next one waits; `benchmarks/RESULTS.md` has the measured figures). Also: a server
/// that ignores `stream`, a usage count that fails after the answer arrived, and a request still
/// out when a cancelled call is metered.
@Suite("server engines: streamed by the router")
struct ServerStreamingTests {
    static let chat = "/v1/chat/completions"

    /// Server-sent events carrying `pieces` as content deltas, then a finish and `[DONE]`.
    static func events(_ pieces: [String], finish: String = "stop") -> ScriptedReply {
        let deltas = pieces.map { piece -> String in
            let escaped = String(decoding: try! JSONEncoder().encode(piece), as: UTF8.self)
            return #"data: {"model":"gpt-test","choices":[{"index":0,"delta":{"content":"# + escaped + #"},"finish_reason":null}]}"#
        }
        let end = [
            #"data: {"model":"gpt-test","choices":[{"index":0,"delta":{},"finish_reason":"\#(finish)"}]}"#,
            #"data: {"model":"gpt-test","choices":[],"usage":{"prompt_tokens":40,"completion_tokens":30,"total_tokens":70}}"#,
            "data: [DONE]",
        ]
        return .events((deltas + end).map { $0 + "\n\n" }.joined(), chunkSize: 64)
    }

    @Test func theRouterStreamsAServerAnswerWithoutStreamAndCutsARepeatingOne() async throws {
        let point = "Prophase condenses the chromosomes into visible threads."
        let looping = [#"{"overview":"Mitosis divides one cell into two. Each daughter cell gets a full copy.","keyPoints":["#]
            + Array(repeating: "\"\(point)\",", count: 40) + [#""end"]}"#]
        let transport = ScriptedEngineTransport(routes: EngineFaultTests.models, queue: [Self.events(looping)])
        let router = RoutingEngine(local: ScriptedModel(.local, available: .unavailable(reason: "no local server")), remote: EngineFaultTests.remote(transport))
        let routed = try await router.run(RoutingRequest(task: .summary, document: RoutingEngineTests.document(), useCache: false))

        // The request asked for a stream, though nobody watched (no --stream).
        let bodies = transport.requests.filter { $0.url.path.hasSuffix(Self.chat) }.compactMap(\.body)
        #expect(bodies.count == 1)
        let body = try #require(bodies.first)
        let sent = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(sent["stream"] as? Bool == true)
        // The answer was stopped at its second copy of the point: a failed attempt, not a
        // 40-point answer decoded to the end; the builtin engine answered.
        #expect(routed.attempts.map(\.outcome) == [.repeated])
        #expect(routed.fallbacks.first?.reason.contains("repeating") == true, "\(routed.fallbacks)")
        #expect(routed.engine == .builtin)
    }

    @Test func aStreamWithoutUsageIsMeteredByItsEventsAndOnePromptCount() async throws {
        // llama-cpp-python: one token per content event, no usage; its tokenizer counts the prompt.
        var routes = EngineFaultTests.models
        routes["/openapi.json"] = .json(404, "{}")
        routes["/extras/tokenize/count"] = .json(#"{"count":57}"#)
        let pieces = [#"{"title":"#, #""Photo"#, #"synthesis"#, #"""#, "}"]
        let transport = ScriptedEngineTransport(routes: routes, queue: [Self.events(pieces).withoutUsage])
        var final: RawResponse?
        for try await event in EngineFaultTests.remote(transport, dialect: .llamaCppPython).streamResponse(to: EngineTestSchema.request()) {
            if case .completed(let response) = event { final = response }
        }
        let answer = try #require(final)
        #expect(answer.text == #"{"title":"Photosynthesis"}"#)
        #expect(answer.usage == Usage(promptTokens: 57, completionTokens: 5, method: .counted))
        #expect(transport.calls(to: "/extras/tokenize/count") == 1, "the answer's tokens were counted again")
    }

    @Test func aServerThatIgnoresStreamIsReadAsOneCompletion() async throws {
        let transport = ScriptedEngineTransport(
            routes: EngineFaultTests.models, queue: [.json(EngineFaultTests.completion(#"{"title":"Photosynthesis"}"#))])
        var snapshots: [String] = []
        var final: RawResponse?
        for try await event in EngineFaultTests.remote(transport).streamResponse(to: EngineTestSchema.request()) {
            switch event {
            case .partial(let text): snapshots.append(text)
            case .completed(let response): final = response
            }
        }
        #expect(snapshots == [#"{"title":"Photosynthesis"}"#])
        #expect(final == RawResponse(
            text: #"{"title":"Photosynthesis"}"#, usage: Usage(promptTokens: 12, completionTokens: 7, method: .reported),
            model: "scripted-model", finishReason: "stop"))
    }

    @Test func anAnswerWhoseCountFailsIsKeptWithAnEstimate() async throws {
        // llama-cpp-python reports no usage in a stream, so the answer is counted with its
        // tokenizer; a server busy with other generations can let that count time out.
        var routes = EngineFaultTests.models
        routes["/openapi.json"] = .json(404, "{}")
        routes["/extras/tokenize/count"] = .fail(.timedOut("http://127.0.0.1/extras/tokenize/count", seconds: 30))
        let title = #"{"title":"Photosynthesis"}"#
        let transport = ScriptedEngineTransport(routes: routes, queue: [Self.events([title]).withoutUsage])
        var final: RawResponse?
        for try await event in EngineFaultTests.remote(transport, dialect: .llamaCppPython).streamResponse(to: EngineTestSchema.request()) {
            if case .completed(let response) = event { final = response }
        }
        let answer = try #require(final)
        #expect(answer.text == title)
        #expect(answer.usage.method == .estimated)
        #expect(answer.usage.promptTokens > 0 && answer.usage.completionTokens > 0)
        #expect(transport.calls(to: "/extras/tokenize/count") >= 1, "the count was tried first")
    }

    @Test func aRequestStillOutWhenTheMeterSettlesCountsAsBilled() {
        let log = SentRequestLog()
        let out = log.begin()
        // The caller was cancelled and settles now; the streaming task has not heard back yet.
        #expect(log.requests == [SentRequest(outcome: .cancelled)])
        #expect(log.requests.allSatisfy { $0.mayBeBilled })
        log.resolve(out, as: SentRequest(status: 200))
        #expect(log.requests == [SentRequest(outcome: .answered, status: 200)])

        // A request that never connected is no request.
        let refused = log.begin()
        log.resolve(refused, as: nil)
        #expect(log.requests == [SentRequest(outcome: .answered, status: 200)])
    }
}

extension ScriptedReply {
    /// The same event stream without its usage event (llama-cpp-python sends none).
    var withoutUsage: ScriptedReply {
        let text = String(decoding: chunks.reduce(Data(), +), as: UTF8.self)
        let kept = text.components(separatedBy: "\n\n").filter { !$0.contains("\"usage\"") }.joined(separator: "\n\n")
        return .events(kept, chunkSize: 64)
    }
}
