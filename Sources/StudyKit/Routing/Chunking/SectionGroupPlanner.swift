import Foundation

// MARK: - Groups of sections for a document that fits (#54)

/// Plans a document that fits the serving window, but asks for more cards or questions than one
/// answer writes well, as groups of consecutive sections: a model writes 10 good cards more
/// reliably than 45 (or 200), so each group's request asks for its share of the items, at most
/// ``groupLimit(_:)``, and the groups go through the chunks' map and reduce (``ChunkedRunner``:
/// one request per group, the answers joined and deduplicated, `coverage` in `--json`). Pure.
///
/// The items a document asks for are the builtin engine's sizing (``KitSize``) over the body
/// sections of its outline: `--cards` and `--questions` when given, else one card per 700
/// distinct characters and one per body section. A page of notes (12 cards, 8 questions) stays
/// one request.
enum SectionGroupPlanner {
    /// The most items one group's request asks for: flashcards 12 (a page of notes' deck, which
    /// stays one request), quiz questions 10 (what one quiz answer may hold); `nil` for a task
    /// that is not grouped (a summary's key points and a map's branches are few whatever the length).
    static func groupLimit(_ task: StudyTask) -> Int? {
        switch task {
        case .flashcards: return KitSize.minimumCards
        case .quiz: return KitSize.singleAnswerQuestions
        default: return nil
        }
    }

    /// The cards or questions the whole document asks for under `size`; `nil` for another task.
    static func wantedItems(_ task: StudyTask, size: KitSize, outline: DocumentOutline) -> Int? {
        wantedItems(task, size: size, sections: BodySections(outline: outline))
    }

    /// ``wantedItems(_:size:outline:)`` from the body sections when the caller has them.
    static func wantedItems(_ task: StudyTask, size: KitSize, sections: BodySections) -> Int? {
        guard groupLimit(task) != nil else { return nil }
        let cards = size.cardCount(
            distinctCharacters: sections.distinctCharactersWithCode, bodySections: sections.distinctBody.count)
        return task == .quiz ? size.questionCount(cards: cards) : cards
    }

    /// The groups of `text` for `task`: chunks of whole sections (a section longer than a group
    /// cut between paragraphs, as ``ChunkPlanner`` cuts), each holding about the text of
    /// ``groupLimit(_:)`` items; `nil` when the document asks for no more than one group's items.
    /// - Parameters:
    ///   - documentTokens: the estimate of the whole text by `tokens`.
    ///   - windowBudget: the most tokens of document one request may hold; no group is larger.
    static func plan(
        text: String, outline: DocumentOutline, task: StudyTask, size: KitSize, documentTokens: Int, windowBudget: Int,
        tokens: (String) -> Int
    ) -> ChunkPlan? {
        guard let limit = groupLimit(task), let wanted = wantedItems(task, size: size, outline: outline), wanted > limit
        else { return nil }
        // The tokens of text that hold `limit` items' worth of the document.
        let groupTokens = Int((Double(documentTokens) * Double(limit) / Double(wanted)).rounded(.down))
        let budget = min(windowBudget, max(RoutingEngine.minimumDocumentBudget, groupTokens))
        var plan = ChunkPlanner.plan(text: text, outline: outline, budget: budget, tokens: tokens)
        guard plan.chunks.count > 1 else { return nil }
        plan.groupedItems = wanted
        return plan
    }

    /// Each group's share of `wanted` items, in proportion to its length: at least the 3 one
    /// answer's schema asks for, at most what it may hold (20 cards, 10 questions).
    static func shares(_ plan: ChunkPlan, task: StudyTask, wanted: Int) -> [Int] {
        let most = task == .quiz ? KitSize.singleAnswerQuestions : KitSize.singleAnswerCards
        let lengths = plan.chunks.map { Double($0.offsets.count) }
        let total = max(1, lengths.reduce(0, +))
        return lengths.map { min(most, max(3, Int((Double(wanted) * $0 / total).rounded()))) }
    }
}
