#if LlamaCpp
internal import CLlama
import Dispatch
import Foundation
import Synchronization

// The in-process engine's calls into llama.cpp for one loaded model (``LlamaEngine`` holds the
// engine, the runtime that owns a session, and the prefix store): tokens, the chat template, the
// grammar, decoding and sampling. llama.cpp is wrapped by this file and LlamaEngine.swift only.

// MARK: - A loaded model and its context

/// A model, its vocabulary and one context. Used only inside ``LlamaRuntime``'s mutex.
final class LlamaSession {
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
                reason: "llama.cpp could not load the model '\(path)': the file may be truncated or corrupt, or its "
                    + "architecture unknown to this llama.cpp; set STUDYKIT_LOCAL_MODEL to another .gguf file or "
                    + "re-run scripts/setup")
        }
        guard let vocab = llama_model_get_vocab(model) else {
            llama_model_free(model)
            throw EngineError.unavailable(reason: "the model '\(path)' has no vocabulary; set STUDYKIT_LOCAL_MODEL to "
                + "another .gguf file")
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
                reason: "llama.cpp could not create a \(tokens)-token context for '\(path)' (out of memory?); lower "
                    + "STUDYKIT_LOCAL_CONTEXT_SIZE")
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
                tokens: tokens, source: .configured(setting: "the in-process default (set STUDYKIT_LOCAL_CONTEXT_SIZE "
                    + "to change it)"))
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
                    llama_tokenize(vocab, chars.baseAddress, Int32(bytes.count), &tokens, Int32(capacity), addSpecial,
                        parseSpecial)
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
    private func templatedPrompt(_ request: GenerationRequest) throws -> (tokens: [llama_token],
        instructionTokens: Int) {
        let systemMark = "@@studykit-system-content@@"
        let userMark = "@@studykit-user-content@@"
        let templated = try applyTemplate(system: systemMark, user: userMark)
        if let system = templated.range(of: systemMark), let user = templated.range(of: userMark),
            system.upperBound <= user.lowerBound
        {
            var tokens = try tokenize(String(templated[..<system.lowerBound]), addSpecial: true, parseSpecial: true)
            tokens += try tokenize(request.instructions, addSpecial: false, parseSpecial: false)
            tokens += try tokenize(String(templated[system.upperBound..<user.lowerBound]), addSpecial: false,
                parseSpecial: true)
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
        throw EngineError.unavailable(reason: "the model's chat template is not one llama.cpp can apply; use another "
            + ".gguf file")
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
                    "llama.cpp refused the grammar built from the '\(request.schemaName)' schema; use another engine "
                        + "with --engine"
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
        while request.reusesPromptPrefix, keep < min(cachedTokens.count, prompt.count - 1),
            cachedTokens[keep] == prompt[keep] {
            keep += 1
        }
        let memory = llama_get_memory(context)
        if keep == 0 || !llama_memory_seq_rm(memory, 0, llama_pos(keep), -1) {
            llama_memory_clear(memory, true)
            keep = 0
        }
        // Instructions this process has not read yet (the first item of a kind in a run): their
        // keys and values from an earlier run's file, or read now and kept for the next run.
        if let prefixes, keep < instructionTokens, instructionTokens >= PrefixStore.minimumTokens,
            instructionTokens < prompt.count {
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
            if !draft.isEmpty, !cachedTokens.isEmpty,
                !llama_memory_seq_rm(memory, 0, llama_pos(cachedTokens.count), -1) {
                llama_memory_clear(memory, true)
                cachedTokens = []
            }
        }
        while generated < limit {
            if cancel.isCancelled { throw CancellationError() }
            guard let logits = llama_get_logits_ith(context, row) else {
                throw EngineError.invalidOutput(["llama.cpp produced no logits after \(generated) tokens"])
            }
            let token = choose(logits: logits, candidates: candidates, greedy: greedy, grammar: grammar,
                chooser: chooser)
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
                        throw EngineError.unavailable(reason: "llama.cpp could not drop the draft tokens from its "
                            + "cache; try again")
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
                let proposed = greedy ? LlamaSupport.draft(after: cachedTokens + [token],
                    maximum: min(draftTokens, room)) : []
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
            guard let chain =
                llama_sampler_chain_init(llama_sampler_chain_default_params()) else { throw Self.samplerFailure }
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
        guard timed.promptTokens >= 32, timed.decodedTokens >= 4, timed.promptSeconds > 0,
            timed.decodeSeconds > 0 else { return nil }
        return GenerationSpeed(
            promptTokensPerSecond: Double(timed.promptTokens) / timed.promptSeconds,
            decodeTokensPerSecond: Double(timed.decodedTokens) / timed.decodeSeconds)
    }

    /// Measures the speeds with a 48-token prompt and 4 decoded tokens, after one untimed token
    /// that pages the weights in (every later decode touches all of them). About a second for a
    /// 0.5B model on 2 cores. Leaves an empty KV cache, so the next prompt is read whole.
    func calibrate(cancel: LlamaCancellation) throws {
        let text = String(repeating: "The cell copies its DNA in interphase, then divides into two daughter cells. ",
            count: 8)
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
            throw EngineError.unavailable(reason: "llama.cpp failed to decode \(reading) (llama_decode returned "
                + "\(status)); try again")
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

#endif
