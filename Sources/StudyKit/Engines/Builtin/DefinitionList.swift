// MARK: - Definition lists

/// One entry of a definition list: a short name on a line of its own ("Louis XVI.", "Assignat.")
/// and the one-paragraph description after it ("King of France from 1774 to 1792; …").
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
    /// The description's unit.
    let description: Sentence
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

    /// The entries of every definition list in `units` (document order): runs of at least
    /// ``minimumRun`` entries, each a name (``term(of:)``) in a paragraph of its own followed by a
    /// description that is a whole paragraph of one finished unit, the next name right after it.
    static func entries(in units: [Sentence]) -> [DefinitionEntry] {
        var entries: [DefinitionEntry] = []
        var run: [DefinitionEntry] = []
        func close() {
            if run.count >= minimumRun { entries += run }
            run = []
        }
        var index = 0
        var section = -1
        while index + 1 < units.count {
            let label = units[index]
            if label.isHeading { section = index }
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

    /// The name a unit is, or `nil`: 1–5 words, the first a capitalised word that is no pronoun,
    /// every other capitalised or a joining word ("of", "de", "the"), ending on a period, a colon
    /// or the name itself — "Louis XVI.", "Abbé Sieyès.", "Sans-culottes.", "Estates-General:".
    static func term(of unit: Sentence) -> String? {
        guard !unit.isHeading, !unit.isCode, !unit.isListItem else { return nil }
        var text = BuiltinProse.oneLine(unit.text)
        if text.hasSuffix(".") || text.hasSuffix(":") { text.removeLast() }
        let words = text.split(separator: " ")
        guard (1...maximumTermWords).contains(words.count), let first = words.first?.first, first.isUppercase,
            !leaningOpeners.contains(words[0].lowercased()),
            words.dropFirst().allSatisfy({ $0.first?.isUppercase == true || $0.first?.isNumber == true || joiningWords.contains($0.lowercased()) }),
            text.allSatisfy({ $0.isLetter || $0.isNumber || " -'’.&".contains($0) })
        else { return nil }
        return text
    }

    /// Whether a unit reads as a description: at least 4 words, opening on a capital letter and
    /// finished (a period, an exclamation mark or a closing bracket ends it).
    static func describes(_ unit: Sentence) -> Bool {
        let text = BuiltinProse.oneLine(unit.text)
        guard !unit.isHeading, !unit.isCode, let first = text.first, first.isUppercase || first.isNumber,
            let last = text.last, ".!)".contains(last)
        else { return false }
        return text.split(separator: " ").count >= minimumDescriptionWords
    }

    /// Lower-case words a name may hold between its capitalised ones.
    static let joiningWords: Set<String> = ["of", "the", "de", "du", "des", "la", "le", "von", "van", "der", "and", "in", "on", "for", "&"]

    /// First words that make a short line a sentence leaning on another, not a name.
    static let leaningOpeners: Set<String> = [
        "it", "this", "that", "these", "those", "he", "she", "they", "we", "you", "i", "there", "here", "see", "note", "yes", "no",
    ]
}
