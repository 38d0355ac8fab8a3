import Foundation

/// Word F1 between an extraction and its reference: how web extraction is scored (issue 13).
///
/// Words are lower-cased runs of letters and digits; in scripts written without spaces (Han,
/// Hiragana, Katakana, Hangul, Thai) each character is a word. Both texts are bags of words, so
/// Markdown marks and line breaks do not count, and a word kept twice when it appears once is a
/// precision loss.
@_spi(Benchmarks) public struct WordOverlap: Sendable, Equatable {
    @_spi(Benchmarks) public let precision: Double
    @_spi(Benchmarks) public let recall: Double

    @_spi(Benchmarks) public var f1: Double {
        precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall)
    }

    @_spi(Benchmarks) public init(extracted: String, reference: String) {
        let got = Self.bag(extracted)
        let expected = Self.bag(reference)
        let common = got.reduce(0) { $0 + min($1.value, expected[$1.key] ?? 0) }
        let gotCount = got.values.reduce(0, +)
        let expectedCount = expected.values.reduce(0, +)
        precision = gotCount == 0 ? 0 : Double(common) / Double(gotCount)
        recall = expectedCount == 0 ? 0 : Double(common) / Double(expectedCount)
    }

    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in text.lowercased() {
            if character.isLetter || character.isNumber {
                if character.unicodeScalars.first.map(isUnspaced) == true {
                    if !current.isEmpty { words.append(current) }
                    current = ""
                    words.append(String(character))
                } else {
                    current.append(character)
                }
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    private static func bag(_ text: String) -> [String: Int] {
        words(text).reduce(into: [:]) { $0[$1, default: 0] += 1 }
    }

    /// Han, Hiragana, Katakana, Hangul and Thai: scripts whose words are not separated by spaces.
    static func isUnspaced(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xAC00...0xD7AF, 0x0E00...0x0E7F:
            return true
        default:
            return false
        }
    }
}
