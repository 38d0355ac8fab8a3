import Foundation

// MARK: - Summary

extension BuiltinEngine {
    private static let overviewLength = 1_000
    private static let overviewWords = 120
    private static let keyPointLength = 300
    private static let keyPointWords = 30
    private static let keyPointTarget = 5
    private static let keyPointLimit = 8

    /// `text` as a key point when it passes the key-point rules whole (``ItemMeaning/keyPoint``):
    /// one finished sentence (``ProseText/isUnfinished(_:)``) that reads on its own
    /// (``StandaloneSentence/readsOnItsOwn(_:)``) within the bounds, ending as a sentence, with four content words.
    static func keyPoint(_ text: String, standalone: Bool = true) -> String? {
        guard !ProseText.isUnfinished(text), !isLineBlock(text),
            !standalone || StandaloneSentence.readsOnItsOwn(text) else { return nil }
        let point = ProseText.sentence(text)
        guard ProseText.length(point) <= keyPointLength, ProseText.wordCount(point) <= keyPointWords,
            ItemRules.problem(point, .keyPoint) == nil
        else { return nil }
        return point
    }

    /// Whether a unit is a block of short lines none of which ends as a sentence: a plain-text
    /// title over its subtitle ("The Black Death, 1347-1351" over "Medieval Europe, revision sheet
    /// 3"), which the splitter keeps as one unit. It is no sentence, so no key point and no
    /// sentence of an overview (the lead is left as it was: an overview that opened on the
    /// material's first sentence instead made a model's key points near-copies of it, and the
    /// calibration replay lost three useful held-out items); a wrapped paragraph ends as a
    /// sentence on its last line.
    static func isLineBlock(_ text: String) -> Bool {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        return lines.count >= 2
            && lines.allSatisfy { !ProseText.endsSentence($0, alsoAt: ":;") && ProseText.wordCount($0) <= 10 }
    }

    /// Whether a sentence can open the material for a reader who has read nothing of it — a
    /// blurb, an overview: it reads on its own (``StandaloneSentence/readsOnItsOwn(_:)``) and names no "this …",
    /// "these …", "those …" or "such …" but the material itself ("If you don't want these messages
    /// printed …", "An instance of this handler …", "As part of making such internal changes …"
    /// point at what the text said before; "such as" does not).
    static func opensOnItsOwn(_ unit: String) -> Bool {
        guard StandaloneSentence.readsOnItsOwn(unit) else { return false }
        // Up to the first semicolon: after it, "this task" may point at the clause before it in the
        // same sentence ("To use Debian, you need to install it on a computer; this task is …").
        let lower = String(ProseText.oneLine(unit).lowercased().prefix { $0 != ";" })
        return pointing.firstMatch(in: lower, range: NSRange(lower.startIndex..., in: lower)) == nil
    }

    private static let pointing = try! NSRegularExpression(
        pattern: #"\b(this|these|those|such)\b(?! "#
            + #"(as|that|chapter|section|article|tutorial|document|documentation|book|guide|howto|how-to|page|"#
            + #"manual|handbook|part|package|library|program|tool)s?\b)"#)

    /// Whether a unit is a piece of a longer sentence cut for length (by the splitter, or by
    /// ``BuiltinAnalysis``'s run-on chunks): the unit before it in its paragraph, right beside it,
    /// stops with no sentence end ("… which is even more" after "… you should try the"), or it
    /// stops so itself with the next unit right beside it ("… containing only").
    static func isPieceOfLongerSentence(_ unit: Sentence, in analysis: BuiltinAnalysis) -> Bool {
        guard !unit.isListItem, !unit.isHeading else { return false }
        func endsSentence(_ text: String) -> Bool {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            // (Nothing but closing marks, or nothing at all, leaves nothing open either.)
            return trimmed.allSatisfy(ProseText.closers.contains) || ProseText.endsSentence(trimmed, alsoAt: ":;")
        }
        func abuts(_ first: Sentence, _ second: Sentence) -> Bool {
            first.paragraph == second.paragraph && !first.isHeading && !first.isListItem && !second.isListItem
                && second.offsets.lowerBound - first.offsets.upperBound <= 1
        }
        let units = analysis.units
        if unit.index > 0, unit.index < units.count, abuts(units[unit.index - 1], unit),
            !endsSentence(units[unit.index - 1].text) {
            return true
        }
        if unit.index + 1 < units.count, abuts(unit, units[unit.index + 1]), !endsSentence(unit.text) { return true }
        return false
    }

    /// The lead sentence, where material states its subject: the first prose unit of five words
    /// or more near the top (a HOWTO's "Release: 0.1" field line above its first paragraph is
    /// none) that opens the material on its own (``opensOnItsOwn(_:)``) and is no part of an
    /// editor's bracketed note ("[This document will be expanded when … Please report typos …]"
    /// above "This documentation, for BibTeX version 0.99b, is meant for general BibTeX users");
    /// else the first such unit of five words; else the first prose unit.
    static func lead(_ analysis: BuiltinAnalysis) -> Sentence {
        let top = analysis.prose.prefix(8).filter { ProseText.wordCount($0.text) >= 5 }
        // The paragraphs that open with a bracket: an aside, however many sentences it holds.
        let asides = Set(analysis.prose.prefix(8).filter { $0.text.hasPrefix("[") }.map(\.paragraph))
        return top.first { !asides.contains($0.paragraph) && opensOnItsOwn($0.text)
            && !isPieceOfLongerSentence($0, in: analysis) }
            ?? top.first ?? analysis.prose[0]
    }

    /// The summary of sentences that read on their own (``StandaloneSentence/readsOnItsOwn(_:)``); for a thin text
    /// that has too few of them, the summary of all its sentences rather than none.
    func summary(_ analysis: BuiltinAnalysis) throws(BuiltinError) -> Summary {
        do {
            return try summary(analysis, standalone: true)
        } catch .tooShort {
            return try summary(analysis, standalone: false)
        }
    }

    private func summary(_ analysis: BuiltinAnalysis, standalone: Bool) throws(BuiltinError) -> Summary {
        let usable = analysis.usableSentenceCount
        // Overview: the lead sentence (where material states its subject), then the most
        // central sentences, in document order; two or three by the validator's count.
        // Sentences of five words or more first.
        let lead = Self.lead(analysis)
        let longFirst = [lead] + analysis.ranked.map(\.sentence).filter { ProseText.wordCount($0.text) >= 5 }
            + analysis.ranked.map(\.sentence).filter { ProseText.wordCount($0.text) < 5 }
        var chosen: [Sentence] = []
        var seen = Set<String>()
        var overview = ""
        for (position, candidate) in longFirst.enumerated() {
            guard chosen.count < 3, ResultProse.sentenceCount(overview) < 3 else { break }
            if position == 0, ProseText.wordCount(candidate.text) < 5 { continue }
            // The material's own "This article covers …" is filler in an overview too.
            if ItemRules.isEmptyProse(candidate.text) || ProseText.isUnfinished(candidate.text)
                || Self.isLineBlock(candidate.text) {
                continue
            }
            // A function's prototype is no sentence of an overview, as it is no key point.
            if ItemRules.isCodeDeclaration(candidate.text) { continue }
            // An overview has no room for the sentence another one leans on: it opens the material.
            if standalone, !Self.opensOnItsOwn(candidate.text)
                || Self.isPieceOfLongerSentence(candidate, in: analysis) { continue }
            let key = ProseText.duplicateKey(ProseText.sentence(candidate.text))
            guard !seen.contains(key) else { continue }
            let trial = (chosen + [candidate]).sorted { $0.offsets.lowerBound < $1.offsets.lowerBound }
            let text = trial.map { ProseText.sentence($0.text) }.joined(separator: " ")
            // Both of the schema's bounds: a table's rows ("AES-GCM | ✔ | ✔ …") are many words in few characters.
            guard ProseText.length(text) <= Self.overviewLength, ProseText.wordCount(text) <= Self.overviewWords,
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
        // A definition list's description names no one on its own ("A noble elected for the
        // Third Estate, …"): as a key point it is said with its name ("Mirabeau: A noble …").
        let names = Dictionary(
            analysis.definitions.filter { !$0.isInline }.map { ($0.description.index, $0.term) },
            uniquingKeysWith: { first, _ in first })
        func said(_ unit: Sentence) -> String { names[unit.index].map { "\($0): \(unit.text)" } ?? unit.text }
        let remaining = analysis.ranked.filter { !chosenIndices.contains($0.sentence.index) }
        var bestOfSection: [Int: RankedSentence] = [:]
        for entry in remaining {
            // The section first: a book has thousands of sentences, and a section that has its
            // point already needs no more key-point checks.
            let section = analysis.outline.sectionOfUnit[entry.sentence.index]
            if bestOfSection[section] == nil, Self.keyPoint(said(entry.sentence), standalone: standalone) != nil,
                !standalone || !Self.isPieceOfLongerSentence(entry.sentence, in: analysis)
            {
                bestOfSection[section] = entry
            }
        }
        let perSection = bestOfSection.values.sorted { $0.rank < $1.rank }
        let target = min(Self.keyPointLimit, max(Self.keyPointTarget, perSection.count))
        var points: [String] = []
        var pointKeys = Set<String>()
        // The overview's sentences as the validator splits them, so the checks agree.
        func sentenceKeys(_ text: String) -> [Set<String>] {
            SentenceSplitter().split(text).map { ItemRules.overlapKeys($0.text) }
        }
        var overviewKeys = sentenceKeys(overview)
        var taken: [Set<String>] = []
        func add(_ text: String) {
            guard points.count < Self.keyPointLimit,
                let point = Self.keyPoint(text, standalone: standalone) else { return }
            let key = ProseText.duplicateKey(point)
            let stems = ItemRules.overlapKeys(point)
            guard !pointKeys.contains(key),
                !(overviewKeys + taken).contains(where: { ItemRules.nearCopy(stems, $0) }) else { return }
            points.append(point)
            pointKeys.insert(key)
            taken.append(stems)
        }
        for entry in perSection.prefix(target) { add(said(entry.sentence)) }
        for entry in remaining where points.count < target {
            if standalone, Self.isPieceOfLongerSentence(entry.sentence, in: analysis) { continue }
            add(said(entry.sentence))
        }
        // Thin text: the overview gives up its third sentence before the summary fails.
        if points.count < 3, chosen.count == 3 {
            let dropped = chosen.sorted { a, b in
                let ra = analysis.ranked.firstIndex { $0.sentence.index == a.index } ?? 0
                let rb = analysis.ranked.firstIndex { $0.sentence.index == b.index } ?? 0
                return ra > rb
            }.first { $0.index != lead.index }
            if let dropped, Self.keyPoint(dropped.text, standalone: standalone) != nil {
                let kept =
                    chosen.filter { $0.index != dropped.index }.sorted { $0.offsets.lowerBound < $1.offsets.lowerBound }
                let shorter = kept.map { ProseText.sentence($0.text) }.joined(separator: " ")
                if ResultProse.sentenceCount(shorter) >= 2 {
                    overview = shorter
                    overviewKeys = sentenceKeys(shorter)
                    add(dropped.text)
                }
            }
        }
        guard points.count >= 3 else { throw .tooShort(task: .summary, usableSentences: usable) }
        // A long document's points by section (#54); a thin text's summary has none to give.
        let groups = standalone ? sectionPoints(analysis, avoiding: overviewKeys + taken, keys: pointKeys,
            said: said) : []
        return Summary(overview: overview, keyPoints: points, sections: groups)
    }

    // MARK: Key points by section

    /// Distinct characters from which a document with an outline is long enough for key points
    /// by section: more than a page of notes (samples/notes.pdf has 8,190 in 7 sections and keeps
    /// its summary of one list), less than the 33,000 of samples/long.pdf.
    static let sectionSummaryCharacters = 15_000
    /// The fewest top-level sections with text that make an outline worth following.
    static let sectionSummarySections = 3
    /// Distinct characters of a section per key point of its own: one point per 2,500, 1 to
    /// ``Summary/pointsPerSection``.
    static let charactersPerSectionPoint = 2_500
    /// The most groups one summary has: past that, the opening section and the longest others.
    static let sectionGroupLimit = 40

    /// The key points of each top-level section of a long document, in document order: the
    /// sections are the mind map's branches before their limit (``outlineTrees(_:centre:)``: the
    /// title, code and front matter left out, numbered chapters as the top level), each with
    /// its subsections; a section's points are its most central sentences that pass the
    /// key-point rules and repeat no point or overview sentence (`avoiding`, `keys`), one per
    /// 2,500 of its distinct characters, from as many of its subsections as they can be. A
    /// section repeated word for word (a textbook's copy) has no distinct characters and no
    /// group. None when the document is not long (``sectionSummaryCharacters``) or has fewer than
    /// three such sections.
    private func sectionPoints(
        _ analysis: BuiltinAnalysis, avoiding: [Set<String>], keys: Set<String>, said named: (Sentence) -> String
    ) -> [Summary.SectionPoints] {
        guard analysis.sections.distinctCharacters >= Self.sectionSummaryCharacters,
            let outline = Self.outlineTrees(analysis, centre: mapCentre(analysis))
        else { return [] }
        // Each section's distinct characters: its prose units said there first (a textbook's
        // second copy adds none, however its sections are cut), and those units, the only ones
        // a point is taken from.
        var said = Set<String>()
        var firstSaid = Set<Int>()
        var own = [Int: Int]()
        for section in analysis.outline.sections {
            for unit in section.sentences where !unit.isCode && said.insert(unit.text).inserted {
                firstSaid.insert(unit.index)
                own[section.index, default: 0] += unit.text.count
            }
        }
        var treeOfSection: [Int: Int] = [:]
        var weights: [Int] = []
        for (position, tree) in outline.trees.enumerated() {
            let members = Self.flattened(tree).map(\.index)
            for member in members { treeOfSection[member] = position }
            weights.append(members.reduce(0) { $0 + (own[$1] ?? 0) })
        }
        let withText = weights.indices.filter { weights[$0] >= BodySections.minimumCharacters }
        guard withText.count >= Self.sectionSummarySections else { return [] }
        let kept = Self.chosen(withText, weight: { weights[$0] }, limit: Self.sectionGroupLimit)
        // The candidates of each kept tree, most central first: one pass over the ranking.
        var candidates = [Int: [Sentence]]()
        let wanted = Set(kept)
        for entry in analysis.ranked {
            let unit = entry.sentence.index
            guard firstSaid.contains(unit), analysis.outline.sectionOfUnit.indices.contains(unit),
                let tree = treeOfSection[analysis.outline.sectionOfUnit[unit]], wanted.contains(tree)
            else { continue }
            candidates[tree, default: []].append(entry.sentence)
        }
        var taken = avoiding
        var seen = keys
        var headings = Set<String>()
        var groups: [Summary.SectionPoints] = []
        for tree in kept {
            let count = min(Summary.pointsPerSection, max(1, weights[tree] / Self.charactersPerSectionPoint))
            var points: [String] = []
            var subsections = Set<Int>()
            // A few candidates past the points wanted: a section whose best sentences all lean on
            // the one before is not read to its end (a book has thousands of sentences). First
            // one point per subsection, then the next most central of any.
            let pool = (candidates[tree] ?? []).prefix(4 * count + 12)
            for spread in [true, false] {
                for sentence in pool where points.count < count {
                    let subsection = analysis.outline.sectionOfUnit[sentence.index]
                    guard !spread || !subsections.contains(subsection), let point = Self.keyPoint(named(sentence)),
                        !Self.isPieceOfLongerSentence(sentence, in: analysis)
                    else { continue }
                    let key = ProseText.duplicateKey(point)
                    let stems = ItemRules.overlapKeys(point)
                    guard !seen.contains(key),
                        !taken.contains(where: { ItemRules.nearCopy(stems, $0) }) else { continue }
                    points.append(point)
                    subsections.insert(subsection)
                    seen.insert(key)
                    taken.append(stems)
                }
            }
            let heading = Self.sectionHeading(outline.trees[tree].section.heading ?? "")
            guard !points.isEmpty, !heading.isEmpty,
                headings.insert(ProseText.duplicateKey(heading)).inserted else { continue }
            groups.append(Summary.SectionPoints(section: heading, keyPoints: points))
        }
        return groups.count >= Self.sectionSummarySections ? groups : []
    }

    /// A section's heading as its group names it: one line, without its section number, at most
    /// 120 characters (cut at a word).
    private static func sectionHeading(_ heading: String) -> String {
        let line = ProseText.oneLine(withoutHeadingNumber(heading)).trimmingCharacters(in: .whitespaces)
        return ProseText.shortened(line, maxWords: 30, maxLength: 120, ending: "")
    }
}
