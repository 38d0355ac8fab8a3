import Testing
@testable import StudyKit

@Suite struct MermaidRendererTests {
    /// One node line: indentation, id, shape delimiters and the label between the quotes.
    struct NodeLine {
        var indent: Int
        var id: String
        var open: String
        var label: String
        var close: String
    }

    static let shapes = ["((": "))", "(": ")", "[": "]"]

    /// Parses a node line strictly: `<spaces><id><open>"<label>"<close>` and nothing else, so
    /// any bracket, brace or quote outside the quotes fails the parse.
    static func parseNode(_ line: Substring) throws -> NodeLine {
        let indent = line.prefix(while: { $0 == " " }).count
        var rest = line.dropFirst(indent)
        let id = rest.prefix(while: { $0.isLetter || $0.isNumber })
        try #require(!id.isEmpty, "no id in \(line)")
        rest = rest.dropFirst(id.count)
        let open = rest.hasPrefix("((") ? "((" : String(rest.prefix(1))
        let close = try #require(shapes[open], "unknown shape in \(line)")
        rest = rest.dropFirst(open.count)
        try #require(rest.first == "\"", "label not quoted in \(line)")
        rest = rest.dropFirst()
        let endQuote = try #require(rest.firstIndex(of: "\""), "unterminated label in \(line)")
        let label = String(rest[..<endQuote])
        let after = rest[rest.index(after: endQuote)...]
        try #require(after == close, "'\(after)' after the label in \(line)")
        return NodeLine(indent: indent, id: String(id), open: open, label: label, close: close)
    }

    struct Tree: Equatable {
        var label: String
        var children: [Tree]
    }

    static func expectedTree(_ node: MindMap.Node) -> Tree {
        Tree(label: MermaidRenderer.label(TerminalSafety.clean(node.label)), children: node.children.map(expectedTree))
    }

    @Test(arguments: [OutputFixtures.nastyMindMap, OutputFixtures.cleanKit.mindMap])
    func followsTheIndentationAndEscapingRules(_ map: MindMap) throws {
        let lines = MermaidRenderer.render(map).split(separator: "\n", omittingEmptySubsequences: false)
        try #require(lines.first == "mindmap")
        try #require(lines.last == "")
        let nodes = try lines.dropFirst().dropLast().map(Self.parseNode)
        try #require(!nodes.isEmpty)
        #expect(nodes[0].indent == 2)
        #expect(nodes[0].id == "root" && nodes[0].open == "((")
        #expect(Set(nodes.map(\.id)).count == nodes.count, "ids are unique")

        // Rebuild the tree from indentation: each child two spaces deeper than its parent.
        var stack: [(indent: Int, tree: Tree)] = [(nodes[0].indent, Tree(label: nodes[0].label, children: []))]
        for node in nodes.dropFirst() {
            #expect(node.indent > 2 && node.indent.isMultiple(of: 2), "indent \(node.indent)")
            #expect(node.indent <= stack.last!.indent + 2, "jumps more than one level")
            while stack.count > 1, stack.last!.indent >= node.indent {
                let finished = stack.removeLast()
                stack[stack.count - 1].tree.children.append(finished.tree)
            }
            #expect(node.indent == stack.last!.indent + 2)
            stack.append((node.indent, Tree(label: node.label, children: [])))
        }
        while stack.count > 1 {
            let finished = stack.removeLast()
            stack[stack.count - 1].tree.children.append(finished.tree)
        }
        #expect(stack[0].tree == Self.expectedTree(MindMap.Node(label: map.centralTopic, children: map.branches)))

        for node in nodes {
            #expect(!node.label.contains("\""))
            #expect(!node.label.contains("`"))
            #expect(!node.label.contains("<") && !node.label.contains(">"))
            #expect(!node.label.contains("%%"))
            #expect(!node.label.isEmpty)
        }
    }

    @Test(arguments: [
        ("plain", "plain"),
        ("f(x) = [a]{b}", "f(x) = [a]{b}"),
        ("say \"hi\" `now`", "say 'hi' 'now'"),
        ("<b>bold</b>", "‹b›bold‹/b›"),
        ("100%% sure", "100% % sure"),
        ("line\nbreak\ttab", "line break tab"),
        ("", "…"),
    ])
    func labelRule(_ input: String, _ expected: String) {
        #expect(MermaidRenderer.label(input) == expected)
    }
}
