import Foundation

/// Anki's plain-text import (Anki 2.1.55+), with file headers so that nothing has to be set
/// by hand in the import dialog.
///
/// The file starts with `#key:value` headers, separator first because `#columns` is split
/// with it:
///
/// ```
/// #separator:tab
/// #html:false
/// #notetype:Basic            (or Cloze)
/// #deck:<deck>
/// #guid column:1
/// #tags column:4
/// #columns:GUID<TAB>Front<TAB>Back<TAB>Tags      (Cloze: GUID, Text, Back Extra, Tags)
/// ```
///
/// A deck whose notes go to subdecks of the document's deck (one per top-level section,
/// ``SectionGroups``) has a `Deck` column before `Tags` (`#deck column:4`, `#tags column:5`).
///
/// Then one row per note. Question/answer cards are `Basic` notes; cloze cards are `Cloze`
/// notes whose Text holds `{{c1::answer}}` (or `{{c1::answer::hint}}`) and whose Back Extra holds
/// the supporting quote and its source. A deck of both kinds is one file with a note type column
/// (`#notetype column:2`, fields by position) when it goes to one stream, or two files
/// (``files(_:context:)``) when it goes to a directory.
///
/// With `#html:false`, Anki escapes `<`, `>` and `&` itself, so model text can never become
/// HTML. A field holding a tab, a newline or `"` is put in double quotes with inner quotes
/// doubled (CSV rules, as Anki's manual states); every other field is written as it is. Rows
/// start with the GUID, which is alphanumeric, so no row can be mistaken for a `#` comment line.
///
/// Checked against Anki's own importer (the `anki` 26.9 package): the headers are honoured,
/// fields arrive intact with newlines as `<br>`, cloze Text renders as a blank, and
/// re-importing updates notes by GUID.
///
/// The GUID is a hash of the source identity, the kind of note and the question, normalised
/// (case, Unicode form and whitespace), so importing an updated kit for the same material
/// updates the existing notes instead of adding duplicates. The `.apkg` package
/// (``AnkiPackage``) uses the same GUIDs.
public enum AnkiRenderer {
    /// The declared columns of a Basic file, in order.
    public static let columns = ["GUID", "Front", "Back", "Tags"]
    /// The declared columns of a Cloze file, in order.
    public static let clozeColumns = ["GUID", "Text", "Back Extra", "Tags"]

    /// The deck as one file: Basic notes, Cloze notes, or both with a note type column.
    public static func render(_ flashcards: Flashcards, context: RenderContext) -> String {
        let notes = AnkiNotes.notes(flashcards, context: context)
        let types = Set(notes.map(\.type))
        if types.count > 1 { return file(notes: notes, type: nil, context: context) }
        return file(notes: notes, type: types.first ?? .basic, context: context)
    }

    /// The deck as the files of a kit directory: `cards.tsv` alone when every card is of one
    /// kind (Basic or Cloze); for a mixed deck, `cards.tsv` with the Basic notes and `cloze.tsv`
    /// with the Cloze notes, each with a plain `#notetype:` header.
    public static func files(_ flashcards: Flashcards, context: RenderContext) -> [(name: String, contents: String)] {
        let notes = AnkiNotes.notes(flashcards, context: context)
        let types = Set(notes.map(\.type))
        guard types.count > 1 else {
            return [(cardsFile, file(notes: notes, type: types.first ?? .basic, context: context))]
        }
        return [
            (cardsFile, file(notes: notes.filter { $0.type == .basic }, type: .basic, context: context)),
            (clozeFile, file(notes: notes.filter { $0.type == .cloze }, type: .cloze, context: context)),
        ]
    }

    /// The kit file that holds the deck (all of it, or its Basic notes when it is mixed).
    public static let cardsFile = "cards.tsv"
    /// The kit file that holds the Cloze notes of a mixed deck.
    public static let clozeFile = "cloze.tsv"

    /// One Basic note per question: the prompt and its lettered choices in front, the right
    /// choice and the explanation on the back.
    public static func render(_ quiz: Quiz, context: RenderContext) -> String {
        let notes = AnkiNotes.notes(quiz, context: context).map { note in
            let fields = AnkiNotes.basicFields(multipleChoice: note.fields)
            return AnkiNote(guid: note.guid, type: .basic, fields: fields, tags: note.tags, deck: note.deck)
        }
        return file(notes: notes, type: .basic, context: context)
    }

    // MARK: - File

    /// The file for `notes`; `type` `nil` writes a note type column (notes of several types).
    /// Notes in subdecks (``SectionGroups``) get a deck column, the document's deck's notes first:
    /// Anki (26.9) names a deck `Deck+` when a row names it after a row named one of its subdecks.
    private static func file(notes: [AnkiNote], type: AnkiNote.NoteType?, context: RenderContext) -> String {
        var lines = ["#separator:tab", "#html:false"]
        var columns: [String]
        switch type {
        case .cloze?:
            lines.append("#notetype:Cloze")
            columns = clozeColumns
        case nil:
            lines.append("#notetype column:2")
            columns = [Self.columns[0], "Notetype"] + Self.columns.dropFirst()
        default:
            lines.append("#notetype:Basic")
            columns = Self.columns
        }
        let document = AnkiNotes.deckName(context)
        let subdecks = notes.contains { $0.deck != document }
        if subdecks { columns.insert("Deck", at: columns.count - 1) }
        lines += ["#deck:" + document, "#guid column:1"]
        if subdecks { lines.append("#deck column:\(columns.count - 1)") }
        lines += [
            "#tags column:\(columns.count)",
            "#columns:" + columns.joined(separator: "\t"),
        ]
        let ordered = subdecks ? notes.filter { $0.deck == document } + notes.filter { $0.deck != document } : notes
        lines += ordered.map { note in
            let typeColumn = type == nil ? [note.type == .cloze ? "Cloze" : "Basic"] : []
            let deckColumn = subdecks ? [note.deck] : []
            return ([note.guid] + typeColumn + note.fields + deckColumn + [note.tags.joined(separator: " ")]).map(field)
                .joined(separator: "\t")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A field, quoted when it holds the separator, a line break or a quote.
    private static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "\t" || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    // MARK: - GUID

    /// The note's GUID: base-62 of (up to) the first 16 bytes of the digest of the source
    /// identity, the note kind and the normalised question.
    static func guid(kind: String, question: String, context: RenderContext) -> String {
        let source = ProseText.oneLine(TerminalSafety.clean(context.sourceIdentity))
        let key = ["studykit-note/1", kind, source, normalisedQuestion(question)].joined(separator: "\n")
        let digest = context.digest(key)
        let bytes = hexBytes(digest) ?? Array(digest.utf8)
        return base62(Array(bytes.prefix(16)))
    }

    /// Case, Unicode composition and whitespace do not make a different question.
    static func normalisedQuestion(_ question: String) -> String {
        ProseText.oneLine(TerminalSafety.clean(question)).precomposedStringWithCanonicalMapping.lowercased()
    }

    private static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard !digits.isEmpty, digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static let base62Digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")

    /// `bytes` as a big-endian number in base 62, zero-padded to the width any value of that
    /// many bytes needs, so every GUID from one digest has the same length.
    static func base62(_ bytes: [UInt8]) -> String {
        let width = Int((Double(bytes.count * 8) / log2(62.0)).rounded(.up))
        var number = bytes
        var digits: [Character] = []
        while number.contains(where: { $0 != 0 }) {
            var remainder = 0
            for index in number.indices {
                let value = remainder * 256 + Int(number[index])
                number[index] = UInt8(value / 62)
                remainder = value % 62
            }
            digits.append(base62Digits[remainder])
        }
        while digits.count < width { digits.append("0") }
        return String(digits.reversed())
    }
}
