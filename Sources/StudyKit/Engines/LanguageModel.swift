import Foundation

// MARK: - What an engine is

/// Whether an engine can serve right now, and if not, why — in words a user can act on.
public enum Availability: Sendable, Equatable {
    /// The engine answered and can take requests.
    case available
    /// The engine cannot serve; `reason` says why and what to do.
    case unavailable(reason: String)

    /// Whether the engine can serve.
    public var isAvailable: Bool { self == .available }
}

/// How many tokens an engine's context window holds, and where that number came from.
///
/// The router budgets instructions, prompt and the response reserve out of this window, so
/// it is read at run time and never hard-coded.
public struct ContextWindow: Sendable, Equatable {
    /// Where the size came from; shown by `studykit engines` so a wrong number can be traced.
    public enum Source: Sendable, Equatable {
        /// Asked the server (for example `GET /props`).
        case discovered(endpoint: String)
        /// The server does not report it; taken from a setting (for example `STUDYKIT_LOCAL_CONTEXT_SIZE`).
        case configured(setting: String)
        /// Neither the server nor a setting gives it: studykit's documented default for such a
        /// server (a gateway), which the router warns about once; `reason` says what to set.
        case assumed(reason: String)
    }

    /// The window, in tokens, shared by the prompt and the response.
    public var tokens: Int
    /// Where ``tokens`` came from.
    public var source: Source

    /// Creates a window.
    public init(tokens: Int, source: Source) {
        self.tokens = tokens
        self.source = source
    }
}

/// A number of tokens, labelled exact (the server's tokenizer) or estimated.
public struct TokenCount: Sendable, Equatable {
    /// How a count was obtained.
    public enum Method: String, Sendable, Equatable {
        /// The engine's own tokenizer counted the text.
        case exact
        /// A conservative estimate: see ``TokenCount/estimate(for:)``.
        case estimate
    }

    /// The number of tokens.
    public var count: Int
    /// Whether ``count`` is exact or an estimate.
    public var method: Method

    /// Creates a count.
    public init(count: Int, method: Method) {
        self.count = count
        self.method = method
    }

    /// The estimate used where no tokenizer is reachable: `ceil(utf8Bytes / 3)`.
    ///
    /// BPE tokenizers for English average about four bytes per token; dividing by three
    /// over-counts on purpose so content fitted with an estimate still fits the real window.
    public static func estimate(for text: String) -> TokenCount {
        TokenCount(count: (text.utf8.count + 2) / 3, method: .estimate)
    }
}

// MARK: - A request and its answer

/// How a model picks its tokens. Part of the cache key through ``GenerationOptions/canonicalText``.
public struct GenerationOptions: Sendable, Hashable {
    /// The sampling strategy.
    public enum Sampling: Sendable, Hashable {
        /// Always the most likely token: reproducible, what tests and caching want.
        case greedy
        /// Random sampling at this temperature (0…2).
        case temperature(Double)
    }

    /// The sampling strategy; greedy by default so equal inputs give equal outputs.
    public var sampling: Sampling
    /// The most tokens the response may use; `nil` leaves it to the server (up to the window).
    public var maximumResponseTokens: Int?
    /// A seed for random sampling, where the server honours one.
    public var seed: Int?

    /// Creates options.
    public init(sampling: Sampling = .greedy, maximumResponseTokens: Int? = nil, seed: Int? = nil) {
        self.sampling = sampling
        self.maximumResponseTokens = maximumResponseTokens
        self.seed = seed
    }

    /// A stable one-line rendering, so two equal options always produce the same cache key.
    public var canonicalText: String {
        let sampling: String
        switch self.sampling {
        case .greedy: sampling = "greedy"
        case .temperature(let value): sampling = "temperature=\(value)"
        }
        let maximum = maximumResponseTokens.map(String.init) ?? "none"
        let seed = seed.map(String.init) ?? "none"
        return "sampling=\(sampling);maximumResponseTokens=\(maximum);seed=\(seed)"
    }
}

/// One generation: instructions (the system message), a prompt, and the JSON Schema the answer must follow.
///
/// The typed layer (`Generable`) renders the schema; this layer only carries its text.
public struct GenerationRequest: Sendable, Hashable {
    /// What the model is told to be and do (sent as the system message).
    public var instructions: String
    /// The user's content (sent as the user message).
    public var prompt: String
    /// A short name for the schema (OpenAI's `json_schema.name`): letters, digits, `_` and `-`.
    public var schemaName: String
    /// The JSON Schema the answer must match, as JSON text; empty for free text.
    public var jsonSchema: String
    /// The schema in the strict form OpenAI-style servers require (all properties required,
    /// `additionalProperties: false`); `nil` to send ``jsonSchema`` without strict mode.
    public var strictJSONSchema: String?
    /// Sampling and limits.
    public var options: GenerationOptions
    /// Whether an in-process engine may keep the previous prompt's shared prefix in its KV cache
    /// instead of processing the whole prompt again. Faster for a run of small items that share
    /// their instructions, but a prompt processed in two batches can round differently from one
    /// processed whole, so greedy answers are then no longer bit-for-bit reproducible: off by
    /// default, and only item rewrites (validated, never cached) turn it on.
    public var reusesPromptPrefix = false

    /// Creates a request.
    public init(
        instructions: String, prompt: String, schemaName: String = "response", jsonSchema: String,
        strictJSONSchema: String? = nil, options: GenerationOptions = GenerationOptions()
    ) {
        self.instructions = instructions
        self.prompt = prompt
        self.schemaName = schemaName
        self.jsonSchema = jsonSchema
        self.strictJSONSchema = strictJSONSchema
        self.options = options
    }
}

/// Tokens spent by one generation.
public struct Usage: Sendable, Equatable {
    /// Where the numbers came from, since not every server reports them while streaming.
    public enum Method: String, Sendable, Equatable {
        /// The server reported them.
        case reported
        /// The server's tokenizer counted the messages (chat-template tokens not included) and the
        /// answer, or for a streamed answer its events counted its tokens.
        case counted
        /// Estimated with ``TokenCount/estimate(for:)``.
        case estimated
    }

    /// Tokens in the prompt (instructions included).
    public var promptTokens: Int
    /// Tokens in the response.
    public var completionTokens: Int
    /// Where the numbers came from.
    public var method: Method

    /// Creates usage figures.
    public init(promptTokens: Int, completionTokens: Int, method: Method = .reported) {
        self.promptTokens = promptTokens
        self.completionTokens = completionTokens
        self.method = method
    }

    /// Both directions together.
    public var totalTokens: Int { promptTokens + completionTokens }
}

/// The model's raw answer: text that should match the request's schema (validated by the typed layer).
public struct RawResponse: Sendable, Equatable {
    /// The generated text.
    public var text: String
    /// Tokens spent.
    public var usage: Usage
    /// The model that answered, as the server names it.
    public var model: String
    /// Why generation stopped (`stop`, `length`, …), if the server said.
    public var finishReason: String?

    /// Creates a response.
    public init(text: String, usage: Usage, model: String, finishReason: String?) {
        self.text = text
        self.usage = usage
        self.model = model
        self.finishReason = finishReason
    }
}

/// One step of a streamed generation.
public enum GenerationEvent: Sendable, Equatable {
    /// All the text generated so far (a growing snapshot, not a delta).
    case partial(String)
    /// The finished answer; its text equals the last snapshot.
    case completed(RawResponse)
}

// MARK: - The protocol

/// How fast an engine reads a prompt and writes an answer, measured on this machine: what an
/// attempt with no record yet is expected to take. A small model on a slow machine reads a
/// prompt several times slower than a fixed guess assumes (68 prompt tokens a second for
/// Qwen2.5-Coder-0.5B on one 2-core machine), and a whole part started on that guess ran into
/// the end of its budget.
public struct GenerationSpeed: Sendable, Equatable {
    public var promptTokensPerSecond: Double
    public var decodeTokensPerSecond: Double

    public init(promptTokensPerSecond: Double, decodeTokensPerSecond: Double) {
        self.promptTokensPerSecond = promptTokensPerSecond
        self.decodeTokensPerSecond = decodeTokensPerSecond
    }

    /// The seconds a prompt of `promptTokens` and an answer of `responseTokens` take.
    public func seconds(promptTokens: Int, responseTokens: Int) -> Double {
        Double(promptTokens) / max(promptTokensPerSecond, 0.001) + Double(responseTokens) / max(decodeTokensPerSecond,
            0.001)
    }
}

/// A language model studykit can route a job to, at the level of JSON text.
///
/// Shaped after Apple's Foundation Models session API: ask whether it is available, how large
/// its window is, how many tokens a text costs, then respond (whole or streamed). The typed
/// `respond<T: Generable>` layer sits on top and validates the text against its schema.
public protocol LanguageModel: Sendable {
    /// Local, remote or builtin.
    var kind: EngineKind { get }
    /// The model's name as configured or as the server reports it.
    var modelName: String { get }
    /// Who answers, as known without contacting the engine: the cache key uses this, so a
    /// lookup made before any engine call and a store made after one use the same identity.
    var identity: String { get }
    /// Whether the engine can serve now; never throws, the reason says what is wrong.
    func availability() async -> Availability
    /// The context window, read from the server or from configuration. Throws ``EngineError``.
    func contextSize() async throws -> ContextWindow
    /// How many tokens `text` costs: exact where the engine can tokenize, else an estimate. Throws ``EngineError``.
    func tokenCount(for text: String) async throws -> TokenCount
    /// The token ids of `text`, or `nil` when the engine cannot tokenize. Throws ``EngineError``.
    func tokenize(_ text: String) async throws -> [Int]?
    /// The text of `tokens`, or `nil` when the engine cannot detokenize. Throws ``EngineError``.
    func detokenize(_ tokens: [Int]) async throws -> String?
    /// The tokens the engine's chat template adds around a system and a user message, measured
    /// without a server call, or `nil` when the engine cannot tell (a server that templates on
    /// its side): the budget then holds back ``templateAllowance``. Throws ``EngineError``.
    func templateTokens() async throws -> Int?
    /// Generates one answer. An answer cut off at the response limit is not an error here: it
    /// comes back with `finishReason` `"length"` and the usage it cost, and the caller (the
    /// router) rejects it after counting it. Throws ``EngineError``.
    func respond(to request: GenerationRequest) async throws -> RawResponse
    /// Generates one answer as growing snapshots, then the completed answer. The stream fails with ``EngineError``.
    func streamResponse(to request: GenerationRequest) -> AsyncThrowingStream<GenerationEvent, any Error>
    /// Whether the router always streams this engine's answers, to stop one that starts repeating
    /// itself: true where streaming costs nothing over a whole answer (an in-process model) or
    /// where only a closed stream stops the work of an abandoned attempt (a model server).
    /// `false` by default.
    var streamsCheaply: Bool { get }
    /// The languages the engine reads and writes; the router skips an engine that does not
    /// support the document's language. By default ``LanguageSupport/defaultFor(_:)`` its kind.
    var languages: LanguageSupport { get }
    /// What a report shows about the engine: the model as the user knows it, the server
    /// dialect, how it was built. Never generates, and asks a server nothing new.
    func describe() async -> EngineDescription
    /// The requests this engine sent to a server in this process, for `--json` `usage`; `nil`
    /// for engines that make none.
    func traffic() async -> EngineTraffic?
    /// How many requests the engine's server serves at once, from its discovery (asked once,
    /// cached with the rest of it); `nil` for an engine that is no server (the default).
    func concurrency() async -> ServerConcurrency?
    /// How fast the engine reads a prompt and writes an answer on this machine, from the work it
    /// has done in this process; with `calibrate`, measured now when nothing is yet (a short
    /// prompt and a few tokens, a second or so on a small model). `nil` when it cannot tell
    /// (the default: a server's speed is not the client's to measure).
    func measuredSpeed(calibrate: Bool) async -> GenerationSpeed?
    /// The most seconds one generation may take, retries included, when the engine bounds it
    /// (a server's request deadline); `nil` by default. A quota reservation expires after it.
    var generationDeadline: TimeInterval? { get }
}

/// What one engine sent to its server in a run.
public struct EngineTraffic: Sendable, Equatable {
    /// HTTP requests, discovery and retries included.
    public var requests: Int
    /// Whether the server's discovery came from the SQLite cache; `nil` when none was needed.
    public var discoveryFromCache: Bool?

    /// Creates a record.
    public init(requests: Int, discoveryFromCache: Bool?) {
        self.requests = requests
        self.discoveryFromCache = discoveryFromCache
    }
}

/// How an engine describes itself in a report (`studykit engines`).
public struct EngineDescription: Sendable, Equatable {
    /// The model as the user knows it: a name, or the file an in-process engine loads.
    public var model: String
    /// The server dialect (`llama-cpp-python`, `openai`, …), when the engine talks to a server
    /// that has answered; `nil` otherwise.
    public var dialect: String?
    /// How the engine's own code was built, where that decides what it can run on (for llama.cpp
    /// in process, the CPU features it was compiled with); `nil` otherwise.
    public var build: String?
    /// How the answer's shape is sent to a server (`grammar` or `response_format`), and why.
    public var answerShape: String?
    /// Where the server's discovery came from (asked now, or the cache and how old).
    public var discovery: String?
    /// The server's tokenizer endpoints.
    public var tokenizer: String?
    /// Requests the server serves at once, and how that is known (`1 (serializing server)`).
    public var concurrency: String?
    /// What discovery could not learn, one line a probe (a probe too large, timed out, not JSON).
    public var discoveryNotes: [String] = []

    /// Creates a description.
    public init(model: String, dialect: String? = nil, build: String? = nil) {
        self.model = model
        self.dialect = dialect
        self.build = build
    }
}

extension LanguageModel {
    /// By default what engines of this kind support: local English, remote and builtin any.
    public var languages: LanguageSupport { .defaultFor(kind) }

    /// By default the engine does not bound a generation itself.
    public var generationDeadline: TimeInterval? { nil }

    /// By default streaming is only used when someone watches (`--stream`).
    public var streamsCheaply: Bool { false }

    /// By default the model's name, for engines whose name is known up front.
    public var identity: String { modelName }

    /// Engines without a tokenizer estimate.
    public func tokenCount(for text: String) async throws -> TokenCount { .estimate(for: text) }
    /// Engines without a tokenizer return `nil`.
    public func tokenize(_ text: String) async throws -> [Int]? { nil }
    /// Engines without a tokenizer return `nil`.
    public func detokenize(_ tokens: [Int]) async throws -> String? { nil }
    /// Engines that template on a server's side return `nil`.
    public func templateTokens() async throws -> Int? { nil }

    /// By default the model's name, with no dialect and no build information.
    public func describe() async -> EngineDescription { EngineDescription(model: modelName) }

    /// By default no server traffic.
    public func traffic() async -> EngineTraffic? { nil }

    /// By default no server: the caller decides (``JobsChoice/choose(explicit:concurrency:kind:)``).
    public func concurrency() async -> ServerConcurrency? { nil }

    /// By default nothing measured.
    public func measuredSpeed(calibrate: Bool) async -> GenerationSpeed? { nil }

    /// Engines that cannot stream answer in one step: one snapshot, then the answer.
    public func streamResponse(to request: GenerationRequest) -> AsyncThrowingStream<GenerationEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let response = try await respond(to: request)
                    continuation.yield(.partial(response.text))
                    continuation.yield(.completed(response))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
