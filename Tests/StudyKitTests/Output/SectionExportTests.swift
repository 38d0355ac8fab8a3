import Foundation
import Testing
@testable import StudyKit

/// The Anki package, the TSV and the kit page grouped by top-level section (#54), on a small
/// Markdown document: two long sections and a short one, cards from two of them and one whose
/// quote is in no section.
@Suite struct SectionExportTests {
    static let document = SectionGroupsTests.markdown([
        ("Cells", SectionGroupsTests.prose("cell", 700)),
        ("Tissues", "Tissues are groups of cells that work together."),
        ("Organs", SectionGroupsTests.prose("organ", 700)),
    ])

    static var context: RenderContext {
        var context = OutputFixtures.context()
        context.quoteLocator = QuoteLocator(document: document)
        context.pageOfQuote = context.quoteLocator?.page(of:)
        return context
    }

    static let deck = Flashcards(cards: [
        .init(
            question: "Which fact says something new about organs?", answer: "Fact 1",
            quote: "The organ fact number 1 says something new about organ that a student should learn.",
            kind: .question),
        .init(
            question: "The cell fact number _____ says something new.", answer: "2",
            quote: "The cell fact number 2 says something new about cell that a student should learn.", kind: .cloze),
        .init(
            question: "What are tissues?", answer: "Groups of cells.",
            quote: "Tissues are groups of cells that work together.", kind: .question),
        .init(
            question: "What is nowhere?", answer: "Here.", quote: "This sentence is in no section of the notes at all.",
            kind: .question),
    ])

    @Test func notesGoToTheSubdeckOfTheirTopLevelSectionAndCarryItsPath() {
        let notes = AnkiNotes.notes(Self.deck, context: Self.context)
        #expect(
            notes.map(\.deck) == [
                "Biology::Cells::3 Organs", "Biology::Cells::1 Cells", "Biology::Cells::2 Tissues", "Biology::Cells",
            ])
        #expect(notes[0].tags.last == "section::Organs")
        #expect(!notes[3].tags.contains { $0.hasPrefix("section::") })
        #expect(
            AnkiNotes.decks(notes, context: Self.context)
                == [
                    "Biology::Cells", "Biology::Cells::1 Cells", "Biology::Cells::2 Tissues",
                    "Biology::Cells::3 Organs",
                ])
    }

    @Test func theTSVHasADeckColumnWithTheDocumentsDeckFirst() throws {
        let file = try AnkiRendererTests.parse(AnkiRenderer.render(Self.deck, context: Self.context))
        #expect(file.headers.contains("#deck:Biology::Cells"))
        #expect(file.headers.contains("#deck column:5") && file.headers.contains("#tags column:6"))
        #expect(file.headers.contains("#columns:GUID\tNotetype\tFront\tBack\tDeck\tTags"))
        // Anki names a deck "Deck+" when a row names it after a row named one of its subdecks.
        #expect(
            file.records.map { $0[4] } == [
                "Biology::Cells", "Biology::Cells::3 Organs", "Biology::Cells::1 Cells", "Biology::Cells::2 Tissues",
            ])
        // A document without sections: no deck column, as before.
        let plain = try AnkiRendererTests.parse(AnkiRenderer.render(Self.deck, context: OutputFixtures.context()))
        #expect(!plain.headers.contains { $0.hasPrefix("#deck column") })
    }

    @Test func thePackageHoldsTheSubdecksWithStableIdsAndItsCardsInThem() throws {
        let bytes = try AnkiPackage.bytes(for: .flashcards(Self.deck), context: Self.context, now: AnkiPackageTests.now)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-\(UUID().uuidString).anki2")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(try #require(try AnkiPackageTests.unzip(bytes)["collection.anki2"])).write(to: file)
        let database = try SQLiteDatabase(path: file.path, managed: false)
        let decksText = try #require(try database.query("SELECT decks FROM col") { $0.text(at: 0) ?? "" }.first)
        let decks = try #require(try JSONValue.parse(decksText).objectValue)
        let names = Dictionary(
            uniqueKeysWithValues: decks.map(\.value).compactMap { deck -> (Int64, String)? in
                deck["id"]?.integerValue.map { (Int64($0), deck["name"]?.stringValue ?? "") }
            })
        #expect(
            names.values.sorted() == [
                "Biology::Cells", "Biology::Cells::1 Cells", "Biology::Cells::2 Tissues", "Biology::Cells::3 Organs",
                "Default",
            ])
        #expect(
            names[AnkiPackage.deckID(name: "Biology::Cells::3 Organs", context: Self.context)]
                == "Biology::Cells::3 Organs")
        let cardDecks = try database.query("SELECT did FROM cards ORDER BY id") { names[$0.integer(at: 0)] ?? "?" }
        #expect(cardDecks == AnkiNotes.notes(Self.deck, context: Self.context).map(\.deck))
        // A second export: the same deck ids.
        let again = try AnkiPackage.bytes(for: .flashcards(Self.deck), context: Self.context, now: AnkiPackageTests.now)
        #expect(again == bytes)
    }

    @Test func theKitPageGroupsCardsAndQuestionsBySectionInDocumentOrderWithAFilter() throws {
        let quiz = Quiz(
            questions: Self.deck.cards.map { card in
                .init(
                    prompt: card.question, choices: ["A one", "B two", "C three", "D four"], answerIndex: 1,
                    explanation: "Because.", quote: card.quote)
            })
        let page = HTMLRenderer.render(.quiz(quiz), context: Self.context)
        let heads = page.ranges(of: "<h3 class=\"group-head\">").map { page[$0.upperBound...].prefix { $0 != "<" } }
        #expect(heads == ["Cells", "Tissues", "Organs", "Not in a section"])
        #expect(
            page.contains(
                "<select id=\"section-filter\"><option value=\"\">every section</option><option value=\"g0\">Cells</option>"
            ))
        // The questions in the page's order, and the answers the script reads in that order.
        let ids = page.ranges(of: "<li class=\"question\" id=\"q-").map { page[$0.upperBound...].prefix { $0 != "\"" } }
        #expect(ids == ["1", "2", "0", "3"])
        #expect(page.contains("Question 1 of 4</span> The cell fact number"))

        let ungrouped = HTMLRenderer.render(.quiz(quiz), context: OutputFixtures.context())
        #expect(!ungrouped.contains("<h3 class=\"group-head\"") && !ungrouped.contains("<select id=\"section-filter\""))
    }
}
