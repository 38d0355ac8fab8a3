import Foundation

// MARK: - Groups of sections that fell back to the builtin engine (#54)

extension ChunkedRunner {
    /// The outcomes of a grouped plan (``SectionGroupPlanner``) with each group that the builtin
    /// engine answered given its share of one builtin deck of the whole document, sized for the
    /// items the document asked for.
    ///
    /// The router's fallback answers a failed group with the builtin engine's deck of that group
    /// alone, sized as if the group were the document (`--cards 24` asked of each group, or
    /// at least 12 cards a group): joined, the groups' decks overshot the request (30 cards for
    /// `--cards 24`). One builtin pass over the whole document spreads the asked items over all
    /// its sections, as `--engine builtin` does; each fallen group keeps the items of that deck
    /// whose quote lies in it (``SectionItems/offset(of:)``). A group a model answered keeps its
    /// answer. Unchanged for a plan of chunks, for other tasks, and when no group fell back.
    /// - Returns: the outcomes, and the most items the joined list may hold: the plan's
    ///   ``ChunkPlan/groupedItems``, or the whole builtin deck when it is larger (a deck that
    ///   follows the material gives a body section its card past the count); `nil` for a plan of chunks.
    func refillingFallenGroups(
        _ outcomes: [(RoutedResult?, String?)], request: RoutingRequest, plan: ChunkPlan
    ) -> (outcomes: [(RoutedResult?, String?)], most: Int?) {
        guard let wanted = plan.groupedItems, request.task == .flashcards || request.task == .quiz else {
            return (outcomes, nil)
        }
        let fallen = outcomes.indices.filter { outcomes[$0].0.map { $0.engine == .builtin } ?? true }
        guard !fallen.isEmpty else { return (outcomes, wanted) }
        let document = request.document
        // The builtin engine sizes the whole document as `--engine builtin` does: what
        // `--cards`/`--questions` asked, else the material's count (the plan's `wanted`).
        let (text, title) = router.builtin.material(of: document)
        let size = request.size
        guard let whole = try? router.builtin.generate(request.task, text: text, title: title, size: size) else {
            return (outcomes, wanted)
        }
        let locator = SectionItems(document: document)
        let everyGroupFell = fallen.count == outcomes.count
        // The group each item of the whole deck lies in; one whose quote is not found is placed
        // only when every group fell back (it lies in one of them).
        func group(of quote: String) -> Int? {
            if let offset = locator.offset(of: quote),
                let found = plan.chunks.firstIndex(where: { $0.offsets.contains(offset) })
            {
                return found
            }
            return everyGroupFell ? fallen.first : nil
        }
        var refilled = outcomes
        for index in fallen {
            let share: AnyStudyResult
            switch whole {
            case .flashcards(let deck):
                share = .flashcards(Flashcards(cards: deck.cards.filter { group(of: $0.quote) == index }))
            case .quiz(let quiz):
                share = .quiz(Quiz(questions: quiz.questions.filter { group(of: $0.quote) == index }))
            default: return (outcomes, wanted)
            }
            let chunk = plan.chunks[index]
            var routed = outcomes[index].0 ?? RoutedResult(
                result: share, engine: .builtin, model: router.builtin.modelName,
                decision: backend(for: request.task, characterCount: chunk.offsets.count),
                fitted: FitReport(
                    cut: false, keptCharacters: chunk.offsets.count, totalCharacters: chunk.offsets.count),
                cached: false, fallbacks: [], usage: nil, reasked: false)
            routed.result = share
            // The group's own items (and what was said of them) are gone: each item is the whole deck's.
            routed.items = []
            routed.dropped = []
            refilled[index] = (routed, outcomes[index].1)
        }
        let made: Int
        switch whole {
        case .flashcards(let deck): made = deck.cards.count
        case .quiz(let quiz): made = quiz.questions.count
        default: made = 0
        }
        return (refilled, max(wanted, made))
    }

    /// A merged list of groups held to the `wanted` items the document asked for (the groups'
    /// shares are at least 3 each and rounded, so they may add up to more), cut keeping the
    /// spread (``spreadCap(_:wanted:)``); each item cut named where its group's answer had it.
    static func capped(
        _ result: AnyStudyResult, origins: [ItemOrigin], wanted: Int, list: String
    ) -> (result: AnyStudyResult, origins: [ItemOrigin], dropped: [DroppedItem]) {
        guard origins.count > wanted else { return (result, origins, []) }
        let keep = spreadCap(origins.map(\.section), wanted: wanted)
        let kept = Set(keep)
        let dropped = origins.indices.filter { !kept.contains($0) }.map { index in
            DroppedItem(
                path: "chunk \(origins[index].chunk + 1).\(list)[\(origins[index].index)]",
                reason: "past the \(wanted) \(list) asked for; left out when the groups were joined")
        }
        var result = result
        switch result {
        case .flashcards(var deck):
            deck.cards = keep.map { deck.cards[$0] }
            result = .flashcards(deck)
        case .quiz(var quiz):
            quiz.questions = keep.map { quiz.questions[$0] }
            result = .quiz(quiz)
        default: return (result, origins, [])
        }
        return (result, keep.map { origins[$0] }, dropped)
    }

    /// The positions of `sections` (each item's section, in list order) kept when at most
    /// `wanted` items may stay: while there are too many, the section holding the most items
    /// loses its last one (the later section on a tie), so every section keeps an item as long
    /// as there are items for all — the builtin engine's spread. Pure.
    static func spreadCap(_ sections: [Int?], wanted: Int) -> [Int] {
        guard sections.count > wanted else { return Array(sections.indices) }
        var bySection: [Int: [Int]] = [:]
        for (position, section) in sections.enumerated() { bySection[section ?? -1, default: []].append(position) }
        var excess = sections.count - max(0, wanted)
        while excess > 0 {
            guard let most = bySection.max(by: { ($0.value.count, $0.key) < ($1.value.count, $1.key) }) else { break }
            bySection[most.key]?.removeLast()
            if bySection[most.key]?.isEmpty == true { bySection[most.key] = nil }
            excess -= 1
        }
        return bySection.values.flatMap { $0 }.sorted()
    }
}
