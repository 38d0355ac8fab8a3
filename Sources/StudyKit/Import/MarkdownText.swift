import Foundation

// MARK: - Markdown as readable text

/// Markdown source as the readable text the other importers give: what a reader of the
/// rendered page sees, with the structure the splitter reads (`#` headings, `- ` list items,
/// fenced code) and none of the markup.
///
/// - Kept: ATX headings; setext headings (`Title` over `===` or `---`) become `#`/`##` lines;
///   list items; fenced code blocks, whole; an indented code block (four spaces or a tab after
///   a blank line, not inside a list) becomes a fenced one.
/// - Dropped: YAML front matter, HTML comments (`<!-- YAML … -->` included), link reference
///   definitions (`[x]: https://…`), thematic breaks, table delimiter rows, HTML tags (their
///   text stays), a heading's `{#id}` attributes.
/// - Notes apps (Obsidian, Logseq): `[[Page]]` and `[[Page|alias]]` give the page or alias,
///   `![[embed]]` goes, a callout's `[!note]` mark goes, `==highlight==` is unwrapped.
/// - Unwrapped: links and images (`[text](url)`, `[text][ref]`, `![alt](src)` → the text),
///   autolinks, emphasis (`**x**`, `*x*`, `__x__`, `_x_`, `~~x~~`), code spans (`` `x` `` → x),
///   blockquote marks, backslash escapes, the common character entities; table rows become
///   cells joined by ` | `, as an HTML table's do.
///
/// Identifiers keep their underscores and stars: emphasis needs a space or punctuation outside
/// its marks, so `snake_case_name` and `a * b` stay as written.
enum MarkdownText {
    /// The readable text of Markdown `source` (line breaks kept; the normalizer runs after).
    static func readable(_ source: String) -> String {
        readableParts(source).text
    }

    /// The readable text of Markdown `source` and, apart from it, its footnote definitions
    /// (`[^1]: …` and their indented lines), which are apparatus (``Apparatus``); the marks
    /// (`[^1]`) go from the text.
    static func readableParts(_ source: String) -> (text: String, footnotes: [String]) {
        var lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines = withoutFrontMatter(lines)
        var footnotes: [String] = []
        var inFootnote = false
        var out: [String] = []
        var fence: (mark: Character, count: Int)?
        var inComment = false
        var previousBlank = true
        var inList = false
        var indentedCode: [String] = []

        // The block without its trailing blank lines, fenced.
        func flushIndentedCode() {
            while indentedCode.last == "" { indentedCode.removeLast() }
            guard !indentedCode.isEmpty else { return }
            out.append("```")
            out += indentedCode
            out.append("```")
            indentedCode = []
        }

        for raw in lines {
            let line = raw.replacingOccurrences(of: "\t", with: "    ")
            // Inside a fence: every line as it is, until the fence that closes it.
            if let open = fence {
                if let mark = fenceMark(line), mark.mark == open.mark, mark.count >= open.count, mark.info.isEmpty {
                    out.append("```")
                    fence = nil
                } else {
                    out.append(raw)
                }
                continue
            }
            // An indented code block goes on while its lines are indented or blank.
            if !indentedCode.isEmpty {
                if line.hasPrefix("    ") {
                    indentedCode.append(String(line.dropFirst(4)))
                    continue
                }
                if line.trimmingCharacters(in: .whitespaces).isEmpty {
                    indentedCode.append("")
                    continue
                }
                flushIndentedCode()
                out.append("")
            }
            // A footnote's definition, and the indented lines that go on with it.
            if let match = line.firstMatch(of: footnoteDefinition) {
                footnotes.append(inlineText(String(line[match.range.upperBound...])))
                inFootnote = true
                continue
            }
            if inFootnote {
                if line.hasPrefix("    "), !footnotes.isEmpty {
                    footnotes[footnotes.count - 1] += " " + inlineText(line.trimmingCharacters(in: .whitespaces))
                    continue
                }
                if !line.trimmingCharacters(in: .whitespaces).isEmpty { inFootnote = false }
            }
            var text = line
            // HTML comments, over several lines too.
            if inComment {
                guard let end = text.range(of: "-->") else { continue }
                text = String(text[end.upperBound...])
                inComment = false
            }
            while let start = text.range(of: "<!--") {
                if let end = text.range(of: "-->", range: start.upperBound..<text.endIndex) {
                    text.removeSubrange(start.lowerBound..<end.upperBound)
                } else {
                    text = String(text[..<start.lowerBound])
                    inComment = true
                }
            }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty {
                // A line that held only a comment is no paragraph break of its own.
                if line.trimmingCharacters(in: .whitespaces).isEmpty {
                    out.append("")
                    previousBlank = true
                }
                continue
            }
            if let mark = fenceMark(text) {
                fence = (mark.mark, mark.count)
                out.append("```")
                previousBlank = false
                continue
            }
            let indented = text.hasPrefix("    ")
            if indented, previousBlank, !inList {
                indentedCode = [String(text.dropFirst(4))]
                continue
            }
            // Setext underlines turn the line above into a heading; a rule alone is dropped.
            if isSetextUnderline(trimmed), !previousBlank, let last = out.last, !last.isEmpty {
                out[out.count - 1] = "# " + last
                continue
            }
            if isThematicBreak(trimmed) {
                if !previousBlank, trimmed.allSatisfy({ $0 == "-" }), let last = out.last, !last.isEmpty, !inList,
                    !last.hasPrefix("#")
                {
                    out[out.count - 1] = "## " + last
                } else {
                    out.append("")
                    previousBlank = true
                }
                continue
            }
            if isReferenceDefinition(trimmed) || isTableDelimiter(trimmed) { continue }
            var content = withoutQuoteMarks(trimmed)
            if content.hasPrefix("#") { content = withoutHeadingAttributes(content) }
            if content.hasPrefix("|") || (content.hasSuffix("|") && content.contains(" | ")) {
                content = tableRow(content)
            }
            let isItem = listMarker(content)
            if isItem { inList = true } else if previousBlank, !indented { inList = false }
            let inline = inlineText(content)
            guard !inline.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            out.append(inline)
            previousBlank = false
        }
        flushIndentedCode()
        return (out.joined(separator: "\n"), footnotes)
    }

    nonisolated(unsafe) private static let footnoteDefinition = /^ {0,3}\[\^[^\]\s]+\]:\s*/

    // MARK: Blocks

    /// YAML front matter: `---` on the first line up to the next `---` or `...` line.
    private static func withoutFrontMatter(_ lines: [String]) -> [String] {
        guard lines.first?.trimmingCharacters(in: .whitespaces) == "---" else { return lines }
        for index in lines.indices.dropFirst().prefix(200) {
            let line = lines[index].trimmingCharacters(in: .whitespaces)
            if line == "---" || line == "..." {
                // Only when it looks like YAML: `key: value` lines.
                let body = lines[1..<index]
                guard body.allSatisfy({ $0.isEmpty || $0.contains(":") || $0.hasPrefix(" ")
                    || $0.hasPrefix("-") }) else {
                    return lines
                }
                return Array(lines[(index + 1)...])
            }
        }
        return lines
    }

    /// A fence line's mark, length and info string ("```js" → (`, 3, "js")).
    private static func fenceMark(_ line: String) -> (mark: Character, count: Int, info: String)? {
        let trimmed = line.drop { $0 == " " }
        guard line.count - trimmed.count <= 3, let first = trimmed.first, first == "`"
            || first == "~" else { return nil }
        let run = trimmed.prefix { $0 == first }
        guard run.count >= 3 else { return nil }
        let info = trimmed.dropFirst(run.count).trimmingCharacters(in: .whitespaces)
        if first == "`", info.contains("`") { return nil }
        return (first, run.count, info)
    }

    /// `===` under a line: the setext mark of a level-1 heading (`---` is read with the rules).
    private static func isSetextUnderline(_ line: String) -> Bool {
        line.count >= 2 && line.allSatisfy { $0 == "=" }
    }

    /// `---`, `***`, `___` (spaces allowed between): a rule.
    private static func isThematicBreak(_ line: String) -> Bool {
        let marks = line.filter { $0 != " " }
        guard marks.count >= 3, let first = marks.first, "-*_".contains(first) else { return false }
        return marks.allSatisfy { $0 == first }
    }

    /// `[label]: https://…` (optionally with a title).
    private static func isReferenceDefinition(_ line: String) -> Bool {
        matches(referenceDefinition, line) && !line.hasPrefix("[^")
    }

    /// `|---|:---:|` or `--- | ---`.
    private static func isTableDelimiter(_ line: String) -> Bool {
        line.contains("-") && line.contains("|") && line.allSatisfy { "|-: ".contains($0) }
    }

    /// The line without its blockquote marks (`> `, `>> `).
    private static func withoutQuoteMarks(_ line: String) -> String {
        var rest = Substring(line)
        while rest.first == ">" { rest = rest.dropFirst().drop { $0 == " " } }
        return String(rest)
    }

    /// `## Title {#anchor .class}` → `## Title`.
    private static func withoutHeadingAttributes(_ line: String) -> String {
        headingAttributes.stringByReplacingMatches(in: line, range: NSRange(line.startIndex..., in: line),
            withTemplate: "")
    }

    /// `| a | b |` → `a | b`.
    private static func tableRow(_ line: String) -> String {
        var row = Substring(line.trimmingCharacters(in: .whitespaces))
        if row.first == "|" { row = row.dropFirst() }
        if row.last == "|" { row = row.dropLast() }
        return row.split(separator: "|", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " | ")
    }

    private static func listMarker(_ line: String) -> Bool {
        matches(listItemStart, line)
    }

    private static let referenceDefinition = expression(#"^\[[^\]]+\]:\s*\S+"#)
    private static let headingAttributes = expression(#"\s*\{[#.][^}]*\}\s*$"#)
    private static let listItemStart = expression(#"^([-*+]|\d{1,3}[.)])\s"#)

    // MARK: Inline

    /// A line's text without inline markup. Code spans are kept literally (without their
    /// backticks); everything else is unwrapped outside them.
    static func inlineText(_ line: String) -> String {
        // Notes apps' syntax, then images and links: their text may hold a code span ("[`net.Server`][]").
        let text = linkRules.reduce(line) { text, rule in replace(rule.expression, in: text, with: rule.template) }
        // Code spans are set aside (each as one private-use character), so markup around them
        // ("**Add `x` to your shell**") is unwrapped whole and nothing inside them is touched.
        var spans: [String] = []
        var marked = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "`"), spans.count < 256 {
            let run = rest[open...].prefix { $0 == "`" }
            let afterRun = rest.index(open, offsetBy: run.count)
            guard let close = rest[afterRun...].range(of: String(run)) else { break }
            marked += rest[..<open]
            marked.unicodeScalars.append(Unicode.Scalar(spanBase + UInt32(spans.count))!)
            spans.append(rest[afterRun..<close.lowerBound].trimmingCharacters(in: .whitespaces))
            rest = rest[close.upperBound...]
        }
        marked += rest
        // Formulas are TeX, whose `_`, `*` and `\` are no markup: set aside the same way.
        if marked.contains("$") {
            var withFormulas = ""
            var start = marked.startIndex
            for range in FormulaText.spans(in: marked) where spans.count < 256 {
                withFormulas += marked[start..<range.lowerBound]
                withFormulas.unicodeScalars.append(Unicode.Scalar(spanBase + UInt32(spans.count))!)
                spans.append(String(marked[range]))
                start = range.upperBound
            }
            marked = withFormulas + marked[start...]
        }
        let unwrappedText = unwrapped(marked)
        guard !spans.isEmpty else { return unwrappedText }
        var result = ""
        for scalar in unwrappedText.unicodeScalars {
            let index = Int(scalar.value) - Int(spanBase)
            if spans.indices.contains(index) { result += spans[index] } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }

    /// Where the placeholders of code spans start (private use, after the escapes' ones).
    private static let spanBase: UInt32 = 0xE100

    /// Markup outside code spans taken away.
    private static func unwrapped(_ text: String) -> String {
        // Escaped characters are set aside first, so `\*stars\*` is no emphasis.
        var text = emphasisRules.reduce(replaceEscapes(text)) { text,
            rule in replace(rule.expression, in: text, with: rule.template) }
        text = String(String.UnicodeScalarView(text.unicodeScalars.map { escapedBack[$0] ?? $0 }))
        for (entity, character) in entities { text = text.replacingOccurrences(of: entity, with: character) }
        return text
    }

    /// Notes apps' syntax (Obsidian, Logseq: embeds go, wiki links give their alias or page, a
    /// callout's type mark goes, highlights are unwrapped), then images, links and autolinks,
    /// in this order.
    private static let linkRules: [(expression: NSRegularExpression, template: String)] = [
        (expression(#"\[\^[^\]\s]+\]"#), ""),
        (expression(#"!\[\[[^\]]*\]\]"#), ""),
        (expression(#"\[\[(?:[^\]|]*\|)?([^\]|]+)\]\]"#), "$1"),
        (expression(#"^\[![A-Za-z-]+\][+-]?\s*"#), ""),
        (expression(#"==(?=\S)(.+?)(?<=\S)=="#), "$1"),
        (expression(#"!\[([^\]]*)\]\([^)]*\)"#), "$1"),
        (expression(#"!\[([^\]]*)\]\[[^\]]*\]"#), "$1"),
        (expression(#"\[([^\]]+)\]\((?:[^()\s]|\([^)]*\))*(?:\s+"[^"]*")?\)"#), "$1"),
        (expression(#"\[([^\]]+)\]\[[^\]]*\]"#), "$1"),
        (expression(#"<((?:https?|mailto|ftp):[^>\s]+)>"#), "$1"),
    ]

    /// Tags (`<a id="x">`, `</sup>`, `<br/>`, not comparisons such as "a < b"), then strong,
    /// emphasis and strikethrough, each only with a space or punctuation outside its marks.
    private static let emphasisRules: [(expression: NSRegularExpression, template: String)] = [
        (expression(#"</?[A-Za-z][A-Za-z0-9-]*(?:\s+[^<>]*)?/?>"#), ""),
        (expression(#"(?<![\w*])\*\*(?=\S)(.+?)(?<=\S)\*\*(?![\w*])"#), "$1"),
        (expression(#"(?<![\w_])__(?=\S)(.+?)(?<=\S)__(?![\w_])"#), "$1"),
        (expression(#"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])"#), "$1"),
        (expression(#"(?<![\w_])_(?=[^\s_])(.+?)(?<=[^\s_])_(?![\w_])"#), "$1"),
        (expression(#"~~(?=\S)(.+?)(?<=\S)~~"#), "$1"),
    ]

    /// The characters a backslash escapes, each set aside as a private-use character.
    private static let escapable = Array("\\`*_{}[]()#+-.!|<>~\"'".unicodeScalars)
    private static let escapedAway = Dictionary(
        uniqueKeysWithValues: escapable.enumerated().map { ($1, Unicode.Scalar(0xE000 + UInt32($0))!) })
    private static let escapedBack = Dictionary(uniqueKeysWithValues: escapedAway.map { ($1, $0) })

    private static func replaceEscapes(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var scalars = String.UnicodeScalarView()
        var pending = false
        for scalar in text.unicodeScalars {
            if pending, let away = escapedAway[scalar] {
                scalars.append(away)
            } else {
                if pending { scalars.append("\\") }
                if scalar == "\\", !pending {
                    pending = true
                    continue
                }
                scalars.append(scalar)
            }
            pending = false
        }
        if pending { scalars.append("\\") }
        return String(scalars)
    }

    private static let entities = [
        ("&nbsp;", " "), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&apos;", "'"),
        ("&mdash;", "—"),
        ("&ndash;", "–"), ("&hellip;", "…"), ("&copy;", "©"), ("&amp;", "&"),
    ]

    private static func replace(_ expression: NSRegularExpression, in text: String, with template: String) -> String {
        guard text.contains(where: { "[]<>*_~\\&=".contains($0) }) else { return text }
        return expression.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text),
            withTemplate: template)
    }

    /// Compiled once: each line of a long file is matched against every rule.
    private static func expression(_ pattern: String) -> NSRegularExpression {
        try! NSRegularExpression(pattern: pattern)
    }

    private static func matches(_ expression: NSRegularExpression, _ text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
