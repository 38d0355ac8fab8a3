import Foundation

// PDFLayout's tables of contents, indexes and definition labels.

extension PDFLayout {
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
        guard PDFLinePatterns.mayHaveLeaderDots(line), line.contains("....")
            || line.contains(". . . .") else { return false }
        return PDFLinePatterns.leaderEntry.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil
    }

    /// A contents entry's words, for finding the heading it lists: letters only, lower-cased.
    static func entryKey(_ line: String) -> String {
        String(line.lowercased().filter(\.isLetter))
    }

    /// `Contents`, `Table of Contents`; `CONTENTS 2` (a running head with its page number, which
    /// extraction may glue on: `CONTENTS2`).
    static func isContentsHeading(_ line: String) -> Bool {
        PDFLinePatterns.isContentsHeading(line)
    }

    /// A line of a contents list: `2.`, `2.1`, `2.1. NAME`, `3.3.1. BZ2_bzCompressInit`, `A.1 Licence`.
    static func isNumberedHeading(_ line: String) -> Bool {
        PDFLinePatterns.isNumberedHeading(line)
    }

    /// `2`, `2.1`, `4.5.`, `A.1`, `Appendix A`: a section number alone on its line.
    static func isSectionNumber(_ line: String) -> Bool {
        PDFLinePatterns.isSectionNumber(line)
    }

    /// Between the entries of a contents or index page: a bare section number, an index's
    /// letter heading, the page's own `Contents` or `… Index` heading.
    static func isContentsFurniture(_ line: String) -> Bool {
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
                if let top = line.top,
                    let index = result.lastIndex(where: { $0.top.map { abs($0 - top) <= 2 } ?? false }) {
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
    static func isCategoryLabel(_ line: String) -> Bool {
        PDFLinePatterns.isCategoryLabel(line)
    }

    /// The line with every digit replaced by `#`, so `Page 3` and `Page 4` have one shape.
    static func shape(_ line: String) -> String {
        // Byte by byte: in UTF-8 a digit's byte is never part of another character.
        String(decoding: line.utf8.map { $0 >= 0x30 && $0 <= 0x39 ? 0x23 : $0 }, as: UTF8.self)
    }

    static let pageNumberDashes = CharacterSet(charactersIn: "-–—[]()|· ")

    /// The bytes of the ASCII letters, either case, that no word of a page number line has: only
    /// `page`, `pg`, `p`, `seite`, `página`, `pagina`, `of` and Roman numerals have letters.
    static let pageNumberRuledOut: [Bool] = (0..<256).map { byte in
        guard let scalar = Unicode.Scalar(UInt32(byte)), scalar.isASCII,
            scalar.properties.isAlphabetic else { return false }
        return !"acefgilnopstvx".unicodeScalars.contains(Unicode.Scalar(UInt8(byte) | 0x20))
    }

    /// Whether a line is nothing but a page number: `3`, `- 3 -`, `— 3 —`, `[3]`, `Page 3`, `Page 3 of 12`, `p. 3`,
    /// `3 / 12`, `3 of 12`, `xiv`.
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
