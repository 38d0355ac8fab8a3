import Foundation

// MARK: - Request and result

/// One job for the router.
public struct RoutingRequest: Sendable {
    /// The task.
    public var task: StudyTask
    /// The normalized source.
    public var document: Document
    /// Feynman: the concept.
    public var concept: String?
    /// Feynman: the student's explanation.
    public var explanation: String?
    /// Which engines may answer: the policy's plan, or one engine forced.
    public var engine: EngineChoice
    /// Never call the remote engine (nothing leaves the machine).
    public var offline: Bool
    /// Read and write the result cache.
    public var useCache: Bool
    /// `--budget`: the time the whole job may take; `nil` for no limit.
    public var budget: TimeBudget?
    /// Set when ``document`` is one chunk of a longer document (``ChunkedRunner``): which part
    /// it is and how many items it should give; it adds one line to the prompt.
    public var part: DocumentPart? = nil
    /// How many cards and questions (`--cards`, `--questions`); by default they follow the material (#54).
    public var size: KitSize = .followsMaterial
    /// How many items a whole part asks for (a line of the prompt), and what a model's answer is
    /// judged against: kept when half of them pass, topped up to them (#53).
    public var counts: ItemCounts = .standard
    /// Whether only the first model engine of the plan may answer: its failure is thrown instead
    /// of falling back to the next engine or the builtin one. A kit's single request uses it, so
    /// a kit the remote model fails is asked again part by part on the same engine (#53).
    public var firstEngineOnly = false
    /// Whether this is `import`'s headline (``KitAssembler``): under a time budget the local
    /// model is not asked it (``RoutingEngine/kitHeadlinePassedOver(_:kind:)``).
    var isKitHeadline = false

    /// Creates a request; by default the policy decides, remote is allowed and the cache is used.
    public init(
        task: StudyTask, document: Document, concept: String? = nil, explanation: String? = nil,
        engine: EngineChoice = .auto, offline: Bool = false, useCache: Bool = true, budget: TimeBudget? = nil
    ) {
        self.budget = budget
        self.task = task
        self.document = document
        self.concept = concept
        self.explanation = explanation
        self.engine = engine
        self.offline = offline
        self.useCache = useCache
    }
}

/// One step of the fallback chain: an engine that was tried or skipped, and why.
public struct FallbackStep: Sendable, Equatable {
    /// The engine that was tried or skipped.
    public var engine: EngineKind
    /// Why it did not answer.
    public var reason: String

    /// Creates a step.
    public init(engine: EngineKind, reason: String) {
        self.engine = engine
        self.reason = reason
    }
}

/// A validated result and the honest story of how it was made.
public struct RoutedResult: Sendable, Equatable {
    /// The typed, validated result.
    public var result: AnyStudyResult
    /// The engine that answered.
    public var engine: EngineKind
    /// Its model.
    public var model: String
    /// The policy's decision before any fallback.
    public var decision: Backend
    /// What was cut to fit.
    public var fitted: FitReport
    /// Whether the answer came from the cache.
    public var cached: Bool
    /// What was tried before, and why it did not answer.
    public var fallbacks: [FallbackStep]
    /// Tokens in and out, summed over the answering engine's requests (`nil` from cache or builtin).
    public var usage: Usage?
    /// Whether the model needed its one re-ask.
    public var reasked: Bool
    /// Every model attempt made for this result, in order (skips are in ``fallbacks``).
    public var attempts: [AttemptReport] = []
    /// Wall-clock seconds spent on this result, attempts and fallbacks included.
    public var seconds: Double = 0
    /// How each item was made, when the part was not written whole by one engine; empty otherwise.
    public var items: [ItemProvenance] = []
    /// Items the model wrote that failed grounding in its answer and again after the re-ask, and
    /// were dropped from the result (``Grounding/dropUngrounded(_:source:)``).
    public var dropped: [DroppedItem] = []
    /// What a model read of a document that was read in chunks (``ChunkedRunner``); `nil` when
    /// the document went in one request.
    public var coverage: ChunkCoverage? = nil
    /// The parts of a kit answered in one request whose model answer had too few usable items
    /// and were replaced by the builtin engine's (``PartJudge``): ``KitAssembler`` asks each of
    /// them again on its own.
    var refusedParts: [StudyTask] = []
    /// Whether the model's answer was judged item by item (``PartJudge``) rather than passing
    /// whole: items were repaired, dropped or added from the builtin engine.
    var judged = false

    /// The tokens of several results added up (a kit's parts, a document's chunks); `nil` when
    /// none of them spent any (all from the cache or the builtin engine).
    static func summedUsage(_ results: [RoutedResult]) -> Usage? {
        var usage: Usage?
        for spent in results.compactMap(\.usage) {
            usage = Usage(
                promptTokens: (usage?.promptTokens ?? 0) + spent.promptTokens,
                completionTokens: (usage?.completionTokens ?? 0) + spent.completionTokens, method: spent.method)
        }
        return usage
    }
}

/// Failures of the router itself (engine failures are ``EngineError``).
public enum RoutingError: StudyKitError, Equatable {
    /// A forced engine (``EngineChoice`` other than `auto`) could not serve.
    case forcedEngineFailed(EngineKind, reason: String)
    /// Every engine in the plan failed.
    case noEngine([FallbackStep])
    /// A forced engine does not support the document's language.
    case unsupportedLanguage(EngineKind, language: String, supported: LanguageSupport)
    /// A forced engine was still working when the explicit `--budget` of `seconds` ran out: it
    /// was stopped, and nothing was cached.
    case forcedEngineOutOfBudget(EngineKind, seconds: Double)

    /// One line naming the engine and what to do.
    public var message: String {
        switch self {
        case .forcedEngineFailed(let engine, let reason):
            return "the \(engine.rawValue) engine could not serve: \(reason); drop --engine to let studykit fall back"
        case .unsupportedLanguage(let engine, let language, let supported):
            let setting = engine == .local ? "STUDYKIT_LOCAL_LANGUAGES" : "STUDYKIT_REMOTE_LANGUAGES"
            return "the \(engine.rawValue) engine does not support the document's language, \(LanguageDetector.displayName(language)) (it declares \(supported.displayText)); add \(language) to \(setting) if its model writes it, or use --engine builtin or drop --engine"
        case .forcedEngineOutOfBudget(let engine, let seconds):
            return "the \(engine.rawValue) engine did not finish within --budget \(CapabilityPolicy.seconds(seconds)); it was stopped and nothing was cached; raise --budget, or drop it to let the forced engine run to the end"
        case .noEngine(let steps):
            let tried = steps.map { "\($0.engine.rawValue): \($0.reason)" }.joined(separator: "; ")
            return "no engine could serve (\(tried))"
        }
    }

    /// Always 69.
    public var exitCode: ExitCode { .unavailable }
}

// MARK: - The engine

/// Carries out the routing policy: cache, preferred engine, escalation, fallback, fitting, validation.
///
/// The decision is ``backend(for:characterCount:)``; this type executes it so the user always
/// gets a result, and records every step in ``RoutedResult/fallbacks``:
/// - local preferred and failing (unavailable, window too small, invalid after the re-ask,
///   transport) → remote;
/// - remote preferred and unavailable, over the daily quota, or refusing with a quota error →
///   local, with the content fitted to the local window, and remote is not called again;
/// - an engine that does not support the document's language (``LanguageModel/languages``) →
///   skipped before it is contacted, "does not support fr"; forced, ``RoutingError/unsupportedLanguage(_:language:supported:)``;
/// - content larger than the chosen window → the larger window if one can serve, else fitted;
/// - no model engine → the builtin extractive engine, labelled `builtin`.
public struct RoutingEngine: Sendable {
    let local: any LanguageModel
    let remote: any LanguageModel
    let builtin: BuiltinEngine
    let cache: (any ResultCaching)?
    let ledger: (any UsageMetering)?
    let quota: DailyQuota?
    let note: @Sendable (String) -> Void
    let warn: @Sendable (String) -> Void
    /// What this process learnt about the remote quota; shared by every copy of the router, so a
    /// refusal holds for every part of a kit and the rest of the run.
    let remoteQuota = RemoteQuotaState()
    /// Warnings already given in this run, shared by every copy of the router.
    let warnings = OnceWarnings()
    /// The item answers models gave in this process, shared by every copy of the router so a
    /// kit's quiz reuses what its flashcards asked (``ItemAnswers``).
    let itemAnswers = ItemAnswers()
    /// Receives the streamed text; a chunked run gives each chunk's copy of the router its own
    /// (``OrderedPartials``), so the chunks' text is shown in document order.
    var onPartial: (@Sendable (String) -> Void)?
    let memory: (any AttemptRecording)?
    let capability: CapabilityPolicy
    let clock: any DayClock
    /// Benchmarks only: fit by the padded estimate even where the engine has a tokenizer, as
    /// fitting did before it counted the fitted prompt, so `scripts/bench-fit` measures both in one run.
    /// Given in ``init(local:remote:fitsByEstimate:)``.
    private(set) var fitsByEstimate = false

    /// Creates a router.
    /// - Parameters:
    ///   - local, remote: the model engines (an ``UnconfiguredEngine`` when there is none).
    ///   - cache: the result cache, or `nil` for none.
    ///   - ledger, quota: the usage ledger and the remote daily quota it enforces.
    ///   - note: receives one line per decision, for a caller that explains them.
    ///   - warn: receives the line the user must see whatever the verbosity (a daily quota that
    ///     cannot be counted because the ledger fails), at most once per router.
    ///   - onPartial: receives growing snapshots of the model's text while it streams; `nil`
    ///     asks for whole answers only.
    ///   - memory: the capability memory, recording every attempt and skipping models that keep failing.
    ///   - capability: when a model is skipped (``CapabilityPolicy``).
    ///   - clock: times attempts and the budget.
    public init(
        local: any LanguageModel, remote: any LanguageModel, builtin: BuiltinEngine = BuiltinEngine(),
        cache: (any ResultCaching)? = nil, ledger: (any UsageMetering)? = nil, quota: DailyQuota? = nil,
        note: @escaping @Sendable (String) -> Void = { _ in }, warn: @escaping @Sendable (String) -> Void = { _ in },
        onPartial: (@Sendable (String) -> Void)? = nil,
        memory: (any AttemptRecording)? = nil, capability: CapabilityPolicy = CapabilityPolicy(),
        clock: any DayClock = SystemDayClock()
    ) {
        self.memory = memory
        self.capability = capability
        self.clock = clock
        self.local = local
        self.remote = remote
        self.builtin = builtin
        self.cache = cache
        self.ledger = ledger
        self.quota = quota
        self.note = note
        self.warn = warn
        self.onPartial = onPartial
    }

    /// Creates a router for `scripts/bench-fit`, which compares fitting by a count of the fitted
    /// prompt with fitting by the padded estimate, as fitting was before it counted the fitted prompt.
    @_spi(Benchmarks) public init(local: any LanguageModel, remote: any LanguageModel, fitsByEstimate: Bool) {
        self.init(local: local, remote: remote)
        self.fitsByEstimate = fitsByEstimate
    }

    /// The engines to try, in order, for a decision, the engine choice and offline mode. Pure.
    public static func plan(decision: Backend, choice: EngineChoice, offline: Bool) -> [EngineKind] {
        let order: [EngineKind]
        switch choice {
        case .local: order = [.local]
        case .remote: order = [.remote]
        case .builtin: order = [.builtin]
        case .auto: order = decision == .local ? [.local, .remote, .builtin] : [.remote, .local, .builtin]
        }
        return offline ? order.filter { $0 != .remote } : order
    }

    /// Runs the request through the plan and returns the first validated result.
    /// Throws ``RoutingError`` (exit 69) when a forced engine fails, or the builtin engine's error
    /// when even it cannot make a valid result from the text.
    public func run(_ request: RoutingRequest) async throws -> RoutedResult {
        let started = clock.now()
        let log = AttemptLog()
        func finished(_ result: RoutedResult) -> RoutedResult {
            var result = result
            result.attempts = log.reports
            result.seconds = clock.now().timeIntervalSince(started)
            return result
        }
        let decision = backend(for: request.task, characterCount: request.document.characterCount)
        let order = Self.plan(decision: decision, choice: request.engine, offline: request.offline)
        let forced = request.engine != .auto
        var fallbacks: [FallbackStep] = []

        for (position, kind) in order.enumerated() {
            // Interrupted: no other engine is tried, not even the builtin one.
            try Task.checkCancellation()
            if request.firstEngineOnly, fallbacks.contains(where: { $0.engine != .builtin }) {
                throw RoutingError.noEngine(fallbacks)
            }
            if kind == .builtin {
                if request.firstEngineOnly { throw RoutingError.noEngine(fallbacks) }
                return finished(try await builtinResult(request, decision: decision, fallbacks: fallbacks, log: log))
            }
            let engine = kind == .local ? local : remote
            // A model that does not read the document's language would answer in the wrong one.
            let language = request.document.language
            if !engine.languages.supports(language) {
                let reason = FallbackReason.unsupportedLanguage(
                    language: LanguageDetector.displayName(language), declared: engine.languages.displayText).text
                fallbacks.append(FallbackStep(engine: kind, reason: reason))
                note("skipping \(kind.rawValue): it \(reason) (it declares \(engine.languages.displayText))")
                if forced { throw RoutingError.unsupportedLanguage(kind, language: language, supported: engine.languages) }
                continue
            }
            let skip: String? = kind == .remote ? remoteBlocker() : nil
            if let skip {
                fallbacks.append(FallbackStep(engine: kind, reason: skip))
                note("skipping remote: \(skip)")
                if forced { throw RoutingError.forcedEngineFailed(kind, reason: skip) }
                continue
            }
            // `--engine X` always tries X: the record only steers automatic routing. The record
            // saves attempts, and an answer this model gave to this very request, in the cache,
            // costs none: it is served before the skip (the whole material's prompt, which needs
            // no call to the engine to name).
            if !forced, let skip = capabilitySkip(engine, key: Self.partKey(engine, task: request.task)) {
                if let hit = cachedAnswer(request, engine: engine, prompt: Self.wholePrompt(request), fitted: false, decision: decision, fallbacks: fallbacks) {
                    return finished(hit)
                }
                fallbacks.append(FallbackStep(engine: kind, reason: skip))
                note("\(kind.rawValue): \(skip)")
                continue
            }
            if let passed = Self.kitHeadlinePassedOver(request, kind: kind) {
                fallbacks.append(FallbackStep(engine: kind, reason: passed))
                note("\(kind.rawValue): \(passed)")
                continue
            }
            let mayEscalate = request.engine == .auto && kind == .local && order[(position + 1)...].contains(.remote)
                && remoteBlocker() == nil
            // A headline half repaired from the builtin engine's stands in for the builtin floor, never
            // for a model engine still to come, which may write it whole (one that will not be asked,
            // as the local model for a kit's headline under a budget, writes nothing).
            let lastModel = !order[(position + 1)...].contains {
                $0 != .builtin && Self.kitHeadlinePassedOver(request, kind: $0) == nil
            }
            do {
                return finished(try await attempt(
                    request, engine: engine, decision: decision, mayEscalate: mayEscalate, fallbacks: fallbacks,
                    log: log, halfRepairs: lastModel))
            } catch let skip as BudgetSkip {
                if forced, let budget = request.budget { throw RoutingError.forcedEngineOutOfBudget(kind, seconds: budget.seconds) }
                fallbacks.append(FallbackStep(engine: kind, reason: skip.reason))
                note("\(kind.rawValue): \(skip.reason)")
            } catch let escalation as Escalation {
                fallbacks.append(FallbackStep(engine: kind, reason: escalation.reason))
                note("\(kind.rawValue): \(escalation.reason)")
            } catch {
                let reason = Self.reason(for: error)
                fallbacks.append(FallbackStep(engine: kind, reason: reason))
                note("\(kind.rawValue) failed: \(reason)")
                // A forced engine under an explicit --budget is stopped when the budget runs out.
                if forced, let budget = request.budget, budget.remaining(at: clock.now()) <= 0 {
                    throw RoutingError.forcedEngineOutOfBudget(kind, seconds: budget.seconds)
                }
                if forced { throw RoutingError.forcedEngineFailed(kind, reason: reason) }
                if error is CancellationError { throw error }
            }
        }
        throw RoutingError.noEngine(fallbacks)
    }

    // MARK: one engine

    private func attempt(
        _ request: RoutingRequest, engine: any LanguageModel, decision: Backend, mayEscalate: Bool, fallbacks: [FallbackStep],
        log: AttemptLog, halfRepairs: Bool = false
    ) async throws -> RoutedResult {
        let kind = engine.kind
        let task = request.task
        let document = request.document
        let partLine = Self.requestLine(request)
        let whole = Self.wholePrompt(request)

        // The cache comes first: a hit makes no engine call at all, not even a window lookup.
        if let hit = cachedAnswer(request, engine: engine, prompt: whole, fitted: false, decision: decision, fallbacks: fallbacks) { return hit }

        // Under a budget every call to the server counts against it, not only the generation
        // (which has its own bound below): discovery, the window and token counts of a server
        // that accepts and never answers cost at most what is left, and nothing starts once it is spent.
        // A forced engine has a budget only when the user gave one (`--engine X --budget N`): it
        // bounds the attempt, though none of automatic routing's budget policy applies.
        let bound = request.budget
        if case .unavailable(let reason) = try await withinBudget(bound, floor: 0, { await engine.availability() }) {
            throw EngineError.unavailable(reason: reason)
        }
        let budget = try await withinBudget(bound, floor: 0) {
            try await checkBudget(
                engine: engine, task: task, document: document, concept: request.concept, explanation: request.explanation, part: partLine)
        }
        if case .assumed(let reason) = budget.window.source, warnings.first("window \(kind.rawValue)") {
            warn("the \(kind.rawValue) engine's window is assumed to be \(budget.window.tokens) tokens: \(reason)")
        }
        var prompt = whole
        // What the model is shown of the material, for the grounding checks.
        var sent = document.text
        var fitted = FitReport.whole(document, tokens: budget.documentTokens)
        // Under a time budget a headline is a Post-it job: the opening, the headings and the
        // best sentences of each section, not the whole material, so its prompt is processed in
        // a beat and the rest of the budget goes to the kit's other parts.
        let underBudget = request.engine == .auto && request.budget != nil
        let postIt = underBudget && task == .headline
        // Material a headline can read whole in a beat (a pasted page) goes whole.
        let postItCut = postIt && budget.documentTokens > Self.headlineWholeTokens
        let postItTokens = kind == .local ? Self.localHeadlineDocumentTokens : Self.headlineDocumentTokens
        let target = postItCut ? min(budget.documentBudget, postItTokens) : budget.documentBudget
        if !budget.fits || budget.documentTokens > target {
            if !budget.fits, mayEscalate, let larger = try? await withinBudget(bound, floor: 0, { await self.largerWindow(than: budget.window.tokens) }) {
                throw Escalation(reason: FallbackReason.escalated(budget, largerWindow: larger).text)
            }
            // Under a time budget a fitted whole part is a poor use of it: the builtin engine
            // extracts from the whole material and the model rewrites its items instead (a whole
            // kit is assembled part by part, each with its own items). A headline is already a
            // Post-it of the material.
            if !budget.fits, underBudget, !postIt {
                let rest = Self.rewritableTasks.contains(task) ? "the builtin engine extracts and the model rewrites items" : "the builtin engine extracts it"
                throw BudgetSkip(reason: FallbackReason.doesNotFitWhole(budget, instead: rest).text)
            }
            guard budget.documentBudget >= Self.minimumDocumentBudget else {
                throw EngineError.contextExceeded(tokens: budget.totalTokens, window: budget.window.tokens)
            }
            let byEstimate = fitsByEstimate
            let content = try await withinBudget(bound, floor: 0) {
                if byEstimate { return fitContent(document, documentTokens: budget.documentTokens, budget: target) }
                return try await fitContent(document, budget: budget, target: target, engine: engine) { fitted in
                    task.instructions + "\n"
                        + task.prompt(
                            document: fitted, title: document.title, concept: request.concept, explanation: request.explanation,
                            language: document.language, part: partLine)
                }
            }
            note(
                "\(kind.rawValue): fitted \(content.report.keptCharacters) of \(content.report.totalCharacters) characters "
                    + (budget.fits ? "to a headline's \(target) tokens under the time budget" : "to a \(budget.window.tokens)-token window")
                    + (content.report.method == .estimate ? " (by a conservative estimate: the engine has no tokenizer)" : ""))
            prompt = task.prompt(
                document: content.text, title: document.title, concept: request.concept, explanation: request.explanation,
                language: document.language, part: partLine)
            sent = content.text
            fitted = content.report
            if let hit = cachedAnswer(request, engine: engine, prompt: prompt, fitted: true, decision: decision, fallbacks: fallbacks) { return hit }
        }

        if let refused = storedRefusal(task: task, engine: engine, prompt: prompt, fitted: fitted.cut, request: request) {
            throw BudgetSkip(reason: refused)
        }
        let key = Self.partKey(engine, task: task)
        let counts = request.part?.items.map { request.counts.asking($0, for: task) } ?? request.counts
        // Sent with a limit sized from the items asked for, and estimated at what such an
        // answer takes, not at the most it may take (#53).
        let limit = counts.responseLimit(for: task, reserve: budget.reserve)
        if request.engine == .auto, let timeBudget = request.budget {
            let promptTokens = budget.overheadTokens + min(budget.documentTokens, target) + budget.allowance
            let expected = min(limit, counts.expectedResponseTokens(for: task) ?? limit)
            if let skip = await budgetSkip(engine, key: key, promptTokens: promptTokens, responseTokens: expected, budget: timeBudget) {
                throw BudgetSkip(reason: skip)
            }
        }
        var generated: Generated
        do {
            generated = try await generateValidated(
                task: task, engine: engine, prompt: prompt, material: [document.title, sent].compactMap { $0 }.joined(separator: "\n"),
                document: document, reserve: limit, key: key, log: log, deadline: request.budget, counts: counts,
                stopsCopies: request.engine == .auto, halfRepairs: halfRepairs)
        } catch {
            storeRefusal(error, task: task, engine: engine, prompt: prompt, fitted: fitted.cut, request: request)
            throw error
        }
        // A server model's copied key points, restated by it where it can (#53).
        if request.engine == .auto, kind == .remote, capability.restatesCopiedKeyPoints {
            (generated.result, generated.items) = await restatingCopiedKeyPoints(
                generated.result, items: generated.items, engine: engine, request: request,
                material: InjectedInstructions([document.title, sent].compactMap { $0 }.joined(separator: "\n")).stripped,
                log: log)
        }
        if request.useCache {
            store(generated.result, task: task, engine: engine, prompt: prompt, fitted: fitted)
        }
        var routed = RoutedResult(
            result: generated.result, engine: kind, model: generated.model, decision: decision, fitted: fitted, cached: false,
            fallbacks: fallbacks, usage: generated.usage, reasked: generated.reasked,
            items: generated.items, dropped: generated.dropped)
        routed.refusedParts = generated.refusedParts
        routed.judged = generated.judged
        return routed
    }

    /// Below this many tokens for the document, fitting would send a meaningless scrap.
    static let minimumDocumentBudget = 64

    /// The most tokens of material a headline is sent under a time budget (about 1,000
    /// characters): the title block, the opening sentence and the main headings. At 400 tokens
    /// the 0.5B took 7 s on long.pdf and its blurbs strung headings together; at 250, 5 s.
    static let headlineDocumentTokens = 250

    /// The same for the in-process model, whose prompt is read on the machine's own cores before
    /// its first word (#53): the opening, the headings and a sentence or so of the first sections.
    /// At 250 the headline of samples/notes.pdf read 396 tokens before it copied the opening.
    static let localHeadlineDocumentTokens = 160

    /// Material of at most this many tokens is sent to a headline whole, even under a budget: a
    /// pasted page (samples/paste.txt, about 260) reads in a beat, and cutting it saves nothing.
    static let headlineWholeTokens = 400

    /// The remote window when remote can serve and its window is larger, else `nil`.
    private func largerWindow(than tokens: Int) async -> Int? {
        guard case .available = await remote.availability(),
            let window = try? await remote.contextSize(), window.tokens > tokens
        else { return nil }
        return window.tokens
    }

    private struct Generated {
        var result: AnyStudyResult
        var model: String
        var usage: Usage
        var reasked: Bool
        var dropped: [DroppedItem] = []
        /// How each item was made (``ItemProvenance/written(in:model:material:cached:)``, or the
        /// judge's record when the answer was judged item by item).
        var items: [ItemProvenance] = []
        /// A kit's parts whose model answer was refused and replaced by the builtin engine's.
        var refusedParts: [StudyTask] = []
        /// Whether the answer was judged item by item.
        var judged = false
    }

    /// Generates, validates (the schema, the type's own rules, ``Grounding`` in `material`, and
    /// ``LanguageRule`` against the `document`'s language), and re-asks once with the
    /// validation errors as feedback. An accepted answer that is all the `document`'s own words
    /// is recorded as `copied`.
    private func generateValidated(
        task: StudyTask, engine: any LanguageModel, prompt: String, material: String, document: Document, reserve: Int, key: AttemptKey,
        log: AttemptLog, deadline: TimeBudget? = nil, counts: ItemCounts = .standard, stopsCopies: Bool = false,
        halfRepairs: Bool = false
    ) async throws -> Generated {
        let started = clock.now()
        var spent = Usage(promptTokens: 0, completionTokens: 0)
        var outcome: AttemptOutcome? = nil
        defer { recordAttempt(key, outcome: outcome, started: started, usage: spent, log: log) }
        do {
            let judge = { @Sendable (model: String) -> PartJudge in
                PartJudge(
                    material: InjectedInstructions(material).stripped, counts: counts, model: model,
                    skeleton: self.skeleton(task, document: document))
            }
            // The builtin engine's headline, made only when a headline answer needs an item of it.
            let builtinHeadline: @Sendable () -> AnyStudyResult? = { self.skeleton(.headline, document: document) }
            var generated = try await generateValidatedOnce(
                task: task, engine: engine, prompt: prompt, material: material, language: document.language, reserve: reserve, key: key,
                spent: &spent, deadline: deadline, judge: PartJudge.judgedTasks.contains(task) ? judge : nil,
                stopsCopies: stopsCopies, fallback: task == .headline ? builtinHeadline : nil, halfRepairs: halfRepairs)
            if generated.items.isEmpty {
                generated.items = ItemProvenance.written(
                    in: generated.result, model: generated.model, material: document.titleAndText, cached: false)
            }
            outcome = generated.items.allSatisfy { $0.kind == .extracted } ? .copied : .accepted
            return generated
        } catch {
            outcome = Self.outcome(for: error)
            throw error
        }
    }

    private func generateValidatedOnce(
        task: StudyTask, engine: any LanguageModel, prompt: String, material: String, language: String, reserve: Int, key: AttemptKey,
        spent: inout Usage, deadline: TimeBudget? = nil, judge: (@Sendable (String) -> PartJudge)? = nil,
        stopsCopies: Bool = false, fallback: (@Sendable () -> AnyStudyResult?)? = nil, halfRepairs: Bool = false
    ) async throws -> Generated {
        // An answer about material without Chinese, Japanese or Korean is refused for them, so
        // its grammar has none to offer.
        let schema = LanguageRule.usesCJK(material) ? task.generationSchema : task.generationSchema.withoutIdeographs()
        var request = GenerationRequest(
            instructions: task.instructions, prompt: prompt, schemaName: task.schemaName,
            jsonSchema: schema.jsonSchema(strict: false).compactText, strictJSONSchema: schema.jsonSchema(strict: true).compactText,
            options: GenerationOptions(sampling: .greedy, maximumResponseTokens: reserve))
        var usage = Usage(promptTokens: 0, completionTokens: 0)
        // Sentences of the material that speak to the model: an answer must not obey them, and
        // quoting them grounds nothing.
        let injected = InjectedInstructions(material)
        // Automatic routing only: a forced engine's copy is its answer.
        let copying = stopsCopies ? Self.copyStop(task: task, engine: engine, material: injected.stripped) : nil
        // A headline with one item repaired from the builtin engine's, kept while the re-ask tries for both.
        var halfHeadline: Generated?
        for round in 0..<2 {
            let sent = request
            let roundStarted = clock.now()
            // Metered: reserved against the quota before, counted in the ledger after (a request
            // sent and then interrupted counts its estimate).
            var response: RawResponse
            // A stream the server stopped mid-way (its deadline): what was finished is judged.
            var stoppedBy: (any Error)?
            do {
                response = try await metered(engine, sent, key: key, deadline: deadline) {
                    try await self.respond(
                        engine, to: sent, enumerations: task.repeatingMembers, keepsWhatWasWritten: judge != nil,
                        copying: copying)
                }
            } catch let stopped as StoppedAnswer {
                stoppedBy = stopped.cause
                note("\(engine.kind.rawValue): \(Self.reason(for: stopped.cause)); judging what it finished")
                let written = TokenCount.estimate(for: stopped.text).count
                response = RawResponse(
                    text: stopped.text, usage: Usage(promptTokens: 0, completionTokens: written, method: .estimated),
                    model: engine.modelName, finishReason: "length")
            } catch var copy as CopiedAnswer {
                // A copy stopped as it was written cost its tokens all the same: the record says so.
                usage.promptTokens += copy.usage.promptTokens
                usage.completionTokens += copy.usage.completionTokens
                spent = usage
                copy.usage = usage
                throw copy
            }
            usage.promptTokens += response.usage.promptTokens
            usage.completionTokens += response.usage.completionTokens
            usage.method = response.usage.method
            spent = usage
            // Counted above, rejected here: a cut answer cost its tokens all the same. A loop is
            // stopped; a part judged item by item keeps the items finished before it, as an
            // answer cut at its limit does (#53: a deck that looped at its ninth card lost eight).
            let looped = response.finishReason == RepetitionGuard.finishReason
            let repeated = RepeatedAnswer(
                detail: "the \(engine.kind.rawValue) model started repeating entries it had already written; "
                    + "it was stopped early")
            if looped, judge == nil { throw repeated }
            let truncated = EngineError.truncated(
                "the \(engine.kind.rawValue) model stopped at its \(reserve)-token response limit before finishing "
                    + "its answer; allow more response tokens or shorten the input")
            // An answer with items cut at its limit keeps the items it finished: the one being
            // written when it stopped is dropped, and the rest are judged like any answer.
            let cut = response.finishReason == "length" || looped
            if cut, judge == nil { throw truncated }
            // The item a loop was writing when it was stopped, shown as dropped.
            var loopedAt: String?
            // Why an answer judged item by item was refused, as its message gives it.
            var judgedProblems: [String]?
            do throws(SchemaError) {
                let json: JSONValue
                if cut {
                    guard let salvaged = Self.finishedItemsAndCut(of: response.text) else {
                        throw SchemaError.truncated
                    }
                    json = salvaged.value
                    loopedAt = looped ? salvaged.cut : nil
                } else {
                    json = try JSONValue.parse(
                        ModelOutputText.unfenced(response.text), allowingRawControlCharacters: true)
                }
                var strict: SchemaError?
                do throws(SchemaError) {
                    if cut { throw SchemaError.truncated }
                    let result = try decodeResult(for: task, json: json)
                    let issues = Self.answerIssues(result, language: language, injected: injected)
                    if issues.all.isEmpty {
                        return Generated(result: result, model: response.model, usage: usage, reasked: round == 1)
                    }
                    // A part not judged item by item (Feynman gaps, podcast turns) drops what still
                    // fails grounding after the re-ask, when enough is left.
                    if judge == nil, round == 1, issues.wrongLanguage.isEmpty, issues.obeyed.isEmpty,
                        let kept = Grounding.dropUngrounded(result, source: injected.stripped)
                    {
                        note("\(engine.kind.rawValue): dropped \(kept.dropped.count) ungrounded item\(kept.dropped.count == 1 ? "" : "s") after the re-ask")
                        return Generated(result: kept.result, model: response.model, usage: usage, reasked: true, dropped: kept.dropped)
                    }
                    throw SchemaError.invalid(issues.all)
                } catch {
                    strict = error
                    // An answer in the wrong language, or one that obeyed the document, is not kept in part.
                    if case .invalid = error, Self.refusedWhole(json: json, language: language, injected: injected) {
                        throw error
                    }
                }
                // Repair, not refusal: the answer judged item by item.
                if let judge {
                    do throws(SchemaError) {
                        var judged = try judge(response.model).judge(json, task: task)
                        if looped {
                            note("\(engine.kind.rawValue): \(repeated.detail); judging the items it finished")
                            judged.dropped.append(
                                DroppedItem(
                                    path: loopedAt ?? "",
                                    reason: "\(RepeatedAnswer.loopReason); the items before it were kept"))
                        }
                        note(
                            "\(engine.kind.rawValue): kept the answer's usable items (\(judged.dropped.count) dropped, "
                                + "\(judged.repaired) repaired, \(judged.toppedUp) added from the builtin engine)")
                        return Generated(
                            result: judged.result, model: response.model, usage: usage, reasked: round == 1,
                            dropped: judged.dropped,
                            items: judged.items, refusedParts: judged.refusedParts, judged: true)
                    } catch {
                        // What is wrong with each item, then how few passed (the judge's first
                        // issue): the re-ask's feedback. The message says how few passed and why
                        // each was dropped first: the whole answer's first problem alone read as if
                        // one bad item had refused the part (#53: a summary refused "for" one short
                        // key point had lost all five).
                        if case .invalid(let own) = error, case .invalid(let whole)? = strict {
                            strict = .invalid(whole + own.prefix(1))
                            let named = Set(own.map(\.description))
                            judgedProblems = (own + whole.filter { !named.contains($0.description) }).map(\.description)
                        }
                    }
                }
                throw strict ?? SchemaError.invalid([])
            } catch {
                // A cut answer with too few finished items is what it was before: cut, or stopped.
                if let stoppedBy { throw stoppedBy }
                if looped { throw repeated }
                if cut { throw truncated }
                if case .truncated = error { throw EngineError.truncated("the answer's JSON ended mid-way") }
                var problems: [String]
                if let judgedProblems {
                    problems = judgedProblems
                } else if case .invalid(let issues) = error {
                    problems = issues.map(\.description)
                } else {
                    problems = [error.message]
                }
                var feedback = error
                // A headline is repaired where a rule says how (its title cut to its head; title and
                // blurb judged apart, the builtin engine's item beside the one that passes), and
                // every problem of it is named, so a re-ask can fix all of them at once (#53).
                if task == .headline, case .invalid = error,
                    let mended = Self.repairedHeadline(
                        json: try? JSONValue.parse(
                            ModelOutputText.unfenced(response.text), allowingRawControlCharacters: true),
                        model: response.model, language: language, injected: injected,
                        builtin: { if case .headline(let headline)? = fallback?() { headline } else { nil } }())
                {
                    problems = mended.problems.map(\.description)
                    feedback = .invalid(mended.problems)
                    if let result = mended.result, mended.whole || halfRepairs {
                        var generated = Generated(
                            result: result, model: response.model, usage: usage, reasked: round == 1)
                        generated.items = mended.items
                        let how = mended.whole ? "its title cut to its head" : "one item kept, the builtin's beside it"
                        note("\(engine.kind.rawValue): the headline was repaired (\(how)): "
                            + problems.joined(separator: "; "))
                        spent = usage
                        // A whole repair ships at once; a half one after the re-ask, or with no time for it.
                        if mended.whole || round == 1 { return generated }
                        halfHeadline = generated
                    }
                    if round == 1, var halfHeadline {
                        spent = usage
                        halfHeadline.usage = usage
                        halfHeadline.reasked = true
                        return halfHeadline
                    }
                }
                if round == 1 { throw EngineError.invalidOutput(problems) }
                // A headline that fails only on its title's length: the model shortens its own
                // title, a smaller question than the whole headline again.
                if task == .headline, case .invalid(let issues) = feedback, Self.onlyTitleTooLong(issues),
                    let shortened = try await shortenedTitleHeadline(
                        response.text, engine: engine, key: key, usage: &usage, deadline: deadline, injected: injected, language: language)
                {
                    spent = usage
                    return Generated(result: shortened, model: response.model, usage: usage, reasked: true)
                }
                spent = usage
                // A second ask takes about as long as the first: when what is left of the budget
                // cannot hold it, it would only be stopped at the end, with the rest of a kit's
                // parts still waiting (a 1.5B quiz asked twice took 144 s of 300, #53).
                if let deadline {
                    let took = clock.now().timeIntervalSince(roundStarted)
                    let remaining = deadline.remaining(at: clock.now())
                    if took > remaining {
                        if var halfHeadline {
                            halfHeadline.usage = usage
                            return halfHeadline
                        }
                        let reason = FallbackReason.noTimeToAskAgain(took: took, remaining: remaining, budget: deadline.seconds)
                        throw EngineError.invalidOutput(problems + [reason.text])
                    }
                }
                note("\(engine.kind.rawValue): the answer failed validation (\(problems.count) problem\(problems.count == 1 ? "" : "s")); asking once more")
                request.prompt = prompt + "\n\n" + feedback.feedback(maximumTokens: reaskFeedbackTokens)
            }
        }
        throw EngineError.invalidOutput(["no valid answer"])
    }

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
    static func answerIssues(_ result: AnyStudyResult, language: String, injected: InjectedInstructions) -> AnswerIssues {
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
    private func respond(
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
    private func cachedAnswer(
        _ request: RoutingRequest, engine: any LanguageModel, prompt: String, fitted: Bool, decision: Backend, fallbacks: [FallbackStep]
    ) -> RoutedResult? {
        guard request.useCache, let hit = cachedResult(task: request.task, engine: engine, prompt: prompt, fitted: fitted) else { return nil }
        return RoutedResult(
            result: hit.result, engine: engine.kind, model: hit.model, decision: decision, fitted: hit.fitted, cached: true,
            fallbacks: fallbacks, usage: nil, reasked: false,
            items: ItemProvenance.written(
                in: hit.result, model: hit.model,
                material: request.document.titleAndText, cached: true))
    }

    // MARK: builtin

    /// The builtin engine's `task` on the whole of `document`: the skeleton a model's part is
    /// topped up from (``PartJudge``); `nil` when the text is too short for one. Sized as a page
    /// of notes' (12 cards, 8 questions), what one model answer may hold: a model's part is
    /// still asked for one answer's items (#54 sizes the builtin engine's own parts only).
    func skeleton(_ task: StudyTask, document: Document) -> AnyStudyResult? {
        let material = builtinMaterial(document)
        return try? builtin.generate(task, text: material.text, title: material.title, size: Self.skeletonSize)
    }

    /// What the builtin engine reads of `document`: its text and title without the sentences that
    /// speak to a model (an injected instruction is never a summary sentence, a card or a title).
    func builtinMaterial(_ document: Document) -> (text: String, title: String?) {
        (builtin.withoutInstructions(document.text),
         document.title.flatMap { InjectedInstructions.isInstruction($0) ? nil : $0 })
    }

    /// The size of the skeleton a model's part is topped up from.
    static let skeletonSize = KitSize(cards: KitSize.minimumCards, questions: KitSize.minimumQuestions)

    private func builtinResult(
        _ request: RoutingRequest, decision: Backend, fallbacks: [FallbackStep], log: AttemptLog
    ) async throws -> RoutedResult {
        let document = request.document
        let (text, title) = builtinMaterial(document)
        let extracted = try builtin.generate(
            request.task, text: text, title: title, concept: request.concept, explanation: request.explanation,
            size: request.size)
        let (result, items) = await rewriteItems(
            extracted, request: request, material: [title, text].compactMap { $0 }.joined(separator: "\n"),
            modelWasSkipped: fallbacks.contains { $0.engine != .builtin && $0.reason.hasPrefix("skipped:") }, log: log)
        return RoutedResult(
            result: result, engine: .builtin, model: builtin.modelName, decision: decision, fitted: .whole(document),
            cached: false, fallbacks: fallbacks, usage: nil, reasked: false,
            items: Self.markingCached(items, paths: log.itemsFromCache))
    }

    // MARK: cache

    /// The cache key of a prompt sent to an engine: task, schema, template, engine and model,
    /// the content actually sent, and the generation options.
    /// `kept` names the kind of record kept under a result's inputs that is no result (a failed
    /// request's format), so it gets a key of its own.
    static func cacheKey(task: StudyTask, engine: any LanguageModel, prompt: String, fitted: Bool, kept: String? = nil) throws(CacheError) -> CacheKey {
        try CacheKey(
            task: task, schemaFingerprint: task.generationSchema.fingerprint,
            promptTemplateVersion: [kept, task.promptTemplateVersion].compactMap { $0 }.joined(separator: " "),
            engine: engine.kind, model: engine.identity, content: task.instructions + "\u{0}" + prompt, contentIsFitted: fitted,
            generationOptions: GenerationOptions(sampling: .greedy, maximumResponseTokens: task.responseReserve).canonicalText)
    }

    /// A cached result, re-validated; a stored value that no longer validates is a miss.
    private func cachedResult(
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
    private func store(_ result: AnyStudyResult, task: StudyTask, engine: any LanguageModel, prompt: String, fitted: FitReport) {
        guard let cache else { return }
        let entry = CacheEntry(
            payload: result.jsonValue.compactText, engine: engine.kind, model: engine.modelName, fittedInfo: fitted.jsonValue.compactText)
        do { try cache.put(entry, for: Self.cacheKey(task: task, engine: engine, prompt: prompt, fitted: fitted.cut)) } catch { note("could not write the cache: \(Self.reason(for: error))") }
    }

    // MARK: reasons

    /// One line for a fallback step, never a secret (engine errors are already redacted).
    static func reason(for error: any Error) -> String {
        if let error = error as? any StudyKitError { return error.message }
        return String(describing: error)
    }
}

/// Thrown inside the router when a whole answer's stream failed after some of it was written:
/// the text so far, and why it stopped.
struct StoppedAnswer: Error {
    let text: String
    let cause: any Error
}

/// Thrown inside the router when the local window is too small and remote can take the whole content.
private struct Escalation: Error {
    let reason: String
}
