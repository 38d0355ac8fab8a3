import Foundation
import Testing

@testable import StudyKit

/// Two repairs of #53 written in session 62 against the 1.5B's recorded quizzes: a quote that
/// does not carry its item's answer is replaced by the material's one sentence that does, and quiz
/// choices that swap a word of each other ("strong" for "weak") are distinct answers, not
/// near-copies.
@Suite("A wrong quote is replaced, and swapped choices are distinct")
struct RequoteAndChoiceTests {
    static let material = PartJudgeTests.material
    static let good = PartJudgeTests.good

    @Test(arguments: [
        // The model quoted the sentence after the one that says it: the material's sentence.
        (
            "Which bonds does helicase break between the bases?", "hydrogen",
            "The point where the helix opens is the replication fork.",
            good[0].2 as String?
        ),
        // The quote already carries the answer: nothing to repair.
        (good[0].0, good[0].1, good[0].2, nil),
        // No sentence of the material says it: nothing to quote, the item is dropped.
        (
            "What does DNA ligase do?", "joins Okazaki fragments",
            "Single-strand binding proteins keep the separated strands apart.", nil
        ),
        // Three sentences carry "DNA polymerase" and two of the question's words: a guess, not a repair.
        ("Which DNA enzyme removes things?", "DNA polymerase", good[7].2, nil),
    ])
    func aQuoteThatDoesNotCarryTheAnswerIsTheMaterialsSentence(
        question: String, answer: String, quote: String, sentence: String?
    ) {
        #expect(
            ItemRepairs.requote(
                answer: answer, question: question, quote: quote,
                sentences: ItemRepairs.sentences(ofMaterial: Self.material), maxLength: 500)
                == sentence)
    }

    /// The fixture quiz with its first question's quote swapped for a sentence that does not say the answer.
    static var misquoted: String {
        let quiz = PartJudgeTests.quiz
        guard let range = quiz.range(of: #""quote":""# + good[0].2 + #"""#) else { return quiz }
        return quiz.replacingCharacters(
            in: range, with: #""quote":"The point where the helix opens is the replication fork.""#)
    }

    @Test func aQuizQuestionWhoseQuoteMissesTheAnswerIsRepairedNotDropped() throws {
        #expect(Self.misquoted != PartJudgeTests.quiz)
        let judged = try PartJudgeTests.judge(Self.misquoted, task: .quiz)
        guard case .quiz(let quiz) = judged.result else { throw BuiltinError.emptyText }
        #expect(judged.dropped.isEmpty, "\(judged.dropped)")
        #expect(quiz.questions[0].quote == Self.good[0].2)
        #expect(judged.items[0].kind == .repaired)
        #expect(judged.items[0].note?.contains("the material's sentence") == true)
        #expect(judged.items[1].kind == .written)
    }

    @Test func aCardWhoseQuoteMissesTheAnswerIsRepairedNotDropped() throws {
        let misquoted = (
            "Which bonds does helicase break between the bases?", "hydrogen",
            "The point where the helix opens is the replication fork."
        )
        let judged = try PartJudgeTests.judge(
            PartJudgeTests.deck(Array(Self.good.prefix(5)) + [misquoted]), task: .flashcards)
        guard case .flashcards(let deck) = judged.result else { throw BuiltinError.emptyText }
        #expect(judged.dropped.isEmpty, "\(judged.dropped)")
        #expect(deck.cards[5].quote == Self.good[0].2)
        #expect(deck.cards[5].answer == "hydrogen")
        #expect(judged.items[5].kind == .repaired)
    }

    // MARK: choices

    static func quiz(choices: [String]) -> String {
        let first = JSONValue.object([
            "prompt": "How completely does a strong acid ionise in water?",
            "choices": .array(choices.map(JSONValue.string)), "answerIndex": 0,
            "explanation": "A strong acid ionises completely.",
            "quote": "A strong acid ionises completely in water.",
        ]).compactText
        return PartJudgeTests.quiz.replacingOccurrences(of: #"{"questions":["#, with: #"{"questions":["# + first + ",")
    }

    static let strong = "A strong acid ionises completely in water, giving hydrogen ions and a low pH reading on the scale."

    @Test(arguments: [
        // Each wrong choice swaps a word of the right answer: four answers to choose between.
        (
            [
                strong, strong.replacingOccurrences(of: "strong", with: "weak"),
                strong.replacingOccurrences(of: "completely", with: "partly"),
                strong.replacingOccurrences(of: "hydrogen", with: "hydroxide"),
            ], true
        ),
        // One only adds a word to the right answer: the same answer again.
        (
            [
                strong, strong.replacingOccurrences(of: "scale.", with: "scale with litmus."),
                strong.replacingOccurrences(of: "completely", with: "partly"),
                strong.replacingOccurrences(of: "hydrogen", with: "hydroxide"),
            ], false
        ),
        // Exact duplicates are never distinct.
        (["completely", "Completely", "partly", "not at all"], false),
    ])
    func quizChoicesThatSwapAWordAreDistinct(choices: [String], valid: Bool) {
        let decoded = try? decodeResult(for: .quiz, modelOutput: Self.quiz(choices: choices))
        #expect((decoded != nil) == valid, "\(choices)")
    }

    @Test(arguments: [
        (["strong", "acid", "ionis", "complet"], ["weak", "acid", "ionis", "complet"], true),
        (["strong", "acid", "ionis", "complet"], ["strong", "acid", "ionis", "complet", "water"], false),
        (["strong", "acid"], ["strong", "acid"], false),
    ])
    func aSwapHoldsAWordOnEachSide(first: [String], second: [String], swaps: Bool) {
        #expect(ItemRules.swapsAWord(Set(first), Set(second)) == swaps)
    }
}
