import Foundation

/// Main-content extraction in the spirit of Mozilla Readability, on the tree ``HTMLImporter`` builds.
///
/// 1. Chrome goes: `script`, `style`, `noscript`, `nav`, `footer`, `aside`, `form`, `iframe`,
///    `svg` and friends; `header` unless it sits inside an `article`/`main` (where it holds the
///    article's own heading); hidden elements; navigation/banner/complementary/contentinfo roles;
///    "skip to content" links; short bylines (`byline`, `author`, `dateline` in the class or id,
///    `itemprop="author"`); and ("unlikely candidates") elements whose class or id has a chrome
///    token (`comment`, `share`, `social`, `advert`, `promo`, `related`, `sidebar`, `cookie`,
///    `newsletter`, `…nav` …) unless one of their class names is itself a content name (`content`,
///    `main`, `article` …), since wrappers like `class="content has-sidebar"` hold the article, or
///    they hold the article itself (an `h1`, `main`, `itemprop="articleBody"`, `post-body` …: a
///    Blogger post sits in `class="widget Blog"`). A `section`'s id names its heading, not its
///    role, so it is no hint.
/// 2. Every paragraph-like block with 25+ characters scores 1 + its commas + up to 3 for length,
///    added to its parent, half to its grandparent and a sixth to the next level: `p`, `pre`,
///    `td`, `blockquote`, the running text of a `div`/`section` (beside any block children), and
///    list items and definitions that are not mostly links (they score their list's parent, so a
///    how-to's steps count for the container of the steps). A container starts from a tag bonus
///    (`article` +10, `div` +5 …) plus ±25 for positive or negative class/id hints; its final
///    score is scaled by (1 − link density).
/// 3. The best container climbs to an ancestor that holds three of the other near-best
///    candidates, or scores higher itself, and is kept with its siblings that score at least a
///    fifth of it (a sibling with its class name gets a bonus) or are solid prose paragraphs,
///    headings right before a kept sibling, and the article's `h1` when it sits in a header
///    before the content.
/// 4. The kept nodes render as Markdown-like text: headings as `#` lines, list items as `- `
///    lines, simple definition lists one term or definition a line, data-table rows as cells
///    joined by ` | ` (a layout table renders as the blocks it holds), blocks separated by a blank
///    line. Lists, tables and blocks inside the content that are mostly links (tag lists, "read
///    more" lists) are dropped ("conditional cleaning").
/// 5. A result that is too small (under 500 characters and under 60% of the page's prose, or
///    under 30% of its prose outside comment sections) is tried again with relaxed rules, one
///    more relaxed at each step: unlikely candidates kept (but not comment threads, consent
///    banners or share bars), then those too with class/id weighting off, then no conditional
///    cleaning. The first result big enough wins; if none is, the longest. The last resort is the
///    densest block of visible prose; failing all, or when the page has almost no prose (tables
///    of links) and the result is a small part of it, the visible text of the page. "Prose" is
///    text in paragraph-like blocks with 8+ words (20+ characters in scripts written without
///    spaces), outside navigation, header and footer landmarks.
enum ReadableContent {
    typealias Node = HTMLImporter.Node

    /// What an attempt may use; each retry relaxes one more rule.
    struct Rules: Equatable {
        /// Unlikely candidates go; comment threads, consent banners and share bars go while this
        /// or `stripThreads` holds (they are chrome on an article page, the content on a bug tracker).
        var stripUnlikely = true
        var stripThreads = true
        var weighClasses = true
        var cleanConditionally = true

        static let attempts = [
            Rules(),
            Rules(stripUnlikely: false),
            Rules(stripUnlikely: false, stripThreads: false, weighClasses: false),
            Rules(stripUnlikely: false, stripThreads: false, weighClasses: false, cleanConditionally: false),
        ]
        static let relaxed = attempts.last!
    }

    /// Below this many characters a result is retried (Readability's threshold), unless the page has less prose.
    static let minimumLength = 500

    static func extract(from root: Node) -> HTMLImporter.Extraction {
        let title = findTitle(root)
        let body = first(in: root) { $0.name == "body" } ?? root
        // Formulas become their TeX before anything is hidden or scored: MediaWiki hides its
        // MathML. Edit links and reference marks go before anything is measured.
        let formulas = MathML.replaceFormulas(in: body, removing: isDroppedMark)
        let visible = body.copy()
        prune(visible, insideArticle: false, rules: .relaxed)
        measure(visible)
        let prose = Prose(visible)

        var best = Rendered()
        for rules in Rules.attempts {
            let rendered = attempt(body.copy(), rules: rules)
            if prose.isEnough(rendered.text) {
                best = rendered
                break
            }
            if rendered.text.count > best.text.count { best = rendered }
        }
        if !prose.isEnough(best.text), let dense = prose.densestBlock() {
            let rendered = render([dense], rules: Rules())
            if rendered.text.count > best.text.count { best = rendered }
        }
        // A page without prose (tables of links, a download index) is its visible text, not a stray line.
        let littleProse = prose.all < 200 && best.text.count < minimumLength && best.text.count * 2 < visible.textLength
        if best.text.isEmpty || littleProse {
            let rendered = render([visible], rules: .relaxed)
            if rendered.text.count > best.text.count { best = rendered }
        }
        return HTMLImporter.Extraction(blocks: best.blocks, title: title, formulas: formulas)
    }

    /// The blocks an attempt rendered (each flagged when its markup is apparatus) and their text.
    struct Rendered {
        var blocks: [Apparatus.Block] = []
        var text = ""
    }

    /// One pass of pruning, scoring and rendering under `rules`.
    static func attempt(_ body: Node, rules: Rules) -> Rendered {
        prune(body, insideArticle: false, rules: rules)
        measure(body)
        return render(selectContent(body, rules: rules), rules: rules)
    }

    static func render(_ nodes: [Node], rules: Rules) -> Rendered {
        var renderer = Renderer(cleanConditionally: rules.cleanConditionally)
        for node in nodes { renderer.render(node, isTop: true) }
        renderer.flush()
        // A heading at the very end heads nothing: its list was links (texinfo's "Table of
        // Contents" after the manual) or chrome, and went.
        while let last = renderer.blocks.indices.last, renderer.headings.contains(last) {
            renderer.blocks.removeLast()
        }
        let blocks = renderer.blocks.enumerated().map { index, text in
            Apparatus.Block(text: text, isApparatus: renderer.apparatus.contains(index))
        }
        return Rendered(blocks: blocks, text: renderer.blocks.joined(separator: "\n\n"))
    }

    // MARK: - Title

    static func findTitle(_ root: Node) -> String? {
        if let meta = first(in: root, where: {
            $0.name == "meta" && ($0.attribute("property") ?? $0.attribute("name"))?.lowercased() == "og:title"
        }), let content = meta.attribute("content").map(collapse), !content.isEmpty {
            return content
        }
        if let title = first(in: root, where: { $0.name == "title" }).map({ collapse(innerText($0)) }), !title.isEmpty {
            return withoutSiteName(title, root: root)
        }
        if let heading = first(in: root, where: { $0.name == "h1" }).map({ collapse(innerText($0)) }),
            !heading.isEmpty {
            return heading
        }
        return nil
    }

    /// "Events | Node.js v20.20.2 Documentation" is "Events" when the page has a heading
    /// "Events": a `<title>` that ends with the site's name after a separator, and whose part
    /// before the last separator is one of the page's `h1`–`h3`, is that part.
    static func withoutSiteName(_ title: String, root: Node) -> String {
        let separators = [" | ", " — ", " – ", " · ", " - ", " :: "]
        guard let cut = separators.compactMap({ title.range(of: $0,
            options: .backwards) }).max(by: { $0.lowerBound < $1.lowerBound })
        else { return title }
        let front = title[..<cut.lowerBound].trimmingCharacters(in: .whitespaces)
        guard !front.isEmpty else { return title }
        var headings: [String] = []
        var stack = [root]
        while let node = stack.popLast(), headings.count < 20 {
            if ["h1", "h2", "h3"].contains(node.name) {
                // Without a permalink mark at the end ("Events#", "Versions¶").
                var text = collapse(innerText(node))
                while let last = text.last, "#¶§🔗".contains(last) { text.removeLast() }
                headings.append(text.trimmingCharacters(in: .whitespaces))
            } else {
                stack.append(contentsOf: node.children.reversed())
            }
        }
        return headings.contains { $0.caseInsensitiveCompare(front) == .orderedSame } ? front : title
    }

    // MARK: - Pruning

    static let droppedTags: Set<String> = [
        "script", "style", "noscript", "nav", "footer", "aside", "form", "iframe", "svg", "head", "template",
        "button", "input", "select", "textarea", "object", "embed", "canvas", "video", "audio", "dialog",
        "menu", "link", "meta", "title", "img", "picture", "map",
    ]
    static let chromeRoles: Set<String> = [
        "navigation", "banner", "complementary", "contentinfo", "dialog", "alertdialog", "menu", "menubar", "search",
    ]
    /// Tokens (prefix match on a class/id word) that mark site chrome.
    static let chromeTokens = [
        "comment", "share", "sharing", "social", "advert", "ad", "ads", "promo", "related", "sidebar", "cookie",
        "newsletter", "subscribe", "sponsor", "banner", "popup", "modal", "breadcrumb", "widget", "footer",
        "masthead", "navbar", "menu", "disqus", "outbrain", "taboola", "consent", "gdpr", "signup", "paywall",
        "skip",
    ]
    /// Whole class names (or ids) that mark the content wrapper and override a chrome token beside them.
    static let contentNames: Set<String> = [
        "content", "main", "article", "post", "entry", "main-content", "article-body", "post-content",
        "entry-content", "article-content", "story", "story-body", "hentry",
    ]
    /// Class names of an article's own body: an element holding one is never chrome.
    static let articleBodyNames: Set<String> = [
        "post-body", "entry-content", "article-body", "articlebody", "post-content", "article-content",
        "story-body", "article__body", "article__content",
    ]
    static let positiveTokens = [
        "article", "body", "content", "entry", "hentry", "main", "page", "post", "text", "blog", "story",
    ]
    static let negativeTokens = [
        "comment", "share", "social", "advert", "promo", "related", "sidebar", "cookie", "newsletter", "footer",
        "meta", "widget", "sponsor", "banner", "nav", "menu", "tag", "byline", "author",
    ]
    /// How "skip to content" links begin, in a few languages.
    static let skipLinkPrefixes = [
        "skip to", "skip navigation", "jump to", "aller au", "aller à", "passer au", "zum inhalt", "saltar al",
        "ir al contenido", "vai al contenuto", "本文へ", "メインコンテンツ",
    ]

    /// Removes chrome in place.
    static func prune(_ node: Node, insideArticle: Bool, rules: Rules) {
        let inside = insideArticle || node.name == "article" || node.name == "main"
        node.children.removeAll { child in
            guard !child.isText else { return false }
            return isChrome(child, insideArticle: inside, rules: rules)
        }
        for child in node.children where !child.isText { prune(child, insideArticle: inside, rules: rules) }
    }

    static func isChrome(_ node: Node, insideArticle: Bool, rules: Rules) -> Bool {
        if droppedTags.contains(node.name) { return true }
        if node.name == "header" && !insideArticle { return true }
        if node.attribute("hidden") != nil || node.attribute("aria-hidden")?.lowercased() == "true" { return true }
        if let style = node.attribute("style")?.lowercased().filter({ !$0.isWhitespace }),
            style.contains("display:none") || style.contains("visibility:hidden")
        {
            return true
        }
        if let role = node.attribute("role")?.lowercased(), chromeRoles.contains(role) { return true }
        if node.name == "a" && (isSkipLink(node) || isPermalink(node)) { return true }
        if ["html", "body", "article", "main"].contains(node.name) { return false }
        let names = hintNames(node)
        if isByline(node, names: names) || isReleaseMetadata(node, names: names) { return true }
        // Texinfo's heading for a node without a section of its own ("Top"): a node name for
        // its navigation, not a section of the manual.
        if isHeading(node), names.contains("node-heading") { return true }
        if isCaption(node, names: names) { return true }
        // A manual's boxed aside (DocBook's VOCABULARY or BACK TO BASICS sidebar, a note or a
        // tip) is the author's text, often its best definition: "sidebar" names its layout here.
        if box(node) != nil { return false }
        guard rules.stripUnlikely || rules.stripThreads else { return false }
        if names.contains(where: { contentNames.contains($0) }) { return false }
        let hints = words(of: names)
        let chrome = rules.stripUnlikely ? hints.contains(where: isChromeWord) : hints.contains(where: isThreadWord)
        return chrome && !holdsArticle(node)
    }

    /// The label of an example, figure or table ("Example 6.1. Example entry format in
    /// /etc/apt/sources.list", DocBook's `p.title` in a `div.example`; Sphinx's
    /// `code-block-caption`): it names what it labels and says nothing, so it is no sentence of
    /// the text (the split made "/etc/apt/sources.list file for users of Debian Stable." a key point).
    static func isCaption(_ node: Node, names: [String]) -> Bool {
        if node.name == "div", names.contains("code-block-caption") { return true }
        guard node.name == "p", names.contains("title"), let parent = node.parent else { return false }
        return hintNames(parent).contains { formalObjects.contains($0) }
    }

    // MARK: - Tree helpers

    static func first(in node: Node, where predicate: (Node) -> Bool) -> Node? {
        var stack = [node]
        while let current = stack.popLast() {
            if predicate(current) { return current }
            stack.append(contentsOf: current.children.reversed())
        }
        return nil
    }

    /// The text of a subtree without its code blocks (a `pre` that is no prose), which go to
    /// `code` fenced, in order.
    static func innerText(_ node: Node, settingApart code: inout [String]) -> String {
        if node.name == "pre", !isPreformattedProse(node) {
            if let block = preformattedBlock(node) { code.append(block) }
            return " "
        }
        guard !node.isText, node.name != "br",
            first(in: node, where: { $0.name == "pre" }) != nil else { return innerText(node) }
        var out = ""
        for child in node.children { out += innerText(child, settingApart: &code) }
        return node.isBlock ? " " + out + " " : out
    }

    /// The text of a subtree; `<br>` counts as a space here.
    static func innerText(_ node: Node) -> String {
        if node.isText { return node.text }
        if node.name == "br" { return "\n" }
        var out = ""
        for child in node.children { out += innerText(child) }
        if node.isBlock { out = " " + out + " " }
        return out
    }

    /// Whitespace runs to one space, trimmed.
    static func collapse(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
