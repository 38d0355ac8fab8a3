import Foundation

/// Pure text normalization for every import path, so every source reaches the models in one shape.
///
/// **Encoding policy.** Text and markdown input (files and stdin) must be UTF-8. A UTF-8 byte
/// order mark is dropped; UTF-16 with a byte order mark (either endianness) is decoded; any
/// other byte sequence that is not well-formed UTF-8 is rejected with
/// ``ImportError/notUTF8(_:offset:)``, which names the source and the byte offset of the first
/// ill-formed sequence and suggests `iconv -f <encoding> -t UTF-8`. Nothing is guessed and no
/// replacement characters are ever inserted, because silently mangled study notes are worse than
/// a clear error. HTML is decoded by libxml2 (HTTP charset, then `<meta charset>`), PDF by poppler.
///
/// **Character policy.** After decoding: escape sequences (``HiddenText``: CSI, OSC and the
/// other string sequences, nF and two-character escapes, and their C1 forms) are removed whole,
/// an unterminated string sequence up to the end of its line; `\r\n` and `\r` become `\n`; a
/// tab becomes a space; every other C0/C1 control and DEL is removed; invisible characters are
/// removed: U+00AD soft hyphen, U+061C, U+200B–U+200F (but a zero-width joiner between two emoji
/// is kept, it builds one emoji), U+202A–U+202E, U+2060–U+2064, U+2066–U+2069, U+FEFF and the tag
/// characters U+E0000–U+E007F (a known channel for hidden prompt text). Variation
/// selectors U+FE0E/U+FE0F stay when they follow an emoji-capable character and are dropped
/// otherwise; other variation selectors (ideographic) stay. Then the text is put in Unicode NFC.
///
/// **Layout policy.** Unicode space separators become a plain space; runs of spaces collapse to
/// one; lines are trimmed (but for the indentation of a fenced code block); two or more line
/// breaks become exactly one blank line; leading and trailing blank lines go. Text, markdown and HTML keep single line
/// breaks inside a paragraph; PDF lines are joined with a space (see ``PDFLayout`` for paragraphs, hyphenation and
/// running headers). Normalizing twice gives the same result as normalizing once.
enum SourceNormalizer {
    // MARK: - Decoding

    /// Decodes text or markdown bytes under the encoding policy above.
    static func decodeUTF8(_ data: Data, source: String) throws(ImportError) -> String {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return try validatedUTF8(bytes[3...], offsetBase: 3, source: source)
        }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            let littleEndian = bytes[0] == 0xFF
            let body = bytes[2...]
            var units: [UInt16] = []
            units.reserveCapacity(body.count / 2)
            var index = body.startIndex
            while index + 1 < body.endIndex {
                let a = UInt16(body[index]), b = UInt16(body[index + 1])
                units.append(littleEndian ? a | b << 8 : a << 8 | b)
                index += 2
            }
            if index < body.endIndex { throw .notUTF8(source, offset: index) }
            var result = String.UnicodeScalarView()
            var iterator = units.makeIterator()
            var decoder = UTF16()
            var unitOffset = 0
            loop: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar):
                    result.append(scalar)
                    unitOffset += scalar.utf16.count
                case .emptyInput: break loop
                case .error: throw .notUTF8(source, offset: 2 + unitOffset * 2)
                }
            }
            return String(result)
        }
        return try validatedUTF8(bytes[...], offsetBase: 0, source: source)
    }

    private static func validatedUTF8(_ bytes: ArraySlice<UInt8>, offsetBase: Int,
        source: String) throws(ImportError) -> String {
        let offset = bytes.withUnsafeBytes { firstInvalidUTF8Offset($0) }
        if let offset { throw .notUTF8(source, offset: offsetBase + offset) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The offset of the first byte of the first ill-formed UTF-8 sequence, or `nil` if all is well-formed.
    ///
    /// Follows the well-formed byte table of Unicode §3.9 (no overlongs, no surrogates, nothing past U+10FFFF).
    static func firstInvalidUTF8Offset(_ bytes: UnsafeRawBufferPointer) -> Int? {
        let count = bytes.count
        var i = 0
        while i < count {
            let lead = bytes[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return i
            }
            guard i + length <= count else { return i }
            let second = bytes[i + 1]
            guard second >= low && second <= high else { return i }
            for k in 2..<length where bytes[i + k] & 0xC0 != 0x80 { return i }
            i += length
        }
        return nil
    }

    // MARK: - Characters

    /// Removes escapes, controls and invisible characters and unifies line breaks (the character policy).
    static func cleanCharacters(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var lastKept: Unicode.Scalar? = nil
        var i = 0
        let n = scalars.count
        func append(_ s: Unicode.Scalar) {
            out.append(s)
            lastKept = s
        }
        while i < n {
            let s = scalars[i]
            let v = s.value
            if v == 0x1B {
                i = HiddenText.endOfEscape(scalars, escapeAt: i, stringsEndAtLineBreak: true)
                continue
            }
            if let end = HiddenText.endOfC1Sequence(scalars, at: i, stringsEndAtLineBreak: true) {
                i = end
                continue
            }
            if v == 0x0D {
                append("\n")
                i += (i + 1 < n && scalars[i + 1].value == 0x0A) ? 2 : 1
                continue
            }
            if v == 0x0A {
                append(s)
            } else if v == 0x09 {
                append(" ")
            } else if v < 0x20 || (0x7F...0x9F).contains(v) {
                // Other C0/C1 controls and DEL carry no text.
            } else if v == 0x200D {
                // A zero-width joiner glues emoji into one picture; anywhere else it is invisible noise.
                let next = i + 1 < n ? scalars[i + 1] : nil
                if HiddenText.joinsEmoji(previous: lastKept, next: next) { append(s) }
            } else if v == 0xFE0E || v == 0xFE0F {
                if let lastKept, HiddenText.isEmoji(lastKept) || lastKept.value == 0x20E3 { append(s) }
            } else if HiddenText.isInvisible(v) {
                // Dropped: see the character policy.
            } else {
                append(s)
            }
            i += 1
        }
        return String(out)
    }

    /// Unicode NFC; ASCII is already NFC, so it skips the work.
    static func nfc(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
        return text.precomposedStringWithCanonicalMapping
    }

    // MARK: - Layout

    /// Collapses spaces and trims each line; returns the lines, blank ones as "". A line inside
    /// a fenced code block (between lines that open with ```` ``` ```` or `~~~`) keeps its
    /// indentation, which code needs.
    static func tidyLines(_ text: String) -> [String] {
        var lines: [String] = []
        var current = String.UnicodeScalarView()
        var pendingSpace = false
        var inFence = false
        var indenting = true
        func finishLine() {
            var line = String(current)
            if CodeText.isFence(line) {
                inFence.toggle()
            } else if inFence, line.allSatisfy({ $0 == " " }) {
                line = ""
            }
            lines.append(line)
            current = String.UnicodeScalarView()
            pendingSpace = false
            indenting = true
        }
        for s in text.unicodeScalars {
            if s == "\n" {
                finishLine()
            } else if s == " " || (s.value >= 0x80 && s.properties.generalCategory == .spaceSeparator) {
                if inFence, indenting {
                    current.append(" ")
                } else if !current.isEmpty {
                    pendingSpace = true
                }
            } else {
                indenting = false
                if pendingSpace {
                    current.append(" ")
                    pendingSpace = false
                }
                current.append(s)
            }
        }
        finishLine()
        return lines
    }

    /// The full pipeline for text, markdown and extracted HTML: single line breaks are kept.
    static func normalizeText(_ text: String) -> String {
        let lines = tidyLines(nfc(cleanCharacters(text)))
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var blankPending = false
        for line in lines {
            if line.isEmpty {
                blankPending = !out.isEmpty
                continue
            }
            if !out.isEmpty { out += blankPending ? "\n\n" : "\n" }
            blankPending = false
            out += line
        }
        return out
    }
}
