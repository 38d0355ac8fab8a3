/// The mind map drawn as SVG from ``MindMapLayout``: `studykit mindmap --format svg`, and the
/// drawing inside the HTML page.
///
/// Every label is XML-escaped; the drawing carries no script, no link and no external
/// reference. Each node is a `<g class="node">` holding its box (`<rect>`) and its wrapped
/// label (`<text>` with one `<tspan>` a line); curves from parent to child are `<path class="edge">`.
/// On the page, a node with children is also a button (`tabindex`, `aria-expanded`) that the
/// page's script folds and unfolds.
public enum SVGRenderer {
    /// A standalone SVG file: XML declaration, its own style sheet (light and dark), no script.
    public static func render(_ mindMap: MindMap, context: RenderContext) -> String {
        let map = CleanResult.mindMap(mindMap)
        let title = ProseText.oneLine(map.centralTopic)
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + drawing(MindMapLayout(map), title: "Mind map: " + title, idPrefix: "mm", interactive: false,
            style: style) + "\n"
    }

    /// The drawing for the HTML page: styled by the page, nodes with children foldable.
    static func inline(_ layout: MindMapLayout, title: String) -> String {
        drawing(layout, title: title, idPrefix: "mm", interactive: true, style: nil)
    }

    /// The drawing's style sheet; the page includes it too, so both look the same.
    static let style = """
        .mindmap{font-family:"DejaVu Sans",Verdana,"Segoe \
        UI",sans-serif;--mm-text:#17202c;--mm-box:#ffffff;--mm-root:#1d3557;--mm-root-text:#ffffff}
        .mindmap text{fill:var(--mm-text);font-weight:600}
        .mindmap .d0 text{fill:var(--mm-root-text);font-weight:700}
        .mindmap .d1 text{font-weight:700}
        .mindmap rect{fill:var(--mm-box);stroke:var(--mm-c,#5b6b80);stroke-width:1.5}
        .mindmap .d0 rect{fill:var(--mm-root);stroke:var(--mm-root)}
        .mindmap .d1 rect{stroke-width:2.5}
        .mindmap .edge{fill:none;stroke:var(--mm-c,#5b6b80);stroke-width:2;opacity:.75}
        .mindmap .toggle circle{fill:var(--mm-box);stroke:var(--mm-c,#5b6b80);stroke-width:1.5}
        .mindmap .toggle path{stroke:var(--mm-text);stroke-width:1.8}
        .mindmap .b0{--mm-c:#1f6feb}.mindmap .b1{--mm-c:#b35900}.mindmap .b2{--mm-c:#1a7f37}.mindmap .b3{--mm-c:#a626a4}
        .mindmap .b4{--mm-c:#cf222e}.mindmap .b5{--mm-c:#0a7a8a}.mindmap .b6{--mm-c:#7a5c00}.mindmap .b7{--mm-c:#5a55d6}
        @media (prefers-color-scheme:dark){.mindmap{--mm-text:#e8edf4;--mm-box:#161b22;--mm-root:#cfe0ff;\
        --mm-root-text:#0b1526}
        .mindmap .b0{--mm-c:#58a6ff}.mindmap .b1{--mm-c:#f0883e}.mindmap .b2{--mm-c:#3fb950}.mindmap .b3{--mm-c:#d2a8ff}
        .mindmap .b4{--mm-c:#ff7b72}.mindmap .b5{--mm-c:#39c5cf}.mindmap .b6{--mm-c:#d29922}.mindmap \
        .b7{--mm-c:#a5a0ff}}
        """

    // MARK: - Drawing

    private static func drawing(_ layout: MindMapLayout, title: String, idPrefix: String, interactive: Bool,
        style: String?) -> String {
        var out: [String] = []
        var size = "width=\"\(number(layout.width))\" height=\"\(number(layout.height))\""
        // On the page the drawing shrinks to the frame, but not below 720 units: past that it scrolls.
        if interactive { size += " style=\"min-width:\(number(min(720, layout.width)))px\"" }
        let role = interactive ? "role=\"group\" aria-roledescription=\"mind map\"" : "role=\"img\""
        out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"mindmap\" viewBox=\"0 0 \(number(layout.width)) "
            + "\(number(layout.height))\" \(size) \(role) aria-labelledby=\"\(idPrefix)-title\">")
        out.append("<title id=\"\(idPrefix)-title\">\(OutputText.markupEscaped(title))</title>")
        if let style { out.append("<style>\n\(style)\n</style>") }
        out.append("<g class=\"edges\">")
        for node in layout.nodes {
            guard let parentID = node.parent else { continue }
            out.append("<path class=\"edge\(branchClass(node))\" data-to=\"\(node.id)\" "
                + "d=\"\(curve(from: layout.nodes[parentID], to: node))\"/>")
        }
        out.append("</g>")
        for node in layout.nodes {
            out.append(group(node, idPrefix: idPrefix, interactive: interactive))
        }
        out.append("</svg>")
        return out.joined(separator: "\n")
    }

    private static func group(_ node: MindMapLayout.Node, idPrefix: String, interactive: Bool) -> String {
        let frame = node.frame
        var attributes = "class=\"node d\(node.depth)\(branchClass(node))\" id=\"\(idPrefix)-\(node.id)\""
        if let parent = node.parent { attributes += " data-parent=\"\(parent)\"" }
        let foldable = interactive && node.depth > 0 && node.childCount > 0
        if foldable { attributes += " tabindex=\"0\" role=\"button\" aria-expanded=\"true\"" }
        var parts = ["<g \(attributes)>"]
        parts.append("<rect x=\"\(number(frame.x))\" y=\"\(number(frame.y))\" width=\"\(number(frame.width))\" "
            + "height=\"\(number(frame.height))\" rx=\"\(node.depth == 0 ? 12 : 7)\"/>")
        let lineHeight = node.fontSize * MindMapLayout.Metrics().lineHeight
        let centerX = frame.x + frame.width / 2
        // The first baseline: the padding, half the line's leading, then the font's ascent (~0.93 em).
        let firstBaseline =
            frame.y + MindMapLayout.Metrics().paddingY + (lineHeight - 1.16 * node.fontSize) / 2 + 0.93 * node.fontSize
        var text = "<text text-anchor=\"middle\" font-size=\"\(number(node.fontSize))\">"
        for (index, line) in node.lines.enumerated() {
            text += "<tspan x=\"\(number(centerX))\" "
                + "y=\"\(number(firstBaseline + Double(index) * lineHeight))\">"
                + "\(OutputText.markupEscaped(line))</tspan>"
        }
        parts.append(text + "</text>")
        if foldable {
            // A −/+ marker on the outer edge shows the branch can be folded; the script flips it.
            let x = node.side == .left ? frame.x : frame.maxX, y = frame.midY
            parts.append("<g class=\"toggle\" aria-hidden=\"true\"><circle cx=\"\(number(x))\" cy=\"\(number(y))\" "
                + "r=\"7\"/><path d=\"M\(number(x - 3.5)) \(number(y))h7\"/><path class=\"plus\" d=\"M\(number(x)) "
                + "\(number(y - 3.5))v7\"/></g>")
        }
        parts.append("</g>")
        return parts.joined()
    }

    private static func branchClass(_ node: MindMapLayout.Node) -> String {
        node.branch.map { " b\($0 % 8)" } ?? ""
    }

    /// A horizontal S-curve from the parent's facing edge to the child's.
    private static func curve(from parent: MindMapLayout.Node, to child: MindMapLayout.Node) -> String {
        let toLeft = child.side == .left
        let startX = toLeft ? parent.frame.x : parent.frame.maxX
        let endX = toLeft ? child.frame.maxX : child.frame.x
        let startY = parent.frame.midY, endY = child.frame.midY
        let middle = (startX + endX) / 2
        return "M\(number(startX)) \(number(startY))C\(number(middle)) \(number(startY)) \(number(middle)) "
            + "\(number(endY)) \(number(endX)) \(number(endY))"
    }

    /// A coordinate with at most one decimal, without a trailing `.0`.
    static func number(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
