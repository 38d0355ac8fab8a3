import Foundation

/// How the text of PDF pages becomes paragraphs: running headers, footers and page numbers
/// removed, lines joined into paragraphs (by width, gaps and indents), hyphenation undone where
/// the document proves it, and paragraphs cut by a page break rejoined. Characters and spaces
/// follow ``SourceNormalizer``'s shared policy.
enum PDFLayout {
    // MARK: - Pages into text

    /// Normalizes the text of each PDF page and joins the pages, returning which characters came from which page.
    ///
    /// Beyond the shared policy:
    /// - **Running headers and footers.** In a document of at least 3 pages, a line among the
    ///   first or last three lines of a page whose shape (digits replaced by `#`) occurs in those
    ///   positions on at least half of the pages is dropped, as are bare page numbers at the top or
    ///   bottom of a page (`3`, `- 3 -`, `Page 3`, `Page 3 of 12`, `3 / 12`, `iv`).
    /// - **Paragraphs.** A blank line ends a paragraph; so does a line clearly shorter than the
    ///   page's full lines, because that is how a paragraph's last line or a heading looks. Lines
    ///   inside a paragraph are joined with a space. A lone list marker (`1.`, `•`) joins the
    ///   paragraph after it. A paragraph cut by a page break (no closing punctuation, next page
    ///   starts lower-case, or the page ended on a full-width line) is rejoined.
    /// - **Hyphenation.** A line ending in `letter-` followed by a line starting with a lower-case
    ///   letter is joined without the hyphen (`photo-`/`synthesis` → `photosynthesis`), unless the
    ///   hyphenated form appears elsewhere in the document unbroken (`light-`/`dependent` stays
    ///   `light-dependent`). When the next line starts with an upper-case letter or a digit, or
    ///   the part before the hyphen ends in a digit, the hyphen is a real one and kept with no
    ///   space (`Franco-`/`Prussian` → `Franco-Prussian`, `3-`/`phosphoglycerate`).
    static func normalizePDF(pages rawPages: [String]) -> (text: String, pages: [PageSpan]) {
        normalizePDF(lines: rawPages.map { page in
            page.split(separator: "\n", omittingEmptySubsequences: false).map { PDFLine(text: String($0)) }
        })
    }

    /// One line of a PDF page as poppler laid it out; geometry (PDF points, y grows downwards)
    /// is optional so tests and geometry-less callers can pass bare text.
    struct PDFLine: Sendable, Equatable {
        var text: String
        /// Left edge of the line's first glyph.
        var x: Double? = nil
        /// Top of the line.
        var top: Double? = nil
        /// Height of the line's first glyph box: its type size, which tells footnotes (``PDFFootnotes``).
        var height: Double? = nil
        /// Set during normalization: a blank line came before this one.
        var breakBefore = false
        /// Set during normalization: the line ran on to the right (a label on its baseline was
        /// removed), so it is not a paragraph's short last line.
        var ranOn = false
    }

    /// The PDF pipeline on lines with geometry: a vertical gap clearly larger than the page's
    /// line spacing, or a first-line indent, also starts a paragraph.
    static func normalizePDF(lines rawPages: [[PDFLine]]) -> (text: String, pages: [PageSpan]) {
        var pageLines: [[PDFLine]] = rawPages.map { page in
            var result: [PDFLine] = []
            var blank = false
            for var line in page {
                line.text = tidyPrintableASCII(line.text)
                    ?? SourceNormalizer.tidyLines(SourceNormalizer.nfc(SourceNormalizer.cleanCharacters(softHyphensAtLineEnds(line.text)))).joined(separator: " ")
                if line.text.isEmpty {
                    blank = true
                    continue
                }
                line.text = spacedListMarker(line.text)
                line.breakBefore = blank
                blank = false
                result.append(line)
            }
            return result
        }
        // Reference marks ("….[1]") go before lines become paragraphs and page spans are counted.
        let unmarked = ReferenceMarkers.removed(fromLines: pageLines.flatMap { $0.map(\.text) })
        var next = unmarked.makeIterator()
        for page in pageLines.indices {
            for line in pageLines[page].indices { pageLines[page][line].text = next.next() ?? pageLines[page][line].text }
        }
        pageLines = removeRunningLines(pageLines)
        pageLines = removeContentsEntries(pageLines)
        pageLines = removeCategoryLabels(pageLines)
        pageLines = pageLines.map(numbersBeforeTheirTitles)
        let compounds = hyphenationEvidence(pageLines)
        let fullLine = typicalFullLineLength(pageLines)

        // Paragraphs of each page.
        var chapter = 0
        let pageParagraphs: [[String]] = pageLines.map { numberedHeadings(paragraphs(of: $0, fullLine: fullLine, compounds: compounds), chapter: &chapter) }
        // A page whose last line is full width stops mid-paragraph.
        let endsMidParagraph: [Bool] = pageLines.map { lines in
            guard let last = lines.last else { return false }
            return fullLine > 0 && last.text.count >= fullLine * 3 / 4
        }

        // Assemble, counting characters per page for provenance. A paragraph cut by a page break
        // (no closing punctuation, the next page starts lower-case) is rejoined, and the next
        // page's span starts where its words start.
        var text = ""
        text.reserveCapacity(pageLines.reduce(0) { $0 + $1.reduce(0) { $0 + $1.text.utf8.count + 1 } })
        var spans: [PageSpan] = []
        var offset = 0
        var lastParagraph: String? = nil
        var previousPage = 0
        for (index, paragraphs) in pageParagraphs.enumerated() where !paragraphs.isEmpty {
            if let last = lastParagraph, let first = paragraphs.first,
                continuesAcrossBreak(last, first, fullLastLine: endsMidParagraph[previousPage] && last.count > fullLine)
            {
                let join = joint(last, first, evidence: compounds)
                if join.dropHyphen {
                    text.removeLast()
                    offset -= 1
                }
                text += join.separator
                offset += join.separator.count
            } else if !text.isEmpty {
                text += "\n\n"
                offset += 2
            }
            let begin = offset
            for (k, paragraph) in paragraphs.enumerated() {
                if k > 0 {
                    text += "\n\n"
                    offset += 2
                }
                text += paragraph
                offset += paragraph.count
            }
            spans.append(PageSpan(page: index + 1, range: begin..<offset))
            lastParagraph = paragraphs.last
            previousPage = index
        }
        let total = text.count
        if offset != total {
            // Only a grapheme cluster merging across a joint can get here; keep every span inside the text.
            spans = spans.map { PageSpan(page: $0.page, range: min($0.range.lowerBound, total)..<min($0.range.upperBound, total)) }
        }
        return (text, spans)
    }

    /// The character and layout policy for one line of printable ASCII (U+0020–U+007E), which
    /// most PDF lines are: nothing there is a control, invisible or non-NFC, so the policy reduces
    /// to collapsing runs of spaces and trimming. `nil` for any other line, which takes the full path.
    private static func tidyPrintableASCII(_ line: String) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(line.utf8.count)
        var pendingSpace = false
        for byte in line.utf8 {
            guard byte >= 0x20 && byte <= 0x7E else { return nil }
            if byte == 0x20 {
                pendingSpace = !bytes.isEmpty
            } else {
                if pendingSpace { bytes.append(0x20) }
                pendingSpace = false
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A soft hyphen at a line end is a hyphenation point; make it a visible hyphen before it is stripped.
    private static func softHyphensAtLineEnds(_ line: String) -> String {
        guard let last = line.unicodeScalars.last, last == "\u{AD}" || last == "\u{2010}" else { return line }
        return String(line.unicodeScalars.dropLast(1)) + "-"
    }

    /// The length of a full-width line: the 80th percentile of line lengths.
    private static func typicalFullLineLength(_ pages: [[PDFLine]]) -> Int {
        var lengths = pages.flatMap { $0.map { $0.text.count } }
        guard !lengths.isEmpty else { return 0 }
        lengths.sort()
        return lengths[min(lengths.count - 1, lengths.count * 8 / 10)]
    }

    /// Splits one page's lines into paragraphs (see ``normalizePDF(pages:)``).
    private static func paragraphs(of lines: [PDFLine], fullLine: Int, compounds: HyphenationEvidence) -> [String] {
        var result: [String] = []
        var current = ""
        var pendingMarker: String? = nil
        func flush() {
            guard !current.isEmpty else { return }
            if isListMarker(current) {
                pendingMarker = (pendingMarker.map { $0 + " " } ?? "") + current
            } else if let marker = pendingMarker {
                result.append(marker + " " + current)
                pendingMarker = nil
            } else if isATXHeadingLike(current), let last = result.indices.last {
                // PDF text has no Markdown: a line that opens with `# ` (a BibTeX concatenation,
                // a shell comment) continues the code before it, and read alone it would be a heading.
                result[last] += " " + current
            } else {
                result.append(current)
            }
            current = ""
        }
        let breaks = geometricBreaks(lines)
        let shortLimit = fullLine * 3 / 4
        var previousWasShort = false
        var inDisplay = false
        for (index, line) in lines.enumerated() {
            // A short line ends its paragraph unless the next line plainly continues it (lower-case
            // start), and is not the next term of a list of definitions (`der: string returned.`).
            let continues = line.text.unicodeScalars.first?.properties.isLowercase == true && !startsDefinition(line.text)
            // The space around a displayed line inside a sentence ("changes the output of",
            // "\citep{jon90}", "into (Jones et al. 1990).") is no paragraph break: the sentence
            // goes on into the display from a full line that ends in a word no sentence or title
            // ends with ("of", "with"), and out of it in lower case. (A heading's gap stays a
            // break; so does the gap before code shown after "if you've defined", which stays
            // apart from the prose.)
            let previous = index > 0 ? lines[index - 1].text : ""
            let intoDisplay = endsInFunctionWord(previous) && previous.count >= shortLimit
            let outOfDisplay = inDisplay && continues && !endsClause(previous)
            inDisplay = intoDisplay
            if line.breakBefore || (breaks.contains(index) && !intoDisplay && !outOfDisplay) || (previousWasShort && !continues)
                || (!current.isEmpty && startsListItem(line.text)) || (current.hasSuffix(".") && startsDefinition(line.text))
            {
                flush()
            }
            if current.isEmpty {
                current = line.text
            } else {
                // joinLines, appending in place: rebuilding the paragraph for every line is quadratic.
                let join = joint(current, line.text, evidence: compounds)
                if join.dropHyphen { current.removeLast() }
                current += join.separator
                current += line.text
            }
            previousWasShort = fullLine > 0 && line.text.count < shortLimit && !line.text.hasSuffix("-") && !line.ranOn
        }
        flush()
        if let marker = pendingMarker { result.append(marker) }
        return result
    }

    /// Whether a line ends in a word that cannot end a sentence or a title ("… the output of").
    private static func endsInFunctionWord(_ line: String) -> Bool {
        // The last word, as `split(separator: " ").last` gives it, without splitting the whole line.
        let trimmed = line[..<(line.lastIndex { $0 != " " }.map(line.index(after:)) ?? line.startIndex)]
        guard !trimmed.isEmpty else { return false }
        let word = trimmed[(trimmed.lastIndex(of: " ").map(trimmed.index(after:)) ?? trimmed.startIndex)...]
        return functionWords.contains(String(word))
    }

    private static let functionWords: Set<String> = ["of", "the", "a", "an", "to", "for", "with", "by", "and", "or", "from", "into", "is", "are", "as"]

    /// Whether a line ends as a sentence, clause or list entry does (`.`, `:`, `;`, `,`, `!`, `?`, a closing parenthesis, bracket or quote; not a brace, which ends code).
    private static func endsClause(_ line: String) -> Bool {
        guard let last = line.unicodeScalars.last else { return true }
        return ".:;,!?)]\"”’".unicodeScalars.contains(last)
    }

    /// Line indices that start a paragraph by layout: a gap above clearly larger than the usual
    /// line spacing, an indented first line (the next line returns to the left), or a return to
    /// the left after indented lines (the end of a hanging list item).
    private static func geometricBreaks(_ lines: [PDFLine]) -> Set<Int> {
        guard lines.count >= 2, lines.allSatisfy({ $0.x != nil && $0.top != nil }) else { return [] }
        let xs = lines.map { $0.x! }, tops = lines.map { $0.top! }
        var gaps: [Double] = []
        for i in 1..<lines.count where tops[i] > tops[i - 1] { gaps.append(tops[i] - tops[i - 1]) }
        gaps.sort()
        let usualGap = gaps.isEmpty ? 0 : gaps[gaps.count / 2]
        var breaks: Set<Int> = []
        let tolerance = 3.0
        for i in 1..<lines.count {
            let gap = tops[i] - tops[i - 1]
            if usualGap > 0 && (gap > usualGap * 1.15 || gap < 0) {
                breaks.insert(i)
                continue
            }
            // A first-line indent: this line sits right of the one before, the next returns, and
            // the one before ended a sentence (a hanging list item's wrapped line does not).
            let indented = xs[i] > xs[i - 1] + tolerance
            let nextReturns = i + 1 < lines.count && xs[i + 1] < xs[i] - tolerance
            let previousEnds = lines[i - 1].text.last.map { ".!?:".contains($0) } ?? false
            if indented && nextReturns && previousEnds { breaks.insert(i) }
            // Back to the left after two or more indented lines: a hanging item has ended.
            if xs[i] < xs[i - 1] - tolerance && i >= 2 && abs(xs[i - 1] - xs[i - 2]) <= tolerance && !breaks.contains(i - 1) {
                breaks.insert(i)
            }
        }
        return breaks
    }

    /// `# text`, `## text`, `#`: how a Markdown heading opens, which the text of a PDF never means.
    static func isATXHeadingLike(_ text: String) -> Bool {
        PDFLinePatterns.isATXHeadingLike(text)
    }

    /// `1.Photosystem` (poppler drops the gap after a list number) becomes `1. Photosystem`, and
    /// `•A standard way …` (the same after a bullet, shared-mime-info-spec.pdf) `• A standard way …`:
    /// a bullet glued to its item's first word went on into a key point ("•A standard way of
    /// getting the MIME type for a file.") and was never read as a list marker.
    static func spacedListMarker(_ line: String) -> String {
        if let first = line.unicodeScalars.first, itemBullets.contains(first),
            let next = line.unicodeScalars.dropFirst().first, next.properties.isAlphabetic || next == "<" || ("0"..."9").contains(next)
        {
            return String(first) + " " + String(line.unicodeScalars.dropFirst())
        }
        let scalars = Array(line.unicodeScalars.prefix(5))
        guard let dot = scalars.firstIndex(of: "."), dot > 0, dot + 1 < scalars.count,
            scalars[..<dot].allSatisfy({ ("0"..."9").contains($0) }), scalars[dot + 1].properties.isUppercase
        else { return line }
        let head = String(String.UnicodeScalarView(scalars[...dot]))
        return head + " " + String(line.unicodeScalars.dropFirst(dot + 1))
    }

    private static func isListMarker(_ text: String) -> Bool {
        if listMarkers.contains(text) { return true }
        // Five scalars at most are read: a marker has four (a paragraph of a book is tested here).
        let scalars = Array(text.unicodeScalars.prefix(5))
        guard scalars.count >= 2, scalars.count <= 4, let last = scalars.last, last == "." || last == ")" else { return false }
        return scalars.dropLast().allSatisfy { ("0"..."9").contains($0) } || (scalars.count == 2 && ("a"..."z").contains(scalars[0]))
    }

    private static let listMarkers: Set<String> = ["•", "◦", "▪", "‣", "-", "–", "—", "*", "·"]

    /// `str: BIT string.`, `bit len: number of …`: one or two lower-case words (a parameter's
    /// name) and a colon, then its description.
    private static func startsDefinition(_ line: String) -> Bool {
        PDFLinePatterns.startsDefinition(line)
    }

    private static func startsListItem(_ line: String) -> Bool {
        guard let first = line.unicodeScalars.first else { return false }
        return itemBullets.contains(first) && line.unicodeScalars.dropFirst().first == " "
    }

    /// The bullets that open a list item on its own line (a dash or an asterisk there may be
    /// prose or code as well).
    private static let itemBullets: Set<Unicode.Scalar> = ["•", "◦", "▪", "‣"]

    /// What the document itself says about hyphenated words, lower-cased: its `head-tail`
    /// compounds (written inside a line), the heads and tails of those compounds, and its words.
    struct HyphenationEvidence: Sendable, Equatable {
        var compounds: Set<String> = []
        var heads: Set<String> = []
        var tails: Set<String> = []
        var words: Set<String> = []
    }

    /// Joins two lines of one paragraph under the hyphenation rule.
    static func joinLines(_ a: String, _ b: String, evidence: HyphenationEvidence) -> String {
        let join = joint(a, b, evidence: evidence)
        return (join.dropHyphen ? String(a.dropLast(1)) : a) + join.separator + b
    }

    /// How line `a` meets line `b`: whether `a`'s final hyphen goes, and what goes between them.
    ///
    /// `letter-` + lower-case: a compound the document writes elsewhere (`light-dependent`)
    /// keeps its hyphen; a word the document writes whole elsewhere (`photosynthesis`) loses
    /// it; otherwise a head or tail the document uses in other compounds (`three-` + `carbon`
    /// when `five-carbon` occurs) keeps it; anything else loses it. Upper-case or a digit after,
    /// or a digit before, is a real hyphen: kept, no space.
    private static func joint(_ a: String, _ b: String, evidence: HyphenationEvidence) -> (dropHyphen: Bool, separator: String) {
        let aScalars = a.unicodeScalars
        // Chinese and Japanese put no space between words: a line that breaks between two such
        // characters (or after their full-width punctuation) joins with nothing.
        if let last = aScalars.last, let next = b.unicodeScalars.first, Self.isSpaceless(last), Self.isSpaceless(next) {
            return (false, "")
        }
        // `dropLast(1).last` exists exactly when there are two scalars; counting them would walk the
        // whole paragraph. (On strings, `dropLast()` without an argument is Sequence's, which
        // counts too; `dropLast(1)` is BidirectionalCollection's, which steps back from the end.)
        // `ASN1_TAG_` + `ERROR`: an identifier broken after an underscore is one word.
        if aScalars.last == "_", let before = aScalars.dropLast(1).last, before.properties.isAlphabetic || ("0"..."9").contains(before),
            let next = b.unicodeScalars.first, next.properties.isAlphabetic || ("0"..."9").contains(next)
        {
            return (false, "")
        }
        guard let last = aScalars.last, last == "-",
            let beforeHyphen = aScalars.dropLast(1).last, let next = b.unicodeScalars.first
        else { return (false, " ") }
        let beforeIsLetter = beforeHyphen.properties.isAlphabetic
        let beforeIsDigit = ("0"..."9").contains(beforeHyphen)
        guard beforeIsLetter || beforeIsDigit else { return (false, " ") }  // a spaced dash: keep as words
        if next.properties.isLowercase && beforeIsLetter {
            let head = trailingWord(a.dropLast(1)).lowercased()
            let tail = leadingWord(b).lowercased()
            if evidence.compounds.contains(head + "-" + tail) { return (false, "") }
            if evidence.words.contains(head + tail) { return (true, "") }
            if evidence.tails.contains(tail) || evidence.heads.contains(head) { return (false, "") }
            return (true, "")
        }
        // `ELE-` + `MENT`: a word in capitals broken at a line end, when the document writes it whole elsewhere.
        if beforeIsLetter && next.properties.isUppercase {
            let head = trailingWord(a.dropLast(1)), tail = leadingWord(b)
            if head.count >= 2, tail.count >= 2, (head + tail).allSatisfy(\.isUppercase),
                !evidence.compounds.contains((head + "-" + tail).lowercased()), evidence.words.contains((head + tail).lowercased())
            {
                return (true, "")
            }
        }
        if next.properties.isAlphabetic || ("0"..."9").contains(next) { return (false, "") }
        return (false, " ")
    }

    /// Han, kana, and the full-width punctuation and brackets of Chinese and Japanese text.
    private static func isSpaceless(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3000...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF01...0xFF60, 0x20000...0x2FA1F: return true
        default: return false
        }
    }

    private static func trailingWord(_ text: Substring) -> String {
        String(text.reversed().prefix { $0.isLetter }.reversed())
    }

    private static func leadingWord(_ text: String) -> String {
        String(text.prefix { $0.isLetter })
    }

    /// Gathers ``HyphenationEvidence`` from the words inside lines (a line's last word may be a fragment).
    private static func hyphenationEvidence(_ pages: [[PDFLine]]) -> HyphenationEvidence {
        var evidence = HyphenationEvidence()
        // `joint` reads the evidence only after a letter and a hyphen that end a line: a document
        // without such a line needs none, and gathering it reads every word of the document.
        guard pages.joined().contains(where: { line in
            line.text.unicodeScalars.last == "-" && line.text.unicodeScalars.dropLast(1).last?.properties.isAlphabetic == true
        }) else { return evidence }
        var scratch: [UInt8] = []
        for line in pages.joined() {
            // Most PDF lines are printable ASCII, where a Character is one byte: read those as bytes
            // (same result, without grapheme breaking and Unicode property look-ups per character).
            if gatherPrintableASCIIEvidence(line.text, into: &evidence, scratch: &scratch) { continue }
            let tokens = line.text.lowercased().split(separator: " ")
            for token in tokens.dropLast() {
                // Trim punctuation except hyphens by hand: CharacterSet trimming per token is slow.
                let isWordCharacter = { (c: Character) in c.isLetter || c.isNumber || c == "-" }
                let word = token.firstIndex(where: isWordCharacter).map { first in
                    String(token[first...token.lastIndex(where: isWordCharacter)!])
                } ?? ""
                // (A word without a hyphen's byte has no hyphen: the byte check spares a search.)
                if !word.utf8.contains(0x2D) || !word.contains("-") {
                    if word.count > 3 { evidence.words.insert(word) }
                    continue
                }
                guard !word.hasSuffix("-"), !word.hasPrefix("-") else { continue }
                let parts = word.split(separator: "-")
                for pair in zip(parts, parts.dropFirst()) {
                    let head = trailingWord(pair.0), tail = leadingWord(String(pair.1))
                    guard !head.isEmpty, !tail.isEmpty else { continue }
                    evidence.compounds.insert(head + "-" + tail)
                    evidence.heads.insert(head)
                    evidence.tails.insert(tail)
                }
            }
        }
        return evidence
    }

    /// ``hyphenationEvidence(_:)`` for a line of printable ASCII (U+0020–U+007E), byte by byte;
    /// returns `false`, having done nothing, for any other line. In that range a letter is
    /// `a`–`z` after lower-casing and a number is `0`–`9`, exactly as `Character` sees them.
    private static func gatherPrintableASCIIEvidence(
        _ text: String, into evidence: inout HyphenationEvidence, scratch: inout [UInt8]
    ) -> Bool {
        scratch.removeAll(keepingCapacity: true)
        for byte in text.utf8 {
            guard byte >= 0x20 && byte <= 0x7E else { return false }
            scratch.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
        }
        scratch.withUnsafeBufferPointer { bytes in
            func isLetter(_ b: UInt8) -> Bool { b >= 0x61 && b <= 0x7A }
            func isWordByte(_ b: UInt8) -> Bool { isLetter(b) || (b >= 0x30 && b <= 0x39) || b == 0x2D }
            func string(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
            // Tokens are the non-empty runs between spaces; the last one may be a fragment, so it is skipped.
            var tokens: [Range<Int>] = []
            var start: Int? = nil
            for i in 0..<bytes.count {
                if bytes[i] == 0x20 {
                    if let s = start { tokens.append(s..<i) }
                    start = nil
                } else if start == nil {
                    start = i
                }
            }
            if let s = start { tokens.append(s..<bytes.count) }
            for token in tokens.dropLast() {
                var lower = token.lowerBound, upper = token.upperBound
                while lower < upper && !isWordByte(bytes[lower]) { lower += 1 }
                while upper > lower && !isWordByte(bytes[upper - 1]) { upper -= 1 }
                guard (lower..<upper).contains(where: { bytes[$0] == 0x2D }) else {
                    if upper - lower > 3 { evidence.words.insert(string(lower..<upper)) }
                    continue
                }
                guard bytes[lower] != 0x2D, bytes[upper - 1] != 0x2D else { continue }
                // The parts between hyphens (empty ones omitted, as `split` does); each adjacent
                // pair gives the head's trailing letters and the tail's leading letters.
                var parts: [Range<Int>] = []
                var partStart = lower
                for i in lower...upper where i == upper || bytes[i] == 0x2D {
                    if i > partStart { parts.append(partStart..<i) }
                    partStart = i + 1
                }
                for (headPart, tailPart) in zip(parts, parts.dropFirst()) {
                    var headStart = headPart.upperBound
                    while headStart > headPart.lowerBound && isLetter(bytes[headStart - 1]) { headStart -= 1 }
                    var tailEnd = tailPart.lowerBound
                    while tailEnd < tailPart.upperBound && isLetter(bytes[tailEnd]) { tailEnd += 1 }
                    guard headStart < headPart.upperBound, tailEnd > tailPart.lowerBound else { continue }
                    let head = string(headStart..<headPart.upperBound), tail = string(tailPart.lowerBound..<tailEnd)
                    evidence.compounds.insert(head + "-" + tail)
                    evidence.heads.insert(head)
                    evidence.tails.insert(tail)
                }
            }
        }
        return true
    }

    /// A paragraph runs on across a page break when it has no closing punctuation and either the
    /// next page starts lower-case or the page ended on a full-width line of a paragraph longer
    /// than one line (a heading is one line).
    private static func continuesAcrossBreak(_ last: String, _ first: String, fullLastLine: Bool) -> Bool {
        guard let end = last.unicodeScalars.last, let start = first.unicodeScalars.first else { return false }
        let closing: Set<Unicode.Scalar> = [".", "!", "?", ":", "\"", "”", "’", ")", "]"]
        guard !closing.contains(end), !startsListItem(first), !isListMarker(String(first.prefix(3))) else { return false }
        // A numbered heading set at the foot of a page ("4.2 ASN.1 field functions") heads the
        // next page; it never runs on into it, though the next page opens in lower case.
        if isTitleLine(last), PDFLinePatterns.startsNumberedTitle(last) { return false }
        return start.properties.isLowercase || fullLastLine
    }

    // MARK: Running headers, footers and page numbers

    /// Drops running headers/footers and bare page numbers at the top and bottom of each page.
    static func removeRunningLines(_ pages: [[String]]) -> [[String]] {
        removeRunningLines(pages.map { $0.filter { !$0.isEmpty }.map { PDFLine(text: $0) } }).map { $0.map(\.text) }
    }

    private static func removeRunningLines(_ pages: [[PDFLine]]) -> [[PDFLine]] {
        let depth = 3
        var running: Set<String> = []
        // Where each edge line sits on each page: a running header or footer sits at the same
        // height on every page, so the same words elsewhere (a title on page 1 that later pages
        // repeat as their header) are content, not chrome.
        var tops: [String: [Double]] = [:]
        if pages.count >= 3 {
            var counts: [String: Int] = [:]
            for lines in pages {
                let edgeLines = Array(lines.prefix(depth)) + Array(lines.suffix(depth))
                let edge = Set(edgeLines.map { shape($0.text) })
                for key in edge { counts[key, default: 0] += 1 }
                for line in edgeLines { if let top = line.top { tops[shape(line.text), default: []].append(top) } }
            }
            let needed = max(2, (pages.count + 1) / 2)
            running = Set(counts.filter { $0.value >= needed }.map(\.key))
        }
        /// Whether at least `needed` occurrences of the line's shape sit within 3 points of its height.
        func atRunningHeight(_ line: PDFLine) -> Bool {
            guard let top = line.top, let all = tops[shape(line.text)] else { return true }
            let needed = max(2, (pages.count + 1) / 2)
            return all.filter { abs($0 - top) <= 3 }.count >= needed
        }
        // Page numbers that run with the pages: a bare number at a page's edge that is the page's
        // position plus an offset that at least three pages share (a table's "4" is not one).
        func edgeNumbers(_ page: [PDFLine]) -> [(line: PDFLine, number: Int)] {
            (Array(page.prefix(depth)) + Array(page.suffix(depth))).compactMap { line in Int(line.text).map { (line, $0) } }
        }
        // Where bare page numbers sit: a page number sits at the height of the other pages'
        // numbers, a section number ("2" beside "Changes" at the top of a page) at its own.
        var numberTops: [Double] = []
        if pages.count >= 3 {
            for page in pages {
                for line in Array(page.prefix(depth)) + Array(page.suffix(depth)) where isPageNumberLine(line.text) {
                    if let top = line.top { numberTops.append(top) }
                }
            }
        }
        func atPageNumberHeight(_ line: PDFLine) -> Bool {
            guard pages.count >= 3, let top = line.top else { return true }
            return numberTops.filter { abs($0 - top) <= 3 }.count >= max(2, (pages.count + 1) / 2)
        }
        var offsets: [Int: Int] = [:]
        for (p, page) in pages.enumerated() {
            for offset in Set(edgeNumbers(page).filter { atPageNumberHeight($0.line) }.map { edge in edge.number - p }) {
                offsets[offset, default: 0] += 1
            }
        }
        let numberOffset = offsets.filter { $0.value >= 3 }.max { $0.value < $1.value }?.key
        return pages.enumerated().map { p, page in
            var lines = page[...]
            // A line on the baseline of the page's number ("Chapter 2: ASN.1 structure handling   3")
            // is a running header or footer even when its words change from chapter to chapter.
            // The page's own number, wherever poppler put it in the reading order (the TeX Live
            // guide's "5" at the top right comes between "2.2" and its title, below the header).
            func isThePageNumber(_ line: PDFLine) -> Bool {
                guard let number = Int(line.text), line.top != nil else { return false }
                return number - p == numberOffset && atPageNumberHeight(line)
            }
            let pageNumberTops = page.filter(isThePageNumber).compactMap(\.top)
            func alone(_ line: PDFLine) -> Bool {
                guard let top = line.top else { return true }
                return page.count { other in other.top.map { abs($0 - top) <= 1.5 } ?? false } == 1
            }
            func droppable(_ line: PDFLine) -> Bool {
                if running.contains(shape(line.text)) && atRunningHeight(line) { return true }
                // A number beside a title on its baseline is the title's; one alone on its line at
                // an odd height is a page's number still (a title page numbered at its foot).
                if isPageNumberLine(line.text) && (atPageNumberHeight(line) || alone(line)) { return true }
                guard let top = line.top else { return false }
                return pageNumberTops.contains { abs($0 - top) <= 2 }
            }
            var removed = 0
            while removed < depth, let first = lines.first, droppable(first) {
                lines = lines.dropFirst()
                removed += 1
            }
            removed = 0
            while removed < depth, let last = lines.last, droppable(last) {
                lines = lines.dropLast()
                removed += 1
            }
            var result = Array(lines.filter { !isThePageNumber($0) })
            if let first = result.first, first.breakBefore { result[0].breakBefore = false }
            return result
        }
    }

    // MARK: Section numbers

    /// A page's headings with their section numbers as the reader sees them: a number glued to
    /// its title by the extraction ("1Introduction", "1.1TEX Live and the TEX Collection") gets
    /// its space back, and a number set on its own line above its title ("2", then "Overview of
    /// TEX Live") is joined to it, so the outline finds a numbered heading ("2 Overview of TEX
    /// Live") rather than a stray digit and an unnumbered line — not a table's rows of a number
    /// and a cell that starts with no capitalised word ("2", "CARD16", "4", "CARD32 N_ALIASES").
    /// A number without a dot joins only as the next chapter (`chapter` is the last one seen, one
    /// may be missing): "5" above "Top level TEX Live directories" in chapter 2 is a page number.
    static func numberedHeadings(_ paragraphs: [String], chapter: inout Int) -> [String] {
        var result: [String] = []
        var k = 0
        while k < paragraphs.count {
            let paragraph = paragraphs[k]
            // Asked only of a bare number: every paragraph of a book is tested here.
            var next: Int? { paragraph.contains(".") ? nil : Int(paragraph) }
            // A title in lower case names a command ("5", "tlmgr: Managing your installation"):
            // only as the next chapter, never after a dotted number, which a table's cell can be.
            func capitalised() -> Bool { k + 1 < paragraphs.count && paragraphs[k + 1].contains(PDFLinePatterns.capitalisedRegex) }
            func command() -> Bool {
                k + 1 < paragraphs.count && next == chapter + 1 && paragraphs[k + 1].contains(PDFLinePatterns.commandTitleRegex)
            }
            // Below a chapter, a dotted number's title may open in capitals, lower case or a
            // symbol ("5.1" "GUI interfaces for tlmgr", "7.2.2" "kpsewhich: Standalone path
            // searching", "7.4" "$TEXMFDOTDIR").
            func subsection() -> Bool {
                k + 1 < paragraphs.count && paragraph.contains(".") && chapter > 0
                    && paragraphs[k + 1].contains(PDFLinePatterns.subsectionTitleRegex)
            }
            if isBareNumber(paragraph), k + 1 < paragraphs.count, isTitleLine(paragraphs[k + 1]),
                capitalised() || command() || subsection(), k + 2 == paragraphs.count || !isBareNumber(paragraphs[k + 2])
            {
                if let next {
                    guard next == chapter + 1 || next == chapter + 2 else {
                        result.append(paragraph)
                        k += 1
                        continue
                    }
                    chapter = next
                }
                result.append(paragraph + " " + paragraphs[k + 1])
                k += 2
                continue
            }
            if isTitleLine(paragraph), let glued = PDFLinePatterns.gluedNumber(paragraph) {
                if let number = Int(glued) { chapter = number }
                result.append(String(glued) + " " + paragraph.dropFirst(glued.count))
            } else {
                result.append(paragraph)
            }
            k += 1
        }
        return result
    }

    /// A section number that poppler gives after its title though it sits on the title's
    /// baseline, left of it ("tlmgr: Managing your installation", then "5"), moved before it, so
    /// ``numberedHeadings(_:chapter:)`` reads "5" above its title as it reads every other chapter.
    static func numbersBeforeTheirTitles(_ lines: [PDFLine]) -> [PDFLine] {
        var result = lines
        var i = 0
        while i + 1 < result.count {
            let title = result[i], number = result[i + 1]
            if isBareNumber(number.text), title.text.first?.isLetter == true, let numberTop = number.top, let titleTop = title.top,
                abs(numberTop - titleTop) <= 1.5, let numberX = number.x, let titleX = title.x, numberX < titleX
            {
                result[i] = number
                result[i].breakBefore = title.breakBefore
                result[i + 1] = title
                result[i + 1].breakBefore = false
                i += 2
                continue
            }
            i += 1
        }
        return result
    }

    /// A section number alone ("2", "1.2"), or a table's number cell.
    private static func isBareNumber(_ text: String) -> Bool {
        PDFLinePatterns.isBareNumber(text)
    }

    /// A line that can be a section's title: one line of at most ten words and 80 characters,
    /// with a letter, not ending as a sentence or clause does.
    private static func isTitleLine(_ text: String) -> Bool {
        guard text.prefix(81).count <= 80, !(text.utf8.contains(0x0A) && text.contains("\n")), text.contains(where: \.isLetter), let last = text.last,
            !".:;,!?".contains(last)
        else { return false }
        return text.split(separator: " ").count <= 10
    }

    // MARK: Tables of contents, indexes and definition labels

    /// Drops what a table of contents or an index is made of: entries with dot leaders to a page
    /// number (`2.1 Naming . . . . . 3`, `asn1_copy_node . . . 11`) wherever they are; on a page
    /// with several of them, the bare section numbers (`2.1`), index letters (`A`) and the
    /// `Contents`/`… Index` headings between them; and a `Contents` heading followed by a list
    /// of numbered headings without page numbers (a web page's table of contents, printed),
    /// with that list. A student learns nothing from a list of the headings the kit already has.
    static func removeContentsEntries(_ pages: [[PDFLine]]) -> [[PDFLine]] {
        // A `Contents` heading and the run of entries after it, across page breaks.
        let positions = pages.indices.flatMap { p in pages[p].indices.map { (p, $0) } }
        func isEntry(_ text: String) -> Bool { isNumberedHeading(text) || isLeaderEntry(text) || isSectionNumber(text) }
        var dropped = Set<[Int]>()
        var k = 0
        while k < positions.count {
            let (p, i) = positions[k]
            guard isContentsHeading(pages[p][i].text) else {
                k += 1
                continue
            }
            // The run ends where the body begins: at the first entry that repeats an earlier one
            // (the table lists "1 Introduction", then the chapter opens with "1. Introduction").
            var end = k + 1
            var seen = Set<String>()
            while end < positions.count, case let (q, j) = positions[end], isEntry(pages[q][j].text) {
                let key = String(pages[q][j].text.lowercased().filter { $0.isLetter })
                if !key.isEmpty, !seen.insert(key).inserted { break }
                end += 1
            }
            if end - k - 1 >= 3 { for m in k..<end { dropped.insert([positions[m].0, positions[m].1]) } }
            k = end
        }
        // Leader entries anywhere; the furniture between them on a page with several, and the
        // numbered headings there that the body repeats later (a chapter's entry whose page
        // number was set apart: "1 Introduction" among "1.1 TEX Live . . . . ." lines).
        var later: [String: Int] = [:]
        for p in pages.indices {
            for line in pages[p] where isNumberedHeading(line.text) { later[entryKey(line.text)] = p }
        }
        return pages.indices.map { p in
            let leaders = pages[p].count { isLeaderEntry($0.text) }
            return pages[p].indices.filter { i in
                let text = pages[p][i].text
                var repeatedLater: Bool { isNumberedHeading(text) && (later[entryKey(text)] ?? p) > p }
                return (dropped.isEmpty || !dropped.contains([p, i])) && !isLeaderEntry(text)
                    && (leaders < 3 || !(isContentsFurniture(text) || repeatedLater))
            }.map { pages[p][$0] }
        }
    }

    /// A run of at least four leader dots (`. . . .` or `....`) followed by a page number, or
    /// ending the line (the page number set apart, as the TeX Live guide's contents have it).
    static func isLeaderEntry(_ line: String) -> Bool {
        // Most lines have no run of dots at all: their bytes say so without a character-by-character search.
        guard PDFLinePatterns.mayHaveLeaderDots(line), line.contains("....") || line.contains(". . . .") else { return false }
        return PDFLinePatterns.leaderEntry.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil
    }

    /// A contents entry's words, for finding the heading it lists: letters only, lower-cased.
    private static func entryKey(_ line: String) -> String {
        String(line.lowercased().filter(\.isLetter))
    }

    /// `Contents`, `Table of Contents`; `CONTENTS 2` (a running head with its page number, which
    /// extraction may glue on: `CONTENTS2`).
    private static func isContentsHeading(_ line: String) -> Bool {
        PDFLinePatterns.isContentsHeading(line)
    }

    /// A line of a contents list: `2.`, `2.1`, `2.1. NAME`, `3.3.1. BZ2_bzCompressInit`, `A.1 Licence`.
    private static func isNumberedHeading(_ line: String) -> Bool {
        PDFLinePatterns.isNumberedHeading(line)
    }

    /// `2`, `2.1`, `4.5.`, `A.1`, `Appendix A`: a section number alone on its line.
    private static func isSectionNumber(_ line: String) -> Bool {
        PDFLinePatterns.isSectionNumber(line)
    }

    /// Between the entries of a contents or index page: a bare section number, an index's
    /// letter heading, the page's own `Contents` or `… Index` heading.
    private static func isContentsFurniture(_ line: String) -> Bool {
        let text = line.trimmingCharacters(in: .whitespaces)
        if isSectionNumber(text) { return true }
        if text.count <= 2, text.allSatisfy(\.isUppercase) { return true }
        let words = text.split(separator: " ")
        return words.count <= 5 && (isContentsHeading(text) || words.last.map { $0.lowercased() == "index" } == true)
    }

    /// Drops the category label that Texinfo sets at the right margin of a definition's first
    /// line (`[Function]`, `[Macro]`, `[Data Type]`): it sits on the prototype's baseline and
    /// would cut the prototype in two. The line it shared a baseline with is marked as running on,
    /// and the definition's body starts a paragraph where the lines step back to the left after
    /// the prototype's indented continuation (`void * ider, int * len)` → `element: pointer to …`).
    static func removeCategoryLabels(_ pages: [[PDFLine]]) -> [[PDFLine]] {
        pages.map { page in
            var result: [PDFLine] = []
            var headers: [Int] = []
            for line in page {
                guard isCategoryLabel(line.text) else {
                    result.append(line)
                    continue
                }
                if let top = line.top, let index = result.lastIndex(where: { $0.top.map { abs($0 - top) <= 2 } ?? false }) {
                    result[index].ranOn = true
                    headers.append(index)
                }
            }
            for header in headers {
                var j = header + 1
                while j < min(result.count, header + 5) {
                    if let x = result[j].x, let previous = result[j - 1].x, x < previous - 3 {
                        result[j].breakBefore = true
                        break
                    }
                    j += 1
                }
            }
            return result
        }
    }

    /// `[Function]`, `[Data Type]`, `[Special Form]`: one to three capitalised words in brackets.
    private static func isCategoryLabel(_ line: String) -> Bool {
        PDFLinePatterns.isCategoryLabel(line)
    }

    /// The line with every digit replaced by `#`, so `Page 3` and `Page 4` have one shape.
    private static func shape(_ line: String) -> String {
        // Byte by byte: in UTF-8 a digit's byte is never part of another character.
        String(decoding: line.utf8.map { $0 >= 0x30 && $0 <= 0x39 ? 0x23 : $0 }, as: UTF8.self)
    }

    private static let pageNumberDashes = CharacterSet(charactersIn: "-–—[]()|· ")

    /// The bytes of the ASCII letters, either case, that no word of a page number line has: only
    /// `page`, `pg`, `p`, `seite`, `página`, `pagina`, `of` and Roman numerals have letters.
    private static let pageNumberRuledOut: [Bool] = (0..<256).map { byte in
        guard let scalar = Unicode.Scalar(UInt32(byte)), scalar.isASCII, scalar.properties.isAlphabetic else { return false }
        return !"acefgilnopstvx".unicodeScalars.contains(Unicode.Scalar(UInt8(byte) | 0x20))
    }

    /// Whether a line is nothing but a page number: `3`, `- 3 -`, `— 3 —`, `[3]`, `Page 3`, `Page 3 of 12`, `p. 3`, `3 / 12`, `3 of 12`, `xiv`.
    static func isPageNumberLine(_ line: String) -> Bool {
        // An ASCII letter that no number, "of" or "page" word spells ("Chapter", "Summary") rules a
        // line out at once: lines of text are tested here by the thousand.
        guard !line.utf8.contains(where: { pageNumberRuledOut[Int($0)] }) else { return false }
        var core = line.lowercased().trimmingCharacters(in: pageNumberDashes)
        for prefix in ["page ", "pg. ", "pg ", "p. ", "seite ", "página ", "pagina "] where core.hasPrefix(prefix) {
            core = String(core.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
            break
        }
        let words = core.split(separator: " ").map(String.init)
        func isNumber(_ word: String) -> Bool {
            !word.isEmpty && word.count <= 5 && word.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
        }
        func isRoman(_ word: String) -> Bool {
            !word.isEmpty && word.count <= 6 && word.unicodeScalars.allSatisfy { "ivxlc".unicodeScalars.contains($0) }
        }
        switch words.count {
        case 1:
            let parts = words[0].split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            if parts.count == 2 { return isNumber(parts[0]) && isNumber(parts[1]) }
            return isNumber(words[0]) || isRoman(words[0])
        case 3:
            return isNumber(words[0]) && (words[1] == "of" || words[1] == "/") && isNumber(words[2])
        default:
            return false
        }
    }
}
