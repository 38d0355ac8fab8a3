// MARK: - Words

/// A word of a sentence, with the normalized forms the builtin algorithms compare.
///
/// Offsets are `Character` offsets into the string that was scanned, so a caller that scanned a
/// sentence can map a word back to the sentence (and, adding the sentence's own offset, to the
/// document).
struct NormalizedWord: Sendable, Hashable {
    /// The word exactly as written.
    let surface: String
    /// The lower-cased surface, used for stopword look-ups.
    let lowercased: String
    /// The light stem: the key under which inflected forms ("reactions", "reaction") meet.
    let stem: String
    /// Character offsets of the word in the scanned string.
    let offsets: Range<Int>
    /// Whether punctuation (not just whitespace) stands between this word and the previous one,
    /// or this is the first word. Keyphrase candidates never cross such a break.
    let followsBreak: Bool
    /// Whether the word is a number ("1905", "3.14", "6,000").
    let isNumber: Bool
    /// Whether the word is a function word.
    let isStopword: Bool
}

/// Tokenizing and stemming shared by the ranker, the keyphrase extractor and the cloze builder.
///
/// Rule-based on purpose: NaturalLanguage does not exist on Linux, and a deterministic, tiny
/// tokenizer is all that word-overlap algorithms need.
enum TermNormalizer {
    /// The words of a string, in order.
    ///
    /// A word is a run of letters and digits, joined across an inner hyphen or apostrophe
    /// ("carbon-fixing", "plant's"), across a point or comma between digits ("3.14", "6,000"),
    /// and across a point before a lower-case letter or a digit ("Node.js", "sources.list",
    /// "e.g"). Ideographs, kana and hangul have no spaces between words, so each such character
    /// is a word of its own; that keeps overlap measures meaningful on CJK text without a
    /// dictionary. Emoji and symbols are breaks, and so is a formula (``FormulaText``) whole.
    static func words(in text: String) -> [NormalizedWord] {
        let chars = Array(text)
        var result: [NormalizedWord] = []
        var sawBreak = true
        var i = 0
        while i < chars.count {
            let c = chars[i]
            // A formula's TeX is no words: no keyphrase, blank or label is made of `\frac` or `mathbf`.
            if c == "$", let end = FormulaText.spanEnd(in: chars, from: i) {
                sawBreak = true
                i = end
                continue
            }
            guard isLetterOrNumber(c) else {
                if !isWhitespace(c) { sawBreak = true }
                i += 1
                continue
            }
            var j = i + 1
            if !isCJK(c) {
                while j < chars.count {
                    let d = chars[j]
                    if isLetterOrNumber(d) && !isCJK(d) {
                        j += 1
                    } else if j + 1 < chars.count, isInnerConnector(d, before: chars[j - 1], after: chars[j + 1]) {
                        j += 2
                    } else {
                        break
                    }
                }
            }
            // French elision: "l'asthénosphère" is the article and the noun, two words.
            var start = i
            if let elided = elisionLength(chars, from: i, to: j) {
                result.append(word(chars, start..<(start + elided), followsBreak: sawBreak))
                sawBreak = false
                start += elided + 1
            }
            result.append(word(chars, start..<j, followsBreak: sawBreak))
            sawBreak = false
            i = j
        }
        return result
    }

    private static func word(_ chars: [Character], _ range: Range<Int>, followsBreak: Bool) -> NormalizedWord {
        let surface = String(chars[range])
        let lower = surface.lowercased()
        let number = surface.allSatisfy { $0.isNumber || $0 == "." || $0 == "," }
        // A dotted name ("node.js") is a name: no inflection to fold ("js" is no plural).
        return NormalizedWord(
            surface: surface, lowercased: lower, stem: number || surface.contains(".") ? lower : stem(lower),
            offsets: range,
            followsBreak: followsBreak, isNumber: number, isStopword: Stopwords.contains(lower))
    }

    /// French words that elide before a vowel ("l'", "qu'", "jusqu'"), lower-case.
    private static let elidingWords: Set<String> = ["l", "d", "j", "m", "n", "s", "t", "c", "qu", "jusqu", "lorsqu",
        "puisqu"]

    /// The length of the elided word at the start of `chars[start..<end]` ("l" in "l'eau"), when
    /// the word is one of ``elidingWords`` followed by an apostrophe and a letter; else `nil`.
    private static func elisionLength(_ chars: [Character], from start: Int, to end: Int) -> Int? {
        guard end - start >= 3 else { return nil }
        for length in 1...min(6, end - start - 2) where chars[start + length] == "'"
            || chars[start + length] == "\u{2019}" {
            guard chars[start + length + 1].isLetter,
                elidingWords.contains(String(chars[start..<(start + length)]).lowercased())
            else { return nil }
            return length
        }
        return nil
    }

    /// `Character.isLetter || isNumber`, answered without Unicode tables for ASCII: the
    /// tokenizer asks it of every character of a book several times over.
    @inline(__always) static func isLetterOrNumber(_ c: Character) -> Bool {
        if let a = c.asciiValue { return (a >= 97 && a <= 122) || (a >= 65 && a <= 90) || (a >= 48 && a <= 57) }
        return c.isLetter || c.isNumber
    }

    /// `Character.isLetter`, with the same ASCII short cut.
    @inline(__always) static func isLetter(_ c: Character) -> Bool {
        if let a = c.asciiValue { return (a >= 97 && a <= 122) || (a >= 65 && a <= 90) }
        return c.isLetter
    }

    /// `Character.isWhitespace`, with the same ASCII short cut ("\r\n" is one ASCII character).
    @inline(__always) static func isWhitespace(_ c: Character) -> Bool {
        if let a = c.asciiValue { return a == 32 || (a >= 9 && a <= 13) }
        return c.isWhitespace
    }

    /// Whether a character is an ideograph, kana or hangul syllable.
    static func isCJK(_ c: Character) -> Bool {
        guard let scalar = c.unicodeScalars.first else { return false }
        switch scalar.value {
        case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF,
            0x20000...0x2FA1F:
            return true
        default:
            return false
        }
    }

    private static func isInnerConnector(_ c: Character, before: Character, after: Character) -> Bool {
        let wordy = { (x: Character) in isLetterOrNumber(x) && !isCJK(x) }
        switch c {
        case "-", "'", "\u{2019}":
            return wordy(before) && wordy(after)
        case ".":
            // "3.14", and a name a point joins: "Node.js", "sources.list", "debian.org" (never
            // "end.Next", two sentences a missing space ran together).
            return before.isNumber && after.isNumber
                || wordy(before) && after.isASCII && (after.isLowercase || after.isNumber) && before.isASCII
        case ",":
            return before.isNumber && after.isNumber
        default:
            return false
        }
    }

    // MARK: - Stemming

    /// A light suffix-stripping stem of a lower-cased word.
    ///
    /// Not Porter: it only folds the inflections that split one study term into several
    /// (plurals, -ing, -ed, -ly, a final -e), because over-stemming merges distinct terms and
    /// makes keyphrases and cloze answers wrong. Stems are keys, never shown to people.
    static func stem(_ word: String) -> String {
        var w = Array(word)
        // Possessives first: "plant's" and "plants'" are "plant".
        if w.count > 2, w[w.count - 1] == "s", w[w.count - 2] == "'" || w[w.count - 2] == "\u{2019}" {
            w.removeLast(2)
        } else if w.count > 1, w.last == "'" || w.last == "\u{2019}" {
            w.removeLast()
        }
        guard w.count > 3, w.allSatisfy({ isLetter($0) || $0 == "-" || $0 == "'" || $0 == "\u{2019}" }) else {
            return String(w)
        }
        func ends(_ suffix: StaticString) -> Bool {
            // Suffixes are ASCII: compare code units, with no array or string built per test.
            let count = suffix.utf8CodeUnitCount
            guard w.count >= count else { return false }
            return suffix.withUTF8Buffer { units in
                units.indices.allSatisfy { w[w.count - count + $0].asciiValue == units[$0] }
            }
        }
        // Plurals.
        if ends("ies"), w.count > 4 {
            w.removeLast(3)
            w.append("y")
        } else if ends("sses") || ends("xes") || ends("ches") || ends("shes") || ends("zzes") {
            w.removeLast(2)
        } else if ends("s"), !ends("ss"), !ends("us"), !ends("is"), w.count > 3 {
            w.removeLast()
        }
        // Verb and adverb endings, keeping at least three letters of stem.
        let hasVowel = { (stem: ArraySlice<Character>) in stem.contains { "aeiouy".contains($0) } }
        if ends("ing"), w.count >= 6, hasVowel(w[..<(w.count - 3)]) {
            w.removeLast(3)
            undouble(&w)
        } else if ends("ed"), w.count >= 5, hasVowel(w[..<(w.count - 2)]) {
            w.removeLast(2)
            undouble(&w)
        } else if ends("ly"), w.count >= 6 {
            w.removeLast(2)
        }
        // "produce", "produced", "producing" all meet at "produc".
        if w.count >= 5, w.last == "e" {
            w.removeLast()
        }
        return String(w)
    }

    /// "running" → "runn" → "run"; but "fall", "pass", "buzz" keep their doubles.
    private static func undouble(_ w: inout [Character]) {
        guard w.count >= 3, let last = w.last, last == w[w.count - 2] else { return }
        if !"aeioulsz".contains(last) {
            w.removeLast()
        }
    }
}
