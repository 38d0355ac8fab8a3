import Foundation

/// Why the router passed over an engine, in the words `--json`'s `fallbacks` and `--verbose`
/// show. These are the reasons the router words itself; an engine's own failures speak through
/// ``EngineError/message``. They sit in one enum so every wording is in one place, read as a
/// student reads it (what happened, with its numbers, and what comes instead), and one table
/// test reads them all.
enum FallbackReason: Sendable, Equatable {
    /// The engine does not read the document's language.
    case unsupportedLanguage(language: String, declared: String)
    /// The whole material does not fit the engine's window with the instructions and the room
    /// kept for the answer; `instead` says what the router does about it.
    case doesNotFitWhole(BudgetCheck, instead: String)
    /// The local window is too small, and the remote engine's larger one takes the whole material.
    case escalated(BudgetCheck, largerWindow: Int)
    /// A `--budget` had no time left when the engine's turn came.
    case budgetUsedUp(seconds: Double)
    /// The engine's record says the job would take longer than what is left of the `--budget`.
    case expectedOverBudget(expected: Double, remaining: Double, budget: Double)
    /// The job is expected to take longer than the server's request deadline, which would stop it.
    case expectedOverDeadline(expected: Double, deadline: Double)
    /// The capability record: the model failed this job on each of its last `attempts` tries.
    case failedRecently(attempts: Int, outcomes: [AttemptOutcome], seconds: Double)
    /// The capability record: a job asked once a document was never accepted, and a first
    /// accepted answer is expected to cost `expected` seconds of model time, over `limit`.
    case firstAnswerTooCostly(attempts: Int, seconds: Double, expected: Double, limit: Double)
    /// The capability record: too few of an item job's last `attempts` were accepted for the
    /// model time they took.
    case itemsTooCostly(accepted: Int, attempts: Int, seconds: Double, limit: Double)
    /// The very same request failed before and its refusal is in the cache.
    case failedBefore(age: TimeInterval, reason: String)
    /// A chunk past `--max-chunks`, left to the builtin engine.
    case pastMaxChunks(Int)
    /// The answer failed, and a second ask as long as the first (`took` seconds) would not fit
    /// what is left of the `--budget`: it is not asked again (#53).
    case noTimeToAskAgain(took: Double, remaining: Double, budget: Double)

    /// The line shown.
    var text: String {
        switch self {
        case .unsupportedLanguage(let language, let declared):
            return "does not support the document's language, \(language) (it declares \(declared))"
        case .doesNotFitWhole(let budget, let instead):
            return "skipped: \(Self.needs(budget)), more than its \(budget.window.tokens)-token window; \(instead)"
        case .escalated(let budget, let larger):
            return "\(Self.needs(budget)), more than its \(budget.window.tokens)-token window; "
                + "escalated to the remote engine's \(larger)-token window"
        case .budgetUsedUp(let seconds):
            return "skipped: the \(CapabilityPolicy.seconds(seconds)) budget was used up before its turn"
        case .expectedOverBudget(let expected, let remaining, let budget):
            return "skipped: expected to take \(CapabilityPolicy.seconds(expected)), with only "
                + "\(CapabilityPolicy.seconds(remaining)) of the \(CapabilityPolicy.seconds(budget)) budget left"
        case .expectedOverDeadline(let expected, let deadline):
            return "skipped: expected to take \(CapabilityPolicy.seconds(expected)), more than the server's "
                + "\(CapabilityPolicy.seconds(deadline)) request deadline"
        case .failedRecently(let attempts, let outcomes, let seconds):
            let which = attempts == 1 ? "its last attempt" : "each of its last \(attempts) attempts"
            let how = Set(outcomes).map(Self.describe).sorted().joined(separator: ", ")
            return "skipped: it failed \(which) at this job (\(how); \(CapabilityPolicy.seconds(seconds)) in all), "
                + "so it rests for up to 24 h; --engine tries it anyway"
        case .firstAnswerTooCostly(let attempts, let seconds, let expected, let limit):
            let which = attempts == 1 ? "its last attempt" : "its last \(attempts) attempts"
            return "skipped: \(which) failed in \(CapabilityPolicy.seconds(seconds)), none accepted; at those odds an "
                + "accepted answer costs about \(CapabilityPolicy.seconds(expected)) of model time, more than the "
                + "\(String(format: "%g", limit)) s it is worth"
        case .itemsTooCostly(let accepted, let attempts, let seconds, let limit):
            let cost = accepted == 0
                ? "none accepted"
                : "\(CapabilityPolicy.seconds(seconds / Double(accepted))) of model time an accepted item"
            return
                "skipped: \(accepted) of its last \(attempts) attempts accepted in "
                    + "\(CapabilityPolicy.seconds(seconds)) "
                + "(\(cost), more than the \(String(format: "%g", limit)) s an item is worth)"
        case .failedBefore(let age, let reason):
            return "skipped: it failed this same request \(Self.age(age)) ago (\(reason)); --no-cache asks again"
        case .pastMaxChunks(let limit):
            return "past --max-chunks \(limit): not sent to a model"
        case .noTimeToAskAgain(let took, let remaining, let budget):
            return "not asked again: the answer took \(CapabilityPolicy.seconds(took)), with only "
                + "\(CapabilityPolicy.seconds(remaining)) of the \(CapabilityPolicy.seconds(budget)) budget left"
        }
    }

    /// "the material (477 tokens), the instructions (310) and the room kept for the answer (1,000,
    /// with 184 for the chat template and a re-ask) need 1,971 tokens".
    private static func needs(_ budget: BudgetCheck) -> String {
        "the material (\(budget.documentTokens) tokens), the instructions (\(budget.overheadTokens)) and the room "
            + "kept for the answer (\(budget.reserve), with \(budget.allowance) for the chat template and a re-ask) "
            + "need \(budget.totalTokens) tokens" + (budget.method == .estimate ? " by estimate" : "")
    }

    /// How an attempt ended, in words.
    private static func describe(_ outcome: AttemptOutcome) -> String {
        switch outcome {
        case .accepted: return "accepted"
        case .invalid: return "answers refused"
        case .cut: return "answers cut at the response limit"
        case .repeated: return "answers that looped"
        case .timedOut: return "timed out"
        case .transportError: return "requests that failed on the way"
        case .copied: return "answers copied word for word from the material"
        }
    }

    /// `40 s`, `12 min`, `3 h`.
    static func age(_ seconds: TimeInterval) -> String {
        let seconds = max(0, seconds)
        if seconds < 60 { return "\(Int(seconds.rounded())) s" }
        if seconds < 3600 { return "\(Int((seconds / 60).rounded(.down))) min" }
        return "\(Int((seconds / 3600).rounded(.down))) h"
    }
}
