import Foundation
import Synchronization

// MARK: - Dialects

/// The flavour of OpenAI-compatible server behind a URL, which decides how the window is read,
/// whether tokens can be counted exactly, and which `response_format` the server accepts.
public enum ServerDialect: String, Sendable, CaseIterable {
    /// llama.cpp's `llama-server`: `GET /props` (n_ctx), `POST /tokenize`, `POST /detokenize`.
    case llamaServer = "llama-server"
    /// llama-cpp-python's server: `POST /extras/tokenize[/count]`, `/extras/detokenize`; no window
    /// endpoint (configure it); `response_format` only as `json_object` + `schema`.
    case llamaCppPython = "llama-cpp-python"
    /// Ollama: `POST /api/show` (context length); no tokenizer endpoint.
    case ollama
    /// Any other OpenAI-compatible API (OpenAI itself): strict `json_schema`, no tokenizer, no window endpoint.
    case openAI = "openai"

    /// Whether the server exposes a tokenizer, so counts are exact.
    public var canTokenize: Bool { self == .llamaServer || self == .llamaCppPython }
}

// MARK: - Dialect discovery

/// What one run learns about a server, once.
struct Discovery: Sendable {
    var dialect: ServerDialect
    var window: ContextWindow?
    var servedModels: [String]
}

/// The last few tokenizations of one engine, newest last. Texts are compared whole, so a hit is
/// certain; four entries hold a document and the frames around it.
final class TokenizationMemo: Sendable {
    private static let capacity = 4
    private let entries = Mutex<[(text: String, tokens: [Int])]>([])

    func tokens(of text: String) -> [Int]? {
        entries.withLock { entries in entries.last { $0.text == text }?.tokens }
    }

    func remember(_ tokens: [Int], of text: String) {
        entries.withLock { entries in
            entries.removeAll { $0.text == text }
            entries.append((text, tokens))
            if entries.count > Self.capacity { entries.removeFirst() }
        }
    }
}

/// Single-flight cache: concurrent callers share one discovery; a failure is not cached, so a
/// server started later is found on the next call.
final class DiscoveryCache: Sendable {
    private let state = Mutex<(task: Task<Discovery, any Error>?, model: String?, dialect: ServerDialect?)>((nil, nil, nil))

    var discoveredModel: String? { state.withLock { $0.model } }
    /// The dialect of the last discovery that succeeded, without asking the server.
    var discoveredDialect: ServerDialect? { state.withLock { $0.dialect } }

    func value(_ make: @escaping @Sendable () async throws -> Discovery) async throws -> Discovery {
        let task = state.withLock { state -> Task<Discovery, any Error> in
            if let task = state.task { return task }
            let task = Task { try await make() }
            state.task = task
            return task
        }
        do {
            let found = try await task.value
            state.withLock {
                $0.model = found.servedModels.count == 1 ? found.servedModels[0] : nil
                $0.dialect = found.dialect
            }
            return found
        } catch {
            state.withLock { if $0.task == task { $0.task = nil } }
            throw error
        }
    }
}

extension OpenAICompatibleEngine {
    func discovery() async throws -> Discovery {
        try guardLoopback()
        return try await cache.value { [self] in try await discover() }
    }

    /// `GET /v1/models` first (reachability, credentials, model names), then one probe per
    /// dialect until one answers: `/props`, `/api/version`, `/extras/tokenize/count`.
    private func discover() async throws -> Discovery {
        let models = try await probe("GET", "/v1/models", nil)
        var found = Discovery(dialect: endpoint.dialect ?? .openAI, window: nil, servedModels: [])
        if (200..<300).contains(models.status), let object = try? OpenAIWire.object(models.body, endpoint: "/v1/models"),
            let data = object["data"] as? [[String: Any]]
        {
            found.servedModels = data.compactMap { $0["id"] as? String }
        }

        var dialect = endpoint.dialect
        if dialect == nil || dialect == .llamaServer {
            let props = try await probe("GET", "/props", nil)
            if (200..<300).contains(props.status), let object = try? OpenAIWire.object(props.body, endpoint: "/props"),
                let tokens = OpenAIWire.integer((object["default_generation_settings"] as? [String: Any])?["n_ctx"])
                    ?? OpenAIWire.integer(object["n_ctx"]), tokens > 0
            {
                dialect = .llamaServer
                found.window = ContextWindow(tokens: tokens, source: .discovered(endpoint: "GET /props"))
            }
        }
        if dialect == nil {
            let version = try await probe("GET", "/api/version", nil)
            if (200..<300).contains(version.status),
                (try? OpenAIWire.object(version.body, endpoint: "/api/version"))?["version"] is String
            {
                dialect = .ollama
            }
        }
        if dialect == .ollama, let model = endpoint.model ?? found.servedModels.first {
            let show = try await probe("POST", "/api/show", try OpenAIWire.encode(["model": model]))
            if (200..<300).contains(show.status), let object = try? OpenAIWire.object(show.body, endpoint: "/api/show"),
                let tokens = Self.ollamaWindow(object)
            {
                found.window = ContextWindow(tokens: tokens, source: .discovered(endpoint: "POST /api/show"))
            }
        }
        if dialect == nil {
            let count = try await probe("POST", "/extras/tokenize/count", try OpenAIWire.tokenizeBody("studykit", model: endpoint.model))
            if (200..<300).contains(count.status),
                OpenAIWire.integer((try? OpenAIWire.object(count.body, endpoint: "/extras/tokenize/count"))?["count"]) != nil
            {
                dialect = .llamaCppPython
            }
        }
        found.dialect = dialect ?? .openAI
        return found
    }

    /// The runtime `num_ctx` when the model file sets one, else the architecture's `context_length`.
    private static func ollamaWindow(_ show: [String: Any]) -> Int? {
        if let parameters = show["parameters"] as? String {
            for line in parameters.split(whereSeparator: \.isNewline) {
                let words = line.split(whereSeparator: \.isWhitespace)
                if words.count == 2, words[0] == "num_ctx", let value = Int(words[1]), value > 0 { return value }
            }
        }
        guard let info = show["model_info"] as? [String: Any] else { return nil }
        let architecture = info["general.architecture"] as? String
        if let architecture, let value = OpenAIWire.integer(info["\(architecture).context_length"]) { return value }
        return info.first(where: { $0.key.hasSuffix(".context_length") }).flatMap { OpenAIWire.integer($0.value) }
    }

    /// One discovery request without retries: connection failures and refused credentials throw,
    /// any other status is returned for the caller to judge.
    private func probe(_ method: String, _ path: String, _ body: Data?) async throws -> (status: Int, body: Data) {
        let request = makeRequest(method, path, body, deadline: discoveryDeadline, accept: "application/json")
        do {
            let response = try await transport.stream(request)
            let data = try await collect(response.body, cap: 1 << 20)
            if response.head.status == 401 || response.head.status == 403 {
                throw authenticationError(status: response.head.status, body: data)
            }
            return (response.head.status, data)
        } catch let error as HTTPError {
            throw mapTransport(error)
        }
    }
}
