/// What text from an untrusted writer (a web page, a pasted file, a model) can hide from its
/// reader: escape sequences that drive a terminal, and invisible or direction-changing
/// characters. One scanner serves both sides: ``SourceNormalizer`` cleaning input and
/// ``TerminalSafety`` cleaning output, each with its own policy for the rest.
///
/// Sequences recognised (ECMA-48): CSI (`ESC [` parameters, intermediates, final byte); the
/// string sequences OSC, DCS, SOS, PM and APC (`ESC ]`, `ESC P`, `ESC X`, `ESC ^`, `ESC _`),
/// terminated by BEL, `ESC \` or C1 ST; nF escapes (`ESC ( B`); two-character escapes
/// (`ESC c`, `ESC 7`); and the one-scalar C1 forms of CSI and the string introducers.
enum HiddenText {
    /// The index just past the escape sequence whose ESC is at `start`. A lone ESC before
    /// something that cannot continue a sequence ends right after the ESC.
    /// - Parameter stringsEndAtLineBreak: whether an unterminated string sequence stops at the
    ///   next line break instead of swallowing the rest of the text, as a terminal would.
    static func endOfEscape(_ scalars: [Unicode.Scalar], escapeAt start: Int, stringsEndAtLineBreak: Bool) -> Int {
        let next = start + 1
        guard next < scalars.count else { return next }
        switch scalars[next].value {
        case 0x5B: // [
            return endOfControlSequence(scalars, from: next + 1)
        case 0x5D, 0x50, 0x58, 0x5E, 0x5F: // ] P X ^ _
            return endOfControlString(scalars, from: next + 1, endsAtLineBreak: stringsEndAtLineBreak)
        case 0x20...0x2F:
            // nF escape: intermediates, then one final byte.
            var index = next
            while index < scalars.count, (0x20...0x2F).contains(scalars[index].value) { index += 1 }
            if index < scalars.count, (0x30...0x7E).contains(scalars[index].value) { index += 1 }
            return index
        case 0x30...0x7E:
            return next + 1
        default:
            return next
        }
    }

    /// The index just past the sequence a one-scalar C1 introducer at `start` begins (U+009B
    /// CSI; U+0090, U+0098, U+009D, U+009E, U+009F strings), or `nil` when it is another scalar.
    static func endOfC1Sequence(_ scalars: [Unicode.Scalar], at start: Int, stringsEndAtLineBreak: Bool) -> Int? {
        switch scalars[start].value {
        case 0x9B: return endOfControlSequence(scalars, from: start + 1)
        case 0x90, 0x98, 0x9D, 0x9E, 0x9F:
            return endOfControlString(scalars, from: start + 1, endsAtLineBreak: stringsEndAtLineBreak)
        default: return nil
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

    /// The index just past a string sequence whose body starts at `from`: after BEL, `ESC \`
    /// or C1 ST; another ESC (or, with `endsAtLineBreak`, a line feed) ends it unconsumed.
    private static func endOfControlString(_ scalars: [Unicode.Scalar], from start: Int, endsAtLineBreak: Bool) -> Int {
        var index = start
        while index < scalars.count {
            switch scalars[index].value {
            case 0x07, 0x9C:
                return index + 1
            case 0x1B:
                if index + 1 < scalars.count, scalars[index + 1] == "\\" { return index + 2 }
                return index
            case 0x0A where endsAtLineBreak:
                return index
            default:
                index += 1
            }
        }
        return index
    }

    /// Whether `value` is an invisible or direction-changing character: the soft hyphen, the
    /// Arabic letter mark, zero-width characters and marks (U+200B–U+200F), bidi embeddings,
    /// overrides and isolates, word joiner and invisible operators, the BOM, tag characters.
    /// The zero-width joiner (U+200D) is among them; see ``joinsEmoji(previous:next:)``.
    static func isInvisible(_ value: UInt32) -> Bool {
        switch value {
        case 0xAD, 0x061C, 0xFEFF: return true
        case 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2064, 0x2066...0x2069: return true
        case 0xE0000...0xE007F: return true
        default: return false
        }
    }

    /// Whether a zero-width joiner between `previous` and `next` sits inside an emoji sequence
    /// (👩‍🔬), where removing it turns one picture into two and hides nothing. ASCII digits,
    /// `#` and `*` count as emoji in Unicode's data (keycaps), so only scalars above Latin-1 qualify.
    static func joinsEmoji(previous: Unicode.Scalar?, next: Unicode.Scalar?) -> Bool {
        guard let previous, let next else { return false }
        return (previous.value == 0xFE0F || isEmoji(previous)) && isEmoji(next)
    }

    /// Whether `scalar` is an emoji above Latin-1.
    static func isEmoji(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value > 0xFF && scalar.properties.isEmoji
    }
}
