/// Which English words are never nouns, from a table that ships with studykit (derived from
/// WordNet 3.0; see `scripts/make-word-class-table`).
///
/// A term a student learns is a thing: a noun ("loop", "keyword argument", "stroma") or a name.
/// RAKE-style candidates are runs of content words, so without a word class "occurs", "useful",
/// "receives" and "iterating" become terms on their own, and "exception occurs" a phrase. A word
/// WordNet knows only as a verb, adjective or adverb — in any of its forms — is none; a word
/// WordNet does not know ("keyword", "docstring", "NADPH") is given the benefit of the doubt.
enum EnglishWordClass {
    /// Lemmas that are never nouns.
    private static let nonNounLemmas: Set<Substring> = words(in: nonNounLemmaList)
    /// Forms that stripping an ending takes back to a lemma of `nonNounLemmas` but that are nouns
    /// ("wedding" → "wed", "news" → "new", "adapter" → "adapt").
    private static let nounForms: Set<Substring> = words(in: nounFormList)
    /// Irregular forms of verbs among `nonNounLemmas` ("overdid", "sent" is a noun too, so absent).
    private static let irregularVerbForms: Set<Substring> = words(in: irregularVerbFormList)

    private static func words(in list: String) -> Set<Substring> {
        Set(list.split(whereSeparator: { $0 == " " || $0 == "\n" }))
    }

    /// Whether `word` — one lower-case English word — is never a noun: "occurs", "useful",
    /// "iterating", "readable", "overwrites"; not "loop", "building", "wedding", "keyword".
    /// A word with a capital or a digit is a name or a code, never judged here (false).
    static func isNeverNoun(_ word: String) -> Bool {
        guard word.count >= 3, word.allSatisfy({ $0.isASCII && $0.isLowercase }) else { return false }
        let form = Substring(word)
        if nounForms.contains(form) { return false }
        if nonNounLemmas.contains(form) || irregularVerbForms.contains(form) { return true }
        return candidateLemmas(of: word).contains { nonNounLemmas.contains(Substring($0)) }
    }

    /// Whether `word` is an irregular form of a verb that is never a noun ("wrote", "arose",
    /// "applied"): a verb wherever it stands.
    static func isIrregularVerbForm(_ word: String) -> Bool {
        irregularVerbForms.contains(Substring(word))
    }

    /// The lemmas `word` may be an inflection of, by the endings the table's generator adds
    /// (`forms` in `scripts/make-word-class-table`, which this inverts): "-s", "-es", "-ed", "-d",
    /// "-ing", "-er", "-est", "-r", "-st"; "-ing" for a final "e"; "-ies", "-ied", "-ier", "-iest"
    /// for a final "y"; a doubled last consonant before "-ed", "-ing", "-er", "-est".
    static func candidateLemmas(of word: String) -> [String] {
        var result: [String] = []
        func strip(_ ending: String, adding: String = "") {
            guard word.hasSuffix(ending), word.count - ending.count + adding.count >= 3 else { return }
            result.append(String(word.dropLast(ending.count)) + adding)
        }
        for ending in ["s", "es", "ed", "d", "ing", "er", "est", "r", "st"] { strip(ending) }
        strip("ing", adding: "e")
        for ending in ["ies", "ied", "ier", "iest"] { strip(ending, adding: "y") }
        for ending in ["ed", "ing", "er", "est"] where word.hasSuffix(ending) {
            let stem = word.dropLast(ending.count)
            if stem.count >= 3, let last = stem.last,
                stem.dropLast().last == last { result.append(String(stem.dropLast())) }
        }
        return result
    }
}
