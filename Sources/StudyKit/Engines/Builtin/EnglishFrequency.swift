import Foundation

/// How common a word is in general English, from a background frequency table that ships with
/// studykit (``table``, from wordfreq; see `scripts/make-frequency-table`).
///
/// A student learns a document's own terms — "glob", "chlorophyll", "MIME type" — not the words
/// every text uses — "list", "type", "files". Frequencies are Zipf values: log10 of a word's
/// occurrences per billion words, so "the" is 7.7, "list" 5.3, "molecules" 3.9, "glob" 2.5, and a
/// word outside the table (rarer than about 2.5) counts as 0.
enum EnglishFrequency {
    /// Zipf frequency at and above which a word is common general English (about the 1,100 most
    /// frequent words: "see", "type", "name", "list", "related").
    static let commonZipf = 5.0

    /// The parsed table, built on first use: one pass over its UTF-8 bytes (it is read by every
    /// builtin run on English text, so no line or substring is made on the way).
    private static let zipfByWord: [String: Double] = {
        var result: [String: Double] = [:]
        result.reserveCapacity(30_000)
        let bytes = Array(table.utf8)
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            // "word 53": the word, the last space, the Zipf value in tenths.
            var space = end - 1
            while space > start, bytes[space] != UInt8(ascii: " ") { space -= 1 }
            var tenths = 0
            var digits = 0
            for byte in bytes[(space + 1)..<end] where (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                tenths = tenths * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
            }
            if space > start, digits == end - space - 1, digits > 0 {
                result[String(decoding: bytes[start..<space], as: UTF8.self)] = Double(tenths) / 10
            }
            start = end + 1
        }
        return result
    }()

    /// The Zipf frequency of `word` (case-insensitive), 0 when the word is rarer than the table.
    static func zipf(_ word: String) -> Double {
        let lower = word.lowercased()
        if let value = zipfByWord[lower] { return value }
        // A plural or possessive of a listed word is as common as the word ("files" → "file").
        for suffix in ["'s", "s"] where lower.hasSuffix(suffix) && lower.count > suffix.count + 2 {
            if let value = zipfByWord[String(lower.dropLast(suffix.count))] { return value }
        }
        return 0
    }

    /// Whether `word` is among the common words of general English.
    static func isCommon(_ word: String) -> Bool { zipf(word) >= commonZipf }

    /// How specific a term is to a document rather than to English at large, from 0.15 (a single
    /// very common word such as "see") to 1.6 (a rare word, or a phrase of several words): the
    /// factor a keyphrase score is multiplied by. A phrase is as specific as its rarest word, and
    /// gains for each extra word ("MIME type" beats "type").
    static func specificity(of term: String) -> Double {
        let words = term.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
        guard !words.isEmpty else { return 1 }
        if words.count == 1, words[0].allSatisfy(\.isNumber) { return 1 }
        // Acronyms and names written in capitals are terms of the document ("DER", "ASN").
        if words.count == 1, words[0].count >= 2, words[0].allSatisfy({ $0.isUppercase || $0.isNumber }) { return 1.4 }
        let rarest = words.map(zipf).min() ?? 0
        let base: Double
        switch rarest {
        case ..<3.0: base = 1.4
        case ..<4.0: base = 1.2
        case ..<4.5: base = 1.0
        case ..<commonZipf: base = 0.7
        case ..<6.0: base = 0.35
        default: base = 0.15
        }
        return min(1.6, base + 0.2 * Double(words.count - 1))
    }
}
