/// A formula of the source: the TeX its text carries (`$…$` inline, `$$…$$` on a line of its
/// own) and, for a web page's MathML, the markup it came from, which kit.html writes back.
public struct Formula: Sendable, Equatable, Hashable {
    /// The TeX between the dollars, as it stands in ``Document/text``.
    public let tex: String
    /// The page's own MathML (elements and attributes of MathML only), or `nil` for TeX the source
    /// wrote itself (a Markdown note).
    public let mathML: String?
    /// Whether the formula is displayed on a line of its own (`$$…$$`).
    public let isDisplay: Bool

    /// Creates a formula.
    public init(tex: String, mathML: String?, isDisplay: Bool) {
        self.tex = tex
        self.mathML = mathML
        self.isDisplay = isDisplay
    }

    /// The formula as the text shows it: `$tex$` or `$$tex$$`.
    public var span: String { FormulaText.span(tex, display: isDisplay) }
}

/// Formulas in imported text, written as TeX between dollars (issue 52): `$…$` inside a line,
/// `$$…$$` on a line of its own. HTML import writes them from a page's MathML; Markdown notes
/// carry them as written.
///
/// A span follows Pandoc's rule, so prices are no formulas: the opening `$` is followed by a
/// character that is not a space, the closing `$` follows one that is not a space nor a
/// backslash and is not followed by a digit, and the span stays on one line. "$5 and $10" has
/// none; "$x_i$" and "$$\sum_i p_i = 1$$" have one each.
///
/// A formula is one token everywhere the text is cut into words: grounding compares it verbatim,
/// and the builtin engine never makes a keyphrase or a blank of a TeX command inside it.
enum FormulaText {
    /// The ranges of `text`'s formula spans, dollars included, in order.
    static func spans(in text: Substring) -> [Range<String.Index>] {
        guard text.utf8.contains(UInt8(ascii: "$")) else { return [] }
        var result: [Range<String.Index>] = []
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == "$", index == text.startIndex || text[text.index(before: index)] != "\\",
                let end = spanEnd(in: text, from: index)
            {
                result.append(index..<end)
                index = end
            } else {
                index = text.index(after: index)
            }
        }
        return result
    }

    /// The ranges of `text`'s formula spans, dollars included, in order.
    static func spans(in text: String) -> [Range<String.Index>] { spans(in: text[...]) }

    /// Whether `text` holds at least one formula.
    static func containsFormula(_ text: String) -> Bool { !spans(in: text).isEmpty }

    /// Where the span that opens with the `$` at `start` ends (just past its closing dollars), or
    /// `nil` when that dollar opens none.
    static func spanEnd(in text: Substring, from start: String.Index) -> String.Index? {
        let afterOpen = text.index(after: start)
        guard afterOpen < text.endIndex else { return nil }
        let display = text[afterOpen] == "$"
        let contentStart = display ? text.index(after: afterOpen) : afterOpen
        guard contentStart < text.endIndex, !text[contentStart].isWhitespace, text[contentStart] != "$" else {
            return nil
        }
        var index = contentStart
        var previous: Character = " "
        while index < text.endIndex {
            let character = text[index]
            if character.isNewline { return nil }
            if character == "$", previous != "\\" {
                if display {
                    let next = text.index(after: index)
                    guard next < text.endIndex, text[next] == "$" else { return nil }
                    return text.index(after: next)
                }
                guard !previous.isWhitespace else { return nil }
                let next = text.index(after: index)
                if next < text.endIndex, text[next].isNumber { return nil }
                return next
            }
            previous = character
            index = text.index(after: index)
        }
        return nil
    }

    /// The same scan on an array of characters (the builtin engine's word splitter walks one):
    /// the index just past the span that opens at `start`, or `nil`.
    static func spanEnd(in characters: [Character], from start: Int) -> Int? {
        guard characters[start] == "$", start == 0 || characters[start - 1] != "\\" else { return nil }
        let display = start + 1 < characters.count && characters[start + 1] == "$"
        let contentStart = start + (display ? 2 : 1)
        guard contentStart < characters.count, !characters[contentStart].isWhitespace, characters[contentStart] != "$"
        else {
            return nil
        }
        var index = contentStart
        while index < characters.count {
            let character = characters[index]
            if character.isNewline { return nil }
            if character == "$", characters[index - 1] != "\\" {
                if display { return index + 1 < characters.count && characters[index + 1] == "$" ? index + 2 : nil }
                guard !characters[index - 1].isWhitespace else { return nil }
                if index + 1 < characters.count, characters[index + 1].isNumber { return nil }
                return index + 1
            }
            index += 1
        }
        return nil
    }

    /// A span's TeX without its dollars, and whether it is displayed (`$$…$$`).
    static func tex(of span: Substring) -> (tex: Substring, display: Bool) {
        if span.hasPrefix("$$"), span.hasSuffix("$$"), span.count >= 4 { return (span.dropFirst(2).dropLast(2), true) }
        return (span.dropFirst().dropLast(), false)
    }

    /// The span that shows `tex`: `$tex$`, or `$$tex$$` for a displayed formula.
    static func span(_ tex: String, display: Bool) -> String {
        display ? "$$" + tex + "$$" : "$" + tex + "$"
    }

    /// The formulas `text` writes itself (TeX without MathML), each once, in order.
    static func formulas(in text: String) -> [Formula] {
        var seen = Set<Substring>()
        return spans(in: text).compactMap { range in
            guard seen.insert(text[range]).inserted else { return nil }
            let (tex, display) = tex(of: text[range])
            return Formula(tex: String(tex), mathML: nil, isDisplay: display)
        }
    }

    /// `text` with each displayed formula (`$$…$$`) on a line of its own, split from the words around it.
    static func displaysOnOwnLines(_ text: String) -> String {
        guard text.contains("$$") else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line -> [Substring] in
            let displays = spans(in: line).filter { line[$0].hasPrefix("$$") }
            guard !displays.isEmpty, displays.count > 1 || line[displays[0]].count != line.count else { return [line] }
            var pieces: [Substring] = []
            var start = line.startIndex
            for range in displays {
                pieces.append(line[start..<range.lowerBound])
                pieces.append(line[range])
                start = range.upperBound
            }
            pieces.append(line[start...])
            return pieces.map { $0.trimmingCharacters(in: .whitespaces)[...] }.filter { !$0.isEmpty }
        }.joined(separator: "\n")
    }

    /// Whether a unit of text is nothing but formulas (and the punctuation around them): a
    /// displayed equation, which says nothing on its own and is no key point or heading.
    static func isOnlyFormula(_ text: Substring) -> Bool {
        let spans = spans(in: text)
        guard !spans.isEmpty else { return false }
        var rest = String(text)
        for span in spans.reversed() {
            let lower = text.distance(from: text.startIndex, to: span.lowerBound)
            let upper = text.distance(from: text.startIndex, to: span.upperBound)
            rest.removeSubrange(
                rest.index(rest.startIndex, offsetBy: lower)..<rest.index(rest.startIndex, offsetBy: upper))
        }
        return !rest.contains { $0.isLetter || $0.isNumber }
    }
}
