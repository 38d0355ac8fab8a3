import Foundation

// PDFLayout's page furniture: running headers, footers and page numbers, and section numbers.

extension PDFLayout {
    // MARK: Running headers, footers and page numbers

    /// Drops running headers/footers and bare page numbers at the top and bottom of each page.
    static func removeRunningLines(_ pages: [[String]]) -> [[String]] {
        removeRunningLines(pages.map { $0.filter { !$0.isEmpty }.map { PDFLine(text: $0) } }).map { $0.map(\.text) }
    }

    static func removeRunningLines(_ pages: [[PDFLine]]) -> [[PDFLine]] {
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
            (Array(page.prefix(depth)) + Array(page.suffix(depth))).compactMap { line in Int(line.text).map { (line,
                $0) } }
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
            let pageOffsets = Set(
                edgeNumbers(page).filter { atPageNumberHeight($0.line) }.map { edge in edge.number - p })
            for offset in pageOffsets {
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
            func capitalised() -> Bool { k + 1 < paragraphs.count
                && paragraphs[k + 1].contains(PDFLinePatterns.capitalisedRegex) }
            func command() -> Bool {
                k + 1 < paragraphs.count && next == chapter + 1
                    && paragraphs[k + 1].contains(PDFLinePatterns.commandTitleRegex)
            }
            // Below a chapter, a dotted number's title may open in capitals, lower case or a
            // symbol ("5.1" "GUI interfaces for tlmgr", "7.2.2" "kpsewhich: Standalone path
            // searching", "7.4" "$TEXMFDOTDIR").
            func subsection() -> Bool {
                k + 1 < paragraphs.count && paragraph.contains(".") && chapter > 0
                    && paragraphs[k + 1].contains(PDFLinePatterns.subsectionTitleRegex)
            }
            if isBareNumber(paragraph), k + 1 < paragraphs.count, isTitleLine(paragraphs[k + 1]),
                capitalised() || command() || subsection(), k + 2 == paragraphs.count
                || !isBareNumber(paragraphs[k + 2])
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
            if isBareNumber(number.text), title.text.first?.isLetter == true, let numberTop = number.top,
                let titleTop = title.top,
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
    static func isBareNumber(_ text: String) -> Bool {
        PDFLinePatterns.isBareNumber(text)
    }

    /// A line that can be a section's title: one line of at most ten words and 80 characters,
    /// with a letter, not ending as a sentence or clause does.
    static func isTitleLine(_ text: String) -> Bool {
        guard text.prefix(81).count <= 80, !(text.utf8.contains(0x0A) && text.contains("\n")),
            text.contains(where: \.isLetter), let last = text.last,
            !".:;,!?".contains(last)
        else { return false }
        return text.split(separator: " ").count <= 10
    }
}
