// MARK: - How big a deck and a quiz are

/// How many flashcards and quiz questions a document gets (#54): by default the counts follow the
/// length and outline of the body; `--cards N` and `--questions N` set them.
///
/// The default, for a body of `d` distinct characters (a sentence said twice counts once; code counts) with
/// `s` body sections (``BodySections``): `max(12, d / 700, s)` cards, at most 400, and half as
/// many questions, at least 8. A page of notes keeps the 12 cards and 8 questions it always got;
/// a 33,000-character textbook gets 47 cards; every body section can have a card of its own.
///
/// The lists a result may hold grow with the request (``maximumCards``, ``maximumQuestions``):
/// a result is validated against its task's schema with those limits (``listLimits(for:)``),
/// never fewer than one model answer may hold (20 cards, 10 questions). What a model is asked
/// for in one answer is not changed here.
public struct KitSize: Sendable, Equatable, Hashable {
    /// `--cards`: the cards asked for; `nil` follows the material.
    public var cards: Int?
    /// `--questions`: the questions asked for; `nil` follows the material (half the cards).
    public var questions: Int?

    /// Creates a size; `nil` counts follow the material.
    public init(cards: Int? = nil, questions: Int? = nil) {
        self.cards = cards
        self.questions = questions
    }

    /// Counts that follow the material.
    public static let followsMaterial = KitSize()

    /// Distinct body characters per card.
    static let charactersPerCard = 700
    /// The fewest cards a deck is sized for (what a page of notes always got).
    static let minimumCards = 12
    /// The fewest questions a quiz is sized for.
    static let minimumQuestions = 8
    /// The most cards a document gets by default.
    static let cardCap = 400
    /// The most questions a document gets by default: half the cards' cap.
    static let questionCap = cardCap / 2
    /// The widest `--cards` and `--questions` accepted: more is no deck anyone studies.
    static let largestRequest = 5_000

    /// The cards for a body of `distinctCharacters` with `bodySections` body sections: the
    /// request's, else one per 700 characters and one per section, 12 to 400.
    func cardCount(distinctCharacters: Int, bodySections: Int) -> Int {
        if let cards { return cards }
        return min(Self.cardCap, max(Self.minimumCards, distinctCharacters / Self.charactersPerCard, bodySections))
    }

    /// The questions for a deck of `cards` cards: the request's, else half the cards, 8 to 200
    /// (past 200 when `--cards` asked for more than 400).
    func questionCount(cards: Int) -> Int {
        if let questions { return questions }
        let half = max(Self.minimumQuestions, cards / 2)
        return self.cards == nil ? min(Self.questionCap, half) : half
    }

    /// The most cards a result of this request may hold: the request's, or the default cap;
    /// never fewer than one answer's 20.
    public var maximumCards: Int { max(Self.singleAnswerCards, cards ?? Self.cardCap) }
    /// The most questions a result of this request may hold: the request's, or the default cap;
    /// never fewer than one answer's 10.
    public var maximumQuestions: Int {
        max(Self.singleAnswerQuestions, questions ?? cards.map { max(Self.questionCap, $0 / 2) } ?? Self.questionCap)
    }

    /// The most groups of a summary's key points by section (``Summary/sections``) a result of
    /// any size may hold: a long document's top-level sections, the longest first past it.
    static let summarySections = 40

    static let singleAnswerCards = 20
    static let singleAnswerQuestions = 10

    /// The lists of `task`'s result that grow with the request, by schema path, and their most
    /// items (``GenerationSchema/merged(chunks:perChunk:)`` with one chunk).
    func listLimits(for task: StudyTask) -> [String: Int] {
        switch task {
        case .flashcards: return ["cards": maximumCards]
        case .quiz: return ["questions": maximumQuestions]
        case .summary: return ["sections": Self.summarySections]
        case .studyKit:
            return [
                "flashcards.cards": maximumCards, "quiz.questions": maximumQuestions,
                "summary.sections": Self.summarySections,
            ]
        default: return [:]
        }
    }
}

extension AnyStudyResult {
    /// Every schema and semantic problem of this result, its lists allowed to grow to what `size`
    /// asks for (``KitSize/listLimits(for:)``): the check of a deck the builtin engine sized for
    /// its document, and of a kit holding it.
    public func validationIssues(size: KitSize) -> [ValidationIssue] {
        let schema = task.generationSchema.merged(chunks: 1, perChunk: size.listLimits(for: task))
        let issues = schema.validationIssues(for: jsonValue)
        return issues.isEmpty ? value.semanticIssues() : issues
    }
}

extension AnyStudyResult {
    /// The cards and questions this result holds, as a size: what a rewrite of it may hold too.
    var heldSize: KitSize {
        switch self {
        case .flashcards(let deck): return KitSize(cards: deck.cards.count)
        case .quiz(let quiz): return KitSize(questions: quiz.questions.count)
        case .studyKit(let kit): return KitSize(cards: kit.flashcards.cards.count, questions: kit.quiz.questions.count)
        default: return .followsMaterial
        }
    }
}
