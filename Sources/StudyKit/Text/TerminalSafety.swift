/// Removes what an untrusted writer (the model, a web page) could use to fool a terminal or a
/// reader: escape sequences, control characters and invisible or direction-changing characters.
///
/// Every renderer runs each model string through ``clean(_:)-(String)`` before formatting, so no
/// output format can carry a hidden hyperlink (OSC 8), a colour change, a cursor move, or
/// text that reads differently from how it is stored (a bidi override).
///
/// What goes:
/// - ANSI/ECMA-48 sequences, as ``HiddenText`` scans them: CSI (`ESC [` … final byte), OSC
///   (`ESC ]` … terminated by BEL, `ESC \` or C1 ST, including OSC 8 hyperlinks), DCS/SOS/PM/APC
///   strings, two-character escapes (`ESC c`, `ESC ( B`), and their one-scalar C1 forms (U+009B
///   CSI, U+009D OSC …). An unterminated string sequence swallows the rest of the text, as a
///   terminal would.
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
            if scalar.value == 0x1B {
                index = HiddenText.endOfEscape(scalars, escapeAt: index, stringsEndAtLineBreak: false)
                continue
            }
            if let end = HiddenText.endOfC1Sequence(scalars, at: index, stringsEndAtLineBreak: false) {
                index = end
                continue
            }
            switch scalar.value {
            case 0x09, 0x0A:
                out.append(scalar)
            case 0x2028, 0x2029:
                // Line and paragraph separators act as line breaks in some viewers and not in
                // others; a plain newline means the same thing everywhere.
                out.append("\n")
            case 0x200D where HiddenText.joinsEmoji(previous: out.last,
                next: index + 1 < scalars.count ? scalars[index + 1] : nil):
                out.append(scalar)
            case 0x00...0x1F, 0x7F...0x9F:
                break
            default:
                if !HiddenText.isInvisible(scalar.value) { out.append(scalar) }
            }
            index += 1
        }
        return String(out)
    }
}
