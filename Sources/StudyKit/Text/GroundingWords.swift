import Foundation

/// The words a text is compared with the material and with other items by: lower-cased runs of
/// letters and digits (a formula one word), the stems of content words, runs and triples of
/// words. Grounding checks quotes and claims by them, the item rules tell near-copies apart by
/// them. Text's, so that every layer may ask it.
enum GroundingWords {
    /// Stems of the content words: no stopwords or numbers, at least 3 letters. CJK text has no
    /// spaces and each character is a word of its own (``TermNormalizer``); one shared character
    /// (是, の) proves nothing, so there the keys are pairs of adjacent characters (细胞, 分裂).
    static func contentStems(_ text: String) -> [String] {
        let words = TermNormalizer.words(in: text)
        var stems: [String] = []
        for (index, word) in words.enumerated() {
            if isCJK(word) {
                if index + 1 < words.count, isCJK(words[index + 1]),
                    words[index + 1].offsets.lowerBound == word.offsets.upperBound
                {
                    stems.append(word.surface + words[index + 1].surface)
                }
            } else if isContent(word) {
                stems.append(word.stem)
            }
        }
        return stems
    }

    /// Whether a word outside CJK text is a content word: no stopword, no number, at least 3
    /// letters (the words ``contentStems(_:)`` keeps).
    static func isContent(_ word: NormalizedWord) -> Bool {
        !word.isStopword && !word.isNumber && word.surface.count >= 3
    }

    /// Whether `word` is one ideograph, kana or hangul character.
    private static func isCJK(_ word: NormalizedWord) -> Bool {
        word.surface.count == 1 && (word.surface.unicodeScalars.first.map { $0.value >= 0x2E80 } ?? false)
    }

    /// Lower-cased runs of letters and digits; everything else separates them. A formula
    /// (`$…$`, ``FormulaText``) is one word, exactly as written: a quote's formula must stand in
    /// the material verbatim.
    static func normalizedWords(_ text: String) -> [String] {
        let formulas = text.contains("$") ? FormulaText.spans(in: text) : []
        guard !formulas.isEmpty else { return plainWords(text[...]) }
        var words: [String] = []
        var start = text.startIndex
        for range in formulas {
            words += plainWords(text[start..<range.lowerBound])
            words.append(String(text[range]))
            start = range.upperBound
        }
        return words + plainWords(text[start...])
    }

    private static func plainWords(_ text: Substring) -> [String] {
        text.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    /// Whether `run` stands in `words` as consecutive whole words (both ``normalizedWords(_:)``).
    static func containsRun(_ run: [String], in words: [String]) -> Bool {
        (" " + words.joined(separator: " ") + " ").contains(" " + run.joined(separator: " ") + " ")
    }

    /// Where `run` starts in `words`, each place it stands as consecutive whole words (both
    /// ``normalizedWords(_:)``), in order.
    static func runStarts(_ run: [String], in words: [String]) -> [Int] {
        guard !run.isEmpty, run.count <= words.count else { return [] }
        return (0...(words.count - run.count)).filter { words[$0..<$0 + run.count].elementsEqual(run) }
    }

    /// Every three consecutive words, joined by spaces.
    static func triples(_ words: [String]) -> Set<String> {
        guard words.count >= 3 else { return [] }
        return Set((0...(words.count - 3)).map { words[$0..<$0 + 3].joined(separator: " ") })
    }
}
