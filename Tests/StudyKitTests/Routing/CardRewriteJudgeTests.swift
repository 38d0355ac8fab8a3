import Testing
@testable import StudyKit

/// How a rewritten card is judged (``RoutingEngine/cardJob(_:path:materialStems:)``): answers
/// SmolLM2 gave on samples/notes.pdf, right and wrong.
@Suite("A rewritten card asks what the card asks and answers with its blank")
struct CardRewriteJudgeTests {
    static let quote = "The rate of photosynthesis depends on light intensity, carbon dioxide and temperature."
    static let card = Flashcards.Card(
        question: "The rate of photosynthesis depends on light intensity, _____ and temperature.", answer: "carbon dioxide", quote: quote)

    static func judge(_ question: String, _ answer: String) -> String {
        let job = RoutingEngine.cardJob(card, path: "cards[0]", materialStems: Set(Grounding.contentStems(quote)))
        switch job.accept(["question": .string(question), "answer": .string(answer)]) {
        case .success: return "accepted"
        case .failure(let rejection): return rejection.reason
        }
    }

    @Test func aQuestionForTheBlankIsAccepted() {
        #expect(Self.judge("What does the rate of photosynthesis depend on besides light intensity and temperature?", "carbon dioxide") == "accepted")
    }

    @Test(arguments: [
        // The blank's words answer a vaguer question: a wrong card.
        ("What is the rate of photosynthesis?", "carbon dioxide", "the question did not ask what the card asks"),
        // Another word of the sentence as the answer.
        ("What does the rate of photosynthesis depend on besides light intensity and carbon dioxide?", "temperature",
         "the answer was not the card's missing words"),
        ("What does the rate of photosynthesis depend on?", "The rate of photosynthesis is used to...", "the answer was not the card's missing words"),
    ])
    func aCardThatDriftsIsKeptExtracted(question: String, answer: String, reason: String) {
        #expect(Self.judge(question, answer) == reason)
    }
}
