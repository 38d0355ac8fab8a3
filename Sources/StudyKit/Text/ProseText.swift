// MARK: - Prose shaping

/// Turns source sentences and terms into strings that meet the result types' bounds.
///
/// Lengths are counted in Unicode scalars, as the schema validator counts them, and words are
/// whitespace-separated, as its word limit counts them.
enum ProseText {
    /// Characters a headline title may not contain.
    static let quoteCharacters: Set<Character> = ["\"", "“", "”", "„", "«", "»"]

    /// Words a Title Case title keeps in lower case unless they come first.
    private static let minorWords: Set<String> = [
        "a", "an", "the", "and", "or", "nor", "but", "of", "in", "on", "at", "to", "for", "by", "with",
        "from", "as", "vs", "via",
    ]

    /// `text` on one line: every run of whitespace (line breaks included) becomes one space.
    static func oneLine(_ text: String) -> String {
        // Most units are already one line of ASCII words between single spaces: nothing to redo.
        let asIs = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard let first = bytes.first, let last = bytes.last, first != 0x20, last != 0x20 else { return false }
            var previous: UInt8 = 0
            for byte in bytes {
                guard byte < 0x80, byte > 0x20 || (byte == 0x20 && previous != 0x20) else { return false }
                previous = byte
            }
            return true
        }
        if asIs == true { return text }
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Number of whitespace-separated words (the runs that `split(whereSeparator: \.isWhitespace)`
    /// gives, counted without making them).
    static func wordCount(_ text: String) -> Int {
        var count = 0
        var inWord = false
        for character in text {
            let space = TermNormalizer.isWhitespace(character)
            if !space && !inWord { count += 1 }
            inWord = !space
        }
        return count
    }

    /// Length as the validator measures it.
    static func length(_ text: String) -> Int { text.unicodeScalars.count }

    /// Closing quotes and brackets, which may follow a sentence's end.
    static let closers = "\"'”’)]»"

    /// Whether `text` ends a sentence (terminal punctuation, maybe followed by a closing quote or
    /// bracket); `alsoAt` names more marks that count as an end here (":;" for a clause).
    static func endsSentence(_ text: String, alsoAt marks: String = "") -> Bool {
        var trimmed = Substring(text)
        while let last = trimmed.last, closers.contains(last) { trimmed = trimmed.dropLast() }
        guard let last = trimmed.last else { return false }
        return ".!?…。！？".contains(last) || marks.contains(last)
    }

    /// Whether `text` stops where its sentence goes on: at a comma, semicolon, colon, dash or
    /// open bracket, before the list or code block that finishes it ("…, and the returned
    /// Promise rejects," above a list of what happens then). Such a unit is no statement to
    /// quote as a point of its own.
    /// A unit that ends on a word no sentence ends on ("… in the defining scope, so that" above a
    /// code example) is cut off too, though a period may follow.
    static func isUnfinished(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let last = trimmed.last else { return false }
        if ",;:-–—(".contains(last) { return true }
        guard let lastWord = trimmed.lowercased().split(whereSeparator: { !$0.isLetter
            && $0 != "'" }).last else { return false }
        return danglingWords.contains(String(lastWord))
    }

    /// Words an English sentence does not end on: articles, conjunctions, most prepositions.
    private static let danglingWords: Set<String> = [
        "a", "an", "the", "and", "or", "but", "nor", "of", "to", "that", "which", "whose", "with", "for", "from", "by",
        "as", "so", "thus", "than", "if", "when", "where", "while", "whether", "because", "into", "onto", "like",
        "such",
        "its", "their",
    ]

    /// Words that, opening a sentence or its main clause, point back to what came before: "It
    /// must be followed by the function name", "This is useful when …", "If used, these symbols
    /// indicate …", "However, …".
    private static let backReferences: Set<String> = [
        "it", "its", "they", "their", "them", "this", "these", "those", "that", "such", "he", "she", "his", "her",
        "both", "then", "however", "here", "also", "thus", "hence", "therefore", "instead", "otherwise", "likewise",
        "similarly", "moreover", "furthermore", "besides", "latter", "former",
    ]

    /// Whether a sentence leans on one before it, so that on its own — a card, a key point, a
    /// podcast line — it does not say what it is about: its first word, or the first word after a
    /// short opening clause ("If used, these …"), points back (``backReferences``). "It" that
    /// stands for what follows ("It is possible to define …", "It is known that …") does not.
    static func leansOnContext(_ text: String) -> Bool {
        let words = text.split(whereSeparator: { !$0.isLetter && $0 != "," }).map { $0.lowercased() }
        guard let first = words.first?.trimmingCharacters(in: [","]) else { return false }
        if first == "it", words.count >= 4, ["is", "was"].contains(words[1]),
            words[2...].prefix(4).contains(where: { $0 == "to" || $0 == "that" })
        {
            return false
        }
        if backReferences.contains(first) { return true }
        // A short opening clause: "If used, these symbols …", "In practice, this means …".
        guard let comma = words.prefix(5).firstIndex(where: { $0.hasSuffix(",") }),
            comma + 1 < words.count else { return false }
        let afterClause = words[comma + 1].trimmingCharacters(in: [","])
        return backReferences.contains(afterClause) && afterClause != "that"
    }

    /// `text` as a sentence that stands on its own: one line, a capital first letter when it
    /// began in lower case (not on a name written as code: "list.index(x)"), and a final period
    /// when it had no terminal punctuation.
    static func sentence(_ text: String) -> String {
        var line = withoutListMarker(oneLine(text))
        while let last = line.last, ",;:-–—(".contains(last) { line.removeLast() }
        line = line.trimmingSpaces
        guard !line.isEmpty else { return line }
        // A name written in code keeps its case ("list.index(x): Return …", "sorted() returns …").
        let firstWord = line.prefix { $0 != " " }
        if let first = line.first, first.isLowercase, !firstWord.contains(where: { "._()[]".contains($0) }) {
            line = first.uppercased() + line.dropFirst()
        }
        // Chinese and Japanese end a sentence with a full-width stop.
        if !endsSentence(line) { line += line.last.map(TermNormalizer.isCJK) == true ? "。" : "." }
        return line
    }

    /// A key term for display: the extractor joins words with spaces, which for ideographs
    /// (each one a word) gives "光 合 成"; spaces between two CJK characters are removed.
    static func termText(_ text: String) -> String {
        let line = oneLine(text)
        guard line.contains(where: TermNormalizer.isCJK) else { return line }
        let chars = Array(line)
        var out = ""
        for (i, c) in chars.enumerated() {
            if c == " ", i > 0, i + 1 < chars.count, TermNormalizer.isCJK(chars[i - 1]),
                TermNormalizer.isCJK(chars[i + 1]) {
                continue
            }
            out.append(c)
        }
        return out
    }

    /// `text` without a leading bullet (`-`, `*`, `+`, `•`) or item number (`1.`, `2)`).
    static func withoutListMarker(_ text: String) -> String {
        var rest = Substring(text)
        if let first = rest.first, "-*+•‣◦–".contains(first), rest.dropFirst().first == " " {
            rest = rest.dropFirst(2)
        } else {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            let after = rest.dropFirst(digits.count)
            if (1...3).contains(digits.count), let mark = after.first, mark == "." || mark == ")",
                after.dropFirst().first == " "
            {
                rest = after.dropFirst(2)
            }
        }
        return String(rest)
    }

    /// `text` on one line, cut at a word boundary so that it has at most `maxWords` words and
    /// `maxLength` scalars, the cut marked by `ending` (which counts towards the length).
    ///
    /// Trailing function words and clause punctuation are dropped before the ending, so a cut
    /// never ends on "and" or a comma. A single word longer than the limit (a script without
    /// spaces) is cut by characters.
    static func shortened(_ text: String, maxWords: Int = .max, maxLength: Int, ending: String = "…") -> String {
        let line = oneLine(text)
        if wordCount(line) <= maxWords, length(line) <= maxLength { return line }
        let budget = maxLength - length(ending)
        var words: [Substring] = []
        var used = 0
        for word in line.split(separator: " ") {
            let extra = (words.isEmpty ? 0 : 1) + word.unicodeScalars.count
            guard words.count < maxWords, used + extra <= budget else { break }
            words.append(word)
            used += extra
        }
        while words.count > 1, let last = words.last,
            Stopwords.contains(last.lowercased().strippingEdges(",;:-–—()"))
        {
            words.removeLast()
        }
        var kept = words.joined(separator: " ")
        if kept.isEmpty {
            // One long word: keep whole characters up to the budget.
            for character in line {
                guard length(kept) + character.unicodeScalars.count <= budget else { break }
                kept.append(character)
            }
        }
        while let last = kept.last, ",;:-–—(.!?…".contains(last) { kept.removeLast() }
        return kept.trimmingSpaces + ending
    }

    /// A term in Title Case for a headline: words already holding a capital (ATP, mRNA, Calvin)
    /// keep their spelling; minor words stay lower-case unless first.
    static func titleCased(_ text: String) -> String {
        let words = oneLine(text).split(separator: " ")
        return words.enumerated().map { index, word in
            if word.contains(where: \.isUppercase) { return String(word) }
            if index > 0, minorWords.contains(word.lowercased()) { return word.lowercased() }
            guard let first = word.first else { return String(word) }
            return first.uppercased() + word.dropFirst()
        }.joined(separator: " ")
    }

    /// `text` without headline-forbidden quotation marks.
    static func withoutQuotes(_ text: String) -> String {
        oneLine(String(text.filter { !quoteCharacters.contains($0) }))
    }

    /// The key two strings share when they differ only in case or whitespace (the validator's
    /// notion of a duplicate).
    static func duplicateKey(_ text: String) -> String {
        text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// A deterministic 64-bit FNV-1a hash: `Hasher` is seeded per process, and answer
    /// positions must not change from one run to the next.
    static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}

private extension String {
    /// Without leading and trailing spaces (the only whitespace left after `oneLine`).
    var trimmingSpaces: String {
        guard let first = firstIndex(where: { $0 != " " }),
            let last = lastIndex(where: { $0 != " " }) else { return "" }
        return String(self[first...last])
    }

    func strippingEdges(_ set: String) -> String {
        var result = Substring(self)
        while let first = result.first, set.contains(first) { result = result.dropFirst() }
        while let last = result.last, set.contains(last) { result = result.dropLast() }
        return String(result)
    }
}
