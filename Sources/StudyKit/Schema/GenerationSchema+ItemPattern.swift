import Foundation

// MARK: - The grammar's share of the item rules

extension GenerationSchema.StringConstraints {
    /// The Chinese, Japanese and Korean blocks (``ideographBlocks``) when the string may not
    /// hold them (``ideographs``), else nothing: for the inside of a `[^…]` class.
    var ideographExclusions: String { ideographs ? "" : Self.ideographBlocks }

    /// The blocks of ``CJKScript`` (the table the language rule refuses them by), written for
    /// the inside of a `[^…]` class. A pattern's `\uXXXX` escape has four hex digits, so the
    /// ideographs past U+FFFF, rare in any material, are left out.
    static let ideographBlocks = CJKScript.blocks.filter { $0.range.upperBound <= 0xFFFF }
        .map { String(format: "\\u%04x-\\u%04x", $0.range.lowerBound, $0.range.upperBound) }.joined()

    /// The `pattern` of an item whose ``ItemMeaning`` asks for several words or a whole
    /// sentence and that has no ``sentences`` shape of its own (which carries the minimum in
    /// its pattern instead), `nil` otherwise: at least `minimumWords` words (of at most `maxWords`
    /// with room to finish, 60 when unset, since a pattern replaces the length limit in the
    /// grammar), and for a sentence a last word that ends in `.`, `!` or `?` right after a
    /// letter, digit or bracket — never `…`, a comma or a lone period. Content words and the
    /// other rules cannot be written as a regular expression; the validator checks them.
    var itemPattern: String? {
        guard let meaning, meaning.minimumWords > 1 || meaning.isSentence, sentences == nil else { return nil }
        let excluded = Self.classExclusions(forbiddenCharacters) + ideographExclusions
        let word = Self.word(excluding: excluded)
        // Room to finish past the limit (``grammarWords(_:)``), as for any word-limited field:
        // held to exactly 18 words, Qwen2.5-Coder-0.5B glued a card question's last words
        // ("… under pressure from thesans-culottes?") or escaped into the ideograph branch
        // below ("in the八eenth-century."). The validation keeps the exact limit.
        let most = max(
            meaning.minimumWords, maxWords.map { min(Self.grammarWords($0), max($0, Self.longestRun)) } ?? 60)
        guard meaning.isSentence else {
            return "^\(word)( \(word)){\(meaning.minimumWords - 1),\(most - 1)}$"
        }
        let last = "[^ \(excluded)]{0,\(Self.longestWord - 2)}[^ .,;:!?…\(excluded)][.!?]"
        let spaced = meaning.minimumWords == 1
            ? "(\(word) ){0,\(most - 1)}\(last)"
            : "\(word)( \(word)){\(meaning.minimumWords - 2),\(most - 2)} \(last)"
        // Material without Chinese, Japanese or Korean has no sentence written in them either.
        guard ideographs else { return "^(\(spaced))$" }
        // Chinese, Japanese and Korean put no spaces between words: a sentence with an
        // ideograph, kana or hangul in it may end in 。！？ and needs no spaces.
        let cjkRun = "[^\(excluded)]{0,\(most * 2)}"
        let cjk = "\(cjkRun)[\\u3040-\\u30ff\\u3400-\\u9fff\\uac00-\\ud7af]\(cjkRun)[.!?。！？]"
        return "^(\(spaced)|\(cjk))$"
    }
}
