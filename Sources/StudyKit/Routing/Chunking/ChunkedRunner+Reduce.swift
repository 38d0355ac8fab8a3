import Foundation

// MARK: - Reduce: the chunks' answers made one result, and the merged part's rules

extension ChunkedRunner {
    func reduce(
        _ request: RoutingRequest, planned: Planned, outcomes: [(RoutedResult?, String?)], started: Date,
        overviewRouter: RoutingEngine
    ) async throws -> RoutedResult {
        let plan = planned.plan
        let outline = planned.outline
        let document = request.document
        let (outcomes, most) = refillingFallenGroups(outcomes, request: request, plan: plan)
        var itemsPerSection = Array(repeating: 0, count: plan.sectionHeadings.count)
        var runs: [ChunkCoverage.ChunkRun] = []
        var cards: [Flashcards.Card] = []
        var questions: [Quiz.Question] = []
        var summaries: [(Summary, DocumentChunk)] = []
        // Each chunk's mind map, with the chunk it came from.
        var maps: [(chunk: Int, part: ChunkReduce.MapPart)] = []
        // Where each card, question or key point of the merged list came from, in list order.
        var origins: [ItemOrigin] = []
        // The section each chunk's mind map is merged under.
        let owners = request.task != .mindmap ? []
            : ChunkReduce.owners(
                levels: outline.sections.map { $0.heading == nil ? 0 : $0.level }, chunks: plan.chunks.map(\.sections))

        // The section an item comes from: the one of its chunk holding its quote, else the chunk's first.
        func section(of quote: String?, in chunk: DocumentChunk) -> Int? {
            if let quote, !quote.isEmpty,
                let found = chunk.sections.first(where: {
                    String(document.text[outline.sections[$0].range]).contains(quote)
                })
            {
                return found
            }
            return chunk.sections.first
        }
        for (chunk, outcome) in zip(plan.chunks, outcomes) {
            let routed = outcome.0
            var items = 0
            switch routed?.result {
            case .flashcards(let deck):
                items = deck.cards.count
                cards += deck.cards
                origins += deck.cards.enumerated().map {
                    ItemOrigin(chunk: chunk.index, index: $0, section: section(of: $1.quote, in: chunk))
                }
            case .quiz(let quiz):
                items = quiz.questions.count
                questions += quiz.questions
                origins += quiz.questions.enumerated().map {
                    ItemOrigin(chunk: chunk.index, index: $0, section: section(of: $1.quote, in: chunk))
                }
            case .summary(let summary):
                items = summary.keyPoints.count
                summaries.append((summary, chunk))
                origins += summary.keyPoints.indices.map {
                    ItemOrigin(chunk: chunk.index, index: $0, section: chunk.sections.first)
                }
            case .mindMap(let map):
                items = map.branches.count
                let owner = owners[chunk.index].flatMap { outline.sections[$0].heading }
                maps.append((chunk.index, ChunkReduce.MapPart(map: map, section: owner, headings: chunk.headings)))
                if let at = chunk.sections.first { itemsPerSection[at] += items }
            default: break
            }
            var fallbacks = routed?.fallbacks ?? []
            if chunk.index >= planned.modelChunks {
                fallbacks.append(
                    FallbackStep(engine: .builtin, reason: FallbackReason.pastMaxChunks(planned.modelChunks).text))
            }
            if let failure = outcome.1 { fallbacks.append(FallbackStep(engine: .builtin, reason: failure)) }
            let readByModel = routed.map { $0.engine != .builtin } ?? false
            let fitted = routed?.fitted.cut ?? false
            let length = chunk.offsets.count
            let read = !readByModel ? 0 : (fitted ? min(length, routed?.fitted.keptCharacters ?? 0) : length)
            runs.append(ChunkCoverage.ChunkRun(
                    part: nil, index: chunk.index, offsets: chunk.offsets, headings: chunk.headings,
                    sections: chunk.sections,
                    engine: routed?.engine, model: routed?.model ?? "", cached: routed?.cached ?? false, fitted: fitted,
                    read: read,
                fallbacks: fallbacks, items: items))
        }

        // The overview request of a summary: the one run besides the chunks'.
        var extra: [RoutedResult] = []
        var kept: [Int] = []
        var result: AnyStudyResult
        switch request.task {
        case .flashcards:
            kept = ChunkReduce.dedupe(cards)
            result = .flashcards(Flashcards(cards: kept.map { cards[$0] }))
        case .quiz:
            kept = ChunkReduce.dedupe(questions)
            result = .quiz(Quiz(questions: kept.map { questions[$0] }))
        case .summary:
            let points = summaries.flatMap(\.0.keyPoints)
            kept = ChunkReduce.dedupe(keyPoints: points)
            let overview = try await overview(of: summaries, request: request, router: overviewRouter)
            if let overview { extra.append(overview.routed) }
            result = .summary(
                Summary(
                    overview: overview?.text ?? summaries.first?.0.overview ?? "", keyPoints: kept.map { points[$0] }))
        case .mindmap:
            let topic = document.title ?? maps.first?.part.map.centralTopic ?? "Document"
            result = .mindMap(
                ChunkReduce.merge(
                    maps.map(\.part), centralTopic: topic,
                    branchLimit: ChunkReduce.branchLimit(chunks: plan.chunks.count)))
        default:
            throw EngineError.invalidOutput(["\(request.task.name) is not chunked"])
        }
        let list = Self.mergedList[request.task]
        var dropped = Self.duplicates(of: origins, kept: kept, list: list)
        let duplicates = dropped.count
        origins = kept.map { origins[$0] }

        // The merged part passes the rules of a single part, with limits scaled by the chunks,
        // or is repaired by dropping items; what cannot be repaired falls back like any invalid answer.
        do {
            let checked = try request.task.checkedMerge(
                result, chunks: Self.limitChunks(plan, task: request.task), source: document.titleAndText,
                groups: list.map { [$0: origins.map { $0.section ?? -1 }] } ?? [:])
            result = checked.result
            let (byRule, gone) = Self.located(checked.dropped, list: list, origins: origins)
            dropped += byRule
            origins = origins.indices.filter { !gone.contains($0) }.map { origins[$0] }
        } catch {
            let reason = "the merged \(request.task.name) failed validation: \(RoutingEngine.reason(for: error))"
            if request.engine != .auto { throw RoutingError.forcedEngineFailed(planned.engine, reason: reason) }
            return try await mergedFallback(request, planned: planned, runs: runs, reason: reason, started: started)
        }
        if let most, let list {
            let capped = Self.capped(result, origins: origins, wanted: most, list: list)
            (result, origins) = (capped.result, capped.origins)
            dropped += capped.dropped
        }
        if list != nil { for origin in origins { if let at = origin.section { itemsPerSection[at] += 1 } } }

        var coverage = ChunkCoverage.of(plan: plan, runs: runs, itemsPerSection: itemsPerSection)
        coverage.duplicatesDropped = duplicates
        coverage.jobs = JobsChoice(jobs: planned.jobs, source: planned.jobsFrom)
        let answered = outcomes.compactMap(\.0)
        // The story's engine is the one that read most of the document.
        var readBy: [EngineKind: Int] = [:]
        for (run, routed) in zip(runs, outcomes.map(\.0)) {
            if let routed { readBy[routed.engine, default: 0] += run.offsets.count }
        }
        let main = readBy.max { $0.value < $1.value }?.key ?? .builtin
        let all = answered + extra
        let usage = RoutedResult.summedUsage(all)
        var routed = RoutedResult(
            result: result, engine: main, model: answered.first { $0.engine == main }?.model ?? "",
            decision: backend(for: request.task, characterCount: document.characterCount),
            fitted: FitReport(
                cut: coverage.charactersRead < document.characterCount, keptCharacters: coverage.charactersRead,
                totalCharacters: document.characterCount),
            cached: all.allSatisfy(\.cached) && !answered.isEmpty,
            fallbacks: zip(plan.chunks, outcomes).flatMap { chunk, outcome in
                (outcome.0?.fallbacks ?? []).map {
                    FallbackStep(engine: $0.engine, reason: "chunk \(chunk.index + 1): \($0.reason)")
                }
            }
                + extra.flatMap {
                    $0.fallbacks.map { FallbackStep(engine: $0.engine, reason: "overview: \($0.reason)") }
                },
            usage: usage, reasked: all.contains(where: \.reasked))
        routed.attempts = all.flatMap(\.attempts)
        routed.seconds = router.clock.now().timeIntervalSince(started)
        routed.dropped = zip(plan.chunks, outcomes).flatMap { chunk, outcome in
                (outcome.0?.dropped ?? []).map {
                    DroppedItem(path: "chunk \(chunk.index + 1).\($0.path)", reason: $0.reason)
                }
        } + dropped
        routed.coverage = coverage
        routed.items = Self.mergedItems(
            result: result, origins: origins, chunkAnswers: outcomes.map(\.0), overview: extra.first, maps: maps)
        return routed
    }

    // MARK: the merged part's rules

    /// Where an item of a merged list came from: its chunk, its place in that chunk's answer,
    /// and its section of the document (outline index).
    struct ItemOrigin: Sendable, Equatable {
        var chunk: Int
        var index: Int
        var section: Int?
    }

    /// The chunks the merged part's limits are scaled by: the plan's, or for groups of sections
    /// as many as hold the items the document asked for (12 cards a group where a chunk's limit
    /// is 10).
    static func limitChunks(_ plan: ChunkPlan, task: StudyTask) -> Int {
        guard let wanted = plan.groupedItems, let list = mergedList[task],
            let perChunk = task.mergedItemsPerChunk[list], perChunk > 0
        else { return plan.chunks.count }
        return max(plan.chunks.count, (wanted + perChunk - 1) / perChunk)
    }

    /// The list of the merged result that holds items from every chunk, by task.
    static let mergedList: [StudyTask: String] = [.flashcards: "cards", .quiz: "questions", .summary: "keyPoints"]

    /// The items left out as duplicates when the chunks were joined (``ChunkReduce``), each at
    /// its place in its chunk's answer (`chunk 3.cards[2]`).
    static func duplicates(of origins: [ItemOrigin], kept: [Int], list: String?) -> [DroppedItem] {
        guard let list else { return [] }
        let keptSet = Set(kept)
        let what =
            list == "keyPoints"
            ? "repeats an earlier key point"
            : "repeats the \(list == "cards" ? "question" : "prompt") or the quote of an earlier item"
        return origins.indices.filter { !keptSet.contains($0) }.map { index in
            let origin = origins[index]
            return DroppedItem(
                path: "chunk \(origin.chunk + 1).\(list)[\(origin.index)]",
                reason: what + "; left out when the chunks were joined")
        }
    }

    /// Items the merged part's check dropped, an item of `list` named by its chunk and its place
    /// in that chunk's answer; and the positions in `list` of the items that went.
    static func located(
        _ dropped: [DroppedItem], list: String?, origins: [ItemOrigin]
    ) -> (dropped: [DroppedItem], gone: Set<Int>) {
        var gone: Set<Int> = []
        let located = dropped.map { item -> DroppedItem in
            let steps = PathStep.parse(item.path)
            guard let list, steps.count >= 2, steps[0] == .member(list), case .index(let index) = steps[1],
                origins.indices.contains(index)
            else { return item }
            if steps.count == 2 { gone.insert(index) }
            let origin = origins[index]
            let rest = PathStep.text(Array(steps.dropFirst(2)))
            let path =
                "chunk \(origin.chunk + 1).\(list)[\(origin.index)]"
                + (rest.isEmpty || rest.hasPrefix("[") ? rest : "." + rest)
            return DroppedItem(path: path, reason: item.reason)
        }
        return (located, gone)
    }

    /// A merged part that no dropping could mend: the whole document goes to the builtin engine,
    /// as an invalid answer falls back, and the coverage says that no model's answer is in it.
    private func mergedFallback(
        _ request: RoutingRequest, planned: Planned, runs: [ChunkCoverage.ChunkRun], reason: String, started: Date
    ) async throws -> RoutedResult {
        var whole = request
        whole.engine = .builtin
        whole.part = nil
        var routed = try await router.run(whole)
        routed.fallbacks.insert(FallbackStep(engine: planned.engine, reason: reason), at: 0)
        let unread = runs.map { run -> ChunkCoverage.ChunkRun in
            var run = run
            run.engine = .builtin
            run.read = 0
            run.fallbacks.append(FallbackStep(engine: .builtin, reason: reason))
            return run
        }
        routed.coverage = ChunkCoverage.of(
            plan: planned.plan, runs: unread,
            itemsPerSection: Array(repeating: 0, count: planned.plan.sectionHeadings.count))
        routed.seconds = router.clock.now().timeIntervalSince(started)
        return routed
    }

    /// The document's overview, written from the chunks' overviews in one summary request
    /// (which fits: a few sentences per chunk), through the router like any request.
    private func overview(
        of summaries: [(Summary, DocumentChunk)], request: RoutingRequest, router: RoutingEngine
    ) async throws -> (text: String, routed: RoutedResult)? {
        guard summaries.count > 1 else { return nil }
        let text = summaries.map { summary, chunk in
            (chunk.headings.first.map { $0 + "\n\n" } ?? "") + summary.overview
        }.joined(separator: "\n\n")
        var overviewRequest = request
        overviewRequest.document = Document(
            text: text, title: request.document.title, kind: request.document.kind, origin: request.document.origin,
            language: request.document.language)
        overviewRequest.part = nil
        overviewRequest.budget = budget
        guard let routed = try? await router.run(overviewRequest), case .summary(let summary) = routed.result else {
            return nil
        }
        return (summary.overview, routed)
    }
}
