// MARK: - The exports by section (#54)

/// The top-level sections of a document that its exports group items by: an Anki subdeck each
/// (`Document::Section`) and a group on the kit page, each item tagged with its section path.
///
/// An item's section is the one ``SectionItems`` finds its quote in (the coverage report's
/// lookup: the first place the quote occurs, so a card of a section repeated word for word goes
/// with its first copy). Its group is the top-level section above it:
/// - a document that numbers its chapters in order ("1. Overview", "2. Where it happens", …; the
///   builtin mind map's reading, a chapter the splitter took for text included) groups by
///   chapter: the unnumbered headings after a chapter are its sections;
/// - otherwise by the shallowest heading level (a lone heading above all the others is the
///   document's title, not a group).
///
/// A document is grouped only when at least two of its top-level sections hold a body section
/// (``BodySections``): a page of one section, or a document without body sections, has no
/// groups, so its deck has no subdecks and its page no section headings. Then every top-level
/// section is a group (a short one too: its items are filed under it), and the exports show the
/// groups that have items. An item whose quote lies in no group (before the first heading, not
/// found) stays in the document's deck.
struct SectionGroups: Sendable {
    /// One group: a top-level section of the document.
    struct Group: Sendable, Equatable {
        /// Its heading, on one line.
        let heading: String
        /// Its name as an Anki subdeck: the heading, its leading number zero-padded or a position
        /// put before it when needed so that Anki, which sorts decks by name, lists them in
        /// document order; never holding `::`.
        let deckName: String
    }

    /// Where an item goes.
    struct Place: Sendable, Equatable {
        /// The group it belongs to (an index of ``groups``), if any.
        let group: Int?
        /// The headings from its top-level section down to its own section (empty when its quote
        /// lies in no headed section).
        let path: [String]
    }

    /// The groups, in document order.
    let groups: [Group]
    private let items: SectionItems
    /// For each outline section, its group.
    private let groupOfSection: [Int: Int]
    /// For each outline section, its path of headings.
    private let pathOfSection: [Int: [String]]

    /// The groups of `document`.
    init(document: Document) { self.init(items: SectionItems(document: document)) }

    /// The groups of the document `items` indexes.
    init(items: SectionItems) {
        self.items = items
        let outline = items.outline
        let starts = Self.groupStarts(outline, bodySections: items.sections)
        var headings: [String] = []
        var members: [[Int]] = []
        var current: Int?
        var ancestors: [Section] = []
        var pathOfSection: [Int: [String]] = [:]
        for section in outline.sections {
            if let start = starts.first(where: { $0.sectionIndex == section.index }) {
                headings.append(start.heading)
                current = members.count
                members.append([])
                ancestors = []
            }
            guard let group = current, let heading = section.heading else { continue }
            members[group].append(section.index)
            // Within a group, a section's parents are the nearest sections before it of a shallower level.
            while let last = ancestors.last, last.level >= section.level, ancestors.count > 1 { ancestors.removeLast() }
            let line = ProseText.oneLine(heading)
            let top = headings[group]
            let inner = ancestors.dropFirst().compactMap { $0.heading.map(ProseText.oneLine) }
            pathOfSection[section.index] =
                line == top && ancestors.isEmpty ? [top] : [top] + inner + (line == top ? [] : [line])
            ancestors.append(section)
        }
        let body = Set(items.sections.body.map(\.outlineIndex))
        guard members.filter({ $0.contains(where: body.contains) }).count >= 2 else {
            groups = []
            groupOfSection = [:]
            self.pathOfSection = pathOfSection
            return
        }
        var groupOfSection: [Int: Int] = [:]
        for (group, sections) in members.enumerated() {
            for section in sections { groupOfSection[section] = group }
        }
        groups = zip(headings, Self.deckNames(headings)).map { Group(heading: $0, deckName: $1) }
        self.groupOfSection = groupOfSection
        self.pathOfSection = pathOfSection
    }

    /// Where the item quoting `quote` goes.
    func place(of quote: String) -> Place {
        guard let section = items.sectionsHolding(quote).min() else { return Place(group: nil, path: []) }
        return Place(group: groupOfSection[section], path: pathOfSection[section] ?? [])
    }

    // MARK: - Top-level sections

    /// The outline sections that start a group, with the heading the group is named by.
    private static func groupStarts(_ outline: DocumentOutline, bodySections: BodySections) -> [(
        sectionIndex: Int, heading: String
    )] {
        let headed = outline.sections.filter { $0.heading != nil }
        // Numbered chapters, a lost one recovered (its section then starts at the lost heading's line).
        let recovered = BuiltinEngine.withLostChapters(headed, outline: outline)
        let chapters = BuiltinEngine.chapterSections(recovered)
        if chapters.count >= 2 {
            let first = chapters[0]
            // Before the first chapter, a body section is a group of its own (an unnumbered
            // introduction; a title or subtitle line is not). A chapter the splitter took for a line
            // of text starts at the section after that line.
            let body = Set(bodySections.body.map(\.outlineIndex))
            var starts: [(sectionIndex: Int, heading: String)] = []
            for (position, section) in recovered.enumerated()
            where position < first && body.contains(section.index) || chapters.contains(position) {
                let offset = section.offsets.lowerBound
                guard let start = outline.sections.first(where: { $0.offsets.lowerBound >= offset }) else { continue }
                let heading = ProseText.oneLine(section.heading ?? "")
                if let last = starts.last, last.sectionIndex == start.index {
                    starts[starts.count - 1] = (start.index, heading)
                } else {
                    starts.append((start.index, heading))
                }
            }
            return starts
        }
        var levels = headed
        if let first = levels.first, !levels.dropFirst().contains(where: { $0.level <= first.level }), levels.count > 1
        {
            levels.removeFirst()
        }
        guard let top = levels.map(\.level).min() else { return [] }
        return levels.filter { $0.level <= top }.map { ($0.index, ProseText.oneLine($0.heading ?? "")) }
    }

    // MARK: - Names Anki sorts in document order

    /// The subdeck names for `headings`: each heading without `::`; when Anki's order by name
    /// (case-insensitive) would not be the document's, leading numbers zero-padded ("01. Why…",
    /// "10. Glossary") when every heading has one, else each name after its zero-padded position
    /// ("01 Introduction").
    static func deckNames(_ headings: [String]) -> [String] {
        let names = headings.map { ProseText.oneLine($0.replacingOccurrences(of: "::", with: ":")) }
        guard !inOrder(names) else { return names }
        let numbers = names.map { $0.prefix { $0.isASCII && $0.isNumber } }
        if numbers.allSatisfy({ !$0.isEmpty }) {
            let width = numbers.map(\.count).max() ?? 1
            let padded = zip(names, numbers).map { name, number in
                String(repeating: "0", count: width - number.count) + name
            }
            if inOrder(padded) { return padded }
        }
        let width = String(names.count).count
        return names.enumerated().map { position, name in
            let number = String(position + 1)
            return String(repeating: "0", count: width - number.count) + number + " " + name
        }
    }

    private static func inOrder(_ names: [String]) -> Bool {
        zip(names, names.dropFirst()).allSatisfy { $0.lowercased() < $1.lowercased() }
    }

    // MARK: - Tags

    /// The tag of a section path: `section::` then each heading as a slug, joined by `::` (Anki's
    /// tag hierarchy). A slug keeps a heading's letters and digits, every other run of
    /// characters (spaces, punctuation, `::`) one `_`, at most 60 characters, cut at a `_`.
    static func tag(path: [String]) -> String? {
        let slugs = path.map(slug).filter { !$0.isEmpty }
        return slugs.isEmpty ? nil : (["section"] + slugs).joined(separator: "::")
    }

    static func slug(_ heading: String) -> String {
        var out = ""
        for character in heading {
            if character.isLetter || character.isNumber {
                out.append(character)
            } else if !out.isEmpty, out.last != "_" {
                out.append("_")
            }
        }
        while out.last == "_" { out.removeLast() }
        guard out.count > limit else { return out }
        let cut = out.prefix(limit)
        if let space = cut.lastIndex(of: "_"), cut.distance(from: cut.startIndex, to: space) >= limit / 2 {
            return String(cut[..<space])
        }
        return String(cut)
    }

    /// The longest slug of one heading.
    static let limit = 60
}
