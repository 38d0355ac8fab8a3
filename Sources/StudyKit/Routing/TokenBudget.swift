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
    let frame = task.instructions + "\n" + task.prompt(document: "", title: document.title, concept: concept, explanation: explanation, language: document.language)
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
