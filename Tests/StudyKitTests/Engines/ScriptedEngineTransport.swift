import Foundation
import Synchronization
@testable import StudyKit

/// One scripted answer: a head and body chunks, optionally failing after the chunks, or a
/// failure before any head (connection refused).
struct ScriptedReply: Sendable {
    var status = 200
    var headers: [String: String] = ["Content-Type": "application/json"]
    var chunks: [Data] = []
    var failAfterChunks: HTTPError? = nil
    var failBeforeHead: HTTPError? = nil

    static func json(_ body: String) -> ScriptedReply { json(200, body) }

    static func json(_ status: Int, _ body: String, headers: [String: String] = [:]) -> ScriptedReply {
        ScriptedReply(
            status: status, headers: headers.merging(["Content-Type": "application/json"]) { mine, _ in mine },
            chunks: [Data(body.utf8)])
    }

    static func text(_ status: Int, _ body: String) -> ScriptedReply {
        ScriptedReply(status: status, headers: ["Content-Type": "text/html"], chunks: [Data(body.utf8)])
    }

    /// An event stream cut into `chunkSize`-byte pieces, so events straddle chunk boundaries.
    static func events(_ text: String, chunkSize: Int = 7, failAfter: HTTPError? = nil) -> ScriptedReply {
        let bytes = Array(text.utf8)
        let chunks = stride(from: 0, to: bytes.count, by: chunkSize).map { Data(bytes[$0..<min($0 + chunkSize, bytes.count)]) }
        return ScriptedReply(status: 200, headers: ["Content-Type": "text/event-stream"], chunks: chunks, failAfterChunks: failAfter)
    }

    static func fail(_ error: HTTPError) -> ScriptedReply { ScriptedReply(failBeforeHead: error) }

    static func fixture(_ name: String) throws -> ScriptedReply { try fixture(200, name) }

    static func fixture(_ status: Int, _ name: String, headers: [String: String] = [:]) throws -> ScriptedReply {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures/Engines") else {
            throw FixtureMissing(name: name)
        }
        return .json(status, try String(contentsOf: url, encoding: .utf8), headers: headers)
    }

    struct FixtureMissing: Error { var name: String }
}

/// A transport that answers from a script, for faults a real server cannot produce. Routes
/// answer a path every time; everything else takes the next queued reply; an empty queue is 404.
final class ScriptedEngineTransport: HTTPTransport {
    private let state: Mutex<(queue: [ScriptedReply], requests: [HTTPRequest])>
    private let routes: [String: ScriptedReply]

    init(routes: [String: ScriptedReply] = [:], queue: [ScriptedReply] = []) {
        self.routes = routes
        self.state = Mutex((queue, []))
    }

    /// The routes a llama-cpp-python server answers during discovery.
    static let llamaCppPythonRoutes: [String: ScriptedReply] = [
        "/v1/models": .json(#"{"object":"list","data":[{"id":"scripted-model","object":"model","owned_by":"me","permissions":[]}]}"#),
        "/extras/tokenize/count": .json(#"{"count":3}"#),
    ]

    var requests: [HTTPRequest] { state.withLock { $0.requests } }

    func calls(to path: String) -> Int { requests.filter { $0.url.path == path }.count }

    func stream(_ request: HTTPRequest) async throws -> HTTPStreamingResponse {
        let reply = state.withLock { state -> ScriptedReply in
            state.requests.append(request)
            if let routed = routes[request.url.path] { return routed }
            return state.queue.isEmpty ? .text(404, "not found") : state.queue.removeFirst()
        }
        if let error = reply.failBeforeHead { throw error }
        let head = HTTPResponseHead(status: reply.status, headers: reply.headers, url: request.url)
        let body = AsyncThrowingStream<Data, any Error> { continuation in
            for chunk in reply.chunks { continuation.yield(chunk) }
            continuation.finish(throwing: reply.failAfterChunks)
        }
        return HTTPStreamingResponse(head: head, body: body)
    }
}

/// Records the sleeps an engine asks for instead of sleeping.
final class RecordingSleeper: Sendable {
    private let slept = Mutex<[Duration]>([])
    var sleeps: [Duration] { slept.withLock { $0 } }

    var timing: OpenAICompatibleEngine.RetryTiming {
        OpenAICompatibleEngine.RetryTiming(
            sleep: { [self] duration in self.slept.withLock { $0.append(duration) } },
            random: { 0.5 }, now: { Date(timeIntervalSince1970: 1_800_000_000) })
    }
}

/// A small schema used across the engine tests.
enum EngineTestSchema {
    static let headline = #"{"type":"object","properties":{"title":{"type":"string"},"blurb":{"type":"string"}},"required":["title","blurb"]}"#
    static let strictHeadline = #"{"type":"object","properties":{"title":{"type":"string"},"blurb":{"type":"string"}},"required":["title","blurb"],"additionalProperties":false}"#

    static func request(maxTokens: Int? = 80) -> GenerationRequest {
        GenerationRequest(
            instructions: "You write a title and a one-line blurb for study notes. Answer in JSON.",
            prompt: "Notes: Photosynthesis turns light, water and carbon dioxide into sugar and oxygen in chloroplasts.",
            schemaName: "headline", jsonSchema: headline, strictJSONSchema: strictHeadline,
            options: GenerationOptions(sampling: .greedy, maximumResponseTokens: maxTokens, seed: 1))
    }
}
