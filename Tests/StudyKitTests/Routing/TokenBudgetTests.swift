import Foundation
import Testing
@testable import StudyKit

/// How many times the budget asks an engine's tokenizer: none far below the window, one count
/// of the whole prompt, and the document's own count only when fitting needs it.
@Suite("Token budget: counting once")
struct TokenBudgetTests {
    static func document(_ text: String) -> Document { Document(text: text, title: nil, kind: .text, origin: "test") }

    static func whole(_ task: StudyTask, _ document: Document) -> String {
        task.instructions + "\n" + task.prompt(document: document.text, title: document.title)
    }

    @Test(arguments: [
        "Mitosis divides one cell into two identical cells.",
        "有丝分裂把一个细胞分成两个相同的细胞。细胞周期包括间期和分裂期。",
        "Cells 🧫 divide 🔬 into two 👯 identical daughters 🧬.",
    ])
    func farBelowTheWindowNothingIsCountedAndTheBytesBoundTheCount(text: String) async throws {
        let engine = ScriptedModel(.local, window: 8192)
        let document = Self.document(text)
        let budget = try await checkBudget(engine: engine, task: .headline, document: document, concept: nil, explanation: nil)
        #expect(engine.calls.tokenCount == 0 && engine.calls.tokenize == 0)
        #expect(budget.method == .estimate)
        #expect(budget.documentTokens == TokenCount.estimate(for: document.text).count)
        #expect(budget.fits)
    }

    @Test func theSkipIsDecidedOnOneTokenPerByteSoCJKIsNeverUndercounted() async throws {
        // 240 CJK characters: 720 bytes, 240 by the usual estimate. With the frame the whole
        // prompt is over half of a 1,536-token window at one token per byte: it is counted.
        let engine = ScriptedModel(.local, window: 1536)
        let document = Self.document(String(repeating: "有丝分裂把一个细胞分成两个相同的细胞。", count: 12))
        try #require(Self.whole(.headline, document).utf8.count >= 768)
        try #require(TokenCount.estimate(for: Self.whole(.headline, document)).count < 768)
        _ = try await checkBudget(engine: engine, task: .headline, document: document, concept: nil, explanation: nil)
        #expect(engine.calls.tokenCount == 1)
    }

    @Test func aPromptOverHalfTheWindowIsCountedOnceWhole() async throws {
        let engine = ScriptedModel(.local, window: 2048)
        let document = Self.document(String(repeating: "Mitosis divides one cell into two identical cells. ", count: 30))
        let whole = Self.whole(.headline, document)
        try #require(whole.utf8.count >= 1024, "the prompt must be over half the window")
        let budget = try await checkBudget(engine: engine, task: .headline, document: document, concept: nil, explanation: nil)
        #expect(engine.calls.tokenCount == 1)
        #expect(engine.calls.tokenize == 0)
        #expect(budget.method == .exact)
        #expect(budget.overheadTokens + budget.documentTokens == ScriptedModel.tokens(whole))
        #expect(budget.fits)
    }

    @Test func aDocumentThatDoesNotFitIsCountedAgainForFitting() async throws {
        let engine = ScriptedModel(.local, window: 2048)
        let document = Self.document(String(repeating: "Mitosis divides one cell into two identical cells. ", count: 400))
        let budget = try await checkBudget(engine: engine, task: .headline, document: document, concept: nil, explanation: nil)
        #expect(engine.calls.tokenCount == 2, "the whole prompt, then the document: never more")
        #expect(budget.documentTokens == ScriptedModel.tokens(document.text))
        #expect(budget.overheadTokens == ScriptedModel.tokens(Self.whole(.headline, document)) - budget.documentTokens)
        #expect(!budget.fits)
    }
}
