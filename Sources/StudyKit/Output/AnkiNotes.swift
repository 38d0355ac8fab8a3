import Foundation

/// One Anki note as studykit exports it, before it becomes a TSV row or a package row.
///
/// Fields are plain text (a cloze field already holds its `{{c1::…}}` marker); the TSV leaves
/// the escaping to Anki (`#html:false`), the package escapes them as HTML itself.
struct AnkiNote: Equatable {
    /// The note types studykit exports.
    enum NoteType: Hashable, CaseIterable {
        /// Front, Back.
        case basic
        /// Text, Back Extra.
        case cloze
        /// Question, Choices, Answer, Explanation (package only; the TSV lists choices on a Basic front).
        case multipleChoice
    }

    /// The stable GUID (``AnkiRenderer/guid(kind:question:context:)``).
    let guid: String
    let type: NoteType
    /// The fields, in the note type's order.
    let fields: [String]
    /// Tags, each without spaces.
    let tags: [String]
    /// The deck's full name: the document's deck, or its subdeck for the note's section (`Deck::Section`).
    let deck: String

    /// A note whose fields' formulas (`$…$`, `$$…$$`) are written as Anki's MathJax reads them:
    /// `\(…\)` inline, `\[…\]` displayed.
    init(guid: String, type: NoteType, fields: [String], tags: [String], deck: String) {
        self.guid = guid
        self.type = type
        self.fields = fields.map(Self.withMathJax)
        self.tags = tags
        self.deck = deck
    }

    static func withMathJax(_ text: String) -> String {
        guard text.contains("$") else { return text }
        var out = ""
        var start = text.startIndex
        for range in FormulaText.spans(in: text) {
            let (tex, display) = FormulaText.tex(of: text[range])
            out += text[start..<range.lowerBound] + (display ? "\\[" + tex + "\\]" : "\\(" + tex + "\\)")
            start = range.upperBound
        }
        return out + text[start...]
    }
}

/// Turns flashcards and quizzes into ``AnkiNote``s: one place decides fields, GUIDs and tags,
/// so the TSV and the `.apkg` always agree.
enum AnkiNotes {
    /// Each card as a Basic note (question/answer) or a Cloze note (a cloze card whose question
    /// has its blank and whose answer and hint can sit inside `{{c1::…}}`).
    static func notes(_ flashcards: Flashcards, context: RenderContext) -> [AnkiNote] {
        CleanResult.flashcards(flashcards).cards.map { card in
            let question = trimmed(card.question), answer = trimmed(card.answer), quote = trimmed(card.quote)
            let location = context.quoteLocator?.locate(quote)
            let guid = AnkiRenderer.guid(kind: "card", question: card.question, context: context)
            let tags = tags(task: .flashcards, location: location, context: context)
            let deck = deck(location, context: context)
            let extra = supportingQuote(quote, location: location, context: context)
            if card.kind == .cloze, let text = clozeText(question, answer: answer, hint: card.hint.map(trimmed)) {
                // A cloze cut from the quote itself shows the quote once revealed: name only its source.
                let whole = clozeText(question, answer: answer, hint: nil, marked: false) ?? ""
                let sameSentence =
                    ProseText.oneLine(whole).lowercased() == ProseText.oneLine(quote).lowercased()
                let back = sameSentence ? supportingQuote("", location: location, context: context) : extra
                return AnkiNote(guid: guid, type: .cloze, fields: [text, back], tags: tags, deck: deck)
            }
            let back = extra.isEmpty ? answer : answer + "\n\n" + extra
            return AnkiNote(guid: guid, type: .basic, fields: [question, back], tags: tags, deck: deck)
        }
    }

    /// Each question as a multiple-choice note: the prompt, the lettered choices (one a line),
    /// the right choice with its letter, and the explanation followed by the supporting quote
    /// (unless the explanation already quotes it) and its source.
    static func notes(_ quiz: Quiz, context: RenderContext) -> [AnkiNote] {
        CleanResult.quiz(quiz).questions.map { question in
            let prompt = trimmed(question.prompt), quote = trimmed(question.quote)
            let choices =
                question.choices.map(trimmed).enumerated().map {
                    MarkdownRenderer.choiceLetter($0.offset) + ". " + $0.element
                }
            let answer = choices.indices.contains(question.answerIndex) ? choices[question.answerIndex] : "?"
            let explanation = trimmed(question.explanation)
            let location = context.quoteLocator?.locate(quote)
            let support = supportingQuote(Grounding.alreadyQuotes(explanation, quote) ? "" : quote, location: location,
                context: context)
            return AnkiNote(
                guid: AnkiRenderer.guid(kind: "quiz", question: question.prompt, context: context),
                type: .multipleChoice,
                fields: [prompt, choices.joined(separator: "\n"), answer,
                    [explanation, support].filter { !$0.isEmpty }.joined(separator: "\n\n")],
                tags: tags(task: .quiz, location: location, context: context), deck: deck(location, context: context))
        }
    }

    /// A multiple-choice note's fields as Basic Front and Back: prompt and choices in front,
    /// the right choice and the explanation on the back.
    static func basicFields(multipleChoice fields: [String]) -> [String] {
        let (prompt, choices, answer, explanation) = (fields[0], fields[1], fields[2], fields[3])
        return [prompt + "\n" + choices, explanation.isEmpty ? answer : answer + "\n\n" + explanation]
    }

    /// The deck: the context's deck name on one line, `studykit` when it is empty.
    static func deckName(_ context: RenderContext) -> String {
        let deck = ProseText.oneLine(TerminalSafety.clean(context.deckName))
        return deck.isEmpty ? "studykit" : deck
    }

    /// A note's deck: the subdeck of its quote's top-level section (``SectionGroups``), else the document's deck.
    static func deck(_ location: QuoteLocation?, context: RenderContext) -> String {
        let names = subdecks(context)
        guard let group = location?.group, names.indices.contains(group) else { return deckName(context) }
        return names[group]
    }

    /// Every deck `notes` go to, the document's first, then its subdecks in document order.
    static func decks(_ notes: [AnkiNote], context: RenderContext) -> [String] {
        let used = Set(notes.map(\.deck))
        return [deckName(context)] + subdecks(context).filter(used.contains)
    }

    /// The full names of the document's subdecks, by group (`Deck::Section`).
    private static func subdecks(_ context: RenderContext) -> [String] {
        let deck = deckName(context)
        return (context.quoteLocator?.subdeckNames
            ?? []).map { deck + "::" + ProseText.oneLine(TerminalSafety.clean($0)) }
    }

    // MARK: - Cloze

    /// The question with each blank (a run of three or more underscores) replaced by
    /// `{{c1::answer}}` or `{{c1::answer::hint}}`; `nil` when there is no blank, or when the
    /// answer or hint holds cloze syntax (`{{`, `}}`, `::`) that Anki would misread.
    /// `marked: false` fills the blank with the bare answer (the sentence as the student reads it revealed).
    static func clozeText(_ question: String, answer: String, hint: String?, marked: Bool = true) -> String? {
        let hint = hint.flatMap { $0.isEmpty ? nil : $0 }
        let syntax = ["{{", "}}", "::"]
        guard !answer.isEmpty,
            !(([answer] + (hint.map { [$0] } ?? [])).contains { part in syntax.contains(where: part.contains) })
        else { return nil }
        let deletion = marked ? "{{c1::" + answer + (hint.map { "::" + $0 } ?? "") + "}}" : answer
        var text = ""
        var underscores = 0
        var replaced = false
        func flush() {
            if underscores >= 3 {
                text += deletion
                replaced = true
            } else {
                text += String(repeating: "_", count: underscores)
            }
            underscores = 0
        }
        for character in question {
            if character == "_" {
                underscores += 1
                continue
            }
            flush()
            text.append(character)
        }
        flush()
        return replaced ? text : nil
    }

    // MARK: - Provenance and tags

    /// The quote in curly quotes, then a line naming its source (and page): what a student reads
    /// to check the answer. Without a quote, the source line alone.
    static func supportingQuote(_ quote: String, location: QuoteLocation?, context: RenderContext) -> String {
        var source = sourceName(context)
        if let page = location?.page { source += source.isEmpty ? "p. \(page)" : ", p. \(page)" }
        let sourceLine = source.isEmpty ? "" : "— " + source
        guard !quote.isEmpty else { return sourceLine }
        return "“" + quote + "”" + (sourceLine.isEmpty ? "" : "\n" + sourceLine)
    }

    /// The source as a reader knows it: its title, else the file name or URL.
    private static func sourceName(_ context: RenderContext) -> String {
        if let title = context.cleanTitle { return title }
        let identity = ProseText.oneLine(TerminalSafety.clean(context.sourceIdentity))
        if identity == "stdin" || identity == "-" { return "" }
        if identity.contains("://") { return identity }
        return URL(fileURLWithPath: identity).lastPathComponent
    }

    /// The context's tags, the task's (`studykit::flashcards`) and the section path's
    /// (`section::2_The_Old_Regime::Society_of_orders`, ``SectionGroups/tag(path:)``).
    static func tags(task: StudyTask, location: QuoteLocation?, context: RenderContext) -> [String] {
        var tags = context.tags + ["studykit::" + task.name]
        let path = location?.sectionPath.map { TerminalSafety.clean($0) } ?? []
        if let section = SectionGroups.tag(path: path) { tags.append(section) }
        var seen = Set<String>()
        return tags.map(tag).filter { !$0.isEmpty && seen.insert($0.lowercased()).inserted }
    }

    /// A tag: Anki splits the tags column on whitespace, so spaces inside one become `_`.
    private static func tag(_ text: String) -> String {
        ProseText.oneLine(TerminalSafety.clean(text)).replacingOccurrences(of: " ", with: "_")
    }

    /// Leading and trailing whitespace only makes a field need quoting and shows as nothing.
    private static func trimmed(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
