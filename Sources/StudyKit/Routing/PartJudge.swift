// MARK: - Repair, not refusal

/// Judges a model's whole answer for a part with items (a summary's key points, a deck, a quiz,
/// a mind map, or all four in a kit) item by item, instead of refusing it whole for one bad
/// item (#53): a model that wrote seven good cards and one duplicate keeps seven cards.
///
/// 1. What a rule says how to mend is mended (``ItemRepairs``): a label over its word limit is cut
///    to its head phrase, a card's answer its quote does not hold is cut to its key words.
/// 2. Every item that still breaks a rule — of its schema, of its type, or of ``Grounding`` — is
///    dropped, with the reason (``MergedPart`` under the schema with no list minimum).
/// 3. The part is kept when at least half the requested count of its items pass
///    (``ItemCounts/minimumKept(_:)``); else it is refused, as an invalid answer always was.
/// 4. A kept part is topped up to the requested count from the builtin engine's skeleton of the
///    same part (items that are no duplicate or near-copy of the model's), and must then pass every
///    rule of one answer. A summary whose overview breaks a rule gets the skeleton's overview; a
///    mind map whose central topic does, the skeleton's.
///
/// Each item keeps its provenance: `written` by the model, `repaired` (written, then cut), or
/// `extracted` (the skeleton's). Pure and deterministic for a given skeleton.
struct PartJudge {
    /// The material the answer is grounded in (as sent, without its injected instructions).
    let material: String
    /// The counts the part was asked for.
    let counts: ItemCounts
    /// The model that wrote the answer, for the items' notes.
    let model: String
    /// The builtin engine's result for the same task on the whole material, or `nil` when it
    /// has none (a text too short): then nothing is topped up.
    let skeleton: AnyStudyResult?

    /// A part as judged: what ships and how each item was made.
    struct Judged {
        var result: AnyStudyResult
        var items: [ItemProvenance]
        /// The model's items that were dropped, with their paths in its answer.
        var dropped: [DroppedItem]
        /// How many of the model's items were repaired, and how many skeleton items were added.
        var repaired: Int
        var toppedUp: Int
        /// The parts of a kit whose model answer was refused and replaced by the skeleton's.
        var refusedParts: [StudyTask] = []
    }

    /// The tasks whose answers are judged item by item.
    static let judgedTasks: Set<StudyTask> = [.summary, .flashcards, .quiz, .mindmap, .studyKit]

    /// `json`, a model's answer for `task`, judged item by item.
    /// - Throws: ``SchemaError/invalid(_:)`` when the answer has too few usable items, or
    ///   something no repair or drop can mend (its shape).
    func judge(_ json: JSONValue, task: StudyTask) throws(SchemaError) -> Judged {
        if task == .studyKit { return try judgeKit(json) }
        return try judgePart(json, task: task, skeleton: skeleton)
    }

    // MARK: one part

    private func judgePart(_ json: JSONValue, task: StudyTask, skeleton: AnyStudyResult?) throws(SchemaError) -> Judged
    {
        guard let (list, requested) = counts.counted(task), json.objectValue != nil else {
            throw .invalid([ValidationIssue(path: "", message: "is not an object with the part's fields")])
        }
        // A part that passes whole ships as the model wrote it, as any valid answer does.
        if let whole = try? decodeResult(for: task, json: json), Grounding.issues(in: whole, source: material).isEmpty,
            ModelAnswerRules.issues(in: whole, material: material).isEmpty
        {
            let items = ItemProvenance.written(in: whole, model: model, material: material, cached: false)
            return Judged(result: whole, items: items, dropped: [], repaired: 0, toppedUp: 0)
        }
        var value = json
        var repairs = Self.repair(&value, task: task, material: material)
        var replaced: [String: String] = [:]
        if task == .summary {
            Self.mendKeyPoints(&value, material: material, repairs: &repairs)
            Self.mendFillerOverview(&value, skeleton: skeleton, repairs: &repairs)
            Self.mendMisstatedOverview(&value, material: material, repairs: &repairs)
            Self.mendOverview(&value, skeleton: skeleton, repairs: &repairs, replaced: &replaced)
        }
        let relaxed = MergedPart(schema: task.generationSchema.withoutMinimum(at: list), chunks: 1, perChunk: [:]) {
            json in
            guard let part = try? task.shapeOnly(json) else { return [] }
            return part.value.semanticIssues() + Grounding.issues(in: part, source: material)
                + ModelAnswerRules.issues(in: part, material: material)
        }
        var kept: (value: JSONValue, dropped: [DroppedItem])
        do {
            kept = try relaxed.repaired(value)
        } catch {
            // A summary's overview or a map's central topic that breaks a rule is one field, not
            // an item: the skeleton's takes its place, and the items are judged again.
            guard case .invalid(let issues) = error, let field = Self.singleField(of: task), let skeleton,
                issues.allSatisfy({ $0.path == field || $0.path.hasPrefix(field + ".") }),
                let own = skeleton.jsonValue[field], var object = value.objectValue
            else { throw error }
            object[field] = own
            value = .object(object)
            replaced[field] = "the model's \(field) \(issues[0].message); the builtin engine's is shown"
            kept = try relaxed.repaired(value)
        }
        let written = kept.value[list]?.arrayValue ?? []
        let least = ItemCounts.minimumKept(requested)
        guard written.count >= least else {
            // Every reason: the first few alone read as if one item had refused the part.
            let reasons = kept.dropped.map { ValidationIssue(path: $0.path, message: $0.reason) }
            throw .invalid(
                [
                    ValidationIssue(
                        path: list,
                        message:
                            "has \(written.count) usable item\(written.count == 1 ? "" : "s") of the \(requested) "
                            + "asked for (at least \(least) must pass)"
                    )
                ]
                    + reasons)
        }
        // Top up from the skeleton, in its order, with what passes every rule beside the model's
        // items: to the count asked for, and never below what one answer must hold.
        var target = requested
        if case .array(_, let minimum, _, _)? = task.generationSchema.at([.member(list)]) {
            target = max(requested, minimum)
        }
        var items = written
        var toppedUp = 0
        // Checked without the list's minimum: a small count is reached item by item.
        for extra in skeleton?.jsonValue[list]?.arrayValue ?? [] where items.count < target {
            guard var object = kept.value.objectValue else { break }
            object[list] = .array(items + [extra])
            if relaxed.issues(in: .object(object)).isEmpty {
                items.append(extra)
                toppedUp += 1
            }
        }
        guard var object = kept.value.objectValue else { throw .invalid([]) }
        object[list] = .array(items)
        let result = try decodeResult(for: task, json: .object(object))
        let ungrounded = Grounding.issues(in: result, source: material)
        guard ungrounded.isEmpty else { throw .invalid(ungrounded) }
        let made = provenance(
            result, task: task, list: list, modelItems: written.count, requested: requested,
            original: value[list]?.arrayValue ?? [],
            repairs: repairs, replaced: replaced)
        return Judged(result: result, items: made, dropped: kept.dropped, repaired: repairs.count, toppedUp: toppedUp)
    }

    /// The one field of `task`'s result that is no item of a list, and that the skeleton may stand in for.
    private static func singleField(of task: StudyTask) -> String? {
        switch task {
        case .summary: return "overview"
        case .mindmap: return "centralTopic"
        default: return nil
        }
    }

    // MARK: a whole kit

    /// A kit: the headline as the kit's headline would be shown (the skeleton's when the model's
    /// breaks a rule: `import` shows the headline of its own request), then each part judged
    /// alone; a part with too few usable items is replaced by the skeleton's and named in
    /// ``Judged/refusedParts``. Refused when every part is.
    private func judgeKit(_ json: JSONValue) throws(SchemaError) -> Judged {
        guard case .studyKit(let floor)? = skeleton, let object = json.objectValue else {
            throw .invalid([ValidationIssue(path: "", message: "is not an object with the kit's parts")])
        }
        let parts: [(name: String, task: StudyTask, own: AnyStudyResult)] = [
            ("summary", .summary, .summary(floor.summary)), ("flashcards", .flashcards, .flashcards(floor.flashcards)),
            ("quiz", .quiz, .quiz(floor.quiz)), ("mindMap", .mindmap, .mindMap(floor.mindMap)),
        ]
        var kit = floor
        var items: [ItemProvenance] = []
        var dropped: [DroppedItem] = []
        var refused: [StudyTask] = []
        var problems: [ValidationIssue] = []
        var repaired = 0
        var toppedUp = 0
        if let headline = object["headline"], let own = try? Headline.decode(json: headline),
            Grounding.issues(in: .headline(own), source: material).isEmpty
        {
            kit.headline = own
            items.append(ItemProvenance(path: "headline", kind: .written, note: "written by \(model)"))
        } else {
            items.append(
                ItemProvenance(
                    path: "headline", kind: .extracted, note: "selected from the material by the builtin engine"))
        }
        for (name, task, own) in parts {
            do throws(SchemaError) {
                let judged = try judgePart(object[name] ?? .null, task: task, skeleton: own)
                kit.replace(judged.result)
                items += judged.items.map { ItemProvenance(path: "\(name).\($0.path)", kind: $0.kind, note: $0.note) }
                dropped += judged.dropped.map { DroppedItem(path: "\(name).\($0.path)", reason: $0.reason) }
                repaired += judged.repaired
                toppedUp += judged.toppedUp
            } catch {
                refused.append(task)
                let issues =
                    if case .invalid(let found) = error { found } else {
                        [ValidationIssue(path: "", message: error.message)]
                    }
                problems += issues.map { $0.prefixed(name) }
                let why = issues.first.map {
                    "the model's \(name) was refused (\($0.description)); the builtin engine's part is shown"
                }
                items += ItemProvenance.all(in: own, kind: .extracted, note: why).map {
                    ItemProvenance(path: "\(name).\($0.path)", kind: $0.kind, note: $0.note)
                }
            }
        }
        guard refused.count < parts.count else { throw .invalid(problems) }
        try kit.validate()
        return Judged(
            result: .studyKit(kit), items: items, dropped: dropped, repaired: repaired, toppedUp: toppedUp,
            refusedParts: refused)
    }

    // MARK: repairs

    /// Mends in place what ``ItemRepairs`` can, and says what, by the item's path in the answer:
    /// labels over their word limit (a map's), answers their quote does not hold (a deck's),
    /// quotes that do not carry their answer (a deck's and a quiz's: the material's sentence that does).
    static func repair(_ value: inout JSONValue, task: StudyTask, material: String) -> [String: String] {
        guard var object = value.objectValue else { return [:] }
        var repairs: [String: String] = [:]
        // The material's sentences, split only when a quote is to be replaced, and then once.
        let split = ItemRepairs.MaterialSentences(material)
        func materialSentences() -> [String] { split.all }
        switch task {
        case .mindmap:
            if let topic = object["centralTopic"]?.stringValue, let cut = ItemRepairs.headPhrase(topic, maxWords: 8) {
                object["centralTopic"] = .string(cut)
                repairs["centralTopic"] = "the central topic cut to its head phrase (“\(cut)”)"
            }
            if let branches = object["branches"] {
                object["branches"] = cutLabels(branches, path: "branches", repairs: &repairs)
            }
        case .flashcards:
            guard let cards = object["cards"]?.arrayValue else { break }
            object["cards"] = .array(
                cards.enumerated().map { index, card in
                    guard var fields = card.objectValue, let question = fields["question"]?.stringValue,
                        let answer = fields["answer"]?.stringValue, let quote = fields["quote"]?.stringValue
                    else { return card }
                    var how: [String] = []
                    // A "cloze" without a blank is a question, as the rule itself says.
                    if fields["kind"]?.stringValue == "cloze", !question.contains(Flashcards.blank) {
                        fields["kind"] = .string("question")
                        how.append("its kind made \"question\" (it has no blank)")
                    }
                    // An optional hint that breaks its rule goes; the card stays.
                    if let hint = fields["hint"]?.stringValue, hint.count > 80 || ResultProse.sameText(hint, answer) {
                        fields["hint"] = nil
                        how.append("its hint left out")
                    }
                    if let mended = carryingQuote(
                        answer: answer, question: question, quote: quote,
                        requotes: !question.contains(Flashcards.blank), sentences: materialSentences)
                    {
                        fields["quote"] = .string(mended.quote)
                        how.append(mended.how)
                    }
                    let asked = fields["quote"]?.stringValue ?? quote
                    if fields["kind"]?.stringValue != "cloze", !question.contains(Flashcards.blank),
                        let cut = ItemRepairs.keyWords(answer: answer, question: question, quote: asked)
                    {
                        fields["answer"] = .string(cut)
                        how.append("the answer cut to its key words (“\(cut)”)")
                    }
                    guard !how.isEmpty else { return card }
                    repairs["cards[\(index)]"] = how.joined(separator: ", ")
                    return .object(fields)
                })
        case .quiz:
            guard let questions = object["questions"]?.arrayValue else { break }
            // One builtin engine for every question's choices: it reads the material once, and
            // only when a choice is to be replaced.
            let builtin = BuiltinEngine()
            object["questions"] = .array(
                questions.enumerated().map { index, question in
                    guard var fields = question.objectValue else { return question }
                    var how: [String] = []
                    if let explanation = fields["explanation"]?.stringValue,
                        let cut = ItemRepairs.firstSentences(explanation, maxLength: 600)
                    {
                        fields["explanation"] = .string(cut)
                        how.append("the explanation cut to its first sentences")
                    }
                    if let parsed = (try? Quiz(json: ["questions": .array([question])]))?.questions.first,
                        let other = ItemRepairs.explainedAnswer(parsed, sentences: materialSentences),
                        let quote = QuoteFinder.quote(
                            question: parsed.prompt, answer: parsed.choices[other], sentences: materialSentences())
                    {
                        fields["answerIndex"] = .integer(other)
                        fields["quote"] = .string(quote)
                        how.append(
                            "the right answer moved to “\(parsed.choices[other])”, "
                                + "as its explanation and the material say")
                    }
                    if let prompt = fields["prompt"]?.stringValue, let quote = fields["quote"]?.stringValue,
                        let right = fields["answerIndex"]?.integerValue,
                        let answer = fields["choices"]?.arrayValue?[safe: right]?.stringValue,
                        let mended = carryingQuote(
                            answer: answer, question: prompt, quote: quote, requotes: true,
                            sentences: materialSentences)
                    {
                        fields["quote"] = .string(mended.quote)
                        how.append(mended.how)
                    }
                    if let mended = mendedChoices(fields, builtin: builtin, material: material) {
                        fields["choices"] = .array(mended.choices.map(JSONValue.string))
                        how.append(mended.note)
                    }
                    guard !how.isEmpty else { return question }
                    repairs["questions[\(index)]"] = how.joined(separator: ", ")
                    return .object(fields)
                })
        default:
            break
        }
        value = .object(object)
        return repairs
    }

    /// `quote` mended to carry `answer` for `question`, with what was done: cut to its own sentence
    /// that carries it (``ItemRepairs/sentenceCarrying(answer:question:quote:maxLength:)``), else,
    /// when `requotes`, replaced by the material's one sentence that does
    /// (``ItemRepairs/requote(answer:question:quote:sentences:maxLength:)``); `nil` when neither applies.
    private static func carryingQuote(
        answer: String, question: String, quote: String, requotes: Bool, sentences: () -> [String]
    ) -> (quote: String, how: String)? {
        if let cut = ItemRepairs.sentenceCarrying(answer: answer, question: question, quote: quote, maxLength: 500) {
            return (cut, "the quote cut to its sentence that carries the answer")
        }
        guard requotes,
            let sentence = ItemRepairs.requote(
                answer: answer, question: question, quote: quote, sentences: sentences(), maxLength: 500)
        else { return nil }
        return (sentence, "the quote replaced by the material's sentence that carries the answer")
    }

    /// A quiz question's wrong choices that repeat or near-copy another choice, run too long or
    /// copy the quote (``ItemRepairs/brokenChoices(_:answerIndex:quote:)``), replaced by the
    /// builtin engine's distractors for its right answer
    /// (``BuiltinEngine/distractors(forAnswer:prompt:quote:beside:count:material:)``); the question,
    /// the right answer, its place and the quote stay the model's. `nil` when no choice is broken
    /// or no distractor fits one (the question is then dropped, as before).
    private static func mendedChoices(
        _ fields: JSONObject, builtin: BuiltinEngine, material: String
    ) -> (choices: [String], note: String)? {
        guard let prompt = fields["prompt"]?.stringValue, let quote = fields["quote"]?.stringValue,
            let right = fields["answerIndex"]?.integerValue, let values = fields["choices"]?.arrayValue,
            case let choices = values.compactMap(\.stringValue), choices.count == Quiz.choiceCount,
            values.count == choices.count
        else { return nil }
        let broken = ItemRepairs.brokenChoices(choices, answerIndex: right, quote: quote)
        guard !broken.isEmpty else { return nil }
        let replaced = Set(broken.map(\.index))
        let others = choices.indices.filter { $0 != right && !replaced.contains($0) }.map { choices[$0] }
        let candidates = builtin.distractors(
            forAnswer: choices[right], prompt: prompt, quote: quote, beside: others,
            count: broken.count + Quiz.choiceCount, material: material)
        return ItemRepairs.mendedChoices(choices, answerIndex: right, quote: quote, candidates: candidates)
    }

    /// Each key point that leans on the sentence before it with "It" or "They" gets the subject
    /// that sentence names, where the material has one (``ItemRepairs/namedSubject(_:material:)``)
    /// and the point so named reads on its own; each over its word or length limit is cut to its
    /// main clause (``ItemRepairs/mainClause(_:maxWords:maxLength:)``) when that reads on its own.
    private static func mendKeyPoints(_ value: inout JSONValue, material: String, repairs: inout [String: String]) {
        guard var object = value.objectValue, let points = object["keyPoints"]?.arrayValue else { return }
        object["keyPoints"] = .array(
            points.enumerated().map { index, point in
                if let text = point.stringValue,
                    let cut = ItemRepairs.mainClause(
                        text, maxWords: Summary.keyPointWords, maxLength: Summary.keyPointLength),
                    StandaloneSentence.readsOnItsOwn(cut)
                {
                    repairs["keyPoints[\(index)]"] = "cut to its main clause (“\(cut)”)"
                    return .string(cut)
                }
                guard let text = point.stringValue, !StandaloneSentence.readsOnItsOwn(text),
                    let named = ItemRepairs.namedSubject(text, material: material),
                    StandaloneSentence.readsOnItsOwn(named)
                else { return point }
                let subject = named.dropLast(text.drop { $0 != " " }.count)
                repairs["keyPoints[\(index)]"] =
                    "its opening pronoun named (“\(subject)”) from the material's sentence before it"
                return .string(named)
            })
        value = .object(object)
    }

    /// A summary's overview that says its key points again loses those sentences, when two stay
    /// (``ItemRepairs/overviewWithoutRepeats(_:keyPoints:)``); else the skeleton overview's
    /// sentences that repeat no key point fill it up to two or three (shown as the builtin
    /// engine's). Else the key points that repeat it are dropped, as before.
    private static func mendOverview(
        _ value: inout JSONValue, skeleton: AnyStudyResult?, repairs: inout [String: String],
        replaced: inout [String: String]
    ) {
        guard var object = value.objectValue, let overview = object["overview"]?.stringValue,
            let points = object["keyPoints"]?.arrayValue?.compactMap(\.stringValue),
            let cut = ItemRepairs.overviewWithoutRepeats(overview, keyPoints: points)
        else { return }
        let plural = cut.removed.count == 1 ? "" : "s"
        let which = "sentence\(plural) " + cut.removed.map { String($0 + 1) }.joined(separator: ", ")
        if cut.kept.count >= 2 {
            object["overview"] = .string(cut.kept.joined(separator: " "))
            let earlier = repairs["overview"].map { $0 + "; " } ?? ""
            repairs["overview"] = earlier + "its \(which), which said a key point again, left out"
        } else if case .summary(let own)? = skeleton,
            case let fresh = ItemRepairs.sentences(
                from: SentenceSplitter().split(own.overview).map(\.text) + own.keyPoints,
                repeatingNoneOf: points + cut.kept, count: 2 - cut.kept.count),
            cut.kept.count + fresh.count >= 2
        {
            // The builtin engine's sentences that say no key point again (its overview's, then its
            // key points'), after what is left of the model's.
            object["overview"] = .string((cut.kept + fresh).joined(separator: " "))
            replaced["overview"] =
                "the model's overview said its key points again (\(which)); the builtin engine's is shown"
        } else {
            return
        }
        value = .object(object)
    }

    /// A summary's overview with sentences of stock filler ("This document provides an overview
    /// of …") loses them when what is left reads on its own
    /// (``ItemRepairs/overviewWithoutFiller(_:)``); one sentence left is followed by the skeleton
    /// overview's first that repeats neither it nor a key point. Shown as repaired, the model's
    /// overview with its filler left out; else the overview is judged as before (the skeleton's).
    private static func mendFillerOverview(
        _ value: inout JSONValue, skeleton: AnyStudyResult?, repairs: inout [String: String]
    ) {
        guard var object = value.objectValue, let overview = object["overview"]?.stringValue,
            let points = object["keyPoints"]?.arrayValue?.compactMap(\.stringValue),
            let cut = ItemRepairs.overviewWithoutFiller(overview)
        else { return }
        let plural = cut.removed.count == 1 ? "" : "s"
        let which = "sentence\(plural) " + cut.removed.map { String($0 + 1) }.joined(separator: ", ")
        var kept = cut.kept
        var how = "its \(which), stock filler, left out"
        if kept.count < 2 {
            guard case .summary(let own)? = skeleton,
                let added = ItemRepairs.sentences(
                    from: SentenceSplitter().split(own.overview).map(\.text), repeatingNoneOf: points + kept, count: 1
                ).first
            else { return }
            kept.append(added)
            how += "; the builtin engine's sentence “\(added)” added"
        }
        object["overview"] = .string(kept.joined(separator: " "))
        repairs["overview"] = how
        value = .object(object)
    }

    /// `nodes` (a map's branches, or a node's children) with every label over the limit cut to
    /// its head phrase, recursively.
    private static func cutLabels(_ nodes: JSONValue, path: String, repairs: inout [String: String]) -> JSONValue {
        guard let list = nodes.arrayValue else { return nodes }
        return .array(
            list.enumerated().map { index, node in
                guard var fields = node.objectValue else { return node }
                let at = "\(path)[\(index)]"
                if let label = fields["label"]?.stringValue,
                    let cut = ItemRepairs.headPhrase(label, maxWords: MindMap.labelWords)
                        ?? ItemRepairs.shortenedHeadPhrase(label, maxWords: MindMap.labelWords)
                {
                    fields["label"] = .string(cut)
                    repairs[at + ".label"] = "a label cut to its head phrase (“\(label)” → “\(cut)”)"
                }
                if let children = fields["children"] {
                    fields["children"] = cutLabels(children, path: at + ".children", repairs: &repairs)
                }
                return .object(fields)
            })
    }

    // MARK: provenance

    /// Each item of `result`: the first `modelItems` of its list are the model's (`written`, or
    /// `repaired` when a repair touched the item, found in the `original` list by its key), the
    /// rest the skeleton's; the overview or central topic is the skeleton's when `replaced` says so.
    private func provenance(
        _ result: AnyStudyResult, task: StudyTask, list: String, modelItems: Int, requested: Int, original: [JSONValue],
        repairs: [String: String], replaced: [String: String]
    ) -> [ItemProvenance] {
        let written = ItemProvenance.written(in: result, model: model, material: material, cached: false)
        let values = result.jsonValue[list]?.arrayValue ?? []
        var used = Set<Int>()
        return written.map { record in
            if let why = replaced[record.path] {
                return ItemProvenance(path: record.path, kind: .extracted, note: why)
            }
            // A shortened overview is the model's when the rest of it is (not the material's own words).
            if record.path == "overview", record.kind == .written, let how = repairs["overview"] {
                return ItemProvenance(path: record.path, kind: .repaired, note: "written by \(model); \(how)")
            }
            if record.path == "centralTopic", let how = repairs["centralTopic"] {
                return ItemProvenance(path: record.path, kind: .repaired, note: "written by \(model); \(how)")
            }
            guard record.path.hasPrefix(list + "["),
                let index = Int(record.path.dropFirst(list.count + 1).prefix { $0.isNumber }),
                values.indices.contains(index)
            else { return record }
            guard index < modelItems else {
                return ItemProvenance(
                    path: record.path, kind: .extracted, note: Self.topUpNote(task, requested: requested))
            }
            // The model's item, found where it was in the answer (the items dropped before it shift it).
            let key = Self.itemKey(values[index])
            guard let at = original.indices.first(where: { !used.contains($0) && Self.itemKey(original[$0]) == key })
            else { return record }
            used.insert(at)
            let how = repairs.filter { $0.key == "\(list)[\(at)]" || $0.key.hasPrefix("\(list)[\(at)].") }.map(\.value)
                .sorted()
            // A key point cut from a sentence the model copied is still the material's own words.
            guard !how.isEmpty, !(task == .summary && record.kind == .extracted) else { return record }
            return ItemProvenance(
                path: record.path, kind: .repaired, note: "written by \(model); " + how.joined(separator: "; "))
        }
    }

    /// The note of an item added from the builtin engine's skeleton to reach the count asked for.
    static func topUpNote(_ task: StudyTask, requested: Int) -> String {
        "\(topUpOpening)\(task.name) to reach the \(requested) asked for"
    }

    private static let topUpOpening = "added from the builtin engine's "

    /// Whether `record` is an item the judge added from the skeleton (``topUpNote(_:requested:)``):
    /// one the model that wrote the part may still rephrase (``ItemRewriter/rewritingTopUps(_:items:)``).
    static func isTopUp(_ record: ItemProvenance) -> Bool {
        record.kind == .extracted && record.note?.hasPrefix(topUpOpening) == true
    }

    /// What tells a list's items apart: a card's question, a question's prompt, a node's label, a key point itself.
    private static func itemKey(_ item: JSONValue) -> String {
        let text =
            item.stringValue ?? item["question"]?.stringValue ?? item["prompt"]?.stringValue ?? item["label"]?
            .stringValue ?? ""
        return ProseText.duplicateKey(text)
    }
}

extension GenerationSchema {
    /// This schema with no minimum on the list at `path` (a root member: `cards`), so that a
    /// judge may drop every item of it and count what is left itself.
    func withoutMinimum(at path: String) -> GenerationSchema {
        guard case .object(let properties) = self else { return self }
        return .object(
            properties.map { property in
                guard property.name == path, case .array(let items, _, let most, let distinct) = property.schema else {
                    return property
                }
                return .init(
                    property.name, description: property.description,
                    .array(items: items, minItems: 0, maxItems: most, distinct: distinct),
                    optional: property.isOptional)
            })
    }
}

extension Array {
    /// The element at `index`, or `nil` when there is none.
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
