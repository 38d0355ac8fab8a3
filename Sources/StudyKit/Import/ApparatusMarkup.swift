/// What a web page's markup says is apparatus (issue 52), read by ``ReadableContent``'s renderer.
///
/// - **Apparatus**, set after the body (``Apparatus``): MediaWiki's reference lists
///   (`reflist`, `references`), navigation boxes (`navbox`, `vertical-navbox`), infoboxes,
///   hatnotes (`hatnote`, `role="note"`), maintenance and portal boxes (`ambox`, `metadata`,
///   `noprint`, `portal`, `sistersitebox`), categories (`catlinks`), the "Retrieved from" footer
///   (`printfooter`), the table of contents (`toc`), image captions (`thumbcaption`,
///   `gallerytext`, `figcaption`, any `…caption…` class, WordPress's `wp-caption-text`), credits,
///   coordinates (`geo`, `#coordinates`); other sites' footnote, endnote and bibliography blocks
///   (Pandoc's `footnotes`, `csl-bib-body`) and DPUB-ARIA's roles (`doc-endnotes`,
///   `doc-bibliography`, `doc-footnote`, `doc-credit`, `doc-toc`).
/// - **Gone**, marks inside a sentence that would leave a stray "[edit]", "[17]" or "^ a b":
///   edit links (`mw-editsection`), reference marks (`sup.reference`, a `sup` linking to a
///   footnote, `role="doc-noteref"`), backlinks (`mw-cite-backlink`, `role="doc-backlink"`,
///   `footnote-back`), "[citation needed]" tags, pronunciation respellings (`IPA`,
///   `rt-commentedText`), jump links; and any apparatus element that is inline (a respelling,
///   a coordinate in a sentence), which cannot leave its sentence.
extension ReadableContent {
    /// Whether the renderer sets `node` and what it holds in the apparatus.
    static func isApparatusMarkup(_ node: Node) -> Bool {
        guard !node.isText else { return false }
        if node.name == "figcaption" { return true }
        guard node.attributes["class"] != nil || node.attributes["role"] != nil || node.attributes["id"] != nil else {
            return false
        }
        return isApparatusMarkup(node, names: node.classWords)
    }

    private static func isApparatusMarkup(_ node: Node, names: [Substring]) -> Bool {
        if let role = node.attribute("role")?.lowercased() {
            if apparatusRoles.contains(role) { return true }
            if role == "note", box(node) == nil { return true }
        }
        // An id names a block's role; on a heading or inside one (MediaWiki's `span#References`)
        // it is the section's anchor, and the heading's kind is the table's business (``Apparatus``).
        if node.isBlock, !isHeading(node), let id = node.attribute("id")?.lowercased(), apparatusIDs.contains(id) {
            return true
        }
        if names.contains(where: apparatusClasses.contains) { return true }
        if node.name == "table", names.contains(where: { $0.hasPrefix("infobox") }) { return true }
        return names.contains { name in
            (name.firstRange(of: "caption") != nil || name.firstRange(of: "credit") != nil)
                && name.split { !$0.isLetter }.contains { word in
                    word == "caption" || word == "credit" || word == "credits"
                }
        }
    }

    /// Whether `node` is a mark the renderer leaves out altogether (see the extension's notes).
    static func isDroppedMark(_ node: Node) -> Bool {
        guard !node.isText else { return false }
        guard node.attributes["class"] != nil || node.attributes["role"] != nil || node.name == "sup" else {
            return false
        }
        let names = node.classWords
        if names.contains(where: droppedClasses.contains) { return true }
        if names.contains("noprint"), names.contains("inline-template") { return true }
        if let role = node.attribute("role")?.lowercased(), role == "doc-noteref" || role == "doc-backlink" {
            return true
        }
        if node.name == "sup", isReferenceMark(node, names: names) { return true }
        // An apparatus element inside a sentence cannot leave it: it goes.
        return !node.isBlock && node.name != "table" && isApparatusMarkup(node, names: names)
    }

    /// A `sup` that marks a reference or footnote: by its class, or a short link into the page's notes.
    private static func isReferenceMark(_ sup: Node, names: [Substring]) -> Bool {
        if names.contains(where: {
            ["reference", "footnote-ref", "footnote-reference", "noteref", "fn-ref"].contains($0)
        }) {
            return true
        }
        let elements = sup.children.filter { !$0.isText }
        guard elements.count == 1, let link = elements.first, link.name == "a",
            let target = link.attribute("href")?.lowercased(), target.hasPrefix("#")
        else { return false }
        let text = MathML.innerText(sup).filter { !$0.isWhitespace }
        return text.count <= 8
            && ["#cite", "#fn", "#footnote", "#ref", "#note", "#endnote"].contains { target.hasPrefix($0) }
    }

    private static let apparatusRoles: Set<String> = [
        "doc-endnotes", "doc-endnote", "doc-footnote", "doc-bibliography", "doc-biblioentry", "doc-credit",
        "doc-credits",
        "doc-toc", "doc-pagelist",
    ]

    private static let apparatusIDs: Set<String> = [
        "references", "footnotes", "endnotes", "bibliography", "coordinates", "catlinks", "sitesub", "contentsub",
        "toc",
        "mw-hidden-catlinks", "further-reading", "external-links",
    ]

    private static let apparatusClasses: Set<Substring> = [
        "reflist", "references", "mw-references-wrap", "refbegin", "navbox", "vertical-navbox", "navbox-inner",
        "navbox-styles", "infobox", "infobox_v2", "infobox_v3", "hatnote", "dablink", "rellink", "bandeau-portail",
        "metadata", "ambox", "mbox-small", "portal", "portalbox", "sistersitebox", "noprint", "catlinks", "printfooter",
        "toc", "thumbcaption", "gallerytext", "footnotes", "footnote", "endnotes", "bibliography", "csl-bib-body",
        "citations", "geo", "geo-default", "coordinates", "further-reading", "external-links", "see-also",
        "sisterproject", "normdaten", "authority-control",
    ]

    private static let droppedClasses: Set<Substring> = [
        "mw-editsection", "mw-cite-backlink", "ipa", "rt-commentedtext", "respell", "footnote-back", "footnote-backref",
        "reversefootnote", "mw-jump-link", "reference-accessdate-hidden", "editsection",
    ]
}

extension HTMLImporter.Node {
    /// The names of the `class` attribute, lower-cased, split at ASCII whitespace: asked of
    /// every element of a page, so no Unicode property is looked up and an all-lower-case
    /// attribute (most are) is not copied.
    var classWords: [Substring] {
        guard let raw = attributes["class"] else { return [] }
        let lower = raw.utf8.contains { $0 >= 0x41 && $0 <= 0x5A } ? raw.lowercased() : raw
        var words: [Substring] = []
        var start: String.Index? = nil
        var index = lower.utf8.startIndex
        while index < lower.utf8.endIndex {
            let byte = lower.utf8[index]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C {
                if let begin = start { words.append(lower[begin..<index]) }
                start = nil
            } else if start == nil {
                start = index
            }
            index = lower.utf8.index(after: index)
        }
        if let begin = start { words.append(lower[begin..<index]) }
        return words
    }
}
