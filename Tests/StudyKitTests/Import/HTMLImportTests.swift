import Foundation
import Testing
@testable import StudyKit

@Suite("HTML extraction")
struct HTMLImportTests {
    func extract(_ html: String) throws -> HTMLImporter.Extraction {
        try HTMLImporter.extract(Data(html.utf8), encoding: nil, source: "test.html")
    }

    @Test func articleSampleDropsChromeAndKeepsTheArticle() async throws {
        let document = try await Importer().load(.file(ImportFixtures.sample("article.html")))
        #expect(document.kind == .html)
        #expect(document.title == "How vaccines train the immune system")
        let text = document.text
        for chrome in [
            "cookies", "Accept all", "News", "Subscribe", "ADVERTISEMENT", "Share on", "Related stories",
            "newsletter", "42 comments", "First!", "Most read", "Sponsored", "All rights reserved", "dataLayer",
            "font-family", "Tags:",
        ] {
            #expect(!text.contains(chrome), "\(chrome) should be gone")
        }
        let order = [
            "# How vaccines train the immune system", "A vaccine teaches", "## The two arms of immunity",
            "The innate immune system", "The adaptive immune system", "## What a vaccine contains",
            "- Live attenuated vaccines", "- mRNA vaccines", "## Memory and booster doses", "## Herd immunity",
            "around 95 per cent.",
        ]
        let offsets = try order.map { try #require(ImportFixtures.offset(of: $0, in: text), "\($0)") }
        #expect(offsets == offsets.sorted())
        #expect(text.contains("\n\n## The two arms of immunity\n\n"))
        #expect(text.contains("rubella vaccine.\n- Inactivated vaccines"))
    }

    @Test func titlePrefersOpenGraphThenTitleThenH1() throws {
        let og = try extract(#"<html><head><meta property="og:title" content="OG"><title>T</title></head><body><h1>H</h1><p>x</p></body></html>"#)
        #expect(og.title == "OG")
        let title = try extract("<html><head><title> The  Title </title></head><body><h1>H</h1><p>x</p></body></html>")
        #expect(title.title == "The Title")
        let h1 = try extract("<html><body><h1>Heading One</h1><p>x</p></body></html>")
        #expect(h1.title == "Heading One")
        let none = try extract("<html><body><p>x</p></body></html>")
        #expect(none.title == nil)
    }

    @Test func headingsListsAndParagraphsAreStructured() throws {
        let html = """
            <html><body><div class="content">
            <h2>Cells</h2><p>All living things are made of cells, which are the basic units of life, structure and function.</p>
            <h3>Organelles</h3><ol><li>Nucleus</li><li>Mitochondria <ul><li>make ATP</li></ul></li></ol>
            <p>Line one<br>line two</p>
            </div></body></html>
            """
        let text = SourceNormalizer.normalizeText(try extract(html).text)
        #expect(text == "## Cells\n\nAll living things are made of cells, which are the basic units of life, structure and function.\n\n### Organelles\n\n- Nucleus\n- Mitochondria\n- make ATP\n\nLine one\nline two")
    }

    @Test func aHeadingsPermalinkIsNotText() throws {
        // Sphinx (Read the Docs, docs.python.org) ends every heading with a "¶" link to itself.
        let html = """
            <html><body><div class="body" role="main"><section id="versions">
            <h2>Versions<a class="headerlink" href="#versions" title="Link to this heading">¶</a></h2>
            <p>The default Debian Python version is the one the python3 package depends on, and it changes with each release.</p>
            <h3 id="main">Main packages<a href="#main">#</a></h3>
            <p>Every Python version provided in Debian has its own binary package, and a minimal one for the runtime.</p>
            <p>See <a href="#versions">the versions</a> above.</p>
            </section></div></body></html>
            """
        let text = SourceNormalizer.normalizeText(try extract(html).text)
        #expect(!text.contains("¶") && !text.contains("Main packages#"), "\(text)")
        #expect(text.contains("## Versions\n") && text.contains("### Main packages\n"), "\(text)")
        #expect(text.contains("See the versions above."), "an in-page link with words stays: \(text)")
    }

    @Test func hiddenAndChromeByClassAreDropped() throws {
        let html = """
            <html><body><article>
            <p>Photosynthesis converts light energy into chemical energy, stored in sugars, in plants and algae.</p>
            <div style="display: none">hidden text</div><div hidden>also hidden</div>
            <div class="social-share">Tweet this</div><div id="comments">a comment</div>
            <div class="content has-sidebar"><p>Kept because its class names a content wrapper, despite the sidebar hint.</p></div>
            </article></body></html>
            """
        let text = try extract(html).text
        #expect(text.contains("Photosynthesis converts"))
        #expect(text.contains("Kept because"))
        for gone in ["hidden text", "also hidden", "Tweet this", "a comment"] { #expect(!text.contains(gone)) }
    }

    @Test func theBestScoringContainerWinsOverLinkLists() throws {
        let html = """
            <html><body>
            <div id="links"><p><a href="/1">Link one is a long link text here</a>, <a href="/2">link two is also long text</a></p></div>
            <div id="story"><p>The Treaty of Westphalia, signed in 1648, ended the Thirty Years War, and it shaped the modern idea of state sovereignty.</p>
            <p>Historians, however, debate how far the treaty really created the system named after it, and how much is later myth.</p></div>
            </body></html>
            """
        let text = try extract(html).text
        #expect(text.hasPrefix("The Treaty of Westphalia"))
        #expect(!text.contains("Link one"))
    }

    @Test func declaredCharsetIsHonoured() async throws {
        let document = try await Importer().load(.file(ImportFixtures.path("latin1.html")))
        #expect(document.title == "Café crème")
        #expect(document.text.contains("Le café est une boisson très populaire"))
        #expect(document.text.contains("Naïve readers"))
    }

    @Test func httpCharsetWinsForBytesWithoutMeta() throws {
        let bytes = Data("<html><body><p>Cr".utf8) + Data([0xE8]) + Data("me br".utf8) + Data([0xFB]) + Data("l".utf8) + Data([0xE9, 0x65]) + Data(" is a dessert with a layer of hard caramel on top.</p></body></html>".utf8)
        let extraction = try HTMLImporter.extract(bytes, encoding: "iso-8859-1", source: "x")
        #expect(extraction.text.contains("Crème brûlée"))
    }
}
