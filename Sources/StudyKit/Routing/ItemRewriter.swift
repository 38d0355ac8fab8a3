import Foundation

// MARK: - Extract, then rewrite

/// The intern principle: when a model cannot write a part whole (its window or its record
/// says so), the builtin engine selects grounded material and the model rephrases it one small
/// item at a time — a cloze card into a question, a heading into a branch name, the key
/// sentences into an overview. Each item is asked under its own small schema (a grammar on the
/// in-process engine), validated and grounded; an item that fails keeps its extracted form.
/// Items share one instruction text, so the in-process engine reuses its KV cache for it.
extension RoutingEngine {
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
            if let reason = settledRefusal?(AnswerSoFar(complete: json)) { return .failure(ItemRejection(reason: reason)) }
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

    /// `result` (built by the builtin engine) with its items rewritten by the first model
    /// engine of the plan that can serve, and each item's provenance.
    func rewriteItems(
        _ result: AnyStudyResult, request: RoutingRequest, material: String, modelWasSkipped: Bool, log: AttemptLog
    ) async -> (result: AnyStudyResult, items: [ItemProvenance]) {
        let extracted = ItemProvenance.all(in: result, kind: .extracted, note: "selected from the material by the builtin engine")
        // Only under a time budget, or once a model was skipped for the whole part: then the model
        // is known (or expected) not to write it whole, and items are what it can do.
        guard request.engine == .auto, Self.rewritableTasks.contains(request.task), request.budget != nil || modelWasSkipped
        else { return (result, extracted) }
        let decision = backend(for: request.task, characterCount: request.document.characterCount)
        let engines = Self.plan(decision: decision, choice: .auto, offline: request.offline).filter { $0 != .builtin }
            .map { $0 == .local ? local : remote }
        var chosen: (any LanguageModel)?
        var unavailable: [String] = []
        for engine in engines {
            if engine.kind == .remote, remoteBlocker() != nil { continue }
            if !engine.languages.supports(request.document.language) { continue }
            if case .unavailable(let reason) = await availability(of: engine, within: request.budget) {
                unavailable.append("\(engine.kind.rawValue): \(reason)")
                continue
            }
            chosen = engine
            break
        }
        guard let engine = chosen else {
            // Every builtin item says why no model rephrased it (the budget used up, the server down).
            if unavailable.isEmpty { return (result, extracted) }
            return (result, ItemProvenance.all(in: result, kind: .extracted, note: "not rewritten: " + unavailable.joined(separator: "; ")))
        }
        let materialStems = Set(Grounding.contentStems(material))

        switch result {
        case .flashcards(let deck):
            // The small model's answers are spent where they pay most (``RewriteOrder``); the
            // outcomes are then read in the deck's order.
            let allowance = clozeAllowance(engine, request: request)
            let order = allowance.reorders(deck.cards.count)
                ? rewriteOrder(deck.cards, request: request, shared: quizPrompts(deck, request: request))
                : Array(deck.cards.indices)
            let byIndex = await runItems(
                order.map { index in
                    let card = deck.cards[index]
                    let path = "cards[\(index)]"
                    return (index, Self.cardJob(card, path: path, materialStems: materialStems, subjectAnswers: true))
                }, engine: engine, task: .flashcards, spec: Self.cardSpec, request: request, log: log,
                allowance: allowance.items)
            let outcomes = deck.cards.indices.map { byIndex[$0] ?? .kept("not rewritten") }
            var cards = deck.cards
            var provenance: [ItemProvenance] = []
            var questions = Set(cards.map { ProseText.duplicateKey($0.question) })
            for (index, outcome) in outcomes.enumerated() {
                // Nor a near-copy of another card's question as it now stands: "What declared
                // itself the National Assembly?" beside "What year does the Third Estate declare
                // itself the National Assembly?" would fail the whole deck's validation.
                let others = cards.indices.filter { $0 != index }.map { cards[$0].question }
                switch Self.fresh(outcome, seen: &questions, repeats: "the rewritten question repeats another card's", key: {
                    Self.splitCard($0).map(\.0).flatMap { question in Self.nearCopy(question, of: others) ? nil : question }
                }) {
                case .success(let text):
                    let (question, answer) = Self.splitCard(text) ?? (text, cards[index].answer)
                    let subject = Grounding.normalizedWords(answer) != Grounding.normalizedWords(cards[index].answer)
                    cards[index] = Flashcards.Card(question: question, answer: answer, quote: cards[index].quote)
                    provenance.append(ItemProvenance(path: "cards[\(index)]", kind: .rewritten, note: subject
                        ? "rephrased by \(engine.modelName), asking for the sentence's subject instead of the blank"
                        : "rephrased by \(engine.modelName)"))
                case .failure(let kept):
                    provenance.append(ItemProvenance(path: "cards[\(index)]", kind: .extracted, note: kept.reason))
                }
            }
            return checked(.flashcards(Flashcards(cards: cards)), provenance: provenance, fallback: result, extracted: extracted, material: material)

        case .quiz(let quiz):
            // A fill-in-the-blank question becomes a natural one, asked the way a card is (same
            // instructions and judge); its four choices and its answer stay as extracted.
            let clozes = quiz.questions.enumerated().filter { $0.element.prompt.contains("_____") && $0.element.answer != nil }
                .map { index, question in
                    (index, Flashcards.Card(
                        question: question.prompt, answer: question.answer ?? "", quote: question.quote))
                }
            let allowance = clozeAllowance(engine, request: request)
            let order = allowance.reorders(clozes.count)
                ? rewriteOrder(clozes.map(\.1), request: request) : Array(clozes.indices)
            let outcomes = await runItems(
                order.map { position in
                    let (index, card) = clozes[position]
                    return (index, Self.cardJob(card, path: "questions[\(index)]", materialStems: materialStems))
                }, engine: engine, task: .quiz, spec: Self.cardSpec, request: request, log: log,
                allowance: allowance.items)
            var questions = quiz.questions
            var asked = Set(questions.map { ProseText.duplicateKey($0.prompt) })
            var provenance: [ItemProvenance] = []
            for index in questions.indices {
                let path = "questions[\(index)]"
                guard let outcome = outcomes[index] else {
                    provenance.append(ItemProvenance(path: path, kind: .extracted, note: "selected from the material by the builtin engine"))
                    continue
                }
                let others = questions.indices.filter { $0 != index }.map { questions[$0].prompt }
                switch Self.fresh(outcome, seen: &asked, repeats: "the rewritten question repeats another question", key: {
                    Self.splitCard($0).map(\.0).flatMap { question in Self.nearCopy(question, of: others) ? nil : question }
                }) {
                case .success(let text):
                    questions[index].prompt = Self.splitCard(text)?.0 ?? text
                    provenance.append(ItemProvenance(path: path, kind: .rewritten, note: "question rephrased by \(engine.modelName); choices extracted"))
                case .failure(let kept):
                    provenance.append(ItemProvenance(path: path, kind: .extracted, note: kept.reason))
                }
            }
            return checked(.quiz(Quiz(questions: questions)), provenance: provenance, fallback: result, extracted: extracted, material: material)

        case .summary(let summary):
            // The key points first: a second or so each, they come before the costlier overview.
            let (keyPoints, pointProvenance) = await shortenKeyPoints(summary, engine: engine, request: request, log: log)
            let analysis = BuiltinAnalysis(text: request.document.text, title: request.document.title)
            let sentences = analysis.ranked.prefix(5).map { ProseText.shortened(ProseText.oneLine($0.sentence.text), maxLength: 260) }
            let job = Self.overviewJob(sentences: sentences, keyPoints: keyPoints, extracted: summary.overview, materialStems: materialStems)
            let outcome = await runItems(
                [job], engine: engine, task: .summary, spec: Self.overviewSpec, request: request, log: log,
                allowance: .overview(engine.kind))[0]
            var provenance = pointProvenance
            var rewritten = summary
            rewritten.keyPoints = keyPoints
            switch outcome {
            case .rewritten(let overview):
                rewritten.overview = overview
                provenance.insert(ItemProvenance(path: "overview", kind: .rewritten, note: "written by \(engine.modelName) from the key sentences"), at: 0)
            case .kept(let reason):
                provenance.insert(ItemProvenance(path: "overview", kind: .extracted, note: reason), at: 0)
            }
            return checked(.summary(rewritten), provenance: provenance, fallback: result, extracted: extracted, material: material)

        case .mindMap(let map):
            // A branch is named only when its label is too long to be a name and is not a whole
            // heading: a heading that fits a label is the author's own name for the section, and
            // the small model's "rewrites" of such headings were restyles or cuts (mindmap.branch/3's refusals).
            let headings = Self.headingKeys(in: request.document.text)
            let outcomes = await runItems(
                map.branches.enumerated().filter { Self.branchNeedsName($0.element, headings: headings) }.map { index, branch in
                    (index, Self.branchJob(branch, centre: map.centralTopic, path: "branches[\(index)].label", materialStems: materialStems))
                }, engine: engine, task: .mindmap, spec: Self.branchSpec, request: request, log: log,
                allowance: .forEngine(engine.kind))
            var branches = map.branches
            var labels = Set(branches.map { ProseText.duplicateKey($0.label) })
            var provenance = [ItemProvenance(path: "centralTopic", kind: .extracted, note: "the material's title")]
            let centre = ProseText.duplicateKey(map.centralTopic)
            for index in branches.indices {
                let path = "branches[\(index)].label"
                guard let outcome = outcomes[index] else {
                    provenance.append(ItemProvenance(path: path, kind: .extracted, note: "the material's heading, short enough to name the branch"))
                    if !branches[index].children.isEmpty {
                        provenance.append(ItemProvenance(path: "branches[\(index)].children", kind: .extracted, note: "key terms of the section"))
                    }
                    continue
                }
                switch Self.fresh(outcome, seen: &labels, repeats: "the new name repeats another branch's or the centre's", key: { label in
                    ProseText.duplicateKey(label) == centre ? nil : label
                }) {
                case .success(let label):
                    branches[index].label = label
                    provenance.append(ItemProvenance(path: path, kind: .rewritten, note: "named by \(engine.modelName)"))
                case .failure(let kept):
                    provenance.append(ItemProvenance(path: path, kind: .extracted, note: kept.reason))
                }
                if !branches[index].children.isEmpty {
                    provenance.append(ItemProvenance(path: "branches[\(index)].children", kind: .extracted, note: "key terms of the section"))
                }
            }
            return checked(.mindMap(MindMap(centralTopic: map.centralTopic, branches: branches)), provenance: provenance, fallback: result, extracted: extracted, material: material)

        case .feynman(let feedback):
            return await rewriteFeynman(feedback, request: request, engine: engine, materialStems: materialStems, fallback: result, extracted: extracted, material: material, log: log)

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

    /// Whether `text` is a near-copy (``ItemRules/nearCopy(_:_:)``) of any of `others`.
    static func nearCopy(_ text: String, of others: [String]) -> Bool {
        others.contains { ItemRules.nearCopy(text, $0) }
    }

    /// The rewritten result if the whole still validates and is grounded, else the extracted one.
    func checked(
        _ result: AnyStudyResult, provenance: [ItemProvenance], fallback: AnyStudyResult, extracted: [ItemProvenance], material: String
    ) -> (result: AnyStudyResult, items: [ItemProvenance]) {
        // The rewritten part holds as many items as the extracted one, which its size allowed (#54).
        let issues = result.validationIssues(size: fallback.heldSize) + Grounding.issues(in: result, source: material)
        guard issues.isEmpty else {
            note("the rewritten \(result.task.name) did not validate (\(issues[0].description)); kept the extracted one")
            return (fallback, extracted.map { ItemProvenance(path: $0.path, kind: .extracted, note: "the rewritten part did not validate") })
        }
        return (result, provenance)
    }

    // MARK: running items

    /// What every item of one kind shares: instructions (the shared prefix), schema, limit, version.
    struct ItemSpec {
        let name: String
        let version: String
        let instructions: String
        let schema: GenerationSchema
        let maximumTokens: Int
        /// The task whose record the attempts go in when another task asks the same job (a quiz
        /// question is rewritten as a card is): one record per job, whichever part asks.
        var recordedUnder: StudyTask? = nil
        /// Whether the job is asked once per document (the overview): its record then grows a
        /// document at a time, so it is judged as a whole part is, on its last 2 attempts.
        var oncePerDocument = false

        /// The request that asks one item of this kind: the shared instructions, `prompt`, the
        /// small schema (a grammar in process) and the token limit, decoded greedily. Without
        /// `ideographs` (material with no Chinese, Japanese or Korean) its strings may hold none.
        func request(prompt: String, schema own: GenerationSchema? = nil, ideographs: Bool = true) -> GenerationRequest {
            let schema = ideographs ? own ?? schema : (own ?? schema).withoutIdeographs()
            return GenerationRequest(
                instructions: instructions, prompt: prompt, schemaName: name,
                jsonSchema: schema.jsonSchema(strict: false).compactText, strictJSONSchema: schema.jsonSchema(strict: true).compactText,
                options: GenerationOptions(sampling: .greedy, maximumResponseTokens: maximumTokens))
        }
    }

    /// Runs the jobs of some of a part's items (those worth asking), in order, and gives each
    /// outcome by its item's index; an index without a job has no outcome.
    func runItems(
        _ jobs: [(index: Int, job: ItemJob)], engine: any LanguageModel, task: StudyTask, spec: ItemSpec, request: RoutingRequest,
        log: AttemptLog, allowance: ItemAllowance = .open
    ) async -> [Int: ItemOutcome] {
        let answers = await runItems(
            jobs.map(\.job), engine: engine, task: task, spec: spec, request: request, log: log, allowance: allowance)
        return Dictionary(uniqueKeysWithValues: zip(jobs.map(\.index), answers))
    }

    /// Runs the jobs in order on `engine`, within the budget and the item record.
    ///
    /// An item asked before in this run with the very same instructions and prompt (a quiz
    /// question on the sentence a card was made from) gets the answer the model gave then,
    /// judged by its own job, without a second call: items are decoded greedily, so asking
    /// again would only spend the budget on the same answer.
    func runItems(
        _ jobs: [ItemJob], engine: any LanguageModel, task: StudyTask, spec: ItemSpec, request: RoutingRequest,
        log: AttemptLog, allowance: ItemAllowance = .open
    ) async -> [ItemOutcome] {
        let key = AttemptKey(
            engine: engine.kind, model: engine.identity, task: (spec.recordedUnder ?? task).name, job: .item,
            promptVersion: spec.version)
        var outcomes: [ItemOutcome] = []
        // Read once: whether the material itself has Chinese, Japanese or Korean characters.
        let materialUsesCJK = LanguageRule.usesCJK(request.document.text)
        // How many failures in a row on this document stop the job here, from the record of
        // earlier runs (``CapabilityPolicy/itemFailuresToStop(recent:now:runStarted:)``).
        let failuresToStop = memory.flatMap { memory in
            (try? memory.recentAttempts(key, limit: CapabilityPolicy.itemYieldWindow)).flatMap {
                capability.itemFailuresToStop(recent: $0, now: clock.now(), runStarted: request.budget?.start)
            }
        }
        var failuresInARow = 0
        // This run's own answers of this part: what ``ItemAllowance`` judges.
        var answered = 0
        var acceptedHere = 0
        var passedOver = 0
        for job in jobs {
            if let failuresToStop, failuresInARow >= failuresToStop {
                outcomes.append(.kept("not rewritten: \(engine.modelName) failed this material's last \(failuresInARow) items of this kind, more than its record makes likely; the rest keep their extracted form"))
                continue
            }
            let prompt = [job.prompt, TaskPrompt.languageInstruction(request.document.language)].compactMap { $0 }.joined(separator: "\n\n")
            let asked = ItemAnswers.Key(model: "\(engine.kind.rawValue)/\(engine.identity)", version: spec.version, instructions: spec.instructions, prompt: prompt)
            if let answer = itemAnswers[asked] {
                if itemAnswers.isStored(asked) { log.answeredFromCache(job.path) }
                outcomes.append(Self.judge(answer, job: job, spec: spec, materialUsesCJK: materialUsesCJK).item)
                continue
            }
            // Asked in an earlier run: judged again here, at no cost, before any skip.
            let stored = try? Self.itemAnswerKey(spec, job: job, task: task, engine: engine, prompt: prompt)
            if let answer = storedItemAnswer(stored, request: request) {
                itemAnswers.keepStored(answer, for: asked)
                log.answeredFromCache(job.path)
                outcomes.append(Self.judge(answer, job: job, spec: spec, materialUsesCJK: materialUsesCJK).item)
                continue
            }
            if capability.boundsItemRewrites,
                let stop = allowance.stop(asked: answered, accepted: acceptedHere, passedOver: passedOver)
            {
                outcomes.append(.kept(stop))
                continue
            }
            if capability.boundsItemRewrites, !allowance.asksEveryShape, let reason = job.passedOver {
                outcomes.append(.kept("not rewritten: " + reason))
                passedOver += 1
                continue
            }
            if let skip = capabilitySkip(engine, key: key, runStarted: request.budget?.start, oncePerDocument: spec.oncePerDocument) {
                outcomes.append(.kept("not rewritten: \(engine.modelName) \(skip)"))
                continue
            }
            if let budget = request.budget {
                let promptTokens = TokenCount.estimate(for: spec.instructions + job.prompt).count
                if let skip = await budgetSkip(engine, key: key, promptTokens: promptTokens, responseTokens: spec.maximumTokens, budget: budget) {
                    outcomes.append(.kept("not rewritten: \(skip)"))
                    continue
                }
            }
            let started = clock.now()
            var outcome: AttemptOutcome? = nil
            var usage = Usage(promptTokens: 0, completionTokens: 0)
            do {
                var generation = spec.request(prompt: prompt, schema: job.schema, ideographs: materialUsesCJK)
                generation.reusesPromptPrefix = true
                let sent = generation
                let refusal = job.settledRefusal
                let response = try await metered(engine, sent, key: key, deadline: request.budget) {
                    guard let refusal, engine.streamsCheaply else { return try await engine.respond(to: sent) }
                    return try await self.streamed(engine, to: sent, finishReason: ItemAnswers.stoppedFinishReason, showing: false) { text in
                        refusal(AnswerSoFar(partial: text)) != nil
                    }
                }
                usage = response.usage
                let answer: ItemAnswers.Answer = switch response.finishReason {
                case "length": .cut
                case ItemAnswers.stoppedFinishReason: .stopped(response.text)
                default: .text(response.text)
                }
                itemAnswers[asked] = answer
                storeItemAnswer(answer, key: stored, spec: spec, engine: engine, request: request)
                let judged = Self.judge(answer, job: job, spec: spec, materialUsesCJK: materialUsesCJK)
                outcome = judged.attempt
                outcomes.append(judged.item)
            } catch {
                outcome = Self.outcome(for: error)
                outcomes.append(.kept("not rewritten: \(Self.reason(for: error))"))
            }
            recordAttempt(key, outcome: outcome, started: started, usage: usage, log: log)
            if let outcome {
                failuresInARow = outcome == .accepted ? 0 : failuresInARow + 1
                answered += 1
                if outcome == .accepted { acceptedHere += 1 }
            }
        }
        return outcomes
    }

    /// How one item's answer counts in the record, and what becomes of the item.
    static func judge(
        _ answer: ItemAnswers.Answer, job: ItemJob, spec: ItemSpec, materialUsesCJK: Bool
    ) -> (attempt: AttemptOutcome, item: ItemOutcome) {
        let text: String
        switch answer {
        case .cut:
            return (.cut, .kept("not rewritten: the answer reached its \(spec.maximumTokens)-token limit"))
        case .stopped(let written):
            // Stopped by a settled rule, which says why once more from what was written.
            let soFar = AnswerSoFar(partial: written)
            let reason = job.settledRefusal?(soFar) ?? "the answer was stopped before its end"
            return (.invalid, .kept("not rewritten: " + Self.quotingAnswer(reason, soFar.json, stopped: true)))
        case .text(let written):
            text = written
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(ModelOutputText.unfenced(text), allowingRawControlCharacters: true)
        } catch {
            return (.invalid, .kept("not rewritten: \(Self.reason(for: error))"))
        }
        let verdict = LanguageRule.scriptIssues(in: json, materialUsesCJK: materialUsesCJK).first.map {
            Result<String, ItemRejection>.failure(ItemRejection(reason: "the answer \($0.message)"))
        } ?? job.verdict(json)
        switch verdict {
        case .success(let rewritten):
            return (.accepted, .rewritten(rewritten))
        case .failure(let rejection):
            return (.invalid, .kept("not rewritten: " + Self.quotingAnswer(rejection.reason, json)))
        }
    }

    /// `reason`, followed by what the model wrote (its first text field, shortened) unless the
    /// reason already quotes it, so a student or a maintainer sees what was refused:
    /// `the question gave its answer away (“What makes extra ATP but no NADPH?”)`.
    static func quotingAnswer(_ reason: String, _ json: JSONValue, stopped: Bool = false) -> String {
        // The longest string the model wrote says most of what it did: a card's question, not
        // its answer, which the card fixes anyway.
        guard !reason.contains("“"), case .object(let fields) = json else { return reason }
        let texts: [String] = fields.keys.compactMap { fields[$0]?.stringValue }.map(ProseText.oneLine)
        let longestFirst = texts.sorted { (left: String, right: String) -> Bool in
            left.count != right.count ? left.count > right.count : left < right
        }
        guard let said = longestFirst.first, !said.isEmpty else { return reason }
        // A stopped answer is quoted as far as it went, which the ellipsis says.
        var quoted = ProseText.shortened(said, maxLength: 100)
        if stopped, !quoted.hasSuffix("…") { quoted += "…" }
        return reason + " (“" + quoted + "”)"
    }

    // MARK: flashcards

    static let cardSpec = ItemSpec(
        name: "card", version: "flashcards.card/8",
        instructions: """
            You turn one fill-in-the-blank study card into a short natural question and its answer.
            The answer is the missing words, shown in square brackets in the sentence. The question asks for them without containing them and ends with a question mark.
            Example. Sentence: The Calvin cycle takes place in the [stroma]. Missing words: stroma
            {"answer": "stroma", "question": "Where does the Calvin cycle take place?"}
            Example. Sentence: [Chlorophyll] absorbs red and blue light. Missing words: Chlorophyll
            {"answer": "Chlorophyll", "question": "What absorbs red and blue light?"}
            Reply with a JSON object with "answer" and "question".
            """,
        schema: cardSchema(answer: .string(maxLength: 50, maxWords: 6, forbiddenCharacters: "\n")),
        // Bounded by the words above: 24 words of a card and the JSON around them.
        maximumTokens: 80, recordedUnder: .flashcards)

    /// A card rewrite's answer shape: the answer first, then the question. Each card fixes its
    /// answer to its missing words (``cardJob(_:path:materialStems:)``), so the model writes the
    /// question after the answer it asks for: asked for the question first, the 0.5B answered a
    /// question of its own in most refused cards ("What releases CO2 at a high concentration
    /// for RuBisCO?" — "CO2"), which gave the answer away or was not the card's.
    static func cardSchema(answer: GenerationSchema) -> GenerationSchema {
        .object([
            .init("answer", description: "The missing words.", answer),
            // At least 4 words ending as a sentence, in the grammar: SmolLM2 otherwise wrote
            // "Calvin cycle?" or a statement for 4 of 6 cards. No underscore either: a question
            // with one is always refused (the blank copied, "… released for the______."), so the
            // grammar makes the model write past the blank instead of spending the attempt. No
            // square bracket: the prompt marks the missing words with them, and a question that
            // copies the marks ("… whose keys [hash] to that bucket?") is no question to show.
            .init("question", description: "A natural question about the sentence.",
                  .string(maxLength: 120, maxWords: 18, forbiddenCharacters: "\n_[]", meaning: Self.rewrittenQuestion)),
        ])
    }

    /// The question word `question` put where the card's blank was, when the rest is the card's
    /// sentence as it stands ("In October the Convention declared that the government of what
    /// would be revolutionary until the peace, …?" for "… the government of _____ would be …"):
    /// no rewrite, and no better read than the card. `nil` for any other question.
    static func whWordInTheBlank(_ question: String, card cloze: String) -> String? {
        guard cloze.contains("_____") else { return nil }
        let asked = Grounding.normalizedWords(question)
        for word in ["what", "which", "who", "whom", "when", "where", "how"] {
            if Grounding.normalizedWords(cloze.replacingOccurrences(of: "_____", with: word)) == asked { return word }
        }
        return nil
    }

    /// The card's sentence with its missing words in square brackets, as a card rewrite shows it:
    /// "The Calvin cycle takes place in the [stroma]." The sentence is said once. The prompt gave
    /// it twice before, the sentence and then the card with its blank, and the second copy was
    /// half of the prompt tokens each card reads after the shared instructions. Without the
    /// sentence (the card alone) the model guessed at facts the blank hid and wrote more wrong
    /// cards; without the card, fewer good ones (benchmarks/RESULTS.md). A card with no blank
    /// (none the builtin engine makes) shows its quote.
    static func markedSentence(_ card: Flashcards.Card) -> String {
        guard let blank = card.question.range(of: "_____") else { return card.quote }
        return card.question.replacingCharacters(in: blank, with: "[" + card.answer + "]")
    }

    /// A rewritten card's question: a sentence of 4 words or more, 2 of them content words.
    static let rewrittenQuestion = ItemMeaning(noun: "a question", minimumContentWords: 2, minimumWords: 4, isSentence: true)

    /// - Parameter subjectAnswers: whether a question that asks for the sentence's subject
    ///   instead of the blank may become a card with the subject as its answer
    ///   (``subjectAnswer(_:quote:)``): a flashcard's answer is its own, a quiz question's is
    ///   fixed by its choices.
    static func cardJob(_ card: Flashcards.Card, path: String, materialStems: Set<String>, subjectAnswers: Bool = false) -> ItemJob {
        let prompt = "Sentence: \(Self.markedSentence(card))\nMissing words: \(card.answer)"
        let passedOver = RewriteOrder.blankInAList(card.question)
            ? "the missing words are one of a list, which the small model's questions do not single out" : nil
        return ItemJob(
            path: path, prompt: prompt, schema: cardSchema(answer: .stringEnum([card.answer])), passedOver: passedOver
        ) { json in
            guard let question = json["question"]?.stringValue.map(ProseText.oneLine),
                let answer = json["answer"]?.stringValue.map(ProseText.oneLine)
            else { return .failure(ItemRejection(reason: "the answer lacked a question or an answer")) }
            guard question.hasSuffix("?"), ProseText.wordCount(question) >= 4 else {
                return .failure(ItemRejection(reason: "the question was not a question of 4 words or more"))
            }
            if question.contains("_") { return .failure(ItemRejection(reason: "the question still had the blank in it")) }
            if let word = Self.whWordInTheBlank(question, card: card.question) {
                return .failure(ItemRejection(reason: "the question was the card's sentence with “\(word)” in the blank"))
            }
            if let malformed = Self.malformedQuestion(question, quote: card.quote) { return .failure(ItemRejection(reason: malformed)) }
            let questionWords = Grounding.normalizedWords(question).joined(separator: " ")
            let answerWords = Grounding.normalizedWords(answer).joined(separator: " ")
            guard !answerWords.isEmpty, !(" " + questionWords + " ").contains(" " + answerWords + " ") else {
                if subjectAnswers, let subject = Self.subjectAnswer(question, quote: card.quote),
                    Grounding.supportProblem(question: question, answer: subject, quote: card.quote) == nil
                {
                    return .success(question + "\u{1F}" + subject)
                }
                return .failure(ItemRejection(reason: "the question gave its answer away"))
            }
            let quoteStems = Set(Grounding.contentStems(card.quote))
            let answerStems = Grounding.contentStems(answer)
            // A year or a number ("1789") has no content stem: it is taken from the sentence
            // when its words stand there as they are.
            let taken = answerStems.isEmpty
                ? Grounding.containsRun(Grounding.normalizedWords(answer), in: Grounding.normalizedWords(card.quote))
                : answerStems.allSatisfy(quoteStems.contains)
            guard taken else {
                return .failure(ItemRejection(reason: "the answer was not taken from the sentence"))
            }
            // The card's answer is the blank's words: a model answering its own vaguer question
            // ("What is the rate of photosynthesis?" — "carbon dioxide") makes a wrong card.
            let blank = Set(Grounding.contentStems(card.answer))
            let given = Set(answerStems)
            let sameAnswer = blank.isEmpty
                ? Grounding.normalizedWords(answer) == Grounding.normalizedWords(card.answer)
                : blank.isSubset(of: given) && given.count <= blank.count + 1
            guard sameAnswer else {
                return .failure(ItemRejection(reason: "the answer was not the card's missing words"))
            }
            let questionStems = Grounding.contentStems(question)
            let grounded = questionStems.filter(materialStems.contains).count
            guard !questionStems.isEmpty, grounded * 3 >= questionStems.count * 2,
                questionStems.contains(where: quoteStems.contains)
            else { return .failure(ItemRejection(reason: "the question used words the material does not have")) }
            // The third of its words the question may add must be English words: words glued
            // together to stay within the grammar's word limit ("… exerts aforce?", "… in
            // the bucket array, and akeythatcollidesis?") are neither the material's nor in
            // the frequency table.
            if let invented = Self.inventedWord(in: question, materialStems: materialStems, isEnglish: Self.isInTheFrequencyTable) {
                return .failure(ItemRejection(reason: "the question used a word that is neither the material's nor English (\(invented))"))
            }
            guard !ResultProse.sameText(question, answer) else { return .failure(ItemRejection(reason: "the answer repeated the question")) }
            // The question asks what the card asks: it keeps the card's own content words (at
            // least 3, or half of them), not a vaguer question the blank's words happen to answer.
            // A short question made only of the card's words asks it too when it keeps the words
            // next to the blank: "What takes place in chloroplasts?" for "In plants, _____ takes
            // place in chloroplasts, which are found mainly in the mesophyll cells of leaves."
            let cardStems = Set(Grounding.contentStems(card.question))
            let questionSet = Set(questionStems)
            let kept = cardStems.intersection(questionStems).count
            let neighbours = Self.blankNeighbours(card.question).filter { !$0.isEmpty }
            let keepsPlace = neighbours.allSatisfy { !$0.isDisjoint(with: questionSet) }
            let onlyCardWords = questionSet.count >= 2 && questionSet.isSubset(of: cardStems) && keepsPlace
            // A glossary entry asked for by its description's relative clause ("What absorbs light
            // energy in the photosystems?" — Chlorophyll) asks what the card asks, in its own place.
            // So does a question that ends on the words right before the blank, its place in the
            // sentence ("What is the lagging strand made away from?" — fork, #53).
            let byItsClause = Self.asksForTheEntryByItsClause(question, of: card)
                || Self.endsWhereTheBlankStands(question, of: card)
            guard kept >= min(3, (cardStems.count + 1) / 2) || onlyCardWords || byItsClause else {
                return .failure(ItemRejection(reason: "the question did not ask what the card asks"))
            }
            // It asks about the blank's own place: the words next to the blank, on each side
            // that has any in its clause, are in the question. "What is the default Debian
            // Python 2 version?" shares four words with "The _____ python2-doc will always
            // provide the documentation for the default Debian Python 2 version", yet its answer
            // is not "binary package".
            guard keepsPlace || byItsClause else {
                return .failure(ItemRejection(reason: "the question did not ask about the missing words' place in the sentence"))
            }
            if !byItsClause, Self.asksAnotherPart(question, of: card) {
                return .failure(ItemRejection(reason: "the question asked for another part of the sentence than the missing words"))
            }
            if !byItsClause, Self.swapsSubjectAndObject(question, of: card) {
                return .failure(ItemRejection(reason: "the question turned the sentence around: the missing words are what its verb acts on, not who acts"))
            }
            if !byItsClause, Self.asksWhatTheBlankActsOn(question, of: card) {
                return .failure(ItemRejection(reason: "the question turned the sentence around: the missing words are who acts, not what its verb acts on"))
            }
            // Judges that say their own reason, each asked only when the one before found nothing.
            if let other = Self.otherQuantity(question, of: card) ?? Self.otherKind(question, answer: answer)
                ?? Self.splicesTwoMentions(question, of: card)
                ?? Self.verbFromAnotherClause(question, of: card) ?? (byItsClause ? nil : Self.dropsTheDescriptionsHead(question, of: card))
            {
                return .failure(ItemRejection(reason: other))
            }
            if let verb = Self.sharedVerb(question, answer: answer) {
                return .failure(ItemRejection(reason: "the question used the answer's own verb (“\(verb)”): the missing words run into the sentence's verb"))
            }
            // The card's sentence carries the answer and what the question asks (#53).
            if let problem = Grounding.supportProblem(question: question, answer: answer, quote: card.quote) {
                return .failure(ItemRejection(reason: "the card's sentence \(problem)"))
            }
            return .success(question + "\u{1F}" + answer)
        }
    }

    /// The sentence's subject, as the answer of `question` when that asks for it: "What" and then
    /// the rest of the sentence's first clause word for word ("What makes extra ATP but no NADPH
    /// and no oxygen?" of "Cyclic flow makes extra ATP but no NADPH and no oxygen; …" gives
    /// "Cyclic flow"). The 0.5B asks for the subject in most cards whose blank is elsewhere, and
    /// such a question gives the blank away; its own answer is right there. `nil` unless the
    /// subject is 1 to 6 plain words with a content word, opens the sentence, is no pronoun, no
    /// preposition's phrase and no question word, and is not in the question; a leading article
    /// is dropped.
    static func subjectAnswer(_ question: String, quote: String) -> String? {
        guard question.hasPrefix("What "), question.hasSuffix("?") else { return nil }
        let asked = Grounding.normalizedWords(String(question.dropFirst(5)))
        let spanOpeners: Set<String> = ["of", "and", "or", "in", "on", "at", "to", "for", "with", "by", "from", "as", "than", "that", "which", "who"]
        guard asked.count >= 3, let opener = asked.first, !spanOpeners.contains(opener) else { return nil }
        // The quote's words as ``Grounding/normalizedWords(_:)`` splits them, each where it stands.
        let runs = quote.split { !($0.isLetter || $0.isNumber) }
        let words = runs.map { $0.lowercased() }
        guard let start = Grounding.runStarts(asked, in: words).first(where: { (1...6).contains($0) }) else { return nil }
        // The span ends the clause: the sentence ends there, or punctuation follows.
        let after = runs[start + asked.count - 1].endIndex
        if let next = quote[after...].first(where: { !$0.isWhitespace }), !",;:.!?—–(".contains(next) { return nil }
        let subjectWords = Array(words[..<start])
        let excluded: Set<String> = [
            "what", "which", "who", "whom", "whose", "how", "why", "when", "where", "it", "its", "this", "that", "these", "those",
            "they", "he", "she", "we", "you", "there", "here",
            // An adverb belongs to the clause, not to its subject: "The table then maps …".
            "then", "also", "now", "still", "often", "usually", "thus", "therefore", "however", "only", "just", "soon",
            "later", "first", "finally", "always", "never", "sometimes", "already", "again", "even",
        ]
        guard subjectWords.allSatisfy({ !excluded.contains($0) }), !placePrepositions.contains(subjectWords[0]) else { return nil }
        var subject = quote[quote.startIndex..<runs[start].startIndex].trimmingCharacters(in: .whitespaces)
        guard subject.allSatisfy({ $0.isLetter || $0.isNumber || " -'’".contains($0) }),
            !Grounding.contentStems(subject).isEmpty,
            !Grounding.containsRun(Grounding.normalizedWords(subject), in: Grounding.normalizedWords(question))
        else { return nil }
        if subjectWords.count > 1, ["the", "a", "an"].contains(subjectWords[0]) {
            subject = String(subject.drop { !$0.isWhitespace }).trimmingCharacters(in: .whitespaces)
        }
        // One common word ("The idea was not new …") names nothing a student could recall.
        if !subject.contains(" "), subject.first?.isLowercase == true, EnglishFrequency.isCommon(subject) { return nil }
        return subject
    }

    /// Whether `question` ends on the words that stand right before the card's blank (at least
    /// two, after any article), and every content word it has stands in the blank's clause before
    /// it: "What is the lagging strand made away from?" of "The lagging strand is made away from
    /// the _____ in short pieces called Okazaki fragments." (fork). The question asks for what
    /// comes next in the sentence, which is the blank — whatever the words after the blank are.
    static func endsWhereTheBlankStands(_ question: String, of card: Flashcards.Card) -> Bool {
        guard let blank = card.question.range(of: "_____"), question.hasSuffix("?") else { return false }
        var before = Grounding.normalizedWords(String(card.question[..<blank.lowerBound]))
        while let last = before.last, ["the", "a", "an", "its", "their", "his", "her"].contains(last) {
            before.removeLast()
        }
        let asked = Grounding.normalizedWords(question)
        guard asked.count >= 4, before.count >= 2 else { return false }
        // The words the question ends on, 2 to 4 of them, as the sentence has them before the blank.
        let ending = (2...min(4, before.count)).contains { length in
            Array(asked.suffix(length)) == Array(before.suffix(length))
        }
        guard ending else { return false }
        // Its content words are the clause's before the blank (from its last comma or semicolon).
        let head = String(card.question[..<blank.lowerBound])
        let clause = head.split(whereSeparator: { ",;:".contains($0) }).last.map(String.init) ?? head
        let clauseStems = Set(Grounding.contentStems(clause))
        let questionStems = Grounding.contentStems(question)
        return !questionStems.isEmpty && questionStems.allSatisfy(clauseStems.contains)
    }

    /// Where a cloze card's first blank stands among its sentence's words: the cloze's words
    /// before the blank are the sentence's. `nil` without a blank.
    static func blankStart(in cloze: String) -> Int? {
        cloze.range(of: "_____").map { TermNormalizer.words(in: String(cloze[..<$0.lowerBound])).count }
    }

    /// Whether a "What", "Who" or "Which" question asks for another part of the card's sentence
    /// than its blank. A run of the question's content words that stands in the sentence (at
    /// least 2, or its one) is what the answer goes with: the blank must stand right before one
    /// (at most one word of content between: "_____ is probably the most abundant protein"), or
    /// right after it with only "is", "called", an article and the like between, in its clause
    /// ("The main pigment is _____", "Isaac Newton published his _____"). Each run the Qwen 0.5B
    /// asked about elsewhere made a wrong card: "What is the demand curve?" — quantity, of "A
    /// demand curve is a graph of price against _____ demanded"; "What reflects green light?" —
    /// leaves, of "Chlorophyll … reflects green light, which is why _____ look green"; "What is
    /// the load factor?" — 8, of "The load factor is 3 divided by _____". A question whose words
    /// do not stand in the sentence as a run of two is not judged here.
    static func asksAnotherPart(_ question: String, of card: Flashcards.Card) -> Bool {
        let questionWords = TermNormalizer.words(in: question)
        guard let opener = questionWords.first?.lowercased, ["what", "who", "which"].contains(opener),
            let blankStart = blankStart(in: card.question)
        else { return false }
        let asked = questionWords.dropFirst().filter(Grounding.isContent).map(\.stem)
        let words = TermNormalizer.words(in: card.quote)
        let answerWords = TermNormalizer.words(in: card.answer)
        let blankEnd = blankStart + answerWords.count
        guard !asked.isEmpty, !answerWords.isEmpty, blankEnd <= words.count,
            zip(words[blankStart..<blankEnd], answerWords).allSatisfy({ $0.lowercased == $1.lowercased })
        else { return false }
        let positions = words.indices.filter { Grounding.isContent(words[$0]) }
        let stems = positions.map { words[$0].stem }
        // Every run of the question's content stems (two or more, or its one) that stands in the
        // sentence: a long question ("What laws did Isaac Newton publish in 1687 in the Principia
        // (…)?") has its longest run away from the blank, and a shorter one next to it.
        var runs: [(start: Int, end: Int, from: Int)] = []
        for length in stride(from: min(asked.count, stems.count), through: asked.count == 1 ? 1 : 2, by: -1) {
            for from in 0...(asked.count - length) {
                for at in Grounding.runStarts(Array(asked[from..<(from + length)]), in: stems) {
                    runs.append((positions[at], positions[at + length - 1] + 1, from))
                }
            }
        }
        guard !runs.isEmpty else { return false }
        let chars = Array(card.quote)
        // What may stand between the question's words and an answer after them: "is", "called",
        // an article or a possessive ("Isaac Newton published his _____").
        let links: Set<String> = [
            "is", "are", "was", "were", "be", "been", "being", "called", "named", "known", "as", "a", "an", "the",
            "his", "her", "its", "their", "our", "your", "my", "this", "these", "those", "some",
        ]
        let answersARun = runs.contains { run in
            if blankEnd <= run.start {
                return words[blankEnd..<run.start].count(where: { !$0.isStopword }) <= 1
            }
            // "Which package, python2-doc, …" of "The _____ python2-doc …" (binary package): the
            // word after "Which" names the answer's last word, and the question goes on from
            // there. Not a verb the answer ends on: "What do sellers want to buy?" — buyers want.
            let namesTheAnswer = run.from == 0 && questionWords.count > 1 && !questionWords[1].isStopword
            if namesTheAnswer, run.start > blankStart, run.start < blankEnd, run.end > blankEnd { return true }
            guard blankStart >= run.end else { return false }
            // The word a question ends on stands before its answer: a preposition ("What is the
            // load factor 3 divided by?" of "… 3 divided by _____") or a verb ("What does a change
            // in motion, an acceleration, need?" of "…, an acceleration, needs a _____").
            let last = questionWords.last?.stem
            let between = words[run.end..<blankStart]
            let linked = between.allSatisfy { links.contains($0.lowercased) || $0.stem == last }
            let gap = chars[words[run.end - 1].offsets.upperBound..<words[blankStart].offsets.lowerBound]
            guard gap.contains(where: { ",;:".contains($0) }) else { return linked }
            // Across a comma only to the next item of a list ("depends on light intensity,
            // _____ and temperature") or to the question's last word, never into the next
            // clause ("As the load factor rises, _____ become more frequent").
            if linked, let verb = between.lastIndex(where: { $0.stem == last }),
                !chars[words[verb].offsets.upperBound..<words[blankStart].offsets.lowerBound].contains(where: { ",;:".contains($0) })
            {
                return true
            }
            let next = words.indices.contains(blankEnd) ? words[blankEnd].lowercased : ""
            return blankStart == run.end && (next == "and" || next == "or" || chars[words[blankEnd - 1].offsets.upperBound...].first == ",")
        }
        return !answersARun
    }

    /// Whether a "Who" or "What" question makes the sentence's subject the object of its verb
    /// while the blank is that verb's object: "Who sued Fust to recover his money?" of "In 1455
    /// Fust sued _____ to recover his money" asks who sued, and the blank (Gutenberg) was sued.
    /// A passive sentence is no such case: "Who paid for the project?" of "The project was paid
    /// for with loans from the merchant _____" has other words between the verb and the blank.
    static func swapsSubjectAndObject(_ question: String, of card: Flashcards.Card) -> Bool {
        let questionWords = TermNormalizer.words(in: question)
        guard let opener = questionWords.first?.lowercased, ["what", "who"].contains(opener),
            let blankStart = blankStart(in: card.question)
        else { return false }
        let asked = questionWords.dropFirst().filter(Grounding.isContent)
        guard asked.count >= 2 else { return false }
        let (verb, actor) = (asked[asked.startIndex].stem, asked[asked.startIndex + 1].stem)
        let words = TermNormalizer.words(in: card.quote)
        guard blankStart <= words.count else { return false }
        let articles: Set<String> = ["a", "an", "the", "his", "her", "its", "their"]
        for index in words.indices where words[index].stem == actor && index + 1 < blankStart {
            // The actor's next word of content is the verb, and the blank follows the verb; an
            // actor may be a phrase with "of" ("the shortage of labour weakened the _____", #53).
            var next = words[(index + 1)..<blankStart].firstIndex(where: Grounding.isContent)
            if let found = next, words[found].stem != verb, found >= 1, words[found - 1].lowercased == "of",
                !words[found].followsBreak
            {
                next = words[(found + 1)..<blankStart].firstIndex(where: Grounding.isContent)
            }
            guard let next, words[next].stem == verb, !words[next].followsBreak else { continue }
            if words[(next + 1)..<blankStart].allSatisfy({ articles.contains($0.lowercased) }) { return true }
        }
        return asksTheAgentAsTheObject(question, of: card)
    }

    /// Whether a "What" or "Who" question makes a passive sentence's agent the object of its
    /// verb: "What causes the Moon's gravity pulling on the Earth's oceans?" of "_____ are caused
    /// mainly by the Moon's gravity pulling on the Earth's oceans" (Tides) asks what causes the
    /// gravity, where the gravity causes the blank.
    static func asksTheAgentAsTheObject(_ question: String, of card: Flashcards.Card) -> Bool {
        let questionWords = TermNormalizer.words(in: question)
        guard questionWords.count >= 3, ["what", "who"].contains(questionWords[0].lowercased),
            let blankStart = blankStart(in: card.question)
        else { return false }
        let words = TermNormalizer.words(in: card.quote)
        let blankEnd = blankStart + TermNormalizer.words(in: card.answer).count
        // "_____ are caused (mainly) by …": a form of "be", a participle, at most one word, "by".
        let copulas: Set<String> = ["is", "are", "was", "were", "be", "been"]
        guard blankEnd + 2 < words.count, copulas.contains(words[blankEnd].lowercased) else { return false }
        let participle = words[blankEnd + 1]
        guard let by = words[(blankEnd + 2)...].prefix(2).firstIndex(where: { $0.lowercased == "by" }) else {
            return false
        }
        let agent = Set(words[(by + 1)...].prefix(4).filter(Grounding.isContent).map(\.stem))
        // The question's verb is the participle's, and the agent's words follow it as its object.
        let verb = questionWords[1]
        guard ClaimWords.key(verb) == ClaimWords.key(participle) || verb.stem == participle.stem else {
            return false
        }
        let object = Set(questionWords.dropFirst(2).filter(Grounding.isContent).map(\.stem))
        return !agent.isEmpty && object.intersection(agent).count * 2 >= agent.count
    }

    /// Whether a "What did X verb?" question asks for what the verb acts on while the blank is
    /// who acts: "What did the Declaration of the Rights of Man and of the Citizen adopt?" of "On
    /// 26 August 1789 the _____ adopted the Declaration of the Rights of Man and of the Citizen"
    /// (Assembly) — the sentence's verb comes right after the blank, and the question's subject
    /// stands after that verb.
    static func asksWhatTheBlankActsOn(_ question: String, of card: Flashcards.Card) -> Bool {
        let questionWords = TermNormalizer.words(in: question)
        guard questionWords.count >= 4, ["what", "who", "whom"].contains(questionWords[0].lowercased),
            ["did", "does", "do"].contains(questionWords[1].lowercased),
            let blankStart = blankStart(in: card.question)
        else { return false }
        let asked = questionWords.dropFirst(2).filter(Grounding.isContent)
        guard asked.count >= 2, let subject = asked.first?.stem, let verb = asked.last?.stem else { return false }
        let words = TermNormalizer.words(in: card.quote)
        let blankEnd = blankStart + TermNormalizer.words(in: card.answer).count
        guard blankEnd < words.count, let next = words[blankEnd...].firstIndex(where: Grounding.isContent), words[next].stem == verb
        else { return false }
        return words[(next + 1)...].contains { $0.stem == subject }
    }

    /// A word of `answer` that `question` says too and that reads as a verb: a form in "-s" or
    /// "-ed", or a word that is never a noun. Such an answer ran from its subject into the
    /// sentence's verb, and the question made the verb its own: "What rests on a table?" — book
    /// rests, "What does a swimmer push backwards on the water?" — swimmer pushes, "What does a
    /// demand curve normally slope from left to right?" — normally slopes. The noun a "What" or
    /// "Which" asks for is no verb ("What laws did Isaac Newton publish?" — three laws, "In which
    /// climate …?" — dry climates); neither is a capitalised name.
    static func sharedVerb(_ question: String, answer: String) -> String? {
        let questionWords = TermNormalizer.words(in: question)
        let asked = Set(questionWords.map(\.stem))
        // The nouns right after "what" and "which", before the question's auxiliary ("What laws
        // did …", "which climate is …"; not "What rests on …").
        let auxiliaries: Set<String> = ["do", "does", "did", "is", "are", "was", "were", "can", "could", "will", "would", "has", "have", "had"]
        let whNouns = Set(questionWords.indices.dropLast(2).compactMap { index -> String? in
            guard ["what", "which"].contains(questionWords[index].lowercased),
                auxiliaries.contains(questionWords[index + 2].lowercased)
            else { return nil }
            return questionWords[index + 1].stem
        })
        func inflected(_ form: String) -> Bool { form.hasSuffix("s") && !form.hasSuffix("ss") || form.hasSuffix("ed") }
        return TermNormalizer.words(in: answer).first { word in
            guard word.surface == word.lowercased, Grounding.isContent(word), asked.contains(word.stem), !whNouns.contains(word.stem)
            else { return false }
            let form = word.lowercased
            if inflected(form) || EnglishWordClass.isNeverNoun(form) { return true }
            // The question inflects the answer's word as its verb: "What releases cytokines …?" —
            // release signalling molecules, "What flows back from the lumen …?" — protons flow back.
            return questionWords.contains { $0.stem == word.stem && $0.surface == $0.lowercased && $0.lowercased != form && inflected($0.lowercased) }
        }?.surface
    }

    /// Why a question asks for another quantity than the card's number is of, or `nil`: the unit
    /// that ends the answer or follows the blank ("2 kg", "_____ m/s²") says what the number
    /// measures, and a question naming another quantity asks for another number of the sentence
    /// ("What is the mass of the person on the Moon?" — 1.6, of "where g is about _____ m/s²";
    /// "What is the force in Newton's second law?" — 2 kg). A question that names no quantity, or
    /// a unit this table does not know, is not judged.
    static func otherQuantity(_ question: String, of card: Flashcards.Card) -> String? {
        func unit(_ token: Substring?) -> String? {
            guard let token else { return nil }
            let trimmed = token.trimmingCharacters(in: CharacterSet(charactersIn: ",.;:)!?"))
            return unitQuantities[trimmed] != nil ? trimmed : nil
        }
        let after = card.question.range(of: "_____").map { card.question[$0.upperBound...].split(separator: " ").first } ?? nil
        guard let found = unit(card.answer.split(separator: " ").last) ?? unit(after), let allowed = unitQuantities[found] else { return nil }
        let words = Set(Grounding.normalizedWords(question))
        let named = quantityWords.filter(words.contains)
        guard !named.isEmpty, named.isDisjoint(with: allowed) else { return nil }
        return "the question asked for a \(named.sorted()[0]), but the missing number is in \(found)"
    }

    /// What a unit measures, as the words a question names it by.
    static let unitQuantities: [String: Set<String>] = {
        let mass: Set<String> = ["mass"]
        let acceleration: Set<String> = ["acceleration", "gravity", "deceleration"]
        let speed: Set<String> = ["speed", "velocity"]
        let force: Set<String> = ["force", "weight", "thrust", "friction", "tension", "drag", "lift"]
        let energy: Set<String> = ["energy", "work", "heat"]
        let power: Set<String> = ["power"]
        let length: Set<String> = ["distance", "length", "height", "width", "depth", "displacement", "radius", "diameter", "wavelength"]
        let time: Set<String> = ["time", "period", "duration"]
        let temperature: Set<String> = ["temperature"]
        return [
            "kg": mass, "mg": mass, "tonnes": mass,
            "m/s²": acceleration, "m/s2": acceleration, "m/s^2": acceleration,
            "m/s": speed, "km/h": speed, "mph": speed,
            "N": force, "kN": force,
            "J": energy, "kJ": energy, "kWh": energy, "kcal": energy,
            "W": power, "kW": power, "MW": power,
            "m": length, "km": length, "cm": length, "mm": length,
            "s": time, "ms": time,
            "°C": temperature, "K": temperature,
        ]
    }()

    /// Every quantity word of ``unitQuantities``.
    static let quantityWords: Set<String> = unitQuantities.values.reduce(into: Set<String>()) { $0.formUnion($1) }

    /// The content stems next to a cloze card's first blank: up to two on its left and two on
    /// its right, each side stopping at the clause's edge (`,` `;` `:` and brackets). A date's
    /// words are no neighbours: "What declared itself the National Assembly?" asks for the
    /// blank of "… on 17 June the _____ declared itself the National Assembly" without its date,
    /// and "What year does the Third Estate declare itself the National Assembly?" for the blank
    /// of "17 June _____: the Third Estate declares …" (numbers are no content stems anyway).
    static func blankNeighbours(_ cloze: String) -> [Set<String>] {
        guard let blank = cloze.range(of: "_____") else { return [] }
        func clause(_ text: Substring, fromEnd: Bool) -> String {
            let edges: Set<Character> = [",", ";", ":", "(", ")", "—", "–"]
            if fromEnd { return String(text.reversed().prefix { !edges.contains($0) }.reversed()) }
            return String(text.prefix { !edges.contains($0) })
        }
        let left = Grounding.contentStems(clause(cloze[..<blank.lowerBound], fromEnd: true).replacingOccurrences(of: "_", with: " "))
        let right = Grounding.contentStems(clause(cloze[blank.upperBound...], fromEnd: false).replacingOccurrences(of: "_", with: " "))
        return [Set(left.filter { !monthStems.contains($0) }.suffix(2)), Set(right.filter { !monthStems.contains($0) }.prefix(2))]
    }

    /// The months' names as content stems.
    static let monthStems = Set(Grounding.contentStems(WordLists.monthNames.joined(separator: " ")))

    static func splitCard(_ text: String) -> (String, String)? {
        let parts = text.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
        return parts.count == 2 ? (parts[0], parts[1]) : nil
    }

    // MARK: summary overview

    static let overviewSpec = ItemSpec(
        name: "overview", version: "summary.overview/3",
        instructions: """
            You write the overview of a student's study material from its key sentences.
            Write 2 or 3 short sentences on one line, using only facts in the key sentences.
            Reply with a JSON object with "overview".
            """,
        schema: .object([
            .init("overview", description: "2 or 3 sentences.", .string(maxLength: 400, maxWords: 60, forbiddenCharacters: "\n", sentences: 2...3)),
        ]),
        maximumTokens: 160, oncePerDocument: true)

    /// The versions of the item jobs asked once per document (``ItemSpec/oncePerDocument``), for
    /// reading their record where only its key is at hand (`studykit engines`).
    static let oncePerDocumentVersions: Set<String> = [overviewSpec.version]

    static func overviewJob(sentences: [String], keyPoints: [String], extracted: String, materialStems: Set<String>) -> ItemJob {
        let prompt = "Key sentences:\n" + sentences.enumerated().map { "\($0 + 1). \($1)" }.joined(separator: "\n")
        var job = ItemJob(path: "overview", prompt: prompt, passedOver: overviewPassedOver) { json in
            guard let overview = json["overview"]?.stringValue.map(ProseText.oneLine) else {
                return .failure(ItemRejection(reason: "the answer had no overview"))
            }
            if let issue = Summary(overview: overview, keyPoints: keyPoints).validationIssues().first {
                return .failure(ItemRejection(reason: "the overview \(issue.description)"))
            }
            let stems = Grounding.contentStems(overview)
            guard !stems.isEmpty, stems.filter(materialStems.contains).count * 5 >= stems.count * 4 else {
                return .failure(ItemRejection(reason: "the overview used words the material does not have"))
            }
            // The fifth of its words the overview may add must be plain English: a word that is
            // neither the material's nor common ("arepublican", SmolLM2 on long.pdf) is made up.
            if let invented = Self.inventedWord(in: overview, materialStems: materialStems) {
                return .failure(ItemRejection(reason: "the overview used a word that is neither the material's nor English (\(invented))"))
            }
            guard !ResultProse.sameText(overview, extracted) else {
                return .failure(ItemRejection(reason: "the model repeated the extracted overview"))
            }
            // Strung together from the key sentences word for word, it is the extracted overview
            // again, not one a model wrote (Qwen2.5-Coder-0.5B on long.pdf: three key sentences,
            // a comma added).
            guard ItemRules.copiedShare(overview, from: sentences) < 0.75 else {
                return .failure(ItemRejection(reason: "the overview copied the key sentences word for word"))
            }
            return .success(overview)
        }
        // Nor does it open with a key sentence copied (nine words in ten): that is the extracted
        // overview's start again, whatever follows, and the 0.5B, having copied one, copied the
        // next ones too (2 s of decoding on long.pdf) — so the answer is stopped once its first
        // sentence ends. A first sentence that keeps a key sentence's words in another order or
        // with a few of its own is judged with the rest, by the share above.
        // Opening as a key sentence opens, its first ``overviewCopiedWords`` words copied, the
        // sentence's end is not awaited: the 0.5B went on copying (samples/notes.pdf: a 38-word
        // key sentence decoded whole to be refused, #53). The same words that open no key
        // sentence ("The Convention abolished …" of "In 1792 the Convention abolished …") are
        // judged with the rest.
        let keyOpenings = sentences.map { Array(Grounding.normalizedWords($0).prefix(overviewCopiedWords)) }
        job.settledRefusal = { answer in
            if let first = answer.firstSentence("overview"), ItemRules.copiedShare(first, from: sentences) >= 0.9 {
                return "the overview's first sentence was a key sentence copied word for word"
            }
            let opening = Grounding.normalizedWords(answer.settledWords("overview").joined(separator: " "))
                .prefix(overviewCopiedWords)
            guard opening.count == overviewCopiedWords, keyOpenings.contains(where: { $0.elementsEqual(opening) })
            else { return nil }
            return "the overview opened as a key sentence does, its first \(overviewCopiedWords) words copied word for word"
        }
        return job
    }

    /// Why the local model is not asked for the overview (``ItemAllowance/overview(_:)``): shown
    /// the key sentences, Qwen2.5-Coder-0.5B copies them. No overview of its was accepted on any
    /// document on record (notes.pdf, long.pdf, en-biology-immune, en-computing-hash-tables in
    /// session 50; notes.pdf in every run since, copied and stopped at its 10th word), and each
    /// attempt cost 1.5–4.9 s of a page's kit, most of it reading the five sentences (#53).
    static let overviewPassedOver = "the small local model's overviews copy the key sentences they are shown"

    /// How many words of a key sentence in a row an overview may open with before it is refused
    /// as a copy, its first sentence unfinished (the in-process headline stops at 8).
    static let overviewCopiedWords = 10

    /// The first content word of `text` that is neither in the material (by stem) nor English
    /// as `isEnglish` reads its lower-cased spelling (by default a common word), or `nil`.
    static func inventedWord(
        in text: String, materialStems: Set<String>, isEnglish: (String) -> Bool = EnglishFrequency.isCommon
    ) -> String? {
        TermNormalizer.words(in: text).first { word in
            !word.isStopword && !word.isNumber && word.surface.count >= 3 && !materialStems.contains(word.stem)
                && !isEnglish(word.surface.lowercased())
        }?.surface
    }

    /// Whether `word` is in the frequency table at all (about 2.5 Zipf or more): looser than
    /// ``EnglishFrequency/isCommon(_:)``, for text that may use rare English words but not
    /// words glued together.
    static func isInTheFrequencyTable(_ word: String) -> Bool { EnglishFrequency.zipf(word) > 0 }

    // MARK: mind map branches

    static let branchSpec = ItemSpec(
        name: "branch", version: "mindmap.branch/3",
        instructions: """
            You name one branch of a mind map of a student's study material.
            Give 1 to 5 words that say what the branch is about, in the words of its heading and details, without numbering.
            Reply with a JSON object with "label".
            """,
        schema: .object([
            .init("label", description: "1 to 5 words.", .string(maxLength: 40, maxWords: 5, forbiddenCharacters: "\n")),
        ]),
        maximumTokens: 24)

    /// Whether a branch's label is worth a model's name: longer than the 5 words a name may
    /// have, and not one of the material's headings whole (`headings`: ``headingKeys(in:)``). A
    /// heading within the map's own six words is the author's name for its section: the 0.5B
    /// only restyled or cut such headings (long.pdf's "The Old Regime and its problems" came back
    /// unchanged and "The Republic and the Terror, 1792–1794" without its dates, refused on every
    /// run). A label the builtin engine had to cut from a longer heading reads as a fragment, and
    /// that is what a name is for.
    static func branchNeedsName(_ branch: MindMap.Node, headings: Set<String>) -> Bool {
        ProseText.wordCount(branch.label) > 5 && !headings.contains(ProseText.duplicateKey(branch.label))
    }

    /// The material's lines that could be a whole branch label (at most ``MindMap/labelWords``
    /// words once a section number like "2." or "3.1" is dropped), as duplicate keys.
    static func headingKeys(in material: String) -> Set<String> {
        Set(material.split(whereSeparator: \.isNewline).compactMap { line in
            let words = BuiltinEngine.withoutHeadingNumber(ProseText.oneLine(String(line)))
            guard words.contains(where: \.isLetter), ProseText.wordCount(words) <= MindMap.labelWords else { return nil }
            return ProseText.duplicateKey(words)
        })
    }

    static func branchJob(_ branch: MindMap.Node, centre: String, path: String, materialStems: Set<String>) -> ItemJob {
        let details = branch.children.prefix(5).map(\.label).joined(separator: "; ")
        let prompt = "Branch heading: \(branch.label)\nIts details: \(details.isEmpty ? "(none)" : details)"
        return ItemJob(path: path, prompt: prompt) { json in
            guard let label = json["label"]?.stringValue.map(ProseText.oneLine), label.contains(where: \.isLetter) else {
                return .failure(ItemRejection(reason: "the answer had no label"))
            }
            let stems = Grounding.contentStems(label)
            guard !stems.isEmpty, stems.allSatisfy(materialStems.contains) else {
                return .failure(ItemRejection(reason: "the name used words the material does not have"))
            }
            guard ProseText.wordCount(label) <= 5, !ResultProse.sameText(label, branch.label) else {
                return .failure(ItemRejection(reason: "the name was too long or unchanged"))
            }
            // A new name says something the heading did not, or says it shorter; it never only
            // restyles the heading ("Light-Dependent Reactions" for "The light-dependent
            // reactions") nor loses what the heading says: its dates ("The Directory" for "The
            // Directory, 1795–1799") or most of its words ("Photorespiration" for
            // "Photorespiration, C4 and CAM plants").
            let heading = Set(Grounding.contentStems(branch.label))
            let named = Set(stems)
            let numbers = Set(Grounding.normalizedWords(branch.label).filter { $0.contains(where: \.isNumber) })
            if !numbers.isSubset(of: Set(Grounding.normalizedWords(label))) {
                return .failure(ItemRejection(reason: "the name dropped the heading's dates or numbers"))
            }
            if !heading.isEmpty, named == heading {
                return .failure(ItemRejection(reason: "the name only restyled the heading"))
            }
            if heading.count >= 2, heading.intersection(named).count * 2 < heading.count, named.isSubset(of: heading) {
                return .failure(ItemRejection(reason: "the name dropped most of what the heading says"))
            }
            return .success(label)
        }
    }
}

// MARK: - Provenance of every item

extension ItemProvenance {
    /// The records of a whole part `model` wrote, each `written`, except a headline's or a
    /// summary's text of three words or more that is the material's own words, word for word (its
    /// title, a sentence, a run of sentences): that one says `extracted`, chosen by the model.
    /// Qwen2.5-Coder-0.5B's headline blurb was the material's opening sentence on 10 of 12
    /// documents, the one the builtin engine picks, and `--json` called it written.
    static func written(in result: AnyStudyResult, model: String, material: String, cached: Bool) -> [ItemProvenance] {
        let from = cached ? ", from the cache" : ""
        let records = all(in: result, kind: .written, note: "written by \(model)\(from)")
        let texts: [String: String]
        switch result {
        case .headline(let headline): texts = ["title": headline.title, "blurb": headline.blurb]
        case .summary(let summary):
            texts = Dictionary(uniqueKeysWithValues: [("overview", summary.overview)] + summary.keyPoints.enumerated().map { ("keyPoints[\($0)]", $1) })
        default: return records
        }
        let materialWords = Grounding.normalizedWords(material)
        return records.map { record in
            guard let text = texts[record.path] else { return record }
            let words = Grounding.normalizedWords(text)
            // One or two words (a title such as "Mitosis") are always the material's.
            guard words.count >= 3, Grounding.containsRun(words, in: materialWords) else { return record }
            return ItemProvenance(path: record.path, kind: .extracted, note: "the material's own words, chosen by \(model)\(from)")
        }
    }

    /// One record per item of `result`, all of the same kind.
    static func all(in result: AnyStudyResult, kind: Kind, note: String?) -> [ItemProvenance] {
        func make(_ path: String) -> ItemProvenance { ItemProvenance(path: path, kind: kind, note: note) }
        switch result {
        case .headline: return [make("title"), make("blurb")]
        case .feynman(let feedback):
            return [make("verdict")] + feedback.whatWasRight.indices.map { make("whatWasRight[\($0)]") }
                + feedback.gaps.indices.map { make("gaps[\($0)]") } + [make("followUpQuestion")]
        case .summary(let summary): return [make("overview")] + summary.keyPoints.indices.map { make("keyPoints[\($0)]") }
        case .flashcards(let deck): return deck.cards.indices.map { make("cards[\($0)]") }
        case .quiz(let quiz): return quiz.questions.indices.map { make("questions[\($0)]") }
        case .mindMap(let map): return [make("centralTopic")] + map.branches.indices.map { make("branches[\($0)]") }
        case .podcast(let script): return [make("title")] + script.turns.indices.map { make("turns[\($0)]") } + [make("recap")]
        case .studyKit(let kit):
            return [make("headline")] + all(in: .summary(kit.summary), kind: kind, note: note).map { make("summary.\($0.path)") }
                + all(in: .flashcards(kit.flashcards), kind: kind, note: note).map { make("flashcards.\($0.path)") }
                + all(in: .quiz(kit.quiz), kind: kind, note: note).map { make("quiz.\($0.path)") }
                + all(in: .mindMap(kit.mindMap), kind: kind, note: note).map { make("mindMap.\($0.path)") }
        }
    }
}
