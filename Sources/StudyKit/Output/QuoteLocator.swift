/// Where a quote sits in its document: the PDF page and the section heading, when known.
public struct QuoteLocation: Sendable, Equatable {
    /// The 1-based PDF page the quote starts on; `nil` for sources without pages.
    public var page: Int?
    /// The heading of the section the quote lies in; `nil` before the first heading.
    public var section: String?
    /// The headings from the quote's top-level section down to its own (empty when it lies in no
    /// headed section): what its Anki tag is made of.
    public var sectionPath: [String] = []
    /// The top-level section the kit's exports group the quote's item under (an index of
    /// ``QuoteLocator/sectionGroups``), `nil` for the document's own deck.
    public var group: Int?

    /// Creates a location.
    public init(page: Int? = nil, section: String? = nil) {
        self.page = page
        self.section = section
    }
}

/// Finds where a supporting quote sits in its document, so an Anki note or the HTML page can
/// name its PDF page, and an Anki note can be tagged with its section.
///
/// Quotes are matched case- and whitespace-insensitively (a model or the builtin engine puts a
/// sentence on one line; the document may break it); a quote that is not found whole is looked
/// for by its first words (60, then 30 characters), because models trim, re-space or end a quote
/// early more often than they change its start. Not found means no location, never a guess.
///
/// The section is the coverage report's (``SectionItems``: where the quote first occurs), and
/// its group the top-level section the exports file it under (``SectionGroups``, #54).
public struct QuoteLocator: Sendable {
    /// The folded document (lower case, each run of whitespace one space).
    private let folded: [Character]
    /// For each folded character, the `Character` offset in the document's text it came from.
    private let offsets: [Int]
    private let pages: [PageSpan]
    private let groups: SectionGroups

    /// How many folded characters of a quote's start are tried, in turn, when the whole quote is not found.
    static let prefixLengths = [60, 30]

    /// Indexes `document`: its text, pages and section headings.
    public init(_ document: Document) { self.init(document: document) }

    /// Indexes `document`: its text, pages and section headings.
    public init(document: Document) {
        (folded, offsets) = FoldedText.folded(document.text, capacity: document.characterCount)
        self.pages = document.pages
        self.groups = SectionGroups(document: document)
    }

    /// The top-level sections the exports group items by, in document order (empty when the
    /// document has fewer than two with a body section).
    public var sectionGroups: [String] { groups.groups.map(\.heading) }
    /// The same sections as Anki subdeck names (``SectionGroups/Group/deckName``).
    var subdeckNames: [String] { groups.groups.map(\.deckName) }

    /// The quote's page and section, or `nil` when the quote is not in the document.
    public func locate(_ quote: String) -> QuoteLocation? {
        let needle = Self.fold(quote)
        guard needle.count >= 12 else { return nil }
        var start = firstMatch(needle)
        for length in Self.prefixLengths where start == nil && needle.count > length {
            start = firstMatch(Array(needle.prefix(length)))
        }
        guard let start else { return nil }
        let offset = offsets[start]
        let page = pages.first { $0.range.contains(offset) }?.page
        let place = groups.place(of: quote)
        var location = QuoteLocation(page: page, section: place.path.last.flatMap { $0.isEmpty ? nil : $0 })
        location.sectionPath = place.path
        location.group = place.group
        return location
    }

    /// The 1-based PDF page of `quote`, or `nil` when the document has no pages or the quote is not found.
    public func page(of quote: String) -> Int? {
        guard !pages.isEmpty else { return nil }
        return locate(quote)?.page
    }

    private static func fold(_ text: String) -> [Character] {
        Array(ProseText.oneLine(text).lowercased())
    }

    /// The folded index where `needle` first occurs.
    private func firstMatch(_ needle: [Character]) -> Int? {
        guard let first = needle.first, needle.count <= folded.count else { return nil }
        var index = 0
        let last = folded.count - needle.count
        while index <= last {
            if folded[index] == first, folded[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
