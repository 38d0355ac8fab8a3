import Foundation

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
///   skipped before it is contacted, "does not support fr"; forced,
///   ``RoutingError/unsupportedLanguage(_:language:supported:)``;
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
                if forced {
                    throw RoutingError.unsupportedLanguage(kind, language: language, supported: engine.languages)
                }
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
            if !forced, let skip = recorder.capabilitySkip(engine, key: Self.partKey(engine, task: request.task)) {
                if let hit = cachedAnswer(
                    request, engine: engine, prompt: Self.wholePrompt(request), fitted: false, decision: decision,
                    fallbacks: fallbacks)
                {
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
                if forced, let budget = request.budget {
                    throw RoutingError.forcedEngineOutOfBudget(kind, seconds: budget.seconds)
                }
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
struct Escalation: Error {
    let reason: String
}
