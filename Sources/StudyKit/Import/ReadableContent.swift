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

    private static func render(_ nodes: [Node], rules: Rules) -> Rendered {
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

    private static func findTitle(_ root: Node) -> String? {
        if let meta = first(in: root, where: {
            $0.name == "meta" && ($0.attribute("property") ?? $0.attribute("name"))?.lowercased() == "og:title"
        }), let content = meta.attribute("content").map(collapse), !content.isEmpty {
            return content
        }
        if let title = first(in: root, where: { $0.name == "title" }).map({ collapse(innerText($0)) }), !title.isEmpty {
            return withoutSiteName(title, root: root)
        }
        if let heading = first(in: root, where: { $0.name == "h1" }).map({ collapse(innerText($0)) }), !heading.isEmpty {
            return heading
        }
        return nil
    }

    /// "Events | Node.js v20.20.2 Documentation" is "Events" when the page has a heading
    /// "Events": a `<title>` that ends with the site's name after a separator, and whose part
    /// before the last separator is one of the page's `h1`–`h3`, is that part.
    private static func withoutSiteName(_ title: String, root: Node) -> String {
        let separators = [" | ", " — ", " – ", " · ", " - ", " :: "]
        guard let cut = separators.compactMap({ title.range(of: $0, options: .backwards) }).max(by: { $0.lowerBound < $1.lowerBound })
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
        "skip",
    ]
    /// Whole class names (or ids) that mark the content wrapper and override a chrome token beside them.
    private static let contentNames: Set<String> = [
        "content", "main", "article", "post", "entry", "main-content", "article-body", "post-content",
        "entry-content", "article-content", "story", "story-body", "hentry",
    ]
    /// Class names of an article's own body: an element holding one is never chrome.
    private static let articleBodyNames: Set<String> = [
        "post-body", "entry-content", "article-body", "articlebody", "post-content", "article-content",
        "story-body", "article__body", "article__content",
    ]
    private static let positiveTokens = [
        "article", "body", "content", "entry", "hentry", "main", "page", "post", "text", "blog", "story",
    ]
    private static let negativeTokens = [
        "comment", "share", "social", "advert", "promo", "related", "sidebar", "cookie", "newsletter", "footer",
        "meta", "widget", "sponsor", "banner", "nav", "menu", "tag", "byline", "author",
    ]
    /// How "skip to content" links begin, in a few languages.
    private static let skipLinkPrefixes = [
        "skip to", "skip navigation", "jump to", "aller au", "aller à", "passer au", "zum inhalt", "saltar al",
        "ir al contenido", "vai al contenuto", "本文へ", "メインコンテンツ",
    ]

    /// Removes chrome in place.
    private static func prune(_ node: Node, insideArticle: Bool, rules: Rules) {
        let inside = insideArticle || node.name == "article" || node.name == "main"
        node.children.removeAll { child in
            guard !child.isText else { return false }
            return isChrome(child, insideArticle: inside, rules: rules)
        }
        for child in node.children where !child.isText { prune(child, insideArticle: inside, rules: rules) }
    }

    private static func isChrome(_ node: Node, insideArticle: Bool, rules: Rules) -> Bool {
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
    private static func isCaption(_ node: Node, names: [String]) -> Bool {
        if node.name == "div", names.contains("code-block-caption") { return true }
        guard node.name == "p", names.contains("title"), let parent = node.parent else { return false }
        return hintNames(parent).contains { formalObjects.contains($0) }
    }

    // MARK: - Boxed asides

    /// A manual's boxed aside: a DocBook `sidebar` or admonition (`note`, `tip`, `warning`,
    /// `caution`, `important`) whose first element is its title (`div.titlepage`, or a
    /// `.title` paragraph or heading; an empty anchor before it counts for nothing). Returns the title element; `nil` for any other node, so a
    /// web page's `div.sidebar` of links (no title element first) is chrome as before.
    static func box(_ node: Node) -> Node? {
        guard node.name == "div" || node.name == "aside" else { return nil }
        let classes = (node.attribute("class") ?? "").lowercased().split(whereSeparator: \.isWhitespace)
        guard classes.contains(where: { boxClasses.contains(String($0)) }),
            let head = node.children.first(where: { !$0.isText && !($0.name == "a" && collapse(innerText($0)).isEmpty) })
        else { return nil }
        let headClasses = (head.attribute("class") ?? "").lowercased().split(whereSeparator: \.isWhitespace)
        return headClasses.contains("titlepage") || headClasses.contains("title") ? head : nil
    }

    private static let boxClasses: Set<String> = ["sidebar", "note", "tip", "warning", "caution", "important", "admonition"]

    /// A box's title without its kind label: "VOCABULARY Source package" → "Source package" (the
    /// label is the title's leading emphasis in capitals, as DocBook's handbook sets it); a title
    /// that is nothing but its kind ("Note", "Warning") gives "".
    static func boxTitle(_ title: Node) -> String {
        let text = collapse(innerText(title))
        if boxKinds.contains(text.lowercased()) { return "" }
        let label = first(in: title) { node in
            guard ["em", "i", "b", "strong", "span"].contains(node.name) else { return false }
            let inner = collapse(innerText(node))
            return inner != text && text.hasPrefix(inner) && inner.contains(where: \.isLetter) && inner == inner.uppercased()
        }.map { collapse(innerText($0)) }
        guard let label else { return text }
        return text.dropFirst(label.count).trimmingCharacters(in: .whitespaces)
    }

    private static let boxKinds: Set<String> = ["note", "tip", "warning", "caution", "important", "hint", "sidebar"]

    private static let formalObjects: Set<String> = ["example", "informalexample", "figure", "informalfigure", "table", "equation", "procedure"]

    /// Comment threads, consent banners and share bars: chrome on any page that is not about them.
    private static let threadTokens = ["comment", "disqus", "cookie", "consent", "gdpr", "share", "sharing", "social"]

    private static func isThreadWord(_ word: String) -> Bool {
        threadTokens.contains { word.hasPrefix($0) }
    }

    private static func isChromeWord(_ word: String) -> Bool {
        chromeTokens.contains { matches(word, $0) } || (word.count > 3 && word.hasSuffix("nav"))
    }

    /// A short element that names the author or the date line (`class="byline"`, `itemprop="author"`
    /// …): it is metadata, and never the article.
    private static func isByline(_ node: Node, names: [String]) -> Bool {
        // A heading is a section's title even when it names an author (mom's `AUTHOR` macro).
        if isHeading(node) { return false }
        let marked = node.attribute("itemprop")?.lowercased() == "author"
            || words(of: names).contains { word in bylineTokens.contains { word.hasPrefix($0) } }
        return marked && TextStats(innerText(node)).length < 100
    }

    private static let bylineTokens = ["byline", "dateline", "writtenby", "author"]

    /// A short block of facts about the software's releases rather than the subject: API
    /// reference's version history and status banner (Node.js's `api_metadata` with "Added in:
    /// v0.1.26" and its "History" table of versions and changes, `api_stability` with
    /// "Stability: 2 - Stable"), a `changelog`. Each would be a heading, a branch or a card.
    private static func isReleaseMetadata(_ node: Node, names: [String]) -> Bool {
        words(of: names).contains { releaseMetadataWords.contains($0) }
            && TextStats(innerText(node)).length < 1_000 && !holdsArticle(node)
    }

    private static let releaseMetadataWords: Set<String> = ["metadata", "changelog", "stability"]

    private static func isSkipLink(_ node: Node) -> Bool {
        let text = collapse(innerText(node)).lowercased()
        return text.count < 50 && skipLinkPrefixes.contains { text.hasPrefix($0) }
    }

    /// A heading's permalink, such as Sphinx's `<a class="headerlink" href="#id">¶</a>`: a mark
    /// of the page, not of the text (it would end every heading with "¶").
    private static func isPermalink(_ node: Node) -> Bool {
        if hintNames(node).contains(where: { ["headerlink", "anchorlink", "anchor-link", "heading-anchor", "permalink"].contains($0) }) {
            return true
        }
        guard node.attribute("href")?.hasPrefix("#") == true else { return false }
        return ["¶", "#", "§", "🔗"].contains(collapse(innerText(node)))
    }

    /// Whether a subtree holds the article itself: chrome by its class must not take the article with it.
    private static func holdsArticle(_ node: Node) -> Bool {
        first(in: node) { inner in
            guard inner !== node, !inner.isText else { return false }
            if inner.name == "h1" || inner.name == "main" { return true }
            if inner.attribute("itemprop")?.lowercased().contains("articlebody") == true { return true }
            return hintNames(inner).contains { articleBodyNames.contains($0) }
        } != nil
    }

    /// Class names and the id, lower-cased; a section's id is left out (it is its heading's anchor).
    private static func hintNames(_ node: Node) -> [String] {
        var names = (node.attribute("class") ?? "").lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        if let id = node.attribute("id")?.lowercased(), !id.isEmpty, node.name != "section", !names.contains("section") {
            names.append(id)
        }
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

    /// Fills text length, link text length and commas for every node (and its own running text), bottom-up.
    @discardableResult
    private static func measure(_ node: Node) -> (Int, Int, Int) {
        if node.isText {
            let stats = TextStats(node.text)
            node.textLength = stats.length
            node.commas = stats.commas
            node.words = stats.words
            node.unspaced = stats.unspaced
            return (node.textLength, 0, node.commas)
        }
        var text = 0, links = 0, commas = 0, words = 0, unspaced = 0
        var inlineText = 0, inlineLinks = 0, inlineCommas = 0
        let isLink = node.name == "a"
        for child in node.children {
            let (t, l, c) = measure(child)
            text += t
            links += l
            commas += c
            words += child.words
            unspaced += child.unspaced
            if !child.isBlock {
                inlineText += t
                inlineLinks += child.linkLength
                inlineCommas += c
            }
        }
        if isLink { links = text }
        node.textLength = text
        node.linkLength = links
        node.commas = commas
        node.words = words
        node.unspaced = unspaced
        node.inlineLength = inlineText
        node.inlineLinkLength = isLink ? inlineText : inlineLinks
        node.inlineCommas = inlineCommas
        return (text, links, commas)
    }

    /// What scoring needs of a text node, in one pass over its UTF-8 without building the collapsed
    /// text: characters once whitespace runs are one space and the ends trimmed (counted as
    /// Unicode scalars), commas (`,`, `，`, `、`), words, and characters of unspaced scripts.
    struct TextStats {
        var length = 0
        var commas = 0
        var words = 0
        var unspaced = 0

        init(_ text: String) {
            var pendingSpace = false
            var inWord = false
            var bytes = text.utf8.makeIterator()
            while let byte = bytes.next() {
                var isSpace = false
                var scalar: UInt32 = UInt32(byte)
                if byte < 0x80 {
                    isSpace = byte == 0x20 || (0x09...0x0D).contains(byte)
                } else if byte & 0xC0 == 0xC0 {
                    // A leading byte: decode the scalar (continuation bytes follow).
                    let extra = byte >= 0xF0 ? 3 : (byte >= 0xE0 ? 2 : 1)
                    scalar = UInt32(byte) & (extra == 3 ? 0x07 : (extra == 2 ? 0x0F : 0x1F))
                    for _ in 0..<extra { scalar = (scalar << 6) | UInt32((bytes.next() ?? 0x80) & 0x3F) }
                    isSpace = scalar == 0xA0 || scalar == 0x3000 || (0x2000...0x200A).contains(scalar) || scalar == 0x202F
                } else {
                    continue  // a stray continuation byte
                }
                if isSpace {
                    if inWord { pendingSpace = true }
                    inWord = false
                    continue
                }
                if pendingSpace {
                    length += 1
                    pendingSpace = false
                }
                if !inWord { words += 1 }
                inWord = true
                length += 1
                if scalar == 0x2C || scalar == 0xFF0C || scalar == 0x3001 { commas += 1 }
                if let unicode = Unicode.Scalar(scalar), WordOverlap.isUnspaced(unicode) { unspaced += 1 }
            }
        }
    }

    private static func linkDensity(_ node: Node) -> Double {
        node.textLength == 0 ? 0 : Double(node.linkLength) / Double(node.textLength)
    }

    static let blockTags: Set<String> = [
        "p", "div", "section", "article", "main", "blockquote", "pre", "ul", "ol", "li", "table", "tr", "td", "th",
        "h1", "h2", "h3", "h4", "h5", "h6", "figure", "figcaption", "dl", "dt", "dd", "header", "address",
        "details", "summary", "hr", "tbody", "thead", "tfoot", "center",
    ]

    /// The text a node scores as a paragraph (length, commas), or nil when it is no paragraph.
    private static func paragraphText(_ node: Node) -> (length: Int, commas: Int)? {
        switch node.name {
        case "p", "pre", "td", "blockquote":
            return (node.textLength, node.commas)
        case "div", "section", "article", "main", "center":
            return (node.inlineLength, node.inlineCommas)
        case "li", "dd":
            guard node.inlineLength > 0, Double(node.inlineLinkLength) / Double(node.inlineLength) < 0.5 else { return nil }
            return (node.inlineLength, node.inlineCommas)
        default:
            return nil
        }
    }

    private static func initialScore(_ node: Node, rules: Rules) -> Double {
        var score: Double
        switch node.name {
        case "article": score = 10
        case "div": score = 5
        case "pre", "td", "blockquote": score = 3
        case "address", "ol", "ul", "dl", "dd", "dt", "li", "form": score = -3
        case "h1", "h2", "h3", "h4", "h5", "h6", "th": score = -5
        default: score = 0
        }
        guard rules.weighClasses else { return score }
        let wordsOfNode = words(of: hintNames(node))
        if wordsOfNode.contains(where: { word in positiveTokens.contains { matches(word, $0) } }) { score += 25 }
        if wordsOfNode.contains(where: { word in negativeTokens.contains { matches(word, $0) } }) { score -= 25 }
        return score
    }

    /// Scores candidates and returns the nodes to render, in document order.
    private static func selectContent(_ body: Node, rules: Rules) -> [Node] {
        var candidates: [Node] = []
        var stack = [body]
        while let node = stack.popLast() {
            for child in node.children.reversed() where !child.isText { stack.append(child) }
            guard node !== body, let (length, commas) = paragraphText(node), length >= 25 else { continue }
            let contentScore = 1 + Double(commas) + min(3, Double(length / 100))
            // A list item or definition scores for its list's container, as a paragraph would.
            var ancestor = node.parent
            if node.name == "li" || node.name == "dd", let list = ancestor, list !== body { ancestor = list.parent }
            var level = 0
            while let current = ancestor, level < 3 {
                if current.score == nil {
                    current.score = initialScore(current, rules: rules)
                    candidates.append(current)
                }
                let divider: Double = level == 0 ? 1 : (level == 1 ? 2 : Double(level * 3))
                current.score! += contentScore / divider
                if current === body { break }
                ancestor = current.parent
                level += 1
            }
        }
        for candidate in candidates { candidate.score = (candidate.score ?? 0) * (1 - linkDensity(candidate)) }
        let ranked = candidates.sorted { ($0.score ?? 0) > ($1.score ?? 0) }
        guard var top = ranked.first, top !== body else { return [body] }
        let bestScore = top.score ?? 0

        // Near-best candidates that share an ancestor: the article is split, the ancestor holds it.
        let alternatives = ranked.dropFirst().prefix(4).filter {
            ($0.score ?? 0) >= 0.75 * bestScore && bestScore > 0 && !isAncestor(top, of: $0) && !isAncestor($0, of: top)
        }
        if alternatives.count >= 3 {
            var ancestor = top.parent
            while let current = ancestor, current !== body {
                if alternatives.filter({ isAncestor(current, of: $0) }).count >= 3 {
                    top = current
                    break
                }
                ancestor = current.parent
            }
        }
        // Climb while the parent scores higher (Readability's step).
        var lastScore = top.score ?? bestScore
        var parent = top.parent
        while let current = parent, current !== body {
            guard let score = current.score else {
                parent = current.parent
                continue
            }
            if score < bestScore / 3 { break }
            if score > lastScore {
                top = current
                break
            }
            lastScore = score
            parent = current.parent
        }
        while let current = top.parent, current !== body, current.children.filter({ !$0.isText }).count == 1 {
            top = current
        }
        guard let container = top.parent else { return [top] }

        let topScore = max(top.score ?? bestScore, bestScore)
        let threshold = max(10, topScore * 0.2)
        let topClass = top.attribute("class") ?? ""
        let siblings = container.children
        var keep = siblings.map { sibling -> Bool in
            if sibling === top { return true }
            if sibling.isText { return false }
            var score = sibling.score ?? 0
            if !topClass.isEmpty, sibling.attribute("class") == topClass { score += topScore * 0.2 }
            if sibling.score != nil || score > 0, score >= threshold { return true }
            // The page's other sections beside the biggest one (an API reference's topics and
            // classes, each a `section` opening with a heading of the same level): one document,
            // not a sidebar. (A news page's "Latest stories" sits beside an article body that
            // opens with no heading.)
            if top.name == "section", sibling.name == "section", let level = openingHeading(top),
                openingHeading(sibling) == level, sibling.textLength >= 25, linkDensity(sibling) < 0.5
            {
                return true
            }
            if sibling.name == "p" {
                let density = linkDensity(sibling)
                if sibling.textLength > 80 && density < 0.25 { return true }
                let text = collapse(innerText(sibling))
                if sibling.textLength > 0 && density == 0 && text.hasSuffix(".") { return true }
            }
            // DocBook's paragraphs are `div class="para"`, and a chapter's abstract a `div` of
            // them (`highlights`): a chapter's introduction before its first section.
            if sibling.name == "div", holdsOnlyParagraphs(sibling), sibling.textLength > 80, linkDensity(sibling) < 0.25 {
                return true
            }
            return false
        }
        // A heading just before kept content is its heading.
        for index in siblings.indices.reversed() where !keep[index] && isHeading(siblings[index]) {
            // (An empty block between them, such as Node.js's `<p></p>` around a banner, is no content.)
            if let next = siblings[(index + 1)...].firstIndex(where: { !$0.isText && $0.textLength > 0 }), keep[next] { keep[index] = true }
        }
        var kept = siblings.indices.filter { keep[$0] }.map { siblings[$0] }
        // The content is one `section` of a page of sections of one level (Sphinx puts a
        // manual's "Abstract" section before its "Contents" section that holds the chapters):
        // its sibling sections are the same document, in order around it.
        if container.name == "section", let level = openingHeading(container), let outer = container.parent {
            let index = outer.children.firstIndex { $0 === container }!
            func isPeer(_ node: Node) -> Bool {
                node.name == "section" && openingHeading(node) == level && node.textLength >= 25 && linkDensity(node) < 0.5
            }
            kept = outer.children[..<index].filter(isPeer) + kept + outer.children[(index + 1)...].filter(isPeer)
        }
        if let title = precedingTitle(of: top, in: body),
            !kept.contains(where: { $0 === title || isAncestor($0, of: title) })
        {
            kept.insert(title, at: 0)
        }
        return kept
    }

    /// The article's `h1` when it sits before the content, in a header beside it (up to three
    /// levels up): the title belongs with the text. A site's logo (an `h1` that is a link) is not it.
    private static func precedingTitle(of top: Node, in body: Node) -> Node? {
        var current = top
        for _ in 0..<3 {
            guard let parent = current.parent, let index = parent.children.firstIndex(where: { $0 === current }) else { return nil }
            for sibling in parent.children[..<index].reversed() where !sibling.isText {
                if let heading = first(in: sibling, where: { $0.name == "h1" }) {
                    return heading.textLength > 0 && linkDensity(heading) < 0.5 ? heading : nil
                }
            }
            if parent === body { return nil }
            current = parent
        }
        return nil
    }

    /// Whether a block that is mostly links still has a paragraph of its own prose (mom's index
    /// of the docheader macros opens with a paragraph on what they do): it is rendered part by
    /// part, so the paragraph stays and its list of links goes.
    static func holdsProse(_ node: Node) -> Bool {
        guard node.name == "div" || node.name == "section" else { return false }
        return node.children.contains { child in
            child.name == "p" && child.textLength > 80 && linkDensity(child) < 0.25 && Prose.isProse(words: child.words, unspaced: child.unspaced)
        }
    }

    /// Whether a block holds running text only: its blocks, if any, are paragraphs (`p`, or a
    /// `div` of running text), no list, table, code or heading.
    private static func holdsOnlyParagraphs(_ node: Node) -> Bool {
        first(in: node) { inner in
            inner !== node && inner.isBlock && !(inner.name == "p" || inner.name == "div")
        } == nil
    }

    /// The tag of the heading a block opens with (its first element child), if it opens with one.
    private static func openingHeading(_ node: Node) -> String? {
        node.children.first { !$0.isText }.flatMap { isHeading($0) ? $0.name : nil }
    }

    private static func isAncestor(_ node: Node, of other: Node) -> Bool {
        var current = other.parent
        while let step = current {
            if step === node { return true }
            current = step.parent
        }
        return false
    }

    static func isHeading(_ node: Node) -> Bool {
        node.name.count == 2 && node.name.first == "h" && ("1"..."6").contains(node.name.last!)
    }

    // MARK: - Prose

    /// The page's visible prose: how much there is, and where it is densest.
    struct Prose {
        /// Characters of prose outside comment sections.
        private(set) var total = 0
        /// Characters of prose, comment sections included (on a bug tracker they are the content).
        private(set) var all = 0
        /// Prose characters under each element, by identity, and the elements in the order first met.
        private var under: [ObjectIdentifier: Int] = [:]
        private var order: [Node] = []

        init(_ root: Node) { walk(root, inComments: false) }

        /// Whether an attempt's text is big enough for this page.
        func isEnough(_ text: String) -> Bool {
            let length = text.count
            guard length > 0 else { return all == 0 }
            return Double(length) >= 0.3 * Double(total)
                && (length >= ReadableContent.minimumLength || Double(length) >= 0.6 * Double(all))
        }

        /// The element with the most prose for its size (prose² / text), if the page has prose.
        func densestBlock() -> Node? {
            var best: Node? = nil
            var bestValue = 0.0
            for node in order {
                guard let prose = under[ObjectIdentifier(node)], node.textLength > 0 else { continue }
                let value = Double(prose) * Double(prose) / Double(node.textLength)
                if value > bestValue {
                    best = node
                    bestValue = value
                }
            }
            return best
        }

        private mutating func walk(_ node: Node, inComments: Bool) {
            let comments = inComments || ReadableContent.words(of: ReadableContent.hintNames(node)).contains {
                ["comment", "reply", "replies", "disqus", "cookie", "consent"].contains(where: $0.hasPrefix)
            }
            var run = (length: 0, links: 0, words: 0, unspaced: 0)
            func flush(_ prose: inout Prose) {
                if Prose.isProse(words: run.words, unspaced: run.unspaced), run.links * 2 < run.length {
                    if !comments { prose.total += run.length }
                    prose.all += run.length
                    var current: Node? = node
                    while let step = current {
                        let id = ObjectIdentifier(step)
                        if prose.under[id] == nil { prose.order.append(step) }
                        prose.under[id, default: 0] += run.length
                        current = step.parent
                    }
                }
                run = (0, 0, 0, 0)
            }
            for child in node.children {
                if child.isBlock {
                    flush(&self)
                    walk(child, inComments: comments)
                } else {
                    run.length += child.textLength + (run.length > 0 ? 1 : 0)
                    run.links += child.name == "a" ? child.textLength : child.linkLength
                    run.words += child.words
                    run.unspaced += child.unspaced
                }
            }
            flush(&self)
        }

        /// A sentence-bearing block: 8+ words, or 20+ characters of a script written without spaces.
        static func isProse(words: Int, unspaced: Int) -> Bool {
            words >= 8 || unspaced >= 20
        }
    }

    // MARK: - Rendering

    /// Turns kept nodes into blocks of text.
    private struct Renderer {
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
                    if !child.isText, child.name == "p" || child.name == "div", !child.children.contains(where: \.isBlock) {
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
    fileprivate static func preformattedBlock(_ pre: Node) -> String? {
        let text = preformattedText(pre).trimmingCharacters(in: .newlines)
        guard !text.isEmpty else { return nil }
        return isPreformattedProse(pre) ? text : "```\n" + text + "\n```"
    }

    /// A `pre`'s text, where each `code` that follows another starts a line: Node.js puts an
    /// example's ES-module and CommonJS forms side by side in one `pre`, one shown at a time.
    fileprivate static func preformattedText(_ pre: Node) -> String {
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
    fileprivate static func isPreformattedProse(_ pre: Node) -> Bool {
        if words(of: hintNames(pre)).contains(where: preformattedProseWords.contains) { return true }
        // A bare `pre` (no class, no `code` inside) of sentences: a page set in `pre`.
        guard pre.attribute("class") == nil, !pre.children.contains(where: { $0.name == "code" }) else { return false }
        let lines = innerText(pre).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let sentences = lines.count { line in line.last.map { ".?!".contains($0) } == true && line.contains(" ") }
        return !lines.isEmpty && sentences * 2 >= lines.count && !CodeText.isCode(lines: lines)
    }

    private static let preformattedProseWords: Set<String> = [
        "display", "format", "literallayout", "verse", "poem", "poetry", "comment", "text", "prose",
    ]

    /// A table used for layout: marked so, holding a nested table or a heading, or with a cell of
    /// several blocks or of long running text. (A data table's cell may wrap its text in one `p`.)
    fileprivate static func isLayoutTable(_ table: Node) -> Bool {
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
    fileprivate static func isSimple(_ list: Node) -> Bool {
        let structural: Set<String> = ["p", "div", "ul", "ol", "dl", "table", "pre", "blockquote", "section"]
        return list.children.allSatisfy { item in
            item.isText || first(in: item) { $0 !== item && structural.contains($0.name) } == nil
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

    /// The text of a subtree without its code blocks (a `pre` that is no prose), which go to
    /// `code` fenced, in order.
    fileprivate static func innerText(_ node: Node, settingApart code: inout [String]) -> String {
        if node.name == "pre", !isPreformattedProse(node) {
            if let block = preformattedBlock(node) { code.append(block) }
            return " "
        }
        guard !node.isText, node.name != "br", first(in: node, where: { $0.name == "pre" }) != nil else { return innerText(node) }
        var out = ""
        for child in node.children { out += innerText(child, settingApart: &code) }
        return node.isBlock ? " " + out + " " : out
    }

    /// The text of a subtree; `<br>` counts as a space here.
    fileprivate static func innerText(_ node: Node) -> String {
        if node.isText { return node.text }
        if node.name == "br" { return "\n" }
        var out = ""
        for child in node.children { out += innerText(child) }
        if node.isBlock { out = " " + out + " " }
        return out
    }

    /// Whitespace runs to one space, trimmed.
    fileprivate static func collapse(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
