import Foundation
import Testing
@testable import StudyKit

/// The Feynman item jobs through the router with a scripted local model: the whole answer
/// does not fit the local window under a time budget, so the builtin check answers and the model
/// is asked to correct each wrong claim. An accepted correction opens the gap's correction and
/// is labelled `rewritten`; a refused one leaves the check's correction, labelled with why.
@Suite("Feynman corrections through the router")
struct FeynmanRewriteRoutingTests {
    static let explanation = "Default values are evaluated every time the function is called."

    static func run(answer: String) async throws -> (RoutedResult, FeynmanFeedback, ScriptedModel) {
        let document = Document(text: FeynmanCheckTests.manual, title: nil, kind: .text, origin: "test")
        // A window too small for the material: the whole answer is skipped, the items are not.
        let local = ScriptedModel(.local, window: 256, steps: [.answer(answer)])
        let remote = ScriptedModel(.remote, available: .unavailable(reason: "not configured"))
        let router = RoutingEngine(local: local, remote: remote)
        let request = RoutingRequest(
            task: .feynman, document: document, concept: "default parameter values", explanation: Self.explanation,
            // A budget that a test starved by the whole suite's load never uses up (a 60 s one
            // ran out before the first item in a CI run where the test took 207 s).
            useCache: false, budget: TimeBudget(seconds: 3600, start: Date()))
        let routed = try await router.run(request)
        guard case .feynman(let feedback) = routed.result else { throw CancellationError() }
        return (routed, feedback, local)
    }

    @Test func anAcceptedCorrectionOpensTheGapAndIsLabelledRewritten() async throws {
        let (routed, feedback, local) = try await Self.run(answer: #"{"correction": "The default value is evaluated only once."}"#)
        #expect(local.calls.respond == 1)
        #expect(local.calls.prompts.first?.contains("Student: Default values are evaluated every time the function is called.") == true)
        let gap = try #require(feedback.gaps.first)
        #expect(gap.point.hasPrefix("You said “Default values are evaluated every time"))
        #expect(gap.correction.hasPrefix("The default value is evaluated only once."))
        let item = try #require(routed.items.first { $0.path == "gaps[0]" })
        #expect(item.kind == .rewritten)
        #expect(routed.items.filter { $0.kind == .rewritten }.count == 1)
    }

    /// The pointing job's phrase must be the sentence's own words. A preposition the model puts
    /// before a place the sentence names at the start is dropped ("in the Calvin cycle", the
    /// 0.5B's answer on light-stroma); one that would replace the sentence's own is not ("during
    /// mitosis" for "Before mitosis": the opposite).
    @Test(arguments: [
        ("in the Calvin cycle", "The Calvin cycle, also called the light-independent reactions, takes place in the stroma.", "the Calvin cycle" as String?),
        ("in interphase", "Before mitosis, in interphase, the cell grows and copies its DNA.", "in interphase"),
        ("during mitosis", "Before mitosis, in interphase, the cell grows and copies its DNA.", nil),
        ("at the cell's equator", "In metaphase the chromosomes line up at the cell's equator.", "at the cell's equator"),
        ("in the nucleus", "The cell grows and copies its DNA.", nil),
        ("in the equator", "In metaphase the chromosomes line up at the equator.", nil),
    ])
    func aPhraseIsTheSentencesOwnWords(answer: String, sentence: String, phrase: String?) {
        #expect(ItemRewriter.copiedPhrase(answer, from: sentence) == phrase)
    }

    /// The 0.5B pointed "the cell splits in two" (about prophase) to “cytoplasm” in "Cytokinesis
    /// then splits the cytoplasm: …": what the claim's verb acts on, not its place. A place led
    /// by a preposition may follow the claim's words, and the sentence's subject may open it.
    @Test(arguments: [
        ("cytoplasm", "Cytokinesis then splits the cytoplasm: animal cells pinch in with a cleavage furrow.", "the cell splits in two", true),
        ("Cytokinesis", "Cytokinesis then splits the cytoplasm: animal cells pinch in with a cleavage furrow.", "the cell splits in two", false),
        ("in interphase", "The cell copies its DNA in interphase.", "the DNA gets copied", false),
        ("its DNA", "The cell copies its DNA in interphase.", "the DNA gets copied", true),
    ])
    func aPhraseIsNotWhatTheClaimsVerbActsOn(phrase: String, sentence: String, claim: String, refused: Bool) {
        #expect(ItemRewriter.followsTheClaimsWord(phrase, in: sentence, claim: claim) == refused)
    }

    @Test func theClaimAgainKeepsTheChecksCorrectionWithTheReason() async throws {
        let builtin = BuiltinEngine().feynmanFeedback(
            BuiltinAnalysis(text: FeynmanCheckTests.manual, title: nil), concept: "default parameter values", explanation: Self.explanation)
        let (routed, feedback, local) = try await Self.run(answer: #"{"correction": "Default values are evaluated every time the function is called."}"#)
        #expect(local.calls.respond == 1)
        #expect(feedback.gaps.first?.correction == builtin.gaps.first?.correction)
        let item = try #require(routed.items.first { $0.path == "gaps[0]" })
        #expect(item.kind == .extracted)
        // The reason quotes the refused answer: a word only the wrong claim has ("time").
        #expect(item.note?.hasPrefix("not rewritten: “Default values are evaluated every time the function is called.”: used “time”") == true,
                "note: \(item.note ?? "none")")
    }
}
