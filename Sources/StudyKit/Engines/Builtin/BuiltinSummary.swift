// MARK: - Summary

extension BuiltinEngine {
    private static let overviewLength = 1_000
    private static let overviewWords = 120
    private static let keyPointLength = 300
    private static let keyPointWords = 30
    private static let keyPointTarget = 5
    private static let keyPointLimit = 8

    /// `text` as a key point when it passes the key-point rules whole (``ItemMeaning/keyPoint``):
    /// one finished sentence (``BuiltinProse/isUnfinished(_:)``) within the bounds, ending as a
    /// sentence, with four content words.
    static func keyPoint(_ text: String) -> String? {
        guard !BuiltinProse.isUnfinished(text) else { return nil }
        let point = BuiltinProse.sentence(text)
        guard BuiltinProse.length(point) <= keyPointLength, BuiltinProse.wordCount(point) <= keyPointWords,
            ItemRules.problem(point, .keyPoint) == nil
        else { return nil }
        return point
    }

    func summary(_ analysis: BuiltinAnalysis) throws(BuiltinError) -> Summary {
        let usable = analysis.usableSentenceCount
        // Overview: the lead sentence (where material states its subject), then the most
        // central sentences, in document order; two or three by the validator's count.
        // Sentences of five words or more first.
        let lead = analysis.prose[0]
        let longFirst = [lead] + analysis.ranked.map(\.sentence).filter { BuiltinProse.wordCount($0.text) >= 5 }
            + analysis.ranked.map(\.sentence).filter { BuiltinProse.wordCount($0.text) < 5 }
        var chosen: [Sentence] = []
        var seen = Set<String>()
        var overview = ""
        for (position, candidate) in longFirst.enumerated() {
            guard chosen.count < 3, ResultProse.sentenceCount(overview) < 3 else { break }
            if position == 0, BuiltinProse.wordCount(candidate.text) < 5 { continue }
            // The material's own "This article covers …" is filler in an overview too.
            if ItemRules.isEmptyProse(candidate.text) || BuiltinProse.isUnfinished(candidate.text) { continue }
            // A function's prototype is no sentence of an overview, as it is no key point.
            if ItemRules.isCodeDeclaration(candidate.text) { continue }
            let key = BuiltinProse.duplicateKey(BuiltinProse.sentence(candidate.text))
            guard !seen.contains(key) else { continue }
            let trial = (chosen + [candidate]).sorted { $0.offsets.lowerBound < $1.offsets.lowerBound }
            let text = trial.map { BuiltinProse.sentence($0.text) }.joined(separator: " ")
            // Both of the schema's bounds: a table's rows ("AES-GCM | ✔ | ✔ …") are many words in few characters.
            guard BuiltinProse.length(text) <= Self.overviewLength, BuiltinProse.wordCount(text) <= Self.overviewWords,
                ResultProse.sentenceCount(text) <= 3,
                ItemRules.repeatedPhrase(in: text) == nil
            else { continue }
            chosen.append(candidate)
            seen.insert(key)
            overview = text
        }
        guard ResultProse.sentenceCount(overview) >= 2 else { throw .tooShort(task: .summary, usableSentences: usable) }

        // Key points: the best remaining sentence of each section, most central first, then the
        // next most central sentences up to the target. Each must pass the key-point rules the
        // models answer to (a whole sentence, four content words, no near-copy of the overview or
        // of another point): a sentence too long for a point is skipped, never cut.
        let chosenIndices = Set(chosen.map(\.index))
        let remaining = analysis.ranked.filter { !chosenIndices.contains($0.sentence.index) }
        var bestOfSection: [Int: RankedSentence] = [:]
        for entry in remaining {
            // The section first: a book has thousands of sentences, and a section that has its
            // point already needs no more key-point checks.
            let section = analysis.outline.sectionOfUnit[entry.sentence.index]
            if bestOfSection[section] == nil, Self.keyPoint(entry.sentence.text) != nil { bestOfSection[section] = entry }
        }
        let perSection = bestOfSection.values.sorted { $0.rank < $1.rank }
        let target = min(Self.keyPointLimit, max(Self.keyPointTarget, perSection.count))
        var points: [String] = []
        var pointKeys = Set<String>()
        // The overview's sentences as the validator splits them, so the checks agree.
        func sentenceKeys(_ text: String) -> [Set<String>] { SentenceSplitter().split(text).map { ItemRules.overlapKeys($0.text) } }
        var overviewKeys = sentenceKeys(overview)
        var taken: [Set<String>] = []
        func add(_ text: String) {
            guard points.count < Self.keyPointLimit, let point = Self.keyPoint(text) else { return }
            let key = BuiltinProse.duplicateKey(point)
            let stems = ItemRules.overlapKeys(point)
            guard !pointKeys.contains(key), !(overviewKeys + taken).contains(where: { ItemRules.nearCopy(stems, $0) }) else { return }
            points.append(point)
            pointKeys.insert(key)
            taken.append(stems)
        }
        for entry in perSection.prefix(target) { add(entry.sentence.text) }
        for entry in remaining where points.count < target { add(entry.sentence.text) }
        // Thin text: the overview gives up its third sentence before the summary fails.
        if points.count < 3, chosen.count == 3 {
            let dropped = chosen.sorted { a, b in
                let ra = analysis.ranked.firstIndex { $0.sentence.index == a.index } ?? 0
                let rb = analysis.ranked.firstIndex { $0.sentence.index == b.index } ?? 0
                return ra > rb
            }.first { $0.index != lead.index }
            if let dropped, Self.keyPoint(dropped.text) != nil {
                let kept = chosen.filter { $0.index != dropped.index }.sorted { $0.offsets.lowerBound < $1.offsets.lowerBound }
                let shorter = kept.map { BuiltinProse.sentence($0.text) }.joined(separator: " ")
                if ResultProse.sentenceCount(shorter) >= 2 {
                    overview = shorter
                    overviewKeys = sentenceKeys(shorter)
                    add(dropped.text)
                }
            }
        }
        guard points.count >= 3 else { throw .tooShort(task: .summary, usableSentences: usable) }
        return Summary(overview: overview, keyPoints: points)
    }
}
