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
        .flashcards(Flashcards(cards: quotes.enumerated().map { Self.card($0.offset, quote: $0.element) }))
    }

    /// A card whose question and answer its quote carries (#53), so that only the quote's own
    /// place in the material is judged: the quote's first two content words asked about, its last one the answer.
    static func card(_ index: Int, quote: String) -> Flashcards.Card {
        let words = TermNormalizer.words(in: quote).filter(GroundingWords.isContent).map(\.lowercased)
        return Flashcards.Card(
            question: "Question \(index) on \(words.first ?? "this") and \(words.dropFirst().first ?? "that")?", answer: words.last ?? "Answer",
            quote: quote)
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

    // MARK: Quiz, mind map, Feynman (#18)

    static func question(
        _ choices: [String] = ["interphase", "prophase", "anaphase", "telophase"], answer: Int = 0,
        quote: String = "Before mitosis, in interphase, the cell grows and copies its DNA"
    ) -> Quiz.Question {
        Quiz.Question(prompt: "When does the cell copy its DNA?", choices: choices, answerIndex: answer, explanation: "See the notes.", quote: quote)
    }

    @Test func aQuizQuestionWithItsQuoteAndASupportedAnswerPasses() {
        #expect(Grounding.issues(in: .quiz(Quiz(questions: [Self.question()])), source: Self.material).isEmpty)
    }

    @Test func aQuizQuestionIsCheckedForItsQuoteItsAnswerAndItsDistractors() {
        let quiz = Quiz(questions: [
            // The quote is invented.
            Self.question(quote: "DNA is copied during anaphase by the spindle."),
            // The quote is real, but the right answer ("prophase") is not in it.
            Self.question(answer: 1),
            // A wrong choice is the quote itself.
            Self.question(["interphase", "the cell grows and copies its DNA", "anaphase", "telophase"],
                          quote: "in interphase, the cell grows and copies its DNA"),
        ])
        let issues = Grounding.issues(in: .quiz(quiz), source: Self.material)
        #expect(issues.map(\.path) == ["questions[0].quote", "questions[1].choices[1]", "questions[2].choices[1]"])
        #expect(issues[1].message.contains("the quote does not say it"))
        #expect(issues[2].message.contains("copies the quote"))
    }

    @Test func aNumberAnswerMustAppearInTheQuote() {
        let material = "The Treaty of Westphalia was signed in 1648. It ended the Thirty Years' War."
        let quote = "The Treaty of Westphalia was signed in 1648."
        let right = Quiz.Question(prompt: "When?", choices: ["1648", "1748", "1548", "1848"], answerIndex: 0, explanation: "", quote: quote)
        var wrong = right
        wrong.answerIndex = 1
        #expect(Grounding.issues(in: .quiz(Quiz(questions: [right])), source: material).isEmpty)
        #expect(Grounding.issues(in: .quiz(Quiz(questions: [wrong])), source: material).map(\.path) == ["questions[0].choices[1]"])
    }

    /// The map #18 reported: three of four branches were the schema's own words.
    @Test func mindMapLabelsMustUseTheMaterialsWords() {
        let map = MindMap(centralTopic: "Mitosis", branches: [
            MindMap.Node(label: "Sister chromatids", children: [MindMap.Node(label: "branch2")]),
            MindMap.Node(label: "Photosynthesis and chloroplasts"),
            MindMap.Node(label: "Interphase copies DNA"),
        ])
        let issues = Grounding.issues(in: .mindMap(map), source: Self.material)
        #expect(issues.map(\.path) == ["branches[0].children[0].label", "branches[1].label"])
        #expect(issues[1].message.contains("photosynthes"))
    }

    @Test func theCentralTopicMustBeTheTitleOrTheMainSubject() {
        let branches = [MindMap.Node(label: "Interphase"), MindMap.Node(label: "Anaphase")]
        // "quick notes" is in the first line (the title); "chromatids" is among the most frequent words.
        for topic in ["Mitosis", "Quick notes", "Sister chromatids"] {
            #expect(Grounding.issues(in: .mindMap(MindMap(centralTopic: topic, branches: branches)), source: Self.material).isEmpty, "\(topic)")
        }
        // In the material, but not what it is about.
        let offTopic = MindMap(centralTopic: "Genetically identical", branches: branches)
        #expect(Grounding.issues(in: .mindMap(offTopic), source: Self.material).map(\.path) == ["centralTopic"])
    }

    @Test func everyFeynmanGapCitesTheMaterial() {
        let feedback = FeynmanFeedback(
            verdict: .partial, score: 5, whatWasRight: ["You named the daughter cells."],
            gaps: [
                .init(point: "DNA is not copied in prophase.", correction: "It is copied in interphase.",
                      quote: "Before mitosis, in interphase, the cell grows and copies its DNA"),
                .init(point: "Cytokinesis was left out.", correction: "Cytokinesis splits the cell.",
                      quote: "Cytokinesis splits the cytoplasm in two."),
            ],
            followUpQuestion: "What happens in anaphase?")
        #expect(Grounding.issues(in: .feynman(feedback), source: Self.material).map(\.path) == ["gaps[1].quote"])
    }

    // MARK: Dropping what fails twice

    /// A deck whose cards would pass validation, with these quotes.
    static func deck(_ quotes: [String]) -> AnyStudyResult {
        .flashcards(Flashcards(cards: quotes.enumerated().map { index, quote in Self.card(index, quote: quote) }))
    }

    @Test func ungroundedItemsAreDroppedAndNamed() throws {
        let real = [
            "Mitosis is how one eukaryotic cell divides into two genetically identical daughter cells.",
            "Anaphase: the sister chromatids are pulled apart to opposite poles of the cell.",
            "Before mitosis, in interphase, the cell grows and copies its DNA",
        ]
        let cards = Self.deck([real[0], "An invented sentence about meiosis.", real[1], real[2]])
        let kept = try #require(Grounding.dropUngrounded(cards, source: Self.material))
        guard case .flashcards(let deck) = kept.result else { Issue.record("not flashcards"); return }
        #expect(deck.cards.map(\.quote) == real)
        #expect(kept.dropped.map(\.path) == ["cards[1]"])
        #expect(kept.dropped[0].reason.contains("is not in the material"))

        let map = MindMap(centralTopic: "Mitosis", branches: [
            MindMap.Node(label: "Interphase", children: [MindMap.Node(label: "DNA copies"), MindMap.Node(label: "branch1")]),
            MindMap.Node(label: "CentralTopic"),
            MindMap.Node(label: "Anaphase"),
        ])
        let prunedMap = try #require(Grounding.dropUngrounded(.mindMap(map), source: Self.material))
        #expect(prunedMap.result == .mindMap(MindMap(centralTopic: "Mitosis", branches: [
            MindMap.Node(label: "Interphase", children: [MindMap.Node(label: "DNA copies")]), MindMap.Node(label: "Anaphase"),
        ])))
        #expect(prunedMap.dropped.map(\.path) == ["branches[0].children[1]", "branches[1]"])
    }

    @Test func aPartLeftWithTooFewItemsOrAnUngroundedBlurbIsNotKept() {
        // Three cards are the least a deck has: one dropped leaves two.
        let cards = Self.deck([
            "Mitosis is how one eukaryotic cell divides into two genetically identical daughter cells.",
            "Anaphase: the sister chromatids are pulled apart to opposite poles of the cell.",
            "An invented sentence about meiosis.",
        ])
        #expect(Grounding.dropUngrounded(cards, source: Self.material) == nil)
        #expect(Grounding.dropUngrounded(.headline(Headline(title: "Notes", blurb: "A must-read.")), source: Self.material) == nil)
        let offTopic = MindMap(centralTopic: "Genetically identical", branches: [MindMap.Node(label: "Interphase"), MindMap.Node(label: "Anaphase")])
        #expect(Grounding.dropUngrounded(.mindMap(offTopic), source: Self.material) == nil)
    }
}
