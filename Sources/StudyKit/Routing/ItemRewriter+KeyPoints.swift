import Foundation

// MARK: - Key points shortened by the model

/// A summary's key points are sentences of the material, chosen by the builtin engine; many are
/// long ("Some parish priests did so, and on 17 June the Third Estate declared itself the
/// National Assembly, claiming to represent the whole nation."). A key point to revise from says
/// the sentence's main fact in a few words, and shortening one sentence is a Post-it job a small
/// model can finish: it is shown only that sentence, and its answer is refused unless it is
/// shorter, adds nothing, keeps the sentence's numbers and ends as a sentence.
extension ItemRewriter {
    /// The fewest words a key point must have for the model to be asked to shorten it.
    static let keyPointWordsToShorten = 11

    /// The most words a key point may have for the model to be asked to shorten it. Shortening a
    /// longer sentence to 14 words means dropping most of it, which a small model does not do
    /// well: Qwen2.5-Coder-0.5B had none of 6 such sentences accepted on notes.pdf and long.pdf
    /// (it glued words to stay under the limit, "NationalGuard,Commanded", or stopped
    /// mid-clause), against 3 of 7 of 11 to 20 words. Those seconds go to jobs it can finish.
    static let keyPointWordsForModel = 20

    /// The most words a shortened key point may have.
    static let shortenedKeyPointWords = 14

    static let keyPointSpec = ItemSpec(
        name: "key_point", version: "summary.keyPoint/3",
        instructions: """
            You shorten one sentence of a student's notes into a key point to revise from.
            Keep its main fact with its names, numbers and dates, in at most 12 words: drop the side details. Use the \
            sentence's own words.
            Example. Sentence: In 1905, while working as a clerk at the patent office in Bern, Albert Einstein \
            published four papers that changed physics.
            {"point": "In 1905 Einstein published four papers that changed physics."}
            Example. Sentence: The mitochondria, which are found in almost every cell of the body, produce most of the \
            cell's ATP through respiration.
            {"point": "Mitochondria produce most of the cell's ATP through respiration."}
            Reply with a JSON object with "point".
            """,
        schema: .object([
            .init("point", description: "The sentence's main fact in at most 14 words.",
                .string(maxLength: 140, maxWords: shortenedKeyPointWords, forbiddenCharacters: "\n", meaning: .keyPoint)
            )
        ]),
        // 14 words with the grammar's room to finish, and the JSON around them.
        maximumTokens: 60)

    /// Whether a key point is long enough to be worth shortening.
    static func keyPointNeedsShortening(_ point: String) -> Bool {
        ProseText.wordCount(point) >= keyPointWordsToShorten
    }

    /// Whether a key point that needs shortening is short enough for a small model to shorten.
    static func keyPointFitsTheModel(_ point: String) -> Bool {
        ProseText.wordCount(point) <= keyPointWordsForModel
    }

    /// Whether a key point has a side detail a shorter one can drop: a clause set off by a comma,
    /// a semicolon, a bracket or a dash, a relative or subordinate clause, or a gloss after a
    /// term and a colon. Without one, every word is the main fact ("On 26 August 1789 the
    /// Assembly adopted the Declaration of the Rights of Man and of the Citizen."; "17 June 1789:
    /// the Third Estate declares itself the National Assembly."): the 0.5B gave 3 such sentences
    /// of long.pdf back whole or all but whole, and each attempt took a second.
    static func keyPointHasASideDetail(_ point: String) -> Bool {
        if point.contains(where: { ",;()[]—–".contains($0) }) || point.contains(" - ") { return true }
        let words = Set(GroundingWords.normalizedWords(point))
        if !words.isDisjoint(with: [
            "which", "who", "whose", "whom", "where", "while", "because", "although", "though", "when",
        ]) {
            return true
        }
        // A colon after a term ("Chlorophyll: the green pigment that …"), not after a date.
        guard let colon = point.firstIndex(of: ":") else { return false }
        return GroundingWords.contentStems(String(point[..<colon])).contains { !monthStems.contains($0) }
    }

    /// The job that shortens `point`, a sentence of the material.
    static func keyPointJob(_ point: String, path: String) -> ItemJob {
        var job = ItemJob(path: path, prompt: "Sentence: \(point)") { json in
            guard let shortened = json["point"]?.stringValue.map(ProseText.oneLine), !shortened.isEmpty else {
                return .failure(ItemRejection(reason: "the answer had no key point"))
            }
            if let problem = ItemRules.problem(shortened, .keyPoint) {
                return .failure(ItemRejection(reason: "the key point \(problem)"))
            }
            if let end = ItemRules.openClauseEnd(shortened) ?? ItemRules.cutMidClause(shortened, from: point) {
                return .failure(ItemRejection(reason: "the key point was cut after “\(end)”"))
            }
            if let term = ItemRules.alteredTerm(shortened, from: point) {
                return .failure(ItemRejection(reason: "the key point changed the sentence's term (\(term))"))
            }
            // Shortening adds nothing: every content word and number is the sentence's own.
            let sentenceStems = Set(GroundingWords.contentStems(point))
            if let added = GroundingWords.contentStems(shortened).first(where: { !sentenceStems.contains($0) }) {
                return .failure(
                    ItemRejection(reason: "the key point added a word the sentence does not have (\(added))"))
            }
            if let marker = ItemRules.addedMarker(shortened, from: point) {
                return .failure(
                    ItemRejection(reason: "the key point added “\(marker)”, which the sentence does not have"))
            }
            if let changed = Self.changedNumber(shortened, from: point) {
                return .failure(ItemRejection(reason: changed))
            }
            guard GroundingWords.contentStems(shortened).count >= 3 else {
                return .failure(ItemRejection(reason: "the key point kept too little of the sentence"))
            }
            return .success(shortened)
        }
        // Too long stays too long: a copied sentence is stopped at the word that makes it so.
        let sentenceWords = ProseText.wordCount(point)
        job.settledRefusal = { answer in
            let words = answer.settledWords("point").count
            guard words > shortenedKeyPointWords || words * 4 > sentenceWords * 3 else { return nil }
            return
                "the key point was not a quarter shorter than the sentence, in at most \(shortenedKeyPointWords) words"
        }
        return job
    }

    /// `summary`'s long key points, each shortened by `engine` when its answer passes; the
    /// provenance of every key point.
    func shortenKeyPoints(
        _ summary: Summary
    ) async -> (keyPoints: [String], provenance: [ItemProvenance]) {
        let outcomes = await runItems(
            summary.keyPoints.enumerated().filter {
                Self.keyPointNeedsShortening($0.element) && Self.keyPointFitsTheModel($0.element)
                    && Self.keyPointHasASideDetail($0.element)
            }.map { index, point in
                (index, Self.keyPointJob(point, path: "keyPoints[\(index)]"))
            }, task: .summary, spec: Self.keyPointSpec,
                allowance: .forEngine(engine.kind))
        var points = summary.keyPoints
        var seen = Set(points.map { ProseText.duplicateKey($0) })
        var provenance: [ItemProvenance] = []
        for index in points.indices {
            let path = "keyPoints[\(index)]"
            guard let outcome = outcomes[index] else {
                let note = !Self.keyPointNeedsShortening(points[index])
                    ? "a key sentence of the material, short enough to keep whole"
                    : !Self.keyPointFitsTheModel(points[index])
                        ? "a key sentence of the material, kept whole: over \(Self.keyPointWordsForModel) words is "
                            + "more than a small model shortens well"
                    : "a key sentence of the material, kept whole: it has no side detail to drop"
                provenance.append(ItemProvenance(path: path, kind: .extracted, note: note))
                continue
            }
            // A shortened point must not become another point, or a near-copy of one.
            let others = points.enumerated().filter { $0.offset != index }.map(\.element)
            switch Self.fresh(outcome, seen: &seen, repeats: "the shortened key point repeats another", key: { text in
                Self.nearCopy(text, of: others) ? nil : text
            }) {
            case .success(let text):
                points[index] = text
                provenance.append(
                    ItemProvenance(
                        path: path, kind: .rewritten, note: "shortened by \(engine.modelName) from a key sentence"))
            case .failure(let kept):
                provenance.append(ItemProvenance(path: path, kind: .extracted, note: kept.reason))
            }
        }
        return (points, provenance)
    }

    /// Why `point` misstates its sentence's figures, or `nil`: it adds a number the sentence does
    /// not have, or drops one of its dates and figures, which are what a student revises. A name
    /// with a digit in it ("P700", "CO2") is a detail like any other word, and may go.
    static func changedNumber(_ point: String, from sentence: String) -> String? {
        let numbers = { (text: String) in GroundingWords.normalizedWords(text).filter { $0.contains(where: \.isNumber) }
        }
        let sentenceNumbers = numbers(sentence)
        let kept = numbers(point)
        if let added = kept.first(where: { !sentenceNumbers.contains($0) }) {
            return "the key point added a number the sentence does not have (\(added))"
        }
        if let dropped = sentenceNumbers.first(where: { $0.allSatisfy(\.isNumber) && !kept.contains($0) }) {
            return "the key point dropped the sentence's \(dropped)"
        }
        return nil
    }
}
