import Foundation

/// The capability memory as the router and the item rewriter consult and feed it: why a model
/// is skipped for a job now, how long an attempt is expected to take, whether it fits what is
/// left of a time budget, and the record of each attempt made.
struct AttemptRecorder: Sendable {
    /// The record of attempts; `nil` records nothing and skips nothing.
    let memory: (any AttemptRecording)?
    /// When a model is skipped.
    let capability: CapabilityPolicy
    /// Times attempts and the budget.
    let clock: any DayClock
    /// Receives one line when an attempt cannot be recorded.
    let note: @Sendable (String) -> Void

    /// Why `engine` must be skipped for `key` now (it failed its last attempts, or its items cost
    /// too much on the record of runs before `runStarted`), or `nil`.
    /// A ledger that cannot be read proves nothing: the model is tried.
    func capabilitySkip(
        _ engine: any LanguageModel, key: AttemptKey, runStarted: Date? = nil, oncePerDocument: Bool = false
    ) -> String? {
        guard let memory, let recent = try? memory.recentAttempts(key, limit: capability.window(for: key.job)) else {
            return nil
        }
        return capability.skipReason(
            recent: recent, job: key.job, now: clock.now(), runStarted: runStarted, oncePerDocument: oncePerDocument)
    }

    /// The seconds an attempt of `key` is expected to take: its record, else an estimate from its
    /// size and the model's measured speed. A whole part with no record of parts on this model
    /// is estimated from the engine's own speed on this machine when it knows it; when the
    /// fixed guess fits what is `left` of a budget but would not at a quarter of the speed, the
    /// engine is asked to measure it (a second for a small in-process model) rather than start
    /// a part that may run into the end of the budget.
    func expectedSeconds(
        _ engine: any LanguageModel, key: AttemptKey, promptTokens: Int, responseTokens: Int, left: Double? = nil
    ) async -> Double {
        if let memory, let recent = try? memory.recentAttempts(key, limit: 3),
            let seconds = capability.expectedDuration(recent: recent)
        {
            return seconds
        }
        let measured = (try? memory?.recentAttempts(engine: engine.kind, model: engine.identity, limit: 20)) ?? []
        // Speeds from the same kind of job only: an item's prompt is mostly instructions already
        // in the KV cache, so its seconds per token make a whole part look several times faster
        // than it is (a whole summary started with 15 s left took them all and timed out).
        let sameJob = measured.filter { $0.key.job == key.job }
        // A server's own speeds, measured on its streamed answers in this run (its prompt read apart
        // from its answer written), before a rate lumped over other parts: a headline's rate counts
        // its prompt and latency against each of its 40 tokens, and made a kit of the 1.5B look
        // 292 s long (#53). The in-process engine keeps its record first: its speed is measured by
        // its own calibration (the default setup's kit is tuned on it).
        if key.job == .part, engine.kind == .remote || DurationEstimate.measuredSecondsPerToken(sameJob) == nil {
            let guess = DurationEstimate.seconds(
                promptTokens: promptTokens, responseTokens: responseTokens, kind: engine.kind, modelAttempts: [])
            let hinges = left.map { guess <= $0 && guess * 4 > $0 } ?? false
            if let speed = await engine.measuredSpeed(calibrate: hinges) {
                return speed.seconds(promptTokens: promptTokens, responseTokens: responseTokens)
            }
        }
        return DurationEstimate.seconds(
            promptTokens: promptTokens, responseTokens: responseTokens, kind: engine.kind, modelAttempts: sameJob)
    }

    /// Why an attempt must not start under `budget`, or `nil` when it fits what is left.
    func budgetSkip(
        _ engine: any LanguageModel, key: AttemptKey, promptTokens: Int, responseTokens: Int, budget: TimeBudget
    ) async -> String? {
        let left = budget.remaining(at: clock.now())
        let expected = await expectedSeconds(
            engine, key: key, promptTokens: promptTokens, responseTokens: responseTokens, left: left)
        // Read again: measuring the engine's speed took some of it.
        let remaining = budget.remaining(at: clock.now())
        // An answer that cannot end before the server's request deadline is stopped there, its
        // time spent and the part left unfinished (a 1.5B kit cut at 120 s had written one part, #53).
        if let limit = engine.generationDeadline, expected > limit, expected <= remaining {
            return FallbackReason.expectedOverDeadline(expected: expected, deadline: limit).text
        }
        guard expected > remaining else { return nil }
        return FallbackReason.expectedOverBudget(expected: expected, remaining: remaining, budget: budget.seconds).text
    }

    /// Records one attempt in the ledger and in this run's log; nothing for a cancelled one.
    func recordAttempt(_ key: AttemptKey, outcome: AttemptOutcome?, started: Date, usage: Usage, log: AttemptLog) {
        guard let outcome else { return }
        let now = clock.now()
        let duration = max(0, now.timeIntervalSince(started))
        log.append(
            AttemptReport(engine: key.engine, model: key.model, job: key.job, outcome: outcome, seconds: duration))
        do {
            try memory?.recordAttempt(
                Attempt(
                    key: key, outcome: outcome, duration: duration, tokensIn: usage.promptTokens,
                    tokensOut: usage.completionTokens, at: now))
        } catch {
            note("could not record the attempt: \(RoutingEngine.reason(for: error))")
        }
    }
}
