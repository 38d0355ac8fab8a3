import Foundation

// ReadableContent's boxed asides (sidebars, notes, admonitions) and the hint words it reads in
// class names and ids: chrome, bylines, release metadata, skip links and permalinks.

extension ReadableContent {
    // MARK: - Boxed asides

    /// A manual's boxed aside: a DocBook `sidebar` or admonition (`note`, `tip`, `warning`,
    /// `caution`, `important`) whose first element is its title (`div.titlepage`, or a
    /// `.title` paragraph or heading; an empty anchor before it counts for nothing). Returns the title element; `nil`
    /// for any other node, so a web page's `div.sidebar` of links (no title element first) is chrome as before.
    static func box(_ node: Node) -> Node? {
        guard node.name == "div" || node.name == "aside" else { return nil }
        let classes = (node.attribute("class") ?? "").lowercased().split(whereSeparator: \.isWhitespace)
        guard classes.contains(where: { boxClasses.contains(String($0)) }),
            let head = node.children.first(where: { !$0.isText
                && !($0.name == "a" && collapse(innerText($0)).isEmpty) })
        else { return nil }
        let headClasses = (head.attribute("class") ?? "").lowercased().split(whereSeparator: \.isWhitespace)
        return headClasses.contains("titlepage") || headClasses.contains("title") ? head : nil
    }

    static let boxClasses: Set<String> = ["sidebar", "note", "tip", "warning", "caution", "important", "admonition"]

    /// A box's title without its kind label: "VOCABULARY Source package" → "Source package" (the
    /// label is the title's leading emphasis in capitals, as DocBook's handbook sets it); a title
    /// that is nothing but its kind ("Note", "Warning") gives "".
    static func boxTitle(_ title: Node) -> String {
        let text = collapse(innerText(title))
        if boxKinds.contains(text.lowercased()) { return "" }
        let label = first(in: title) { node in
            guard ["em", "i", "b", "strong", "span"].contains(node.name) else { return false }
            let inner = collapse(innerText(node))
            return inner != text && text.hasPrefix(inner) && inner.contains(where: \.isLetter)
                && inner == inner.uppercased()
        }.map { collapse(innerText($0)) }
        guard let label else { return text }
        return text.dropFirst(label.count).trimmingCharacters(in: .whitespaces)
    }

    static let boxKinds: Set<String> = ["note", "tip", "warning", "caution", "important", "hint", "sidebar"]

    static let formalObjects: Set<String> = ["example", "informalexample", "figure", "informalfigure", "table",
        "equation", "procedure"]

    /// Comment threads, consent banners and share bars: chrome on any page that is not about them.
    static let threadTokens = ["comment", "disqus", "cookie", "consent", "gdpr", "share", "sharing", "social"]

    static func isThreadWord(_ word: String) -> Bool {
        threadTokens.contains { word.hasPrefix($0) }
    }

    static func isChromeWord(_ word: String) -> Bool {
        chromeTokens.contains { matches(word, $0) } || (word.count > 3 && word.hasSuffix("nav"))
    }

    /// A short element that names the author or the date line (`class="byline"`, `itemprop="author"`
    /// …): it is metadata, and never the article.
    static func isByline(_ node: Node, names: [String]) -> Bool {
        // A heading is a section's title even when it names an author (mom's `AUTHOR` macro).
        if isHeading(node) { return false }
        let marked = node.attribute("itemprop")?.lowercased() == "author"
            || words(of: names).contains { word in bylineTokens.contains { word.hasPrefix($0) } }
        return marked && TextStats(innerText(node)).length < 100
    }

    static let bylineTokens = ["byline", "dateline", "writtenby", "author"]

    /// A short block of facts about the software's releases rather than the subject: API
    /// reference's version history and status banner (Node.js's `api_metadata` with "Added in:
    /// v0.1.26" and its "History" table of versions and changes, `api_stability` with
    /// "Stability: 2 - Stable"), a `changelog`. Each would be a heading, a branch or a card.
    static func isReleaseMetadata(_ node: Node, names: [String]) -> Bool {
        words(of: names).contains { releaseMetadataWords.contains($0) }
            && TextStats(innerText(node)).length < 1_000 && !holdsArticle(node)
    }

    static let releaseMetadataWords: Set<String> = ["metadata", "changelog", "stability"]

    static func isSkipLink(_ node: Node) -> Bool {
        let text = collapse(innerText(node)).lowercased()
        return text.count < 50 && skipLinkPrefixes.contains { text.hasPrefix($0) }
    }

    /// A heading's permalink, such as Sphinx's `<a class="headerlink" href="#id">¶</a>`: a mark
    /// of the page, not of the text (it would end every heading with "¶").
    static func isPermalink(_ node: Node) -> Bool {
        if hintNames(node).contains(where: { ["headerlink", "anchorlink", "anchor-link", "heading-anchor",
            "permalink"].contains($0) }) {
            return true
        }
        guard node.attribute("href")?.hasPrefix("#") == true else { return false }
        return ["¶", "#", "§", "🔗"].contains(collapse(innerText(node)))
    }

    /// Whether a subtree holds the article itself: chrome by its class must not take the article with it.
    static func holdsArticle(_ node: Node) -> Bool {
        first(in: node) { inner in
            guard inner !== node, !inner.isText else { return false }
            if inner.name == "h1" || inner.name == "main" { return true }
            if inner.attribute("itemprop")?.lowercased().contains("articlebody") == true { return true }
            return hintNames(inner).contains { articleBodyNames.contains($0) }
        } != nil
    }

    /// Class names and the id, lower-cased; a section's id is left out (it is its heading's anchor).
    static func hintNames(_ node: Node) -> [String] {
        var names = (node.attribute("class") ?? "").lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        if let id = node.attribute("id")?.lowercased(), !id.isEmpty, node.name != "section",
            !names.contains("section") {
            names.append(id)
        }
        return names
    }

    /// The words of class names and ids, split at anything not a letter or digit (`share-buttons` → `share`,
    /// `buttons`).
    static func words(of names: [String]) -> [String] {
        names.flatMap { $0.split { !$0.isLetter && !$0.isNumber }.map(String.init) }
    }

    /// `ad` and `ads` must match whole words (not `header`, `loading`); longer hints match as prefixes (`comments`).
    static func matches(_ word: String, _ hint: String) -> Bool {
        hint.count <= 3 ? word == hint : word.hasPrefix(hint)
    }
}
