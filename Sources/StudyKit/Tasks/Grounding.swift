/// Checks that a model's answer is about the material it was sent, beyond what its schema and
/// semantic rules can see: a small model writes valid JSON that says nothing ("This is a JSON
/// object with the headline.") or quotes sentences the material never had.
///
/// - A headline's blurb and a summary's overview must make a claim about the material: name at
///   least two different content words of it (stems compared, stopwords and numbers ignored; in
///   CJK text, character pairs). One shared word is what empty praise manages ("a must-read on
///   photosynthesis"); stock filler itself is rejected by the types (``ItemRules/stockFiller(in:)``).
/// - A flashcard's quote must come from the material: its normalized text appears in the
///   material's, or, for a lightly edited quote, at least 3 of every 4 of its word triples do.
///   A quote with `…` or `...` in it is checked piece by piece.
///
/// The issues are worded as feedback for the one re-ask, like schema issues.
enum Grounding {
    /// What in `result` is not grounded in `source` (the material as sent to the model).
    static func issues(in result: AnyStudyResult, source: String) -> [ValidationIssue] {
        let material = Material(source)
        switch result {
        case .headline(let headline): return material.issues(headline)
        case .summary(let summary): return material.issues(summary)
        case .flashcards(let flashcards): return material.issues(flashcards)
        case .studyKit(let kit):
            return material.issues(kit.headline).map { $0.prefixed("headline") }
                + material.issues(kit.summary).map { $0.prefixed("summary") }
                + material.issues(kit.flashcards).map { $0.prefixed("flashcards") }
        case .feynman, .quiz, .mindMap:
            return []
        }
    }

    /// The material, indexed at most once for every check of one answer, and only as far as
    /// the answer needs: a headline needs the stems, flashcards the normalized text and triples.
    private final class Material {
        private let source: String
        private(set) lazy var stems = Set(Grounding.contentStems(source))
        private lazy var words = Grounding.normalizedWords(source)
        private(set) lazy var normalized = " " + words.joined(separator: " ") + " "
        private(set) lazy var triples = Grounding.triples(words)

        init(_ source: String) {
            self.source = source
        }

        /// How many different content words of the material `text` names.
        func named(_ text: String) -> Int {
            Set(Grounding.contentStems(text)).filter { stems.contains($0) }.count
        }

        func issues(_ headline: Headline) -> [ValidationIssue] {
            switch named(headline.blurb) {
            case 0:
                return [ValidationIssue(
                    path: "blurb", message: "names nothing from the material; say in one sentence what this material covers")]
            case 1:
                return [ValidationIssue(
                    path: "blurb",
                    message: "names only one word of the material; state in one sentence what the material says, in its own terms")]
            default: return []
            }
        }

        func issues(_ summary: Summary) -> [ValidationIssue] {
            switch named(summary.overview) {
            case 0:
                return [ValidationIssue(path: "overview", message: "names nothing from the material; sum up what this material says")]
            case 1:
                return [ValidationIssue(
                    path: "overview", message: "names only one word of the material; sum up what this material says, in its own terms")]
            default: return []
            }
        }

        func issues(_ flashcards: Flashcards) -> [ValidationIssue] {
            flashcards.cards.enumerated().compactMap { index, card in
                contains(quote: card.quote) ? nil : ValidationIssue(
                    path: "cards[\(index)].quote",
                    message: "is not in the material; copy the sentence that supports the answer from it word for word")
            }
        }

        func contains(quote: String) -> Bool {
            let pieces = quote.replacingOccurrences(of: "...", with: "…").split(separator: "…")
                .map { Grounding.normalizedWords(String($0)) }.filter { !$0.isEmpty }
            guard !pieces.isEmpty else { return false }
            return pieces.allSatisfy { words in
                if normalized.contains(" " + words.joined(separator: " ") + " ") { return true }
                let own = Grounding.triples(words)
                guard !own.isEmpty else { return false }
                return own.filter(triples.contains).count * 4 >= own.count * 3
            }
        }
    }

    /// Stems of the content words: no stopwords or numbers, at least 3 letters. CJK text has no
    /// spaces and each character is a word of its own (``BuiltinTerms``); one shared character
    /// (是, の) proves nothing, so there the keys are pairs of adjacent characters (细胞, 分裂).
    static func contentStems(_ text: String) -> [String] {
        let words = BuiltinTerms.words(in: text)
        var stems: [String] = []
        for (index, word) in words.enumerated() {
            if isCJK(word) {
                if index + 1 < words.count, isCJK(words[index + 1]), words[index + 1].offsets.lowerBound == word.offsets.upperBound {
                    stems.append(word.surface + words[index + 1].surface)
                }
            } else if !word.isStopword, !word.isNumber, word.surface.count >= 3 {
                stems.append(word.stem)
            }
        }
        return stems
    }

    /// Whether `word` is one ideograph, kana or hangul character.
    private static func isCJK(_ word: BuiltinWord) -> Bool {
        word.surface.count == 1 && (word.surface.unicodeScalars.first.map { $0.value >= 0x2E80 } ?? false)
    }

    /// Lower-cased runs of letters and digits; everything else separates them.
    static func normalizedWords(_ text: String) -> [String] {
        text.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    /// Every three consecutive words, joined by spaces.
    static func triples(_ words: [String]) -> Set<String> {
        guard words.count >= 3 else { return [] }
        return Set((0...(words.count - 3)).map { words[$0..<$0 + 3].joined(separator: " ") })
    }
}
