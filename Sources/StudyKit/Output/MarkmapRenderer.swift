/// A mind map as Markdown for markmap: the central topic as `#`, branches as `##`, children
/// as list items and grandchildren as nested list items.
///
/// ```
/// ---
/// title: "Central topic"
/// markmap:
///   initialExpandLevel: -1
/// ---
///
/// # Central topic
///
/// ## Branch
///
/// - Child
///   - Grandchild
/// ```
///
/// Labels are escaped like ``MarkdownRenderer``'s text; the front-matter title is a JSON
/// string, which YAML reads as a double-quoted scalar.
public enum MarkmapRenderer {
    /// The map as markmap Markdown, ending with a newline.
    /// - Parameter frontMatter: whether to start with a YAML block giving the title and
    ///   markmap's options (everything expanded).
    public static func render(_ mindMap: MindMap, context: RenderContext, frontMatter: Bool = false) -> String {
        let mindMap = CleanResult.mindMap(mindMap)
        var blocks: [String] = []
        if frontMatter {
            let title = context.cleanTitle ?? ProseText.oneLine(mindMap.centralTopic)
            blocks.append(["---", "title: " + JSONValue.string(title).compactText, "markmap:",
                "  initialExpandLevel: -1", "---"]
                .joined(separator: "\n"))
        }
        blocks.append("# " + MarkdownEscaping.heading(mindMap.centralTopic))
        for branch in mindMap.branches {
            blocks.append("## " + MarkdownEscaping.heading(branch.label))
            var lines: [String] = []
            func add(_ nodes: [MindMap.Node], depth: Int) {
                for node in nodes {
                    lines.append(String(repeating: "  ", count: depth) + "- " + MarkdownEscaping.inline(node.label))
                    add(node.children, depth: depth + 1)
                }
            }
            add(branch.children, depth: 0)
            if !lines.isEmpty { blocks.append(lines.joined(separator: "\n")) }
        }
        return blocks.joined(separator: "\n\n") + "\n"
    }
}
