import Testing
@testable import StudyKit

/// How a renamed mind-map branch is judged (``RoutingEngine/branchJob(_:centre:path:materialStems:)``):
/// Qwen2.5-Coder-0.5B's names for the branches of samples/notes.pdf and samples/long.pdf, most of
/// which only restyled or shortened a heading that was already a good label.
@Suite("A renamed branch says more, or the same shorter, and loses nothing")
struct BranchRewriteJudgeTests {
    static let material = """
        Where it happens: the chloroplast. The light-dependent reactions. Photorespiration, C4 and CAM plants.
        The Directory, 1795–1799. Key terms and revision questions. Chlorophyll absorbs light in the thylakoid membranes.
        """

    static func judge(_ label: String, heading: String, details: [String] = []) -> String {
        let branch = MindMap.Node(label: heading, children: details.map { MindMap.Node(label: $0, children: []) })
        let job = RoutingEngine.branchJob(branch, centre: "Photosynthesis", path: "branches[0].label", materialStems: Set(Grounding.contentStems(material)))
        switch job.accept(["label": .string(label)]) {
        case .success: return "accepted"
        case .failure(let rejection): return rejection.reason
        }
    }

    @Test func restylingTheHeadingIsNoNewName() {
        #expect(Self.judge("Light-Dependent Reactions", heading: "The light-dependent reactions") == "the name only restyled the heading")
        #expect(Self.judge("Where it happens: chloroplast", heading: "Where it happens: the chloroplast") == "the name only restyled the heading")
    }

    @Test func aNameThatLosesTheHeadingsDatesOrMostOfItsWordsIsRefused() {
        #expect(Self.judge("The Directory", heading: "The Directory, 1795–1799") == "the name dropped the heading's dates or numbers")
        #expect(Self.judge("Photorespiration", heading: "Photorespiration, C4 and CAM plants") == "the name dropped the heading's dates or numbers")
        #expect(Self.judge("Revision questions", heading: "Key terms and revision questions plus chlorophyll") == "the name dropped most of what the heading says")
    }

    @Test func aNameThatSaysWhatTheBranchIsAboutIsAccepted() {
        #expect(Self.judge("Chloroplast thylakoid membranes", heading: "Where it happens: the chloroplast", details: ["thylakoid membranes"]) == "accepted")
        #expect(Self.judge("The Directory, 1795–1799: light", heading: "The Directory, 1795–1799") == "accepted")
    }

    /// Only a heading longer than a name may be is sent to the model: samples/notes.pdf's and
    /// long.pdf's headings ("Key terms and revision questions", "1789: the year of revolutions")
    /// already name their branches, and every rename the small model offered was refused.
    @Test func onlyAHeadingLongerThanFiveWordsIsNamed() {
        #expect(!RoutingEngine.branchNeedsName(MindMap.Node(label: "Key terms and revision questions", children: [])))
        #expect(!RoutingEngine.branchNeedsName(MindMap.Node(label: "Photosynthesis", children: [])))
        #expect(RoutingEngine.branchNeedsName(MindMap.Node(label: "How the Estates-General became the National Assembly", children: [])))
    }
}

@Suite("A refused item's reason shows what the model wrote")
struct RefusedItemReasonTests {
    @Test func theReasonQuotesTheModelsFirstTextFieldOnce() {
        let answer: JSONValue = ["question": "What makes extra ATP but no NADPH?", "answer": "ATP"]
        #expect(RoutingEngine.quotingAnswer("the question gave its answer away", answer)
            == "the question gave its answer away (“What makes extra ATP but no NADPH?”)")
        // A reason that already quotes the answer, or an answer with no text, is left as it is.
        #expect(RoutingEngine.quotingAnswer("the phrase “in the stroma” was not taken from the sentence", ["answer": "in the stroma"])
            == "the phrase “in the stroma” was not taken from the sentence")
        #expect(RoutingEngine.quotingAnswer("the answer had no label", ["label": ""]) == "the answer had no label")
    }
}
