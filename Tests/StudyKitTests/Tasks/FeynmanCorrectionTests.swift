import Foundation
import Testing
@testable import StudyKit

/// The rule a model's one-sentence correction of a wrong claim must pass before it ships
/// (``FeynmanFeedback/correctionProblem(_:claim:evidence:concept:misplaced:)``). The cases are
/// answers Qwen2.5-Coder-0.5B gave on the two Feynman case tables, and the ways a small model
/// gets a correction wrong: the claim again, the claim with a grounded word tacked on, the
/// material's whole sentence, a word of its own, the opposite of the material.
@Suite("Feynman: a model's correction of a wrong claim")
struct FeynmanCorrectionTests {
    static let interphase = "Before mitosis, in interphase, the cell grows and copies its DNA, so each chromosome becomes two sister chromatids joined at the centromere."
    static let once = "Important warning: The default value is evaluated only once."
    static let finish = "If we are at the end of file, then flush is set to the zlib constant Z_FINISH, which is later passed to deflate() to indicate that this is the last chunk of input data to compress."
    static let breakSentence = "The break statement, like in C, breaks out of the innermost enclosing for or while loop."

    struct Case: Sendable, CustomTestStringConvertible {
        let correction: String
        let claim: String
        let evidence: String
        let concept: String
        let misplaced: Bool
        /// The start of the reason, or nil when the correction ships.
        let problem: String?
        var testDescription: String { correction }
    }

    @Test(arguments: [
        // Accepted: what the material says instead, in fewer words than its sentence.
        Case(correction: "The DNA gets copied in the interphase.", claim: "In prophase the DNA gets copied", evidence: interphase,
             concept: "prophase", misplaced: true, problem: nil),
        Case(correction: "The default value is evaluated only once.", claim: "Default values are evaluated every time the function is called",
             evidence: once, concept: "default argument values", misplaced: false, problem: nil),
        // The claim's words with the opposite sense; the sentence is short, so a copy is fine.
        Case(correction: "BibTeX's sorting algorithm is now stable.", claim: "BibTeX's sorting algorithm is not stable",
             evidence: "BibTeX's sorting algorithm is now stable.", concept: "sorting", misplaced: false, problem: nil),
        Case(correction: "The break statement breaks out of the innermost enclosing for or while loop.",
             claim: "The break statement skips the rest of the loop body", evidence: breakSentence, concept: "break", misplaced: false, problem: nil),
        // A word only the claim has stands as what is denied.
        Case(correction: "The DNA is copied in interphase, not in prophase.", claim: "In prophase the DNA gets copied", evidence: interphase,
             concept: "prophase", misplaced: true, problem: nil),

        // Refused: the claim again.
        Case(correction: "Z_FINISH is passed to deflate() with every chunk of input data.",
             claim: "Z_FINISH is passed to deflate() with every chunk of input data", evidence: finish, concept: "Z_FINISH", misplaced: false,
             problem: "repeated the claim"),
        Case(correction: "The cell splits in two.", claim: "the cell splits in two",
             evidence: "Cytokinesis then splits the cytoplasm: animal cells pinch in with a cleavage furrow, plant cells build a cell plate.",
             concept: "prophase", misplaced: true, problem: "repeated the claim"),
        // The claim with a grounded word tacked on still puts the fact in the concept.
        Case(correction: "In prophase, the DNA gets copied, before mitosis.", claim: "In prophase the DNA gets copied", evidence: interphase,
             concept: "prophase", misplaced: true, problem: "still puts the claim in prophase"),
        // A word the sentence does not have.
        Case(correction: "The chromosomes line up at the poles of the cell.", claim: "In metaphase the chromosomes line up at the poles of the cell",
             evidence: "Anaphase: the sister chromatids are pulled apart to opposite poles of the cell.", concept: "metaphase", misplaced: true,
             problem: "used “chromosom”"),
        // The material's whole long sentence: that is the gap's quote already.
        Case(correction: interphase, claim: "In prophase the DNA gets copied", evidence: interphase, concept: "prophase",
             misplaced: true, problem: "copied the material's whole sentence"),
        // The opposite of the material's sentence.
        Case(correction: "Cytokinesis splits the cytoplasm before mitosis ends.", claim: "Cytokinesis is when the chromosomes condense",
             evidence: "Cytokinesis splits the cytoplasm after mitosis ends, in both animal and plant cells.", concept: "cytokinesis", misplaced: false,
             problem: "says the opposite"),
        // Too short to be a sentence.
        Case(correction: "Only once.", claim: "Default values are evaluated every time the function is called", evidence: once,
             concept: "default argument values", misplaced: false, problem: "was not a sentence"),
    ])
    func judgesTheCorrection(_ row: Case) {
        let problem = FeynmanFeedback.correctionProblem(
            row.correction, claim: row.claim, evidence: row.evidence, concept: row.concept, misplaced: row.misplaced)
        if let expected = row.problem {
            #expect(problem?.hasPrefix(expected) == true, "got \(problem ?? "no problem")")
        } else {
            #expect(problem == nil)
        }
    }

    /// The job shows a misplaced claim without the concept's name, so the model says where the
    /// fact belongs instead of repeating the concept, and it accepts only what the rule accepts.
    @Test func theJobAsksWithoutTheConceptAndJudgesByTheRule() throws {
        let claim = FeynmanCheck.Claim(text: "In prophase the DNA gets copied", finding: .misplaced, evidence: Self.interphase)
        let job = ItemRewriter.correctionJob(claim, concept: "prophase", path: "gaps[0].correction")
        #expect(job.prompt.hasPrefix("Student: the DNA gets copied. Material: Before mitosis"))
        guard case .success(let sentence) = job.accept(["correction": "the DNA gets copied in interphase"]) else {
            Issue.record("a grounded correction was refused")
            return
        }
        #expect(sentence == "The DNA gets copied in interphase.")
        guard case .failure(let rejection) = job.accept(["correction": "In prophase the DNA gets copied."]) else {
            Issue.record("the claim again was accepted")
            return
        }
        #expect(rejection.reason.hasPrefix("“In prophase the DNA gets copied.”: "))
    }
}
