// MARK: - Which body sections a result's items come from (#54)

/// Counts, for each body section of a document (``BodySections``), the items of a result whose
/// quote lies in it: a card's and a question's quote, a key point's own text (the builtin
/// engine's key points are sentences of the material; a model's rewording is found nowhere).
///
/// A quote is looked for everywhere it occurs, not only first: a section repeated word for word
/// is covered by the cards of its first copy. The match folds case and whitespace
/// (``FoldedText``), as the exports' quote locator does, and a quote not found whole is looked
/// for by its first 60 characters: models trim or re-space a quote's end more often than its
/// start. The document is indexed once, by the 12 characters after each word start (after a
/// space or punctuation), so a book's hundreds of quotes cost a lookup each, not a scan of the book.
public struct SectionItems: Sendable {
    /// The outline the sections come from (the exports group by it, ``SectionGroups``).
    let outline: DocumentOutline
    /// The document's body sections.
    let sections: BodySections
    private let folded: [Character]
    /// For each folded character, its `Character` offset in the document's text.
    private let offsets: [Int]
    /// Folded positions of each word start, by the 12 folded characters from there.
    private let starts: [String: [Int]]
    private let characterCount: Int

    /// Characters of a quote's folded start that key the index: a shorter quote is found nowhere.
    static let keyLength = 12
    /// Characters of a quote's folded start compared when the whole quote is not found.
    static let prefixLength = 60

    /// Indexes `document`'s body: its outline's sections and its folded text.
    public init(document: Document) {
        outline = DocumentOutline(text: document.text)
        sections = BodySections(outline: outline)
        characterCount = document.characterCount
        let (folded, offsets) = FoldedText.folded(document.text, capacity: document.characterCount)
        var starts: [String: [Int]] = [:]
        var position = 0
        while position + Self.keyLength <= folded.count {
            // A word starts after a space, and after punctuation too: a quote may open at a
            // command's name the text writes after a dot (".PAGE 11i 17i": the sentence the
            // builtin engine quotes starts at "PAGE"), which a space-only index never found.
            if position == 0 || !Self.isWordCharacter(folded[position - 1]) {
                starts[String(folded[position..<(position + Self.keyLength)]), default: []].append(position)
            }
            position += 1
        }
        self.folded = folded
        self.offsets = offsets
        self.starts = starts
    }

    /// Whether `character` continues a word: a letter or a digit.
    static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber
    }

    /// `result`'s body coverage: each body section with the items whose quote lies in it; `nil`
    /// for a result without quoted items (a headline, a mind map, Feynman feedback, a podcast).
    public func coverage(of result: AnyStudyResult) -> ChunkCoverage? {
        guard let quotes = Self.quotes(of: result) else { return nil }
        return ChunkCoverage(bodySections: rows(for: quotes), characterCount: characterCount)
    }

    /// `coverage` with `result`'s body sections: a chunked run's coverage keeps its chunks.
    public func adding(to coverage: ChunkCoverage?, of result: AnyStudyResult) -> ChunkCoverage? {
        guard let quotes = Self.quotes(of: result) else { return coverage }
        guard var coverage else {
            return ChunkCoverage(bodySections: rows(for: quotes), characterCount: characterCount)
        }
        coverage.bodySections = rows(for: quotes)
        return coverage
    }

    /// The body sections, each with the number of `quotes` that lie in it.
    func rows(for quotes: [String]) -> [ChunkCoverage.BodySectionRow] {
        var items = [Int: Int]()
        for quote in quotes {
            for section in sectionsHolding(quote) { items[section, default: 0] += 1 }
        }
        return sections.body.map { entry in
            ChunkCoverage.BodySectionRow(
                heading: entry.heading.map(ProseText.oneLine), characters: entry.characters,
                items: items[entry.outlineIndex, default: 0])
        }
    }

    /// The outline sections `quote` lies in, each once: where its whole text occurs, else where its
    /// first ``prefixLength`` characters do.
    func sectionsHolding(_ quote: String) -> Set<Int> {
        for whole in [true, false] {
            let found = Set(occurrences(of: quote, whole: whole).compactMap { sections.section(at: $0) })
            if !found.isEmpty { return found }
        }
        return []
    }

    /// The `Character` offset in the document's text where `quote` first occurs, matched as
    /// ``sectionsHolding(_:)`` matches (whole, else by its first ``prefixLength`` characters); `nil`
    /// when it is found nowhere.
    func offset(of quote: String) -> Int? {
        occurrences(of: quote, whole: true).first ?? occurrences(of: quote, whole: false).first
    }

    /// The `Character` offsets in the document's text, in order, where `quote` (folded to one
    /// line, lower-cased) occurs: its whole text, or (`whole == false`) its first ``prefixLength``
    /// characters; none for a quote shorter than the index's key.
    private func occurrences(of quote: String, whole: Bool) -> [Int] {
        let needle = Array(ProseText.oneLine(quote).lowercased())
        guard needle.count >= Self.keyLength, let candidates = starts[String(needle.prefix(Self.keyLength))] else {
            return []
        }
        let length = whole ? needle.count : min(needle.count, Self.prefixLength)
        return candidates.filter { start in
            start + length <= folded.count && folded[start..<(start + length)].elementsEqual(needle.prefix(length))
        }.map { offsets[$0] }
    }

    /// The quoted items of `result`: cards' and questions' quotes, key points; `nil` when it has none.
    static func quotes(of result: AnyStudyResult) -> [String]? {
        switch result {
        case .flashcards(let deck): return deck.cards.map(\.quote)
        case .quiz(let quiz): return quiz.questions.map(\.quote)
        case .summary(let summary): return summary.allKeyPoints
        case .studyKit(let kit):
            return kit.summary.allKeyPoints + kit.flashcards.cards.map(\.quote) + kit.quiz.questions.map(\.quote)
        case .headline, .feynman, .mindMap, .podcast: return nil
        }
    }
}
