import Foundation

// MARK: - Item answers kept across runs

/// A model's answer to one item job, kept in the result cache under a key of every input of
/// the request (model, instructions, prompt, the item's own schema, the token limit): items are
/// decoded greedily, so the same request gets the same answer, and a second run of the same
/// material asks again only what was never asked. What is kept is the model's answer as it
/// came (or the fact that it reached its token limit), never an item: every use judges it
/// again, by the rules of the build that reads it, before anything is shown.
extension ItemRewriter {
    /// The version of the stored answer's envelope; part of every key.
    static let storedItemAnswerFormat = "item-answer/1"

    /// The cache key of one item request.
    static func itemAnswerKey(
        _ spec: ItemSpec, job: ItemJob, task: StudyTask, engine: any LanguageModel, prompt: String
    ) throws(CacheError) -> CacheKey {
        try CacheKey(
            task: spec.recordedUnder ?? task, schemaFingerprint: (job.schema ?? spec.schema).fingerprint,
            promptTemplateVersion: "\(storedItemAnswerFormat) \(spec.name) \(spec.version)", engine: engine.kind,
            model: engine.identity, content: spec.instructions + "\u{0}" + prompt, contentIsFitted: false,
            generationOptions: GenerationOptions(sampling: .greedy, maximumResponseTokens: spec.maximumTokens)
                .canonicalText)
    }

    /// The answer an earlier run kept for this request, or `nil` (no cache, `--no-cache`, a
    /// miss, or a row that does not decode, which counts as a miss).
    func storedItemAnswer(_ key: CacheKey?) -> ItemAnswers.Answer? {
        guard request.useCache, let cache, let key, let hit = try? cache.get(key),
            case .object(let fields)? = try? JSONValue.parse(hit.payload)
        else { return nil }
        if fields["cut"] == .bool(true) { return .cut }
        guard let text = fields["answer"]?.stringValue else { return nil }
        return fields["stopped"] == .bool(true) ? .stopped(text) : .text(text)
    }

    /// Keeps the model's answer for later runs; a cache that cannot write is only a cache.
    func storeItemAnswer(_ answer: ItemAnswers.Answer, key: CacheKey?, spec: ItemSpec) {
        guard request.useCache, let cache, let key else { return }
        var payload: JSONObject = ["item": .string(spec.name)]
        switch answer {
        case .text(let text): payload["answer"] = .string(text)
        case .cut: payload["cut"] = .bool(true)
        case .stopped(let text):
            payload["answer"] = .string(text)
            payload["stopped"] = .bool(true)
        }
        do {
            try cache.put(
                CacheEntry(
                    payload: JSONValue.object(payload).compactText, engine: engine.kind, model: engine.modelName,
                    kind: .itemAnswer),
                for: key)
        } catch {
            note("could not write the cache: \(RoutingEngine.reason(for: error))")
        }
    }

    /// `items` with the note of each item judged from a kept answer saying so, as a part
    /// answered from the cache does: `rephrased by …, from the cache`.
    static func markingCached(_ items: [ItemProvenance], paths: Set<String>) -> [ItemProvenance] {
        guard !paths.isEmpty else { return items }
        return items.map { item in
            guard paths.contains(item.path), let note = item.note else { return item }
            let said = item.kind == .extracted
                ? note + " (the model's answer of an earlier run, from the cache)"
                : note + ", from the cache"
            return ItemProvenance(path: item.path, kind: item.kind, note: said)
        }
    }
}
