// MARK: - Places no blank belongs (#53)

/// Where in a sentence a blank asks nothing: a piece of a formula or of code, a word of an aside.
/// The builtin cloze is the skeleton the models rewrite, and a rewrite of such a blank is refused
/// or junk ("What is the running time of binary search?" → "log").
extension ClozeBuilder {
    /// Characters that join the terms of a formula: "=", "+", "×", "·", "*", "^", "<", ">", "≤", "≥"
    /// (a "-" or "/" only with spaces around it: "Qd = 500 - 20P", "(low + high) / 2").
    fileprivate static let operators: Set<Character> = [
        "=", "+", "×", "·", "*", "^", "<", ">", "≤", "≥", "≈", "−",
    ]

    /// Whether `range` of `chars` is a piece of a formula or of code (#53): inside brackets that
    /// hang on a name ("O(_____ n)", "O(_____)", "log2(_____)") or that hold an operator
    /// ("(_____ + high) / 2"), right before brackets ("_____(x)"), or next to an operator ("F =
    /// m·a = _____ × 3 m/s²", "1 N = _____·m/s²", "Qd = _____ - 20P").
    static func isInAFormula(_ chars: [Character], _ range: Range<Int>) -> Bool {
        func isOperator(_ index: Int, towards step: Int) -> Bool {
            guard chars.indices.contains(index) else { return false }
            if operators.contains(chars[index]) { return true }
            // "-" and "/" join words too ("light-dependent", "m/s"): an operator only spaced.
            guard "-/".contains(chars[index]), chars.indices.contains(index + step) else { return false }
            let other = index - step
            return chars[index + step] == " " && (!chars.indices.contains(other) || chars[other] == " ")
        }
        var before = range.lowerBound - 1
        while before >= 0, chars[before] == " " { before -= 1 }
        var after = range.upperBound
        while after < chars.count, chars[after] == " " { after += 1 }
        if isOperator(before, towards: -1) || isOperator(after, towards: 1) { return true }
        if range.upperBound < chars.count, chars[range.upperBound] == "(" { return true }
        // The brackets the range stands in, if any.
        var depth = 0
        var open = range.lowerBound - 1
        while open >= 0 {
            if ")]".contains(chars[open]) { depth += 1 } else if "([".contains(chars[open]) {
                if depth == 0 { break }
                depth -= 1
            }
            open -= 1
        }
        guard open >= 0 else { return false }
        if open > 0, chars[open - 1].isLetter || chars[open - 1].isNumber { return true }
        let close = chars[range.upperBound...].firstIndex { ")]".contains($0) } ?? chars.count
        return (open + 1..<close).contains { index in
            operators.contains(chars[index]) || ("-/".contains(chars[index]) && isOperator(index, towards: 1))
        }
    }

    /// Words that open an aside between commas: a relative pronoun, an adverb that hedges, a
    /// preposition that gives an example.
    fileprivate static let asideOpeners: Set<String> = [
        "which", "who", "whom", "whose", "often", "usually", "typically", "mostly", "mainly", "especially",
        "including", "like", "perhaps", "sometimes", "generally", "normally", "also",
    ]

    /// Past participles that are not made with "-ed".
    fileprivate static let irregularParticiples: Set<String> = [
        "written", "spoken", "known", "given", "taken", "shown", "seen", "drawn", "driven", "made", "built", "found",
        "held", "kept", "led", "sold", "told", "thought", "brought", "bought", "taught", "born", "chosen", "broken",
        "hidden", "grown", "thrown", "done", "sent", "spent", "meant",
    ]

    /// Whether `word` (lower case) is a past participle: "called", "written", "spoken".
    static func isPastParticiple(_ word: String) -> Bool {
        irregularParticiples.contains(word) || word.count >= 5 && word.hasSuffix("ed")
    }

    /// Whether `range` of `chars` lies in an aside (#53): a stretch between two commas (no ";" or
    /// ":" within) that opens on a relative pronoun, a hedge or a participle with its preposition
    /// (", written as a _____,", ", which is a _____,", ", often a protein on the surface of a
    /// _____,"), or on an article with a participle and its preposition before the range (", the
    /// everyday languages spoken by _____ people,"). An appositive that names the thing (", the chain of _____ around
    /// the Pacific Ocean,") is no aside: it says what the sentence is about.
    static func isInAnAside(_ chars: [Character], _ range: Range<Int>) -> Bool {
        guard let open = chars[..<range.lowerBound].lastIndex(of: ","),
            let close = chars[range.upperBound...].firstIndex(of: ",")
        else { return false }
        guard !chars[(open + 1)..<close].contains(where: { ";:".contains($0) }) else { return false }
        let lead = String(chars[(open + 1)..<range.lowerBound]).lowercased()
            .split { !($0.isLetter || $0.isNumber || $0 == "'" || $0 == "-") }.map(String.init)
        guard let first = lead.first else { return false }
        if asideOpeners.contains(first) { return true }
        // A participle with its preposition is passive ("written as", "spoken by"); one with an
        // object is the sentence's own verb (", recalled Necker and …", ", replaced the week with …").
        let prepositions: Set<String> = ["by", "as", "in", "for", "with", "from", "to", "on", "at", "into", "over"]
        let passives = zip(lead, lead.dropFirst()).map { isPastParticiple($0) && prepositions.contains($1) }
        if passives.first == true { return true }
        return ["the", "a", "an"].contains(first) && passives.contains(true)
    }
}
