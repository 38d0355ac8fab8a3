import Foundation

/// Main-content extraction in the spirit of Mozilla Readability, on the tree ``HTMLImporter`` builds.
///
/// 1. Chrome goes: `script`, `style`, `noscript`, `nav`, `footer`, `aside`, `form`, `iframe`,
///    `svg` and friends; `header` unless it sits inside an `article`/`main` (where it holds the
///    article's own heading); hidden elements; navigation/banner/complementary/contentinfo roles;
///    and elements whose class or id has a chrome token (`comment`, `share`, `social`, `advert`,
///    `promo`, `related`, `sidebar`, `cookie`, `newsletter` …) unless one of their class names is
///    itself a content name (`content`, `main`, `article` …), since wrappers like
///    `class="content has-sidebar"` hold the article.
/// 2. Every paragraph-like block with 25+ characters scores 1 + its commas + up to 3 for length,
///    added to its parent, half to its grandparent and a third to the next level. A container
///    starts from a tag bonus (`article`/`main` +25, `div` +5 …) plus ±25 for positive or negative
///    class/id hints; its final score is scaled by (1 − link density).
/// 3. The best container is kept with its siblings that score at least a fifth of it (or are
///    solid prose paragraphs), and headings right before a kept sibling.
/// 4. The kept nodes render as Markdown-like text: headings as `#` lines, list items as
///    `- ` lines, table rows as cells joined by ` | `, blocks separated by a blank line.
enum ReadableContent {
    typealias Node = HTMLImporter.Node

    static func extract(from root: Node) -> HTMLImporter.Extraction {
        let title = findTitle(root)
        let body = first(in: root) { $0.name == "body" } ?? root
        prune(body, insideArticle: false)
        measure(body)
        let kept = selectContent(body)
        var renderer = Renderer()
        for node in kept { renderer.render(node, isTop: true) }
        renderer.flush()
        return HTMLImporter.Extraction(text: renderer.blocks.joined(separator: "\n\n"), title: title)
    }

    // MARK: - Title

    private static func findTitle(_ root: Node) -> String? {
        if let meta = first(in: root, where: {
            $0.name == "meta" && ($0.attribute("property") ?? $0.attribute("name"))?.lowercased() == "og:title"
        }), let content = meta.attribute("content").map(collapse), !content.isEmpty {
            return content
        }
        if let title = first(in: root, where: { $0.name == "title" }).map({ collapse(innerText($0)) }), !title.isEmpty {
            return title
        }
        if let heading = first(in: root, where: { $0.name == "h1" }).map({ collapse(innerText($0)) }), !heading.isEmpty {
            return heading
        }
        return nil
    }

    // MARK: - Pruning

    private static let droppedTags: Set<String> = [
        "script", "style", "noscript", "nav", "footer", "aside", "form", "iframe", "svg", "head", "template",
        "button", "input", "select", "textarea", "object", "embed", "canvas", "video", "audio", "dialog",
        "menu", "link", "meta", "title", "img", "picture", "map",
    ]
    private static let chromeRoles: Set<String> = [
        "navigation", "banner", "complementary", "contentinfo", "dialog", "alertdialog", "menu", "menubar", "search",
    ]
    /// Tokens (prefix match on a class/id word) that mark site chrome.
    private static let chromeTokens = [
        "comment", "share", "sharing", "social", "advert", "ad", "ads", "promo", "related", "sidebar", "cookie",
        "newsletter", "subscribe", "sponsor", "banner", "popup", "modal", "breadcrumb", "widget", "footer",
        "masthead", "navbar", "menu", "disqus", "outbrain", "taboola", "consent", "gdpr", "signup", "paywall",
    ]
    /// Whole class names (or ids) that mark the content wrapper and override a chrome token beside them.
    private static let contentNames: Set<String> = [
        "content", "main", "article", "post", "entry", "main-content", "article-body", "post-content",
        "entry-content", "article-content", "story", "story-body", "hentry",
    ]
    private static let positiveTokens = [
        "article", "body", "content", "entry", "hentry", "main", "page", "post", "text", "blog", "story",
    ]
    private static let negativeTokens = [
        "comment", "share", "social", "advert", "promo", "related", "sidebar", "cookie", "newsletter", "footer",
        "meta", "widget", "sponsor", "banner", "nav", "menu", "tag", "byline", "author",
    ]

    /// Removes chrome in place.
    private static func prune(_ node: Node, insideArticle: Bool) {
        let inside = insideArticle || node.name == "article" || node.name == "main"
        node.children.removeAll { child in
            guard !child.isText else { return false }
            return isChrome(child, insideArticle: inside)
        }
        for child in node.children where !child.isText { prune(child, insideArticle: inside) }
    }

    private static func isChrome(_ node: Node, insideArticle: Bool) -> Bool {
        if droppedTags.contains(node.name) { return true }
        if node.name == "header" && !insideArticle { return true }
        if node.attribute("hidden") != nil || node.attribute("aria-hidden")?.lowercased() == "true" { return true }
        if let style = node.attribute("style")?.lowercased().filter({ !$0.isWhitespace }),
            style.contains("display:none") || style.contains("visibility:hidden")
        {
            return true
        }
        if let role = node.attribute("role")?.lowercased(), chromeRoles.contains(role) { return true }
        if ["html", "body", "article", "main"].contains(node.name) { return false }
        let names = hintNames(node)
        if names.contains(where: { contentNames.contains($0) }) { return false }
        return words(of: names).contains { word in chromeTokens.contains { hint in matches(word, hint) } }
    }

    /// Class names and the id, lower-cased.
    private static func hintNames(_ node: Node) -> [String] {
        var names = (node.attribute("class") ?? "").lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        if let id = node.attribute("id")?.lowercased(), !id.isEmpty { names.append(id) }
        return names
    }

    /// The words of class names and ids, split at anything not a letter or digit (`share-buttons` → `share`, `buttons`).
    private static func words(of names: [String]) -> [String] {
        names.flatMap { $0.split { !$0.isLetter && !$0.isNumber }.map(String.init) }
    }

    /// `ad` and `ads` must match whole words (not `header`, `loading`); longer hints match as prefixes (`comments`).
    private static func matches(_ word: String, _ hint: String) -> Bool {
        hint.count <= 3 ? word == hint : word.hasPrefix(hint)
    }

    // MARK: - Scoring

    /// Fills text length, link text length and commas for every node, bottom-up.
    @discardableResult
    private static func measure(_ node: Node) -> (Int, Int, Int) {
        if node.isText {
            let collapsed = collapse(node.text)
            node.textLength = collapsed.count
            node.commas = collapsed.reduce(0) { $0 + ($1 == "," || $1 == "，" ? 1 : 0) }
            return (node.textLength, 0, node.commas)
        }
        var text = 0, links = 0, commas = 0
        for child in node.children {
            let (t, l, c) = measure(child)
            text += t
            links += l
            commas += c
        }
        if node.name == "a" { links = text }
        node.textLength = text
        node.linkLength = links
        node.commas = commas
        return (text, links, commas)
    }

    private static func linkDensity(_ node: Node) -> Double {
        node.textLength == 0 ? 0 : Double(node.linkLength) / Double(node.textLength)
    }

    private static let blockTags: Set<String> = [
        "p", "div", "section", "article", "main", "blockquote", "pre", "ul", "ol", "li", "table", "tr", "td", "th",
        "h1", "h2", "h3", "h4", "h5", "h6", "figure", "figcaption", "dl", "dt", "dd", "header", "address",
        "details", "summary", "hr", "tbody", "thead", "tfoot", "center",
    ]

    private static func isParagraphLike(_ node: Node) -> Bool {
        switch node.name {
        case "p", "pre", "td", "blockquote": return true
        case "div", "section": return !node.children.contains { !$0.isText && blockTags.contains($0.name) }
        default: return false
        }
    }

    private static func initialScore(_ node: Node) -> Double {
        var score: Double
        switch node.name {
        case "article", "main": score = 25
        case "div": score = 5
        case "pre", "td", "blockquote": score = 3
        case "address", "ol", "ul", "dl", "dd", "dt", "li", "form": score = -3
        case "h1", "h2", "h3", "h4", "h5", "h6", "th": score = -5
        default: score = 0
        }
        let wordsOfNode = words(of: hintNames(node))
        if wordsOfNode.contains(where: { word in positiveTokens.contains { matches(word, $0) } }) { score += 25 }
        if wordsOfNode.contains(where: { word in negativeTokens.contains { matches(word, $0) } }) { score -= 25 }
        return score
    }

    /// Scores candidates and returns the nodes to render, in document order.
    private static func selectContent(_ body: Node) -> [Node] {
        var candidates: [Node] = []
        var stack = [body]
        while let node = stack.popLast() {
            for child in node.children.reversed() where !child.isText { stack.append(child) }
            guard node !== body, isParagraphLike(node), node.textLength >= 25 else { continue }
            let contentScore = 1 + Double(node.commas) + min(3, Double(node.textLength / 100))
            var ancestor = node.parent
            var level = 0
            while let current = ancestor, level < 3 {
                if current.score == nil {
                    current.score = initialScore(current)
                    candidates.append(current)
                }
                let divider: Double = level == 0 ? 1 : (level == 1 ? 2 : Double(level * 3))
                current.score! += contentScore / divider
                if current === body { break }
                ancestor = current.parent
                level += 1
            }
        }
        var best: Node? = nil
        var bestScore = -Double.infinity
        for candidate in candidates {
            let final = (candidate.score ?? 0) * (1 - linkDensity(candidate))
            candidate.score = final
            if final > bestScore {
                best = candidate
                bestScore = final
            }
        }
        guard let top = best, top !== body, let parent = top.parent else { return [body] }

        let threshold = max(10, bestScore * 0.2)
        let siblings = parent.children
        var keep = siblings.map { sibling -> Bool in
            if sibling === top { return true }
            if sibling.isText { return false }
            if let score = sibling.score, score >= threshold { return true }
            if sibling.name == "p" {
                let density = linkDensity(sibling)
                if sibling.textLength > 80 && density < 0.25 { return true }
                let text = collapse(innerText(sibling))
                if sibling.textLength > 0 && density == 0 && text.hasSuffix(".") { return true }
            }
            return false
        }
        // A heading just before kept content is its heading.
        for index in siblings.indices.reversed() where !keep[index] && isHeading(siblings[index]) {
            if let next = siblings[(index + 1)...].firstIndex(where: { !$0.isText }), keep[next] { keep[index] = true }
        }
        return siblings.indices.filter { keep[$0] }.map { siblings[$0] }
    }

    static func isHeading(_ node: Node) -> Bool {
        node.name.count == 2 && node.name.first == "h" && ("1"..."6").contains(node.name.last!)
    }

    // MARK: - Rendering

    /// Turns kept nodes into blocks of text.
    private struct Renderer {
        var blocks: [String] = []
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
            if !isTop, ["ul", "ol", "div", "section", "table", "dl"].contains(node.name), node.textLength > 0,
                ReadableContent.linkDensity(node) > 0.5
            {
                return  // link farms inside the article: tag lists, "read more" lists
            }
            switch node.name {
            case "h1", "h2", "h3", "h4", "h5", "h6":
                flush()
                let level = Int(String(node.name.last!)) ?? 2
                let text = collapse(innerText(node))
                if !text.isEmpty { blocks.append(String(repeating: "#", count: level) + " " + text) }
            case "ul", "ol":
                flush()
                var lines: [String] = []
                collectItems(node, into: &lines)
                if !lines.isEmpty { blocks.append(lines.joined(separator: "\n")) }
            case "table":
                flush()
                var rows: [String] = []
                collectRows(node, into: &rows)
                if !rows.isEmpty { blocks.append(rows.joined(separator: "\n")) }
            case "pre":
                flush()
                let text = innerText(node).trimmingCharacters(in: .newlines)
                if !text.isEmpty { blocks.append(text) }
            case "br":
                current += "\n"
            case "hr":
                flush()
            default:
                let isBlock = blockTags.contains(node.name)
                if isBlock { flush() }
                for child in node.children { render(child) }
                if isBlock { flush() }
            }
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
                for child in item.children where child.name != "ul" && child.name != "ol" {
                    own += innerText(child)
                }
                let text = collapse(own)
                if !text.isEmpty { lines.append("- " + text) }
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

    // MARK: - Tree helpers

    private static func first(in node: Node, where predicate: (Node) -> Bool) -> Node? {
        var stack = [node]
        while let current = stack.popLast() {
            if predicate(current) { return current }
            stack.append(contentsOf: current.children.reversed())
        }
        return nil
    }

    /// The text of a subtree; `<br>` counts as a space here.
    fileprivate static func innerText(_ node: Node) -> String {
        if node.isText { return node.text }
        if node.name == "br" { return "\n" }
        var out = ""
        for child in node.children { out += innerText(child) }
        if blockTags.contains(node.name) { out = " " + out + " " }
        return out
    }

    /// Whitespace runs to one space, trimmed.
    fileprivate static func collapse(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
