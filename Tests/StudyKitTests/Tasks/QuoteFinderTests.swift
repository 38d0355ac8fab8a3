import Foundation
import Testing

@testable import StudyKit

/// A model's card or quiz question that comes without a quote gets the material's sentence that
/// carries it (#53, session 67), and an item no sentence carries is dropped.
@Suite("A model's cards and questions get their quotes from the material")
struct QuoteFinderTests {
    /// A page written for these tests (on no topic of `samples/eval`).
    static let material = """
        Lighthouses
        A lighthouse warns ships away from rocks with a light that can be seen far out at sea. \
        The Fresnel lens, invented by Augustin Fresnel in 1822, bends the lamp's light into a narrow beam. \
        Each lighthouse flashes in its own pattern, so that sailors can tell one from another at night. \
        Most lighthouses today run automatically, and keepers left the last British lighthouse in 1998.
        """

    static func json(_ text: String) throws -> JSONValue {
        try JSONValue.parse(text, allowingRawControlCharacters: false)
    }

    @Test func eachCardGetsTheSentenceThatCarriesItsAnswer() throws {
        let deck = try Self.json("""
            {"cards": [
              {"kind": "question", "question": "Who invented the Fresnel lens?", "answer": "Augustin Fresnel"},
              {"kind": "cloze", "question": "Each lighthouse flashes in its own _____, so that sailors can tell \
            one from another at night.", "answer": "pattern"},
              {"kind": "question", "question": "When did keepers leave the last British lighthouse?", "answer": "1998"}
            ]}
            """)
        let found = QuoteFinder.located(deck, task: .flashcards, material: Self.material)
        let cards = try Flashcards(json: found).cards
        #expect(cards.map(\.quote) == [
            "The Fresnel lens, invented by Augustin Fresnel in 1822, bends the lamp's light into a narrow beam.",
            "Each lighthouse flashes in its own pattern, so that sailors can tell one from another at night.",
            "Most lighthouses today run automatically, and keepers left the last British lighthouse in 1998.",
        ])
        // Found as the judge would have it: every card grounded.
        #expect(Grounding.issues(in: .flashcards(Flashcards(cards: cards)), source: Self.material).isEmpty)
    }

    @Test func theSentenceThatSaysMostOfTheQuestionIsChosen() {
        // "light" is in three sentences; the question's words point at the one about the beam.
        let quote = QuoteFinder.quote(
            question: "What does the Fresnel lens bend into a narrow beam?", answer: "light",
            sentences: ItemRepairs.sentences(ofMaterial: Self.material))
        #expect(quote?.hasPrefix("The Fresnel lens") == true)
    }

    @Test func aCardNoSentenceCarriesGetsNoQuoteAndTheSchemaAsksForIt() throws {
        let deck = try Self.json("""
            {"cards": [{"kind": "question", "question": "What colour is a lighthouse painted?", "answer": "red"}]}
            """)
        let found = QuoteFinder.located(deck, task: .flashcards, material: Self.material)
        #expect(found == deck)
        #expect(Flashcards.generationSchema.validationIssues(for: found).map(\.description).contains(
            "cards[0].quote is missing; add it"))
    }

    @Test func aQuizQuestionIsQuotedForItsRightChoiceAndAQuoteAlreadyWrittenStays() throws {
        let quiz = try Self.json("""
            {"questions": [
              {"prompt": "In which year was the Fresnel lens invented?", "choices": ["1822", "1998", "1750", "1901"],
               "answerIndex": 0, "explanation": "Fresnel invented it in 1822."},
              {"prompt": "Why does each lighthouse flash in its own pattern?",
               "choices": ["to save fuel", "so sailors can tell one from another", "to warn of storms", "by law"],
               "answerIndex": 1, "explanation": "Sailors tell them apart.", "quote": "A model's own quote."}
            ]}
            """)
        let found = try Quiz(json: QuoteFinder.located(quiz, task: .quiz, material: Self.material)).questions
        #expect(found[0].quote.hasPrefix("The Fresnel lens, invented by Augustin Fresnel in 1822"))
        #expect(found[1].quote == "A model's own quote.")
    }

    @Test func aKitsDeckAndQuizAreQuotedToo() throws {
        let kit = try Self.json("""
            {"flashcards": {"cards": [{"question": "Who invented the Fresnel lens?", "answer": "Augustin Fresnel"}]},
             "quiz": {"questions": [{"prompt": "When did keepers leave the last British lighthouse?",
               "choices": ["1998", "1822", "1950", "2010"], "answerIndex": 0, "explanation": "In 1998."}]}}
            """)
        let found = QuoteFinder.located(kit, task: .studyKit, material: Self.material)
        let card = found["flashcards"]?["cards"]?.arrayValue?.first
        let question = found["quiz"]?["questions"]?.arrayValue?.first
        #expect(card?["quote"]?.stringValue?.hasPrefix("The Fresnel lens") == true)
        #expect(question?["quote"]?.stringValue?.hasPrefix("Most lighthouses") == true)
    }

    @Test func aCardIsAskedForItsQuoteFirstAndForNoHintAndAResultIsStillCheckedAgainstBoth() throws {
        let card = Flashcards.generationSchema.jsonSchema(strict: false)["properties"]?["cards"]?["items"]
        #expect(card?["properties"]?.objectValue?.keys == ["quote", "kind", "question", "answer"])
        #expect(Flashcards.instructions.contains("\"quote\" (the sentence of the material the card is about"))
        #expect(!Flashcards.instructions.contains("\"hint\""))
        let long = String(repeating: "word ", count: 120)
        let deck = try Self.json("""
            {"cards": [{"question": "Who invented the Fresnel lens?", "answer": "Augustin Fresnel", "quote": "\(long)"},
             {"question": "What does a lighthouse warn ships away from?", "answer": "rocks", "hint": "\(long)",
              "quote": "A lighthouse warns ships away from rocks."},
             {"question": "How many lighthouses run automatically?", "answer": "most", "quote": "Most run."}]}
            """)
        #expect(Flashcards.generationSchema.validationIssues(for: deck).map(\.path) == ["cards[0].quote", "cards[1].hint"])
    }

    @Test func aQuestionMarkedWrongByItsOwnExplanationIsMovedToTheAnswerItExplains() {
        let sentences = { ItemRepairs.sentences(ofMaterial: Self.material) }
        var question = Quiz.Question(
            prompt: "What does the Fresnel lens bend into a narrow beam?",
            choices: ["sailors", "the lamp's light", "ships", "rocks"], answerIndex: 3,
            explanation: "The Fresnel lens bends the lamp's light into a narrow beam.", quote: "")
        #expect(ItemRepairs.explainedAnswer(question, sentences: sentences) == 1)
        // The explanation says the marked answer: nothing to move.
        question.answerIndex = 1
        #expect(ItemRepairs.explainedAnswer(question, sentences: sentences) == nil)
        // An explanation that names two choices decides nothing.
        question.answerIndex = 3
        question.explanation = "The lamp's light warns ships."
        #expect(ItemRepairs.explainedAnswer(question, sentences: sentences) == nil)
    }
}
