import Foundation

/// Wikipedia's reference and editorial marks, left in text a student copies from it (or a page
/// of it fetched whole): "…make sugar.[1] It takes place in the chloroplasts.[2][3] The Calvin
/// cycle fixes carbon dioxide.[citation needed]". Left in, a mark glued to a full stop hides the
/// sentence's end, so the whole paragraph read as one sentence (a pasted article of five
/// sentences had "1 usable sentence" for a summary), and the marks went on into key points,
/// cards and quotes.
///
/// A mark is a bracketed reference number (`[12]`), a note letter (`[a]`), a numbered note
/// (`[note 3]`, `[nb 1]`) or an editor's tag (`[citation needed]`, `[who?]`). It goes when it is
/// glued to the end of a sentence or clause (`.[1]`, `,[2]`, `”[3]`), where no code or formula
/// puts an index. Glued to a word (`plants[4] make`) it goes only in text that has at least two
/// marks of the first kind, the sign of an encyclopedia article: notes on a program keep
/// `argv[1]`. A science article's numbered marks stand after a space ("at 37 °C [1].",
/// "flexible [2, 3]", "[4–6]"): they go in text with at least three of them, outside code.
enum ReferenceMarkers {
    /// Reference numbers: one, or a list or range of them (`2,3`, `4–6`).
    private static let numbers = #"\d{1,3}(?:\s?[,–-]\s?\d{1,3})*"#

    /// One mark's inside, without its brackets.
    private static let mark =
        #"(?:"# + numbers + #"|[a-z]|(?:note|nb|n) \d{1,3}|citation needed|[a-z][a-z ]{2,30} needed"#
        + #"|failed verification|[a-z][a-z ]{0,20}\?)"#

    /// A numbered mark after a space, before a space, punctuation or the end of the line; a
    /// reference is never number 0 (`ider [0]` is an index).
    private static let spaced = try! NSRegularExpression(
        pattern: #"(?<=[\p{L}\p{N}.,;:)”"’»%°])\s\[(?!0)"# + numbers + #"\](?=[\s.,;:!?)]|$)"#,
        options: [.anchorsMatchLines])

    /// The least spaced marks that make text read as a science article.
    static let spacedEvidence = 3

    /// Marks glued to a sentence's or clause's punctuation, or to a closing quote.
    private static let afterPunctuation = try! NSRegularExpression(
        pattern: #"(?<=[.,;:!?"”’»」』。、])(?:\["# + mark + #"\])+"#)

    /// Marks glued to a word or a closing bracket (`(1905)[17]`), before a space, punctuation or
    /// the end of the line: in code a bracket after a call is an index (`shape(a)[0]`), so only in articles.
    private static let afterWord = try! NSRegularExpression(
        pattern: #"(?<=[\p{L}\p{N})\]])(?:\["# + mark + #"\])+(?=[\s.,;:!?)]|$)"#, options: [.anchorsMatchLines])

    /// The least marks after punctuation that make text read as an encyclopedia article.
    static let articleEvidence = 2

    /// `text` without its marks.
    static func removed(from text: String) -> String {
        removed(fromLines: [text])[0]
    }

    /// `lines` (one document's) without their marks; which marks go is decided over all of them.
    static func removed(fromLines lines: [String]) -> [String] {
        // A mark needs a `[`: a line without one in its bytes is passed over without a character
        // search or a regular-expression match (a PDF has thousands of lines).
        func mayHoldMark(_ line: String) -> Bool { line.utf8.contains(0x5B) }
        guard lines.contains(where: { mayHoldMark($0) && $0.contains("[") }) else { return lines }
        let count = lines.reduce(0) { total, line in
            guard mayHoldMark(line) else { return total }
            return total + afterPunctuation.numberOfMatches(in: line, range: NSRange(line.startIndex..., in: line))
        }
        let spacedCount = lines.reduce(0) { total, line in
            total + proseLines(of: line).reduce(0) { count, prose in
                count + spaced.numberOfMatches(in: String(prose), range: NSRange(prose.startIndex..., in: prose))
            }
        }
        guard count > 0 || spacedCount >= spacedEvidence else { return lines }
        return lines.map { line in
            guard mayHoldMark(line), line.contains("[") else { return line }
            var result = afterPunctuation.stringByReplacingMatches(
                in: line, range: NSRange(line.startIndex..., in: line), withTemplate: "")
            if count >= articleEvidence {
                result = afterWord.stringByReplacingMatches(in: result,
                    range: NSRange(result.startIndex..., in: result), withTemplate: "")
            }
            if spacedCount >= spacedEvidence { result = withoutSpacedMarks(result) }
            return result
        }
    }

    /// The lines of `text` outside fenced code, where a spaced `[1]` is an index or a list.
    private static func proseLines(of text: String) -> [Substring] {
        guard text.utf8.contains(0x5B), text.contains("[") else { return [] }
        var inFence = false
        return text.lineSlices(omittingEmptySubsequences: false).filter { line in
            if CodeText.isFence(line) { inFence.toggle() }
            return !inFence && !CodeText.isFence(line) && line.utf8.contains(0x5B) && line.contains("[")
        }
    }

    private static func withoutSpacedMarks(_ text: String) -> String {
        var inFence = false
        return text.lineSlices(omittingEmptySubsequences: false).map { line -> String in
            if CodeText.isFence(line) { inFence.toggle() }
            guard !inFence, line.utf8.contains(0x5B), line.contains("[") else { return String(line) }
            let string = String(line)
            return spaced.stringByReplacingMatches(
                in: string, range: NSRange(string.startIndex..., in: string), withTemplate: "")
        }.joined(separator: "\n")
    }
}
