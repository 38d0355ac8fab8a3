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
        announce: @escaping @Sendable (String) -> Void = { _ in },
        progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
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
            let prompt =
                planned.check.overheadTokens + planned.check.allowance + chunk.estimatedTokens + Self.partLineTokens
            let seconds = await router.recorder.expectedSeconds(
                engine, key: key, promptTokens: prompt, responseTokens: response)
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
                    return try await checkBudget(
                        engine: engine, task: request.task, document: document, concept: nil, explanation: nil)
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
                    + (planned.modelChunks < total
                        ? " (\(total) chunks; the builtin engine takes the \(total - planned.modelChunks) past "
                            + "--max-chunks)"
                        : "")
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
                    text: chunk.text, title: document.title, kind: document.kind, origin: document.origin,
                    language: document.language)
                part.part = DocumentPart(index: index, total: total, items: shares[index], headings: chunk.headings)
                part.budget = budget
                if index >= planned.modelChunks { part.engine = .builtin }
                return part
            }
            while next < min(planned.jobs, total) {
                let index = next, sub = chunkRequest(next), chunkRouter = orderedRouter(for: next)
                group.addTask {
                    try await runChunk(sub, index: index, forced: request.engine != .auto, router: chunkRouter)
                }
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
                    group.addTask {
                        try await runChunk(sub, index: index, forced: request.engine != .auto, router: chunkRouter)
                    }
                    next += 1
                }
            }
            return results
        }
        var routed = try await reduce(
            request, planned: planned, outcomes: outcomes, started: started, overviewRouter: orderedRouter(for: total))
        if let budget {
            routed.coverage?.budget = ChunkCoverage.BudgetUse(seconds: budget.seconds, chunksAfter: afterBudget)
        }
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
}
