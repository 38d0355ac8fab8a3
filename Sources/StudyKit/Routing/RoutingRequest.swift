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
            return
                "the \(engine.rawValue) engine does not support the document's language, "
                    + "\(LanguageDetector.displayName(language)) (it declares \(supported.displayText)); add "
                    + "\(language) to \(setting) if its model writes it, or use --engine builtin or drop --engine"
        case .forcedEngineOutOfBudget(let engine, let seconds):
            return
                "the \(engine.rawValue) engine did not finish within --budget \(CapabilityPolicy.seconds(seconds)); it "
                    + "was stopped and nothing was cached; raise --budget, or drop it to let the forced engine run to "
                    + "the end"
        case .noEngine(let steps):
            let tried = steps.map { "\($0.engine.rawValue): \($0.reason)" }.joined(separator: "; ")
            return "no engine could serve (\(tried))"
        }
    }

    /// Always 69.
    public var exitCode: ExitCode { .unavailable }
}
