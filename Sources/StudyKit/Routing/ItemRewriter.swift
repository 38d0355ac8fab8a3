import Foundation

// MARK: - Extract, then rewrite

/// The intern principle: when a model cannot write a part whole (its window or its record
/// says so), the builtin engine selects grounded material and the model rephrases it one small
/// item at a time — a cloze card into a question, a heading into a branch name, the key
/// sentences into an overview. Each item is asked under its own small schema (a grammar on the
/// in-process engine), validated and grounded; an item that fails keeps its extracted form.
/// Items share one instruction text, so the in-process engine reuses its KV cache for it.
///
/// The router chooses the model (``RoutingEngine/rewriteItems(_:request:material:modelWasSkipped:log:)``)
/// and meters each item's call; the rewriter asks, judges and records the items.
struct ItemRewriter: Sendable {
    /// The model engine that rewrites the items.
    let engine: any LanguageModel
    /// The job whose part's items are rewritten.
    let request: RoutingRequest
    /// The material the items are grounded in.
    let material: String
    /// The content stems of ``material``, which a rewrite's words are looked for among.
    let materialStems: Set<String>
    /// This run's attempts, for `--json`.
    let log: AttemptLog
    /// The builtin engine: its reading of the document orders the items, and its check names a
    /// Feynman explanation's wrong claims.
    let builtin: BuiltinEngine
    /// The result cache, which keeps item answers across runs; `nil` for none.
    let cache: (any ResultCaching)?
    /// The capability memory: item skips, budget skips, the record of each item's attempt.
    let recorder: AttemptRecorder
    /// The item answers models gave in this process, shared by every copy of the router.
    let itemAnswers: ItemAnswers
    /// One model call for an item, metered by the router (reserved against the quota, counted
    /// in the ledger) and bounded by the request's budget. With a `stop`, on an engine that
    /// streams cheaply, the answer is streamed and stopped as soon as `stop` says yes to it so
    /// far; it then comes back with `finishReason` ``ItemAnswers/stoppedFinishReason``.
    let generate: Generate

    /// One metered model call for an item: the request, its record key, and when to stop it.
    typealias Generate = @Sendable (GenerationRequest, AttemptKey, (@Sendable (String) -> Bool)?) async throws
        -> RawResponse

    /// Creates a rewriter of `request`'s items on `engine`, grounded in `material`.
    init(
        engine: any LanguageModel, request: RoutingRequest, material: String, log: AttemptLog, builtin: BuiltinEngine,
        cache: (any ResultCaching)?, recorder: AttemptRecorder, itemAnswers: ItemAnswers,
        generate: @escaping Generate
    ) {
        self.engine = engine
        self.request = request
        self.material = material
        materialStems = Set(GroundingWords.contentStems(material))
        self.log = log
        self.builtin = builtin
        self.cache = cache
        self.recorder = recorder
        self.itemAnswers = itemAnswers
        self.generate = generate
    }

    /// Receives one line per decision, as the router's notes do.
    var note: @Sendable (String) -> Void { recorder.note }
    var memory: (any AttemptRecording)? { recorder.memory }
    var capability: CapabilityPolicy { recorder.capability }
    var clock: any DayClock { recorder.clock }

    /// The tasks whose items can be rewritten.
    static let rewritableTasks: Set<StudyTask> = [.summary, .flashcards, .quiz, .mindmap, .feynman]

    /// One item to rewrite: where it is, what the model is shown, and how an answer is judged.
    struct ItemJob {
        let path: String
        let prompt: String
        /// This item's own answer shape, when it differs from its kind's (``ItemSpec/schema``).
        var schema: GenerationSchema? = nil
        /// Why the small local model is not asked this item under a bounded allowance: its shape
        /// gets the model's rewrites refused (``RewriteOrder/blankInAList(_:)``). The item keeps
        /// its extracted form and its place in the allowance, which is not passed further down.
        var passedOver: String? = nil
        /// The rewritten value, or why the answer is not usable.
        let accept: (JSONValue) -> Result<String, ItemRejection>
        /// The job's rules that an answer, once it breaks them, breaks however it goes on (more
        /// words than a key point may have): asked of the finished answer before `accept`, and of
        /// the answer while it is decoded on an engine that streams cheaply, which is then
        /// stopped there instead of decoding a refused answer to its end.
        var settledRefusal: (@Sendable (AnswerSoFar) -> String?)? = nil

        /// The verdict on a complete answer: the settled rules, then `accept`.
        func verdict(_ json: JSONValue) -> Result<String, ItemRejection> {
            if let reason = settledRefusal?(AnswerSoFar(complete: json)) {
                return .failure(ItemRejection(reason: reason))
            }
            return accept(json)
        }
    }

    /// An item's answer as far as it is written: its JSON (strings still open are closed) and
    /// whether it is complete. Only what no later token can change counts while it is not: a
    /// value's last word may still grow, and a sentence has ended once the next one starts.
    struct AnswerSoFar: Sendable {
        let json: JSONValue
        let complete: Bool
        /// Whether the text ends inside a word, which the next token may go on with.
        private let endsInAWord: Bool

        /// `text`, an answer read as far as it is written.
        init(partial text: String) {
            json = JSONValue.partial(ModelOutputText.unfenced(text)) ?? .object([:])
            complete = false
            endsInAWord = text.last.map { !$0.isWhitespace && !"\",}]".contains($0) } ?? false
        }

        init(complete json: JSONValue) {
            self.json = json
            complete = true
            endsInAWord = false
        }

        /// The words of `key`'s text that are written to the end (split on white space): while
        /// the text ends inside a word, every value's last word is left out, as it may still grow.
        func settledWords(_ key: String) -> [Substring] {
            guard let text = json[key]?.stringValue else { return [] }
            var words = text.split(whereSeparator: \.isWhitespace)
            if endsInAWord, !words.isEmpty { words.removeLast() }
            return words
        }

        /// `key`'s text up to the end of its first sentence (a full stop, question or exclamation
        /// mark followed by a space), once that is written; the whole text of a complete answer
        /// without one.
        func firstSentence(_ key: String) -> String? {
            guard let text = json[key]?.stringValue.map(ProseText.oneLine) else { return nil }
            var previous: Character?
            for index in text.indices {
                if text[index] == " ", let mark = previous, ".?!".contains(mark) { return String(text[..<index]) }
                previous = text[index]
            }
            return complete ? text : nil
        }
    }

    struct ItemRejection: Error {
        let reason: String
    }

    /// The outcome of one item: rewritten text, or the reason it stays extracted.
    enum ItemOutcome {
        case rewritten(String)
        case kept(String)
    }

    /// `result` (built by the builtin engine) with its items rewritten by ``engine``, and each
    /// item's provenance; `extracted` is every item's provenance as extracted.
    func rewrite(
        _ result: AnyStudyResult, extracted: [ItemProvenance]
    ) async -> (result: AnyStudyResult, items: [ItemProvenance]) {
        switch result {
        case .flashcards(let deck):
            // The small model's answers are spent where they pay most (``RewriteOrder``); the
            // outcomes are then read in the deck's order.
            let allowance = clozeAllowance()
            let order = allowance.reorders(deck.cards.count)
                ? rewriteOrder(deck.cards, shared: quizPrompts(deck))
                : Array(deck.cards.indices)
            let byIndex = await runItems(
                order.map { index in
                    let card = deck.cards[index]
                    let path = "cards[\(index)]"
                    return (index, Self.cardJob(card, path: path, materialStems: materialStems, subjectAnswers: true))
                }, task: .flashcards, spec: Self.cardSpec, allowance: allowance.items)
            let outcomes = deck.cards.indices.map { byIndex[$0] ?? .kept("not rewritten") }
            var cards = deck.cards
            var provenance: [ItemProvenance] = []
            var questions = Set(cards.map { ProseText.duplicateKey($0.question) })
            for (index, outcome) in outcomes.enumerated() {
                let others = cards.indices.filter { $0 != index }.map { cards[$0].question }
                switch Self.freshQuestion(
                    outcome, seen: &questions, others: others, repeats: "the rewritten question repeats another card's")
                {
                case .success(let text):
                    let made = rewrittenCard(text, of: cards[index])
                    cards[index] = made.card
                    provenance.append(ItemProvenance(path: "cards[\(index)]", kind: .rewritten, note: made.note))
                case .failure(let kept):
                    provenance.append(ItemProvenance(path: "cards[\(index)]", kind: .extracted, note: kept.reason))
                }
            }
            return checked(
                .flashcards(Flashcards(cards: cards)), provenance: provenance, fallback: result, extracted: extracted)

        case .quiz(let quiz):
            // A fill-in-the-blank question becomes a natural one, asked the way a card is (same
            // instructions and judge); its four choices and its answer stay as extracted.
            let clozes = quiz.questions.enumerated().filter {
                $0.element.prompt.contains("_____") && $0.element.answer != nil
            }
                .map { index, question in
                    (index, Flashcards.Card(
                        question: question.prompt, answer: question.answer ?? "", quote: question.quote))
                }
            let allowance = clozeAllowance()
            let order = allowance.reorders(clozes.count)
                ? rewriteOrder(clozes.map(\.1)) : Array(clozes.indices)
            let outcomes = await runItems(
                order.map { position in
                    let (index, card) = clozes[position]
                    return (index, Self.cardJob(card, path: "questions[\(index)]", materialStems: materialStems))
                }, task: .quiz, spec: Self.cardSpec, allowance: allowance.items)
            var questions = quiz.questions
            var asked = Set(questions.map { ProseText.duplicateKey($0.prompt) })
            var provenance: [ItemProvenance] = []
            for index in questions.indices {
                let path = "questions[\(index)]"
                guard let outcome = outcomes[index] else {
                    provenance.append(
                        ItemProvenance(
                            path: path, kind: .extracted, note: "selected from the material by the builtin engine"))
                    continue
                }
                let others = questions.indices.filter { $0 != index }.map { questions[$0].prompt }
                switch Self.freshQuestion(
                    outcome, seen: &asked, others: others, repeats: "the rewritten question repeats another question")
                {
                case .success(let text):
                    questions[index].prompt = Self.splitCard(text)?.0 ?? text
                    provenance.append(
                        ItemProvenance(
                            path: path, kind: .rewritten,
                            note: questionRephrasedNote))
                case .failure(let kept):
                    provenance.append(ItemProvenance(path: path, kind: .extracted, note: kept.reason))
                }
            }
            return checked(
                .quiz(Quiz(questions: questions)), provenance: provenance, fallback: result, extracted: extracted)

        case .summary(let summary):
            // The key points first: a second or so each, they come before the costlier overview.
            let (keyPoints, pointProvenance) = await shortenKeyPoints(summary)
            let analysis = builtin.analysis(of: request.document.text, title: request.document.title)
            let sentences = analysis.ranked.prefix(5).map {
                ProseText.shortened(ProseText.oneLine($0.sentence.text), maxLength: 260)
            }
            let job = Self.overviewJob(
                sentences: sentences, keyPoints: keyPoints, extracted: summary.overview, materialStems: materialStems)
            let outcome = await runItems(
                [job], task: .summary, spec: Self.overviewSpec, allowance: .overview(engine.kind))[0]
            var provenance = pointProvenance
            var rewritten = summary
            rewritten.keyPoints = keyPoints
            switch outcome {
            case .rewritten(let overview):
                rewritten.overview = overview
                provenance.insert(
                    ItemProvenance(
                        path: "overview", kind: .rewritten,
                        note: "written by \(engine.modelName) from the key sentences"), at: 0)
            case .kept(let reason):
                provenance.insert(ItemProvenance(path: "overview", kind: .extracted, note: reason), at: 0)
            }
            return checked(.summary(rewritten), provenance: provenance, fallback: result, extracted: extracted)

        case .mindMap(let map):
            // A branch is named only when its label is too long to be a name and is not a whole
            // heading: a heading that fits a label is the author's own name for the section, and
            // the small model's "rewrites" of such headings were restyles or cuts (mindmap.branch/3's refusals).
            let headings = Self.headingKeys(in: request.document.text)
            let outcomes = await runItems(
                map.branches.enumerated().filter { Self.branchNeedsName($0.element, headings: headings) }
                    .map { index, branch in
                        let path = "branches[\(index)].label"
                        return (index, Self.branchJob(
                            branch, centre: map.centralTopic, path: path, materialStems: materialStems))
                    }, task: .mindmap, spec: Self.branchSpec, allowance: .forEngine(engine.kind))
            var branches = map.branches
            var labels = Set(branches.map { ProseText.duplicateKey($0.label) })
            var provenance = [ItemProvenance(path: "centralTopic", kind: .extracted, note: "the material's title")]
            let centre = ProseText.duplicateKey(map.centralTopic)
            for index in branches.indices {
                let path = "branches[\(index)].label"
                guard let outcome = outcomes[index] else {
                    provenance.append(
                        ItemProvenance(
                            path: path, kind: .extracted,
                            note: "the material's heading, short enough to name the branch"))
                    if !branches[index].children.isEmpty {
                        provenance.append(
                            ItemProvenance(
                                path: "branches[\(index)].children", kind: .extracted, note: "key terms of the section")
                        )
                    }
                    continue
                }
                switch Self.fresh(
                    outcome, seen: &labels, repeats: "the new name repeats another branch's or the centre's",
                    key: { label in
                    ProseText.duplicateKey(label) == centre ? nil : label
                }) {
                case .success(let label):
                    branches[index].label = label
                    provenance.append(
                        ItemProvenance(path: path, kind: .rewritten, note: "named by \(engine.modelName)"))
                case .failure(let kept):
                    provenance.append(ItemProvenance(path: path, kind: .extracted, note: kept.reason))
                }
                if !branches[index].children.isEmpty {
                    provenance.append(
                        ItemProvenance(
                            path: "branches[\(index)].children", kind: .extracted, note: "key terms of the section"))
                }
            }
            return checked(
                .mindMap(MindMap(centralTopic: map.centralTopic, branches: branches)), provenance: provenance,
                fallback: result, extracted: extracted)

        case .feynman(let feedback):
            return await rewriteFeynman(feedback, fallback: result, extracted: extracted)

        default:
            return (result, extracted)
        }
    }

    /// The rewritten text of `outcome` when its `key` (the question of a card, a label) is new
    /// among `seen`, which then holds it too; else why the item stays extracted: the outcome's
    /// own reason, or `repeats` for a rewrite that repeats another item (or has no key).
    static func fresh(
        _ outcome: ItemOutcome, seen: inout Set<String>, repeats: String, key: (String) -> String?
    ) -> Result<String, ItemRejection> {
        switch outcome {
        case .kept(let reason):
            return .failure(ItemRejection(reason: reason))
        case .rewritten(let text):
            guard let shown = key(text), seen.insert(ProseText.duplicateKey(shown)).inserted else {
                return .failure(ItemRejection(reason: repeats))
            }
            return .success(text)
        }
    }

    /// A card's or a quiz question's rewrite (`outcome`) when its question is new among `seen`
    /// and no near-copy of `others`, the list's other questions as they now stand: "What declared
    /// itself the National Assembly?" beside "What year does the Third Estate declare itself the
    /// National Assembly?" would fail the whole deck's validation. Else why the item stays extracted.
    static func freshQuestion(
        _ outcome: ItemOutcome, seen: inout Set<String>, others: [String], repeats: String
    ) -> Result<String, ItemRejection> {
        fresh(outcome, seen: &seen, repeats: repeats) { text in
            splitCard(text).map(\.0).flatMap { question in nearCopy(question, of: others) ? nil : question }
        }
    }

    /// The card a rewrite's `text` (its question, then its answer) makes of `card`, and its note:
    /// a question that asks for the sentence's subject has the subject as its answer.
    func rewrittenCard(_ text: String, of card: Flashcards.Card) -> (card: Flashcards.Card, note: String) {
        let (question, answer) = Self.splitCard(text) ?? (text, card.answer)
        let subject = GroundingWords.normalizedWords(answer) != GroundingWords.normalizedWords(card.answer)
        let note = subject
            ? "rephrased by \(engine.modelName), asking for the sentence's subject instead of the blank"
            : "rephrased by \(engine.modelName)"
        return (Flashcards.Card(question: question, answer: answer, quote: card.quote), note)
    }

    /// What a part whose items were rewritten breaks, as the model's answer had to hold: its schema
    /// at `size` (the items the part held), grounding in the material, and the model-answer rules.
    func partIssues(_ result: AnyStudyResult, size: KitSize) -> [ValidationIssue] {
        result.validationIssues(size: size) + Grounding.issues(in: result, source: material)
            + ModelAnswerRules.issues(in: result, material: material)
    }

    /// The note of a quiz question whose prompt `engine` rephrased; its choices stay the skeleton's.
    var questionRephrasedNote: String { "question rephrased by \(engine.modelName); choices extracted" }

    /// Whether `text` is a near-copy (``ItemRules/nearCopy(_:_:)``) of any of `others`.
    static func nearCopy(_ text: String, of others: [String]) -> Bool {
        others.contains { ItemRules.nearCopy(text, $0) }
    }

    /// The rewritten result if the whole still validates and is grounded, else the extracted one.
    func checked(
        _ result: AnyStudyResult, provenance: [ItemProvenance], fallback: AnyStudyResult, extracted: [ItemProvenance]
    ) -> (result: AnyStudyResult, items: [ItemProvenance]) {
        // The rewritten part holds as many items as the extracted one, which its size allowed (#54).
        let issues = result.validationIssues(size: fallback.heldSize) + Grounding.issues(in: result, source: material)
        guard issues.isEmpty else {
            note(
                "the rewritten \(result.task.name) did not validate (\(issues[0].description)); kept the extracted one")
            return (
                fallback,
                extracted.map {
                    ItemProvenance(path: $0.path, kind: .extracted, note: "the rewritten part did not validate")
                }
            )
        }
        return (result, provenance)
    }
}
