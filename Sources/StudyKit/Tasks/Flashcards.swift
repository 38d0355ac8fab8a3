/// Question/answer and cloze cards, each backed by a quote from the material (`studykit flashcards`).
///
/// Bounds: 3–20 cards with distinct questions (case- and whitespace-insensitive, and no
/// near-copies); `question` at most 300 characters (``ItemMeaning/question``), `answer` at most
/// 500 (``ItemMeaning/answer``) and different from the question, `quote` at most 500, `hint` at
/// most 80. A cloze card's question holds the blank (`_____`) where the answer goes.
public struct Flashcards: Generable, Codable, Equatable, Hashable {
    /// One card.
    public struct Card: Sendable, Codable, Equatable, Hashable {
        /// How a card asks: a question to answer, or a sentence with a blank to fill.
        public enum Kind: String, Sendable, Codable, Equatable, Hashable, CaseIterable {
            /// A question; the answer is recalled whole (an Anki `Basic` note).
            case question
            /// A sentence whose blank (`_____`) stands for the answer (an Anki `Cloze` note).
            case cloze

            /// The kind a card's question shows: a cloze when it holds a blank (three or more
            /// underscores), else a question. What a card without a stated kind is read as.
            public static func inferred(from question: String) -> Kind {
                question.contains(Flashcards.blank) ? .cloze : .question
            }
        }

        /// What the student is asked; for a cloze card, the sentence with its blank.
        public var question: String
        /// The answer, in the material's terms; for a cloze card, what fills the blank.
        public var answer: String
        /// The sentence of the material that supports the answer, quoted word for word.
        public var quote: String
        /// Whether the card is a question or a cloze.
        public var kind: Kind
        /// A short clue shown in the blank of a cloze card (`{{c1::answer::hint}}`), if any.
        public var hint: String?

        /// Creates a card; without a `kind`, it is inferred from the question (``Kind/inferred(from:)``).
        public init(question: String, answer: String, quote: String, kind: Kind? = nil, hint: String? = nil) {
            self.question = question
            self.answer = answer
            self.quote = quote
            self.kind = kind ?? .inferred(from: question)
            self.hint = hint
        }

        var jsonValue: JSONValue {
            var card: JSONObject = [
                "kind": .string(kind.rawValue), "question": .string(question), "answer": .string(answer),
            ]
            if let hint { card["hint"] = .string(hint) }
            card["quote"] = .string(quote)
            return .object(card)
        }
    }

    /// The blank of a cloze card's question: three or more underscores.
    static let blank = "___"

    /// The cards.
    public var cards: [Card]

    /// Creates a deck.
    public init(cards: [Card]) { self.cards = cards }

    /// The schema: `cards`, each `quote` (first; ``QuoteFinder`` finds one left out),
    /// `kind` (optional), `question`, `answer` and `hint` (optional, not asked of a model).
    ///
    /// The quote comes first (#53, session 67): a model that picks its sentence before it asks
    /// about it asks about a different sentence each time, in the material's order. Asked last,
    /// and with a hint the grammar made it write for every card, Qwen2.5-Coder-1.5B spent 632
    /// tokens on the Moon's 6 cards; quote first and no hint, 405, with one card per sentence.
    /// Without any quote it wrote the same card again until the loop guard stopped it. Asked to
    /// word the question and the answer in the quote's words, its Black Death deck kept 5 cards of
    /// 6 where it had kept 2 ("What happened to the plague?" said one word of its quote).
    public static let generationSchema: GenerationSchema = .object([
        .init("cards", description: "3 to 20 flashcards, each asking something different.",
              .array(
                items: .object([
                    .init("quote",
                          description: "The sentence of the material the card is about, copied word for word.",
                          .string(maxLength: 500)),
                    .init("kind",
                          description: "\"question\" for a question, \"cloze\" for a sentence with a blank (_____) "
                            + "where the answer goes.",
                          .stringEnum(Card.Kind.allCases.map(\.rawValue)), optional: true),
                    .init("question",
                          description: "A question about one fact of the material, or for a cloze the sentence "
                            + "with _____ in place of the answer.",
                          .string(maxLength: 300, meaning: .question)),
                    .init("answer", description: "The answer, short and taken from the material.",
                          .string(maxLength: 500, meaning: .answer)),
                    // Not asked of a model: grammars make an optional member written every time.
                    .init("hint",
                          description: "Optional: a few words that narrow down a cloze's answer "
                            + "without giving it away.",
                          .string(maxLength: 80), asked: false),
                ]),
                minItems: 3, maxItems: 20, distinct: .field("question"))),
    ])

    /// Reads a deck; see ``Generable/init(json:)``.
    public init(json: JSONValue) throws(SchemaError) {
        cards = try GenerableFields(json).objects("cards") { card throws(SchemaError) in
            let question = try card.string("question")
            let kind = try card.optionalString("kind").flatMap(Card.Kind.init(rawValue:))
            return Card(
                question: question, answer: try card.string("answer"), quote: try card.string("quote"),
                kind: kind, hint: try card.optionalString("hint"))
        }
    }

    /// The deck as JSON.
    public var jsonValue: JSONValue { ["cards": .array(cards.map(\.jsonValue))] }

    /// An answer that only repeats its question teaches nothing; a cloze needs its blank; a
    /// hint that holds the answer gives it away.
    public func semanticIssues() -> [ValidationIssue] {
        cards.enumerated().flatMap { index, card -> [ValidationIssue] in
            var issues: [ValidationIssue] = []
            if ResultProse.sameText(card.question, card.answer) {
                issues.append(ValidationIssue(
                    path: "cards[\(index)].answer", message: "repeats the question; give the answer"))
            }
            if card.kind == .cloze, !card.question.contains(Self.blank) {
                issues.append(ValidationIssue(
                    path: "cards[\(index)].question",
                    message: "is a cloze without a blank; put _____ where the answer goes, "
                        + "or make the kind \"question\""))
            }
            if let hint = card.hint, ResultProse.sameText(hint, card.answer) {
                issues.append(ValidationIssue(
                    path: "cards[\(index)].hint", message: "gives the answer away; hint at it instead"))
            }
            return issues
        }
    }
}

// MARK: - Prompt

extension Flashcards {
    /// Version 2: answers must also pass ``Grounding``. Version 3: cards have a kind (question
    /// or cloze) and an optional hint.
    /// Version 4: the quote first, no hint (#53, session 67; see ``generationSchema``).
    static let promptTemplateVersion = "flashcards/4"
    static let responseReserve = 1_200
    /// A deck merged from a long document's chunks holds at most 10 cards per chunk (an average
    /// chunk is asked for 8), and never fewer than the 20 one answer may hold.
    static let mergedItemsPerChunk = ["cards": 10]
    static let instructions = TaskPrompt.instructions(
        role: "You write flashcards that help a student remember their study material.",
        fields: """
            - "cards": 3 to 20 cards, each asking something different, each an object with
              "quote" (the sentence of the material the card is about, copied word for word),
              "kind" ("question", or "cloze" for a sentence of the material with _____ in place
              of the answer), "question" (in the words of the quote) and "answer" (short, the
              words of the quote it asks for).
            """)
    static let request = "Write flashcards for the document above as a JSON object with \"cards\"."
}
