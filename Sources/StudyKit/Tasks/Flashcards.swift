/// Question/answer cards, each backed by a quote from the material (`studykit flashcards`).
///
/// Bounds: 3–20 cards with distinct questions (case- and whitespace-insensitive, and no
/// near-copies); `question` at most 300 characters (``ItemMeaning/question``), `answer` at most
/// 500 (``ItemMeaning/answer``) and different from the question, `quote` at most 500.
public struct Flashcards: Generable, Codable, Equatable, Hashable {
    /// One card.
    public struct Card: Sendable, Codable, Equatable, Hashable {
        /// What the student is asked.
        public var question: String
        /// The answer, in the material's terms.
        public var answer: String
        /// The sentence of the material that supports the answer, quoted word for word.
        public var quote: String

        /// Creates a card.
        public init(question: String, answer: String, quote: String) {
            self.question = question
            self.answer = answer
            self.quote = quote
        }

        var jsonValue: JSONValue { ["question": .string(question), "answer": .string(answer), "quote": .string(quote)] }
    }

    /// The cards.
    public var cards: [Card]

    /// Creates a deck.
    public init(cards: [Card]) { self.cards = cards }

    /// The schema: `cards`, each `question`, `answer`, `quote`.
    public static let generationSchema: GenerationSchema = .object([
        .init("cards", description: "3 to 20 flashcards, each asking something different.",
              .array(
                items: .object([
                    .init("question", description: "A question about one fact of the material.",
                          .string(maxLength: 300, meaning: .question)),
                    .init("answer", description: "The answer, short and taken from the material.",
                          .string(maxLength: 500, meaning: .answer)),
                    .init("quote", description: "The sentence of the material that supports the answer, copied word for word.",
                          .string(maxLength: 500)),
                ]),
                minItems: 3, maxItems: 20, distinct: .field("question"))),
    ])

    /// Reads a deck; see ``Generable/init(json:)``.
    public init(json: JSONValue) throws(SchemaError) {
        cards = try GenerableFields(json).objects("cards") { card throws(SchemaError) in
            Card(question: try card.string("question"), answer: try card.string("answer"), quote: try card.string("quote"))
        }
    }

    /// The deck as JSON.
    public var jsonValue: JSONValue { ["cards": .array(cards.map(\.jsonValue))] }

    /// An answer that only repeats its question teaches nothing.
    public func semanticIssues() -> [ValidationIssue] {
        cards.enumerated().compactMap { index, card in
            ResultProse.sameText(card.question, card.answer)
                ? ValidationIssue(path: "cards[\(index)].answer", message: "repeats the question; give the answer")
                : nil
        }
    }
}

// MARK: - Prompt

extension Flashcards {
    /// Version 2: answers must also pass ``Grounding``.
    static let promptTemplateVersion = "flashcards/2"
    static let responseReserve = 1_200
    static let instructions = TaskPrompt.instructions(
        role: "You write flashcards that help a student remember their study material.",
        fields: """
            - "cards": 3 to 20 cards, each asking something different, each an object with
              "question", "answer" (short, from the material) and "quote" (the sentence of the
              material that supports the answer, copied word for word).
            """)
    static let request = "Write flashcards for the document above as a JSON object with \"cards\"."
}
