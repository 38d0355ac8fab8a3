import Foundation

// ReadableContent's rendering: the kept nodes as Markdown-like text (headings, lists, simple
// definition lists, data tables, preformatted blocks).

extension ReadableContent {
    // MARK: - Rendering

    /// Turns kept nodes into blocks of text.
    struct Renderer {
        /// Whether lists, tables and blocks that are mostly links are dropped.
        let cleanConditionally: Bool
        var blocks: [String] = []
        /// Indices in `blocks` of the headings.
        var headings = Set<Int>()
        /// Indices in `blocks` of what the markup says is apparatus (``isApparatusMarkup(_:)``).
        var apparatus = Set<Int>()
        /// Whether the node being rendered lies inside apparatus markup.
        var inApparatus = false
        var current = ""

        mutating func flush() {
            let text = current.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .joined(separator: "\n")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty { blocks.append(text) }
            current = ""
        }

        mutating func render(_ node: Node, isTop: Bool = false) {
            if node.isText {
                appendInline(node.text)
                return
            }
            if cleanConditionally, !isTop, ["ul", "ol", "div", "section", "table", "dl"].contains(node.name),
                node.textLength > 0, ReadableContent.linkDensity(node) > 0.5, !ReadableContent.holdsProse(node)
            {
                return  // link farms inside the article: tag lists, "read more" lists
            }
            if !inApparatus, ReadableContent.isApparatusMarkup(node) {
                flush()
                let start = blocks.count
                inApparatus = true
                renderElement(node)
                flush()
                inApparatus = false
                apparatus.formUnion(start..<blocks.count)
                return
            }
            renderElement(node)
        }

        private mutating func renderElement(_ node: Node) {
            switch node.name {
            case "h1", "h2", "h3", "h4", "h5", "h6":
                flush()
                let level = Int(String(node.name.last!)) ?? 2
                let text = collapse(innerText(node))
                if !text.isEmpty {
                    headings.insert(blocks.count)
                    blocks.append(String(repeating: "#", count: level) + " " + text)
                }
            case "ul", "ol":
                flush()
                var lines: [String] = []
                collectItems(node, into: &lines)
                if !lines.isEmpty { blocks.append(lines.joined(separator: "\n")) }
            case "table" where ReadableContent.isLayoutTable(node):
                flush()
                for child in node.children { render(child) }
                flush()
            case "dl" where !ReadableContent.isSimple(node):
                renderDefinitions(node)
            case "dl":
                flush()
                let lines = node.children.filter { $0.name == "dt" || $0.name == "dd" }
                    .map { collapse(innerText($0)) }.filter { !$0.isEmpty }
                if !lines.isEmpty { blocks.append(lines.joined(separator: "\n")) }
            case "table":
                flush()
                var rows: [String] = []
                collectRows(node, into: &rows)
                if !rows.isEmpty { blocks.append(rows.joined(separator: "\n")) }
            case "div" where ReadableContent.box(node) != nil:
                renderBox(node, title: ReadableContent.box(node)!)
            case "pre":
                flush()
                if let block = ReadableContent.preformattedBlock(node) { blocks.append(block) }
            case "br":
                current += "\n"
            case "hr":
                flush()
            default:
                let isBlock = node.isBlock
                if isBlock { flush() }
                for child in node.children { render(child) }
                if isBlock { flush() }
            }
        }

        /// A definition list whose definitions hold paragraphs (DocBook's `variablelist`, Sphinx's
        /// field lists and API entries): each term joins the first paragraph of its definition
        /// ("deb: package source of binary packages", "Author: …", "list.append(x): Add an item
        /// …"), so neither is a fragment on its own; the definition's other blocks follow.
        private mutating func renderDefinitions(_ list: Node) {
            flush()
            var term: String? = nil
            func putTerm(_ blocks: inout [String]) {
                if let pending = term, !pending.isEmpty { blocks.append(pending) }
                term = nil
            }
            for child in list.children where !child.isText {
                if child.name == "dt" {
                    putTerm(&blocks)
                    term = collapse(innerText(child))
                    continue
                }
                let parts = child.children.filter { !$0.isText || !$0.text.allSatisfy(\.isWhitespace) }
                if child.name == "dd", let pending = term, !pending.isEmpty, let lead = parts.first, !lead.isText,
                    lead.name == "p" || lead.name == "div", !lead.children.contains(where: \.isBlock)
                {
                    let definition = collapse(innerText(lead))
                    if !definition.isEmpty {
                        blocks.append(pending + (pending.hasSuffix(":") ? " " : ": ") + definition)
                        term = nil
                        for rest in parts.dropFirst() { render(rest) }
                        flush()
                        continue
                    }
                }
                putTerm(&blocks)
                render(child)
                flush()
            }
            putTerm(&blocks)
        }

        /// A boxed aside as running text, never as a heading (the outline and the mind map get no
        /// "TIP" or "VOCABULARY" branch): its title, without the kind label, leads its first
        /// paragraph ("Source package: A source package is …"), so the sentence names the term it
        /// defines; a title before anything else (a list, code) is a line of its own ending in `:`.
        private mutating func renderBox(_ box: Node, title: Node) {
            flush()
            var lead = ReadableContent.boxTitle(title)
            for child in box.children where child !== title {
                if !lead.isEmpty, !child.isText || !child.text.allSatisfy(\.isWhitespace) {
                    if !child.isText, child.name == "p" || child.name == "div",
                        !child.children.contains(where: \.isBlock) {
                        let paragraph = collapse(innerText(child))
                        if paragraph.isEmpty { continue }
                        blocks.append(lead + (lead.last.map { ".:?!".contains($0) } == true ? " " : ": ") + paragraph)
                        lead = ""
                        continue
                    }
                    if child.isBlock {
                        blocks.append(lead.last.map { ".:?!".contains($0) } == true ? lead : lead + ":")
                        lead = ""
                    }
                }
                render(child)
            }
            flush()
            if !lead.isEmpty { blocks.append(lead) }
        }

        private mutating func appendInline(_ raw: String) {
            var pendingSpace = raw.first?.isWhitespace == true
            for word in raw.split(whereSeparator: { $0.isWhitespace }) {
                if pendingSpace, let last = current.last, !last.isWhitespace { current += " " }
                current += word
                pendingSpace = true
            }
            if raw.last?.isWhitespace == true, let last = current.last, !last.isWhitespace { current += " " }
        }

        private func collectItems(_ list: Node, into lines: inout [String]) {
            for item in list.children where item.name == "li" {
                var own = ""
                var code: [String] = []
                for child in item.children where child.name != "ul" && child.name != "ol" {
                    own += ReadableContent.innerText(child, settingApart: &code)
                }
                let text = collapse(own)
                if !text.isEmpty { lines.append("- " + text) }
                // An example inside the item (Valgrind's monitor commands) follows it, fenced:
                // run into the item's line, program output would read as its sentences.
                lines.append(contentsOf: code)
                for nested in item.children where nested.name == "ul" || nested.name == "ol" {
                    collectItems(nested, into: &lines)
                }
            }
        }

        private func collectRows(_ node: Node, into rows: inout [String]) {
            for child in node.children where !child.isText {
                if child.name == "tr" {
                    let cells = child.children.filter { $0.name == "td" || $0.name == "th" }
                        .map { collapse(innerText($0)) }.filter { !$0.isEmpty }
                    if !cells.isEmpty { rows.append(cells.joined(separator: " | ")) }
                } else if child.name != "table" {
                    collectRows(child, into: &rows)
                }
            }
        }
    }

    /// A `pre` as a block of the text: code fenced (```` ``` ```` lines), prose as it is; `nil` when empty.
    static func preformattedBlock(_ pre: Node) -> String? {
        let text = preformattedText(pre).trimmingCharacters(in: .newlines)
        guard !text.isEmpty else { return nil }
        return isPreformattedProse(pre) ? text : "```\n" + text + "\n```"
    }

    /// A `pre`'s text, where each `code` that follows another starts a line: Node.js puts an
    /// example's ES-module and CommonJS forms side by side in one `pre`, one shown at a time.
    static func preformattedText(_ pre: Node) -> String {
        var out = ""
        var previousWasCode = false
        for child in pre.children {
            if child.name == "code", previousWasCode, out.last != "\n" { out += "\n" }
            out += innerText(child)
            if !child.isText || !child.text.allSatisfy(\.isWhitespace) { previousWasCode = child.name == "code" }
        }
        return out
    }

    /// A `pre` of running text set line by line (texinfo's `@display` and `@format`, DocBook's
    /// literal layout, verse, a bug tracker's comment text, or a bare `pre` whose lines are
    /// mostly sentences and not code), which reads as prose; any other
    /// `pre` holds code or program output and renders fenced (```` ``` ````), so the sentence
    /// splitter keeps it apart.
    static func isPreformattedProse(_ pre: Node) -> Bool {
        if words(of: hintNames(pre)).contains(where: preformattedProseWords.contains) { return true }
        // A bare `pre` (no class, no `code` inside) of sentences: a page set in `pre`.
        guard pre.attribute("class") == nil, !pre.children.contains(where: { $0.name == "code" }) else { return false }
        let lines =
            innerText(pre).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let sentences = lines.count { line in line.last.map { ".?!".contains($0) } == true && line.contains(" ") }
        return !lines.isEmpty && sentences * 2 >= lines.count && !CodeText.isCode(lines: lines)
    }

    static let preformattedProseWords: Set<String> = [
        "display", "format", "literallayout", "verse", "poem", "poetry", "comment", "text", "prose",
    ]

    /// A table used for layout: marked so, holding a nested table or a heading, or with a cell of
    /// several blocks or of long running text. (A data table's cell may wrap its text in one `p`.)
    static func isLayoutTable(_ table: Node) -> Bool {
        if table.attribute("role")?.lowercased() == "presentation" { return true }
        let blocks: Set<String> = ["p", "div", "ul", "ol", "dl", "blockquote", "pre", "section"]
        return first(in: table) { node in
            guard node !== table else { return false }
            if node.name == "table" || isHeading(node) { return true }
            guard node.name == "td" || node.name == "th" else { return false }
            return node.textLength > 400 || node.children.filter { blocks.contains($0.name) }.count > 1
        } != nil
    }

    /// A definition list whose terms and definitions are single runs of text (a glossary, not API reference).
    static func isSimple(_ list: Node) -> Bool {
        let structural: Set<String> = ["p", "div", "ul", "ol", "dl", "table", "pre", "blockquote", "section"]
        return list.children.allSatisfy { item in
            item.isText || first(in: item) { $0 !== item && structural.contains($0.name) } == nil
        }
    }
}
