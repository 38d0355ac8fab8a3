// MARK: - Body sections

/// The sections of a document that a kit owes items to (#54): each section of the outline of the
/// body (`studykit text --body`) with at least 500 characters of its own text — its units after
/// its heading, up to the next heading of any level, code left out (code is never a card: an
/// API reference's entry of one sentence above its example owes none). Text before the first heading counts as a
/// section too (the "(opening text)"), so a document without headings has one when it is long
/// enough.
///
/// A section that repeats an earlier one word for word (a textbook set three times under three
/// part headings) is a copy: it is counted among the body sections, but its text is not new, so
/// it adds no distinct characters and the builtin engine draws no cards from it — the first
/// copy's cards lie in every copy.
struct BodySections: Sendable {
    /// One section of the outline.
    struct Entry: Sendable, Equatable {
        /// Its position in the outline.
        let outlineIndex: Int
        /// Its heading; `nil` for the opening text.
        let heading: String?
        /// From its heading to the end of its last unit, as `Character` offsets of the text.
        let offsets: Range<Int>
        /// Characters of its own text (its units after the heading).
        let characters: Int
        /// Characters of its heading and own text with its code: what its share of a deck is sized
        /// by (a card per 700 characters of the body, code counted; the cards come from its prose).
        let charactersWithCode: Int
        /// The earlier section it repeats word for word, if any (an outline index).
        let copyOf: Int?
        /// Whether it has enough text of its own to be owed items.
        var isBody: Bool { characters >= BodySections.minimumCharacters }
    }

    /// The fewest characters of its own text a body section has.
    static let minimumCharacters = 500

    /// The fewest characters of a unit said again that makes its section a copy of earlier text.
    static let copiedSentenceCharacters = 60

    /// Every section of the outline, in document order.
    let all: [Entry]
    /// Characters of distinct prose: each unit's text counted once, however often it is repeated.
    let distinctCharacters: Int
    /// Characters of the distinct body, headings and code included: each section's text, in
    /// full, unless most of it was said in earlier sections and what is new in it is less than a
    /// body section's ``minimumCharacters`` — a copy (the textbook's three copies, cut at other
    /// page breaks) adds only its units not said before. An API entry that repeats the option
    /// list of the entry before (`vm.runInNewContext` after `vm.runInContext`) but has its own
    /// description and example is an entry of its own, counted whole. What a deck is
    /// sized by (``KitSize``, #54: the body `text --body` prints holds its code). A line said
    /// twice in a section that is mostly new (an example given in CommonJS and again as an ES
    /// module, a "Stability: 2" note under each entry) counts each time: it is body the reader
    /// reads there too; only a section said again adds nothing to learn.
    let distinctCharactersWithCode: Int

    /// The sections of `outline`.
    init(outline: DocumentOutline) {
        var firstOfText: [String: Int] = [:]
        var seenUnits = Set<String>()
        var distinct = 0
        var withCode = 0
        all = outline.sections.map { section in
            // Code is part of the document but never a card: a section's own text is its prose.
            let prose = section.sentences.filter { !$0.isCode }
            let characters = prose.reduce(0) { $0 + $1.text.count }
            // Its heading is body the reader reads too (`text --body` prints it): it counts in the size.
            let units = (section.headingSentence.map { [$0] } ?? []) + section.sentences
            let sectionWithCode = units.reduce(0) { $0 + $1.text.count }
            let new = units.filter { !seenUnits.contains($0.text) }
            // Sentences said in earlier sections; a short line said again ("Type: string", "Added
            // in: v0.1.90", an import) is a reference entry's label, not a copy of a section.
            let saidBefore = units.reduce(0) { sum, unit in
                let copied = unit.text.count >= Self.copiedSentenceCharacters && seenUnits.contains(unit.text)
                return copied ? sum + unit.text.count : sum
            }
            // Most of it said in earlier sections, and too little new text to be a body section
            // of its own: a copy (the textbook's, cut at other page breaks), only its new units
            // count, once. Else all of it, lines said twice included: an API entry that shares
            // its option list with the entry before but brings its own description and example
            // is an entry the reader studies, the options read there too.
            let newOnce = Set(new.map(\.text)).reduce(0) { $0 + $1.count }
            let isCopy = saidBefore * 2 > sectionWithCode && newOnce < Self.minimumCharacters
            withCode += isCopy ? newOnce : sectionWithCode
            for unit in new where seenUnits.insert(unit.text).inserted && !unit.isCode && !unit.isHeading {
                distinct += unit.text.count
            }
            var copyOf: Int?
            if characters >= Self.minimumCharacters {
                let key = prose.map(\.text).joined(separator: "\n")
                if let first = firstOfText[key] { copyOf = first } else { firstOfText[key] = section.index }
            }
            return Entry(
                outlineIndex: section.index, heading: section.heading, offsets: section.offsets, characters: characters,
                charactersWithCode: sectionWithCode, copyOf: copyOf)
        }
        distinctCharacters = distinct
        distinctCharactersWithCode = withCode
    }

    /// The body sections, copies included, in document order.
    var body: [Entry] { all.filter(\.isBody) }
    /// The body sections that are not copies of an earlier one.
    var distinctBody: [Entry] { all.filter { $0.isBody && $0.copyOf == nil } }

    /// The outline index of the section holding the `Character` offset `offset`, if any.
    func section(at offset: Int) -> Int? {
        // Sections are in order and do not overlap: a binary search on their starts.
        var low = 0
        var high = all.count
        while low < high {
            let middle = (low + high) / 2
            if all[middle].offsets.lowerBound <= offset { low = middle + 1 } else { high = middle }
        }
        guard low > 0, all[low - 1].offsets.contains(offset) else { return nil }
        return all[low - 1].outlineIndex
    }
}
