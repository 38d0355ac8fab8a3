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

        init(_ text: String, _ children: [Outline] = []) {
            self.text = text
            self.children = children
        }

        init(text: String, children: [Outline]) { self.init(text, children) }

        var depth: Int { 1 + (children.map(\.depth).max() ?? 0) }
    }

    static func outlines(of element: XMLElement) -> [Outline] {
        element.elements(forName: "outline").map {
            Outline(text: $0.attribute(forName: "text")?.stringValue ?? "<missing>", children: outlines(of: $0))
        }
    }

    /// The nasty fixture map as an outline, written out: labels as the terminal-safe renderer
    /// keeps them (control characters and invisible characters gone, everything else verbatim).
    static let nastyOutline = Outline("Cell (respiration) [ATP]", [
        Outline("Glycolysis {cytoplasm}", [
            Outline("Glucose → 2 \"pyruvate\"", [
                Outline("Net: 2 ATP"),
                Outline("%% not a comment"),
            ]),
            Outline("No O₂ needed"),
        ]),
        Outline("Krebs <cycle> & ETC", [
            Outline("::icon(fa fa-book) in matrix", [
                Outline("`CO2` out"),
            ]),
            Outline(":::urgent click"),
        ]),
        Outline("مرحبا 🧠 / 'quotes'"),
    ])

    /// The clean fixture kit's map as an outline.
    static let cleanOutline = Outline("Cellular respiration", [
        Outline("Glycolysis", [
            Outline("In the cytoplasm"),
            Outline("Makes 2 ATP"),
        ]),
        Outline("Krebs cycle", [
            Outline("In the matrix", [
                Outline("Releases CO2"),
            ]),
        ]),
        Outline("Electron transport chain"),
    ])

    static func parse(_ text: String) throws -> XMLDocument {
        try XMLDocument(xmlString: text, options: [])
    }

    @Test(arguments: [(OutputFixtures.nastyMindMap, nastyOutline, 4), (OutputFixtures.cleanKit.mindMap, cleanOutline, 4)])
    func mindMapIsWellFormedOPMLWithTheMapsNesting(_ map: MindMap, expected: Outline, depth: Int) throws {
        let document = try Self.parse(OPMLRenderer.render(map, context: Self.context))
        let root = try #require(document.rootElement())
        #expect(root.name == "opml")
        #expect(root.attribute(forName: "version")?.stringValue == "2.0")
        let title = try #require(root.elements(forName: "head").first?.elements(forName: "title").first)
        #expect(title.stringValue == "Cells 101")
        let body = try #require(root.elements(forName: "body").first)
        let top = Self.outlines(of: body)
        try #require(top.count == 1)
        #expect(top[0] == expected)
        #expect(top[0].depth == depth)
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
        #expect(top[0] == Self.nastyOutline)
        #expect(top[1].text == "Key points")
        #expect(top[1].children.map(\.text) == ["Glycolysis: 2 ATP", "Krebs cycle | citric acid", "ETC → ~34 ATP", "שלום and مرحبا stay", "> not a quote"])
    }

    @Test func summaryAloneIsWellFormed() throws {
        let document = try Self.parse(OPMLRenderer.render(OutputFixtures.nastySummary, context: Self.context))
        let body = try #require(document.rootElement()?.elements(forName: "body").first)
        let keyPoints = try #require(body.elements(forName: "outline").first)
        #expect(keyPoints.attribute(forName: "_note")?.stringValue == "Cells turn glucose into ATP.\tThey use oxygen (mostly). See [link](http://x.example).")
        #expect(keyPoints.elements(forName: "outline").count == 5)
    }
}
