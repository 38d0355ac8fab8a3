import Foundation

/// Measures of prose that the semantic checks share.
enum ResultProse {
    /// Words that end with a period without ending a sentence.
    private static let abbreviations: Set<String> = [
        "e.g", "i.e", "etc", "vs", "mr", "mrs", "ms", "dr", "prof", "st", "no", "fig", "cf", "approx", "ca",
    ]

    /// How many sentences `text` has: a `.`, `!`, `?` or `…` (with any closing quote or bracket)
    /// followed by whitespace and then a capital, digit or opening quote ends one, unless the
    /// word before is a known abbreviation or a single letter (an initial). The full-width
    /// `。`, `！` and `？` of Chinese and Japanese end one wherever more text follows: those
    /// scripts put no space after them and have no capitals. Followed by a closing bracket or
    /// quote and then more text with no space, they end a quoted sentence inside a longer one.
    static func sentenceCount(_ text: String) -> Int {
        let characters = Array(text.trimmingCharacters(in: .whitespacesAndNewlines))
        guard !characters.isEmpty else { return 0 }
        var count = 1
        var index = 0
        while index < characters.count {
            defer { index += 1 }
            if "。！？".contains(characters[index]) {
                var end = index + 1
                while end < characters.count, "。！？".contains(characters[end]) { end += 1 }
                let closersStart = end
                while end < characters.count, "」』）】〉》\"'”’)]".contains(characters[end]) { end += 1 }
                index = end - 1
                guard end < characters.count else { continue }
                // 「光が必要だ。」と言った: a quoted sentence inside a longer one.
                if end > closersStart, !characters[end].isWhitespace { continue }
                count += 1
                continue
            }
            guard ".!?…".contains(characters[index]) else { continue }
            var end = index + 1
            while end < characters.count, "\"'”’)]".contains(characters[end]) { end += 1 }
            guard end < characters.count, characters[end].isWhitespace else { continue }
            var next = end
            while next < characters.count, characters[next].isWhitespace { next += 1 }
            guard next < characters.count else { continue }
            let start = characters[next]
            guard start.isUppercase || start.isNumber || "\"“'‘(".contains(start) else { continue }
            if characters[index] == "." {
                var wordStart = index
                while wordStart > 0, !characters[wordStart - 1].isWhitespace { wordStart -= 1 }
                let word = String(characters[wordStart..<index]).lowercased()
                if word.count == 1 || abbreviations.contains(word) { continue }
            }
            count += 1
        }
        return count
    }

    /// Whether two strings are the same apart from case, whitespace and final punctuation.
    static func sameText(_ first: String, _ second: String) -> Bool {
        key(first) == key(second)
    }

    private static func key(_ text: String) -> String {
        var words = text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        while let last = words.last, ".!?…".contains(last) { words.removeLast() }
        return words
    }
}
