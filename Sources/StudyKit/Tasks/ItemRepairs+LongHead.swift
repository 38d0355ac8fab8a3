// MARK: - A label whose head phrase is itself too long

extension ItemRepairs {
    /// Words that open a detail inside a noun phrase: what follows names a contrast, an example or
    /// what the head is of ("the first version of a program …", "low = mid instead of mid + 1").
    private static let detailOpeners: Set<String> = ["of", "instead", "rather", "such", "including", "except", "unlike"]

    /// `label`'s head phrase (``headPhrase(_:maxWords:)``) when that is itself over `maxWords`
    /// words, cut before its last word of ``detailOpeners`` that leaves 2 to `maxWords` words
    /// ("Finding the first version of a program in whichabugappears" → "Finding the first
    /// version"). Qwen2.5-Coder-1.5B wrote such labels of 7 to 9 words on binary search (#53,
    /// session 65); their head phrase ran past the limit before its first break. `nil` when
    /// `label` fits, has a head phrase that fits, or has none (it opens on a clause word, a
    /// preposition, a pronoun or a lower-case word), or when no cut leaves 2 words with a content
    /// word. Only a model's labels are cut so: the builtin engine's keep ``headPhrase(_:maxWords:)``.
    static func shortenedHeadPhrase(_ label: String, maxWords: Int) -> String? {
        // A label that opens on a lower-case word ("third and a half of the population of …") goes
        // on with a sentence cut before it: a piece, not a phrase.
        let all = label.split(whereSeparator: \.isWhitespace)
        guard all.count > maxWords, headPhrase(label, maxWords: maxWords) == nil,
            let first = all.first, first != first.lowercased(),
            let words = headWords(label), words.count > maxWords
        else { return nil }
        let bare = words.map { $0.lowercased().trimmingCharacters(in: .punctuationCharacters) }
        for cut in stride(from: min(words.count - 1, maxWords), through: 2, by: -1)
        where detailOpeners.contains(bare[cut]) && !detailOpeners.contains(bare[cut - 1]) {
            var head = Array(words[..<cut])
            while let last = head.last, ["a", "an", "the", "and", "or"].contains(last.lowercased()) {
                head.removeLast()
            }
            let phrase = head.joined(separator: " ")
            guard head.count >= 2, ItemRules.contentWordCount(TermNormalizer.words(in: phrase)) >= 1 else { continue }
            return phrase
        }
        return nil
    }
}
