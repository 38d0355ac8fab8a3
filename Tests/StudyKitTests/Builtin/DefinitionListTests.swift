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
        let descriptions = Self.entries(Self.people).map { BuiltinProse.oneLine($0.description.text) }
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
            entries.first { point.contains(BuiltinProse.oneLine($0.description.text)) }.map { (point, $0) }
        }
        #expect(!described.isEmpty, "\(summary.keyPoints)")
        for (point, entry) in described { #expect(point.hasPrefix(entry.term + ": "), "\(point)") }
    }

    @Test(arguments: ["Some parish priests did so, and on 17 June the Third Estate declared itself the National Assembly.",
                      "To do so, the cell copies its DNA before it divides into two."])
    func aSentenceThatSaysSoLeansOnTheOneBefore(sentence: String) {
        #expect(!BuiltinEngine.readsOnItsOwn(sentence))
    }
}
