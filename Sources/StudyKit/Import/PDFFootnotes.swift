/// Footnotes of a PDF: lines set in small type at a page's foot (issue 52). They are apparatus:
/// run into the page's text they split its last paragraph and became key points and cards.
///
/// On a page, below the body and above any page number, a run of lines whose type is clearly
/// smaller than the body's (their glyph boxes under 85% of the body's height, the height most of
/// the document's text has), standing in the lower half of the page, beginning with a note's
/// mark (`1`, `12`, `*`, `†`, `¹`, `(3)`, `[3]`) is the page's footnotes; a small line between
/// the body and the first mark (a caption) stays. Each note is its lines joined. Pages without
/// geometry (a test's bare text) and documents of one type size have none.
enum PDFFootnotes {
    typealias Line = PDFLayout.PDFLine

    /// The pages without their footnotes, and the footnotes in page order, one string each.
    static func separate(_ pages: [[Line]]) -> (pages: [[Line]], footnotes: [String]) {
        guard let body = bodyHeight(pages) else { return (pages, []) }
        let lowest = pages.lazy.flatMap { $0 }.compactMap(\.top).max() ?? 0
        guard lowest > 0 else { return (pages, []) }
        var result = pages
        var footnotes: [String] = []
        for (index, lines) in pages.enumerated() {
            guard let run = footRun(lines, bodyHeight: body, footFrom: lowest / 2) else { continue }
            let pageNotes = notes(Array(lines[run]))
            footnotes += pageNotes
            result[index].removeSubrange(run)
            // The notes' marks in the page's text ("flow downhill.1 Ice") go with them.
            let marks = Set(
                pageNotes.map { note in String(note.prefix { $0.isASCII && $0.isNumber }) }.filter { !$0.isEmpty })
            guard !marks.isEmpty else { continue }
            for line in result[index].indices where result[index][line].text.contains(where: \.isNumber) {
                result[index][line].text = withoutMarks(result[index][line].text, marks: marks)
            }
        }
        return (result, footnotes)
    }

    /// `text` without the note marks glued to a word's closing punctuation: "downhill.1 Ice" →
    /// "downhill. Ice" (a number after a letter, "H2O", or inside a number, "3.1", stays).
    private static func withoutMarks(_ text: String, marks: Set<String>) -> String {
        var result = text
        for match in text.matches(of: gluedMark).reversed() where marks.contains(String(match.output.2)) {
            result.replaceSubrange(match.output.2.startIndex..<match.output.2.endIndex, with: "")
        }
        return result
    }

    nonisolated(unsafe) private static let gluedMark = /(\p{L}[.,;:)”’"])(\d{1,2})(?=\s|$)/

    /// The height most of the document's characters are set in, when enough lines have one.
    private static func bodyHeight(_ pages: [[Line]]) -> Double? {
        var weights: [Double: Int] = [:]
        var measured = 0
        for line in pages.joined() {
            guard let height = line.height, height > 0 else { continue }
            weights[(height * 2).rounded() / 2, default: 0] += line.text.count
            measured += 1
        }
        guard measured >= 20 else { return nil }
        return weights.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }?.key
    }

    /// The footnote lines of one page, if it has any.
    private static func footRun(_ lines: [Line], bodyHeight: Double, footFrom foot: Double) -> Range<Int>? {
        var end = lines.count
        // A page number or a short running footer below the notes stays with the page.
        while end > 0, isPageFurniture(lines[end - 1].text) { end -= 1 }
        var start = end
        while start > 0, let height = lines[start - 1].height, height < bodyHeight * 0.85,
            let top = lines[start - 1].top, top >= foot
        {
            start -= 1
        }
        guard start < end, lines[..<start].contains(where: { ($0.height ?? 0) >= bodyHeight * 0.95 }) else {
            return nil
        }
        guard let first = lines[start..<end].firstIndex(where: { isMarked($0.text) }) else { return nil }
        // A footnote is prose that the page's text points to: a table or a listing set small at
        // the foot ("4" over "CARD32 N_ROOTS") is neither.
        let candidates = notes(Array(lines[first..<end]))
        guard candidates.contains(where: { $0.split(separator: " ").count >= 4 }) else { return nil }
        let marks = candidates.map { mark(of: $0) }.filter { !$0.isEmpty }
        let body = lines[..<first]
        guard marks.contains(where: { mark in body.contains { isReferenced(mark, in: $0.text) } }) else { return nil }
        return first..<end
    }

    /// A note's mark: its leading digits or symbols.
    private static func mark(of note: String) -> String {
        String(note.prefix { ($0.isASCII && $0.isNumber) || "*†‡§¶¹²³⁴⁵⁶⁷⁸⁹⁰".contains($0) })
    }

    /// Whether `line` points to the note marked `mark`: the number glued to a word or its closing
    /// punctuation ("downhill.1 Ice", "ice1,"), not part of a longer number; a symbol after a word.
    static func isReferenced(_ mark: String, in line: String) -> Bool {
        let characters = Array(line)
        let mark = Array(mark)
        guard !mark.isEmpty, characters.count > mark.count else { return false }
        let numeric = mark.allSatisfy { $0.isASCII && $0.isNumber }
        for start in 1...(characters.count - mark.count) where Array(characters[start..<(start + mark.count)]) == mark {
            let before = characters[start - 1]
            let after = start + mark.count < characters.count ? characters[start + mark.count] : " "
            if numeric {
                guard before.isLetter || ".,;:)”’\"".contains(before), !after.isNumber, !after.isLetter else {
                    continue
                }
                return true
            }
            if !before.isWhitespace { return true }
        }
        return false
    }

    /// A line that is a page number or a page's running text: digits, "Page 3", "- 3 -", at most three words.
    private static func isPageFurniture(_ text: String) -> Bool {
        let words = text.split(separator: " ")
        guard !words.isEmpty else { return true }
        return words.count <= 3 && text.contains(where: \.isNumber) && text.firstMatch(of: noteMark) == nil
    }

    /// One string per note: a line with a mark opens a note, the lines after it continue it.
    private static func notes(_ lines: [Line]) -> [String] {
        var notes: [String] = []
        for line in lines {
            let text = line.text.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { continue }
            if notes.isEmpty || isMarked(text) {
                notes.append(text)
            } else if notes[notes.count - 1].allSatisfy({ !$0.isLetter }) {
                notes[notes.count - 1] += " " + text  // the mark stood above its note's first line
            } else if notes[notes.count - 1].hasSuffix("-"), text.first?.isLowercase == true {
                notes[notes.count - 1].removeLast()
                notes[notes.count - 1] += text
            } else {
                notes[notes.count - 1] += " " + text
            }
        }
        return notes
    }

    /// A line that opens a note: its mark before the text, or the mark alone (a superscript
    /// poppler sets on a line of its own above the note).
    private static func isMarked(_ text: String) -> Bool {
        text.firstMatch(of: noteMark) != nil || text.wholeMatch(of: bareMark) != nil
    }

    nonisolated(unsafe) private static let bareMark =
        /\s*(?:\d{1,3}|[*†‡§¶]{1,3}|[¹²³⁴⁵⁶⁷⁸⁹⁰]{1,3})\s*/
    nonisolated(unsafe) private static let noteMark =
        /^(?:\d{1,3}|[*†‡§¶]{1,3}|[¹²³⁴⁵⁶⁷⁸⁹⁰]{1,3}|\(\d{1,3}\)|\[\d{1,3}\])\s?\p{L}/
}
