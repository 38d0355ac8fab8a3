#if canImport(FoundationXML)
import FoundationXML
#else
import Foundation
#endif
import Testing
@testable import StudyKit

@Suite struct OPMLRendererTests {
    static let context = OutputFixtures.context()

    /// A parsed outline: its text and children.
    struct Outline: Equatable {
        var text: String
        var children: [Outline]

        var depth: Int { 1 + (children.map(\.depth).max() ?? 0) }
    }

    static func outlines(of element: XMLElement) -> [Outline] {
        element.elements(forName: "outline").map {
            Outline(text: $0.attribute(forName: "text")?.stringValue ?? "<missing>", children: outlines(of: $0))
        }
    }

    static func expected(_ node: MindMap.Node) -> Outline {
        Outline(text: TerminalSafety.clean(node.label), children: node.children.map(expected))
    }

    static func parse(_ text: String) throws -> XMLDocument {
        try XMLDocument(xmlString: text, options: [])
    }

    @Test(arguments: [OutputFixtures.nastyMindMap, OutputFixtures.cleanKit.mindMap])
    func mindMapIsWellFormedOPMLWithTheMapsNesting(_ map: MindMap) throws {
        let document = try Self.parse(OPMLRenderer.render(map, context: Self.context))
        let root = try #require(document.rootElement())
        #expect(root.name == "opml")
        #expect(root.attribute(forName: "version")?.stringValue == "2.0")
        let title = try #require(root.elements(forName: "head").first?.elements(forName: "title").first)
        #expect(title.stringValue == "Cells 101")
        let body = try #require(root.elements(forName: "body").first)
        let top = Self.outlines(of: body)
        try #require(top.count == 1)
        let central = MindMap.Node(label: map.centralTopic, children: map.branches)
        #expect(top[0] == Self.expected(central))
        #expect(top[0].depth == 1 + Self.mapDepth(map.branches))
    }

    static func mapDepth(_ nodes: [MindMap.Node]) -> Int {
        nodes.isEmpty ? 0 : 1 + nodes.map { mapDepth($0.children) }.max()!
    }

    @Test func attributeValuesRoundTripExactly() throws {
        let map = MindMap(centralTopic: "a & b < c > d \"e\" 'f'", branches: [
            .init(label: "tab\there\nnewline"), .init(label: "\u{1b}[31mred\u{200B}"),
        ])
        let document = try Self.parse(OPMLRenderer.render(map, context: Self.context))
        let body = try #require(document.rootElement()?.elements(forName: "body").first)
        let top = Self.outlines(of: body)
        #expect(top.first?.text == "a & b < c > d \"e\" 'f'")
        #expect(top.first?.children.map(\.text) == ["tab\there\nnewline", "red"])
    }

    @Test func escapesAllFiveXMLCharacters() {
        #expect(OPMLRenderer.escaped("<a href=\"x\">'&'</a>") == "&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;")
    }

    @Test func kitAddsTheSummaryKeyPointsAsAnOutline() throws {
        let kit = OutputFixtures.nastyKit
        let document = try Self.parse(OPMLRenderer.render(kit, context: Self.context))
        let root = try #require(document.rootElement())
        #expect(root.elements(forName: "head").first?.elements(forName: "title").first?.stringValue == "Cells & <Energy> 🧠")
        let top = Self.outlines(of: try #require(root.elements(forName: "body").first))
        try #require(top.count == 2)
        #expect(top[0] == Self.expected(MindMap.Node(label: kit.mindMap.centralTopic, children: kit.mindMap.branches)))
        #expect(top[1].text == "Key points")
        #expect(top[1].children.map(\.text) == kit.summary.keyPoints.map(TerminalSafety.clean))
    }

    @Test func summaryAloneIsWellFormed() throws {
        let document = try Self.parse(OPMLRenderer.render(OutputFixtures.nastySummary, context: Self.context))
        let body = try #require(document.rootElement()?.elements(forName: "body").first)
        let keyPoints = try #require(body.elements(forName: "outline").first)
        #expect(keyPoints.attribute(forName: "_note")?.stringValue == TerminalSafety.clean(OutputFixtures.nastySummary.overview))
        #expect(keyPoints.elements(forName: "outline").count == OutputFixtures.nastySummary.keyPoints.count)
    }
}
