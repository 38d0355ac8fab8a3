import Foundation

// MARK: - Top-ups rephrased by the model whose part they fill

/// A model's deck, quiz or mind map that keeps k of the N items asked for is topped up from the
/// builtin engine's skeleton (``PartJudge``): cloze cards, cloze questions, the skeleton's
/// branches, shipped `extracted`. A part the builtin engine writes whole has such items rephrased
/// by a model (``rewrite(_:extracted:)``); a top-up was never offered, and on Qwen2.5-Coder-1.5B
/// that was 2 to 5 items a held-out note (#53, session 66). Here the model that wrote the part
/// is offered exactly its top-ups, one item at a time, under the same item jobs, metering, budget
/// and record as any item rewrite. A rephrased top-up ships `rewritten`; a refused one stays
/// `extracted`, its note followed by the reason. A rephrased question that repeats or near-copies
/// another item of its list (the model's own among them) is refused, and the part must validate
/// whole as the judge left it, else the rewrites that break it are taken back.
extension ItemRewriter {
    /// `result` (a part or a kit a model wrote, judged item by item) with its top-ups
    /// (``PartJudge/isTopUp(_:)``) offered to ``engine``, and `items` updated to match.
    func rewritingTopUps(
        _ result: AnyStudyResult, items: [ItemProvenance]
    ) async -> (result: AnyStudyResult, items: [ItemProvenance]) {
        guard items.contains(where: PartJudge.isTopUp) else { return (result, items) }
        switch result {
        case .flashcards, .quiz, .mindMap:
            return await rewritingTopUps(ofPart: result, items: items, prefix: "")
        case .studyKit(var kit):
            var updated = items
            let parts: [(String, AnyStudyResult)] = [
                ("flashcards.", .flashcards(kit.flashcards)), ("quiz.", .quiz(kit.quiz)),
                ("mindMap.", .mindMap(kit.mindMap)),
            ]
            for (prefix, part) in parts {
                let (rewritten, records) = await rewritingTopUps(ofPart: part, items: updated, prefix: prefix)
                kit.replace(rewritten)
                updated = records
            }
            return (.studyKit(kit), updated)
        default:
            return (result, items)
        }
    }

    /// What became of one top-up: rephrased (the new item), or kept with the reason.
    private enum TopUpOutcome {
        case rewritten(JSONValue, note: String)
        case kept(String)
    }

    /// One part (`prefix` is its place in a kit: `flashcards.`) with its top-ups offered.
    private func rewritingTopUps(
        ofPart part: AnyStudyResult, items: [ItemProvenance], prefix: String
    ) async -> (AnyStudyResult, [ItemProvenance]) {
        guard let list = Self.topUpList(of: part), var values = part.jsonValue[list]?.arrayValue else {
            return (part, items)
        }
        let topUps = Set(items.filter(PartJudge.isTopUp).compactMap { record -> Int? in
            let opening = prefix + list + "["
            guard record.path.hasPrefix(opening) else { return nil }
            let rest = record.path.dropFirst(opening.count)
            guard let index = Int(rest.prefix { $0.isNumber }), rest.dropFirst(String(index).count) == "]" else {
                return nil
            }
            return index
        }).filter { values.indices.contains($0) }.sorted()
        guard !topUps.isEmpty else { return (part, items) }
        let outcomes = await topUpOutcomes(part, at: topUps, prefix: prefix)
        let original = values
        var kept: Set<Int> = []
        for (index, outcome) in outcomes {
            guard case .rewritten(let value, _) = outcome else { continue }
            values[index] = value
            kept.insert(index)
        }
        // The part still validates and is grounded as the judge left it: a rewrite that breaks a
        // rule beside the others is its top-up again, until none does.
        var taken: [Int: String] = [:]
        var shipped = part
        while !kept.isEmpty, var object = part.jsonValue.objectValue {
            object[list] = .array(values)
            guard let candidate = try? decodeResult(for: part.task, json: .object(object)) else {
                for index in kept {
                    taken[index] = "the rewritten part could not be read"
                    values[index] = original[index]
                }
                kept.removeAll()
                break
            }
            let failing = partIssues(candidate, size: part.heldSize)
            guard let first = failing.first else {
                shipped = candidate
                break
            }
            let broken = kept.filter { index in failing.contains { Self.names($0.path, list, index) } }
            // A rule broken where no rewrite is (a list's distinct rule names the later copy): the
            // rewrites are what changed.
            for index in broken.isEmpty ? kept : broken {
                let own = failing.first { Self.names($0.path, list, index) } ?? first
                taken[index] = "the rewrite broke a rule of the part (\(own.description))"
                values[index] = original[index]
                kept.remove(index)
            }
        }
        if let reason = taken.values.sorted().first {
            note("\(engine.kind.rawValue): \(taken.count) rewritten top-up(s) taken back: \(reason)")
        }
        let fromCache = log.itemsFromCache
        let updated = items.map { record -> ItemProvenance in
            guard PartJudge.isTopUp(record),
                let index = topUps.first(where: { record.path == Self.path(prefix, list, $0) }),
                let outcome = outcomes[index]
            else { return record }
            let said: ItemProvenance
            switch outcome {
            case .rewritten(_, let made) where kept.contains(index):
                said = ItemProvenance(path: record.path, kind: .rewritten, note: made)
            case .rewritten:
                let why = taken[index] ?? "the rewritten part did not validate"
                said = ItemProvenance(
                    path: record.path, kind: .extracted, note: (record.note ?? "") + "; not rewritten: " + why)
            case .kept(let reason):
                said = ItemProvenance(path: record.path, kind: .extracted, note: (record.note ?? "") + "; " + reason)
            }
            return Self.markingCached([said], paths: fromCache).first ?? said
        }
        return (shipped, updated)
    }

    /// Whether an issue at `path` is about the item at `index` of `list`.
    private static func names(_ path: String, _ list: String, _ index: Int) -> Bool {
        path == "\(list)[\(index)]" || path.hasPrefix("\(list)[\(index)].")
    }

    /// The list whose items a part's top-ups are.
    private static func topUpList(of part: AnyStudyResult) -> String? {
        switch part {
        case .flashcards: "cards"
        case .quiz: "questions"
        case .mindMap: "branches"
        default: nil
        }
    }

    private static func path(_ prefix: String, _ list: String, _ index: Int) -> String { "\(prefix)\(list)[\(index)]" }

    /// Each top-up at `indices` of `part` asked as the builtin engine's own item of its kind is
    /// (a cloze card, a cloze question, a branch whose label is no name), and judged beside the
    /// rest of its list: no repeat, no near-copy. An item no job asks keeps the reason.
    private func topUpOutcomes(
        _ part: AnyStudyResult, at indices: [Int], prefix: String
    ) async -> [Int: TopUpOutcome] {
        var outcomes: [Int: TopUpOutcome] = [:]
        switch part {
        case .flashcards(let deck):
            let asked = await runItems(
                indices.map { index in
                    (index, Self.cardJob(
                        deck.cards[index], path: Self.path(prefix, "cards", index), materialStems: materialStems,
                        subjectAnswers: true))
                }, task: .flashcards, spec: Self.cardSpec, allowance: clozeAllowance().items)
            var cards = deck.cards
            var seen = Set(cards.map { ProseText.duplicateKey($0.question) })
            for index in indices {
                let others = cards.indices.filter { $0 != index }.map { cards[$0].question }
                switch Self.freshQuestion(
                    asked[index] ?? .kept("not rewritten"), seen: &seen, others: others,
                    repeats: "not rewritten: the rewritten question repeats another card's")
                {
                case .success(let text):
                    let made = rewrittenCard(text, of: cards[index])
                    cards[index] = made.card
                    outcomes[index] = .rewritten(Self.cardValue(made.card), note: made.note + Self.fromTheSkeleton)
                case .failure(let kept):
                    outcomes[index] = .kept(kept.reason)
                }
            }
        case .quiz(let quiz):
            let clozes = indices.filter {
                quiz.questions[$0].prompt.contains(Flashcards.blank) && quiz.questions[$0].answer != nil
            }
            let asked = await runItems(
                clozes.map { index in
                    let question = quiz.questions[index]
                    let card = Flashcards.Card(
                        question: question.prompt, answer: question.answer ?? "", quote: question.quote)
                    let path = Self.path(prefix, "questions", index)
                    return (index, Self.cardJob(card, path: path, materialStems: materialStems))
                }, task: .quiz, spec: Self.cardSpec, allowance: clozeAllowance().items)
            var questions = quiz.questions
            var seen = Set(questions.map { ProseText.duplicateKey($0.prompt) })
            for index in indices {
                guard let outcome = asked[index] else {
                    outcomes[index] = .kept("not rewritten: the question has no blank to ask about")
                    continue
                }
                let others = questions.indices.filter { $0 != index }.map { questions[$0].prompt }
                switch Self.freshQuestion(
                    outcome, seen: &seen, others: others,
                    repeats: "not rewritten: the rewritten question repeats another question")
                {
                case .success(let text):
                    questions[index].prompt = Self.splitCard(text)?.0 ?? text
                    outcomes[index] = .rewritten(
                        AnyStudyResult.quiz(Quiz(questions: [questions[index]])).jsonValue["questions"]?.arrayValue?
                            .first ?? .null,
                        note: questionRephrasedNote + Self.fromTheSkeleton)
                case .failure(let kept):
                    outcomes[index] = .kept(kept.reason)
                }
            }
        case .mindMap(let map):
            // Only a label that is no name (``branchNeedsName(_:headings:)``): a heading that fits a
            // label is the author's own name for its section, as in a builtin map.
            let headings = Self.headingKeys(in: request.document.text)
            let named = indices.filter { Self.branchNeedsName(map.branches[$0], headings: headings) }
            let asked = await runItems(
                named.map { index in
                    (index, Self.branchJob(
                        map.branches[index], centre: map.centralTopic, path: Self.path(prefix, "branches", index),
                        materialStems: materialStems))
                }, task: .mindmap, spec: Self.branchSpec, allowance: .forEngine(engine.kind))
            var branches = map.branches
            var labels = Set(branches.map { ProseText.duplicateKey($0.label) })
            let centre = ProseText.duplicateKey(map.centralTopic)
            for index in indices {
                guard let outcome = asked[index] else {
                    outcomes[index] = .kept("not rewritten: the material's heading, short enough to name the branch")
                    continue
                }
                let others = branches.indices.filter { $0 != index }.map { branches[$0].label }
                switch Self.fresh(
                    outcome, seen: &labels,
                    repeats: "not rewritten: the new name repeats another branch's or the centre's",
                    key: { label in
                        ProseText.duplicateKey(label) == centre || Self.nearCopy(label, of: others) ? nil : label
                    })
                {
                case .success(let label):
                    branches[index].label = label
                    outcomes[index] = .rewritten(
                        AnyStudyResult.mindMap(MindMap(centralTopic: map.centralTopic, branches: [branches[index]]))
                            .jsonValue["branches"]?.arrayValue?.first ?? .null,
                        note: "named by \(engine.modelName)" + Self.fromTheSkeleton)
                case .failure(let kept):
                    outcomes[index] = .kept(kept.reason)
                }
            }
        default:
            break
        }
        return outcomes
    }

    /// What a rewritten top-up's note says of where its item came from.
    private static let fromTheSkeleton = ", an item the builtin engine added to reach the count asked for"

    /// A card as its deck's JSON holds it.
    private static func cardValue(_ card: Flashcards.Card) -> JSONValue {
        AnyStudyResult.flashcards(Flashcards(cards: [card])).jsonValue["cards"]?.arrayValue?.first ?? .null
    }
}
