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
/// #notetype:Basic
/// #deck:<deck>
/// #guid column:1
/// #tags column:4
/// #columns:GUID<TAB>Front<TAB>Back<TAB>Tags
/// ```
///
/// Then one row per note. With `#html:false`, Anki escapes `<`, `>` and `&` itself, so model
/// text can never become HTML. A field holding a tab, a newline or `"` is put in double quotes
/// with inner quotes doubled (CSV rules, as Anki's manual states); every other field is
/// written as it is. Rows start with the GUID, which is alphanumeric, so no row can be
/// mistaken for a `#` comment line.
///
/// Checked against Anki's own importer (the `anki` 26.9 package): the headers are honoured,
/// fields arrive intact with newlines as `<br>`, and re-importing updates notes by GUID.
///
/// The GUID is a hash of the source identity, the kind of note and the question, normalised
/// (case, Unicode form and whitespace), so importing an updated kit for the same material
/// updates the existing notes instead of adding duplicates.
public enum AnkiRenderer {
    /// The declared columns, in order.
    public static let columns = ["GUID", "Front", "Back", "Tags"]

    /// One Basic note per card: the question in front, the answer and its quote on the back.
    public static func render(_ flashcards: Flashcards, context: RenderContext) -> String {
        let flashcards = CleanResult.flashcards(flashcards)
        let rows = flashcards.cards.map { card in
            [guid(kind: "card", question: card.question, context: context), trimmed(card.question),
             back(answer: trimmed(card.answer), quote: trimmed(card.quote))]
        }
        return file(rows: rows, context: context)
    }

    /// One Basic note per question: the prompt and its lettered choices in front, the right
    /// choice and the explanation on the back.
    public static func render(_ quiz: Quiz, context: RenderContext) -> String {
        let quiz = CleanResult.quiz(quiz).trimmedForAnki
        let rows = quiz.questions.map { question in
            let choices = question.choices.enumerated().map { MarkdownRenderer.choiceLetter($0.offset) + ". " + $0.element }
            let answer = question.choices.indices.contains(question.answerIndex)
                ? MarkdownRenderer.choiceLetter(question.answerIndex) + ". " + question.choices[question.answerIndex]
                : "?"
            var back = question.explanation.isEmpty ? answer : answer + "\n\n" + question.explanation
            if !question.quote.isEmpty, !Grounding.alreadyQuotes(question.explanation, question.quote) {
                back += "\n\n— “" + question.quote + "”"
            }
            return [guid(kind: "quiz", question: question.prompt, context: context),
                    ([question.prompt] + choices).joined(separator: "\n"), back]
        }
        return file(rows: rows, context: context)
    }

    // MARK: - File

    private static func file(rows: [[String]], context: RenderContext) -> String {
        let tags = context.tags.map(tag).filter { !$0.isEmpty }.joined(separator: " ")
        var deck = OutputText.singleLine(TerminalSafety.clean(context.deckName))
        if deck.isEmpty { deck = "studykit" }
        var lines = [
            "#separator:tab",
            "#html:false",
            "#notetype:Basic",
            "#deck:" + deck,
            "#guid column:1",
            "#tags column:\(columns.count)",
            "#columns:" + columns.joined(separator: "\t"),
        ]
        lines += rows.map { ($0 + [tags]).map(field).joined(separator: "\t") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Leading and trailing whitespace only makes a field need quoting and shows as nothing.
    private static func trimmed(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The answer, a blank line, then the supporting quote; Anki's importer turns the newlines
    /// of a non-HTML field into `<br>`.
    private static func back(answer: String, quote: String) -> String {
        quote.isEmpty ? answer : answer + "\n\n— “" + quote + "”"
    }

    /// A field, quoted when it holds the separator, a line break or a quote.
    private static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "\t" || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A tag: Anki splits the tags column on whitespace, so spaces inside one become `_`.
    private static func tag(_ text: String) -> String {
        OutputText.singleLine(TerminalSafety.clean(text)).replacingOccurrences(of: " ", with: "_")
    }

    // MARK: - GUID

    /// The note's GUID: base-62 of (up to) the first 16 bytes of the digest of the source
    /// identity, the note kind and the normalised question.
    static func guid(kind: String, question: String, context: RenderContext) -> String {
        let source = OutputText.singleLine(TerminalSafety.clean(context.sourceIdentity))
        let key = ["studykit-note/1", kind, source, normalisedQuestion(question)].joined(separator: "\n")
        let digest = context.digest(key)
        let bytes = hexBytes(digest) ?? Array(digest.utf8)
        return base62(Array(bytes.prefix(16)))
    }

    /// Case, Unicode composition and whitespace do not make a different question.
    static func normalisedQuestion(_ question: String) -> String {
        OutputText.singleLine(TerminalSafety.clean(question)).precomposedStringWithCanonicalMapping.lowercased()
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

private extension Quiz {
    /// Every string trimmed of surrounding whitespace.
    var trimmedForAnki: Quiz {
        func trim(_ text: String) -> String { text.trimmingCharacters(in: .whitespacesAndNewlines) }
        return Quiz(questions: questions.map {
            .init(prompt: trim($0.prompt), choices: $0.choices.map(trim), answerIndex: $0.answerIndex, explanation: trim($0.explanation),
                  quote: trim($0.quote))
        })
    }
}
