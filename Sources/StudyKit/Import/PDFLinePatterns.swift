import Foundation

/// The line patterns of ``PDFLayout``, matched by hand where that is exact, with each regular
/// expression compiled once for the rest.
///
/// PDF layout tests every line of a document against a dozen patterns. A Swift regex literal
/// is parsed anew each time its expression is evaluated, and `range(of:options: .regularExpression)`
/// compiles an `NSRegularExpression` per call: that was most of the time of `studykit text` on a
/// PDF (two thirds on libtasn1.pdf). Each pattern here gives the regular expression's answer:
/// - on ASCII a character is one byte (but CR LF) and every class is a byte range, so the
///   matchers below read bytes;
/// - the patterns that `NSRegularExpression` (ICU) matches are matched on Unicode scalars, which
///   is what ICU reads, with ICU's `$` (the end, or before a final line break);
/// - a Swift regex on text that is not all ASCII reads grapheme clusters, whose classes are
///   not worth copying by hand: that text goes to the compiled regex, unless its first
///   character already decides (a `Character` that starts with an ASCII letter is no digit).
enum PDFLinePatterns {
    // MARK: - Swift regexes (grapheme clusters)

    // `Regex` is not `Sendable` (its output type need not be), but a compiled regex is immutable
    // apart from its lazily lowered program, which the standard library stores atomically.
    nonisolated(unsafe) static let bareNumberRegex = /\d{1,2}(?:\.\d{1,2})*/
    nonisolated(unsafe) static let atxHeadingRegex = /#{1,6}(?: .*)?/
    nonisolated(unsafe) static let contentsHeadingRegex = /(?:table of )?contents\s*\d{1,3}/
    nonisolated(unsafe) static let gluedNumberRegex = /^(\d{1,2}(?:\.\d{1,2})*)(\p{Lu}\p{L})/
    nonisolated(unsafe) static let numberedTitleRegex = /^\d{1,2}(?:\.\d{1,2})* \p{Lu}/
    nonisolated(unsafe) static let capitalisedRegex = /^\p{Lu}[\p{Ll}\s]/
    nonisolated(unsafe) static let commandTitleRegex = /^\p{Ll}[\p{Ll}\d]*: \p{Lu}/
    nonisolated(unsafe) static let subsectionTitleRegex = /^(?:\p{L}|\$\p{Lu})/

    /// A section number alone: `\d{1,2}(?:\.\d{1,2})*`, the whole text.
    static func isBareNumber(_ text: String) -> Bool {
        let answer = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            guard let first = bytes.first else { return false }
            if first < 0x80 && !isDigit(first) { return false }
            guard isASCII(bytes) else { return nil }
            // Groups of one or two digits between single dots.
            var digits = 0
            for byte in bytes {
                if isDigit(byte) {
                    digits += 1
                    if digits > 2 { return false }
                } else if byte == 0x2E, digits > 0 {
                    digits = 0
                } else {
                    return false
                }
            }
            return digits > 0
        }
        if let answer, let answer { return answer }
        return text.wholeMatch(of: bareNumberRegex) != nil
    }

    /// How a Markdown heading opens: `#{1,6}(?: .*)?`, the whole text.
    static func isATXHeadingLike(_ text: String) -> Bool {
        let answer = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            guard let first = bytes.first, first == 0x23 || first >= 0x80 else { return false }
            guard isASCII(bytes) else { return nil }
            var hashes = 0
            while hashes < bytes.count && bytes[hashes] == 0x23 { hashes += 1 }
            guard hashes <= 6 else { return false }
            if hashes == bytes.count { return true }
            // `.` matches any character but a line break (LF, VT, FF, CR in ASCII).
            return bytes[hashes] == 0x20 && !bytes[hashes...].contains { $0 >= 0x0A && $0 <= 0x0D }
        }
        if let answer, let answer { return answer }
        return text.wholeMatch(of: atxHeadingRegex) != nil
    }

    /// `Contents`, `Table of Contents`, `CONTENTS 2`: the line lower-cased and trimmed of spaces
    /// and tabs is `contents` or `table of contents`, or matches `(?:table of )?contents\s*\d{1,3}`.
    static func isContentsHeading(_ line: String) -> Bool {
        let answer = line.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            // Lower-casing turns no other character into an ASCII letter but `İ` (into `i` and a
            // dot) and the Kelvin sign (into `k`): a line whose ASCII letters do not spell
            // "contents" does not, lower-cased, either.
            guard isASCII(bytes) else { return containsContents(bytes) ? nil : false }
            var lower = 0, upper = bytes.count
            while lower < upper && (bytes[lower] == 0x20 || bytes[lower] == 0x09) { lower += 1 }
            while upper > lower && (bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09) { upper -= 1 }
            func hasLowercased(_ word: StaticString, at position: Int) -> Bool {
                guard upper - position >= word.utf8CodeUnitCount else { return false }
                for k in 0..<word.utf8CodeUnitCount where lowercased(bytes[position + k]) != word.utf8Start[k] {
                    return false
                }
                return true
            }
            var at = lower
            if hasLowercased("table of ", at: at) { at += 9 }
            guard hasLowercased("contents", at: at) else { return false }
            at += 8
            if at == upper { return true }
            while at < upper && isSwiftWhitespace(bytes[at]) { at += 1 }
            var digits = 0
            while at < upper && isDigit(bytes[at]) {
                at += 1
                digits += 1
            }
            return at == upper && (1...3).contains(digits)
        }
        if let answer, let answer { return answer }
        let words = line.lowercased().trimmingCharacters(in: .whitespaces)
        return ["contents", "table of contents"].contains(words) || words.wholeMatch(of: contentsHeadingRegex) != nil
    }

    /// Whether `contents`, in any case, is among the bytes.
    private static func containsContents(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let word: [UInt8] = Array("contents".utf8)
        guard bytes.count >= word.count else { return false }
        return (0...(bytes.count - word.count)).contains { start in
            word.indices.allSatisfy { lowercased(bytes[start + $0]) == word[$0] }
        }
    }

    /// A number glued to a title's first letters (`1Introduction`): the number, when the text
    /// matches `^(\d{1,2}(?:\.\d{1,2})*)(\p{Lu}\p{L})`.
    static func gluedNumber(_ text: String) -> Substring? {
        if let first = text.utf8.first, first < 0x80, !isDigit(first) { return nil }
        return text.firstMatch(of: gluedNumberRegex)?.1
    }

    /// A numbered title: `^\d{1,2}(?:\.\d{1,2})* \p{Lu}` (`4.2 ASN.1 field functions`).
    static func startsNumberedTitle(_ text: String) -> Bool {
        if let first = text.utf8.first, first < 0x80, !isDigit(first) { return false }
        return text.contains(numberedTitleRegex)
    }

    // MARK: - ICU patterns (Unicode scalars)

    /// A line of a contents list (`2.`, `2.1`, `2.1. NAME`, `A.1 Licence`): at most ten words, no
    /// full stop at the end, and a first word with a digit or of at most two characters that
    /// matches `^([0-9]+|[A-Z])(\.[0-9]+)*\.?$`.
    static func isNumberedHeading(_ line: String) -> Bool {
        let answer = line.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            // (CR LF is the one ASCII character of two bytes, and a word's length counts here.)
            guard isASCII(bytes), !bytes.contains(0x0D) else { return nil }
            // The words are the runs between spaces (an ASCII character is one byte).
            var words = 0, first = 0..<0, i = 0
            while i < bytes.count {
                guard bytes[i] != 0x20 else {
                    i += 1
                    continue
                }
                let start = i
                while i < bytes.count && bytes[i] != 0x20 { i += 1 }
                words += 1
                if words == 1 { first = start..<i }
                if words > 10 { return false }
            }
            guard words > 0, bytes.last != 0x2E, bytes[first].contains(where: isDigit)
                || first.count <= 2 else { return false }
            let end = sectionNumberEnd(count: first.count) { UInt32(bytes[first.lowerBound + $0]) }
            return end.map { isICUEnd(count: first.count, at: $0) { UInt32(bytes[first.lowerBound + $0]) } } ?? false
        }
        if let answer, let answer { return answer }
        let words = line.split(separator: " ")
        guard let first = words.first, words.count <= 10, !line.hasSuffix("."), first.contains(where: \.isNumber)
            || first.count <= 2 else {
            return false
        }
        let scalars = first.unicodeScalars.map(\.value)
        return sectionNumberEnd(count: scalars.count) { scalars[$0] }.map { isICUEnd(count: scalars.count,
            at: $0) { scalars[$0] } } ?? false
    }

    /// `^(((Chapter|Appendix|Part) )?([0-9]+|[A-Z])(\.[0-9]+)*\.?)$`: `2`, `2.1`, `4.5.`, `A.1`,
    /// `Appendix A`: a section number alone on its line.
    static func isSectionNumber(_ line: String) -> Bool {
        let scalars = line.unicodeScalars.map(\.value)
        // A line that starts with a name cannot match without it: a capital letter would need a dot or the end after
        // it.
        var start = 0
        for name in ["Chapter ", "Appendix ", "Part "] where scalars.starts(with: name.unicodeScalars.map(\.value)) {
            start = name.unicodeScalars.count
            break
        }
        let end = sectionNumberEnd(count: scalars.count, from: start) { scalars[$0] }
        return end.map { isICUEnd(count: scalars.count, at: $0) { scalars[$0] } } ?? false
    }

    /// `^\[[A-Z][a-z]+( [A-Z]?[a-z]+){0,2}\]$`: a Texinfo category label (`[Data Type]`).
    static func isCategoryLabel(_ line: String) -> Bool {
        guard line.utf8.first == 0x5B else { return false }
        let scalars = Array(line.unicodeScalars)
        var i = 1
        func lowers() -> Bool {
            let start = i
            while i < scalars.count && isLower(scalars[i]) { i += 1 }
            return i > start
        }
        guard i < scalars.count, isUpper(scalars[i]) else { return false }
        i += 1
        guard lowers() else { return false }
        var words = 0
        while words < 2, i < scalars.count, scalars[i] == " " {
            i += 1
            if i < scalars.count && isUpper(scalars[i]) { i += 1 }
            guard lowers() else { return false }
            words += 1
        }
        guard i < scalars.count, scalars[i] == "]" else { return false }
        return isICUEnd(count: scalars.count, at: i + 1) { scalars[$0].value }
    }

    /// `^[a-z][A-Za-z0-9_]*( [a-z][A-Za-z0-9_]*)?: \S`: a parameter's name and its description.
    static func startsDefinition(_ line: String) -> Bool {
        guard let first = line.utf8.first, first >= 0x61 && first <= 0x7A else { return false }
        var scalars = line.unicodeScalars.makeIterator()
        var next = scalars.next()
        func name() {
            next = scalars.next()  // the first letter was checked
            while let s = next, isWordCharacter(s) { next = scalars.next() }
        }
        name()
        if next == " " {
            next = scalars.next()
            guard let s = next, isLower(s) else { return false }
            name()
        }
        guard next == ":", scalars.next() == " ", let after = scalars.next() else { return false }
        // ICU's \s is the White_Space property.
        return !after.properties.isWhitespace
    }

    /// Whether the line's bytes hold `....` or `. . . .`: without them it holds neither as characters.
    static func mayHaveLeaderDots(_ line: String) -> Bool {
        var dots = 0, spaced = 0
        var previous: UInt8 = 0
        for byte in line.utf8 {
            if byte == 0x2E {
                dots += 1
                spaced = previous == 0x20 && spaced > 0 ? spaced + 1 : 1
                if dots == 4 || spaced == 4 { return true }
            } else {
                dots = 0
                if !(byte == 0x20 && previous == 0x2E) { spaced = 0 }
            }
            previous = byte
        }
        return false
    }

    /// The leader dots of a contents entry followed by a page number or the line's end.
    static let leaderEntry = try! NSRegularExpression(pattern: #"(\.\s?){4,}\s*(([0-9]+|[ivxlc]+)\b|$)"#)

    // MARK: - Helpers

    /// Where `([0-9]+|[A-Z])(\.[0-9]+)*\.?` ends when matched from `start` in the `count` code
    /// points that `at` gives, or `nil`. Every class is ASCII and no part can give back what it
    /// took, so the longest match is the only one.
    private static func sectionNumberEnd(count: Int, from start: Int = 0, at: (Int) -> UInt32) -> Int? {
        func isDigit(_ i: Int) -> Bool { i < count && (0x30...0x39).contains(at(i)) }
        var i = start
        if isDigit(i) {
            while isDigit(i) { i += 1 }
        } else if i < count, (0x41...0x5A).contains(at(i)) {
            i += 1
        } else {
            return nil
        }
        while i + 1 < count && at(i) == 0x2E && isDigit(i + 1) {
            i += 1
            while isDigit(i) { i += 1 }
        }
        if i < count && at(i) == 0x2E { i += 1 }
        return i
    }

    /// ICU's `$` without multi-line mode at `i` of `count` code points: the end of the text, or
    /// a final line break (LF, VT, FF, CR, NEL, U+2028, U+2029, or CR LF) before it.
    private static func isICUEnd(count: Int, at i: Int, _ value: (Int) -> UInt32) -> Bool {
        if i == count { return true }
        if i + 2 == count { return value(i) == 0x0D && value(i + 1) == 0x0A }
        guard i + 1 == count else { return false }
        switch value(i) {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }

    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { bytes.allSatisfy { $0 < 0x80 } }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    private static func lowercased(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
    /// Swift's `\s` on ASCII: the White_Space property, tab to carriage return and space.
    private static func isSwiftWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }
    private static func isDigit(_ s: Unicode.Scalar) -> Bool { s.value >= 0x30 && s.value <= 0x39 }
    private static func isUpper(_ s: Unicode.Scalar) -> Bool { s.value >= 0x41 && s.value <= 0x5A }
    private static func isLower(_ s: Unicode.Scalar) -> Bool { s.value >= 0x61 && s.value <= 0x7A }
    private static func isWordCharacter(_ s: Unicode.Scalar) -> Bool { isUpper(s) || isLower(s) || isDigit(s)
        || s == "_" }
}
