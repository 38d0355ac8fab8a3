import Foundation

// MARK: - The builtin engine and the result cache in the router

extension RoutingEngine {
    /// The builtin engine's `task` on the whole of `document`: the skeleton a model's part is
    /// topped up from (``PartJudge``); `nil` when the text is too short for one. Sized as a page
    /// of notes' (12 cards, 8 questions), what one model answer may hold: a model's part is
    /// still asked for one answer's items (#54 sizes the builtin engine's own parts only).
    func skeleton(_ task: StudyTask, document: Document) -> AnyStudyResult? {
        let material = builtin.material(of: document)
        return try? builtin.generate(task, text: material.text, title: material.title, size: Self.skeletonSize)
    }

    /// The size of the skeleton a model's part is topped up from.
    static let skeletonSize = KitSize(cards: KitSize.minimumCards, questions: KitSize.minimumQuestions)

    func builtinResult(
        _ request: RoutingRequest, decision: Backend, fallbacks: [FallbackStep], log: AttemptLog
    ) async throws -> RoutedResult {
        let document = request.document
        let (text, title) = builtin.material(of: document)
        let extracted = try builtin.generate(
            request.task, text: text, title: title, concept: request.concept, explanation: request.explanation,
            size: request.size)
        let (result, items) = await rewriteItems(
            extracted, request: request, material: [title, text].compactMap { $0 }.joined(separator: "\n"),
            modelWasSkipped: fallbacks.contains { $0.engine != .builtin && $0.reason.hasPrefix("skipped:") }, log: log)
        return RoutedResult(
            result: result, engine: .builtin, model: builtin.modelName, decision: decision, fitted: .whole(document),
            cached: false, fallbacks: fallbacks, usage: nil, reasked: false,
            items: ItemRewriter.markingCached(items, paths: log.itemsFromCache))
    }

    // MARK: cache

    /// The cache key of a prompt sent to an engine: task, schema, template, engine and model,
    /// the content actually sent, and the generation options.
    /// `kept` names the kind of record kept under a result's inputs that is no result (a failed
    /// request's format), so it gets a key of its own.
    static func cacheKey(
        task: StudyTask, engine: any LanguageModel, prompt: String, fitted: Bool, kept: String? = nil
    ) throws(CacheError) -> CacheKey {
        try CacheKey(
            task: task, schemaFingerprint: task.generationSchema.fingerprint,
            promptTemplateVersion: [kept, task.promptTemplateVersion].compactMap { $0 }.joined(separator: " "),
            engine: engine.kind, model: engine.identity, content: task.instructions + "\u{0}" + prompt,
            contentIsFitted: fitted,
            generationOptions: GenerationOptions(sampling: .greedy, maximumResponseTokens: task.responseReserve)
                .canonicalText)
    }

    /// A cached result, re-validated; a stored value that no longer validates is a miss.
    func cachedResult(
        task: StudyTask, engine: any LanguageModel, prompt: String, fitted: Bool
    ) -> (result: AnyStudyResult, fitted: FitReport, model: String)? {
        guard let cache else { return nil }
        guard let key = try? Self.cacheKey(task: task, engine: engine, prompt: prompt, fitted: fitted),
            let hit = try? cache.get(key), let json = try? JSONValue.parse(hit.payload),
            let result = try? decodeResult(for: task, json: json)
        else { return nil }
        let report = hit.fittedInfo.flatMap { try? JSONValue.parse($0) }.flatMap(FitReport.init(json:))
        note("\(engine.kind.rawValue): answered from the cache")
        return (result, report ?? FitReport(cut: fitted, keptCharacters: 0, totalCharacters: 0), hit.model)
    }

    /// Stores a validated result; a cache that cannot write is only a cache, so it is not an error.
    func storeResult(
        _ result: AnyStudyResult, task: StudyTask, engine: any LanguageModel, prompt: String, fitted: FitReport
    ) {
        guard let cache else { return }
        let entry = CacheEntry(
            payload: result.jsonValue.compactText, engine: engine.kind, model: engine.modelName,
            fittedInfo: fitted.jsonValue.compactText)
        do {
            try cache.put(entry, for: Self.cacheKey(task: task, engine: engine, prompt: prompt, fitted: fitted.cut))
        } catch { note("could not write the cache: \(Self.reason(for: error))") }
    }
}

// MARK: - Parts a model failed

/// A whole part the model failed (an answer that did not validate after its re-ask, ran into its
/// token limit or began repeating itself) is decoded greedily too, so the same request fails the
/// same way: the result cache keeps the fact, under the part's own key, for the capability
/// memory's ``CapabilityPolicy/skipDuration``, and automatic routing does not ask it again in
/// that time — the headline of a long document the model loops on costs its seconds once, not on
/// every run. A timeout or a transport error is no answer and is not kept; `--engine X` and
/// `--no-cache` ask again.
extension RoutingEngine {
    /// The version of the kept failure's envelope; part of every key.
    static let storedRefusalFormat = "part-refusal/1"

    /// The outcomes a greedy decode repeats on the same request.
    static func isRepeatable(_ outcome: AttemptOutcome?) -> Bool {
        outcome == .invalid || outcome == .cut || outcome == .repeated
    }

    /// The cache key of the failure of one part request (its result's key, another format).
    static func refusalKey(
        task: StudyTask, engine: any LanguageModel, prompt: String, fitted: Bool
    ) throws(CacheError) -> CacheKey {
        try cacheKey(task: task, engine: engine, prompt: prompt, fitted: fitted, kept: storedRefusalFormat)
    }

    /// Why automatic routing must not ask this part request again: the model failed the very same
    /// request within the skip duration. `nil` without a cache, with `--no-cache`, or past it.
    func storedRefusal(
        task: StudyTask, engine: any LanguageModel, prompt: String, fitted: Bool, request: RoutingRequest
    ) -> String? {
        guard request.engine == .auto, request.useCache, let cache,
            let key = try? Self.refusalKey(task: task, engine: engine, prompt: prompt, fitted: fitted),
            let hit = try? cache.get(key), case let age = clock.now().timeIntervalSince(hit.createdAt),
            age < capability.skipDuration,
            case .object(let fields)? = try? JSONValue.parse(hit.payload), let reason = fields["reason"]?.stringValue
        else { return nil }
        return FallbackReason.failedBefore(age: age, reason: reason).text
    }

    /// Keeps the fact that the model failed this part request, when the failure is one a greedy
    /// decode repeats; a cache that cannot write is only a cache.
    func storeRefusal(
        _ error: any Error, task: StudyTask, engine: any LanguageModel, prompt: String, fitted: Bool,
        request: RoutingRequest
    ) {
        guard request.engine == .auto, request.useCache, let cache, Self.isRepeatable(Self.outcome(for: error)) else {
            return
        }
        let payload: JSONObject = ["task": .string(task.name), "reason": .string(Self.reason(for: error))]
        do {
            try cache.put(
                CacheEntry(
                    payload: JSONValue.object(payload).compactText, engine: engine.kind, model: engine.modelName,
                    kind: .failedRequest),
                for: Self.refusalKey(task: task, engine: engine, prompt: prompt, fitted: fitted))
        } catch {
            note("could not write the cache: \(Self.reason(for: error))")
        }
    }
}

extension BuiltinEngine {
    /// What the builtin engine reads of `document`: its text and title without the sentences that
    /// speak to a model (an injected instruction is never a summary sentence, a card or a title).
    func material(of document: Document) -> (text: String, title: String?) {
        (withoutInstructions(document.text),
         document.title.flatMap { InjectedInstructions.isInstruction($0) ? nil : $0 })
    }
}
