import Foundation
import Synchronization

// MARK: - The runner

/// Runs a task whose document does not fit the window of the engine that would serve it, even
/// after escalation: cut on the outline (``ChunkPlanner``), one request per chunk through the
/// router (so each chunk has the cache, the ledger, the quota check and the fallback chain), at
/// most ``jobs`` at a time, results in document order, then one result (``ChunkReduce``) and
/// its ``ChunkCoverage``. A document that fits is passed to the router unchanged.
public struct ChunkedRunner: Sendable {
    /// The router every chunk goes through.
    public let router: RoutingEngine
    /// Chunk requests in flight at once (`--jobs`); `nil`: what the serving engine's server
    /// serves at once, at most 4 (``JobsChoice/choose(explicit:concurrency:kind:)``).
    public var jobs: Int?
    /// Chunks sent to a model at most; the rest are the builtin engine's. `nil`: no cap.
    public var maxChunks: Int?
    /// The explicit `--budget`: the time the whole job may take, the same deadline as the
    /// request's (counted from when the source was read), shared by every chunk and a summary's
    /// overview — not a budget per chunk. Chunks that start once it is spent go to the builtin
    /// engine without asking a model (``ChunkCoverage/BudgetUse``). With a remote engine and no
    /// `--budget`, the command's default sized for the document (``sizedBudget(_:tasks:floor:)``).
    /// `nil` for none: a command's default budget for local models alone is sized for a document
    /// that fits, so under it a long document is not chunked (the router extracts, then rewrites).
    public var budget: TimeBudget?
    /// Receives the line said before a run of more than ``announceAbove`` chunks.
    public var announce: @Sendable (String) -> Void
    /// Receives chunks done and the total after each chunk.
    public var progress: @Sendable (_ done: Int, _ total: Int) -> Void

    /// Tasks that are chunked (a whole kit is chunked part by part by ``KitAssembler``).
    public static let chunkedTasks: Set<StudyTask> = [.summary, .flashcards, .quiz, .mindmap]
    /// Runs of more chunks than this are announced before they start.
    public static let announceAbove = 10
    /// Items a chunk of average length is asked for.
    static func itemsPerChunk(_ task: StudyTask) -> Int? {
        switch task {
        case .flashcards: return 8
        case .quiz: return 4
        default: return nil
        }
    }
    /// Tokens held back in each chunk's budget for the part line of its prompt.
    static let partLineTokens = 120

    /// Creates a runner.
    public init(
        router: RoutingEngine, jobs: Int? = nil, maxChunks: Int? = nil, budget: TimeBudget? = nil,
        announce: @escaping @Sendable (String) -> Void = { _ in }, progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
    ) {
        self.router = router
        self.jobs = jobs
        self.maxChunks = maxChunks
        self.budget = budget
        self.announce = announce
        self.progress = progress
    }

    /// The chunk plan of a request, and the engine it is planned for; `nil` when the document
    /// fits the serving engine (or no model engine can serve, and the builtin engine reads it whole).
    public struct Planned: Sendable {
        /// The engine the chunks are sized for.
        public var engine: EngineKind
        /// Its window in tokens.
        public var window: Int
        /// The plan.
        public var plan: ChunkPlan
        /// Chunk requests in flight at once.
        public var jobs: Int
        /// Why that many: `--jobs`, the server's slots, a serializing server, …
        public var jobsFrom: JobsChoice.Source
        /// Chunks that go to a model (the rest, past `--max-chunks`, to the builtin engine).
        public var modelChunks: Int
        let outline: DocumentOutline
        /// The serving engine's count of one request: its prompt's overhead and response reserve.
        let check: BudgetCheck
    }

    /// Plans without generating: the engines are asked for their windows and token counts only.
    public func plan(_ request: RoutingRequest) async -> Planned? {
        await plan(request, outline: nil)
    }

    /// ``plan(_:)`` with the document's outline when the caller has it (``KitAssembler`` made
    /// it to decide on one kit request): the plan reads that one, not a new one.
    func plan(_ request: RoutingRequest, outline: DocumentOutline?) async -> Planned? {
        // A command's default time budget (import with local models alone) keeps the main job
        // fast: the router then has the builtin engine extract a part that does not fit whole and
        // the model rewrite its items. Chunks are for a run without a budget, with `--budget`, or
        // under the default a remote engine's run is given for its chunks (#54).
        if request.engine == .auto, request.budget != nil, budget == nil { return nil }
        return await planIgnoringBudget(request, outline: outline)
    }

    /// The most seconds ``sizedBudget(_:tasks:floor:)`` gives a job: a book's chunks past it go to
    /// the builtin engine, as under an explicit `--budget` that runs out.
    public static let sizedBudgetCap = 3_600.0

    /// The whole job's default time budget when a remote engine reads the document in chunks
    /// (#54): `floor` (the command's default, for what is not chunked: the headline, a summary's
    /// overview, item rewrites) plus what each of `tasks`' chunks is expected to take on that
    /// engine at its measured speed (the ledger's record of the model, else the kind's default),
    /// ``jobs`` at a time, at most ``sizedBudgetCap``. `nil` when no task would be read in chunks
    /// by a remote engine: the command's default budget stands, and a local engine's parts are
    /// extracted and rewritten under it as before.
    public func sizedBudget(_ request: RoutingRequest, tasks: [StudyTask], floor: Double) async -> Double? {
        var chunkSeconds = 0.0
        var chunked = false
        for task in tasks where Self.chunkedTasks.contains(task) {
            var asked = request
            asked.task = task
            guard let planned = await planIgnoringBudget(asked), planned.engine == .remote else { continue }
            chunked = true
            chunkSeconds += await expectedSeconds(planned, request: asked)
        }
        guard chunked else { return nil }
        return min(Self.sizedBudgetCap, max(floor, (floor + chunkSeconds).rounded(.up)))
    }

    /// The seconds the model chunks of a plan are expected to take, `jobs` at a time: their sum
    /// over the jobs, or the longest chunk when that is more.
    func expectedSeconds(_ planned: Planned, request: RoutingRequest) async -> Double {
        let engine = planned.engine == .remote ? router.remote : router.local
        let task = request.task
        let key = RoutingEngine.partKey(engine, task: task)
        let shares = Self.itemShares(planned.plan, task: task)
        var total = 0.0
        var longest = 0.0
        for (chunk, share) in zip(planned.plan.chunks.prefix(planned.modelChunks), shares) {
            // Priced as the router prices the chunk's request before it starts it.
            let counts = share.map { request.counts.asking($0, for: task) } ?? request.counts
            let limit = counts.responseLimit(for: task, reserve: planned.check.reserve)
            let response = min(limit, counts.expectedResponseTokens(for: task) ?? limit)
            let prompt = planned.check.overheadTokens + planned.check.allowance + chunk.estimatedTokens + Self.partLineTokens
            let seconds = await router.recorder.expectedSeconds(engine, key: key, promptTokens: prompt, responseTokens: response)
            total += seconds
            longest = max(longest, seconds)
        }
        return max(longest, total / Double(max(1, planned.jobs)))
    }

    /// ``plan(_:)`` whatever the request's budget.
    private func planIgnoringBudget(
        _ request: RoutingRequest, outline given: DocumentOutline? = nil
    ) async -> Planned? {
        guard Self.chunkedTasks.contains(request.task), request.engine != .builtin else { return nil }
        let document = request.document
        let decision = backend(for: request.task, characterCount: document.characterCount)
        let order = RoutingEngine.plan(decision: decision, choice: request.engine, offline: request.offline)
        // Asking a server for its window is bounded by the run's budget like any call to it: a
        // black-holed server must not hold the run for its whole deadline.
        let bound = request.budget
        let router = self.router
        func probe<T: Sendable>(_ ask: @escaping @Sendable () async throws -> T?) async -> T? {
            (try? await router.withinBudget(bound, floor: 0, ask)) ?? nil
        }
        for (position, kind) in order.enumerated() {
            if kind == .builtin { return nil }
            let engine = kind == .local ? router.local : router.remote
            guard engine.languages.supports(document.language) else { continue }
            if kind == .remote, router.remoteBlocker() != nil { continue }
            guard let budget = await probe({ () async throws -> BudgetCheck? in
                guard case .available = await engine.availability() else { return nil }
                return try await checkBudget(engine: engine, task: request.task, document: document, concept: nil, explanation: nil)
            })
            else { continue }
            if budget.fits {
                // A remote model whose window holds the whole document is asked per group of
                // sections when the document asks for more items than one answer writes well.
                // Only a task whose items are grouped is worth the outline (not a headline, a summary, a map).
                guard kind == .remote, SectionGroupPlanner.groupLimit(request.task) != nil else { return nil }
                let outline = given ?? DocumentOutline(text: document.text)
                let perByte = Double(budget.documentTokens) / Double(max(1, document.text.utf8.count)) * 1.05
                guard let plan = SectionGroupPlanner.plan(
                    text: document.text, outline: outline, task: request.task, size: request.size,
                    documentTokens: Int((Double(budget.documentTokens) * 1.05).rounded(.up)),
                    windowBudget: budget.documentBudget - Self.partLineTokens,
                    tokens: { Int((Double($0.utf8.count) * perByte).rounded(.up)) })
                else { return nil }
                let jobs = JobsChoice.choose(explicit: self.jobs, concurrency: await engine.concurrency(), kind: kind)
                return Planned(
                    engine: kind, window: budget.window.tokens, plan: plan, jobs: jobs.jobs, jobsFrom: jobs.source,
                    modelChunks: min(plan.chunks.count, maxChunks ?? plan.chunks.count), outline: outline,
                    check: budget)
            }
            // Local escalates to a larger remote window: the chunks are sized for that one.
            if kind == .local, request.engine == .auto, order[(position + 1)...].contains(.remote),
                router.remote.languages.supports(document.language), router.remoteBlocker() == nil,
                let larger = await probe({ () async throws -> Int? in
                    guard case .available = await router.remote.availability() else { return nil }
                    return try await router.remote.contextSize().tokens
                }),
                larger > budget.window.tokens
            {
                continue
            }
            let chunkBudget = budget.documentBudget - Self.partLineTokens
            guard chunkBudget >= RoutingEngine.minimumDocumentBudget else { return nil }
            // One count of the whole document gives the tokens per byte of this text; 5% more
            // keeps an estimated chunk from spilling over its exact count.
            let perByte = Double(budget.documentTokens) / Double(max(1, document.text.utf8.count)) * 1.05
            let outline = given ?? DocumentOutline(text: document.text)
            let plan = ChunkPlanner.plan(text: document.text, outline: outline, budget: chunkBudget) {
                Int((Double($0.utf8.count) * perByte).rounded(.up))
            }
            guard plan.chunks.count > 1 else { return nil }
            // The server's concurrency is part of its discovery, which availability just made.
            let jobs = JobsChoice.choose(explicit: self.jobs, concurrency: await engine.concurrency(), kind: kind)
            return Planned(
                engine: kind, window: budget.window.tokens, plan: plan, jobs: jobs.jobs, jobsFrom: jobs.source,
                modelChunks: min(plan.chunks.count, maxChunks ?? plan.chunks.count), outline: outline, check: budget)
        }
        return nil
    }

    /// Runs the request: chunked when its document does not fit, else straight through the router.
    public func run(_ request: RoutingRequest) async throws -> RoutedResult {
        try await run(request, outline: nil)
    }

    /// ``run(_:)`` with the document's outline when the caller has it.
    func run(_ request: RoutingRequest, outline: DocumentOutline?) async throws -> RoutedResult {
        guard let planned = await plan(request, outline: outline) else { return try await router.run(request) }
        return try await run(request, planned: planned)
    }

    private func run(_ request: RoutingRequest, planned: Planned) async throws -> RoutedResult {
        let started = router.clock.now()
        let plan = planned.plan
        let total = plan.chunks.count
        let document = request.document
        if total > Self.announceAbove {
            let items = request.task == .quiz ? "questions" : "cards"
            let why = plan.groupedItems.map {
                "\(document.origin) asks for \($0) \(items), more than one answer writes well: "
            }
                ?? "\(document.origin) is too long for the \(planned.engine.rawValue) engine's "
                + "\(planned.window)-token window: "
            let kind = plan.groupedItems == nil ? "chunk" : "group"
            announce(
                why + "\(request.task.name) will make \(planned.modelChunks) \(kind) "
                    + "request\(planned.modelChunks == 1 ? "" : "s")"
                    + (planned.modelChunks < total ? " (\(total) chunks; the builtin engine takes the \(total - planned.modelChunks) past --max-chunks)" : "")
                    + ", \(planned.jobs) at a time (\(planned.jobsFrom.rawValue))")
        }
        let shares = Self.itemShares(plan, task: request.task)
        let done = Mutex(0)
        // Chunks that started once the whole job's budget was spent.
        var afterBudget = 0
        // Streamed text goes out in document order: chunk k's once chunks 1…k-1 have ended
        // (and the summary's overview, request `total`, last).
        let ordered = router.onPartial.map(OrderedPartials.init(show:))
        func orderedRouter(for index: Int) -> RoutingEngine {
            guard let ordered else { return self.router }
            var router = self.router
            router.onPartial = { text in ordered.partial(index, text) }
            return router
        }
        progress(0, total)
        let outcomes = try await withThrowingTaskGroup(of: (Int, RoutedResult?, String?, Bool).self) { group in
            var results = [(RoutedResult?, String?)](repeating: (nil, nil), count: total)
            var next = 0
            func chunkRequest(_ index: Int) -> RoutingRequest {
                let chunk = plan.chunks[index]
                var part = request
                part.document = Document(
                    text: chunk.text, title: document.title, kind: document.kind, origin: document.origin, language: document.language)
                part.part = DocumentPart(index: index, total: total, items: shares[index], headings: chunk.headings)
                part.budget = budget
                if index >= planned.modelChunks { part.engine = .builtin }
                return part
            }
            while next < min(planned.jobs, total) {
                let index = next, sub = chunkRequest(next), chunkRouter = orderedRouter(for: next)
                group.addTask { try await runChunk(sub, index: index, forced: request.engine != .auto, router: chunkRouter) }
                next += 1
            }
            while let (index, routed, failure, late) = try await group.next() {
                ordered?.finish(index)
                if late { afterBudget += 1 }
                results[index] = (routed, failure)
                let count = done.withLock { value in
                    value += 1
                    return value
                }
                progress(count, total)
                if next < total {
                    let index = next, sub = chunkRequest(next), chunkRouter = orderedRouter(for: next)
                    group.addTask { try await runChunk(sub, index: index, forced: request.engine != .auto, router: chunkRouter) }
                    next += 1
                }
            }
            return results
        }
        var routed = try await reduce(request, planned: planned, outcomes: outcomes, started: started, overviewRouter: orderedRouter(for: total))
        if let budget { routed.coverage?.budget = ChunkCoverage.BudgetUse(seconds: budget.seconds, chunksAfter: afterBudget) }
        return routed
    }

    /// One chunk through the router, and whether it started once the whole job's budget was
    /// spent. Under automatic routing a chunk that even the builtin engine cannot answer (too
    /// little text for its task) is a chunk without items, not a failed run; a forced engine's
    /// failure, and cancellation, end the whole run.
    private func runChunk(
        _ request: RoutingRequest, index: Int, forced: Bool, router: RoutingEngine
    ) async throws -> (Int, RoutedResult?, String?, Bool) {
        let late = budget.map { $0.remaining(at: router.clock.now()) <= 0 } ?? false
        do {
            return (index, try await router.run(request), nil, late)
        } catch {
            if forced || error is CancellationError || Task.isCancelled { throw error }
            return (index, nil, RoutingEngine.reason(for: error), late)
        }
    }

    /// Each chunk's share of the items, in proportion to its length: an average chunk gets
    /// ``itemsPerChunk(_:)``, none fewer than 3 or more than the schema's 20 (quiz: 10); a group
    /// of sections its share of the items the document asks for (``SectionGroupPlanner``).
    static func itemShares(_ plan: ChunkPlan, task: StudyTask) -> [Int?] {
        if let wanted = plan.groupedItems { return SectionGroupPlanner.shares(plan, task: task, wanted: wanted) }
        guard let perChunk = itemsPerChunk(task) else { return plan.chunks.map { _ in nil } }
        let most = task == .quiz ? 10 : 20
        let lengths = plan.chunks.map { Double($0.offsets.count) }
        let total = max(1, lengths.reduce(0, +))
        let items = Double(perChunk * plan.chunks.count)
        return lengths.map { min(most, max(3, Int((items * $0 / total).rounded()))) }
    }

    // MARK: reduce

    private func reduce(
        _ request: RoutingRequest, planned: Planned, outcomes: [(RoutedResult?, String?)], started: Date, overviewRouter: RoutingEngine
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
            : ChunkReduce.owners(levels: outline.sections.map { $0.heading == nil ? 0 : $0.level }, chunks: plan.chunks.map(\.sections))

        // The section an item comes from: the one of its chunk holding its quote, else the chunk's first.
        func section(of quote: String?, in chunk: DocumentChunk) -> Int? {
            if let quote, !quote.isEmpty,
                let found = chunk.sections.first(where: { String(document.text[outline.sections[$0].range]).contains(quote) })
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
                origins += deck.cards.enumerated().map { ItemOrigin(chunk: chunk.index, index: $0, section: section(of: $1.quote, in: chunk)) }
            case .quiz(let quiz):
                items = quiz.questions.count
                questions += quiz.questions
                origins += quiz.questions.enumerated().map { ItemOrigin(chunk: chunk.index, index: $0, section: section(of: $1.quote, in: chunk)) }
            case .summary(let summary):
                items = summary.keyPoints.count
                summaries.append((summary, chunk))
                origins += summary.keyPoints.indices.map { ItemOrigin(chunk: chunk.index, index: $0, section: chunk.sections.first) }
            case .mindMap(let map):
                items = map.branches.count
                let owner = owners[chunk.index].flatMap { outline.sections[$0].heading }
                maps.append((chunk.index, ChunkReduce.MapPart(map: map, section: owner, headings: chunk.headings)))
                if let at = chunk.sections.first { itemsPerSection[at] += items }
            default: break
            }
            var fallbacks = routed?.fallbacks ?? []
            if chunk.index >= planned.modelChunks {
                fallbacks.append(FallbackStep(engine: .builtin, reason: FallbackReason.pastMaxChunks(planned.modelChunks).text))
            }
            if let failure = outcome.1 { fallbacks.append(FallbackStep(engine: .builtin, reason: failure)) }
            let readByModel = routed.map { $0.engine != .builtin } ?? false
            let fitted = routed?.fitted.cut ?? false
            let length = chunk.offsets.count
            let read = !readByModel ? 0 : (fitted ? min(length, routed?.fitted.keptCharacters ?? 0) : length)
            runs.append(ChunkCoverage.ChunkRun(
                part: nil, index: chunk.index, offsets: chunk.offsets, headings: chunk.headings, sections: chunk.sections,
                engine: routed?.engine, model: routed?.model ?? "", cached: routed?.cached ?? false, fitted: fitted, read: read,
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
            result = .summary(Summary(overview: overview?.text ?? summaries.first?.0.overview ?? "", keyPoints: kept.map { points[$0] }))
        case .mindmap:
            let topic = document.title ?? maps.first?.part.map.centralTopic ?? "Document"
            result = .mindMap(ChunkReduce.merge(maps.map(\.part), centralTopic: topic, branchLimit: ChunkReduce.branchLimit(chunks: plan.chunks.count)))
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
        for (run, routed) in zip(runs, outcomes.map(\.0)) { if let routed { readBy[routed.engine, default: 0] += run.offsets.count } }
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
                (outcome.0?.fallbacks ?? []).map { FallbackStep(engine: $0.engine, reason: "chunk \(chunk.index + 1): \($0.reason)") }
            } + extra.flatMap { $0.fallbacks.map { FallbackStep(engine: $0.engine, reason: "overview: \($0.reason)") } },
            usage: usage, reasked: all.contains(where: \.reasked))
        routed.attempts = all.flatMap(\.attempts)
        routed.seconds = router.clock.now().timeIntervalSince(started)
        routed.dropped = zip(plan.chunks, outcomes).flatMap { chunk, outcome in
            (outcome.0?.dropped ?? []).map { DroppedItem(path: "chunk \(chunk.index + 1).\($0.path)", reason: $0.reason) }
        } + dropped
        routed.coverage = coverage
        routed.items = Self.mergedItems(result: result, origins: origins, chunkAnswers: outcomes.map(\.0), overview: extra.first, maps: maps)
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
        let what = list == "keyPoints" ? "repeats an earlier key point" : "repeats the \(list == "cards" ? "question" : "prompt") or the quote of an earlier item"
        return origins.indices.filter { !keptSet.contains($0) }.map { index in
            let origin = origins[index]
            return DroppedItem(path: "chunk \(origin.chunk + 1).\(list)[\(origin.index)]", reason: what + "; left out when the chunks were joined")
        }
    }

    /// Items the merged part's check dropped, an item of `list` named by its chunk and its place
    /// in that chunk's answer; and the positions in `list` of the items that went.
    static func located(_ dropped: [DroppedItem], list: String?, origins: [ItemOrigin]) -> (dropped: [DroppedItem], gone: Set<Int>) {
        var gone: Set<Int> = []
        let located = dropped.map { item -> DroppedItem in
            let steps = PathStep.parse(item.path)
            guard let list, steps.count >= 2, steps[0] == .member(list), case .index(let index) = steps[1], origins.indices.contains(index)
            else { return item }
            if steps.count == 2 { gone.insert(index) }
            let origin = origins[index]
            let rest = PathStep.text(Array(steps.dropFirst(2)))
            let path = "chunk \(origin.chunk + 1).\(list)[\(origin.index)]" + (rest.isEmpty || rest.hasPrefix("[") ? rest : "." + rest)
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
            plan: planned.plan, runs: unread, itemsPerSection: Array(repeating: 0, count: planned.plan.sectionHeadings.count))
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
        guard let routed = try? await router.run(overviewRequest), case .summary(let summary) = routed.result else { return nil }
        return (summary.overview, routed)
    }
}
