// MARK: - Sentence

/// One unit of a document: a sentence of prose, a list item, a heading, or a block of code.
///
/// Units are what every builtin algorithm works on: the ranker scores them, the outline groups
/// them into sections, and the content fitter keeps or drops them whole. A unit always lies
/// inside one paragraph.
@_spi(Benchmarks) public struct Sentence: Sendable, Hashable {
    /// Position of the unit in the splitter's output (0-based, document order).
    let index: Int
    /// The unit's text. For prose and list items it is exactly the source text in `range`
    /// (inner line breaks included); for a heading it is the title without Markdown `#` marks.
    let text: String
    /// Where the unit lies in the string it was split from, trimmed of surrounding whitespace.
    @_spi(Benchmarks) public let range: Range<String.Index>
    /// The same place as `Character` offsets, for callers that store or compare positions
    /// without holding the original `String`.
    let offsets: Range<Int>
    /// The 0-based paragraph (block separated by a blank line) the unit belongs to.
    let paragraph: Int
    /// Whether the unit is a heading (its own paragraph or a Markdown `#` line); never merged
    /// with prose.
    @_spi(Benchmarks) public let isHeading: Bool
    /// Heading level, 1 (title) to 6; 0 for a unit that is not a heading.
    let headingLevel: Int
    /// Whether the unit is (part of) a bulleted or numbered list item.
    let isListItem: Bool
    /// Whether the unit is (part of) a block of code or program output: a fenced block (```` ``` ````
    /// lines, as HTML import renders `<pre>`), or a paragraph whose lines read as code
    /// (``CodeText``). Text to read as it is, never sentences.
    let isCode: Bool

    /// Creates a unit; the splitter is the usual source, tests and callers may build their own.
    init(
        index: Int, text: String, range: Range<String.Index>, offsets: Range<Int>, paragraph: Int,
        isHeading: Bool = false, headingLevel: Int = 0, isListItem: Bool = false, isCode: Bool = false
    ) {
        self.index = index
        self.text = text
        self.range = range
        self.offsets = offsets
        self.paragraph = paragraph
        self.isHeading = isHeading
        self.headingLevel = isHeading ? max(1, min(6, headingLevel)) : 0
        self.isListItem = isListItem
        self.isCode = isCode
    }
}

// MARK: - Splitter

/// A rule-based sentence segmenter for importer-normalized text.
///
/// Rules, in order:
/// - A blank line ends a paragraph, and a paragraph boundary always ends a sentence.
/// - A fenced block (from a line starting with ```` ``` ```` to the next such line, blank lines
///   included) is code: one unit (cut like run-on text when long), marked `isCode`, whatever
///   its points and line breaks. So is a paragraph whose lines read as code though no fence
///   marks it (``CodeText/isCode(lines:)``: pasted notes, a PDF).
/// - A Markdown ATX line (`# Title`, `## Section`) is a heading unit of its own.
/// - A paragraph that is one short line without terminal punctuation is a heading (how PDFs
///   give headings, e.g. `2. The Light Reactions`); see `shortLineHeadingLevel` for the details.
///   Not in text that marks its headings itself (two or more ATX lines, each its own
///   paragraph, as HTML import and Markdown give): there a short line ("Added in: v0.1.26",
///   "Source Code: lib/events.js") is what the source says it is, a paragraph.
/// - A line starting with a bullet (`-`, `*`, `+`, `•`) or a number (`1.`, `2)`) starts a list
///   item; list items are never merged with each other.
/// - Inside a block, `.`, `!`, `?`, `…` (and runs such as `?!` or `...`), followed by closing
///   quotes or brackets, end a sentence only when whitespace and then a word that does not start
///   with a lower-case letter follow. That keeps decimals (3.14), dotted acronyms inside a
///   sentence ("U.S. economy"), "e.g. this" and most unknown abbreviations together.
/// - Known abbreviations that precede a name or number (Dr., Mr., Prof., Fig., vs., e.g., i.e.)
///   and single capital initials ("J. R. Smith") never end a sentence.
/// - CJK full stops (`。！？．｡`) end a sentence even without a following space, except inside a
///   quotation that the sentence goes on after with a particle (「光が必要だ。」と言った).
/// - A sentence longer than `maxSentenceLength` characters is cut at the last space or comma
///   before the limit (or hard at the limit for scripts without spaces), so a document without
///   punctuation still gives units small enough to rank and to fit into a window.
@_spi(Benchmarks) public struct SentenceSplitter: Sendable {
    /// Longest unit, in characters, before it is cut at a word boundary.
    var maxSentenceLength: Int

    /// Creates a splitter; `maxSentenceLength` bounds run-on text (at least 40 characters).
    @_spi(Benchmarks) public init(maxSentenceLength: Int = 600) {
        self.maxSentenceLength = max(40, maxSentenceLength)
    }

    /// Splits `text` into units in document order. Empty or whitespace-only text gives none.
    func split(_ text: String) -> [Sentence] {
        var scan = Scan(text: text, maxLength: maxSentenceLength)
        scan.run()
        return scan.units
    }
}

// MARK: - Scanning

/// The splitter's working state: the text as an array of characters (so positions are cheap
/// integers) plus the index table that maps them back to `String.Index`.
private struct Scan {
    let text: String
    let chars: [Character]
    let indices: [String.Index]
    let maxLength: Int
    var units: [Sentence] = []

    init(text: String, maxLength: Int) {
        self.text = text
        self.chars = Array(text)
        var indices = Array(text.indices)
        indices.append(text.endIndex)
        self.indices = indices
        self.maxLength = maxLength
    }

    /// Whether short lines may be headings: not when the text marks its headings with `#`.
    var guessesHeadings = true

    mutating func run() {
        let paragraphs = paragraphLines()
        let declared = paragraphs.count { !$0.isCode && $0.lines.count == 1 && atxHeading($0.lines[0]) != nil }
        guessesHeadings = declared < 2
        for (p, paragraph) in paragraphs.enumerated() {
            if paragraph.isCode {
                for line in paragraph.lines { emitProse(line, paragraph: p, isList: false, isCode: true) }
            } else if CodeText.isCode(lines: paragraph.lines.map { String(chars[$0]) }),
                let first = paragraph.lines.first, let last = paragraph.lines.last
            {
                // Code that no fence marks (pasted notes, a PDF): one code unit all the same.
                emitProse(first.lowerBound..<last.upperBound, paragraph: p, isList: false, isCode: true)
            } else {
                scanParagraph(lines: paragraph.lines, number: p, isLast: p == paragraphs.count - 1)
            }
        }
    }

    /// Non-blank lines grouped by paragraph; each line trimmed of surrounding whitespace. A
    /// fenced block is a paragraph of its own, blank lines included: one "line", its fences left out.
    private func paragraphLines() -> [(lines: [Range<Int>], isCode: Bool)] {
        var paragraphs: [(lines: [Range<Int>], isCode: Bool)] = []
        var current: [Range<Int>] = []
        var fence: Int? = nil  // where the open block's code begins
        var lineStart = 0
        var i = 0
        while i <= chars.count {
            if i == chars.count || chars[i] == "\n" {
                let line = trimmed(lineStart..<i)
                let isFence = line.map { CodeText.isFence(chars[$0]) } ?? false
                if let open = fence {
                    if isFence || i == chars.count {
                        let end = isFence ? lineStart : i
                        if let code = trimmed(open..<max(open, end)) { paragraphs.append(([code], true)) }
                        fence = nil
                    }
                } else if isFence {
                    if !current.isEmpty { paragraphs.append((current, false)) }
                    current = []
                    fence = min(i + 1, chars.count)
                } else if let line {
                    current.append(line)
                } else if !current.isEmpty {
                    paragraphs.append((current, false))
                    current = []
                }
                lineStart = i + 1
            }
            i += 1
        }
        if !current.isEmpty { paragraphs.append((current, false)) }
        return paragraphs
    }

    private func trimmed(_ r: Range<Int>) -> Range<Int>? {
        var s = r.lowerBound
        var e = r.upperBound
        while s < e, chars[s].isWhitespace { s += 1 }
        while e > s, chars[e - 1].isWhitespace { e -= 1 }
        return s < e ? s..<e : nil
    }

    // MARK: Paragraphs and blocks

    private mutating func scanParagraph(lines: [Range<Int>], number: Int, isLast: Bool) {
        // A last line is no heading (a signature, a fragment), unless it is a numbered section
        // ("3. Contributors") whose content went to the apparatus, or was never there.
        if guessesHeadings, lines.count == 1, !isLast || hasDottedSectionNumber(lines[0]), atxHeading(lines[0]) == nil,
            let level = shortLineHeadingLevel(lines[0], isFirstParagraph: number == 0)
        {
            emitHeading(lines[0], title: lines[0], level: level, paragraph: number)
            return
        }
        // Plain-text notes often put a heading right above its paragraph, with no blank line
        // ("Introduction" / "Isaac Newton published …"): a short first line that passes the
        // heading rules, at most half as long as the line after it, which starts a sentence.
        if guessesHeadings, lines.count >= 2, atxHeading(lines[0]) == nil, listMarkerLength(lines[0]) == nil,
            lines[0].count * 2 <= lines[1].count,
            let next = chars[lines[1]].first(where: \.isLetter), !next.isLowercase,
            let level = shortLineHeadingLevel(lines[0], isFirstParagraph: number == 0),
            chars[lines[0]].split(whereSeparator: \.isWhitespace).count <= Self.headingAboveTextWords
        {
            emitHeading(lines[0], title: lines[0], level: level, paragraph: number)
            scanParagraph(lines: Array(lines.dropFirst()), number: number, isLast: isLast)
            return
        }
        var block: Range<Int>?
        var blockIsList = false
        for line in lines {
            if let (level, title) = atxHeading(line) {
                if let b = block { segment(b, paragraph: number, isList: blockIsList) }
                block = nil
                emitHeading(line, title: title, level: level, paragraph: number)
            } else if listMarkerLength(line) != nil {
                if let b = block { segment(b, paragraph: number, isList: blockIsList) }
                block = line
                blockIsList = true
            } else if let b = block {
                block = b.lowerBound..<line.upperBound
            } else {
                block = line
                blockIsList = false
            }
        }
        if let b = block { segment(b, paragraph: number, isList: blockIsList) }
    }

    /// `# Title` … `###### Title`: level and the title's range without the marks.
    private func atxHeading(_ line: Range<Int>) -> (Int, Range<Int>)? {
        var i = line.lowerBound
        while i < line.upperBound, chars[i] == "#" { i += 1 }
        let level = i - line.lowerBound
        guard (1...6).contains(level), i < line.upperBound, chars[i] == " " || chars[i] == "\t" else {
            return nil
        }
        var end = line.upperBound
        // A closing sequence of #s ("## Title ##") is decoration.
        while end > i, chars[end - 1] == "#" { end -= 1 }
        guard let title = trimmed(i..<end) else { return nil }
        return (level, title)
    }

    /// The most words of a heading written right above its paragraph.
    static let headingAboveTextWords = 8

    /// The short-line heading heuristic for text without Markdown (PDF extraction).
    ///
    /// A paragraph is a heading when it is a single line that:
    /// - is at most 80 characters and 1 to 12 words long;
    /// - does not end with terminal or clause punctuation (`. ! ? : ; , …`), even before a
    ///   closing quote or bracket — except a numbered section that asks a question;
    /// - contains a letter, and its first letter is not lower-case (titles start capitalized
    ///   in cased scripts; uncased scripts such as CJK pass);
    /// - is not a bullet item, and is not the document's last paragraph (a heading introduces
    ///   something; a lone last line is more likely a signature or a fragment).
    ///
    /// The level comes from a section number when there is one ("2." → 2, "2.1" → 3,
    /// "2.1.4" → 4); otherwise the document's first paragraph is a title (1) and later ones are
    /// sections (2).
    private func shortLineHeadingLevel(_ line: Range<Int>, isFirstParagraph: Bool) -> Int? {
        guard line.count <= 80 else { return nil }
        let slice = chars[line]
        var wordCount = 0
        var inWord = false
        for c in slice {
            if c.isWhitespace {
                inWord = false
            } else if !inWord {
                inWord = true
                wordCount += 1
            }
        }
        guard (1...12).contains(wordCount) else { return nil }
        guard let firstLetter = slice.first(where: { $0.isLetter }), !firstLetter.isLowercase else {
            return nil
        }
        // A displayed formula on its line says "$$KL(P||Q) = …$$": an equation, no title.
        if slice.first == "$", FormulaText.isOnlyFormula(Substring(String(slice))) { return nil }
        if listMarkerLength(line) != nil, !chars[line.lowerBound].isNumber { return nil }
        let level = sectionNumberLevel(line)
        var end = line.upperBound
        while end > line.lowerBound, Scan.closers.contains(chars[end - 1]) { end -= 1 }
        guard end > line.lowerBound else { return nil }
        // A numbered section may ask a question ("1. Why study the Revolution?").
        let endsAsQuestion = chars[end - 1] == "?" && level != nil
        guard !Scan.headingEnders.contains(chars[end - 1]) || endsAsQuestion else { return nil }
        return level ?? (isFirstParagraph ? 1 : 2)
    }

    /// The heading level a leading section number gives ("2." → 2, "2.1" → 3), or `nil`.
    private func sectionNumberLevel(_ line: Range<Int>) -> Int? {
        var components = 0
        var i = line.lowerBound
        var sawDigit = false
        while i < line.upperBound {
            let c = chars[i]
            if c.isASCII, c.isNumber {
                sawDigit = true
            } else if c == ".", sawDigit {
                components += 1
                sawDigit = false
            } else {
                break
            }
            i += 1
        }
        if sawDigit { components += 1 }
        let numbered = components > 0 && i < line.upperBound && chars[i].isWhitespace
        return numbered ? min(6, components + 1) : nil
    }

    /// Whether a line opens with a dotted section number: "3. ", "2.1 ", "4.2. ".
    private func hasDottedSectionNumber(_ line: Range<Int>) -> Bool {
        var i = line.lowerBound
        var sawDot = false
        while i < line.upperBound, chars[i].isASCII, chars[i].isNumber || (chars[i] == "." && i > line.lowerBound) {
            if chars[i] == "." { sawDot = true }
            i += 1
        }
        return sawDot && i < line.upperBound && chars[i] == " " && chars[line.lowerBound].isNumber
    }

    /// Length of a list marker plus its space at the start of a line ("- ", "• ", "12. ", "3) ").
    private func listMarkerLength(_ line: Range<Int>) -> Int? {
        let s = line.lowerBound
        guard s < line.upperBound else { return nil }
        let first = chars[s]
        if "-*+•‣◦▪–".contains(first) {
            return s + 1 < line.upperBound && chars[s + 1].isWhitespace ? 2 : nil
        }
        var i = s
        while i < line.upperBound, i - s < 3, chars[i].isASCII, chars[i].isNumber { i += 1 }
        guard i > s, i + 1 < line.upperBound, chars[i] == "." || chars[i] == ")",
            chars[i + 1].isWhitespace
        else { return nil }
        return i + 2 - s
    }

    // MARK: Sentences

    /// Splits one block (a paragraph's prose, or one list item) into sentences.
    private mutating func segment(_ block: Range<Int>, paragraph: Int, isList: Bool) {
        var start = block.lowerBound
        // A list marker's point ("1. Bake it") is no sentence end.
        var i = block.lowerBound + (isList ? listMarkerLength(block) ?? 0 : 0)
        let end = block.upperBound
        while i < end {
            guard Scan.terminals.contains(chars[i]) else {
                i += 1
                continue
            }
            var j = i + 1
            while j < end, Scan.terminals.contains(chars[j]) { j += 1 }
            let runEnd = j
            while j < end, Scan.closers.contains(chars[j]) { j += 1 }
            if isBoundary(terminalRun: i..<runEnd, after: j, blockEnd: end) {
                emitProse(start..<j, paragraph: paragraph, isList: isList)
                start = j
            }
            i = j
        }
        emitProse(start..<end, paragraph: paragraph, isList: isList)
    }

    private func isBoundary(terminalRun run: Range<Int>, after j: Int, blockEnd: Int) -> Bool {
        let terms = chars[run]
        if terms.contains(where: { Scan.cjkTerminals.contains($0) }) {
            // 「光が必要だ。」と言った: a quoted sentence inside a longer one, which goes on with a
            // particle.
            let closed = j > run.upperBound
            return !(closed && j < blockEnd && Scan.particlesAfterQuote.contains(chars[j]))
        }
        guard j < blockEnd else { return true }
        guard chars[j].isWhitespace else { return false }  // 3.14, U.S.A, example.com
        // The next word: skip spaces and opening quotes or brackets.
        var k = j
        while k < blockEnd, chars[k].isWhitespace || Scan.openers.contains(chars[k]) { k += 1 }
        guard k < blockEnd else { return true }
        let next = chars[k]
        if next.isLowercase { return false }
        // Only a single point can be an abbreviation; "?", "!", "…" and "..." end sentences.
        guard terms.count == 1, terms.first == "." else { return true }
        let token = wordBefore(run.lowerBound)
        if token.isEmpty { return true }
        let lower = token.lowercased()
        if Scan.nonFinalAbbreviations.contains(lower) { return false }
        if Scan.numberAbbreviations.contains(lower), next.isNumber { return false }
        // A single capital letter is an initial: "John F. Kennedy", "J. R. R. Tolkien".
        if token.count == 1, let c = token.first, c.isUppercase { return false }
        return true
    }

    /// The word that ends right before position `end` (a point), without opening punctuation.
    private func wordBefore(_ end: Int) -> String {
        var s = end
        while s > 0, !chars[s - 1].isWhitespace { s -= 1 }
        while s < end, Scan.openers.contains(chars[s]) { s += 1 }
        return String(chars[s..<end])
    }

    // MARK: Emitting

    private mutating func emitHeading(_ line: Range<Int>, title: Range<Int>, level: Int, paragraph: Int) {
        let text = String(chars[title])
        units.append(
            Sentence(
                index: units.count, text: text, range: indices[line.lowerBound]..<indices[line.upperBound],
                offsets: line, paragraph: paragraph, isHeading: true, headingLevel: level))
    }

    private mutating func emitProse(_ r: Range<Int>, paragraph: Int, isList: Bool, isCode: Bool = false) {
        guard var rest = trimmed(r) else { return }
        // Run-on text: cut at the last space (or comma) before the limit.
        while rest.count > maxLength {
            let limit = rest.lowerBound + maxLength
            let floor = rest.lowerBound + maxLength / 2
            var cut = limit
            while cut > floor, !chars[cut - 1].isWhitespace, !",;、，".contains(chars[cut - 1]) { cut -= 1 }
            if cut <= floor { cut = limit }
            if let piece = trimmed(rest.lowerBound..<cut) { appendProse(piece, paragraph: paragraph, isList: isList,
                isCode: isCode) }
            guard let next = trimmed(cut..<rest.upperBound) else { return }
            rest = next
        }
        appendProse(rest, paragraph: paragraph, isList: isList, isCode: isCode)
    }

    private mutating func appendProse(_ r: Range<Int>, paragraph: Int, isList: Bool, isCode: Bool) {
        let range = indices[r.lowerBound]..<indices[r.upperBound]
        units.append(
            Sentence(
                index: units.count, text: String(text[range]), range: range, offsets: r,
                paragraph: paragraph, isListItem: isList, isCode: isCode))
    }

    // MARK: Character classes

    static let terminals: Set<Character> = [".", "!", "?", "…", "‼", "⁇", "⁈", "⁉", "。", "！", "？",
        "．", "｡"]
    /// Full stops of Chinese and Japanese (full-width, and the half-width `｡`): they end a
    /// sentence with no space after them.
    static let cjkTerminals: Set<Character> = ["。", "！", "？", "．", "｡"]
    /// Japanese particles that carry a sentence on after a closing quote (「…。」と言った).
    static let particlesAfterQuote: Set<Character> = ["と", "っ", "の", "を", "が", "は", "も", "に", "で",
        "か"]
    static let closers: Set<Character> = ["\"", "'", "”", "’", ")", "]", "}", "»", "›", "」", "』", "）",
        "】"]
    static let openers: Set<Character> = ["\"", "'", "“", "‘", "(", "[", "{", "«", "‹", "「", "『", "（",
        "【"]
    static let headingEnders: Set<Character> = [".", "!", "?", ":", ";", ",", "…", "。", "！", "？", "：", "；",
        "，", "．", "｡"]

    /// Abbreviations that stand before a name, a number or more of the sentence, so a point after
    /// them is never a sentence end even before a capital ("Dr. Smith", "Fig. 3", "e.g. Rome").
    static let nonFinalAbbreviations: Set<String> = [
        "mr", "mrs", "ms", "mx", "dr", "prof", "rev", "hon", "st", "mt", "ft", "gen", "col", "lt",
        "capt", "sgt", "gov", "sen", "rep", "pres", "fig", "figs", "eq", "eqs", "vs", "v", "e.g",
        "i.e", "cf", "approx", "ca", "viz", "incl", "resp", "dept", "jan", "feb", "mar", "apr",
        "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "ch", "chap", "sec", "vol", "vols",
        "pp", "ed", "eds", "est", "op", "cit", "ibid",
    ]

    /// Abbreviations that are only abbreviations before a number ("No. 5", "p. 12"); before a
    /// word ("The answer is no. Then…") the point ends the sentence.
    static let numberAbbreviations: Set<String> = ["no", "nos", "p", "art", "para", "n"]
}
