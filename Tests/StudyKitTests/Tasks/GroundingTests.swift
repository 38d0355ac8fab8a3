import Testing
@testable import StudyKit

@Suite("Grounding: answers must be about the material")
struct GroundingTests {
    static let material = """
        Mitosis - quick notes
        Mitosis is how one eukaryotic cell divides into two genetically identical daughter cells. \
        Before mitosis, in interphase, the cell grows and copies its DNA, so each chromosome becomes two sister \
        chromatids joined at the centromere. Anaphase: the sister chromatids are pulled apart to opposite poles of the cell.
        """

    static func headline(_ blurb: String) -> AnyStudyResult { .headline(Headline(title: "Mitosis notes", blurb: blurb)) }

    @Test(arguments: [
        "Explains how a eukaryotic cell divides into two identical daughter cells.",
        "Covers how each chromosome separates into sister chromatids.",  // "chromosome", "sister", "chromatids"
        "How cells divide.",  // "cells" meets "cell" by stem, and "divide" "divides"
    ])
    func aBlurbThatNamesTheMaterialPasses(_ blurb: String) {
        #expect(Grounding.issues(in: Self.headline(blurb), source: Self.material).isEmpty)
    }

    /// One shared word is what empty praise manages: a grounded claim names at least two.
    @Test(arguments: [
        "Covers the stages of chromosome separation.",  // only "chromosome" is in the material
        "A must-read on mitosis for every student.",
    ])
    func aBlurbThatNamesOnlyOneWordOfTheMaterialIsAnIssue(_ blurb: String) {
        #expect(Grounding.issues(in: Self.headline(blurb), source: Self.material).map(\.description) == [
            "blurb names only one word of the material; state in one sentence what the material says, in its own terms"
        ])
    }

    @Test(arguments: [
        "This is a JSON object with the headline.",
        "A short overview of the topic for students.",
        "It is what it is.",
    ])
    func aBlurbThatNamesNothingFromTheMaterialIsAnIssue(_ blurb: String) {
        #expect(Grounding.issues(in: Self.headline(blurb), source: Self.material).map(\.description) == [
            "blurb names nothing from the material; say in one sentence what this material covers"
        ])
    }

    @Test func aSummaryOverviewMustNameTheMaterial() {
        let grounded = Summary(overview: "Mitosis makes two identical cells. Interphase comes first.", keyPoints: ["DNA is copied."])
        #expect(Grounding.issues(in: .summary(grounded), source: Self.material).isEmpty)
        let empty = Summary(overview: "This is a summary. It has several sentences.", keyPoints: ["A point."])
        #expect(Grounding.issues(in: .summary(empty), source: Self.material).map(\.path) == ["overview"])
    }

    static func cards(_ quotes: [String]) -> AnyStudyResult {
        .flashcards(Flashcards(cards: quotes.enumerated().map { Flashcards.Card(question: "Question \($0.offset)?", answer: "Answer", quote: $0.element) }))
    }

    @Test(arguments: [
        // Word for word, with other case, quotes and punctuation.
        "Mitosis is how one eukaryotic cell divides into two genetically identical daughter cells.",
        "“the sister chromatids are pulled apart to opposite poles of the cell”",
        // Lightly edited: one word dropped from a long sentence keeps 3 of 4 word triples.
        "Before mitosis, in interphase, the cell grows and copies its DNA, so each chromosome becomes two sister chromatids joined at centromere.",
        // Elided with an ellipsis: each piece is in the material.
        "Before mitosis, in interphase … each chromosome becomes two sister chromatids",
        "Before mitosis, in interphase... each chromosome becomes two sister chromatids",
    ])
    func aQuoteFromTheMaterialPasses(_ quote: String) {
        #expect(Grounding.issues(in: Self.cards([quote]), source: Self.material).isEmpty)
    }

    @Test func anInventedQuoteIsAnIssueNamingItsCard() {
        let result = Self.cards([
            "Mitosis is how one eukaryotic cell divides into two genetically identical daughter cells.",
            "Mitosis produces four haploid gametes that are genetically different.",
            "Daughter chromatids",  // two words not side by side in the material
            "…",
        ])
        #expect(Grounding.issues(in: result, source: Self.material).map(\.path) == ["cards[1].quote", "cards[2].quote", "cards[3].quote"])
    }

    @Test func theKitsPartsAreCheckedUnderTheirNames() {
        let kit = StudyKitBundle(
            headline: Headline(title: "Notes", blurb: "This is a JSON object."),
            summary: Summary(overview: "Mitosis makes two cells. Interphase comes first.", keyPoints: ["DNA is copied."]),
            flashcards: Flashcards(cards: [Flashcards.Card(question: "Q?", answer: "A", quote: "An invented sentence about nothing here.")]),
            quiz: Quiz(questions: []), mindMap: MindMap(centralTopic: "Mitosis", branches: []))
        #expect(Grounding.issues(in: .studyKit(kit), source: Self.material).map(\.path) == ["headline.blurb", "flashcards.cards[0].quote"])
    }

    @Test func chineseMaterialIsComparedCharacterByCharacter() {
        let material = "有丝分裂是一个真核细胞分裂成两个相同子细胞的过程。"
        let grounded = Headline(title: "有丝分裂", blurb: "介绍细胞如何分裂。")
        #expect(Grounding.issues(in: .headline(grounded), source: material).isEmpty)
        let ungrounded = Headline(title: "笔记", blurb: "这是标题。")
        #expect(Grounding.issues(in: .headline(ungrounded), source: material).map(\.path) == ["blurb"])
    }
}
