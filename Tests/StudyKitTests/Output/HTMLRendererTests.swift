import Foundation
import Testing
@testable import StudyKit

@Suite struct HTMLRendererTests {
    static func page(_ result: AnyStudyResult, _ context: RenderContext = OutputFixtures.context()) -> String {
        HTMLRenderer.render(result, context: context)
    }

    /// The text between `<script type="application/json" id="kit-data">` and its `</script>`.
    static func embeddedData(_ page: String) throws -> String {
        let open = try #require(page.range(of: "<script type=\"application/json\" id=\"kit-data\">"))
        let close = try #require(page.range(of: "</script>", range: open.upperBound..<page.endIndex))
        return String(page[open.upperBound..<close.lowerBound])
    }

    @Test func hostileTextIsEscapedEverywhere() throws {
        let page = Self.page(.studyKit(HostileText.kit), HostileText.context())
        // Only the page's own two script elements, and no tag or handler from the model.
        #expect(page.components(separatedBy: "<script").count - 1 == 2)
        for raw in ["<img", "<svg onload", "<a href=\"javascript:", "onerror=\"", "\" onmouseover=\"", "<!--"] {
            #expect(!page.contains(raw), "raw \(raw) in the page")
        }
        #expect(page.contains("&lt;/script&gt;&lt;script&gt;document.documentElement"))
        #expect(page.contains("&lt;img src=x onerror=&quot;alert(1);"))
        #expect(!page.unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{2029}" })
    }

    @Test func embeddedJSONCannotCloseItsScriptAndStillParses() throws {
        let value: JSONValue = ["text": .string("a </script><script>x</script> & <!-- b \u{2028}")]
        let safe = HTMLRenderer.scriptSafeJSON(value)
        for raw in ["<", ">", "&", "\u{2028}"] { #expect(!safe.contains(raw)) }
        #expect(try JSONValue.parse(safe) == value)
        // In a page, the data element holds the answers and nothing from the model escapes it.
        let data = try Self.embeddedData(Self.page(.studyKit(HostileText.kit), HostileText.context()))
        let parsed = try JSONValue.parse(data)
        #expect(parsed["answers"] == [0, 2, 3])
        #expect(parsed["mindMapNodes"] == 6)
    }

    @Test(arguments: [
        (AnyStudyResult.headline(OutputFixtures.cleanKit.headline), "<h1>Cellular Respiration</h1>"),
        (.feynman(OutputFixtures.nastyFeynman), "<section id=\"feynman\""),
        (.summary(OutputFixtures.cleanKit.summary), "<section id=\"summary\""),
        (.flashcards(OutputFixtures.cleanKit.flashcards), "<section id=\"cards\""),
        (.quiz(OutputFixtures.cleanKit.quiz), "<section id=\"quiz\""),
        (.mindMap(OutputFixtures.cleanKit.mindMap), "<section id=\"mindmap\""),
    ])
    func everyTaskHasAPage(_ result: AnyStudyResult, _ marker: String) {
        let page = Self.page(result)
        #expect(page.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(page.contains(marker))
        let withoutNamespace = page.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
        #expect(!withoutNamespace.contains("http://") && !withoutNamespace.contains("https://"), "the page refers to the network")
    }

    @Test func theKitPageHasEveryPartInReadingOrder() throws {
        let page = Self.page(.studyKit(OutputFixtures.cleanKit))
        let order = ["<h1>Cellular Respiration</h1>", "id=\"summary\"", "id=\"cards\"", "id=\"quiz\"", "id=\"mindmap\""]
        let positions = try order.map { try #require(page.range(of: $0)?.lowerBound, "missing \($0)") }
        #expect(positions == positions.sorted())
        #expect(page.components(separatedBy: "<li class=\"card\"").count - 1 == 3)
        #expect(page.components(separatedBy: "<li class=\"question\"").count - 1 == 3)
        #expect(page.contains("<p class=\"print-answer\">Answer: B Mitochondrial matrix</p>"))
    }

    @Test func langComesFromTheContext() {
        var context = OutputFixtures.context()
        context.language = "fr"
        #expect(Self.page(.headline(OutputFixtures.cleanKit.headline), context).contains("<html lang=\"fr\">"))
        let document = Document(text: "x", title: nil, kind: .text, origin: "-")
        #expect(RenderContext.language(of: document) == "en")
    }

    @Test func provenanceShowsEngineModelCutAndWhichItemsWereExtracted() {
        var context = OutputFixtures.context()
        context.envelope = [
            "task": "import", "engine": "remote", "model": "big-model",
            "fitted": ["cut": false, "keptCharacters": 100, "totalCharacters": 100],
            "parts": [
                ["task": "headline", "engine": "local", "model": "small-model",
                 "fitted": ["cut": false, "keptCharacters": 100, "totalCharacters": 100], "items": []],
                ["task": "flashcards", "engine": "remote", "model": "big-model",
                 "fitted": ["cut": true, "keptCharacters": 250, "totalCharacters": 1000],
                 "items": [["path": "cards[0]", "provenance": "written"],
                           ["path": "cards[1]", "provenance": "extracted", "note": "the model's card was not grounded"]]],
                ["task": "quiz", "engine": "builtin", "model": "builtin",
                 "fitted": ["cut": false, "keptCharacters": 100, "totalCharacters": 100],
                 "items": [["path": "questions[0]", "provenance": "extracted", "note": "a key sentence"],
                           ["path": "questions[1]", "provenance": "extracted", "note": "a key sentence"]]],
            ],
        ]
        let page = Self.page(.studyKit(OutputFixtures.cleanKit), context)
        #expect(page.contains("<th scope=\"row\">headline</th><td>the local model small-model</td><td>read whole</td>"))
        #expect(page.contains("<td>the remote model big-model</td><td>cut to fit: 25% of 1000 characters read</td><td>1 written, 1 extracted</td>"))
        #expect(page.contains("the material was cut to fit"))
        // Items that differ are badged one by one; a part whose items all agree says it once.
        #expect(page.contains("<p class=\"prov prov-extracted\">extracted — the model&apos;s card was not grounded</p>"))
        #expect(page.contains("<p class=\"prov prov-written\">written</p>"))
        #expect(page.contains("<p class=\"prov part-prov\">Every item here was extracted: a key sentence.</p>"))
        #expect(!page.contains("prov-extracted\">extracted — a key sentence"))
    }

    @Test func showSourceGivesTheQuoteAndItsPDFPage() {
        let text = "First page text here.\n\nATP is the energy currency of the cell. More on page two."
        let split = "First page text here.\n\n".count
        let document = Document(text: text, title: "Cells", kind: .pdf, origin: "cells.pdf",
                                pages: [PageSpan(page: 1, range: 0..<split), PageSpan(page: 2, range: split..<text.count)])
        var context = OutputFixtures.context()
        context.pageOfQuote = QuoteLocator(document).page(of:)
        let page = Self.page(.flashcards(OutputFixtures.cleanKit.flashcards), context)
        #expect(page.contains("<summary>Show source</summary><blockquote>ATP is the energy currency of the cell.</blockquote><p class=\"page\">Page 2 of the PDF</p>"))
        // A quote that is not in the material has no page.
        #expect(page.contains("<blockquote>Oxygen is the final electron acceptor.</blockquote></details>"))
    }

    @Test func quoteLocatorFindsAQuoteByItsHeadAndNothingWithoutPages() {
        let text = String(repeating: "Filler sentence number one. ", count: 3) + "\n\nThe stroma holds the enzymes of the Calvin cycle in every chloroplast we know."
        let boundary = text.range(of: "\n\n")!.upperBound
        let offset = text.distance(from: text.startIndex, to: boundary)
        let pdf = Document(text: text, title: nil, kind: .pdf, origin: "x.pdf",
                           pages: [PageSpan(page: 4, range: 0..<offset), PageSpan(page: 5, range: offset..<text.count)])
        let locator = QuoteLocator(pdf)
        #expect(locator.page(of: "The stroma holds the enzymes of the Calvin cycle in every chloroplast we know.") == 5)
        #expect(locator.page(of: "The stroma holds the enzymes of the Calvin cycle in every chloroplast, said the model") == 5)
        #expect(locator.page(of: "Filler sentence number one.") == 4)
        #expect(locator.page(of: "Nothing like this appears.") == nil)
        #expect(QuoteLocator(Document(text: text, title: nil, kind: .text, origin: "-")).page(of: "Filler sentence") == nil)
    }

    @Test func aQuizQuestionShowsItsQuoteOnceWithItsExplanation() {
        let page = HTMLRenderer.render(.quiz(OutputFixtures.cleanKit.quiz), context: OutputFixtures.context())
        // The fixture's explanations do not quote their sentence, so the quote is shown with them.
        #expect(page.contains("<blockquote>The Krebs cycle runs in the mitochondrial matrix.</blockquote>"))
        var quoting = OutputFixtures.cleanKit.quiz
        quoting.questions[0].explanation = "The material says: “The Krebs cycle runs in the mitochondrial matrix.”"
        let once = HTMLRenderer.render(.quiz(quoting), context: OutputFixtures.context())
        #expect(!once.contains("<blockquote>The Krebs cycle runs in the mitochondrial matrix.</blockquote>"))
    }
}

@Suite struct SVGRendererTests {
    @Test func standaloneSVGIsOneEscapedDrawingWithAllLabels() {
        let svg = SVGRenderer.render(OutputFixtures.nastyMindMap, context: OutputFixtures.context())
        #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""))
        let layout = MindMapLayout(CleanResult.mindMap(OutputFixtures.nastyMindMap))
        #expect(svg.components(separatedBy: "<g class=\"node").count - 1 == layout.nodes.count)
        #expect(svg.components(separatedBy: "<path class=\"edge").count - 1 == layout.nodes.count - 1)
        #expect(svg.contains("Krebs &lt;cycle&gt; &amp;"))
        #expect(!svg.contains("<cycle>") && !svg.contains("<script") && !svg.contains("tabindex"))
        #expect(OutputFixtures.unsafeScalars(in: svg).isEmpty)
    }

    @Test func coordinatesAreShortAndExact() {
        #expect(SVGRenderer.number(12) == "12")
        #expect(SVGRenderer.number(12.25) == "12.3")
        #expect(SVGRenderer.number(-3.04) == "-3")
    }
}
