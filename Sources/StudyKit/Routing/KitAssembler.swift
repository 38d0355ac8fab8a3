import Foundation

/// A whole study kit and how each part was made.
public struct AssembledKit: Sendable, Equatable {
    /// The kit, with the router's story of its main part (summary, flashcards, quiz, mind map).
    public var routed: RoutedResult
    /// Each part and how it was made, in kit order. When the kit came from one request, the
    /// four remote-route parts share that request's story.
    public var parts: [(task: StudyTask, routed: RoutedResult)]
    /// Whether summary, flashcards, quiz and mind map came from one study-kit request.
    public var singleRequest: Bool

    public static func == (lhs: AssembledKit, rhs: AssembledKit) -> Bool {
        lhs.routed == rhs.routed && lhs.singleRequest == rhs.singleRequest
            && lhs.parts.map(\.task) == rhs.parts.map(\.task) && lhs.parts.map(\.routed) == rhs.parts.map(\.routed)
    }
}

/// Builds `studykit import`'s kit: the headline on its own route (local for short material, but
/// not the local model under a time budget: ``RoutingEngine/kitHeadlinePassedOver(_:kind:)``),
/// and summary, flashcards, quiz and mind map on the remote route — from one study-kit request
/// when the whole kit fits an engine that can serve it and asks for no more cards and questions
/// than one answer writes well, else one request per part (the deck and quiz of a long document
/// per group of sections). Every part
/// goes through the router, so each has the cache, fallbacks, fitting and validation.
public struct KitAssembler: Sendable {
    let router: RoutingEngine
    /// The engine that would take the one-request kit (the remote engine, unless offline).
    let kitEngine: (any LanguageModel)?
    /// Runs each part, chunked when the document does not fit its serving window; `nil` runs
    /// every part as one request through ``router``.
    let chunker: ChunkedRunner?

    /// Creates an assembler over a router; `kitEngine` is asked whether the whole kit fits;
    /// `chunker` reads a document too long for any window part by part, chunk by chunk.
    public init(router: RoutingEngine, kitEngine: (any LanguageModel)?, chunker: ChunkedRunner? = nil) {
        self.router = router
        self.kitEngine = kitEngine
        self.chunker = chunker
    }

    /// The parts generated on the remote route, in kit order.
    static let remoteParts: [StudyTask] = [.summary, .flashcards, .quiz, .mindmap]

    /// The order the parts are made in, one request (or item jobs) each: under a time budget
    /// the small model's cheapest items come first, so what the budget leaves out is the
    /// costliest — a branch name takes half a second, a card or question a second, the
    /// summary's overview three to four (Qwen2.5-Coder-0.5B on 2 cores). The kit is in kit order.
    static let executionOrder: [StudyTask] = [.mindmap, .flashcards, .quiz, .summary]

    /// The order whole parts are asked in on a remote model: the shortest expected answer first
    /// (``ItemCounts/expectedResponseTokens(for:)``), so a time budget that runs out leaves out
    /// the longest part, not two shorter ones after it (#53: on Qwen2.5-Coder-1.5B a summary
    /// takes 30–36 s and a quiz 40–75 s; asked last, the summary was skipped with 17 s left).
    static func remoteOrder(_ counts: ItemCounts) -> [StudyTask] {
        remoteParts.sorted {
            (counts.expectedResponseTokens(for: $0) ?? 0) < (counts.expectedResponseTokens(for: $1) ?? 0)
        }
    }

    /// Runs every part and assembles the kit. Throws what the router throws for a part.
    ///
    /// The one kit request goes to the kit engine only: when it fails (a loop, an answer with
    /// too few usable items in every part, the budget), the kit is asked again one request per
    /// part, on the same engine first, before the builtin floor (#53). A kit whose answer had too
    /// few usable items in some parts keeps the others and asks those parts again on their own.
    public func run(_ request: RoutingRequest) async throws -> AssembledKit {
        var headlineRequest = request
        headlineRequest.task = .headline
        headlineRequest.isKitHeadline = true
        let headline = try await router.run(headlineRequest)

        var kitFallbacks: [FallbackStep] = []
        // The seconds a failed kit request took: the kit's own, beside its parts' (#53).
        var kitSeconds = 0.0
        let order = await remoteServes(request) ? Self.remoteOrder(request.counts) : Self.executionOrder
        // The document's outline when the kit fits a window, made once: whether the kit is one
        // request, and each part's groups of sections, read this one.
        var outline: DocumentOutline?
        if request.engine != .builtin, request.engine != .local, let kitEngine,
            await kitFitsWhole(kitEngine, request: request)
        {
            if chunker != nil { outline = DocumentOutline(text: request.document.text) }
            if !asksPerGroup(request, outline: outline) {
                var kitRequest = request
                kitRequest.task = .studyKit
                kitRequest.firstEngineOnly = true
                let kitStarted = router.clock.now()
                defer { kitSeconds = router.clock.now().timeIntervalSince(kitStarted) }
                do {
                    let kit = try await router.run(kitRequest)
                    if case .studyKit(let bundle) = kit.result {
                        return try await completed(
                            kit, bundle: bundle, headline: headline, request: request, order: order)
                    }
                } catch RoutingError.noEngine(let steps) {
                    kitFallbacks = steps
                } catch RoutingError.forcedEngineFailed(let engine, let reason) {
                    kitFallbacks = [FallbackStep(engine: engine, reason: reason)]
                }
            }
        }

        var byTask: [StudyTask: RoutedResult] = [:]
        for task in order {
            var partRequest = request
            partRequest.task = task
            byTask[task] = if let chunker {
                try await chunker.run(partRequest, outline: outline)
            } else {
                try await router.run(partRequest)
            }
        }
        var results: [(StudyTask, RoutedResult)] = Self.remoteParts.compactMap { task in
            byTask[task].map { (task, $0) }
        }
        // What the one kit request did before the parts were asked on their own.
        if !kitFallbacks.isEmpty, !results.isEmpty {
            let kitSteps = kitFallbacks.map { FallbackStep(engine: $0.engine, reason: "kit: \($0.reason)") }
            results[0].1.fallbacks = kitSteps + results[0].1.fallbacks
        }
        guard case .summary(let summary) = results[0].1.result, case .flashcards(let cards) = results[1].1.result,
            case .quiz(let quiz) = results[2].1.result, case .mindMap(let mindMap) = results[3].1.result
        else { throw EngineError.invalidOutput(["a kit part came back as the wrong type"]) }
        var assembled = try assemble(
            headline: headline, summary: summary, flashcards: cards, quiz: quiz, mindMap: mindMap,
            runs: [(.headline, headline)] + results, size: request.size)
        assembled.seconds += kitSeconds
        return AssembledKit(routed: assembled, parts: [(StudyTask.headline, headline)] + results, singleRequest: false)
    }

    /// The kit of one request, with each part whose model answer was refused asked again on its
    /// own (``RoutedResult/refusedParts``); a part asked alone replaces the builtin engine's
    /// stand-in and its items.
    private func completed(
        _ kit: RoutedResult, bundle: StudyKitBundle, headline: RoutedResult, request: RoutingRequest, order: [StudyTask]
    ) async throws -> AssembledKit {
        var bundle = bundle
        var kit = kit
        var alone: [StudyTask: RoutedResult] = [:]
        for task in order where kit.refusedParts.contains(task) {
            var partRequest = request
            partRequest.task = task
            let part = try await router.run(partRequest)
            alone[task] = part
            let name = Self.bundleMember(task)
            kit.items.removeAll { $0.path.hasPrefix(name + ".") }
            bundle.replace(part.result)
        }
        let runs: [(StudyTask, RoutedResult)] = [(.headline, headline), (.studyKit, kit)]
            + Self.remoteParts.compactMap { task in alone[task].map { (task, $0) } }
        let assembled = try assemble(
            headline: headline, summary: bundle.summary, flashcards: bundle.flashcards, quiz: bundle.quiz,
            mindMap: bundle.mindMap, runs: runs, size: request.size)
        let parts = [(StudyTask.headline, headline)] + Self.remoteParts.map { ($0, alone[$0] ?? kit) }
        return AssembledKit(routed: assembled, parts: parts, singleRequest: alone.isEmpty)
    }

    /// The member of ``StudyKitBundle`` that holds `task`'s part.
    static func bundleMember(_ task: StudyTask) -> String {
        task == .mindmap ? "mindMap" : task.name
    }

    /// Whether the parts go to a remote kit engine that can serve (asked within the budget).
    private func remoteServes(_ request: RoutingRequest) async -> Bool {
        guard request.engine == .auto || request.engine == .remote, !request.offline, let kitEngine,
            kitEngine.kind == .remote,
            router.remoteBlocker() == nil
        else { return false }
        return await router.availability(of: kitEngine, within: request.budget) == .available
    }

    /// Whether the kit engine can serve and the whole document plus the kit's reserve fits its window.
    /// Asked within what is left of the time budget: a server that never answers is no kit engine.
    private func kitFitsWhole(_ engine: any LanguageModel, request: RoutingRequest) async -> Bool {
        // Remote closed (refused, over quota, a ledger that cannot count): not even asked for its window.
        guard !request.offline, engine.kind != .remote || router.remoteBlocker() == nil else { return false }
        let fits = try? await router.withinBudget(request.budget, floor: 0) {
            guard case .available = await engine.availability() else { return false }
            let budget = try await checkBudget(
                engine: engine, task: .studyKit, document: request.document, concept: nil, explanation: nil)
            return budget.fits
        }
        return fits ?? false
    }

    /// Whether the document asks for more cards or questions than one answer writes well (#54):
    /// then the kit is not one request, but its parts each on their own, the deck and the quiz
    /// per group of sections (``ChunkedRunner``, ``SectionGroupPlanner``) — a model whose window
    /// holds the whole document still writes 10 good cards more reliably than 45. A page of
    /// notes (12 cards, 8 questions) stays one kit request.
    /// `outline` is the document's, `nil` without a chunker (no groups to ask by).
    private func asksPerGroup(_ request: RoutingRequest, outline: DocumentOutline?) -> Bool {
        guard let outline else { return false }
        let sections = BodySections(outline: outline)
        return [StudyTask.flashcards, .quiz].contains { task in
            guard let limit = SectionGroupPlanner.groupLimit(task),
                let wanted = SectionGroupPlanner.wantedItems(task, size: request.size, sections: sections)
            else { return false }
            return wanted > limit
        }
    }

    /// The kit and one story for it: the engine, model and fitting of its main part (the kit
    /// request, or the summary), every run's fallbacks labelled with its part, usage summed.
    /// `runs` starts with the headline; the next run is the main part.
    private func assemble(
        headline: RoutedResult, summary: Summary, flashcards: Flashcards, quiz: Quiz, mindMap: MindMap,
        runs: [(StudyTask, RoutedResult)], size: KitSize
    ) throws -> RoutedResult {
        guard case .headline(let title) = headline.result else {
            throw EngineError.invalidOutput(["the headline part came back as the wrong type"])
        }
        let bundle = StudyKitBundle(
            headline: title, summary: summary, flashcards: flashcards, quiz: quiz, mindMap: mindMap)
        // A part read in chunks was checked whole by `ChunkedRunner` with limits that grow with the
        // document (`StudyTask.checkedMerge`): a deck may hold more cards than one answer may, so
        // the kit's single-answer limits do not apply to it.
        let chunked = runs.compactMap { task, run in
            run.coverage.map { coverage in
                var labelled = coverage
                for index in labelled.chunks.indices { labelled.chunks[index].part = task.name }
                return labelled
            }
        }
        // A deck the builtin engine sized for the document may hold more than one answer: the
        // kit's lists are checked against what the request allows (#54).
        if chunked.isEmpty {
            let issues = AnyStudyResult.studyKit(bundle).validationIssues(size: size)
            guard issues.isEmpty else { throw SchemaError.invalid(issues) }
        }
        let main = runs[1].1
        let usage = RoutedResult.summedUsage(runs.map(\.1))
        let fallbacks = runs.flatMap { task, run in
            run.fallbacks.map {
                FallbackStep(engine: $0.engine, reason: "\(task.isWholeKit ? "kit" : task.name): \($0.reason)")
            }
        }
        var result = RoutedResult(
            result: .studyKit(bundle), engine: main.engine, model: main.model, decision: main.decision,
            fitted: main.fitted,
            cached: runs.allSatisfy(\.1.cached), fallbacks: fallbacks, usage: usage,
            reasked: runs.contains(where: \.1.reasked))
        result.attempts = runs.flatMap(\.1.attempts)
        result.seconds = runs.reduce(0) { $0 + $1.1.seconds }
        result.items = runs.flatMap { task, run in
            run.items.map {
                ItemProvenance(path: "\(task.isWholeKit ? "kit" : task.name).\($0.path)", kind: $0.kind, note: $0.note)
            }
        }
        result.coverage = ChunkCoverage.combined(chunked)
        result.dropped = runs.flatMap { task, run in
            run.dropped.map {
                DroppedItem(path: "\(task.isWholeKit ? "kit" : task.name).\($0.path)", reason: $0.reason)
            }
        }
        return result
    }
}
