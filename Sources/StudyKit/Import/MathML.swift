import Foundation

/// A web page's formulas as the text's TeX (issue 52). A mathematics article carries each
/// formula as MathML, often hidden behind an image (MediaWiki sets its MathML `display: none`),
/// so the text read "…for all indices i and j:" followed by nothing.
///
/// Each formula of the page becomes one text node, `$tex$` inline or `$$tex$$` when it stands
/// alone in its block (or the markup says it is displayed), before any extraction attempt: a
/// `math` element, MediaWiki's `mwe-math-element` wrapper, KaTeX's `katex` span, MathJax 3's
/// `mjx-container` and MathJax 2's `script type="math/tex"` (its rendered copies go). The TeX
/// is the `alttext`, else the `application/x-tex` annotation, else a fallback image's `alt`,
/// else written from the presentation MathML. The MathML itself is kept, cut down to MathML's
/// own elements and attributes, for kit.html to show again.
enum MathML {
    typealias Node = HTMLImporter.Node

    /// Replaces the page's formulas in place (see the type's notes) and returns them, each once;
    /// in the same walk, removes every element `removing` names (one pass over a large page).
    static func replaceFormulas(in root: Node, removing: (Node) -> Bool = { _ in false }) -> [Formula] {
        var found: [(node: Node, tex: String, mathML: String?)] = []
        replace(in: root, found: &found, removing: removing)
        var seen = Set<String>()
        var formulas: [Formula] = []
        for (node, tex, mathML) in found where seen.insert(node.text).inserted {
            let display = node.text.hasPrefix("$$")
            formulas.append(
                Formula(tex: tex, mathML: mathML.map { display ? withDisplay($0) : $0 }, isDisplay: display))
        }
        return formulas
    }

    /// MathML attributes kept on elements inside `math` (to write the formula again); nothing
    /// that loads, links or runs.
    static let attributes: Set<String> = [
        "mathvariant", "displaystyle", "scriptlevel", "stretchy", "fence", "separator", "separators", "accent",
        "accentunder", "lspace", "rspace", "form", "largeop", "movablelimits", "symmetric", "linethickness",
        "columnalign", "rowalign", "columnspacing", "rowspacing", "columnlines", "rowlines", "frame", "encoding",
        "alttext", "display", "minsize", "maxsize", "open", "close", "notation", "width", "height", "depth",
        "voffset", "align", "mathsize", "bevelled", "numalign", "denomalign", "xmlns",
    ]

    private static func replace(
        in node: Node, found: inout [(node: Node, tex: String, mathML: String?)], removing: (Node) -> Bool
    ) {
        var index = 0
        var mine: [Int] = []
        while index < node.children.count {
            let child = node.children[index]
            if child.isText {
                index += 1
                continue
            }
            if isRenderedCopy(child) || removing(child) {
                node.children.remove(at: index)
                continue
            }
            if let (tex, mathML, display) = formula(of: child) {
                let text = Node(name: "#text", parent: node)
                text.text = FormulaText.span(tex, display: display)
                node.children[index] = text
                mine.append(found.count)
                found.append((text, tex, mathML))
            } else {
                replace(in: child, found: &found, removing: removing)
            }
            index += 1
        }
        // A formula alone in its paragraph or definition (MediaWiki's `<dl><dd>`) is displayed.
        guard mine.count == 1, ["p", "dd", "div", "center"].contains(node.name) else { return }
        let only = found[mine[0]]
        let others = node.children.filter { $0 !== only.node }
        if others.allSatisfy({ $0.isText && !$0.text.contains { $0.isLetter || $0.isNumber } }) {
            only.node.text = FormulaText.span(only.tex, display: true)
        }
    }

    /// MathJax 2's rendered formula beside its `script`, and its preview: the script is the formula.
    private static func isRenderedCopy(_ node: Node) -> Bool {
        guard node.name == "span" || node.name == "div", node.attributes["class"] != nil else { return false }
        let classes = node.classWords
        return classes.contains(where: renderedCopies.contains) && !classes.contains("katex")
    }

    private static let renderedCopies: Set<Substring> = [
        "mathjax_preview", "mathjax", "mathjax_display", "mathjax_svg", "mathjax_svg_display", "mjx_assistive_mathml",
    ]

    /// The TeX, MathML and display of a formula element, or `nil` when `node` is none.
    private static func formula(of node: Node) -> (String, String?, Bool)? {
        if node.name == "script" {
            guard let type = node.attribute("type")?.lowercased(), type.hasPrefix("math/tex") else { return nil }
            let tex = cleanTeX(node.children.filter(\.isText).map(\.text).joined())
            return tex.isEmpty ? nil : (tex, nil, type.contains("mode=display"))
        }
        // Most elements are none: only `math`, MathJax 3's container and a `span` or `div` whose
        // class names one can be.
        guard
            node.name == "math" || node.name == "mjx-container"
                || (node.name == "span" || node.name == "div") && node.attributes["class"] != nil
        else { return nil }
        let classes = node.classWords
        let isWrapper =
            node.name == "mjx-container" || classes.contains("mwe-math-element") || classes.contains("katex")
            || classes.contains("katex-display")
        guard isWrapper || node.name == "math" else { return nil }
        let math = node.name == "math" ? node : first(in: node) { $0.name == "math" }
        var display =
            math?.attribute("display")?.lowercased() == "block" || node.attribute("display")?.lowercased() == "true"
            || classes.contains("katex-display")
            || first(in: node) { $0.classWords.contains("mwe-math-mathml-display") } != nil
        if node.name == "math", node.attribute("mode")?.lowercased() == "display" { display = true }
        var tex = math.flatMap { $0.attribute("alttext") }.map(cleanTeX) ?? ""
        if tex.isEmpty, let annotation = math.flatMap({ first(in: $0) { isTeXAnnotation($0) } }) {
            tex = cleanTeX(innerText(annotation))
        }
        if tex.isEmpty, let image = first(in: node, where: { $0.name == "img" && $0.attribute("alt") != nil }) {
            tex = cleanTeX(image.attribute("alt") ?? "")
        }
        if tex.isEmpty, let math { tex = cleanTeX(MathMLTeX.tex(of: math)) }
        guard !tex.isEmpty else { return nil }
        return (tex, math.map(markup), display)
    }

    private static func isTeXAnnotation(_ node: Node) -> Bool {
        node.name == "annotation" && (node.attribute("encoding")?.lowercased().contains("tex") ?? false)
    }

    /// TeX on one line, without MediaWiki's `{\displaystyle …}` wrapper; a dollar would end the span, so it is
    /// escaped.
    static func cleanTeX(_ raw: String) -> String {
        var tex = raw.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for style in ["\\displaystyle", "\\textstyle"] {
            if tex.hasPrefix("{" + style + " "), tex.hasSuffix("}"), balanced(tex.dropFirst().dropLast()) {
                tex = String(tex.dropFirst(style.count + 2).dropLast()).trimmingCharacters(in: .whitespaces)
            } else if tex.hasPrefix(style + " ") {
                tex = String(tex.dropFirst(style.count + 1))
            }
        }
        var escaped = ""
        var previous: Character = " "
        for character in tex {
            if character == "$", previous != "\\" { escaped += "\\" }
            escaped.append(character)
            previous = character
        }
        return escaped.trimmingCharacters(in: .whitespaces)
    }

    private static func balanced(_ text: Substring) -> Bool {
        var depth = 0
        var previous: Character = " "
        for character in text {
            if previous != "\\" {
                if character == "{" { depth += 1 }
                if character == "}" { depth -= 1 }
            }
            if depth < 0 { return false }
            previous = character
        }
        return depth == 0
    }

    // MARK: - MathML for kit.html

    /// MathML's own elements: nothing else is written back (no `annotation-xml`, which may hold HTML).
    private static let elements: Set<String> = [
        "math", "semantics", "annotation", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msub", "msup", "msubsup",
        "mfrac", "msqrt", "mroot", "mstyle", "mfenced", "menclose", "mpadded", "mphantom", "munder", "mover",
        "munderover", "mtable", "mtr", "mtd", "mlabeledtr", "mmultiscripts", "mprescripts", "none", "merror",
    ]

    /// The `math` element as markup with MathML's elements and attributes only, text escaped.
    static func markup(_ math: Node) -> String {
        var out = ""
        write(math, into: &out)
        return out
    }

    private static func write(_ node: Node, into out: inout String) {
        if node.isText {
            out += OutputText.markupEscaped(node.text)
            return
        }
        guard elements.contains(node.name) else { return }
        if node.name == "annotation", !isTeXAnnotation(node) { return }
        out += "<" + node.name
        if node.name == "math" { out += " xmlns=\"http://www.w3.org/1998/Math/MathML\"" }
        for key in node.attributes.keys.sorted() where attributes.contains(key) && key != "xmlns" && key != "alttext" {
            out += " \(key)=\"\(OutputText.markupEscaped(node.attributes[key] ?? ""))\""
        }
        out += ">"
        for child in node.children { write(child, into: &out) }
        out += "</\(node.name)>"
    }

    /// The markup with `display="block"`, so a browser sets it on a line of its own.
    private static func withDisplay(_ markup: String) -> String {
        guard markup.hasPrefix("<math "), !markup.prefix(200).contains("display=\"block\"") else { return markup }
        return "<math display=\"block\" " + markup.dropFirst(6)
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

    static func innerText(_ node: Node) -> String {
        node.isText ? node.text : node.children.map(innerText).joined()
    }
}
