/// The regular expressions of the builtin mind map, each compiled once: a Swift regex literal
/// is parsed anew every time its expression runs, and the map tests every section heading of a
/// book with several of them.
enum MindMapPatterns {
    // `Regex` is not `Sendable` (its output type need not be), but a compiled regex is immutable
    // apart from its lazily lowered program, which the standard library stores atomically.

    /// A chapter title's label ("Chapter 6.", "Part II", "2.1") before its words.
    nonisolated(unsafe) static let chapterLabel =
        /^(?:(?:Chapter|Part|Appendix|Section)\s+[\dA-Z]{1,3}[.:]?\s+|\d{1,3}(?:\.\d{1,3})*\.?\s+)/
    /// A title's chapter or section number, as ``BuiltinEngine/unnumberedTitle(_:)`` drops it.
    nonisolated(unsafe) static let titleNumber = #/
        ^(?:(?:Chapter|Part|Appendix|Section)\s+[\dA-Z]{1,3}[.:]?\s+|\d{1,3}(?:\.\d{1,3})*\.\s+
        |\d{1,3}(?:\.\d{1,3})+\s+)
        /#
    /// A heading's section number and the words after it ("2.1 ASN.1 syntax").
    nonisolated(unsafe) static let sectionNumber = /^(\d{1,3}(?:\.\d{1,3})*)\.?\s+\S/
    /// An assignment in a heading ("LEN = strlen(VALUE)+1").
    nonisolated(unsafe) static let assignment = /[\w)\]]\s*=\s*[\w("'\\]/
    /// What opens a line of code: a TeX control sequence, a comment mark, a prompt, a usage line.
    nonisolated(unsafe) static let codeOpening = /^(?:\\[A-Za-z@]|--|\/\/|#|\$ |Usage:)/
    /// A chapter's number and the words after it ("4 Function reference").
    nonisolated(unsafe) static let chapterNumber = /^(\d{1,3})\.?\s+\S/
    /// The number a heading opens with.
    nonisolated(unsafe) static let leadingNumber = /^(\d{1,3})/
    /// A leading "The " (lower-cased inside a label).
    nonisolated(unsafe) static let leadingThe = /^The\s/
    /// Any leading number, for a document that numbers its chapters so ("1 Introduction").
    nonisolated(unsafe) static let chapterHeadingNumber = /^\d{1,3}(?:\.\d{1,3})*\.?\s+/
    /// A section number ("2." or "3.1"; a lone number without a dot, "1984", is no number).
    nonisolated(unsafe) static let sectionHeadingNumber = /^\d{1,3}(?:\.\d{1,3})*[.)]\s+|^\d{1,3}(?:\.\d{1,3})+\s+/
}
