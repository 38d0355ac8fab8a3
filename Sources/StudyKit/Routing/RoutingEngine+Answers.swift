import Foundation

// MARK: - Answers: what is kept of one, the checks every answer passes, the streamed call

extension RoutingEngine {
    /// Whether an answer that did not validate whole must be refused whole rather than judged
    /// item by item: it is in the wrong language or script, or it obeyed instructions written in
    /// the material (checked on its JSON, as it may not even read as its type).
    static func refusedWhole(json: JSONValue, language: String, injected: InjectedInstructions) -> Bool {
        !LanguageRule.issues(in: json, language: language).isEmpty
            || !LanguageRule.scriptIssues(in: json, material: injected.stripped).isEmpty
            || !injected.issues(in: json).isEmpty
    }

    /// The first `bytes` UTF-8 bytes of `text` (all of it when it is shorter), on a character boundary.
    static func prefix(of text: String, bytes: Int) -> String {
        let utf8 = text.utf8
        guard bytes < utf8.count else { return text }
        return String(decoding: utf8.prefix(bytes), as: UTF8.self)
    }

    /// What a model finished of an answer cut at its response limit (or stopped in a loop): the JSON read as far as it
    /// goes (``JSONValue/partial(_:)``), without the item it was writing — the last element of the
    /// innermost list on the way to where it stopped (a card whose quote is cut, a label). `nil`
    /// when nothing is readable.
    static func finishedItems(of text: String) -> JSONValue? {
        finishedItemsAndCut(of: text)?.value
    }

    /// ``finishedItems(of:)``, and the path of the item it left out (`nil` when none was).
    static func finishedItemsAndCut(of text: String) -> (value: JSONValue, cut: String?)? {
        guard let value = JSONValue.partial(ModelOutputText.unfenced(text)) else { return nil }
        // The path to the last value written, and the deepest list on it.
        var steps: [PathStep] = []
        var cursor = value
        var deepestList: Int?
        while true {
            if let object = cursor.objectValue, let last = object.keys.last, let member = object[last] {
                steps.append(.member(last))
                cursor = member
            } else if let items = cursor.arrayValue, let last = items.last {
                deepestList = steps.count
                steps.append(.index(items.count - 1))
                cursor = last
            } else {
                break
            }
        }
        guard let at = deepestList else { return (value, nil) }
        let item = Array(steps[...at])
        return (value.removing([item], at: []), PathStep.text(item))
    }

    /// What is wrong with a valid answer beyond its shape, in the order it is reported: its
    /// language first (an answer in the wrong language is also ungrounded, and that is why), what
    /// it obeyed of the instructions written inside the material, then what is not grounded in it.
    struct AnswerIssues {
        var wrongLanguage: [ValidationIssue]
        var obeyed: [ValidationIssue]
        var ungrounded: [ValidationIssue]

        var all: [ValidationIssue] { wrongLanguage + obeyed + ungrounded }
    }

    /// The checks every model answer passes before it ships, whole or rebuilt (a headline with
    /// its title shortened): language and script, injected instructions, grounding.
    static func answerIssues(_ result: AnyStudyResult, language: String, injected: InjectedInstructions) -> AnswerIssues
    {
        AnswerIssues(
            wrongLanguage: LanguageRule.issues(in: result.jsonValue, language: language)
                + LanguageRule.scriptIssues(in: result.jsonValue, material: injected.stripped),
            obeyed: injected.issues(in: result.jsonValue),
            ungrounded: Grounding.issues(in: result, source: injected.stripped)
                + ModelAnswerRules.issues(in: result, material: injected.stripped))
    }

    /// One model call, streamed when someone is watching or when the engine streams cheaply (in
    /// process), so that an answer that starts repeating itself is stopped there
    /// (``RepetitionGuard``) and comes back with `finishReason` `"repeated"`.
    ///
    /// With `keepsWhatWasWritten`, a stream that fails with a transport error after text came
    /// (the server's deadline, a connection lost) throws ``StoppedAnswer`` with that text, so
    /// the items the model finished can still be judged.
    func respond(
        _ engine: any LanguageModel, to request: GenerationRequest, enumerations: Set<String>,
        keepsWhatWasWritten: Bool = false, copying: (@Sendable (String) -> String?)? = nil
    ) async throws -> RawResponse {
        guard onPartial != nil || engine.streamsCheaply else { return try await engine.respond(to: request) }
        // A card's `kind` or a turn's `role` repeats by design: only free text counts.
        var repetition = RepetitionGuard(exempt: enumerations)
        var written = ""
        var copied: String?
        do {
            var response = try await streamed(
                engine, to: request, finishReason: RepetitionGuard.finishReason, showing: true
            ) { text in
                written = text
                copied = copying?(text)
                return copied != nil || repetition.feed(snapshot: text)
            }
            if let copied { throw CopiedAnswer(detail: copied, usage: response.usage) }
            // A loop's answer ends where it was last whole: its looping value is no text to judge.
            if response.finishReason == RepetitionGuard.finishReason, let kept = repetition.keptBytes {
                response.text = Self.prefix(of: response.text, bytes: kept)
            }
            return response
        } catch let error as EngineError {
            guard keepsWhatWasWritten, case .transport = error, !written.isEmpty else { throw error }
            throw StoppedAnswer(text: written, cause: error)
        }
    }

    /// One model call streamed, and stopped as soon as `stop` says yes to the answer so far
    /// (each growing snapshot is given to it, and to ``onPartial`` when `showing`): the answer
    /// so far then comes back with `finishReason` set to `finishReason`, its tokens counted.
    func streamed(
        _ engine: any LanguageModel, to request: GenerationRequest, finishReason: String, showing: Bool,
        stop: (String) -> Bool
    ) async throws -> RawResponse {
        var final: RawResponse?
        var stopped: String?
        for try await event in engine.streamResponse(to: request) {
            switch event {
            case .partial(let text):
                if showing { onPartial?(text) }
                if stop(text) { stopped = text }
            case .completed(let response): final = response
            }
            if stopped != nil { break }
        }
        if let text = stopped {
            // Out of the loop, so the stream has ended and the generation is cancelled: the
            // token count is asked only now, since an in-process engine answers it after the
            // generation it would otherwise wait behind (2 s of a looping headline).
            let completion = (try? await engine.tokenCount(for: text))?.count ?? TokenCount.estimate(for: text).count
            // The prompt was read all the same: estimated, so the ledger (and eval) count it.
            let prompt = TokenCount.estimate(for: request.instructions + "\n" + request.prompt).count
            return RawResponse(
                text: text, usage: Usage(promptTokens: prompt, completionTokens: completion, method: .estimated),
                model: engine.modelName, finishReason: finishReason)
        }
        guard let final else { throw EngineError.truncated("the stream ended without a final answer") }
        return final
    }

    /// The line a request adds before its prompt's last line: a chunk's part and its items
    /// (``DocumentPart/promptLine(for:)``), else the counts a whole part asks for.
    static func requestLine(_ request: RoutingRequest) -> String? {
        request.part?.promptLine(for: request.task) ?? request.counts.promptLine(for: request.task)
    }

    /// The prompt of `request` with the whole material, as a model that reads it whole is sent it.
    static func wholePrompt(_ request: RoutingRequest) -> String {
        let document = request.document
        return request.task.prompt(
            document: document.text, title: document.title, concept: request.concept, explanation: request.explanation,
            language: document.language, part: requestLine(request))
    }

    /// The answer `engine` gave before to `request` sent as `prompt` (whole, or `fitted`), from
    /// the cache (re-validated), or `nil`: no engine call is made to find it.
    func cachedAnswer(
        _ request: RoutingRequest, engine: any LanguageModel, prompt: String, fitted: Bool, decision: Backend,
        fallbacks: [FallbackStep]
    ) -> RoutedResult? {
        guard request.useCache,
            let hit = cachedResult(task: request.task, engine: engine, prompt: prompt, fitted: fitted)
        else { return nil }
        return RoutedResult(
            result: hit.result, engine: engine.kind, model: hit.model, decision: decision, fitted: hit.fitted,
            cached: true,
            fallbacks: fallbacks, usage: nil, reasked: false,
            items: ItemProvenance.written(
                in: hit.result, model: hit.model,
                material: request.document.titleAndText, cached: true))
    }
}
