import Foundation

// MARK: - A sentence shortened from the material's

/// The checks of a sentence a model shortened from one of the material's (the item rewriter's
/// key points and answers): where it was cut, and what it changed on the way.
extension ItemRules {
    /// Words a sentence shortened by cutting its tail ends on: a preposition or a relative that
    /// opens what was cut ("… funnels energy to a reaction centre, where.", "… and died in.").
    /// Not part of ``sentenceCut(_:)``: a whole sentence of the material may end on "in" or "on".
    private static let openClauseEnds: Set<String> = [
        "where", "which", "who", "whom", "when", "while", "that", "in", "on", "at", "to", "for", "by", "from", "into",
        "de", "as", "because", "whereas",
    ]

    /// The word a shortened sentence was cut after, or `nil`.
    static func openClauseEnd(_ text: String) -> String? {
        guard let last = TermNormalizer.words(in: text).last, openClauseEnds.contains(last.lowercased) else {
            return nil
        }
        return last.surface
    }

    /// The word a shortened sentence stops on when it stops where `sentence` runs on, with no
    /// punctuation between: it was cut mid-clause, and says something the sentence does not, or
    /// less than it ("… the Convention declared terror was." from "… declared that terror was
    /// the order of the day."; "One newton is the force that gives a mass of 1 kg an
    /// acceleration." from "… an acceleration of 1 m/s²"). It stops there when it ends on a
    /// function word whose last two words run on in the sentence, or when its last four words
    /// are the sentence's, in order, and run on. `nil` when it ends where `sentence` ends or
    /// pauses, in its own order ("The stomata stay closed during the day." from "During the day
    /// the stomata stay closed …"), or in its own words.
    static func cutMidClause(_ shortened: String, from sentence: String) -> String? {
        let ending = GroundingWords.normalizedWords(shortened)
        guard ending.count >= 2 else { return nil }
        // The sentence's words, each with what follows it up to the next word.
        var words: [(word: String, after: String)] = []
        var word = "", gap = ""
        for character in sentence.lowercased() {
            if character.isLetter || character.isNumber {
                if !gap.isEmpty {
                    if !word.isEmpty { words.append((word, gap)) }
                    word = ""
                    gap = ""
                }
                word.append(character)
            } else {
                gap.append(character)
            }
        }
        if !word.isEmpty { words.append((word, gap)) }
        /// Whether the last `count` words of `ending` occur in the sentence in a row, and every
        /// such place runs on into the next word with nothing but spaces between.
        func runsOn(_ count: Int) -> Bool {
            guard ending.count >= count, words.count > count else { return false }
            let tail = Array(ending.suffix(count))
            var found = false
            for start in 0...(words.count - count) where words[start..<start + count].map(\.word) == tail {
                let last = start + count - 1
                if last == words.count - 1 || words[last].after.contains(where: { !$0.isWhitespace }) { return false }
                found = true
            }
            return found
        }
        let endsOnFunctionWord = Stopwords.contains(ending[ending.count - 1])
        guard (endsOnFunctionWord && runsOn(2)) || runsOn(4) else { return nil }
        return TermNormalizer.words(in: shortened).last?.surface
    }

    /// The first term of `shortened` written with inner punctuation ("pythonX.Y-dev",
    /// "Build-Depends", "deflate()") that `sentence` does not have as it is: a shortened
    /// sentence keeps a name, a package or a formula whole, or leaves it out. `nil` when none.
    static func alteredTerm(_ shortened: String, from sentence: String) -> String? {
        let source = sentence.lowercased()
        for token in shortened.split(whereSeparator: \.isWhitespace) {
            let term = String(token).trimmingCharacters(in: CharacterSet(charactersIn: ".,;:!?\"'“”‘’()[]"))
            guard term.dropFirst().dropLast().contains(where: { !$0.isLetter && !$0.isNumber }) else { continue }
            if !source.contains(term.lowercased()) { return term }
        }
        return nil
    }

    // Compiled once (a regex literal is parsed each time it runs); `Regex` is not `Sendable`, but
    // a compiled one is immutable apart from its lazily lowered program, stored atomically.
    nonisolated(unsafe) private static let romanNumeral = /x{0,3}(ix|iv|v?i{0,3})/

    /// A small word that `shortened` adds to `sentence` and that changes what it says, or `nil`:
    /// a negator ("not", "never", "don't"), or a lone letter or roman numeral that makes a
    /// name another one ("Prophase I" from "Prophase: …" is meiosis, not mitosis). The
    /// content-word rule cannot see these: they are stopwords.
    static func addedMarker(_ shortened: String, from sentence: String) -> String? {
        let own = Set(GroundingWords.normalizedWords(sentence))
        let surface = shortened.split { !($0.isLetter || $0.isNumber || $0 == "'" || $0 == "’") }.map(String.init)
        for word in surface {
            let lower = word.lowercased()
            let parts = GroundingWords.normalizedWords(lower)
            guard !parts.allSatisfy(own.contains) else { continue }
            if Negation.isNegator(lower) { return word }
            // "a" is an article; any other lone letter or roman numeral is a label.
            if lower.count == 1 && lower != "a" || lower.wholeMatch(of: romanNumeral) != nil { return word }
        }
        return nil
    }
}
