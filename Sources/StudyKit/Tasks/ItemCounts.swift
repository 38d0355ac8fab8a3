/// How many items a part asks a model for: the cards of a deck, the questions of a quiz, the key
/// points of a summary, the branches of a mind map (#53).
///
/// A model's part is judged item by item against it: the part is kept when at least half the
/// requested count of its items pass (``minimumKept(_:)``), and topped up to the count from the
/// builtin engine's skeleton. The count is a parameter of the request, not a constant of the
/// task, so a kit can grow with its material (#54).
public struct ItemCounts: Sendable, Equatable, Hashable {
    /// Flashcards asked for.
    public var cards: Int
    /// Quiz questions asked for.
    public var questions: Int
    /// Key points of a summary asked for.
    public var keyPoints: Int
    /// Branches of a mind map the part is judged against (the prompt leaves the model the 2 to 8
    /// of the schema: a map's branches follow the material's themes).
    public var branches: Int

    /// Creates counts; each is held within what one answer's schema allows.
    public init(cards: Int, questions: Int, keyPoints: Int, branches: Int) {
        self.cards = min(max(cards, 3), 20)
        self.questions = min(max(questions, 3), 10)
        self.keyPoints = min(max(keyPoints, 3), 8)
        self.branches = min(max(branches, 2), 8)
    }

    /// The counts for a page of notes: about what Qwen2.5-Coder-1.5B writes within four minutes on
    /// two cores, part by part, and what the builtin engine can top up from on a one-page note (it
    /// makes up to 12 cards, 8 questions and a branch per section). Half of each is at least what
    /// one answer must hold (3 cards, questions and key points, 2 branches), so an answer the
    /// schema would take whole is never refused for its count.
    public static let standard = ItemCounts(cards: 6, questions: 5, keyPoints: 5, branches: 4)

    /// The list a part's items are counted in, as its path in the part (`cards`, `keyPoints`),
    /// and the count asked for; `nil` for a task without one.
    func counted(_ task: StudyTask) -> (list: String, count: Int)? {
        switch task {
        case .flashcards: return ("cards", cards)
        case .quiz: return ("questions", questions)
        case .summary: return ("keyPoints", keyPoints)
        case .mindmap: return ("branches", branches)
        default: return nil
        }
    }

    /// These counts with `task`'s asked for as `count` (a chunk of a long document asks its own share).
    func asking(_ count: Int, for task: StudyTask) -> ItemCounts {
        var counts = self
        switch task {
        case .flashcards: counts.cards = min(max(count, 1), 20)
        case .quiz: counts.questions = min(max(count, 1), 10)
        default: break
        }
        return counts
    }

    /// The tokens an answer holding these counts of `task`'s items is expected to take; `nil` for
    /// a task that counts nothing. Per item, about what Qwen2.5-Coder-1.5B wrote on the tuning
    /// half (`benchmarks/calibration/answers.jsonl`): a card with its quote 100 when it had a hint
    /// too, and 75 since it has none (the Moon's 6 cards: 632 tokens, then 405), a key point 45
    /// (with 60 for the overview), a question with its choices and quote 180, a branch with its
    /// children 80. The task's response reserve is the most an answer may take, not what it
    /// takes: estimated at its reserve, a quiz of 5 questions was expected to take 116 s on the
    /// 1.5B and skipped with 112 s left, where its answers take 40–75 s (#53).
    func expectedResponseTokens(for task: StudyTask) -> Int? {
        switch task {
        case .summary: return 60 + 45 * keyPoints
        case .flashcards: return 20 + 75 * cards
        case .quiz: return 20 + 180 * questions
        case .mindmap: return 20 + 80 * branches
        case .studyKit:
            return [StudyTask.summary, .flashcards, .quiz, .mindmap].reduce(60) {
                $0 + (expectedResponseTokens(for: $1) ?? 0)
            }
        default: return nil
        }
    }

    /// The response limit a whole part of `task` is sent with: twice the tokens it is expected to
    /// take, at most `reserve`. An answer that runs past it writes more items than were asked
    /// for, and is cut: the items it finished are judged (#53), and the part costs no more than
    /// twice its estimate (a mind map asked for 4 branches took 1,133 tokens and 100 s).
    func responseLimit(for task: StudyTask, reserve: Int) -> Int {
        guard let expected = expectedResponseTokens(for: task) else { return reserve }
        return min(reserve, 2 * expected)
    }

    /// The fewest of `count` asked-for items that keep a part: half, rounded up.
    static func minimumKept(_ count: Int) -> Int { (count + 1) / 2 }

    /// The line the prompt of a whole part gets before its request, asking for the counts; `nil`
    /// for a task that counts nothing the prompt asks for.
    func promptLine(for task: StudyTask) -> String? {
        switch task {
        case .summary: return "Write \(keyPoints) key points."
        case .flashcards: return "Write \(cards) flashcards, each on a different fact."
        case .quiz: return "Write \(questions) questions, each on a different fact."
        case .studyKit:
            return "Write \(keyPoints) key points, \(cards) flashcards and \(questions) quiz questions, "
                + "each on a different fact."
        default: return nil
        }
    }
}
