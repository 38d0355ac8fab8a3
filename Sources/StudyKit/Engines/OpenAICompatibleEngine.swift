import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - The public engine and its options

// What llama-cpp-python 0.3.36's server exposes (read from its llama_cpp/server/app.py and
// checked against a running server):
// - `POST /v1/chat/completions` validates `response_format.type` as "text" | "json_object"; a
//   `schema` beside "json_object" becomes a grammar. OpenAI's "json_schema" form is refused with
//   a validation error wrapped as HTTP 500 (so it must not be sent, or it would be retried).
// - Streaming: `data: {chunk}` lines then `data: [DONE]`; the last content chunk has an empty
//   delta and `finish_reason`; no chunk carries `usage` (`stream_options` is ignored); each
//   content chunk carries one token. A prompt over the window is answered 200 with an empty
//   event stream (the error is raised after the head went out): no text, no finish, no `[DONE]`.
// - `POST /extras/tokenize` {input} → {tokens}, `/extras/tokenize/count` → {count},
//   `/extras/detokenize` {tokens} → {text}; `GET /v1/models` lists the alias; n_ctx is not
//   exposed anywhere (no /props), so the window comes from configuration.
// - `--api_key`: every route needs `Authorization: Bearer <key>`; otherwise 401
//   `{"detail":"Invalid API key"}`. An unknown route is 404 before authentication.
// - A prompt over the window: 400 `context_length_exceeded` with both numbers in the message.

/// A local or remote engine speaking OpenAI's `POST /v1/chat/completions`.
///
/// One type serves both kinds: a `.local` engine refuses any URL that is not loopback before
/// it connects (the privacy promise); a `.remote` engine sends its API key as a bearer token to
/// its own host only (redirects are never followed). What differs between servers — window,
/// tokenizer, schema format — is discovered once per instance and cached.
public struct OpenAICompatibleEngine: LanguageModel {
    /// How failed exchanges are retried: connection errors, 408, 409, 429 (not quota) and 5xx.
    public struct RetryPolicy: Sendable, Equatable {
        /// Retries after the first attempt.
        public var maxRetries: Int
        /// The first backoff in seconds; doubled each retry and scaled by a jitter of 0.5…1.5.
        public var baseDelay: Double
        /// The longest `Retry-After` honoured, in seconds; a longer one fails at once with
        /// ``EngineError/rateLimited(retryAfter:)`` so the router can fall back instead of waiting.
        public var retryAfterCap: Double

        /// Creates a policy; the defaults are 2 retries, 0.5 s, 20 s.
        public init(maxRetries: Int = 2, baseDelay: Double = 0.5, retryAfterCap: Double = 20) {
            self.maxRetries = maxRetries
            self.baseDelay = baseDelay
            self.retryAfterCap = retryAfterCap
        }
    }

    /// The waiting, jitter and clock that retries use, injected so tests of retries neither
    /// wait nor flake.
    public struct RetryTiming: Sendable {
        /// Waits between retries.
        public var sleep: @Sendable (Duration) async throws -> Void
        /// A number in 0..<1 for jitter.
        public var random: @Sendable () -> Double
        /// The wall clock, for `Retry-After` given as an HTTP date.
        public var now: @Sendable () -> Date

        /// Creates a timing.
        public init(
            sleep: @escaping @Sendable (Duration) async throws -> Void,
            random: @escaping @Sendable () -> Double, now: @escaping @Sendable () -> Date
        ) {
            self.sleep = sleep
            self.random = random
            self.now = now
        }

        /// Real sleeping, system randomness, the system clock.
        public static let live = RetryTiming(
            sleep: { try await Task.sleep(for: $0) }, random: { Double.random(in: 0..<1) }, now: { Date() })
    }

    /// Local or remote.
    public let kind: EngineKind
    /// The server, model, key and settings.
    public let endpoint: EngineConfiguration.Endpoint

    /// The endpoint's languages, else the default of the kind (local: English; remote: any).
    public var languages: LanguageSupport { endpoint.languages ?? .defaultFor(kind) }
    /// Seconds a generation may take, retries included.
    public let deadline: TimeInterval

    /// ``deadline``: a generation that has not ended by then was stopped.
    public var generationDeadline: TimeInterval? { deadline }
    /// Seconds allowed to connect.
    public let connectTimeout: TimeInterval
    /// Seconds allowed for each discovery probe (the request deadline unless given).
    public let discoveryDeadline: TimeInterval
    /// The retry rules.
    public let retryPolicy: RetryPolicy
    let transport: any HTTPTransport
    let timing: RetryTiming
    let cache = DiscoveryCache()
    /// Where discovery is kept between runs (the SQLite cache); `nil` asks the server every run.
    let discoveryStore: (any DiscoveryStoring)?
    let tokenizations = TokenizationMemo<[Int]>()
    let counts = TokenizationMemo<Int>()
    let requests = RequestCounter()
    /// How fast the server read and wrote in this process (``ServerSpeedMeter``).
    let speeds = ServerSpeedMeter()

    /// Creates an engine. Nothing is contacted until a method is called.
    public init(
        kind: EngineKind, endpoint: EngineConfiguration.Endpoint, deadline: TimeInterval = 120,
        connectTimeout: TimeInterval = 5, discoveryDeadline: TimeInterval? = nil,
        retryPolicy: RetryPolicy = RetryPolicy(),
        transport: any HTTPTransport = CurlTransport(), timing: RetryTiming = .live,
        discoveryStore: (any DiscoveryStoring)? = nil
    ) {
        self.kind = kind
        self.endpoint = endpoint
        self.deadline = deadline
        self.connectTimeout = connectTimeout
        // llama-cpp-python answers even `GET /v1/models` only once the generation it is running
        // releases its lock: a busy server must be waited for within the request deadline. A
        // dead one still fails fast, on the 5-second connect timeout.
        self.discoveryDeadline = discoveryDeadline ?? deadline
        self.retryPolicy = retryPolicy
        self.transport = transport
        self.timing = timing
        self.discoveryStore = discoveryStore
    }

    /// The configured model, else the one model the server lists, else `server default`.
    public var modelName: String {
        endpoint.model ?? cache.discoveredModel ?? "server default"
    }

    /// The URL and the configured model: known before discovery, so it never changes during a run
    /// (a model name the server reports only after discovery must not change the cache key).
    /// Credentials in the URL are left out: the identity is stored in the attempt record.
    public var identity: String {
        URLCredentials.display(endpoint.url) + "|" + (endpoint.model ?? "server default")
    }

    /// The dialect, once known (configured or discovered).
    public func dialect() async throws -> ServerDialect { try await discovery().dialect }

    /// The model name and the dialect an earlier call discovered (a report asks for availability
    /// first); asks the server nothing.
    public func describe() async -> EngineDescription {
        var description = EngineDescription(model: modelName, dialect: cache.discoveredDialect?.rawValue)
        if let known = cache.known {
            description.answerShape = known.jsonObjectSchema.map {
                "JSON Schema in 'response_format' as json_object + schema (\($0))"
            } ?? known.grammar.summary
            description.discoveryNotes = known.notes
            let age = Int(max(0, timing.now().timeIntervalSince(known.discoveredAt)) / 60)
            description.discovery = known.fromStore
                ? "from the cache, \(age) min old (kept a day; studykit engines --refresh asks "
                    + "again)" : "asked the server now"
            if !known.dialect.tokenizerEndpoints.isEmpty {
                description.tokenizer = known.dialect.tokenizerEndpoints.joined(separator: ", ")
            }
            let concurrency = known.concurrency
            description.concurrency = concurrency.requests.map { "\($0) (\(concurrency.source.rawValue))" }
                ?? (known.deployments.map {
                    "not reported (the gateway serves the model with \($0) deployment\($0 == 1 ? "" : "s"))"
                } ?? "not reported")
        }
        return description
    }

    /// What the server serves at once, from its discovery (this run's, the SQLite cache's, or
    /// asked now); unreported when the server cannot be reached (the run then falls back anyway).
    public func concurrency() async -> ServerConcurrency? {
        guard let found = try? await discovery() else { return ServerConcurrency(requests: nil, source: .unreported) }
        return found.concurrency
    }

    /// The HTTP requests this engine made, and whether its discovery came from the cache.
    public func traffic() async -> EngineTraffic? {
        let made = requests.value
        guard made > 0 else { return nil }
        return EngineTraffic(requests: made, discoveryFromCache: cache.known?.fromStore)
    }

    /// Available when the server answers `GET /v1/models` (with the key, for a remote) and its
    /// dialect is known; otherwise the reason, for example a refused connection or a bad key.
    public func availability() async -> Availability {
        do {
            _ = try await discovery()
            return .available
        } catch let error as EngineError {
            return .unavailable(reason: error.redacted(Redactor(endpoint.apiKey)).message)
        } catch {
            return .unavailable(reason: "the \(kind.rawValue) engine at \(URLCredentials.display(endpoint.url)) "
                + "failed: \(Redactor(endpoint.apiKey).clean(String(describing: error)))")
        }
    }

    /// The window a gateway is assumed to have when neither its model info nor a setting gives
    /// one: small enough for the models a gateway usually fronts, so a prompt fitted to it is
    /// not refused; ``ContextWindow/Source/assumed(reason:)`` makes the router warn.
    public static let gatewayDefaultWindow = 4096

    /// The window from the server (llama-server `/props`, Ollama `/api/show`, LiteLLM
    /// `/v1/model/info`), else from the endpoint's setting, else for a gateway
    /// ``gatewayDefaultWindow``. Throws ``EngineError/unavailable(reason:)`` when none applies.
    public func contextSize() async throws -> ContextWindow {
        try await redactingErrors {
            let found = try await discovery()
            if let window = found.window { return window }
            if let tokens = endpoint.contextSize {
                return ContextWindow(tokens: tokens, source: .configured(setting: endpoint.contextSizeSetting))
            }
            if found.dialect.isGateway {
                return ContextWindow(
                    tokens: Self.gatewayDefaultWindow,
                    source: .assumed(
                        reason: "studykit's default for a gateway whose model info has no max_input_tokens; set "
                            + "\(endpoint.contextSizeSetting) to the model's window"))
            }
            throw EngineError.unavailable(
                reason: "the \(kind.rawValue) engine at \(URLCredentials.display(endpoint.url)) "
                    + "(\(found.dialect.rawValue)) does not report its context window; set "
                    + "\(endpoint.contextSizeSetting) to the server's context size (n_ctx)")
        }
    }

    /// Exact with llama-server and llama-cpp-python, else ``TokenCount/estimate(for:)``.
    public func tokenCount(for text: String) async throws -> TokenCount {
        try await redactingErrors {
            try await onCurrentServer { found in try await tokenCount(for: text, dialect: found.dialect) }
        }
    }

    func tokenCount(for text: String, dialect: ServerDialect) async throws -> TokenCount {
        switch dialect {
        case .llamaCppPython:
            if let known = counts.value(of: text) { return TokenCount(count: known, method: .exact) }
            let body = try await fetchJSON("POST", "/extras/tokenize/count",
                OpenAIWire.tokenizeBody(text, model: endpoint.model))
            guard let count = OpenAIWire.integer((try OpenAIWire.object(body,
                endpoint: "/extras/tokenize/count"))["count"]) else {
                throw invalidAnswer("/extras/tokenize/count", "has no 'count'")
            }
            counts.remember(count, of: text)
            return TokenCount(count: count, method: .exact)
        case .llamaServer:
            let tokens = try await tokenize(text) ?? []
            return TokenCount(count: tokens.count, method: .exact)
        case .ollama, .openAI, .liteLLM:
            return .estimate(for: text)
        }
    }

    /// Token ids from the server's tokenizer, or `nil` for dialects without one.
    ///
    /// The last few answers are kept for the run: `import` measures the same document against
    /// the same engine for the whole-kit decision and again for each request the router makes,
    /// and a long document is the costliest thing to send to a tokenizer.
    public func tokenize(_ text: String) async throws -> [Int]? {
        if let known = tokenizations.value(of: text) { return known }
        let tokens = try await tokenizeOnServer(text)
        if let tokens { tokenizations.remember(tokens, of: text) }
        return tokens
    }

    func tokenizeOnServer(_ text: String) async throws -> [Int]? {
        try await redactingErrors {
            try await onCurrentServer { found in try await tokenizeOnServer(text, dialect: found.dialect) }
        }
    }

    func tokenizeOnServer(_ text: String, dialect: ServerDialect) async throws -> [Int]? {
        let path: String
        let payload: Data
        switch dialect {
        case .llamaCppPython:
            (path, payload) = ("/extras/tokenize", try OpenAIWire.tokenizeBody(text, model: endpoint.model))
        case .llamaServer:
            (path, payload) = ("/tokenize", try OpenAIWire.encode(["content": text]))
        case .ollama, .openAI, .liteLLM:
            return nil
        }
        let body = try await fetchJSON("POST", path, payload)
        guard let tokens = OpenAIWire.tokenList((try OpenAIWire.object(body, endpoint: path))["tokens"]) else {
            throw invalidAnswer(path, "has no 'tokens' list")
        }
        return tokens
    }

    /// Text for token ids from the server's tokenizer, or `nil` for dialects without one.
    public func detokenize(_ tokens: [Int]) async throws -> String? {
        try await redactingErrors {
            let path: String
            let field: String
            var payload: [String: Any] = ["tokens": tokens]
            switch try await discovery().dialect {
            case .llamaCppPython:
                (path, field) = ("/extras/detokenize", "text")
                if let model = endpoint.model { payload["model"] = model }
            case .llamaServer:
                (path, field) = ("/detokenize", "content")
            case .ollama, .openAI, .liteLLM:
                return nil
            }
            let body = try await fetchJSON("POST", path, try OpenAIWire.encode(payload))
            guard let text = (try OpenAIWire.object(body, endpoint: path))[field] as? String else {
                throw invalidAnswer(path, "has no '\(field)'")
            }
            return text
        }
    }

    /// A server keeps decoding a plain request whose client went away, up to its response limit,
    /// and the next request waits behind it; a streamed one stops when the stream is closed. So
    /// the router streams here too: an answer that starts repeating itself is cut at once, and an
    /// attempt abandoned at the time budget frees the server (llama-cpp-python, measured: the next
    /// request answered in 2.0 s after a closed stream, 26.8 s after a closed plain request).
    public var streamsCheaply: Bool { true }

    /// The server's speeds measured on its streamed answers in this process (``ServerSpeedMeter``);
    /// a server is never asked to calibrate.
    public func measuredSpeed(calibrate: Bool) async -> GenerationSpeed? { speeds.speed }

    /// One chat completion constrained to the request's schema.
    ///
    /// An answer cut at the response limit is returned, with `finishReason` `"length"` and its
    /// usage, for the caller to reject: the tokens it cost still count against a quota.
    /// Throws ``EngineError``: `.invalidOutput` when the body is not a completion, and the
    /// mapped HTTP failures.
    public func respond(to request: GenerationRequest) async throws -> RawResponse {
        try await redactingErrors {
            try await onCurrentServer { found in try await respond(to: request, on: found) }
        }
    }

    func respond(to request: GenerationRequest, on found: Discovery) async throws -> RawResponse {
        let path = "/v1/chat/completions"
        let body = try await shaped(request, on: found, stream: false) { payload in
            try await fetchJSON("POST", path, payload, deadline: deadline, retries: retryPolicy.maxRetries)
        }
        return try await rawResponse(body, request: request, dialect: found.dialect, path: path)
    }

    /// A whole completion's body as an answer, its usage as reported or counted.
    func rawResponse(_ body: Data, request: GenerationRequest, dialect: ServerDialect,
        path: String) async throws -> RawResponse {
        let completion = try OpenAIWire.completion(body, endpoint: path)
        guard let text = completion.text else {
            throw EngineError.invalidOutput([
                completion.refusal.map { "the model refused: \(Redactor(endpoint.apiKey).clean($0))" }
                    ?? "the answer from \(shownURL(path)) has no message content"
            ])
        }
        let usage: Usage
        if let reported = completion.usage {
            usage = reported
        } else {
            usage = try await countedUsage(request, text: text, dialect: dialect)
        }
        return RawResponse(
            text: text, usage: usage, model: completion.model ?? modelName, finishReason: completion.finishReason)
    }

    /// The same completion streamed over server-sent events: a growing snapshot per chunk, then
    /// the completed answer. Usage comes from the final chunk when the server sends it
    /// (`stream_options.include_usage`); llama-cpp-python does not, so it is counted with the
    /// server's tokenizer, or estimated where there is none (``Usage/method`` says which).
    public func streamResponse(to request: GenerationRequest) -> AsyncThrowingStream<GenerationEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream<GenerationEvent, any Error>.makeStream()
        let task = Task {
            do {
                try await redactingErrors {
                    try await onCurrentServer { found in try await runStream(request, on: found, into: continuation) }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    func runStream(
        _ request: GenerationRequest, on found: Discovery,
        into continuation: AsyncThrowingStream<GenerationEvent, any Error>.Continuation
    ) async throws {
        let path = "/v1/chat/completions"
        // A whole answer that came some other way than as a stream: one snapshot, then the answer.
        func deliver(_ answer: RawResponse) {
            continuation.yield(.partial(answer.text))
            continuation.yield(.completed(answer))
        }
        let sent = timing.now()
        var firstToken: Date?
        let response = try await shaped(request, on: found, stream: true) { payload in
            try await exchange("POST", path, payload, deadline: deadline, retries: retryPolicy.maxRetries,
                accept: "text/event-stream")
        }
        // A server that ignores `stream` answers with one completion: read it as the plain call does.
        if response.head.header("content-type")?.lowercased().contains("application/json") == true {
            let body: Data
            do { body = try await collect(response.body,
                cap: 32 << 20) } catch let error as HTTPError { throw mapTransport(error) }
            return deliver(try await rawResponse(body, request: request, dialect: found.dialect, path: path))
        }

        var parser = EventStreamParser()
        var reader = ChunkReader()
        do {
            for try await chunk in response.body {
                for payload in parser.feed(chunk) {
                    if let snapshot = try reader.read(payload, endpoint: shownURL(path),
                        redactor: Redactor(endpoint.apiKey)) {
                        if firstToken == nil { firstToken = timing.now() }
                        continuation.yield(.partial(snapshot))
                    }
                }
            }
        } catch let error as HTTPError {
            if case .timedOut = error { throw mapTransport(error) }
            throw EngineError.truncated(
                "the answer from \(shownURL(path)) broke off after \(reader.text.count) characters (\(error.message)); "
                    + "try again")
        }
        for payload in parser.finish() {
            if let snapshot = try reader.read(payload, endpoint: shownURL(path), redactor: Redactor(endpoint.apiKey)) {
                continuation.yield(.partial(snapshot))
            }
        }
        let finished = timing.now()
        if !reader.sawEvent {
            // Nothing at all came back: how llama-cpp-python answers a streamed prompt over its
            // window. The same request asked plainly gets the server's own error (the window it
            // names is rediscovered from it), or the answer if the silence was a glitch.
            return deliver(try await respond(to: request, on: found))
        }
        guard reader.sawDone || reader.finishReason != nil else {
            throw EngineError.truncated(
                "the answer from \(shownURL(path)) ended after \(reader.text.count) characters before the model "
                    + "finished; try again")
        }
        let usage: Usage
        if let reported = reader.usage {
            usage = reported
        } else {
            usage = try await countedUsage(request, text: reader.text, tokensStreamed: reader.contentEvents,
                dialect: found.dialect)
        }
        if let firstToken {
            speeds.record(
                promptTokens: usage.promptTokens, untilFirstToken: firstToken.timeIntervalSince(sent),
                answerTokens: usage.completionTokens, writing: finished.timeIntervalSince(firstToken))
        }
        continuation.yield(
            .completed(
                RawResponse(
                    text: reader.text, usage: usage, model: reader.model ?? modelName,
                    finishReason: reader.finishReason)))
    }

    /// Usage when the server reported none: the tokenizer's count, or the documented estimate.
    ///
    /// The answer is already here, so a count that fails (a server busy with other generations
    /// lets `/tokenize` wait past its deadline) falls back to the estimate instead of losing it.
    ///
    /// A streamed answer's tokens are its content events (`tokensStreamed`, one per token from
    /// llama.cpp's servers), so only the prompt is sent to the tokenizer.
    func countedUsage(
        _ request: GenerationRequest, text: String, tokensStreamed: Int? = nil, dialect: ServerDialect
    ) async throws -> Usage {
        let promptText = request.instructions + "\n" + request.prompt
        let estimated = Usage(
            promptTokens: TokenCount.estimate(for: promptText).count,
            completionTokens: tokensStreamed ?? TokenCount.estimate(for: text).count, method: .estimated)
        guard dialect.canTokenize else { return estimated }
        do {
            let prompt = try await tokenCount(for: promptText)
            let completion = if let tokensStreamed { tokensStreamed } else { try await tokenCount(for: text).count }
            return Usage(promptTokens: prompt.count, completionTokens: completion, method: .counted)
        } catch {
            try Task.checkCancellation()
            return estimated
        }
    }

    /// Sends `request` shaped for the server: studykit's GBNF where discovery found the
    /// server takes `grammar`, else the schema as `response_format`. A server that refuses the
    /// grammar (an error naming it) gets the same request with `response_format` at once, and
    /// the refusal is remembered, for this run and in the cache, so later runs skip the grammar.
    /// Likewise a server that refuses OpenAI's `json_schema` (llama-cpp-python behind a gateway:
    /// "Input should be 'text' or 'json_object'") gets llama.cpp's `json_object` + `schema`.
    func shaped<T>(
        _ request: GenerationRequest, on found: Discovery, stream: Bool, send: (Data) async throws -> T
    ) async throws -> T {
        let model = resolvedModel(found)
        let grammar = found.grammar.accepts ? Self.grammar(for: request) : nil
        let objectForm = found.jsonObjectSchema != nil
        do {
            return try await send(
                try OpenAIWire.chatBody(
                    request, model: model, dialect: found.dialect, grammar: grammar, stream: stream,
                    jsonObjectSchema: objectForm))
        } catch let error as EngineError {
            guard case .http(let status, let message) = error else { throw error }
            if grammar != nil, message.lowercased().contains("grammar") {
                recordGrammarRefused(found, reason: "http \(status): \(message)")
                return try await send(
                    try OpenAIWire.chatBody(
                        request, model: model, dialect: found.dialect, grammar: nil, stream: stream,
                        jsonObjectSchema: objectForm))
            }
            guard grammar == nil, !objectForm, Self.refusesJSONSchema(message) else { throw error }
            recordJSONSchemaRefused(found, reason: "http \(status)")
            return try await send(
                try OpenAIWire.chatBody(request, model: model, dialect: found.dialect, grammar: nil, stream: stream,
                    jsonObjectSchema: true))
        }
    }

    /// The GBNF the in-process engine decodes under, or `nil` for free text and for a schema the
    /// converter does not cover (that request then carries `response_format`).
    static func grammar(for request: GenerationRequest) -> String? {
        guard !request.jsonSchema.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return try? GrammarConverter.grammar(forJSONSchema: request.jsonSchema)
    }

    /// Runs `work` against what discovery knows. When the server answers in a way that says it
    /// changed since a discovery taken from the cache — a 404 on an endpoint it had, a model it
    /// no longer serves — the record is forgotten and `work` runs once more against a new
    /// discovery. A window smaller than the one the request was budgeted for (a server restarted
    /// with another `n_ctx`, or a configured size the server does not have) is rediscovered and
    /// recorded, from the server's own error where it reports its window nowhere else
    /// (llama-cpp-python); the request still fails, for the router to fit or fall back.
    func onCurrentServer<T>(_ work: (Discovery) async throws -> T) async throws -> T {
        let found = try await discovery()
        do {
            return try await work(found)
        } catch let error as EngineError {
            if case .contextExceeded(_, let window) = error {
                try? await learnWindow(window, after: found)
                throw error
            }
            guard found.fromStore, Self.saysServerChanged(error) else { throw error }
            forgetDiscovery()
            return try await work(try await discovery())
        }
    }

    /// Rediscovers after a context error that names the server's window, keeping `tokens` as
    /// the discovered window when the server reports none (or another) itself.
    func learnWindow(_ tokens: Int, after found: Discovery) async throws {
        let used = found.window?.tokens ?? endpoint.contextSize
        guard tokens > 0, used != tokens else { return }
        forgetDiscovery()
        var fresh = try await discovery()
        guard fresh.window?.tokens != tokens else { return }
        fresh.window = ContextWindow(tokens: tokens, source: .discovered(endpoint: "the server's context-length error"))
        cache.replace(with: fresh)
        discoveryStore?.save(discoveryKey, StoredDiscovery(payload: fresh.payload, discoveredAt: fresh.discoveredAt))
    }

    /// Whether an error says the server does not take OpenAI's `json_schema` response format
    /// (llama-cpp-python: "Input should be 'text' or 'json_object'", passed on by a gateway).
    static func refusesJSONSchema(_ message: String) -> Bool {
        let text = message.lowercased()
        return text.contains("json_schema") && (text.contains("response_format") || text.contains("json_object"))
    }

    static func saysServerChanged(_ error: EngineError) -> Bool {
        switch error {
        case .http(let status, let message):
            if status == 404 { return true }
            let text = message.lowercased()
            return (400..<500).contains(status) && text.contains("model")
                && (text.contains("not found") || text.contains("does not exist") || text.contains("unknown"))
        default: return false
        }
    }

    func resolvedModel(_ found: Discovery) -> String? {
        endpoint.model ?? (found.servedModels.count == 1 ? found.servedModels[0] : nil)
    }

    func invalidAnswer(_ path: String, _ problem: String) -> EngineError {
        .invalidOutput(["the answer from \(shownURL(path)) \(problem)"])
    }
}
