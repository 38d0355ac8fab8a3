/// A mind map in Mermaid's `mindmap` syntax.
///
/// Layout: the `mindmap` line, the root at two spaces as a circle, and each level two spaces
/// deeper than its parent:
///
/// ```
/// mindmap
///   root(("Central topic"))
///     n1("Branch")
///       n2["Child"]
///         n3["Grandchild"]
/// ```
///
/// Escaping rule: every label is written inside an explicit shape as a double-quoted string
/// (`id("…")`, `id["…"]`, `root(("…"))`), so parentheses, brackets, braces, hyphens, colons
/// (`:::` classes, `::icon(`) and leading symbols in the label are text, never syntax. Mermaid's
/// quoted strings end at the next `"` and it reads labels as HTML, so after
/// ``TerminalSafety`` cleaning a label is put on one line and `"` and `` ` `` become `'`,
/// `<` becomes `‹` and `>` becomes `›`, and `%%` (a comment marker) becomes `% %`. An empty
/// label becomes `…`. Node ids are generated (`root`, `n1`, `n2` …), never taken from model text.
public enum MermaidRenderer {
    /// The map as a Mermaid `mindmap`, ending with a newline.
    public static func render(_ mindMap: MindMap) -> String {
        let mindMap = CleanResult.mindMap(mindMap)
        var lines = ["mindmap", "  root((\"" + label(mindMap.centralTopic) + "\"))"]
        var counter = 0
        func add(_ nodes: [MindMap.Node], depth: Int) {
            for node in nodes {
                counter += 1
                let indent = String(repeating: "  ", count: depth + 2)
                let text = "\"" + label(node.label) + "\""
                // Branches are rounded, deeper ideas square, so the levels read apart.
                lines.append(indent + "n\(counter)" + (depth == 0 ? "(" + text + ")" : "[" + text + "]"))
                add(node.children, depth: depth + 1)
            }
        }
        add(mindMap.branches, depth: 0)
        return lines.joined(separator: "\n") + "\n"
    }

    /// A label safe inside a Mermaid double-quoted string; see the type's escaping rule.
    static func label(_ text: String) -> String {
        var out = ""
        for character in ProseText.oneLine(text) {
            switch character {
            case "\"", "`": out.append("'")
            case "<": out.append("‹")
            case ">": out.append("›")
            case "%" where out.hasSuffix("%"): out.append(" %")
            default: out.append(character)
            }
        }
        return out.isEmpty ? "…" : out
    }
}
