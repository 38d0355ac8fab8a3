import Foundation

// MARK: - Budget

/// Whether a task's prompt fits an engine's window, counted before generating.
///
/// The total is tokens(instructions + prompt frame) + tokens(document) + a chat-template
/// allowance + the task's response reserve, compared with the window read from the engine.
public struct BudgetCheck: Sendable, Equatable {
    /// The engine's window.
    public var window: ContextWindow
    /// Tokens of the instructions and the prompt without the document.
    public var overheadTokens: Int
    /// Tokens of the whole normalized document.
    public var documentTokens: Int
    /// Exact (the engine's tokenizer) or an estimate.
    public var method: TokenCount.Method
    /// Tokens kept free for the answer (the task's reserve, also sent as the response limit).
    public var reserve: Int
    /// Tokens the chat template adds around the messages, plus room for one re-ask's feedback.
    public var allowance: Int
    /// The token ids of the document, when the engine could tokenize (used to fit without re-counting).
    public var documentTokenIDs: [Int]?

    /// Tokens left for the document.
    public var documentBudget: Int { window.tokens - reserve - overheadTokens - allowance }
    /// The whole request as sent with the whole document.
    public var totalTokens: Int { overheadTokens + documentTokens + allowance + reserve }
    /// Whether the whole document fits.
    public var fits: Bool { documentTokens <= documentBudget }
}

/// Tokens the chat template wraps around two messages, and the room one re-ask's feedback needs.
///
/// llama.cpp's templates add under 20 tokens for a system and a user message; the feedback of a
/// re-ask lists at most a handful of issues. Both are held back so a fitted prompt still fits
/// after templating and after the re-ask.
let templateAllowance = 24
/// See ``templateAllowance``.
let reaskAllowance = 160
/// The most characters of feedback a re-ask appends: ``reaskAllowance`` at 2.5 characters a
/// token, below what English text and JSON paths take, so a fitted prompt still fits when the
/// answer had many problems (the feedback then names the first few and counts the rest).
let reaskFeedbackCharacters = reaskAllowance * 5 / 2

/// Counts a request against `engine`'s window with two tokenizer calls at most: one count of
/// the instructions and the prompt frame, one tokenization of the document.
func checkBudget(
    engine: any LanguageModel, task: StudyTask, document: Document, concept: String?, explanation: String?
) async throws -> BudgetCheck {
    let window = try await engine.contextSize()
    let frame = task.instructions + "\n" + task.prompt(document: "", title: document.title, concept: concept, explanation: explanation)
    let overhead = try await engine.tokenCount(for: frame)
    let documentCount: Int
    let method: TokenCount.Method
    let ids: [Int]?
    if overhead.method == .exact, let tokens = try await engine.tokenize(document.text) {
        ids = tokens
        documentCount = tokens.count
        method = .exact
    } else {
        ids = nil
        documentCount = TokenCount.estimate(for: document.text).count
        method = .estimate
    }
    return BudgetCheck(
        window: window, overheadTokens: overhead.count, documentTokens: documentCount, method: method,
        reserve: task.responseReserve, allowance: templateAllowance + reaskAllowance, documentTokenIDs: ids)
}

// MARK: - Fitting

/// What was cut to fit a window, for `--json`'s `fitted` and for `route --explain`.
public struct FitReport: Sendable, Equatable {
    /// Whether anything was cut.
    public var cut: Bool
    /// Characters of the document that were sent.
    public var keptCharacters: Int
    /// Characters of the whole normalized document.
    public var totalCharacters: Int
    /// Tokens of the document that were sent (apportioned from one exact tokenization, or estimated).
    public var keptTokens: Int?
    /// Tokens of the whole document.
    public var totalTokens: Int?
    /// Fraction of the document's sections with at least one kept sentence.
    public var sectionCoverage: Double?

    /// The report for content sent whole.
    public static func whole(_ document: Document, tokens: Int? = nil) -> FitReport {
        FitReport(
            cut: false, keptCharacters: document.characterCount, totalCharacters: document.characterCount,
            keptTokens: tokens, totalTokens: tokens, sectionCoverage: 1)
    }

    /// As JSON for the envelope and the cache.
    public var jsonValue: JSONValue {
        var object: JSONObject = ["cut": .bool(cut), "keptCharacters": .integer(keptCharacters), "totalCharacters": .integer(totalCharacters)]
        object["keptTokens"] = keptTokens.map(JSONValue.integer)
        object["totalTokens"] = totalTokens.map(JSONValue.integer)
        object["sectionCoverage"] = sectionCoverage.map { .number(($0 * 1000).rounded() / 1000) }
        return .object(object)
    }
}

/// Content cut to a token budget, keeping coverage.
public struct FittedContent: Sendable, Equatable {
    /// The text to send in place of the document.
    public var text: String
    /// What was kept.
    public var report: FitReport
}

/// Fits `document` into `budget` tokens from a single tokenization (`documentTokens` of the
/// whole text), never re-counting.
///
/// Each sentence's cost is apportioned from the exact total by its share of UTF-8 bytes, plus a
/// margin, so the cuts fall on sentence boundaries (which are token boundaries) and the kept
/// text stays under the budget without a second count. The opening, every heading and the
/// best-ranked sentences of every section — the last one included — are kept in document order
/// (``ContentFitter``).
public func fitContent(_ document: Document, documentTokens: Int, budget: Int) -> FittedContent {
    let text = document.text
    let totalBytes = max(1, text.utf8.count)
    let tokensPerByte = Double(documentTokens) / Double(totalBytes)
    // 10% over the average plus one token per unit: a sentence's real cost can sit above the
    // document's average, and a unit boundary may split what the tokenizer would have merged.
    let cost: (Substring) -> Int = { Int((Double($0.utf8.count) * tokensPerByte * 1.1).rounded(.up)) + 1 }
    let outline = DocumentOutline(text: text)
    let units = ContentFitter.units(of: outline) { cost(text[$0]) }
    let fitter = ContentFitter(separatorCost: 1, markerCost: cost(Substring(ContentFitter.marker)) + 1)
    let selection = fitter.select(units, from: text, budget: max(0, budget))
    let report = FitReport(
        cut: !selection.isComplete, keptCharacters: selection.keptCharacters, totalCharacters: document.characterCount,
        keptTokens: min(documentTokens, Int((Double(selection.text.utf8.count) * tokensPerByte).rounded())),
        totalTokens: documentTokens,
        sectionCoverage: selection.sectionCoverage)
    if selection.isComplete { return FittedContent(text: text, report: .whole(document, tokens: documentTokens)) }
    return FittedContent(text: selection.text, report: report)
}
