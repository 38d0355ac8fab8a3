import Foundation
import Testing

@testable import StudyKit

/// Every reason the router words itself, as `--json`'s `fallbacks` shows it: what happened, with
/// its numbers, and what comes instead. The table has a row for each case of ``FallbackReason``
/// (``covers(_:)`` does not compile when a case is added without one).
@Suite("fallback reasons: what happened, with numbers")
struct FallbackReasonTests {
    /// A 2,212-character page of notes (477 tokens) against the local 2,048-token window.
    static let notesPage = BudgetCheck(
        window: ContextWindow(tokens: 2048, source: .discovered(endpoint: "GET /props")), overheadTokens: 412,
        documentTokens: 477, method: .exact, reserve: 1200, allowance: 184)

    struct Row: Sendable, CustomTestStringConvertible {
        var reason: FallbackReason
        var text: String
        var testDescription: String { text }
    }

    static let rows: [Row] = [
        Row(reason: .unsupportedLanguage(language: "French (fr)", declared: "English (en)"),
            text: "does not support the document's language, French (fr) (it declares English (en))"),
        Row(reason: .doesNotFitWhole(notesPage, instead: "the builtin engine extracts and the model rewrites items"),
            text: "skipped: the material (477 tokens), the instructions (412) and the room kept for the answer (1200, "
                + "with 184 for the chat template and a re-ask) need 2273 tokens, more than its 2048-token window; "
                + "the builtin engine extracts and the model rewrites items"),
        Row(reason: .escalated(notesPage, largerWindow: 8192),
            text: "the material (477 tokens), the instructions (412) and the room kept for the answer (1200, with 184 "
                + "for the chat template and a re-ask) need 2273 tokens, more than its 2048-token window; escalated "
                + "to the remote engine's 8192-token window"),
        Row(reason: .budgetUsedUp(seconds: 1.5), text: "skipped: the 1.5 s budget was used up before its turn"),
        Row(reason: .expectedOverBudget(expected: 25, remaining: 20, budget: 100),
            text: "skipped: expected to take 25 s, with only 20 s of the 100 s budget left"),
        Row(reason: .expectedOverDeadline(expected: 196, deadline: 120),
            text: "skipped: expected to take 196 s, more than the server's 120 s request deadline"),
        Row(reason: .failedRecently(attempts: 2, outcomes: [.cut, .invalid], seconds: 61),
            text: "skipped: it failed each of its last 2 attempts at this job (answers cut at the response limit, "
                + "answers refused; 61 s in all), so it rests for up to 24 h; --engine tries it anyway"),
        Row(reason: .failedRecently(attempts: 1, outcomes: [.timedOut], seconds: 4.3),
            text: "skipped: it failed its last attempt at this job (timed out; 4.3 s in all), so it rests for up "
                + "to 24 h; --engine tries it anyway"),
        Row(reason: .firstAnswerTooCostly(attempts: 1, seconds: 1.6, expected: 4.8, limit: 3.75),
            text: "skipped: its last attempt failed in 1.6 s, none accepted; at those odds an accepted answer costs "
                + "about 4.8 s of model time, more than the 3.75 s it is worth"),
        Row(reason: .itemsTooCostly(accepted: 3, attempts: 12, seconds: 14, limit: 3.75),
            text: "skipped: 3 of its last 12 attempts accepted in 14 s (4.7 s of model time an accepted item, more "
                + "than the 3.75 s an item is worth)"),
        Row(reason: .itemsTooCostly(accepted: 0, attempts: 10, seconds: 9, limit: 3.75),
            text: "skipped: 0 of its last 10 attempts accepted in 9.0 s (none accepted, more than the 3.75 s an item is worth)"),
        Row(reason: .failedBefore(age: 600, reason: "the model's answer is not usable: cards repeat"),
            text: "skipped: it failed this same request 10 min ago (the model's answer is not usable: cards repeat); "
                + "--no-cache asks again"),
        Row(reason: .pastMaxChunks(4), text: "past --max-chunks 4: not sent to a model"),
        Row(reason: .noTimeToAskAgain(took: 72, remaining: 60, budget: 300),
            text: "not asked again: the answer took 72 s, with only 60 s of the 300 s budget left"),
    ]

    @Test(arguments: rows)
    func wording(row: Row) {
        #expect(row.reason.text == row.text)
        #expect(Self.covers(row.reason))
    }

    /// Every case has a row.
    @Test func everyCaseHasARow() {
        var seen = Set<String>()
        for row in Self.rows { seen.insert(Self.name(row.reason)) }
        #expect(seen.count == 12, "\(seen.sorted())")
    }

    /// The reason that misled before: it names the material's tokens and the room kept for the
    /// answer, and the sum that does not fit.
    @Test func theWindowMessageNamesTheMaterialAndTheReserve() {
        let text = FallbackReason.doesNotFitWhole(Self.notesPage, instead: "…").text
        #expect(text.contains("the material (477 tokens)"))
        #expect(text.contains("the room kept for the answer (1200"))
        #expect(text.contains("need 2273 tokens, more than its 2048-token window"))
        #expect(Self.notesPage.totalTokens == 2273 && !Self.notesPage.fits)
    }

    /// The reasons an engine gives when it fails, as the router passes them on.
    static let engineRows: [(EngineError, String)] = [
        (.unavailable(reason: "the remote engine at http://127.0.0.1:8392 failed: connection refused"),
         "the remote engine at http://127.0.0.1:8392 failed: connection refused"),
        (.contextExceeded(tokens: 2273, window: 2048),
         "the request needs 2273 tokens but the engine's context window holds 2048; shorten the input or use an engine with a larger window"),
        (.quotaExceeded("insufficient_quota"),
         "the remote engine's quota is used up (insufficient_quota); wait for it to reset, raise it with the provider, or use --engine local"),
        (.rateLimited(retryAfter: 20), "the remote engine is rate-limiting requests (it asks to wait 20 s); try again later or use --engine local"),
        (.rateLimited(retryAfter: nil), "the remote engine is rate-limiting requests; try again later or use --engine local"),
        (.invalidOutput(["a", "b", "c", "d"]), "the model's answer is not usable: a; b; c (and 1 more)"),
        (.truncated("the answer was cut at the 512-token response limit"), "the answer was cut at the 512-token response limit"),
        (.http(status: 503, message: "loading model"), "the engine answered http 503: loading model"),
        (.transport("timed out after 30 s"), "timed out after 30 s"),
        (.authentication("the remote engine refused the API key (http 401)"), "the remote engine refused the API key (http 401)"),
        (.notLoopback("http://10.0.0.2:8080"),
         "the local engine must run on this machine, but 'http://10.0.0.2:8080' is not a loopback address; use 127.0.0.1, ::1 or localhost in STUDYKIT_LOCAL_URL, or configure that server as the remote engine"),
        (.invalidConfiguration(key: "STUDYKIT_REMOTE_URL", value: "ftp://x", reason: "use http or https"),
         "STUDYKIT_REMOTE_URL='ftp://x' is not valid: use http or https"),
    ]

    @Test func engineReasons() {
        for (error, text) in Self.engineRows {
            #expect(error.message == text)
        }
        #expect(Set(Self.engineRows.map { Self.name($0.0) }).count == 11)
    }

    /// No `default:`: a new engine error does not compile until it is named (and given a row).
    static func name(_ error: EngineError) -> String {
        switch error {
        case .unavailable: return "unavailable"
        case .contextExceeded: return "contextExceeded"
        case .quotaExceeded: return "quotaExceeded"
        case .rateLimited: return "rateLimited"
        case .invalidOutput: return "invalidOutput"
        case .truncated: return "truncated"
        case .http: return "http"
        case .transport: return "transport"
        case .authentication: return "authentication"
        case .notLoopback: return "notLoopback"
        case .invalidConfiguration: return "invalidConfiguration"
        }
    }

    static func covers(_ reason: FallbackReason) -> Bool { !name(reason).isEmpty }

    /// No `default:` on purpose: a new case does not compile until it is named here (and given a row).
    static func name(_ reason: FallbackReason) -> String {
        switch reason {
        case .unsupportedLanguage: return "unsupportedLanguage"
        case .doesNotFitWhole: return "doesNotFitWhole"
        case .escalated: return "escalated"
        case .budgetUsedUp: return "budgetUsedUp"
        case .expectedOverBudget: return "expectedOverBudget"
        case .expectedOverDeadline: return "expectedOverDeadline"
        case .failedRecently: return "failedRecently"
        case .firstAnswerTooCostly: return "firstAnswerTooCostly"
        case .itemsTooCostly: return "itemsTooCostly"
        case .failedBefore: return "failedBefore"
        case .pastMaxChunks: return "pastMaxChunks"
        case .noTimeToAskAgain: return "noTimeToAskAgain"
        }
    }
}
