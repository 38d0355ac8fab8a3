// MARK: - Cloze item

/// A fill-in-the-blank question made from a source sentence.
struct ClozeItem: Sendable, Hashable {
    /// The source sentence, unchanged.
    let sentence: String
    /// The blanked term as it is written in the sentence (its first occurrence).
    let answer: String
    /// The sentence with every occurrence of the answer replaced by the blank.
    let clozeText: String
    /// Where the sentence lies in the source text.
    let sourceRange: Range<String.Index>
    /// The answer's first occurrence in the source text, as `Character` offsets.
    let answerOffsets: Range<Int>
    /// The keyphrase stem key the answer came from; one item per key.
    let answerKey: String

    /// The cloze text as shown: one line, without a list item's bullet or number.
    var shownQuestion: String { BuiltinProse.withoutListMarker(BuiltinProse.oneLine(clozeText)) }
    /// The source sentence as quoted: one line, without a list item's bullet or number.
    var shownSentence: String { BuiltinProse.withoutListMarker(BuiltinProse.oneLine(sentence)) }
}

// MARK: - Builder

/// Builds cloze items from ranked sentences and keyphrases, and picks distractors.
///
/// Deterministic: sentences are taken in rank order, and in each the best-scoring keyphrase not
/// yet used as an answer is blanked. Matching is by stems, so the keyphrase "light reaction"
/// blanks "light reactions" too; all occurrences in the sentence are blanked so the cloze text
/// never gives the answer away.
struct ClozeBuilder: Sendable {
    /// The text put where the answer was.
    var blank: String
    /// Sentences with fewer words are too thin to ask about.
    var minWords: Int
    /// Sentences with more words are too long to read as one question.
    var maxWords: Int
    /// Whether a single common English word ("list", "files") is an answer only where the
    /// sentence defines it ("A list is …"): a blank where "list" was teaches nothing; and whether
    /// a single word the sentence writes as a verb or an adjective ("passed", "defining", "useful")
    /// is never a blank (for English text).
    var screensCommonWords: Bool

    /// Creates a builder.
    init(blank: String = "_____", minWords: Int = 6, maxWords: Int = 40, screensCommonWords: Bool = false) {
        self.blank = blank
        self.minWords = minWords
        self.maxWords = maxWords
        self.screensCommonWords = screensCommonWords
    }

    /// Up to `limit` items: at most one per sentence and one per answer term.
    ///
    /// - Parameters:
    ///   - ranked: sentences most central first (`SentenceRanker.rank`); headings are skipped.
    ///   - keyphrases: candidate answers, best first (`KeyphraseExtractor`).
    func items(from ranked: [RankedSentence], keyphrases: [Keyphrase], limit: Int = 10) -> [ClozeItem] {
        var used = Set<String>()
        var items: [ClozeItem] = []
        let phraseStems = keyphrases.map { $0.key.split(separator: " ").map(String.init) }
        for entry in ranked where items.count < limit {
            let sentence = entry.sentence
            guard !sentence.isHeading else { continue }
            let words = BuiltinTerms.words(in: sentence.text)
            guard (minWords...max(minWords, maxWords)).contains(words.count) else { continue }
            let stems = words.map(\.stem)
            let chars = Array(sentence.text)
            let matchesOf = phraseStems.map { Self.occurrences(of: $0, in: stems) }
            for (k, phrase) in keyphrases.enumerated() where !used.contains(phrase.key) {
                let matches = matchesOf[k]
                guard let first = matches.first else { continue }
                // Blanking the whole sentence would leave nothing to read.
                guard phraseStems[k].count < words.count - 2 else { continue }
                // "The _____ reactions" is no question: skip a term said here as part of a longer keyphrase.
                let length = phraseStems[k].count
                let nested = matches.contains { m in
                    phraseStems.indices.contains { q in
                        phraseStems[q].count > length
                            && matchesOf[q].contains { $0 <= m && m + length <= $0 + phraseStems[q].count }
                    }
                }
                guard !nested else { continue }
                // "the binary package _____.Y" is no question either: a blank never cuts a
                // token that dots, hyphens or slashes join ("pythonX.Y", "light-dependent").
                guard !matches.contains(where: { m in
                    Self.cutsAToken(chars, words[m].offsets.lowerBound..<words[m + length - 1].offsets.upperBound)
                }) else { continue }
                // "_____: ASN1_SUCCESS if …" asks for the label of a reference entry ("Returns:"), not its content.
                guard !(first == 0 && chars.indices.contains(words[length - 1].offsets.upperBound)
                    && chars[words[length - 1].offsets.upperBound] == ":") else { continue }
                // The term "pass" (a heading's "pass Statements") matches "passed" by its stem, and
                // "loop" matches "looping"; a blank where the sentence says the term as a verb or
                // an adjective asks for no term.
                let said = words[first].lowercased
                if screensCommonWords, length == 1, said != phrase.text.lowercased(),
                    said.hasSuffix("ing") || KeyphraseExtractor.isVerbOrAdjective(said)
                {
                    continue
                }
                if screensCommonWords, length == 1, EnglishFrequency.isCommon(phrase.text),
                    KeyphraseExtractor.definedTerm(in: words, text: sentence.text) != phrase.key
                {
                    continue
                }
                items.append(makeItem(sentence: sentence, chars: chars, words: words, matches: matches, first: first,
                                      length: phraseStems[k].count, key: phrase.key))
                used.insert(phrase.key)
                break
            }
        }
        return items
    }

    /// Up to `count` wrong answers for `item`, taken from `keyphrases` and of the same kind.
    ///
    /// Kind means shape: numbers go with numbers, capitalized names with names, acronyms with
    /// acronyms, lower-case noun phrases with noun phrases. Candidates are ordered by kind
    /// (same kind first, then the nearest kind), then by closeness in word count, then by
    /// keyphrase order. A candidate is skipped when it equals the answer, contains it or is
    /// contained in it (case-insensitive, also by stem key) — "light" is no distractor for
    /// "light reactions" — or equals an already chosen one. A number with too few numeric
    /// candidates gets nearby numbers of the same magnitude instead of words.
    func distractors(for item: ClozeItem, among keyphrases: [Keyphrase], count: Int = 3) -> [String] {
        guard count > 0 else { return [] }
        // Judge the answer's shape by its usual spelling: a sentence-initial capital is no name.
        let usual = keyphrases.first { $0.key == item.answerKey }?.text ?? item.answer
        let answerKind = TermShape(usual)
        let answerStems = Set(item.answerKey.split(separator: " "))
        let answerLower = item.answer.lowercased()
        let answerWords = item.answer.split(separator: " ").count
        var candidates: [(distance: Int, wordGap: Int, order: Int, text: String, stems: Set<Substring>)] = []
        for (order, phrase) in keyphrases.enumerated() {
            let lower = phrase.text.lowercased()
            if lower == answerLower || lower.contains(answerLower) || answerLower.contains(lower) { continue }
            if phrase.key == item.answerKey || Self.overlaps(phrase.key, item.answerKey) { continue }
            let distance = answerKind.distance(to: TermShape(phrase.text))
            let stems = Set(phrase.key.split(separator: " "))
            candidates.append((distance, abs(phrase.wordCount - answerWords), order, phrase.text, stems))
        }
        candidates.sort { a, b in
            if a.distance != b.distance { return a.distance < b.distance }
            if a.wordGap != b.wordGap { return a.wordGap < b.wordGap }
            return a.order < b.order
        }
        var chosen: [String] = []
        var chosenStems = answerStems
        var seen: Set<String> = [answerLower]
        func take(_ text: String, stems: Set<Substring> = []) {
            guard chosen.count < count, !seen.contains(text.lowercased()) else { return }
            seen.insert(text.lowercased())
            chosen.append(text)
            chosenStems.formUnion(stems)
        }
        // First pass: options that share no word with the answer or with each other, so
        // "carbon dioxide concentration" does not sit next to "carbon dioxide".
        if answerKind == .number {
            // A day of the month is no year: numbers of the answer's magnitude only ("5" among
            // "1789", "1792", "1794" gives itself away), then numbers near it.
            for c in candidates where c.distance == 0 && c.stems.isDisjoint(with: chosenStems)
                && Self.sameMagnitude(c.text, item.answer)
            {
                take(c.text, stems: c.stems)
            }
            for n in Self.nearbyNumbers(item.answer) { take(n) }
        }
        for c in candidates where c.stems.isDisjoint(with: chosenStems) { take(c.text, stems: c.stems) }
        // Second pass, for short keyphrase lists: any option that is not the answer.
        for c in candidates { take(c.text) }
        return chosen
    }

    // MARK: Private

    private func makeItem(
        sentence: Sentence, chars: [Character], words: [BuiltinWord], matches: [Int], first: Int, length: Int, key: String
    ) -> ClozeItem {
        let answerRange = words[first].offsets.lowerBound..<words[first + length - 1].offsets.upperBound
        var cloze = ""
        var cursor = 0
        for m in matches {
            let r = words[m].offsets.lowerBound..<words[m + length - 1].offsets.upperBound
            cloze += String(chars[cursor..<r.lowerBound]) + blank
            cursor = r.upperBound
        }
        cloze += String(chars[cursor...])
        let base = sentence.offsets.lowerBound
        return ClozeItem(
            sentence: sentence.text, answer: String(chars[answerRange]), clozeText: cloze,
            sourceRange: sentence.range,
            answerOffsets: (base + answerRange.lowerBound)..<(base + answerRange.upperBound), answerKey: key)
    }

    /// Whether `range` of `chars` starts or ends inside a token joined by `.`, `-`, `_` or `/`.
    static func cutsAToken(_ chars: [Character], _ range: Range<Int>) -> Bool {
        func joins(_ joiner: Int, _ neighbour: Int) -> Bool {
            chars.indices.contains(joiner) && chars.indices.contains(neighbour) && ".-_/".contains(chars[joiner])
                && (chars[neighbour].isLetter || chars[neighbour].isNumber)
        }
        // "or -_____ on indefinite length": a minus sign belongs to its number.
        let signed = range.lowerBound >= 1 && chars[range.lowerBound - 1] == "-" && chars.indices.contains(range.lowerBound)
            && chars[range.lowerBound].isNumber && (range.lowerBound < 2 || chars[range.lowerBound - 2].isWhitespace)
        return signed || joins(range.lowerBound - 1, range.lowerBound - 2) || joins(range.upperBound, range.upperBound + 1)
    }

    /// Start positions of non-overlapping occurrences of `needle` in `haystack`.
    private static func occurrences(of needle: [String], in haystack: [String]) -> [Int] {
        guard !needle.isEmpty, needle.count <= haystack.count else { return [] }
        var result: [Int] = []
        var i = 0
        while i + needle.count <= haystack.count {
            if Array(haystack[i..<(i + needle.count)]) == needle {
                result.append(i)
                i += needle.count
            } else {
                i += 1
            }
        }
        return result
    }

    /// Whether one stem key is a whole-word part of the other ("light" in "light reaction").
    private static func overlaps(_ a: String, _ b: String) -> Bool {
        let x = a.split(separator: " ").map(String.init)
        let y = b.split(separator: " ").map(String.init)
        let (short, long) = x.count <= y.count ? (x, y) : (y, x)
        return !occurrences(of: short, in: long).isEmpty
    }

    /// Whether two numbers have as many digits before any point ("1793" and "1789"; not "5" and
    /// "1789"); what is not a number has no magnitude to differ in.
    static func sameMagnitude(_ a: String, _ b: String) -> Bool {
        func digits(_ text: String) -> Int { text.prefix { $0 != "." }.count(where: \.isNumber) }
        return digits(a) == digits(b)
    }

    /// Plausible wrong numbers: for a year-like integer ±10, ±20, ±5 years; otherwise scaled by
    /// a half, double, and a half again. Decimals and other formats get none.
    private static func nearbyNumbers(_ answer: String) -> [String] {
        guard let n = Int(answer) else { return [] }
        if (1000...2100).contains(n) {
            return [n - 10, n + 10, n - 20, n + 5].map(String.init)
        }
        guard n > 1 else { return [String(n + 1), String(n + 2), String(n + 3)] }
        return [n * 2, n / 2, n + n / 2, n * 3].filter { $0 != n }.map(String.init)
    }
}

// MARK: - Term shape

/// The "kind" of a term judged from its spelling alone.
private enum TermShape: Equatable {
    case number, acronym, name, phrase

    init(_ text: String) {
        let words = text.split(separator: " ")
        if !words.isEmpty, words.allSatisfy({ $0.allSatisfy { $0.isNumber || ".,%".contains($0) } }) {
            self = .number
        } else if words.count == 1, let w = words.first, w.count >= 2,
            w.allSatisfy({ $0.isUppercase || $0.isNumber }), w.contains(where: \.isUppercase)
        {
            self = .acronym
        } else if words.contains(where: { $0.first?.isUppercase == true }) {
            self = .name
        } else {
            self = .phrase
        }
    }

    /// 0 for the same kind; names and acronyms are neighbours; numbers are far from words.
    func distance(to other: TermShape) -> Int {
        if self == other { return 0 }
        switch (self, other) {
        case (.name, .acronym), (.acronym, .name), (.name, .phrase), (.phrase, .name): return 1
        case (.number, _), (_, .number): return 3
        default: return 2
        }
    }
}
