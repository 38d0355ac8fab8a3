// MARK: - Section

/// A heading and the units under it, up to the next heading of any level.
///
/// Sections are flat, in document order; `level` lets a caller rebuild the tree (a mind map)
/// when it needs one. Text before the first heading is a section with no heading (the
/// preamble), so no sentence is ever outside a section.
@_spi(Benchmarks) public struct Section: Sendable, Hashable {
    /// Position of the section in the outline (0-based).
    let index: Int
    /// The heading's title without Markdown marks; `nil` for the preamble.
    let heading: String?
    /// The heading unit itself, `nil` for the preamble.
    let headingSentence: Sentence?
    /// Heading level 1–6; 0 for the preamble.
    let level: Int
    /// From the heading's start to the end of the section's last unit.
    let range: Range<String.Index>
    /// The same place as `Character` offsets.
    let offsets: Range<Int>
    /// The section's units after its heading, in document order (may be empty).
    let sentences: [Sentence]
}

// MARK: - Outline

/// A document cut into sections at its headings.
///
/// Headings are the units that `SentenceSplitter` flags: Markdown ATX lines (`## Section`) and
/// the short-line heuristic for PDF text (a one-line paragraph of at most 12 words and 80
/// characters, not ending in punctuation, whose first letter is not lower-case, and which is not
/// the last paragraph; numbered "2.1 Title" gives level 3). See `SentenceSplitter` for the
/// exact rules.
@_spi(Benchmarks) public struct DocumentOutline: Sendable {
    /// Every unit of the document, headings included, in document order; `Sentence.index` is the
    /// position in this array.
    @_spi(Benchmarks) public let units: [Sentence]
    /// The sections, in document order. Empty only for text without any unit.
    @_spi(Benchmarks) public let sections: [Section]
    /// The section index of each unit, aligned with `units`.
    @_spi(Benchmarks) public let sectionOfUnit: [Int]

    /// Splits `text` and groups its units into sections.
    @_spi(Benchmarks) public init(text: String, splitter: SentenceSplitter = SentenceSplitter()) {
        self.init(units: splitter.split(text))
    }

    /// Groups units that were already split (for instance to reuse one split for ranking too).
    init(units: [Sentence]) {
        self.units = units
        var sections: [Section] = []
        var heading: Sentence?
        var body: [Sentence] = []
        func close() {
            guard heading != nil || !body.isEmpty else { return }
            let first = heading ?? body[0]
            let last = body.last ?? first
            sections.append(
                Section(
                    index: sections.count, heading: heading?.text, headingSentence: heading,
                    level: heading?.headingLevel ?? 0,
                    range: first.range.lowerBound..<last.range.upperBound,
                    offsets: first.offsets.lowerBound..<last.offsets.upperBound, sentences: body))
        }
        var sectionOfUnit: [Int] = []
        for unit in units {
            if unit.isHeading {
                close()
                sectionOfUnit.append(sections.count)
                heading = unit
                body = []
            } else {
                sectionOfUnit.append(sections.count)
                body.append(unit)
            }
        }
        close()
        self.sections = sections
        self.sectionOfUnit = sectionOfUnit
    }

    /// The body units (headings left out), in document order.
    var bodySentences: [Sentence] {
        units.filter { !$0.isHeading }
    }

}
