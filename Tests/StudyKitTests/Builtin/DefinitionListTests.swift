import Foundation
import Testing
@_spi(Benchmarks) @testable import StudyKit

/// A glossary or a "key people" section — a short name on a line of its own, then a paragraph
/// that describes it, again and again — is read as a definition list: each entry becomes a card
/// that asks for the name from its description, and the quiz offers the list's other names.
@Suite("Definition lists")
struct DefinitionListTests {
    static let people = """
        The French Revolution: Revision Notes

        1. Causes

        The monarchy was bankrupt by 1788, and the Estates-General met in May 1789 to find new taxes.

        2. Key people

        Louis XVI.

        King of France from 1774 to 1792; wellmeaning but indecisive, executed in January 1793.

        Marie Antoinette.

        His Austrian-born queen, hated by much of the public and executed in October 1793.

        Mirabeau.

        A noble elected for the Third Estate, the great orator of the early Assembly, who died in 1791.

        Marat.

        Radical journalist of The Friend of the People, assassinated in July 1793.

        3. Glossary

        Assignat.

        Paper money issued from 1790, backed by nationalised Church lands; it lost most of its value by 1796.

        Émigrés.

        Nobles, clergy and others who fled France during the Revolution, many of whom fought against it.

        Sans-culottes.

        The radical working people of Paris, so called because they wore long trousers rather than knee breeches.
        """

    static func entries(_ text: String) -> [DefinitionEntry] {
        BuiltinAnalysis(text: text, title: nil).definitions
    }

    @Test func namesOnTheirOwnLinesFollowedByADescriptionAreEntries() {
        let entries = Self.entries(Self.people)
        #expect(entries.map(\.term) == ["Louis XVI", "Marie Antoinette", "Mirabeau", "Marat", "Assignat", "Émigrés", "Sans-culottes"])
        #expect(entries.first?.description.text.hasPrefix("King of France") == true)
        // One list per section: the people, then the glossary.
        #expect(Set(entries.prefix(4).map(\.section)).count == 1)
        #expect(entries[3].section != entries[4].section)
    }

    @Test(arguments: [
        // Two entries could be two short headings, each with its paragraph.
        "Mitosis.\n\nOne cell divides into two identical cells.\n\nMeiosis.\n\nOne cell divides into four different cells.",
        // A description of several sentences is a section, not an entry.
        "Prophase.\n\nThe chromosomes condense. The spindle forms.\n\nMetaphase.\n\nThe chromosomes line up. They wait.\n\nAnaphase.\n\nThe chromatids part. They move.",
        // Short sentences are no names.
        "It failed.\n\nThe first attempt ran out of fuel over the sea.\n\nThey tried again.\n\nThe second attempt reached the coast at dawn.\n\nIt worked.\n\nThe third flight landed safely in the evening.",
        // A description that does not end is cut off, not described.
        "Danton.\n\nMinister of justice in 1792 and a leader of the\n\nMarat.\n\nRadical journalist of The Friend of the People\n\nNapoleon.\n\nGeneral of the Italian campaign who took power",
    ])
    func textThatOnlyLooksLikeAListIsNone(text: String) {
        #expect(Self.entries(text).isEmpty)
    }

    @Test(arguments: [
        ("Louis XVI.", "Louis XVI"), ("Abbé Sieyès.", "Abbé Sieyès"), ("Sans-culottes.", "Sans-culottes"),
        ("Committee of Public Safety:", "Committee of Public Safety"), ("Estates-General", "Estates-General"),
    ])
    func aNameLosesTheMarkThatEndsItsLine(line: String, term: String) throws {
        let unit = try #require(SentenceSplitter().split(line).first)
        #expect(DefinitionEntry.term(of: unit) == term)
    }

    @Test(arguments: ["It failed.", "See below.", "The cell divides.", "Louis XVI became king in 1774.", "What is the Third Estate?"])
    func aSentenceIsNoName(line: String) throws {
        let unit = try #require(SentenceSplitter().split(line).first)
        #expect(DefinitionEntry.term(of: unit) == nil)
    }

    @Test func eachEntryIsACardThatAsksForTheNameFromItsDescription() throws {
        let deck = try BuiltinEngine().flashcards(BuiltinAnalysis(text: Self.people, title: nil))
        let louis = try #require(deck.cards.first { $0.answer == "Louis XVI" })
        #expect(louis.question == "_____. King of France from 1774 to 1792; wellmeaning but indecisive, executed in January 1793.")
        #expect(louis.quote == "Louis XVI. King of France from 1774 to 1792; wellmeaning but indecisive, executed in January 1793.")
        #expect(louis.kind == .cloze)
        // No card blanks a word of a description instead ("King of _____ from 1774").
        let descriptions = Self.entries(Self.people).map { ProseText.oneLine($0.description.text) }
        #expect(!deck.cards.contains { card in descriptions.contains(card.quote) })
        // At least three, at most a third of the deck.
        let definitions = deck.cards.filter { $0.question.hasPrefix("_____. ") }
        #expect(definitions.count >= DefinitionEntry.minimumRun)
        #expect(definitions.count <= max(BuiltinEngine.minimumDefinitionCards, BuiltinEngine.flashcardLimit / 3))
        // Every card is grounded in the material, quotes across the name's line break included.
        #expect(Grounding.issues(in: .flashcards(deck), source: Self.people).isEmpty)
    }

    @Test func theQuizOffersTheOtherNamesOfTheSameList() throws {
        let quiz = try BuiltinEngine().quiz(BuiltinAnalysis(text: Self.people, title: nil))
        let people: Set<String> = ["Louis XVI", "Marie Antoinette", "Mirabeau", "Marat"]
        let glossary: Set<String> = ["Assignat", "Émigrés", "Sans-culottes"]
        let asked = quiz.questions.filter { $0.prompt.hasPrefix("_____. ") }
        #expect(!asked.isEmpty)
        for question in asked {
            let answer = question.choices[question.answerIndex]
            let list = people.contains(answer) ? people : glossary
            // Every other name of the list is offered (the four people fill the choices; the
            // three terms of the glossary leave one choice to the document's other terms).
            #expect(Set(question.choices).isSuperset(of: list), "\(question.choices)")
        }
    }

    @Test func aDefinitionListsNamesAreItsBranchesChildren() throws {
        let map = try BuiltinEngine().mindMap(BuiltinAnalysis(text: Self.people, title: nil))
        func node(_ label: String, in nodes: [MindMap.Node]) -> MindMap.Node? {
            for candidate in nodes {
                if candidate.label == label { return candidate }
                if let found = node(label, in: candidate.children) { return found }
            }
            return nil
        }
        let people = try #require(node("Key people", in: map.branches))
        #expect(Array(people.children.map(\.label).prefix(4)) == ["Louis XVI", "Marie Antoinette", "Mirabeau", "Marat"])
        let glossary = try #require(node("Glossary", in: map.branches))
        #expect(glossary.children.map(\.label) == ["Assignat", "Émigrés", "Sans-culottes"])
    }

    @Test func aDescriptionIsAKeyPointOnlyWithItsName() throws {
        let summary = try BuiltinEngine().summary(BuiltinAnalysis(text: Self.people, title: nil))
        let entries = Self.entries(Self.people)
        let described = summary.keyPoints.compactMap { point in
            entries.first { point.contains(ProseText.oneLine($0.description.text)) }.map { (point, $0) }
        }
        #expect(!described.isEmpty, "\(summary.keyPoints)")
        for (point, entry) in described { #expect(point.hasPrefix(entry.term + ": "), "\(point)") }
    }

    static let keyTerms = """
        Photosynthesis: Study Notes

        1. Limiting factors

        The rate of photosynthesis depends on light intensity, carbon dioxide concentration and temperature.

        • Light intensity: the rate rises with light until another factor becomes limiting, then levels off. Very intense light can damage the photosystems.

        • Carbon dioxide: the air holds only about 0.04 per cent CO2, so CO2 is often the limiting factor on a bright day. Greenhouse growers add CO2.

        • Water: a plant short of water closes its stomata to save water, which also shuts out CO2.

        2. Key terms

        • Chlorophyll: the green pigment that absorbs light energy in the photosystems.

        • Thylakoid: a membrane sac inside the chloroplast where the light-dependent reactions occur.

        • Stroma: the fluid around the thylakoids where the Calvin cycle occurs.

        • RuBisCO: the enzyme that fixes carbon dioxide onto RuBP.

        Questions to test yourself: Where does the oxygen come from? Why does the Calvin cycle stop in the dark?
        """

    /// "• Stroma: the fluid around the thylakoids where the Calvin cycle occurs." is a name and its
    /// description on one line; a list item that goes on past its first sentence ("• Light
    /// intensity: the rate rises …. Very intense light …") is a point under a label.
    @Test func aNameAndItsDescriptionOnOneLineAreAnEntry() {
        let entries = Self.entries(Self.keyTerms)
        #expect(entries.map(\.term) == ["Chlorophyll", "Thylakoid", "Stroma", "RuBisCO"])
        #expect(entries.allSatisfy { $0.isInline })
        #expect(entries.first?.descriptionText == "the green pigment that absorbs light energy in the photosystems.")
        // The same list with a blank line between items or none, numbered or in plain paragraphs.
        for marker in ["- ", "1. ", ""] {
            let text = ["Stroma", "Thylakoid", "Granum"].map { "\(marker)\($0): the part of the chloroplast where the \($0.lowercased()) is found." }
            #expect(Self.entries(text.joined(separator: "\n")).count == (marker.isEmpty ? 0 : 3), "\(marker)")
            #expect(Self.entries(text.joined(separator: "\n\n")).count == 3, "\(marker)")
        }
    }

    @Test(arguments: [
        // Labels of the text, not names it defines.
        "Note: the cell divides in two.\n\nExample: a root tip shows every phase.\n\nTip: count the cells in each phase.",
        // Questions, and descriptions that do not end.
        "Prophase: what happens to the chromosomes?\n\nMetaphase: where do the chromosomes line up?\n\nAnaphase: what pulls the chromatids apart?",
        "Prophase: the chromosomes condense and\n\nMetaphase: the chromosomes line up along\n\nAnaphase: the chromatids are pulled",
        // Sentences with a colon in them.
        "The cell has three parts: a membrane, cytoplasm and a nucleus.\n\nThe phases are four: prophase, metaphase, anaphase and telophase.\n\nMy advice is simple: draw every phase twice.",
    ])
    func linesWithAColonThatAreNoEntries(text: String) {
        #expect(Self.entries(text).isEmpty)
    }

    @Test func anEntryOnOneLineIsACardWithItsNameBlanked() throws {
        let deck = try BuiltinEngine().flashcards(BuiltinAnalysis(text: Self.keyTerms, title: nil))
        let stroma = try #require(deck.cards.first { $0.answer == "Stroma" })
        #expect(stroma.question == "_____: the fluid around the thylakoids where the Calvin cycle occurs.")
        #expect(stroma.quote == "Stroma: the fluid around the thylakoids where the Calvin cycle occurs.")
        #expect(Grounding.issues(in: .flashcards(deck), source: Self.keyTerms).isEmpty)
        // The quiz offers the name as the list writes it, like the other names beside it: not
        // "thylakoid" (as the text says it elsewhere) among "Stroma" and "Chlorophyll".
        let quiz = try BuiltinEngine().quiz(BuiltinAnalysis(text: Self.keyTerms, title: nil))
        let thylakoid = try #require(quiz.questions.first { $0.prompt.hasPrefix("_____: a membrane sac") })
        #expect(thylakoid.choices[thylakoid.answerIndex] == "Thylakoid")
        #expect(thylakoid.choices.allSatisfy { $0.first?.isUppercase == true }, "\(thylakoid.choices)")
        // No key point says the name twice.
        let summary = try BuiltinEngine().summary(BuiltinAnalysis(text: Self.keyTerms, title: nil))
        #expect(!summary.keyPoints.contains { $0.hasPrefix("Stroma: Stroma") }, "\(summary.keyPoints)")
    }

    @Test(arguments: ["Some parish priests did so, and on 17 June the Third Estate declared itself the National Assembly.",
                      "To do so, the cell copies its DNA before it divides into two."])
    func aSentenceThatSaysSoLeansOnTheOneBefore(sentence: String) {
        #expect(!StandaloneSentence.readsOnItsOwn(sentence))
    }
}
