import Foundation
import Synchronization
@testable import StudyKit

/// A transport that wraps a real one (``CurlTransport`` by default) and keeps every exchange:
/// the request as the engine built it and the response body as the server sent it. Tests read
/// what an engine really sends (roles, fences, sizes) and what a real server answered (its
/// `usage.prompt_tokens`, counted with the model's own tokenizer and chat template).
///
/// `rewrite` may change a request before it leaves (the recorded request is the original):
/// the context-window tests cap `max_tokens` at 1, so a real server reads and counts the whole
/// prompt (and refuses one over its window) without spending minutes writing an answer.
final class RecordingTransport: HTTPTransport {
    /// One request and, once it is complete, the body of its response.
    struct Exchange: Sendable {
        var request: HTTPRequest
        var status: Int?
        var responseBody: Data

        /// The request body as JSON, if it is JSON.
        var requestJSON: JSONValue? { request.body.flatMap { try? JSONValue.parse(String(decoding: $0, as: UTF8.self)) } }
        /// The response body as JSON, if it is JSON.
        var responseJSON: JSONValue? { try? JSONValue.parse(String(decoding: responseBody, as: UTF8.self)) }
        /// Whether this was a chat completion.
        var isChat: Bool { request.url.path.hasSuffix("/chat/completions") }
    }

    private let inner: any HTTPTransport
    private let rewrite: @Sendable (HTTPRequest) -> HTTPRequest
    private let log = Mutex<[Exchange]>([])

    init(wrapping inner: any HTTPTransport = CurlTransport(), rewrite: @escaping @Sendable (HTTPRequest) -> HTTPRequest = { $0 }) {
        self.inner = inner
        self.rewrite = rewrite
    }

    /// Every exchange so far, in order.
    var exchanges: [Exchange] { log.withLock { $0 } }
    /// The chat completions so far.
    var chats: [Exchange] { exchanges.filter(\.isChat) }

    /// Forgets what was recorded.
    func reset() { log.withLock { $0.removeAll() } }

    func stream(_ request: HTTPRequest) async throws -> HTTPStreamingResponse {
        let index = log.withLock { exchanges in
            exchanges.append(Exchange(request: request, status: nil, responseBody: Data()))
            return exchanges.count - 1
        }
        let response = try await inner.stream(rewrite(request))
        log.withLock { $0[index].status = response.head.status }
        let (body, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        let pump = Task { [self] in
            do {
                for try await chunk in response.body {
                    log.withLock { $0[index].responseBody.append(chunk) }
                    continuation.yield(chunk)
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in pump.cancel() }
        return HTTPStreamingResponse(head: response.head, body: body)
    }

    /// A rewrite that caps a chat completion's `max_tokens` at `limit` and asks for it plainly,
    /// not streamed, so the server's answer carries its own `usage` (llama-cpp-python's streams
    /// carry none). The original stays recorded; the engine reads a plain answer to a stream
    /// request as one completion.
    static func cappingResponseTokens(at limit: Int) -> @Sendable (HTTPRequest) -> HTTPRequest {
        { request in
            guard request.url.path.hasSuffix("/chat/completions"), let body = request.body,
                case .object(var object)? = try? JSONValue.parse(String(decoding: body, as: UTF8.self))
            else { return request }
            object["max_tokens"] = .integer(limit)
            object["stream"] = nil
            object["stream_options"] = nil
            var capped = request
            capped.body = Data(JSONValue.object(object).compactText.utf8)
            return capped
        }
    }
}

extension RecordingTransport.Exchange {
    /// The answer's text: a plain completion's message, or a streamed one's deltas joined.
    var answerText: String? {
        if case .array(let choices)? = responseJSON?["choices"] { return choices.first?["message"]?["content"]?.stringValue }
        let events = String(decoding: responseBody, as: UTF8.self).components(separatedBy: "\n")
            .filter { $0.hasPrefix("data:") }.map { $0.dropFirst(5).trimmingCharacters(in: .whitespaces) }
        let deltas = events.compactMap { event -> String? in
            guard case .array(let choices)? = (try? JSONValue.parse(event))?["choices"] else { return nil }
            return choices.first?["delta"]?["content"]?.stringValue
        }
        return events.isEmpty ? nil : deltas.joined()
    }

    /// The chat messages sent, as (role, content) pairs.
    var messages: [(role: String, content: String)] {
        guard case .array(let items)? = requestJSON?["messages"] else { return [] }
        return items.compactMap { item in
            guard let role = item["role"]?.stringValue, let content = item["content"]?.stringValue else { return nil }
            return (role, content)
        }
    }
}
