import Foundation
import Testing

@testable import StudyKit

/// #53, session 65: a quiz question whose wrong choices repeat or near-copy each other, run over
/// 200 characters or copy the quote keeps the model's question, right answer and quote; only the
/// broken wrong choices are replaced by the builtin engine's distractors for that answer.
@Suite("A quiz question's broken wrong choices are replaced, not the question dropped")
struct QuizChoiceRepairTests {
    static let quote = PartJudgeTests.good[0].2
    static let long = String(repeating: "an enzyme that works along the strand ", count: 6)

    @Test(arguments: [
        // Nothing broken.
        (["helicase", "primase", "DNA ligase", "DNA polymerase III"], 0, [Int]()),
        // A wrong choice that repeats the right answer (case and spacing aside).
        (["helicase", "Helicase ", "DNA ligase", "primase"], 0, [1]),
        // Two that repeat an earlier wrong choice; the right answer keeps its place.
        (["primase", "primase", "helicase", "primase"], 2, [1, 3]),
        // A near-copy that only adds a word; a swap of one word is another answer.
        (["helicase", "DNA polymerase III", "DNA polymerase III enzyme", "DNA polymerase I"], 0, [2]),
        // Over 200 characters.
        (["helicase", long, "DNA ligase", "primase"], 0, [1]),
        // A wrong choice that copies the quote.
        (
            [
                "helicase", "The enzyme helicase unwinds the double helix and separates the two strands",
                "DNA ligase", "primase",
            ], 0, [1]
        ),
        // The right answer itself too long, or not in the quote: the question's fault, no repair.
        ([long, "helicase", "helicase", "primase"], 0, []),
        (["primase", "primase", "helicase", "DNA ligase"], 0, []),
    ])
    func theBrokenWrongChoicesAreFound(choices: [String], answer: Int, broken: [Int]) {
        #expect(ItemRepairs.brokenChoices(choices, answerIndex: answer, quote: Self.quote).map(\.index) == broken)
    }

    @Test(arguments: [
        // The first candidate that fits takes each broken place, in order.
        (["helicase", "helicase", "primase", "primase"], ["primase", "DNA ligase", "origins", "fork"],
         ["helicase", "DNA ligase", "primase", "origins"] as [String]?),
        // Too few candidates that fit: no repair, the question is dropped as before.
        (["helicase", "helicase", "primase", "primase"], ["Primase", "HELICASE", "DNA ligase"], nil),
        (["helicase", "helicase", "primase", "DNA ligase"], [], nil),
        // Nothing broken: nothing to mend.
        (["helicase", "primase", "DNA ligase", "fork"], ["origins"], nil),
    ])
    func theBrokenChoicesTakeTheFirstCandidatesThatFit(choices: [String], candidates: [String], mended: [String]?) {
        let result = ItemRepairs.mendedChoices(choices, answerIndex: 0, quote: Self.quote, candidates: candidates)
        #expect(result?.choices == mended)
        #expect(result.map { $0.choices[0] == choices[0] } ?? true)
    }

    @Test func theBuiltinDistractorsAreTermsOfTheMaterialBesideTheOthers() {
        let options = BuiltinEngine().distractors(
            forAnswer: "helicase", prompt: "Which enzyme unwinds the double helix?", quote: Self.quote,
            beside: ["primase"], count: 4, material: PartJudgeTests.material)
        #expect(options.count == 4, "\(options)")
        let keys = Set(options.map(ProseText.duplicateKey))
        #expect(keys.count == options.count)
        #expect(!keys.contains("helicase") && !keys.contains("primase"), "\(options)")
        for option in options {
            #expect(PartJudgeTests.material.lowercased().contains(option.lowercased()), "\(option)")
        }
    }

    /// The fixture quiz with its first question's wrong choices repeating its right answer.
    static var repeated: String {
        PartJudgeTests.quiz.replacingOccurrences(
            of: #"["helicase","primase","DNA ligase","DNA polymerase III"]"#,
            with: #"["helicase","helicase","helicase","DNA polymerase III"]"#)
    }

    @Test func aQuizWithRepeatedChoicesKeepsItsOtherQuestionsAndRepairsTheRepeatedOne() throws {
        #expect(Self.repeated != PartJudgeTests.quiz)
        // Before: the whole answer is invalid for the repeated choices.
        #expect((try? decodeResult(for: .quiz, modelOutput: Self.repeated)) == nil)
        let judged = try PartJudgeTests.judge(Self.repeated, task: .quiz)
        guard case .quiz(let quiz) = judged.result else { throw BuiltinError.emptyText }
        #expect(judged.dropped.isEmpty, "\(judged.dropped)")
        let first = quiz.questions[0]
        #expect(first.prompt == "Which enzyme unwinds the double helix?")
        #expect(first.answerIndex == 0 && first.answer == "helicase")
        #expect(first.choices[3] == "DNA polymerase III")
        #expect(Set(first.choices.map(ProseText.duplicateKey)).count == Quiz.choiceCount, "\(first.choices)")
        #expect(judged.items[0].kind == .repaired)
        let note = judged.items[0].note ?? ""
        #expect(note.contains("choice 2") && note.contains("choice 3") && note.contains("repeated the right answer"))
        #expect(note.contains(first.choices[1]) && note.contains(first.choices[2]), "\(note)")
        #expect(judged.items[1].kind == .written && judged.items[2].kind == .written)
        #expect(quiz.questions[1].prompt == "What joins the fragments into one continuous strand?")
    }

    @Test func aQuestionWhoseRightAnswerIsBrokenIsStillDropped() throws {
        let broken = PartJudgeTests.quiz.replacingOccurrences(
            of: #"["helicase","primase","DNA ligase","DNA polymerase III"]"#,
            with: #"[""# + Self.long + #"","primase","primase","DNA polymerase III"]"#)
        #expect(broken != PartJudgeTests.quiz)
        // Four asked for: the two other questions are enough to keep the quiz.
        let judged = try PartJudgeTests.judge(
            broken, task: .quiz, counts: ItemCounts(cards: 6, questions: 4, keyPoints: 5, branches: 4))
        guard case .quiz(let quiz) = judged.result else { throw BuiltinError.emptyText }
        #expect(judged.dropped.map(\.path).contains { $0.hasPrefix("questions[0]") }, "\(judged.dropped)")
        #expect(!quiz.questions.contains { $0.prompt == "Which enzyme unwinds the double helix?" })
        #expect(judged.items.filter { $0.kind == .repaired }.isEmpty)
    }
}
