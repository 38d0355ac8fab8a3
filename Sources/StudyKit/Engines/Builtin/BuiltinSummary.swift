// MARK: - Summary

extension BuiltinEngine {
    private static let overviewLength = 1_000
    private static let keyPointLength = 300
    private static let keyPointTarget = 5
    private static let keyPointLimit = 8

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
            let key = BuiltinProse.duplicateKey(BuiltinProse.sentence(candidate.text))
            guard !seen.contains(key) else { continue }
            let trial = (chosen + [candidate]).sorted { $0.offsets.lowerBound < $1.offsets.lowerBound }
            let text = trial.map { BuiltinProse.sentence($0.text) }.joined(separator: " ")
            guard BuiltinProse.length(text) <= Self.overviewLength, ResultProse.sentenceCount(text) <= 3 else { continue }
            chosen.append(candidate)
            seen.insert(key)
            overview = text
        }
        guard ResultProse.sentenceCount(overview) >= 2 else { throw .tooShort(task: .summary, usableSentences: usable) }

        // Key points: the best remaining sentence of each section, most central first, then the
        // next most central sentences up to the target.
        let chosenIndices = Set(chosen.map(\.index))
        let remaining = analysis.ranked.filter { !chosenIndices.contains($0.sentence.index) }
        var bestOfSection: [Int: RankedSentence] = [:]
        for entry in remaining {
            let section = analysis.outline.sectionOfUnit[entry.sentence.index]
            if bestOfSection[section] == nil { bestOfSection[section] = entry }
        }
        let perSection = bestOfSection.values.sorted { $0.rank < $1.rank }
        let target = min(Self.keyPointLimit, max(Self.keyPointTarget, perSection.count))
        var points: [String] = []
        var pointKeys = Set<String>()
        func add(_ text: String) {
            guard points.count < Self.keyPointLimit else { return }
            let point = BuiltinProse.shortened(BuiltinProse.sentence(text), maxLength: Self.keyPointLength)
            let key = BuiltinProse.duplicateKey(point)
            guard !point.isEmpty, !pointKeys.contains(key) else { return }
            points.append(point)
            pointKeys.insert(key)
        }
        for entry in perSection.prefix(target) { add(entry.sentence.text) }
        for entry in remaining where points.count < target { add(entry.sentence.text) }
        // Thin text: repeat overview sentences as points, then name the key terms.
        for sentence in chosen where points.count < 3 { add(sentence.text) }
        for phrase in analysis.keyphrases where points.count < 3 { add("Key term: \(BuiltinProse.termText(phrase.text)).") }
        guard points.count >= 3 else { throw .tooShort(task: .summary, usableSentences: usable) }
        return Summary(overview: overview, keyPoints: points)
    }
}
