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
    /// LiteLLM's proxy, a gateway in front of other servers: `GET /v1/model/info` (each
    /// deployment's `max_input_tokens`), `x-litellm-*` headers, request ids; no tokenizer; the
    /// schema as OpenAI's `json_schema`, which LiteLLM hands each provider in its own form.
    case liteLLM = "litellm"

    /// Whether the server exposes a tokenizer, so counts are exact.
    public var canTokenize: Bool { isLlamaCpp }

    /// llama.cpp's family (llama-server, llama-cpp-python): tokenizer endpoints and GBNF grammars.
    public var isLlamaCpp: Bool { self == .llamaServer || self == .llamaCppPython }

    /// The endpoints that count tokens, for `studykit engines`.
    public var tokenizerEndpoints: [String] {
        switch self {
        case .llamaServer: return ["POST /tokenize", "POST /detokenize"]
        case .llamaCppPython: return ["POST /extras/tokenize/count", "POST /extras/tokenize", "POST /extras/detokenize"]
        case .ollama, .openAI, .liteLLM: return []
        }
    }

    /// A gateway in front of other model servers: a window it does not report gets a default
    /// (``OpenAICompatibleEngine/gatewayDefaultWindow``) instead of making the engine unusable.
    public var isGateway: Bool { self == .liteLLM }
}

// MARK: - Dialect discovery

/// Whether a server takes studykit's own GBNF grammar (the `grammar` field of a chat
/// completion, spelt the same by llama-cpp-python and llama-server), and how that is known.
public enum GrammarSupport: Sendable, Equatable {
    /// The server takes `grammar`; `evidence` says how discovery knows.
    case accepted(evidence: String)
    /// The server gets the JSON Schema as `response_format` instead; `reason` says why.
    case notOffered(reason: String)

    /// Whether the grammar is sent.
    public var accepts: Bool { if case .accepted = self { return true } else { return false } }

    /// One line for `studykit engines`.
    public var summary: String {
        switch self {
        case .accepted(let evidence): return "studykit's GBNF in 'grammar' (\(evidence))"
        case .notOffered(let reason): return "JSON Schema in 'response_format' (\(reason))"
        }
    }
}

/// What discovery learns about a server: asked once, then kept in the SQLite cache for a day.
struct Discovery: Sendable, Equatable {
    var dialect: ServerDialect
    var window: ContextWindow?
    var servedModels: [String]
    var grammar: GrammarSupport = .notOffered(reason: "not a llama.cpp server")
    /// llama-server's parallel slots (`GET /props` `total_slots`, else `GET /slots`); `nil` when
    /// the server does not report them.
    var slots: Int?
    /// When the server was asked; with `fromStore`, an earlier run asked it.
    var discoveredAt = Date()
    var fromStore = false
    /// What discovery could not learn, one line a probe ("discovery: GET /openapi.json was
    /// 2.0 MB, over the probe's 64 KB limit; treated as a plain OpenAI server"): a probe that
    /// fails is a fact unknown, never the engine unavailable. `studykit engines` shows them.
    var notes: [String] = []
    /// Why the schema goes as llama.cpp's `json_object` + `schema` instead of OpenAI's
    /// `json_schema`, when it does: the server refused `json_schema`, or a gateway's model info
    /// does not say every deployment takes it (llama-cpp-python behind LiteLLM refuses it with a
    /// 500, which the gateway counts against the backend).
    var jsonObjectSchema: String?
    /// The deployments a gateway serves the model with (LiteLLM's model info), when it says.
    var deployments: Int?

    /// Requests the server serves at once.
    var concurrency: ServerConcurrency { .of(dialect: dialect, slots: slots) }

    /// How long a stored discovery is trusted without a failure saying the server changed.
    static let lifetime: TimeInterval = 24 * 60 * 60

    /// The stored form: plain JSON, so a record from an older studykit that lacks a field is
    /// simply rediscovered.
    var payload: String {
        var object: JSONObject = [
            "dialect": .string(dialect.rawValue), "models": .array(servedModels.map(JSONValue.string)),
            "slots": slots.map { .integer($0) } ?? .null,
        ]
        if let window, case .discovered(let endpoint) = window.source {
            object["window"] = .integer(window.tokens)
            object["windowEndpoint"] = .string(endpoint)
        }
        switch grammar {
        case .accepted(let evidence): object["grammar"] = ["accepted": true, "note": .string(evidence)]
        case .notOffered(let reason): object["grammar"] = ["accepted": false, "note": .string(reason)]
        }
        if !notes.isEmpty { object["notes"] = .array(notes.map(JSONValue.string)) }
        if let jsonObjectSchema { object["jsonObjectSchema"] = .string(jsonObjectSchema) }
        if let deployments { object["deployments"] = .integer(deployments) }
        return JSONValue.object(object).compactText
    }

    init(dialect: ServerDialect, window: ContextWindow?, servedModels: [String]) {
        self.dialect = dialect
        self.window = window
        self.servedModels = servedModels
    }

    /// A stored record, or `nil` when it is unreadable or older than ``lifetime``.
    init?(stored: StoredDiscovery, now: Date) {
        guard now.timeIntervalSince(stored.discoveredAt) < Self.lifetime, now >= stored.discoveredAt,
            case .object(let object)? = try? JSONValue.parse(stored.payload),
            let dialect = object["dialect"]?.stringValue.flatMap(ServerDialect.init(rawValue:)),
            case .array(let models)? = object["models"],
            case .object(let grammar)? = object["grammar"], let note = grammar["note"]?.stringValue,
            // Written by every studykit that asks for the slots (null when the server has none to
            // report): a record without it is from before, and is rediscovered.
            let slots = object["slots"]
        else { return nil }
        if case .integer(let count) = slots, count > 0 { self.slots = Int(count) }
        self.dialect = dialect
        self.servedModels = models.compactMap(\.stringValue)
        if case .integer(let tokens)? = object["window"], let endpoint = object["windowEndpoint"]?.stringValue {
            self.window = ContextWindow(tokens: Int(tokens), source: .discovered(endpoint: endpoint))
        }
        self.grammar = grammar["accepted"] == .bool(true) ? .accepted(evidence: note) : .notOffered(reason: note)
        if case .array(let notes)? = object["notes"] { self.notes = notes.compactMap(\.stringValue) }
        self.jsonObjectSchema = object["jsonObjectSchema"]?.stringValue
        if case .integer(let count)? = object["deployments"], count > 0 { self.deployments = Int(count) }
        self.discoveredAt = stored.discoveredAt
        self.fromStore = true
    }
}

/// The last few tokenizations (token ids or counts) of one engine, newest last. Texts are compared whole, so a hit is
/// certain; four entries hold a document and the frames around it.
final class TokenizationMemo<Value: Sendable>: Sendable {
    private static var capacity: Int { 4 }
    private let entries = Mutex<[(text: String, value: Value)]>([])

    func value(of text: String) -> Value? {
        entries.withLock { entries in entries.last { $0.text == text }?.value }
    }

    func remember(_ value: Value, of text: String) {
        entries.withLock { entries in
            entries.removeAll { $0.text == text }
            entries.append((text, value))
            if entries.count > Self.capacity { entries.removeFirst() }
        }
    }
}

/// The HTTP requests one engine made in this process: `--json` reports them per run.
final class RequestCounter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func add() { count.withLock { $0 += 1 } }
}

/// Single-flight cache: concurrent callers share one discovery; a failure is not cached, so a
/// server started later is found on the next call.
final class DiscoveryCache: Sendable {
    private let state = Mutex<(task: Task<Discovery, any Error>?, model: String?, dialect: ServerDialect?,
        known: Discovery?)>(
        (nil, nil, nil, nil))

    var discoveredModel: String? { state.withLock { $0.model } }
    /// The dialect of the last discovery that succeeded, without asking the server.
    var discoveredDialect: ServerDialect? { state.withLock { $0.dialect } }
    /// The last discovery that succeeded, without asking the server.
    var known: Discovery? { state.withLock { $0.known } }

    /// Forgets this run's discovery, so the next call discovers again.
    func reset() {
        state.withLock { $0.task = nil }
    }

    /// Replaces what is known (the server refused the grammar after discovery said it takes it).
    func replace(with discovery: Discovery) {
        state.withLock {
            $0.task = Task { discovery }
            $0.known = discovery
        }
    }

    func value(_ make: @escaping @Sendable () async throws -> Discovery) async throws -> Discovery {
        let task = state.withLock { state -> Task<Discovery, any Error> in
            if let task = state.task { return task }
            let task = Task { try await make() }
            state.task = task
            return task
        }
        do {
            // The discovery runs in its own task, shared by this run's callers: a caller that is
            // cancelled (an interrupt, the run's time budget) stops it, or the caller would wait
            // for a server that never answers until the discovery deadline. A stopped discovery is
            // forgotten below, so the next caller asks again.
            let found = try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
            state.withLock {
                $0.model = found.servedModels.count == 1 ? found.servedModels[0] : nil
                $0.dialect = found.dialect
                $0.known = found
            }
            return found
        } catch {
            state.withLock { if $0.task == task { $0.task = nil } }
            throw error
        }
    }
}

extension OpenAICompatibleEngine {
    /// What the server is: from this run's memory, else from the SQLite cache (a day at most),
    /// else asked, and then stored for the next runs.
    func discovery() async throws -> Discovery {
        try guardLoopback()
        return try await cache.value { [self] in
            let now = timing.now()
            if let store = discoveryStore, let record = store.load(discoveryKey),
                let stored = Discovery(stored: record, now: now) {
                return stored
            }
            var found = try await discover()
            found.discoveredAt = now
            discoveryStore?.save(discoveryKey, StoredDiscovery(payload: found.payload, discoveredAt: now))
            return found
        }
    }

    /// The row the SQLite cache keeps this server's discovery in: the server root, and the
    /// configured dialect, which changes what discovery asks.
    public var discoveryKey: String { Self.discoveryKey(for: endpoint) }

    /// The cache row for a server at `endpoint` (see ``discoveryKey``).
    public static func discoveryKey(for endpoint: EngineConfiguration.Endpoint) -> String {
        // Stored in the SQLite cache: credentials in the URL stay out of it.
        URLCredentials.redacted(in: serverRoot(of: endpoint.url)) + "|" + (endpoint.dialect?.rawValue ?? "any dialect")
    }

    /// Forgets what was discovered, here and in the SQLite cache: the next call asks the server.
    func forgetDiscovery() {
        cache.reset()
        discoveryStore?.forget(discoveryKey)
    }

    /// Records that the server refused OpenAI's `json_schema`, so this run and the next ones
    /// send the schema as `json_object` + `schema`.
    func recordJSONSchemaRefused(_ found: Discovery, reason: String) {
        var changed = found
        changed.jsonObjectSchema = "the server refused json_schema: \(reason)"
        cache.replace(with: changed)
        discoveryStore?.save(discoveryKey,
            StoredDiscovery(payload: changed.payload, discoveredAt: changed.discoveredAt))
    }

    /// Records that the server refused the grammar, so this run and the next ones send
    /// `response_format` instead.
    func recordGrammarRefused(_ found: Discovery, reason: String) {
        var changed = found
        changed.grammar = .notOffered(reason: "the server refused 'grammar': \(reason)")
        cache.replace(with: changed)
        discoveryStore?.save(discoveryKey,
            StoredDiscovery(payload: changed.payload, discoveredAt: changed.discoveredAt))
    }

    /// `GET /v1/models` first (reachability, credentials, model names, and vLLM's window), then one probe per
    /// dialect until one answers: `/props` (llama-server), `/openapi.json` (llama-cpp-python,
    /// whose request schema says whether chat completions take `grammar`), `/v1/model/info`
    /// (LiteLLM's proxy), `/api/version` (Ollama), and `/extras/tokenize/count` for a
    /// llama-cpp-python without its API docs.
    ///
    /// Only the first request decides availability: every later probe is best effort, read up
    /// to its own cap, and one that fails, times out, is too large or is not JSON leaves that fact
    /// unknown, with a note naming the probe (``Discovery/notes``).
    private func discover() async throws -> Discovery {
        var notes: [String] = []
        var sawLiteLLM = false
        let models = try await probe("GET", "/v1/models", nil, cap: Self.modelListCap, essential: true, notes: &notes)
        var found = Discovery(dialect: endpoint.dialect ?? .openAI, window: nil, servedModels: [])
        if let models, (200..<300).contains(models.status),
            let object = try? OpenAIWire.object(models.body, endpoint: "/v1/models"),
            let data = object["data"] as? [[String: Any]]
        {
            found.servedModels = data.compactMap { $0["id"] as? String }
            // vLLM lists each model's window (`--max-model-len`) with it.
            let entry = data.first { $0["id"] as? String == endpoint.model } ?? data.onlyElement
            if let tokens = OpenAIWire.integer(entry?["max_model_len"]), tokens > 0 {
                found.window = ContextWindow(tokens: tokens,
                    source: .discovered(endpoint: "GET /v1/models (max_model_len)"))
            }
        }
        sawLiteLLM = sawLiteLLM || models?.fromLiteLLM == true

        var dialect = endpoint.dialect
        if dialect == nil || dialect == .llamaServer {
            let props = try await probe("GET", "/props", nil, cap: Self.probeCap, notes: &notes)
            sawLiteLLM = sawLiteLLM || props?.fromLiteLLM == true
            if let props, (200..<300).contains(props.status),
                let object = try? OpenAIWire.object(props.body, endpoint: "/props") {
                let tokens = OpenAIWire.integer((object["default_generation_settings"] as? [String: Any])?["n_ctx"])
                    ?? OpenAIWire.integer(object["n_ctx"])
                if let tokens, tokens > 0 {
                    dialect = .llamaServer
                    found.window = ContextWindow(tokens: tokens, source: .discovered(endpoint: "GET /props"))
                }
                found.slots = OpenAIWire.integer(object["total_slots"]).flatMap { $0 > 0 ? $0 : nil }
            }
            if dialect == .llamaServer, found.slots == nil {
                // A llama-server older than `total_slots` lists one entry per slot (unless it was
                // started with --no-slots, which answers an error: the slots stay unknown).
                let slots = try await probe("GET", "/slots", nil, cap: Self.probeCap, notes: &notes)
                if let slots, (200..<300).contains(slots.status),
                    let list = try? JSONSerialization.jsonObject(with: slots.body) as? [Any], !list.isEmpty
                {
                    found.slots = list.count
                }
            }
            if dialect == .llamaServer {
                // llama-server reads `grammar` from a chat completion's body (and refuses it
                // beside a `json_schema`, which studykit then does not send).
                found.grammar = .accepted(evidence: "llama-server reads 'grammar'")
            }
        }
        if dialect == nil || dialect == .llamaCppPython {
            // llama-cpp-python's document is about 34 KB; a gateway's can be megabytes, and is not
            // read past the cap (LiteLLM's is 2 MB).
            let openAPI = try await probe("GET", "/openapi.json", nil, cap: Self.openAPICap, notes: &notes)
            sawLiteLLM = sawLiteLLM || openAPI?.fromLiteLLM == true
            if let openAPI, (200..<300).contains(openAPI.status),
                let object = try? OpenAIWire.object(openAPI.body, endpoint: "/openapi.json"),
                let paths = object["paths"] as? [String: Any], paths["/extras/tokenize/count"] != nil
            {
                dialect = .llamaCppPython
                let request =
                    ((object["components"] as? [String: Any])?["schemas"] as? [String: Any])?[
                        "CreateChatCompletionRequest"]
                let fields = (request as? [String: Any])?["properties"] as? [String: Any]
                found.grammar = fields?["grammar"] != nil
                    ? .accepted(evidence: "GET /openapi.json lists it")
                    : .notOffered(reason: "GET /openapi.json does not list 'grammar'")
            } else if dialect == .llamaCppPython {
                found.grammar = Self.assumedGrammar
            }
        }
        if dialect == nil || dialect == .liteLLM {
            let info = try await probe("GET", "/v1/model/info", nil, cap: Self.modelInfoCap, notes: &notes)
            if let info, (200..<300).contains(info.status),
                let deployments = GatewayModelInfo(body: info.body, model: endpoint.model
                    ?? found.servedModels.onlyElement)
            {
                dialect = .liteLLM
                found.deployments = deployments.count > 0 ? deployments.count : nil
                if !deployments.takeJSONSchema {
                    found.jsonObjectSchema =
                        "GET /v1/model/info does not say every deployment takes json_schema (supports_response_schema)"
                }
                if let window = deployments.window {
                    found.window = ContextWindow(tokens: window.tokens,
                        source: .discovered(endpoint: "GET /v1/model/info (\(window.field))"))
                }
            } else if info?.fromLiteLLM == true || sawLiteLLM {
                dialect = .liteLLM
            }
        }
        if dialect == nil {
            let version = try await probe("GET", "/api/version", nil, cap: Self.probeCap, notes: &notes)
            if let version, (200..<300).contains(version.status),
                (try? OpenAIWire.object(version.body, endpoint: "/api/version"))?["version"] is String
            {
                dialect = .ollama
            }
        }
        if dialect == .ollama, let model = endpoint.model ?? found.servedModels.first {
            let show = try await probe("POST", "/api/show", try OpenAIWire.encode(["model": model]),
                cap: Self.modelInfoCap, notes: &notes)
            if let show, (200..<300).contains(show.status),
                let object = try? OpenAIWire.object(show.body, endpoint: "/api/show"),
                let tokens = Self.ollamaWindow(object)
            {
                found.window = ContextWindow(tokens: tokens, source: .discovered(endpoint: "POST /api/show"))
            }
        }
        if dialect == nil {
            let count = try await probe(
                "POST", "/extras/tokenize/count", try OpenAIWire.tokenizeBody("studykit", model: endpoint.model),
                cap: Self.probeCap,
                notes: &notes)
            if let count, (200..<300).contains(count.status),
                OpenAIWire.integer((try? OpenAIWire.object(count.body,
                    endpoint: "/extras/tokenize/count"))?["count"]) != nil
            {
                dialect = .llamaCppPython
                found.grammar = Self.assumedGrammar
            }
        }
        found.dialect = dialect ?? .openAI
        if !found.dialect.isLlamaCpp {
            let reason: String =
                switch found.dialect {
                case .openAI: "not a llama.cpp server; strict json_schema where the schema has a strict form"
                case .liteLLM: "a gateway: OpenAI's json_schema, which LiteLLM passes on in each backend's form"
                default: "not a llama.cpp server"
                }
            found.grammar = .notOffered(reason: reason)
        }
        let conclusion =
            found.dialect == .openAI ? "treated as a plain OpenAI server" : "the server is \(found.dialect.rawValue)"
        found.notes = notes.map { "discovery: \($0); \(conclusion)" }
        return found
    }
    /// Every llama-cpp-python server since 0.1 reads `grammar`; a refusal still falls back.
    private static let assumedGrammar =
        GrammarSupport.accepted(evidence: "llama-cpp-python, without /openapi.json to confirm")

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

    /// What one probe brought back: the status, the body (within the probe's cap), and whether
    /// LiteLLM answered (its `x-litellm-*` headers).
    struct ProbeAnswer {
        var status: Int
        var body: Data
        var fromLiteLLM: Bool
    }

    /// The probes' caps: what a model server's answer needs, far below what a gateway may send.
    static let probeCap = 64 << 10
    /// llama-cpp-python's OpenAPI document is about 34 KB.
    static let openAPICap = 64 << 10
    /// A gateway's model info holds every deployment (LiteLLM: about 8 KB each).
    static let modelInfoCap = 1 << 20
    /// A hosted API may list hundreds of models.
    static let modelListCap = 4 << 20

    /// One discovery request without retries. The `essential` one (`GET /v1/models`) decides
    /// availability: its connection failures and refused credentials throw. Every other probe
    /// is best effort: any failure — no answer, a deadline, an answer over `cap` bytes (refused
    /// by its `Content-Length` before reading, else cut while reading), a refusal — is `nil`
    /// with a line in `notes`. Cancellation always throws.
    private func probe(
        _ method: String, _ path: String, _ body: Data?, cap: Int, essential: Bool = false, notes: inout [String]
    ) async throws -> ProbeAnswer? {
        let request = makeRequest(method, path, body, deadline: discoveryDeadline, accept: "application/json")
        requests.add()
        let name = "\(method) \(path)"
        do {
            let response = try await transport.stream(request)
            let head = response.head
            let fromLiteLLM = head.headers.keys.contains { $0.hasPrefix("x-litellm-") }
            if head.status == 401 || head.status == 403 {
                let data = (try? await collect(response.body, cap: Self.probeCap)) ?? Data()
                if essential { throw authenticationError(status: head.status, body: data) }
                notes.append("\(name) was refused (http \(head.status))")
                return nil
            }
            if let length = head.header("content-length").flatMap(Int.init), length > cap {
                // Not read at all: dropping the body stream stops the transfer.
                notes.append("\(name) was \(Self.byteSize(length)), over the probe's \(Self.byteSize(cap)) limit")
                return ProbeAnswer(status: head.status, body: Data(), fromLiteLLM: fromLiteLLM).unreadable
            }
            do {
                return ProbeAnswer(status: head.status, body: try await collect(response.body, cap: cap),
                    fromLiteLLM: fromLiteLLM)
            } catch HTTPError.bodyTooLarge {
                notes.append("\(name) was over the probe's \(Self.byteSize(cap)) limit")
                return ProbeAnswer(status: head.status, body: Data(), fromLiteLLM: fromLiteLLM).unreadable
            }
        } catch let error as HTTPError {
            if case .cancelled = error { throw CancellationError() }
            try Task.checkCancellation()
            if essential { throw mapTransport(error) }
            notes.append("\(name) failed (\(URLCredentials.redacted(in: error.message)))")
            return nil
        }
    }

    /// `1.9 MB`, `64 KB`, `512 bytes` (binary units), for discovery's notes.
    static func byteSize(_ bytes: Int) -> String {
        if bytes >= 1 << 20 { return String(format: "%.1f MB", Double(bytes) / Double(1 << 20)) }
        if bytes >= 1 << 10 { return "\(Int((Double(bytes) / 1024).rounded())) KB" }
        return "\(bytes) bytes"
    }
}

extension OpenAICompatibleEngine.ProbeAnswer {
    /// An answer whose body was not read: its status no longer says anything usable.
    var unreadable: Self { Self(status: 0, body: Data(), fromLiteLLM: fromLiteLLM) }
}

extension Array {
    /// The element of a one-element array, else `nil`.
    var onlyElement: Element? { count == 1 ? first : nil }
}
