import Foundation
internal import CLibXML2

/// Parses HTML with libxml2's forgiving HTML parser and extracts the page's main content.
///
/// This is the only file that sees libxml2. The parsed document is owned by an ``XMLDocument``
/// box freed in `deinit`; the libxml2 tree is copied once into a small Swift tree (``Node``),
/// and the content extraction (``ReadableContent``, in its own file) works on that.
enum HTMLImporter {
    /// What an HTML page yields: its main content as Markdown-like blocks, its title and its formulas.
    struct Extraction: Sendable, Equatable {
        /// Headings as `#` lines, list items as `- ` lines; each block flagged when its markup is apparatus.
        var blocks: [Apparatus.Block]
        /// `og:title`, else `<title>`, else the first `<h1>`.
        var title: String?
        /// The page's formulas, which the blocks carry as TeX.
        var formulas: [Formula] = []

        /// The blocks separated by a blank line.
        var text: String { blocks.map(\.text).joined(separator: "\n\n") }
    }

    /// Parses `data` and extracts its main content.
    ///
    /// - Parameter encoding: the charset the server declared, if any. Without it, bytes that
    ///   are valid UTF-8 are read as UTF-8 and anything else is left to libxml2, which honours
    ///   `<meta charset>` (and falls back to Latin-1, as browsers do).
    /// - Throws: ``ImportError/unreadableHTML(_:)`` when libxml2 yields no tree at all.
    static func extract(_ data: Data, encoding: String?, source: String) throws(ImportError) -> Extraction {
        guard let root = parse(data, encoding: encoding) else { throw .unreadableHTML(source) }
        return ReadableContent.extract(from: root)
    }

    // MARK: - libxml2

    /// Parses with the documented options and converts the tree, or returns `nil` when there is no tree.
    static func parse(_ data: Data, encoding: String?) -> Node? {
        let options =
            Int32(HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
                | HTML_PARSE_NONET.rawValue)
        var chosen = encoding
        if chosen == nil, data.withUnsafeBytes({ SourceNormalizer.firstInvalidUTF8Offset($0) }) == nil {
            chosen = "UTF-8"
        }
        var document = read(data, encoding: chosen, options: options)
        if document == nil, chosen != nil {
            // An encoding libxml2 does not know: let it sniff instead of failing.
            document = read(data, encoding: nil, options: options)
        }
        guard let document, let top = xmlDocGetRootElement(document.pointer) else { return nil }
        return convert(top, parent: nil)
    }

    private static func read(_ data: Data, encoding: String?, options: Int32) -> XMLDocument? {
        let pointer: htmlDocPtr? = data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: CChar.self), raw.count > 0 else { return nil }
            return htmlReadMemory(base, Int32(clamping: raw.count), nil, encoding, options)
        }
        return pointer.map(XMLDocument.init)
    }

    /// Copies a libxml2 subtree into Swift nodes, keeping elements and text and only the attributes extraction reads.
    private static func convert(_ xml: xmlNodePtr, parent: Node?) -> Node? {
        switch xml.pointee.type {
        case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
            guard let content = xml.pointee.content else { return nil }
            let node = Node(name: "#text", parent: parent)
            node.text = String(cString: content)
            return node
        case XML_ELEMENT_NODE:
            let name = xml.pointee.name.map { String(cString: $0).lowercased() } ?? ""
            let node = Node(name: name, parent: parent)
            var attribute = xml.pointee.properties
            while let current = attribute {
                if let rawName = current.pointee.name {
                    let key = String(cString: rawName).lowercased()
                    if Node.keptAttributes.contains(key) || node.inMath && MathML.attributes.contains(key) {
                        let value = current.pointee.children?.pointee.content.map { String(cString: $0) } ?? ""
                        node.attributes[key] = value
                    }
                }
                attribute = current.pointee.next
            }
            var child = xml.pointee.children
            while let current = child {
                if let converted = convert(current, parent: node) { node.children.append(converted) }
                child = current.pointee.next
            }
            return node
        default:
            return nil  // comments, processing instructions, DTD nodes carry no content
        }
    }
}

/// Owns a libxml2 document and frees it in `deinit`.
private final class XMLDocument {
    let pointer: htmlDocPtr

    init(_ pointer: htmlDocPtr) { self.pointer = pointer }

    deinit { xmlFreeDoc(pointer) }
}

extension HTMLImporter {
    /// One element or text node of a parsed page, with the few attributes extraction needs.
    ///
    /// A class because extraction walks up to ancestors and keeps per-node scores; it never
    /// leaves the function that built it.
    final class Node {
        /// Attributes worth keeping: content hints, visibility, meta title fields, a link's
        /// target (a heading's permalink points into the page), and what tells a formula (an
        /// image's `alt`, a script's `type`, `display`); inside `math`, MathML's own (``MathML``).
        static let keptAttributes: Set<String> = [
            "class", "id", "role", "style", "hidden", "aria-hidden", "property", "name", "content", "itemprop", "href",
            "alt", "type", "display",
        ]

        /// Lower-cased tag name, or `#text`.
        let name: String
        let isText: Bool
        /// Whether the tag is one of ``ReadableContent/blockTags`` (asked for every node, so kept).
        let isBlock: Bool
        /// Whether the node is a `math` element or inside one.
        let inMath: Bool
        /// The text of a `#text` node.
        var text = ""
        var attributes: [String: String] = [:]
        var children: [Node] = []
        weak var parent: Node?

        // Filled in by extraction.
        var score: Double? = nil
        var textLength = 0
        var linkLength = 0
        var commas = 0
        /// Text, link text and commas outside any block child: the node's own running text.
        var inlineLength = 0
        var inlineLinkLength = 0
        var inlineCommas = 0
        /// Whitespace-separated runs, and characters of scripts written without spaces, in the subtree.
        var words = 0
        var unspaced = 0

        init(name: String, parent: Node?) {
            self.name = name
            self.parent = parent
            isText = name == "#text"
            isBlock = ReadableContent.blockTags.contains(name)
            inMath = name == "math" || parent?.inMath == true
        }

        func attribute(_ key: String) -> String? { attributes[key] }

        /// A deep copy of the subtree (without extraction state), so each extraction attempt prunes its own tree.
        func copy(parent: Node? = nil) -> Node {
            let node = Node(name: name, parent: parent)
            node.text = text
            node.attributes = attributes
            node.children = children.map { $0.copy(parent: node) }
            return node
        }
    }
}

/// Timing of the HTML path in its parts, for `studykit-bench web` (issue 13): libxml2 alone,
/// the copy into the Swift tree, and the main-text extraction on that tree.
@_spi(Benchmarks) public enum HTMLBenchmark {
    @_spi(Benchmarks) public struct Timing: Sendable {
        /// `htmlReadMemory` and `xmlFreeDoc`: what libxml2 needs just to parse the page.
        @_spi(Benchmarks) public var parse: Duration
        /// The copy of libxml2's tree into ``HTMLImporter/Node``s.
        @_spi(Benchmarks) public var tree: Duration
        /// ``ReadableContent`` on that tree, all its attempts included.
        @_spi(Benchmarks) public var extraction: Duration
        /// Characters of extracted text, so a run that extracts nothing shows.
        @_spi(Benchmarks) public var characters: Int
    }

    @_spi(Benchmarks) public static func measure(_ data: Data) -> Timing {
        let clock = ContinuousClock()
        let options =
            Int32(HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
                | HTML_PARSE_NONET.rawValue)
        let parse = clock.measure {
            let pointer: htmlDocPtr? = data.withUnsafeBytes { raw in
                guard let base = raw.baseAddress?.assumingMemoryBound(to: CChar.self) else { return nil }
                return htmlReadMemory(base, Int32(clamping: raw.count), nil, "UTF-8", options)
            }
            if let pointer { xmlFreeDoc(pointer) }
        }
        var root: HTMLImporter.Node? = nil
        let withTree = clock.measure { root = HTMLImporter.parse(data, encoding: "UTF-8") }
        var characters = 0
        let extraction = clock.measure {
            if let root { characters = ReadableContent.extract(from: root).text.count }
        }
        return Timing(parse: parse, tree: withTree - parse, extraction: extraction, characters: characters)
    }
}
