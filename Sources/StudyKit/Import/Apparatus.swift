import Foundation

/// What a student does not study, told apart from the body at import (issue 52): references,
/// notes, citations, bibliographies, further reading, external links, "see also" lists; the
/// page's navigation boxes, captions, credits, hatnotes, coordinates, bylines and share lines.
/// A Wikipedia article is half apparatus; read as text, its kit quoted citations ("^ 2013 Census
/// QuickStats … ISBN 978-0-478-40864-5" as the headline's blurb) and had "References" as a
/// branch of its mind map.
///
/// Three kinds of signal, in every kind of source:
/// - **Markup**, which the extractor reads and passes on as a block's flag: MediaWiki's classes
///   and roles, `figcaption`, DPUB-ARIA roles (``ReadableContent``); Markdown's footnote
///   definitions (``MarkdownText``); in a PDF, footnotes set in small type at a page's foot
///   (``PDFFootnotes``).
/// - **Headings**, from one table (``headings``) in English, French, German, Spanish and
///   Japanese (and a few Italian and Portuguese ones): a heading found there and what it heads,
///   up to the next heading of its level or above, is apparatus. In text without heading levels
///   (a PDF), the section runs to the next heading that opens prose, or to an appendix. A weak
///   heading ("Notes", "Sources") counts only when most of its lines are citations, since a
///   student's own notes are often headed "Notes".
/// - **The shape of a line** (``ApparatusLines``): citations, "Retrieved …" and "Archived from …"
///   lines, ISBN, DOI and arXiv lines, bylines, share and subscribe lines, credits, hatnotes,
///   coordinates. Such a line goes to the apparatus wherever it stands; a heading whose whole
///   section went follows it.
enum Apparatus {
    /// How sure a heading of the table is.
    enum Strength: Sendable {
        /// Always apparatus: "References", "Einzelnachweise", "Liens externes".
        case strong
        /// Apparatus when most of its section's lines are citations: "Notes", "Sources".
        case weak
    }

    /// The apparatus headings, lower-cased, without numbering or a trailing colon: one table for
    /// every source kind.
    static let headings: [String: Strength] = {
        var table: [String: Strength] = [:]
        let strong = [
            // English
            "references", "reference", "footnotes", "endnotes", "citations", "notes and references",
            "references and notes", "notes and citations", "citations and notes", "bibliography", "select bibliography",
            "selected bibliography", "works cited", "literature cited", "cited works", "cited literature",
            "general references", "further reading", "external links", "external link", "see also", "related articles",
            "related links", "related stories", "related posts", "related reading", "recommended reading",
            "suggested reading", "read more", "more on this story", "you may also like", "references cited",
            "explanatory notes", "sources and further reading", "about the author", "about the authors",
            "acknowledgements", "acknowledgments", "acknowledgement", "acknowledgment", "funding",
            "competing interests",
            "conflict of interest", "conflicts of interest", "author contributions", "data availability",
            "data availability statement", "supporting information", "supplementary material",
            // French
            "références", "notes et références", "références et notes", "bibliographie", "liens externes",
            "lien externe", "voir aussi", "articles connexes", "lectures complémentaires", "pour approfondir",
            "pour aller plus loin", "sources et bibliographie", "notes de bas de page", "remerciements",
            // German
            "einzelnachweise", "fußnoten", "literaturverzeichnis", "quellenverzeichnis", "weblinks", "siehe auch",
            "weiterführende literatur", "literatur und weblinks", "belege", "nachweise", "danksagung",
            // Spanish
            "referencias", "notas y referencias", "referencias y notas", "bibliografía", "enlaces externos",
            "vínculos externos", "véase también", "ver también", "lecturas adicionales", "lectura adicional",
            "otras lecturas", "lectura complementaria", "agradecimientos",
            // Japanese
            "参考文献", "脚注", "注釈", "出典", "関連項目", "外部リンク", "関連文献",
                "参考資料", "引用文献", "註釈", "謝辞",
            // Italian and Portuguese, which share the page layouts
            "bibliografia", "collegamenti esterni", "voci correlate", "referências", "ligações externas",
                "ver também",
        ]
        let weak = [
            "notes", "note", "sources", "source", "literature", "annexes", "annexe", "literatur", "quellen",
            "anmerkungen", "notas", "fuentes", "références bibliographiques", "注", "参照",
        ]
        for heading in strong { table[heading] = .strong }
        for heading in weak { table[heading] = .weak }
        return table
    }()

    /// The strength of an apparatus heading, or `nil` when `title` heads body text. The title is
    /// read without `#` marks, section numbers ("7.", "VII."), an edit link ("[edit]") and a
    /// closing colon, in any case.
    static func strength(ofHeading title: Substring) -> Strength? {
        headings[key(ofHeading: title)]
    }

    /// A heading as the table keys it.
    static func key(ofHeading title: Substring) -> String {
        var text = ApparatusLines.withoutEditLink(String(title.drop { $0 == "#" }))
        text = text.trimmingTabsAndSpaces()
        if let numbering = text.firstMatch(of: sectionNumber) { text = String(text[numbering.range.upperBound...]) }
        while let last = text.last, ":：.".contains(last) { text.removeLast() }
        return text.trimmingTabsAndSpaces().lowercased()
    }


    /// "7 ", "7. ", "7.1 ", "VII. ", "A. ", "§ 3 " before a heading's title.
    nonisolated(unsafe) private static let sectionNumber =
        /^(?:§\s*)?(?:\d{1,2}(?:\.\d{1,2})*\.?|[IVXLC]{1,6}\.|[A-Z]\.)\s+/

    // MARK: - Splitting

    /// One block of imported text (a paragraph, a list, a table, a heading line, a fenced code
    /// block) and whether its markup already made it apparatus.
    struct Block: Equatable {
        var text: String
        var isApparatus = false
    }

    /// What ``split(_:)`` makes of a document's blocks.
    struct Split: Equatable {
        /// The body's blocks, in order: the input block each came from, and its text with its
        /// apparatus lines taken out (`changed` when any was).
        var body: [(index: Int, text: String, changed: Bool)]
        /// The apparatus, block by block, in document order.
        var apparatus: [String]

        var bodyText: String { body.map(\.text).joined(separator: "\n\n") }
        var apparatusText: String { apparatus.joined(separator: "\n\n") }

        static func == (left: Split, right: Split) -> Bool {
            left.apparatus == right.apparatus && left.body.map(\.index) == right.body.map(\.index)
                && left.body.map(\.text) == right.body.map(\.text)
                && left.body.map(\.changed) == right.body.map(\.changed)
        }
    }

    /// The blocks of `text` (split at blank lines, a fenced code block whole).
    static func blocks(of text: String) -> [Block] { blocksAndRanges(of: text).blocks }

    /// The blocks of `text` and where each stands in it, in `Character` offsets.
    static func blocksAndRanges(of text: String) -> (blocks: [Block], ranges: [Range<Int>]) {
        var blocks: [Block] = []
        var ranges: [Range<Int>] = []
        var current: [Substring] = []
        var start = 0
        var offset = 0
        var inFence = false
        func close() {
            guard !current.isEmpty else { return }
            let block = current.joined(separator: "\n")
            blocks.append(Block(text: block))
            ranges.append(start..<(start + block.characterCount))
            current = []
        }
        for line in text.lineSlices(omittingEmptySubsequences: false) {
            if CodeText.isFence(line) { inFence.toggle() }
            if line.isEmpty, !inFence {
                close()
            } else {
                if current.isEmpty { start = offset }
                current.append(line)
            }
            offset += line.characterCount + 1
        }
        close()
        return (blocks, ranges)
    }

    /// Sorts `blocks` into body and apparatus by their markup flags, the heading table and the
    /// shape of their lines, and cleans the body's lines of edit links and citation marks.
    static func split(_ blocks: [Block]) -> Split {
        var apparatus = blocks.map(\.isApparatus)
        let headingOf = blocks.map { heading(of: $0.text) }
        markHeadedSections(blocks, headings: headingOf, into: &apparatus)

        // Lines of the body that are apparatus by their shape.
        var kept: [[Substring]?] = Array(repeating: nil, count: blocks.count)
        var moved: [[Substring]] = Array(repeating: [], count: blocks.count)
        for index in blocks.indices
        where !apparatus[index] && headingOf[index] == nil && !CodeText.isFence(firstLine(blocks[index].text)) {
            let lines = blocks[index].text.lineSlices()
            guard lines.contains(where: ApparatusLines.mayBeApparatus) else { continue }
            let listLike = lines.count > 1
            var body: [Substring] = []
            for line in lines {
                if ApparatusLines.isApparatus(line, inList: listLike || ApparatusLines.isListItem(line)) {
                    moved[index].append(line)
                } else {
                    body.append(line)
                }
            }
            if body.isEmpty {
                apparatus[index] = true
                moved[index] = []
            } else if !moved[index].isEmpty {
                kept[index] = body
            }
        }
        markEmptiedHeadings(blocks, headings: headingOf, kept: kept, into: &apparatus)

        var split = Split(body: [], apparatus: [])
        for (index, block) in blocks.enumerated() {
            if apparatus[index] {
                split.apparatus.append(ApparatusLines.cleanedApparatus(block.text))
                continue
            }
            if !moved[index].isEmpty {
                split.apparatus.append(ApparatusLines.cleanedApparatus(moved[index].joined(separator: "\n")))
            }
            let lines = kept[index] ?? blocks[index].text.lineSlices(omittingEmptySubsequences: false)
            let isCode = CodeText.isFence(firstLine(block.text))
            let text =
                isCode
                ? block.text
                : lines.map { ApparatusLines.cleanedBody($0, isHeading: headingOf[index] != nil) }
                    .filter { !$0.isEmpty }.joined(separator: "\n")
            guard !text.isEmpty else { continue }
            split.body.append((index, text, kept[index] != nil || text != block.text))
        }
        return split
    }

    // MARK: - Headings

    /// A block that is a heading: its title and its level (`#` marks), or no level for a short
    /// line of its own that the table knows (a PDF's "References"; leveless text has no marks).
    struct Heading: Equatable {
        var title: Substring
        var level: Int?
    }

    static func heading(of block: String) -> Heading? {
        guard !block.utf8.containsByte(0x0A) else { return nil }
        let marks = block.prefix { $0 == "#" }
        if (1...6).contains(marks.count), block.dropFirst(marks.count).first == " " {
            return Heading(title: block.dropFirst(marks.count + 1), level: marks.count)
        }
        guard block.dropFirst(60).isEmpty, block.split(separator: " ").count <= 6,
            strength(ofHeading: block[...]) != nil
        else {
            return nil
        }
        return Heading(title: block[...], level: nil)
    }

    /// Marks each section headed by a heading of the table (see the type's notes).
    private static func markHeadedSections(_ blocks: [Block], headings: [Heading?], into apparatus: inout [Bool]) {
        var index = 0
        while index < blocks.count {
            guard let heading = headings[index], let strength = strength(ofHeading: heading.title) else {
                index += 1
                continue
            }
            let end = sectionEnd(after: index, level: heading.level, blocks: blocks, headings: headings)
            if strength == .strong || mostlyCitations(blocks[(index + 1)..<end], headings: headings[(index + 1)..<end])
            {
                for inner in index..<end { apparatus[inner] = true }
                index = end
            } else {
                index += 1
            }
        }
    }

    /// Where the section of the heading at `start` ends: the next heading of its level or above;
    /// without a level, the next marked heading, a heading before prose that is no citation, or
    /// an appendix.
    private static func sectionEnd(after start: Int, level: Int?, blocks: [Block], headings: [Heading?]) -> Int {
        var index = start + 1
        while index < blocks.count {
            if let next = headings[index] {
                if let level, let other = next.level, other <= level { return index }
                if level == nil, next.level != nil, strength(ofHeading: next.title) == nil { return index }
            } else if level == nil, ApparatusLines.isAppendixHeading(blocks[index].text) {
                return index
            } else if level == nil, index + 1 < blocks.count, ApparatusLines.isTitleLine(blocks[index].text),
                ApparatusLines.isProse(blocks[index + 1].text)
            {
                return index
            }
            index += 1
        }
        return blocks.count
    }

    /// Whether at least half of the lines under a weak heading are citations.
    private static func mostlyCitations(_ blocks: ArraySlice<Block>, headings: ArraySlice<Heading?>) -> Bool {
        var lines = 0
        var citations = 0
        for (block, heading) in zip(blocks, headings) where heading == nil {
            for line in block.text.split(separator: "\n") {
                lines += 1
                if ApparatusLines.isCitation(line) { citations += 1 }
            }
        }
        return lines > 0 && citations * 2 >= lines
    }

    /// A marked heading whose whole section went to the apparatus goes with it: "Reading list"
    /// over nothing but citations heads nothing a student studies; nor does a heading left with
    /// no body before the apparatus or the end (MediaWiki's "Software" whose list of links went).
    private static func markEmptiedHeadings(
        _ blocks: [Block], headings: [Heading?], kept: [[Substring]?], into apparatus: inout [Bool]
    ) {
        for index in blocks.indices.reversed() where !apparatus[index] {
            guard let level = headings[index]?.level else { continue }
            var sawApparatus = false
            var sawBody = false
            var inner = index + 1
            while inner < blocks.count {
                if let other = headings[inner]?.level, other <= level { break }
                if apparatus[inner] {
                    sawApparatus = true
                } else if headings[inner] == nil {
                    sawBody = true
                    break
                }
                inner += 1
            }
            if !sawBody, sawApparatus || inner == blocks.count || apparatus[inner] { apparatus[index] = true }
        }
    }

    private static func firstLine(_ text: String) -> Substring {
        text.firstLineSlice
    }

    // MARK: - Page spans

    /// The PDF page spans of the body `split` built from blocks that stood at `oldRanges` of the
    /// text the `pages` counted: each kept block's characters keep their page; a page with no
    /// body left has no span.
    static func pageSpans(_ pages: [PageSpan], oldRanges: [Range<Int>], split: Split) -> [PageSpan] {
        guard !pages.isEmpty else { return [] }
        var pieces: [Int: Range<Int>] = [:]
        var offset = 0
        for (position, block) in split.body.enumerated() {
            if position > 0 { offset += 2 }
            let length = block.text.count
            let old = oldRanges[block.index]
            for page in pages where page.range.overlaps(old) {
                let lower = max(page.range.lowerBound, old.lowerBound) - old.lowerBound
                let upper = min(page.range.upperBound, old.upperBound) - old.lowerBound
                let piece = (offset + min(lower, length))..<(offset + min(upper, length))
                let joined = pieces[page.page].map {
                    min($0.lowerBound, piece.lowerBound)..<max($0.upperBound, piece.upperBound)
                }
                pieces[page.page] = joined ?? piece
            }
            offset += length
        }
        return pieces.keys.sorted().map { PageSpan(page: $0, range: pieces[$0]!) }
    }
}
