import Foundation

// MARK: - Copied key points restated by the model that copied them

/// A server model's summary whose key points are sentences of the material word for word ships
/// them as `extracted` (``ItemProvenance/written(in:model:material:cached:)``): Qwen2.5-Coder-1.5B
/// copied 7 of its 16 key points on the tuning half's recorded answers, 32 of 46 on the held-out
/// half, and asked for "your own words" it copied still (#53, session 63). Shown only the copied
/// sentences, one batch in one request, the same model restates each in a short sentence of its
/// own. A restatement ships as `rewritten` when it is no copy, keeps its sentence's names and
/// numbers, brings in nothing from other sentences of the material, and the claim check finds
/// nothing false in it (``restatementProblem(_:of:material:)``); else the copy stays `extracted`.
extension ItemRewriter {
    /// The most words of a restated key point: shorter than the 30 a key point may have, so a
    /// restatement says the main fact and not the whole sentence again.
    static let restatedKeyPointWords = 24

    /// The restatement's instructions and limits. Its schema is each batch's own
    /// (``restatedKeyPointsSchema(count:)``): as many points as sentences.
    static let restatedKeyPointsSpec = ItemSpec(
        name: "key_points", version: "summary.restatedKeyPoints/1",
        instructions: """
            You restate sentences of a student's notes as key points, in your own words.
            For each numbered sentence, in order, write one sentence of at most 20 words that says its main fact \
            differently. Keep its names and numbers, and add no fact of your own.
            Example. Sentences:
            1. The mitochondria, found in almost every cell, produce most of the cell's ATP through respiration.
            2. In 1905 Einstein, then a patent clerk in Bern, published four papers that changed physics.
            {"points": ["Most of a cell's ATP comes from respiration in its mitochondria.", \
            "Four papers that Einstein published in 1905 changed physics."]}
            Reply with a JSON object with "points".
            """,
        schema: restatedKeyPointsSchema(count: 1),
        // About 30 tokens a point for the most key points a summary has, and the JSON around them.
        maximumTokens: 300)

    /// The answer shape of a batch of `count` sentences.
    static func restatedKeyPointsSchema(count: Int) -> GenerationSchema {
        .object([
            .init(
                "points", description: "One key point per sentence, in the sentences' order.",
                .array(
                    items: .string(
                        maxLength: Summary.keyPointLength, maxWords: restatedKeyPointWords, forbiddenCharacters: "\n",
                        meaning: .keyPoint),
                    minItems: count, maxItems: count, distinct: nil))
        ])
    }

    /// Why `point` is no usable restatement of `sentence`, a key point copied from `material`; `nil`
    /// when it is one.
    static func restatementProblem(_ point: String, of sentence: String, material: String) -> String? {
        if let problem = ItemRules.problem(point, .keyPoint) { return "the key point \(problem)" }
        let words = ProseText.wordCount(point)
        if words > restatedKeyPointWords {
            return "the key point has \(words) words, more than the \(restatedKeyPointWords) a restatement may have"
        }
        if let end = ItemRules.openClauseEnd(point) { return "the key point was cut after “\(end)”" }
        if !StandaloneSentence.readsOnItsOwn(point) { return "the key point leans on a sentence before it" }
        // No copy: not the material's words in one run (that is `extracted` again), nor the
        // sentence with a word or two changed.
        if GroundingWords.containsRun(
            GroundingWords.normalizedWords(point), in: GroundingWords.normalizedWords(material))
        {
            return "the key point is the material's own words again"
        }
        if orderedShare(point, of: sentence) >= maximumOrderedShare {
            return "the key point copied its sentence but for a word or two"
        }
        if let term = ItemRules.alteredTerm(point, from: sentence) {
            return "the key point changed the sentence's term (\(term))"
        }
        if let marker = ItemRules.addedMarker(point, from: sentence) {
            return "the key point added “\(marker)”, which the sentence does not have"
        }
        if let changed = changedNumber(point, from: sentence) { return changed }
        if let negation = droppedNegation(point, from: sentence) {
            return "the key point left out the sentence's “\(negation)” and kept what it denies"
        }
        let materialStems = Set(GroundingWords.contentStems(material))
        let sentenceStems = Set(GroundingWords.contentStems(sentence))
        let pointStems = Set(GroundingWords.contentStems(point))
        // A word of the material that its sentence does not have joins that sentence to another
        // one, which is how a restatement says something false ("… phases are caused by its
        // gravity …", where the tides are); a word of its own is plain English, not made up, and
        // so is a word of everyday English that the material happens to use elsewhere ("to store
        // entries", "available for sale": the 1.5B's restatements on the tuning half, session 66).
        let everyday = Set(TermNormalizer.words(in: point).filter { EnglishFrequency.isCommon($0.surface) }.map(\.stem))
        let joined = GroundingWords.contentStems(point).first {
            materialStems.contains($0) && !sentenceStems.contains($0) && !everyday.contains($0)
        }
        if let joined {
            return "the key point brought in a word of another sentence of the material (\(joined))"
        }
        if let invented = inventedWord(in: point, materialStems: materialStems, isEnglish: isInTheFrequencyTable) {
            return "the key point used a word that is neither the material's nor English (\(invented))"
        }
        // It says its sentence's fact: most of what it names is the sentence's, and it keeps
        // enough of the sentence to be about the same thing.
        let shared = pointStems.intersection(sentenceStems).count
        let own = pointStems.count - shared
        guard shared >= 2, shared * 5 >= sentenceStems.count * 2 else {
            return "the key point kept too little of its sentence"
        }
        guard own * 2 <= shared else { return "the key point said more in words of its own than in its sentence's" }
        if let reason = ClaimCheck(material: material).misstatement(point) { return "the key point \(reason)" }
        return nil
    }

    /// The words that deny what follows them; "t" is the end of a "n't" ("doesn't" is "doesn" and "t").
    static let negations: Set<String> = ["no", "not", "never", "none", "nothing", "neither", "nor", "cannot", "t"]

    /// The negation of `sentence` that `point`, which has none, leaves out while it keeps one of
    /// the first two content words it denies; `nil` when there is none. A restatement that drops
    /// the "no" says the opposite of its sentence: "The Moon reflects sunlight to create light."
    /// for "The Moon makes no light of its own: we see it because it reflects sunlight." (#53,
    /// session 67: the 1.5B's Moon summary, shipped `rewritten`).
    static func droppedNegation(_ point: String, from sentence: String) -> String? {
        guard !GroundingWords.normalizedWords(point).contains(where: negations.contains) else { return nil }
        let pointStems = Set(GroundingWords.contentStems(point))
        let words = GroundingWords.normalizedWords(sentence)
        for (index, word) in words.enumerated() where negations.contains(word) {
            let denied = GroundingWords.contentStems(words[(index + 1)...].prefix(6).joined(separator: " ")).prefix(2)
            if denied.contains(where: pointStems.contains) { return word == "t" ? "n't" : word }
        }
        return nil
    }

    /// The share of a restatement's words that its sentence has in the same order (their longest
    /// common subsequence): a word or two changed in a sentence copied keeps the rest in order
    /// ("Evaporation is driven mostly by …" for "… mainly by …": 13 of 14), a sentence said the
    /// other way round does not ("Rising water vapour that cools … forms clouds." for "Clouds form
    /// when rising water vapour cools …": 8 of 11).
    static func orderedShare(_ point: String, of sentence: String) -> Double {
        let words = GroundingWords.normalizedWords(point)
        let source = GroundingWords.normalizedWords(sentence)
        guard !words.isEmpty else { return 0 }
        var previous = Array(repeating: 0, count: source.count + 1)
        for word in words {
            var row = [0]
            for (index, other) in source.enumerated() {
                row.append(word == other ? previous[index] + 1 : max(previous[index + 1], row[index]))
            }
            previous = row
        }
        return Double(previous[source.count]) / Double(words.count)
    }

    /// The share of a restatement's words, in its sentence's order, that makes it a copy.
    static let maximumOrderedShare = 0.8

    /// The job that restates `sentences` (copied key points) in one request; its accepted answer
    /// is each point's verdict (``RestatedPoints``), and it is refused when no point passes.
    static func restatedKeyPointsJob(_ sentences: [String], material: String) -> ItemJob {
        let prompt = "Sentences:\n" + sentences.enumerated().map { "\($0 + 1). \($1)" }.joined(separator: "\n")
        let schema = restatedKeyPointsSchema(count: sentences.count)
        return ItemJob(path: "keyPoints", prompt: prompt, schema: schema) { json in
            guard let points = json["points"]?.arrayValue?.map({ $0.stringValue.map(ProseText.oneLine) ?? "" }),
                points.count == sentences.count
            else {
                return .failure(ItemRejection(reason: "the answer did not have one key point per sentence"))
            }
            let verdicts = zip(points, sentences).map { point, sentence in
                restatementProblem(point, of: sentence, material: material).map { RestatedPoints.Verdict.kept($0) }
                    ?? .restated(point)
            }
            guard verdicts.contains(where: \.isRestated) else {
                return .failure(ItemRejection(reason: verdicts.first?.reason ?? "the answer had no key point"))
            }
            return .success(RestatedPoints(verdicts: verdicts).encoded)
        }
    }

    /// `result` (a summary or a kit a server model wrote) with the key points that are the
    /// material's own words restated by `engine`, where a restatement passes; `items` updated to
    /// match. Unchanged when there is none to restate, or when the whole no longer validates.
    func restatingCopiedKeyPoints(
        _ result: AnyStudyResult, items: [ItemProvenance]
    ) async -> (result: AnyStudyResult, items: [ItemProvenance]) {
        let prefix: String
        let summary: Summary
        switch result {
        case .summary(let own): (prefix, summary) = ("", own)
        case .studyKit(let kit): (prefix, summary) = ("summary.", kit.summary)
        default: return (result, items)
        }
        let materialWords = GroundingWords.normalizedWords(material)
        // The key points shipped as the material's words: the model's copies, and any the builtin
        // engine's part added.
        let byPath = Dictionary(items.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        let copied = summary.keyPoints.indices.filter { index in
            byPath[prefix + "keyPoints[\(index)]"]?.kind == .extracted
                && GroundingWords.containsRun(
                    GroundingWords.normalizedWords(summary.keyPoints[index]), in: materialWords)
        }
        guard !copied.isEmpty else { return (result, items) }
        let job = Self.restatedKeyPointsJob(copied.map { summary.keyPoints[$0] }, material: material)
        let outcome = await runItems(
            [job], task: .summary, spec: Self.restatedKeyPointsSpec)[0]
        var points = summary.keyPoints
        var notes: [Int: (kind: ItemProvenance.Kind, note: String)] = [:]
        let copy = "the material's own words, chosen by \(engine.modelName); not restated: "
        switch outcome {
        case .kept(let reason):
            note("\(engine.kind.rawValue): the copied key points stay as copied: \(reason)")
            return (result, items)
        case .rewritten(let encoded):
            guard let restated = RestatedPoints(encoded: encoded), restated.verdicts.count == copied.count else {
                return (result, items)
            }
            var seen = Set(points.map { ProseText.duplicateKey($0) })
            for (index, verdict) in zip(copied, restated.verdicts) {
                guard case .restated(let text) = verdict else {
                    notes[index] = (.extracted, copy + (verdict.reason ?? ""))
                    continue
                }
                // Nor a repeat or a near-copy of another point or of the overview.
                let others = points.indices.filter { $0 != index }.map { points[$0] }
                    + SentenceSplitter().split(summary.overview).map(\.text)
                guard !Self.nearCopy(text, of: others), seen.insert(ProseText.duplicateKey(text)).inserted else {
                    notes[index] = (.extracted, copy + "the restatement repeats another point or the overview")
                    continue
                }
                points[index] = text
                notes[index] = (.rewritten, "restated by \(engine.modelName) from a sentence of the material")
            }
        }
        // The whole still validates and is grounded, as the model's answer had to: a restated
        // point that breaks a rule beside the others (a near-copy of a sentence of the overview)
        // is its copy again, until none does.
        var restated = summary
        restated.keyPoints = points
        let size = AnyStudyResult.summary(summary).heldSize
        while true {
            let failing = partIssues(.summary(restated), size: size).filter { $0.path.hasPrefix("keyPoints") }
            guard let first = failing.first else { break }
            let rewrittenAt = Set(notes.filter { $0.value.kind == .rewritten }.map(\.key))
            let broken = rewrittenAt.filter { index in failing.contains { $0.path.hasPrefix("keyPoints[\(index)]") } }
            // A rule broken by a point that was not restated: the restatements are what changed.
            for index in broken.isEmpty ? rewrittenAt : broken {
                restated.keyPoints[index] = summary.keyPoints[index]
                let own = failing.first { $0.path.hasPrefix("keyPoints[\(index)]") } ?? first
                notes[index] = (.extracted, copy + "the restatement \(own.message)")
            }
            if broken.isEmpty || rewrittenAt.count == broken.count { break }
        }
        let updated = items.map { record in
            guard record.path.hasPrefix(prefix + "keyPoints["),
                let index = Int(record.path.dropFirst(prefix.count + "keyPoints[".count).prefix { $0.isNumber }),
                let made = notes[index]
            else { return record }
            return ItemProvenance(path: record.path, kind: made.kind, note: made.note)
        }
        guard notes.values.contains(where: { $0.kind == .rewritten }) else { return (result, updated) }
        let rewritten: AnyStudyResult
        switch result {
        case .studyKit(var kit):
            kit.summary = restated
            rewritten = .studyKit(kit)
        default: rewritten = .summary(restated)
        }
        return (rewritten, updated)
    }
}

/// The verdicts of one batch of restated key points, carried as an item answer's text.
struct RestatedPoints: Equatable {
    enum Verdict: Equatable {
        case restated(String)
        case kept(String)

        var isRestated: Bool { if case .restated = self { true } else { false } }
        /// Why the copy was kept, for a point that was not restated.
        var reason: String? { if case .kept(let why) = self { why } else { nil } }
    }

    let verdicts: [Verdict]

    init(verdicts: [Verdict]) { self.verdicts = verdicts }

    /// The verdicts as JSON text: `[{"restated": …} | {"kept": …}]`.
    var encoded: String {
        JSONValue.array(verdicts.map { verdict in
            switch verdict {
            case .restated(let text): .object(["restated": .string(text)])
            case .kept(let why): .object(["kept": .string(why)])
            }
        }).compactText
    }

    init?(encoded: String) {
        guard let list = (try? JSONValue.parse(encoded))?.arrayValue else { return nil }
        var verdicts: [Verdict] = []
        for item in list {
            if let text = item["restated"]?.stringValue { verdicts.append(.restated(text)) }
            else if let why = item["kept"]?.stringValue { verdicts.append(.kept(why)) }
            else { return nil }
        }
        self.verdicts = verdicts
    }
}
