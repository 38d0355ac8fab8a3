/// The whole study kit (`studykit import`): every result for one document.
///
/// Named `StudyKitBundle` because `StudyKit` is the module's name. Each part has the bounds of
/// its own type; issues inside a part are reported with the part's name in front
/// (`quiz.questions[2].answerIndex`).
public struct StudyKitBundle: Generable, Codable, Equatable, Hashable {
    /// Title and blurb.
    public var headline: Headline
    /// Overview and key points.
    public var summary: Summary
    /// The cards.
    public var flashcards: Flashcards
    /// The questions.
    public var quiz: Quiz
    /// The map.
    public var mindMap: MindMap

    /// Creates a kit.
    public init(headline: Headline, summary: Summary, flashcards: Flashcards, quiz: Quiz, mindMap: MindMap) {
        self.headline = headline
        self.summary = summary
        self.flashcards = flashcards
        self.quiz = quiz
        self.mindMap = mindMap
    }

    /// The schema: each part's schema, nested in this order.
    public static let generationSchema: GenerationSchema = .object([
        .init("headline", description: "A title of at most 6 words and a one-sentence blurb.",
              Headline.generationSchema),
        .init("summary", description: "An overview of 2 to 3 sentences and 3 to 8 key points.",
              Summary.generationSchema),
        .init("flashcards", description: "3 to 20 question and answer cards, each with a supporting quote.",
              Flashcards.generationSchema),
        .init("quiz", description: "3 to 10 multiple-choice questions with 4 choices each.", Quiz.generationSchema),
        .init("mindMap", description: "A central topic with 2 to 8 branches, at most 3 levels deep.",
              MindMap.generationSchema),
    ])

    /// Reads a kit; see ``Generable/init(json:)``.
    public init(json: JSONValue) throws(SchemaError) {
        let fields = try GenerableFields(json)
        headline = try fields.nested("headline", as: Headline.self)
        summary = try fields.nested("summary", as: Summary.self)
        flashcards = try fields.nested("flashcards", as: Flashcards.self)
        quiz = try fields.nested("quiz", as: Quiz.self)
        mindMap = try fields.nested("mindMap", as: MindMap.self)
    }

    /// The kit as JSON, parts in schema order.
    public var jsonValue: JSONValue {
        [
            "headline": headline.jsonValue, "summary": summary.jsonValue, "flashcards": flashcards.jsonValue,
            "quiz": quiz.jsonValue, "mindMap": mindMap.jsonValue,
        ]
    }

    /// This kit with `part` in place of its part of the same kind (a summary, a deck, a quiz or a
    /// mind map); any other result leaves it as it is.
    mutating func replace(_ part: AnyStudyResult) {
        switch part {
        case .summary(let value): summary = value
        case .flashcards(let value): flashcards = value
        case .quiz(let value): quiz = value
        case .mindMap(let value): mindMap = value
        default: break
        }
    }

    /// Every part's semantic issues, each under the part's name.
    public func semanticIssues() -> [ValidationIssue] {
        headline.semanticIssues().map { $0.prefixed("headline") }
            + summary.semanticIssues().map { $0.prefixed("summary") }
            + flashcards.semanticIssues().map { $0.prefixed("flashcards") }
            + quiz.semanticIssues().map { $0.prefixed("quiz") }
            + mindMap.semanticIssues().map { $0.prefixed("mindMap") }
    }
}

// MARK: - Prompt

extension StudyKitBundle {
    /// Version 2: answers must also pass ``Grounding``. Version 3: cards have a kind and an optional hint.
    /// Version 4: the quiz's questions are asked for their "quote", which the schema always
    /// required, and for short choices (as ``Quiz``'s version 4).
    /// Version 5: a card's quote first and no hint (as ``Flashcards``' version 4).
    static let promptTemplateVersion = "import/5"
    /// Room for a typical kit (about 8 cards and 5 questions); the kit runs on the large remote window.
    static let responseReserve = 2_048
    static let instructions = TaskPrompt.instructions(
        role: "You build a complete study kit from a student's study material.",
        fields: """
            - "headline": "title" (at most 6 words, no quotation marks) and "blurb" (one sentence).
            - "summary": "overview" (2 to 3 sentences) and "keyPoints" (3 to 8 distinct points).
            - "flashcards": "cards", 3 to 20, each with "quote" (the sentence of the material the
              card is about, word for word), "kind" ("question", or "cloze" for a sentence with
              _____ in place of the answer), "question" and "answer" (both in the quote's words).
            - "quiz": "questions", 3 to 10, each with "prompt", "choices" (exactly 4 different, each
              a term, a number or a short phrase), "answerIndex" (0 to 3), "explanation" and "quote"
              (the sentence of the material that says the right answer, word for word).
            - "mindMap": "centralTopic" and "branches" (2 to 8), each with "label" and "children";
              children have "label" and "children"; grandchildren have only "label".
            Prefer fewer, better items over many: the whole reply must stay short.
            """)
    static let request = "Build the study kit for the document above as one JSON object."
}
