/// OPML 2.0 outlines, for outliners and mind-map apps that import OPML.
///
/// Every attribute value and the title are XML-escaped (`&`, `<`, `>`, `"`, `'`); characters
/// XML 1.0 cannot carry are removed (``TerminalSafety`` already removed control characters),
/// and a tab or newline inside a value is written as a character reference so an XML parser
/// keeps it rather than turning it into a space.
public enum OPMLRenderer {
    /// The mind map: one top outline for the central topic, nested outlines below it.
    public static func render(_ mindMap: MindMap, context: RenderContext) -> String {
        let mindMap = CleanResult.mindMap(mindMap)
        var body: [String] = []
        mapOutline(mindMap, into: &body)
        return document(title: context.cleanTitle ?? ProseText.oneLine(mindMap.centralTopic), body: body)
    }

    /// The summary: one outline holding the overview as its `_note`, the key points below it.
    public static func render(_ summary: Summary, context: RenderContext) -> String {
        let summary = CleanResult.summary(summary)
        var body: [String] = []
        summaryOutline(summary, into: &body)
        return document(title: context.cleanTitle ?? "Summary", body: body)
    }

    /// The whole kit: the mind map's outline, then the summary's key points as an outline.
    public static func render(_ kit: StudyKitBundle, context: RenderContext) -> String {
        let kit = CleanResult.kit(kit)
        var body: [String] = []
        mapOutline(kit.mindMap, into: &body)
        summaryOutline(kit.summary, into: &body)
        let title = ProseText.oneLine(kit.headline.title)
        return document(title: title.isEmpty ? (context.cleanTitle ?? "Study kit") : title, body: body)
    }

    // MARK: - Building

    private static func mapOutline(_ mindMap: MindMap, into lines: inout [String]) {
        func add(_ node: MindMap.Node, depth: Int) {
            let indent = String(repeating: "  ", count: depth)
            let open = indent + "<outline text=\"" + escaped(node.label) + "\""
            if node.children.isEmpty {
                lines.append(open + "/>")
            } else {
                lines.append(open + ">")
                for child in node.children { add(child, depth: depth + 1) }
                lines.append(indent + "</outline>")
            }
        }
        add(MindMap.Node(label: mindMap.centralTopic, children: mindMap.branches), depth: 2)
    }

    private static func summaryOutline(_ summary: Summary, into lines: inout [String]) {
        lines.append("    <outline text=\"Key points\" _note=\"" + escaped(summary.overview) + "\">")
        for point in summary.keyPoints {
            lines.append("      <outline text=\"" + escaped(point) + "\"/>")
        }
        lines.append("    </outline>")
    }

    private static func document(title: String, body: [String]) -> String {
        ([
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<opml version=\"2.0\">",
            "  <head>",
            "    <title>" + escaped(title) + "</title>",
            "  </head>",
            "  <body>",
        ] + body + [
            "  </body>",
            "</opml>",
        ]).joined(separator: "\n") + "\n"
    }

    static func escaped(_ text: String) -> String { OutputText.markupEscaped(text) }
}
