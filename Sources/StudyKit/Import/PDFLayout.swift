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
                    ?? SourceNormalizer.tidyLines(
                        SourceNormalizer.nfc(SourceNormalizer.cleanCharacters(softHyphensAtLineEnds(line.text)))
                    ).joined(separator: " ")
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
            for line in pageLines[page].indices { pageLines[page][line].text = next.next()
                ?? pageLines[page][line].text }
        }
        pageLines = removeRunningLines(pageLines)
        pageLines = removeContentsEntries(pageLines)
        pageLines = removeCategoryLabels(pageLines)
        pageLines = pageLines.map(numbersBeforeTheirTitles)
        let compounds = hyphenationEvidence(pageLines)
        let fullLine = typicalFullLineLength(pageLines)

        // Paragraphs of each page.
        var chapter = 0
        let pageParagraphs: [[String]] = pageLines.map { numberedHeadings(paragraphs(of: $0, fullLine: fullLine,
            compounds: compounds), chapter: &chapter) }
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
            spans = spans.map { PageSpan(page: $0.page,
                range: min($0.range.lowerBound, total)..<min($0.range.upperBound, total)) }
        }
        return (text, spans)
    }

    /// The character and layout policy for one line of printable ASCII (U+0020–U+007E), which
    /// most PDF lines are: nothing there is a control, invisible or non-NFC, so the policy reduces
    /// to collapsing runs of spaces and trimming. `nil` for any other line, which takes the full path.
    static func tidyPrintableASCII(_ line: String) -> String? {
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
    static func softHyphensAtLineEnds(_ line: String) -> String {
        guard let last = line.unicodeScalars.last, last == "\u{AD}" || last == "\u{2010}" else { return line }
        return String(line.unicodeScalars.dropLast(1)) + "-"
    }

    /// The length of a full-width line: the 80th percentile of line lengths.
    static func typicalFullLineLength(_ pages: [[PDFLine]]) -> Int {
        var lengths = pages.flatMap { $0.map { $0.text.count } }
        guard !lengths.isEmpty else { return 0 }
        lengths.sort()
        return lengths[min(lengths.count - 1, lengths.count * 8 / 10)]
    }

    /// Splits one page's lines into paragraphs (see ``normalizePDF(pages:)``).
    static func paragraphs(of lines: [PDFLine], fullLine: Int, compounds: HyphenationEvidence) -> [String] {
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
            let continues = line.text.unicodeScalars.first?.properties.isLowercase == true
                && !startsDefinition(line.text)
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
            if line.breakBefore || (breaks.contains(index) && !intoDisplay && !outOfDisplay)
                || (previousWasShort && !continues)
                || (!current.isEmpty && startsListItem(line.text))
                || (current.hasSuffix(".") && startsDefinition(line.text))
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
    static func endsInFunctionWord(_ line: String) -> Bool {
        // The last word, as `split(separator: " ").last` gives it, without splitting the whole line.
        let trimmed = line[..<(line.lastIndex { $0 != " " }.map(line.index(after:)) ?? line.startIndex)]
        guard !trimmed.isEmpty else { return false }
        let word = trimmed[(trimmed.lastIndex(of: " ").map(trimmed.index(after:)) ?? trimmed.startIndex)...]
        return functionWords.contains(String(word))
    }

    static let functionWords: Set<String> = ["of", "the", "a", "an", "to", "for", "with", "by", "and", "or", "from",
        "into", "is", "are", "as"]

    /// Whether a line ends as a sentence, clause or list entry does (`.`, `:`, `;`, `,`, `!`, `?`, a closing
    /// parenthesis, bracket or quote; not a brace, which ends code).
    static func endsClause(_ line: String) -> Bool {
        guard let last = line.unicodeScalars.last else { return true }
        return ".:;,!?)]\"”’".unicodeScalars.contains(last)
    }

    /// Line indices that start a paragraph by layout: a gap above clearly larger than the usual
    /// line spacing, an indented first line (the next line returns to the left), or a return to
    /// the left after indented lines (the end of a hanging list item).
    static func geometricBreaks(_ lines: [PDFLine]) -> Set<Int> {
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
            if xs[i] < xs[i - 1] - tolerance && i >= 2 && abs(xs[i - 1] - xs[i - 2]) <= tolerance
                && !breaks.contains(i - 1) {
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
            let next = line.unicodeScalars.dropFirst().first, next.properties.isAlphabetic || next == "<"
            || ("0"..."9").contains(next)
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

    static func isListMarker(_ text: String) -> Bool {
        if listMarkers.contains(text) { return true }
        // Five scalars at most are read: a marker has four (a paragraph of a book is tested here).
        let scalars = Array(text.unicodeScalars.prefix(5))
        guard scalars.count >= 2, scalars.count <= 4, let last = scalars.last, last == "."
            || last == ")" else { return false }
        return scalars.dropLast().allSatisfy { ("0"..."9").contains($0) }
            || (scalars.count == 2 && ("a"..."z").contains(scalars[0]))
    }

    static let listMarkers: Set<String> = ["•", "◦", "▪", "‣", "-", "–", "—", "*", "·"]

    /// `str: BIT string.`, `bit len: number of …`: one or two lower-case words (a parameter's
    /// name) and a colon, then its description.
    static func startsDefinition(_ line: String) -> Bool {
        PDFLinePatterns.startsDefinition(line)
    }

    static func startsListItem(_ line: String) -> Bool {
        guard let first = line.unicodeScalars.first else { return false }
        return itemBullets.contains(first) && line.unicodeScalars.dropFirst().first == " "
    }

    /// The bullets that open a list item on its own line (a dash or an asterisk there may be
    /// prose or code as well).
    static let itemBullets: Set<Unicode.Scalar> = ["•", "◦", "▪", "‣"]

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
    static func joint(_ a: String, _ b: String, evidence: HyphenationEvidence) -> (dropHyphen: Bool,
        separator: String) {
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
        if aScalars.last == "_", let before = aScalars.dropLast(1).last, before.properties.isAlphabetic
            || ("0"..."9").contains(before),
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
                !evidence.compounds.contains((head + "-" + tail).lowercased()),
                evidence.words.contains((head + tail).lowercased())
            {
                return (true, "")
            }
        }
        if next.properties.isAlphabetic || ("0"..."9").contains(next) { return (false, "") }
        return (false, " ")
    }

    /// Han, kana, and the full-width punctuation and brackets of Chinese and Japanese text.
    static func isSpaceless(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3000...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF01...0xFF60,
            0x20000...0x2FA1F: return true
        default: return false
        }
    }

    static func trailingWord(_ text: Substring) -> String {
        String(text.reversed().prefix { $0.isLetter }.reversed())
    }

    static func leadingWord(_ text: String) -> String {
        String(text.prefix { $0.isLetter })
    }

    /// Gathers ``HyphenationEvidence`` from the words inside lines (a line's last word may be a fragment).
    static func hyphenationEvidence(_ pages: [[PDFLine]]) -> HyphenationEvidence {
        var evidence = HyphenationEvidence()
        // `joint` reads the evidence only after a letter and a hyphen that end a line: a document
        // without such a line needs none, and gathering it reads every word of the document.
        guard pages.joined().contains(where: { line in
            line.text.unicodeScalars.last == "-"
                && line.text.unicodeScalars.dropLast(1).last?.properties.isAlphabetic == true
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
    static func gatherPrintableASCIIEvidence(
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
            func string(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[range]),
                as: UTF8.self) }
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
    static func continuesAcrossBreak(_ last: String, _ first: String, fullLastLine: Bool) -> Bool {
        guard let end = last.unicodeScalars.last, let start = first.unicodeScalars.first else { return false }
        let closing: Set<Unicode.Scalar> = [".", "!", "?", ":", "\"", "”", "’", ")", "]"]
        guard !closing.contains(end), !startsListItem(first),
            !isListMarker(String(first.prefix(3))) else { return false }
        // A numbered heading set at the foot of a page ("4.2 ASN.1 field functions") heads the
        // next page; it never runs on into it, though the next page opens in lower case.
        if isTitleLine(last), PDFLinePatterns.startsNumberedTitle(last) { return false }
        return start.properties.isLowercase || fullLastLine
    }

}
