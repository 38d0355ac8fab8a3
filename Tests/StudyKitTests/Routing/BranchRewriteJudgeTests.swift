import Testing
@testable import StudyKit

/// How a renamed mind-map branch is judged (``ItemRewriter/branchJob(_:centre:path:materialStems:)``):
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
        let job = ItemRewriter.branchJob(branch, centre: "Photosynthesis", path: "branches[0].label", materialStems: Set(GroundingWords.contentStems(material)))
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

    /// Only a label longer than a name may be, and not a whole heading of the material, is sent
    /// to the model: samples/notes.pdf's and long.pdf's headings ("Key terms and revision
    /// questions", "The Old Regime and its problems", "The Republic and the Terror, 1792–1794")
    /// already name their branches, and every rename the small model offered was refused; a
    /// label cut from a longer heading, or one not found as a line of the material, is named.
    @Test func onlyALabelLongerThanFiveWordsThatIsNoWholeHeadingIsNamed() {
        let material = """
            The French Revolution

            2. The Old Regime and its problems

            In 1788 the treasury was empty.

            5. The Republic and the Terror, 1792–1794

            How the Estates-General became the National Assembly in June 1789

            3.1 Where the reactions of photosynthesis happen
            """
        let headings = ItemRewriter.headingKeys(in: material)
        let cases: [(label: String, named: Bool)] = [
            ("Key terms and revision questions", false),  // five words: a name already
            ("Photosynthesis", false),
            ("The Old Regime and its problems", false),  // a whole heading, its number dropped
            ("the old regime and  its problems", false),  // case and spacing do not matter
            ("The Republic and the Terror, 1792–1794", false),
            ("How the Estates-General became the National", true),  // cut from a longer heading
            ("Where the reactions of photosynthesis happen", false),  // "3.1" dropped
            ("Why the treasury was empty in 1788", true),  // six words, no line of the material
        ]
        for (label, named) in cases {
            #expect(ItemRewriter.branchNeedsName(MindMap.Node(label: label, children: []), headings: headings) == named, "\(label)")
        }
        // A line longer than a label is no heading a label can be whole.
        #expect(!headings.contains(ProseText.duplicateKey("How the Estates-General became the National Assembly in June 1789")))
    }
}

@Suite("A refused item's reason shows what the model wrote")
struct RefusedItemReasonTests {
    @Test func theReasonQuotesTheModelsLongestTextFieldOnce() {
        // A card's answer comes first and is fixed: its question says what went wrong.
        let answer: JSONValue = ["answer": "ATP", "question": "What makes extra ATP but no NADPH?"]
        #expect(ItemRewriter.quotingAnswer("the question gave its answer away", answer)
            == "the question gave its answer away (“What makes extra ATP but no NADPH?”)")
        // A reason that already quotes the answer, or an answer with no text, is left as it is.
        #expect(ItemRewriter.quotingAnswer("the phrase “in the stroma” was not taken from the sentence", ["answer": "in the stroma"])
            == "the phrase “in the stroma” was not taken from the sentence")
        #expect(ItemRewriter.quotingAnswer("the answer had no label", ["label": ""]) == "the answer had no label")
    }
}
