// MARK: - Definition lists

/// One entry of a definition list: a short name on a line of its own ("Louis XVI.", "Assignat.")
/// and the one-paragraph description after it ("King of France from 1774 to 1792; …"), or a
/// name and its description on one line, a colon between them ("• Chlorophyll: the green pigment
/// that absorbs light energy in the photosystems.").
///
/// A glossary or a "key people" section is the most card-like text a student has: each entry
/// is already a question (the description) and its answer (the name). Read sentence by sentence
/// it gives nothing of the kind — the description alone names no one, and a blank cut into it
/// ("King of _____ from 1774 to 1792") asks for the wrong word.
struct DefinitionEntry: Sendable, Hashable {
    /// The name as written, without the period or colon that ends its line: "Louis XVI".
    let term: String
    /// The name's unit.
    let label: Sentence
    /// The description's unit: the unit after the name's, or the name's own for an entry on one line.
    let description: Sentence
    /// Where the name starts in its unit's text, in characters: 0, or past a list marker ("• ").
    var termStart = 0
    /// The index of the heading the entry is under (-1 before the first): the entries of one
    /// section are one list ("Key people", "Glossary").
    let section: Int

    /// Entries in a row it takes to call a run of short lines and paragraphs a definition list:
    /// two could be a heading and its paragraph twice over.
    static let minimumRun = 3
    /// The most words a name has.
    static let maximumTermWords = 5
    /// The fewest words a description has.
    static let minimumDescriptionWords = 4

    /// Whether the name and its description share one unit ("Stroma: the fluid around …").
    var isInline: Bool { label.index == description.index }

    /// The description as the text has it: its unit, or what follows the name's colon.
    var descriptionText: String {
        guard isInline else { return description.text }
        let rest = label.text.dropFirst(termStart + term.count).drop { $0 == ":" }
        return String(rest.drop(while: \.isWhitespace))
    }

    /// The entries of every definition list in `units` (document order): runs of at least
    /// ``minimumRun`` entries, each a name (``term(of:)``) in a paragraph of its own followed by a
    /// description that is a whole paragraph of one finished unit, the next name right after it;
    /// or each one whole unit that is a name, a colon and its description
    /// (``inlineEntry(_:in:section:)``).
    static func entries(in units: [Sentence]) -> [DefinitionEntry] {
        var entries: [DefinitionEntry] = []
        var run: [DefinitionEntry] = []
        func close() {
            if run.count >= minimumRun { entries += run }
            run = []
        }
        var index = 0
        var section = -1
        while index < units.count {
            let label = units[index]
            if label.isHeading { section = index }
            if let entry = inlineEntry(index, in: units, section: section) {
                run.append(entry)
                index += 1
                continue
            }
            guard index + 1 < units.count else { break }
            let description = units[index + 1]
            let alone = (index == 0 || units[index - 1].paragraph != label.paragraph)
                && description.paragraph != label.paragraph
                && (index + 2 >= units.count || units[index + 2].paragraph != description.paragraph)
            if alone, let term = term(of: label), describes(description) {
                run.append(DefinitionEntry(term: term, label: label, description: description, section: section))
                index += 2
            } else {
                close()
                index += 1
            }
        }
        close()
        return entries
    }

    /// The entry that `units[index]` is on its own, or `nil`: a whole paragraph or list item of
    /// one unit, a name of 1–5 words (the first capitalised, none a pronoun or a label such as
    /// "Note", no function word but "of", "and" and the like), a colon, and a finished
    /// description of at least 4 words that is no question — "• Thylakoid: a membrane sac inside
    /// the chloroplast where the light-dependent reactions occur." A list item of two sentences ("• Light intensity:
    /// the rate rises …. Very intense
    /// light can damage …") is a point under a label, not an entry.
    static func inlineEntry(_ index: Int, in units: [Sentence], section: Int) -> DefinitionEntry? {
        let unit = units[index]
        guard !unit.isHeading, !unit.isCode else { return nil }
        let marker = unit.isListItem ? listMarkerLength(unit.text) : 0
        guard unit.isListItem ? marker > 0 : true else { return nil }
        // Whole: the paragraph's only unit, or a list item the next unit does not go on.
        let startsItsBlock = index == 0 || units[index - 1].paragraph != unit.paragraph || marker > 0
        let endsItsBlock = index + 1 == units.count || units[index + 1].paragraph != unit.paragraph
            || (units[index + 1].isListItem && listMarkerLength(units[index + 1].text) > 0)
        guard startsItsBlock, endsItsBlock else { return nil }
        let text = unit.text.dropFirst(marker)
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let name = text[..<colon]
        let words = name.split(separator: " ")
        guard (1...maximumTermWords).contains(words.count), let first = name.first, first.isUppercase,
            !leaningOpeners.contains(words[0].lowercased()), !labelWords.contains(words[0].lowercased()),
            name.allSatisfy({ $0.isLetter || $0.isNumber || " -'’&".contains($0) }),
            !name.contains("  ")
        else { return nil }
        // A name holds no function word but a joining one, and opens on none: "The cell has
        // three parts: …" and "My advice is simple: …" are sentences.
        let nameWords = TermNormalizer.words(in: String(name))
        guard let opener = nameWords.first, !opener.isStopword,
            nameWords.allSatisfy({ !$0.isStopword || joiningWords.contains($0.lowercased) })
        else { return nil }
        let description =
            ProseText.oneLine(String(text[text.index(after: colon)...])).trimmingCharacters(in: .whitespaces)
        guard let last = description.last, ".!)".contains(last), !description.contains("?"),
            description.split(separator: " ").count >= minimumDescriptionWords,
            let opening = description.first, opening.isLetter
        else { return nil }
        return DefinitionEntry(term: String(name), label: unit, description: unit, termStart: marker, section: section)
    }

    /// The length of the list marker a list item's text opens with ("• ", "12. "), its space
    /// included; 0 for none.
    static func listMarkerLength(_ text: String) -> Int {
        text.count - ProseText.withoutListMarker(text).count
    }

    /// First words that make "Word: …" a label of the text, not a name it defines.
    static let labelWords: Set<String> = [
        "note", "notes", "example", "examples", "tip", "warning", "caution", "important", "step", "answer", "answers",
        "question", "questions", "summary", "source", "sources", "figure", "fig", "table", "see", "remember",
        "hint", "exercise", "task", "result", "results", "input", "output", "usage", "returns", "default", "type",
        "date", "time", "author", "version", "status", "location", "reference", "references", "update", "edit",
    ]

    /// The name a unit is, or `nil`: 1–5 words, the first a capitalised word that is no pronoun,
    /// every other capitalised or a joining word ("of", "de", "the"), ending on a period, a colon
    /// or the name itself — "Louis XVI.", "Abbé Sieyès.", "Sans-culottes.", "Estates-General:".
    static func term(of unit: Sentence) -> String? {
        guard !unit.isHeading, !unit.isCode, !unit.isListItem else { return nil }
        var text = ProseText.oneLine(unit.text)
        if text.hasSuffix(".") || text.hasSuffix(":") { text.removeLast() }
        let words = text.split(separator: " ")
        guard (1...maximumTermWords).contains(words.count), let first = words.first?.first, first.isUppercase,
            !leaningOpeners.contains(words[0].lowercased()),
            words.dropFirst().allSatisfy({ $0.first?.isUppercase == true || $0.first?.isNumber == true
                || joiningWords.contains($0.lowercased()) }),
            text.allSatisfy({ $0.isLetter || $0.isNumber || " -'’.&".contains($0) })
        else { return nil }
        return text
    }

    /// Whether a unit reads as a description: at least 4 words, opening on a capital letter and
    /// finished (a period, an exclamation mark or a closing bracket ends it).
    static func describes(_ unit: Sentence) -> Bool {
        let text = ProseText.oneLine(unit.text)
        guard !unit.isHeading, !unit.isCode, let first = text.first, first.isUppercase || first.isNumber,
            let last = text.last, ".!)".contains(last)
        else { return false }
        return text.split(separator: " ").count >= minimumDescriptionWords
    }

    /// Lower-case words a name may hold between its capitalised ones.
    static let joiningWords: Set<String> = ["of", "the", "de", "du", "des", "la", "le", "von", "van", "der", "and",
        "in", "on", "for", "&"]

    /// First words that make a short line a sentence leaning on another, not a name.
    static let leaningOpeners: Set<String> = [
        "it", "this", "that", "these", "those", "he", "she", "they", "we", "you", "i", "there", "here", "see", "note",
        "yes", "no",
    ]
}
