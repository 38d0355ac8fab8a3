import Foundation

// MARK: - Budget

/// Whether a task's prompt fits an engine's window, counted before generating.
///
/// The total is tokens(instructions + prompt frame) + tokens(document) + a chat-template
/// allowance + the task's response reserve, compared with the window read from the engine.
struct BudgetCheck: Sendable, Equatable {
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

    /// Tokens left for the document.
    public var documentBudget: Int { window.tokens - reserve - overheadTokens - allowance }
    /// The whole request as sent with the whole document.
    public var totalTokens: Int { overheadTokens + documentTokens + allowance + reserve }
    /// Whether the whole document fits.
    public var fits: Bool { documentTokens <= documentBudget }
}

/// Tokens the chat template wraps around two messages, where the engine cannot measure them,
/// and the room one re-ask's feedback needs.
///
/// The in-process engine measures its template (``LanguageModel/templateTokens()``). A server
/// templates on its side: llama-cpp-python has no endpoint that renders or counts a templated
/// prompt, and measuring it would take a chat completion per model. llama.cpp's templates add
/// under 20 tokens for a system and a user message (SmolLM2's ChatML 13, Llama 3's about 10, more
/// with a date header), so 24 is held back for them: under 1.5 % of a 2,048-token window. The
/// feedback of a re-ask lists at most a handful of issues. Both are held back so a fitted prompt
/// still fits after templating and after the re-ask.
let templateAllowance = 24
/// See ``templateAllowance``.
let reaskAllowance = 160
/// The most tokens of feedback a re-ask appends after its blank line, counted at their worst
/// (``ValidationIssue/worstCaseTokens(_:)``: 2.5 ASCII characters a token, a token per byte of
/// anything else), so a fitted prompt still fits when the answer had many problems or quoted
/// Chinese or emoji (the feedback then names the first few and counts the rest).
let reaskFeedbackTokens = reaskAllowance - 2

/// Counts a request against `engine`'s window with as few tokenizer calls as the answer needs:
///
/// - none when the prompt is far below the window: at worst one token per UTF-8 byte (no
///   tokenizer makes more), so when the whole prompt's bytes are under half the window and fit
///   it with the reserve, it fits whatever the text (CJK and emoji included), and the counts
///   are estimated (``TokenCount/estimate(for:)``);
/// - otherwise one count of the whole prompt (instructions, frame and document together);
/// - and only when that does not fit, the document's own count, which fitting needs: the
///   second and last call.
///
/// While the whole prompt fits, its count is split between frame and document by their bytes
/// (the split only shows in reports; whether it fits does not depend on it).
func checkBudget(
    engine: any LanguageModel, task: StudyTask, document: Document, concept: String?, explanation: String?,
    part: String? = nil
) async throws -> BudgetCheck {
    let window = try await engine.contextSize()
    let template = try await engine.templateTokens() ?? templateAllowance
    let frame = task.instructions + "\n" + task.prompt(
            document: "", title: document.title, concept: concept, explanation: explanation,
            language: document.language, part: part)
    let whole = task.instructions + "\n"
        + task.prompt(
            document: document.text, title: document.title, concept: concept, explanation: explanation,
            language: document.language,
            part: part)
    func check(overhead: Int, document: Int, method: TokenCount.Method) -> BudgetCheck {
        BudgetCheck(
            window: window, overheadTokens: overhead, documentTokens: document, method: method,
            reserve: task.responseReserve, allowance: template + reaskAllowance)
    }

    let worstCase = whole.utf8.count
    if worstCase < window.tokens / 2,
        check(overhead: frame.utf8.count, document: max(0, worstCase - frame.utf8.count), method: .estimate).fits
    {
        // It fits even at one token per byte. The counts reported (and compared with a
        // headline's Post-it size) are the usual estimate, which is never above that bound.
        return check(
            overhead: TokenCount.estimate(for: frame).count, document: TokenCount.estimate(for: document.text).count,
            method: .estimate)
    }
    let total = try await engine.tokenCount(for: whole)
    guard total.method == .exact else {
        return check(
            overhead: TokenCount.estimate(for: frame).count, document: TokenCount.estimate(for: document.text).count,
            method: .estimate)
    }
    let documentShare = Int(
        (Double(total.count) * Double(document.text.utf8.count) / Double(max(1, worstCase))).rounded(.up))
    let counted = check(overhead: max(0, total.count - documentShare), document: documentShare, method: .exact)
    if counted.fits { return counted }
    let documentCount = try await engine.tokenCount(for: document.text).count
    return check(overhead: max(0, total.count - documentCount), document: documentCount, method: .exact)
}
