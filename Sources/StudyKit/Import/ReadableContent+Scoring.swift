import Foundation

// ReadableContent's scoring: paragraph-like blocks score their containers, the best container
// and its siblings are kept, and the prose measures that decide when a retry is needed.

extension ReadableContent {
    // MARK: - Scoring

    /// Fills text length, link text length and commas for every node (and its own running text), bottom-up.
    @discardableResult
    static func measure(_ node: Node) -> (Int, Int, Int) {
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
                    isSpace = scalar == 0xA0 || scalar == 0x3000 || (0x2000...0x200A).contains(scalar)
                        || scalar == 0x202F
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

    static func linkDensity(_ node: Node) -> Double {
        node.textLength == 0 ? 0 : Double(node.linkLength) / Double(node.textLength)
    }

    static let blockTags: Set<String> = [
        "p", "div", "section", "article", "main", "blockquote", "pre", "ul", "ol", "li", "table", "tr", "td", "th",
        "h1", "h2", "h3", "h4", "h5", "h6", "figure", "figcaption", "dl", "dt", "dd", "header", "address",
        "details", "summary", "hr", "tbody", "thead", "tfoot", "center",
    ]

    /// The text a node scores as a paragraph (length, commas), or nil when it is no paragraph.
    static func paragraphText(_ node: Node) -> (length: Int, commas: Int)? {
        switch node.name {
        case "p", "pre", "td", "blockquote":
            return (node.textLength, node.commas)
        case "div", "section", "article", "main", "center":
            return (node.inlineLength, node.inlineCommas)
        case "li", "dd":
            guard node.inlineLength > 0,
                Double(node.inlineLinkLength) / Double(node.inlineLength) < 0.5 else { return nil }
            return (node.inlineLength, node.inlineCommas)
        default:
            return nil
        }
    }

    static func initialScore(_ node: Node, rules: Rules) -> Double {
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
    static func selectContent(_ body: Node, rules: Rules) -> [Node] {
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
            if sibling.name == "div", holdsOnlyParagraphs(sibling), sibling.textLength > 80,
                linkDensity(sibling) < 0.25 {
                return true
            }
            return false
        }
        // A heading just before kept content is its heading.
        for index in siblings.indices.reversed() where !keep[index] && isHeading(siblings[index]) {
            // (An empty block between them, such as Node.js's `<p></p>` around a banner, is no content.)
            if let next = siblings[(index + 1)...].firstIndex(where: { !$0.isText && $0.textLength > 0 }),
                keep[next] { keep[index] = true }
        }
        var kept = siblings.indices.filter { keep[$0] }.map { siblings[$0] }
        // The content is one `section` of a page of sections of one level (Sphinx puts a
        // manual's "Abstract" section before its "Contents" section that holds the chapters):
        // its sibling sections are the same document, in order around it.
        if container.name == "section", let level = openingHeading(container), let outer = container.parent {
            let index = outer.children.firstIndex { $0 === container }!
            func isPeer(_ node: Node) -> Bool {
                node.name == "section" && openingHeading(node) == level && node.textLength >= 25
                    && linkDensity(node) < 0.5
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
    static func precedingTitle(of top: Node, in body: Node) -> Node? {
        var current = top
        for _ in 0..<3 {
            guard let parent = current.parent,
                let index = parent.children.firstIndex(where: { $0 === current }) else { return nil }
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
            child.name == "p" && child.textLength > 80 && linkDensity(child) < 0.25
                && Prose.isProse(words: child.words, unspaced: child.unspaced)
        }
    }

    /// Whether a block holds running text only: its blocks, if any, are paragraphs (`p`, or a
    /// `div` of running text), no list, table, code or heading.
    static func holdsOnlyParagraphs(_ node: Node) -> Bool {
        first(in: node) { inner in
            inner !== node && inner.isBlock && !(inner.name == "p" || inner.name == "div")
        } == nil
    }

    /// The tag of the heading a block opens with (its first element child), if it opens with one.
    static func openingHeading(_ node: Node) -> String? {
        node.children.first { !$0.isText }.flatMap { isHeading($0) ? $0.name : nil }
    }

    static func isAncestor(_ node: Node, of other: Node) -> Bool {
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
}
