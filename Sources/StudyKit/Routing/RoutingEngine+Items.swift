import Foundation

// MARK: - The builtin skeleton's items rewritten by a model

/// The intern principle: when a model cannot write a part whole (its window or its record
/// says so), the builtin engine selects grounded material and the model rephrases it one small
/// item at a time (``ItemRewriter``). The router chooses the model and meters its calls.
extension RoutingEngine {
    /// `result` (built by the builtin engine) with its items rewritten by the first model
    /// engine of the plan that can serve, and each item's provenance.
    func rewriteItems(
        _ result: AnyStudyResult, request: RoutingRequest, material: String, modelWasSkipped: Bool, log: AttemptLog
    ) async -> (result: AnyStudyResult, items: [ItemProvenance]) {
        let extracted = ItemProvenance.all(
            in: result, kind: .extracted, note: "selected from the material by the builtin engine")
        // Only under a time budget, or once a model was skipped for the whole part: then the model
        // is known (or expected) not to write it whole, and items are what it can do.
        guard request.engine == .auto, ItemRewriter.rewritableTasks.contains(request.task),
            request.budget != nil || modelWasSkipped
        else { return (result, extracted) }
        let decision = backend(for: request.task, characterCount: request.document.characterCount)
        let engines = Self.plan(decision: decision, choice: .auto, offline: request.offline).filter { $0 != .builtin }
            .map { $0 == .local ? local : remote }
        var chosen: (any LanguageModel)?
        var unavailable: [String] = []
        for engine in engines {
            if engine.kind == .remote, remoteBlocker() != nil { continue }
            if !engine.languages.supports(request.document.language) { continue }
            if case .unavailable(let reason) = await availability(of: engine, within: request.budget) {
                unavailable.append("\(engine.kind.rawValue): \(reason)")
                continue
            }
            chosen = engine
            break
        }
        guard let engine = chosen else {
            // Every builtin item says why no model rephrased it (the budget used up, the server down).
            if unavailable.isEmpty { return (result, extracted) }
            return (
                result,
                ItemProvenance.all(
                    in: result, kind: .extracted, note: "not rewritten: " + unavailable.joined(separator: "; "))
            )
        }
        return await itemRewriter(engine, request: request, material: material, log: log).rewrite(
            result, extracted: extracted)
    }

    /// The rewriter of `request`'s items on `engine`, grounded in `material`: each item's call is
    /// metered by this router and bounded by the request's budget.
    func itemRewriter(
        _ engine: any LanguageModel, request: RoutingRequest, material: String, log: AttemptLog
    ) -> ItemRewriter {
        ItemRewriter(
            engine: engine, request: request, material: material, log: log, builtin: builtin, cache: cache,
            recorder: recorder, itemAnswers: itemAnswers
        ) { sent, key, stop in
            try await self.metered(engine, sent, key: key, deadline: request.budget) {
                guard let stop, engine.streamsCheaply else { return try await engine.respond(to: sent) }
                return try await self.streamed(
                    engine, to: sent, finishReason: ItemAnswers.stoppedFinishReason, showing: false, stop: stop)
            }
        }
    }
}
