/// Removes what an untrusted writer (the model, a web page) could use to fool a terminal or a
/// reader: escape sequences, control characters and invisible or direction-changing characters.
///
/// Every renderer runs each model string through ``clean(_:)-(String)`` before formatting, so no
/// output format can carry a hidden hyperlink (OSC 8), a colour change, a cursor move, or
/// text that reads differently from how it is stored (a bidi override).
///
/// What goes:
/// - ANSI/ECMA-48 sequences: CSI (`ESC [` … final byte), OSC (`ESC ]` … terminated by BEL,
///   `ESC \` or C1 ST, including OSC 8 hyperlinks), DCS/SOS/PM/APC strings, two-character
///   escapes (`ESC c`, `ESC ( B`), and their one-scalar C1 forms (U+009B CSI, U+009D OSC …).
///   An unterminated string sequence swallows the rest of the text, as a terminal would.
/// - C0 and C1 control characters, and DEL, except `\n` and `\t` (`\r` goes, so CRLF becomes LF).
/// - Invisible and bidi-control characters: U+00AD, U+061C, U+200B–U+200F, U+202A–U+202E,
///   U+2060–U+2064, U+2066–U+2069, U+FEFF and the tag characters U+E0000–U+E007F.
///
/// One exception keeps emoji whole: a zero-width joiner (U+200D) between two emoji, as in
/// 👩‍🔬, is kept, because removing it turns one picture into two and hides nothing.
/// The visible text of a hyperlink is kept; only the link goes.
public enum TerminalSafety {
    /// `text` with escape sequences, control characters and invisible characters removed.
    public static func clean(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar.value {
            case 0x1B:
                index = endOfEscape(scalars, escapeAt: index)
                continue
            case 0x9B:
                index = endOfControlSequence(scalars, from: index + 1)
                continue
            case 0x90, 0x98, 0x9D, 0x9E, 0x9F:
                index = endOfControlString(scalars, from: index + 1)
                continue
            case 0x09, 0x0A:
                out.append(scalar)
            case 0x2028, 0x2029:
                // Line and paragraph separators act as line breaks in some viewers and not in
                // others; a plain newline means the same thing everywhere.
                out.append("\n")
            case 0x200D where joinsEmoji(previous: out.last, next: index + 1 < scalars.count ? scalars[index + 1] : nil):
                out.append(scalar)
            default:
                if !isRemoved(scalar.value) { out.append(scalar) }
            }
            index += 1
        }
        return String(out)
    }

    /// `value` with every string in it (member names too) cleaned by ``clean(_:)-(String)``.
    public static func clean(_ value: JSONValue) -> JSONValue {
        switch value {
        case .null, .bool, .integer, .number: return value
        case .string(let text): return .string(clean(text))
        case .array(let elements): return .array(elements.map(clean))
        case .object(let object):
            return .object(JSONObject(object.map { (clean($0.key), clean($0.value)) }))
        }
    }

    // MARK: - Escape sequences

    /// The index just past the escape sequence whose ESC is at `escapeAt`.
    private static func endOfEscape(_ scalars: [Unicode.Scalar], escapeAt start: Int) -> Int {
        let next = start + 1
        guard next < scalars.count else { return next }
        switch scalars[next].value {
        case 0x5B: // [
            return endOfControlSequence(scalars, from: next + 1)
        case 0x5D, 0x50, 0x58, 0x5E, 0x5F: // ] P X ^ _
            return endOfControlString(scalars, from: next + 1)
        case 0x20...0x2F:
            // nF escape: intermediates, then one final byte.
            var index = next
            while index < scalars.count, (0x20...0x2F).contains(scalars[index].value) { index += 1 }
            if index < scalars.count, (0x30...0x7E).contains(scalars[index].value) { index += 1 }
            return index
        case 0x30...0x7E:
            return next + 1
        default:
            // A lone ESC before something that cannot continue a sequence: drop the ESC only.
            return next
        }
    }

    /// The index just past a CSI sequence whose parameters start at `from`.
    private static func endOfControlSequence(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
        var index = start
        while index < scalars.count, (0x30...0x3F).contains(scalars[index].value) { index += 1 }
        while index < scalars.count, (0x20...0x2F).contains(scalars[index].value) { index += 1 }
        if index < scalars.count, (0x40...0x7E).contains(scalars[index].value) { index += 1 }
        return index
    }

    /// The index just past an OSC/DCS/SOS/PM/APC string whose body starts at `from`:
    /// after BEL, `ESC \` or C1 ST; another ESC ends it without being consumed.
    private static func endOfControlString(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
        var index = start
        while index < scalars.count {
            switch scalars[index].value {
            case 0x07, 0x9C:
                return index + 1
            case 0x1B:
                if index + 1 < scalars.count, scalars[index + 1] == "\\" { return index + 2 }
                return index
            default:
                index += 1
            }
        }
        return index
    }

    // MARK: - Characters

    private static func isRemoved(_ value: UInt32) -> Bool {
        switch value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0xAD, 0x061C, 0xFEFF: return true
        case 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2064, 0x2066...0x2069: return true
        case 0xE0000...0xE007F: return true
        default: return false
        }
    }

    /// Whether a zero-width joiner sits inside an emoji sequence. ASCII digits, `#` and `*`
    /// count as emoji in Unicode's data (keycaps), so only scalars above Latin-1 qualify.
    private static func joinsEmoji(previous: Unicode.Scalar?, next: Unicode.Scalar?) -> Bool {
        guard let previous, let next else { return false }
        let previousIsEmoji = previous.value == 0xFE0F || (previous.value > 0xFF && previous.properties.isEmoji)
        return previousIsEmoji && next.value > 0xFF && next.properties.isEmoji
    }
}
