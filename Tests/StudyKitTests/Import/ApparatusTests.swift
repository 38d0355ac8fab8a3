import Foundation
import Testing

@testable import StudyKit

/// Issue 52: the document knows its apparatus. Table-driven: the heading table in five
/// languages, the sections it heads, citation and furniture lines, MediaWiki's and other
/// sites' markup, Markdown footnotes, a PDF's reference section and small-type footnotes.
@Suite("Apparatus: what a student does not study")
struct ApparatusTests {
    // MARK: - Headings

    static let apparatusHeadings: [(String, Apparatus.Strength)] = [
        ("References", .strong), ("## References[edit]", .strong), ("7. Bibliography", .strong),
        ("Further reading", .strong),
        ("External links", .strong), ("See also", .strong), ("Notes", .weak), ("Sources", .weak),
        ("Références", .strong), ("## Notes et références", .strong), ("Liens externes", .strong),
        ("Voir aussi", .strong),
        ("Bibliographie", .strong), ("Einzelnachweise", .strong), ("Weblinks", .strong), ("Siehe auch", .strong),
        ("Literatur", .weak), ("Referencias", .strong), ("Enlaces externos", .strong), ("Véase también", .strong),
        ("Bibliografía", .strong), ("参考文献", .strong), ("脚注", .strong), ("外部リンク", .strong), ("関連項目", .strong),
        ("REFERENCES", .strong), ("VII. References:", .strong),
        ("### Liens externes [modifier | modifier le code]", .strong),
    ]

    @Test(arguments: apparatusHeadings)
    func theTableKnowsApparatusHeadingsInFiveLanguages(_ heading: String, _ strength: Apparatus.Strength) {
        #expect(Apparatus.strength(ofHeading: heading[...]) == strength, "\(heading)")
    }

    @Test(arguments: [
        "Introduction", "Referencing styles in practice", "Notes on the second law", "Sources of energy", "Résumé",
        "概要", "2. Methods",
    ])
    func bodyHeadingsAreNotInTheTable(_ heading: String) {
        #expect(Apparatus.strength(ofHeading: heading[...]) == nil, "\(heading)")
    }

    // MARK: - Sections

    struct SectionCase: Sendable, CustomTestStringConvertible {
        let name: String
        let text: String
        let body: [String]
        let apparatus: [String]
        var testDescription: String { name }
    }

    static let sections: [SectionCase] = [
        SectionCase(
            name: "a marked References section ends at the next heading of its level",
            text:
                "# Tides\n\nThe moon pulls the sea.\n\n## References\n\n- Smith, J. (2001). "
                        + "Tides. Ocean Press.\n\n### Online\n\n- Tide tables, 2020.\n\n## Afterword\n\nThe "
                        + "sea keeps moving.",
            body: ["The moon pulls the sea.", "## Afterword", "The sea keeps moving."],
            apparatus: ["## References", "Smith, J. (2001)", "### Online", "Tide tables"]),
        SectionCase(
            name: "a weak heading over prose is body",
            text:
                "# Cells\n\nCells divide.\n\n## Notes\n\nMitochondria make most of the cell's "
                        + "energy. Ribosomes build proteins from amino acids in the order the messenger RNA "
                        + "gives.",
            body: ["## Notes", "Mitochondria make most"], apparatus: []),
        SectionCase(
            name: "a weak heading over citations is apparatus",
            text:
                "# Cells\n\nCells divide.\n\n## Notes\n\n- ^ Alberts, B. (2014). Molecular "
                        + "Biology of the Cell. Garland. ISBN 978-0-8153-4432-2.\n- ^ Lane, N. (2005). "
                        + "Power, Sex, Suicide. Oxford University Press. p. 12.",
            body: ["Cells divide."], apparatus: ["## Notes", "Alberts, B. (2014)"]),
        SectionCase(
            name: "a PDF's References runs to the appendix",
            text:
                "1. Introduction\n\nGlaciers flow downhill under their own weight, deforming "
                        + "slowly like a thick liquid over decades.\n\nReferences\n\nGlen, J. W. (1955). "
                        + "The creep of polycrystalline ice. Proc. R. Soc. A, 228, 519-538.\n\nCuffey, K. "
                        + "M. and Paterson, W. S. B. (2010). The Physics of Glaciers. Academic "
                        + "Press.\n\nAppendix A. Flow law constants\n\nThe rate factor depends on "
                        + "temperature and on the fabric of the ice, and it is measured in the laboratory.",
            body: ["Glaciers flow downhill", "Appendix A. Flow law constants", "The rate factor depends"],
            apparatus: ["References", "Glen, J. W. (1955)", "Cuffey, K. M."]),
        SectionCase(
            name: "a heading left over nothing but citations goes with them",
            text:
                "# Printing\n\nGutenberg printed with movable type.\n\n## Reading list\n\n- "
                        + "Eisenstein, E. L. (1979). The Printing Press as an Agent of Change. Cambridge "
                        + "University Press.\n- Febvre, L.; Martin, H.-J. (1976). The Coming of the Book. "
                        + "Verso. pp. 12–40.",
            body: ["Gutenberg printed"], apparatus: ["## Reading list", "Eisenstein"]),
    ]

    @Test(arguments: sections)
    func headingsMarkTheirSections(_ test: SectionCase) {
        let split = Apparatus.split(Apparatus.blocks(of: test.text))
        for piece in test.body {
            #expect(split.bodyText.contains(piece), "\(test.name): body lacks \(piece)")
            #expect(!split.apparatusText.contains(piece), "\(test.name): apparatus has \(piece)")
        }
        for piece in test.apparatus {
            #expect(split.apparatusText.contains(piece), "\(test.name): apparatus lacks \(piece)")
            #expect(!split.bodyText.contains(piece), "\(test.name): body has \(piece)")
        }
    }

    // MARK: - Lines

    static let citations = [
        #"van der Maaten, L.J.P.; Hinton, G.E. (Nov 2008). "Visualizing Data Using t-SNE" "#
                + #"(PDF). Journal of Machine Learning Research. 9: 2579–2605."#,
        "^ a b Gashi, I.; Stankovic, V. (2009). \"An Experimental Study\". Proceedings of NCA: 4–11.",
        "↑ a et b Jacques-Marie Bardintzeff, Volcanologie, Paris, Dunod, 2011, 304 p.",
        "- Arcus VL, Mulholland AJ. Temperature and enzyme rates. Annu Rev Biophys. "
                + "2020;49: 163–180. doi:10.1146/annurev-biophys-121219-081520",
        "[3] L. van der Maaten and G. Hinton. Visualizing data using t-SNE. JMLR, 9:2579–2605, 2008.",
        "Neil A. Campbell: Biologie. Pearson, München 2016, ISBN 978-3-86894-259-0, S. 256.",
        "Linderman, George C.; Steinerberger, Stefan (2017-06-08). \"Clustering with "
                + "t-SNE, provably\". arXiv:1706.02582 [cs.LG].",
        "\"K-means clustering on the output of t-SNE\". Cross Validated. Retrieved 2018-04-16.",
        "Archived from the original on 2 March 2016.",
        "Photosynthese. In: Pflanzenforschung.de. Abgerufen am 12. März 2024.",
        "« How many active volcanoes are there? », Smithsonian Institution (consulté le 12 mai 2023).",
        "Diekelmann, S. y Born, J. (2010). The memory function of sleep. Consultado el 2 de octubre de 2023.",
        "“ミトコンドリアのはたらき”. 科学技術振興機構. 2021年6月1日閲覧。",
        "Smith, J. (2001). Tides of the North Sea. Ocean Press.",
    ]

    @Test(arguments: citations)
    func citationLinesHaveTheirShape(_ line: String) {
        #expect(ApparatusLines.isCitation(line[...]), "\(line)")
        #expect(ApparatusLines.isApparatus(line[...], inList: true), "\(line)")
    }

    static let bodyLines = [
        "In 1905, Einstein published four papers that changed physics, among them the theory of special relativity.",
        "The retrieved documents were archived in 2010 and studied again a decade later.",
        "Paris, France (1889): the Eiffel Tower opened for the World's Fair.",
        "By the end of the war, the empire had collapsed.",
        "Share prices fell by 3% on Monday after the announcement.",
        "Follow the steps below to install the package on Debian 12.",
        "Source code is kept in the src directory.",
        "The mind map shows the chapters of the book, one branch each.",
        "Smith argued in 1998 that the sky is blue, pp. 12–14 of his notes aside.",
        "Coordinates of a point in the plane are written (x, y).",
    ]

    @Test(arguments: bodyLines)
    func bodyLinesAreNoApparatus(_ line: String) {
        #expect(!ApparatusLines.isApparatus(line[...], inList: false), "\(line)")
    }

    static let furniture = [
        "By Priya Natarajan, Science correspondent", "By Jane Doe | March 3, 2024", "Published 18 March 2024",
        "Updated 2 hours ago", "8 min de lectura", "Share this article", "Facebook Twitter Email",
        "Subscribe to our newsletter",
        "Sign up for the Planet Weekly newsletter", "Photograph: Tom Whitfield/Reuters", "Photo: studio handout",
        "Bleached coral in a lagoon off Lizard Island. (Photo by Jane Doe/Getty Images)",
        "This article is about the country.",
        "\"TSNE\" redirects here. For the Boston-based organization, see Third Sector New England.",
        "Main article: Photosynthesis", "Hauptartikel: Lichtreaktion", "Article détaillé : Magmatisme.",
        "Coordinates: 48°51′24″N 2°21′03″E", "From Wikipedia, the free encyclopedia", "Publié le 15 janvier 2024",
    ]

    @Test(arguments: furniture)
    func pageFurnitureIsApparatus(_ line: String) {
        #expect(ApparatusLines.isApparatus(line[...], inList: false), "\(line)")
    }

    @Test func bodyLinesAreCleanedOfEditLinksAndMarks() {
        #expect(ApparatusLines.cleanedBody("## Details[edit]", isHeading: true) == "## Details")
        #expect(ApparatusLines.cleanedBody("## Volcan [modifier | modifier le code]", isHeading: true) == "## Volcan")
        #expect(ApparatusLines.cleanedBody("## 構造[編集]", isHeading: true) == "## 構造")
        #expect(
            ApparatusLines.cleanedBody("The annual report (PDF) gives the figures.", isHeading: false)
                == "The annual report gives the figures.")
        #expect(
            ApparatusLines.cleanedBody("Die Photosynthese (; von altgriechisch φῶς) ist", isHeading: false)
                == "Die Photosynthese (von altgriechisch φῶς) ist")
        #expect(
            ApparatusLines.cleanedBody("It calls deflate() and setuid()s itself.", isHeading: false)
                == "It calls deflate() and setuid()s itself.")
        #expect(ApparatusLines.cleanedApparatus("^ a b van der Maaten, L. (2008).") == "van der Maaten, L. (2008).")
        #expect(ApparatusLines.cleanedApparatus("- ↑ a et b Bardintzeff, 2011.") == "Bardintzeff, 2011.")
    }

    @Test func referenceMarksAfterQuotesBracketsAndSpacesGo() {
        #expect(
            ReferenceMarkers.removed(from: "He called it “the engine of change”[17]. It spread.[2]")
                == "He called it “the engine of change”. It spread.")
        #expect(
            ReferenceMarkers.removed(from: "Founded (1905)[3] in Bern.[4] It grew.[5]")
                == "Founded (1905) in Bern. It grew.")
        let science = "Rates double every 10 °C [1]. Enzymes adapt [2, 3]. Flexible sites help [4–6]."
        #expect(
            ReferenceMarkers.removed(from: science) == "Rates double every 10 °C. Enzymes adapt. Flexible sites help.")
        // An index is no reference: `[0]`, and code in fences.
        #expect(ReferenceMarkers.removed(from: "ider [0].. ider [len-1]") == "ider [0].. ider [len-1]")
        let code = "Marks [1] [2] [3] here.\n\n```\nx = a [1]\n```"
        #expect(ReferenceMarkers.removed(from: code).hasSuffix("```\nx = a [1]\n```"))
    }

    // MARK: - Markup

    struct MarkupCase: Sendable, CustomTestStringConvertible {
        let name: String
        let html: String
        let phrase: String
        /// Whether the phrase is shown in the apparatus (else it is gone altogether).
        let shown: Bool
        var testDescription: String { name }
    }

    static let markup: [MarkupCase] = [
        MarkupCase(
            name: "MediaWiki reference list",
            html:
                #"<div class="reflist"><ol class="references"><li>Calvin, M. (1962). The path of "#
                        + #"carbon.</li></ol></div>"#,
            phrase: "The path of carbon", shown: true),
        MarkupCase(
            name: "navigation box",
            html:
                #"<table class="navbox"><tr><th class="navbox-title">Plant metabolism topics</th>"#
                        + #"</tr><tr><td>Calvin cycle, Photorespiration, Cellular respiration and more "#
                        + #"topics here</td></tr></table>"#,
            phrase: "Plant metabolism topics", shown: true),
        MarkupCase(
            name: "navigation landmark",
            html:
                #"<div role="navigation" class="navbox"><div class="navbox-title">Ocean "#
                        + #"topics</div><div>Waves, currents and tides of the world's seas</div></div>"#,
            phrase: "Ocean topics", shown: false),
        MarkupCase(
            name: "infobox rows",
            html:
                #"<table class="infobox"><tr><th>Discovered</th><td>Eighteen fifty seven by "#
                        + #"Kölliker</td></tr></table>"#,
            phrase: "Eighteen fifty seven", shown: true),
        MarkupCase(
            name: "hatnote",
            html: #"<div role="note" class="hatnote">For the song of the same name, see Tide (song).</div>"#,
            phrase: "For the song", shown: true),
        MarkupCase(
            name: "figure caption",
            html:
                #"<figure><img src="x.png" alt=""><figcaption>Waves breaking on a rocky shore at "#
                        + #"dusk in winter</figcaption></figure>"#,
            phrase: "Waves breaking", shown: true),
        MarkupCase(
            name: "thumb caption",
            html:
                #"<div class="thumb"><div class="thumbinner"><div class="thumbcaption">High tide "#
                        + #"at the harbour wall in March</div></div></div>"#,
            phrase: "High tide at the harbour wall", shown: true),
        MarkupCase(
            name: "DPUB endnotes",
            html:
                #"<section role="doc-endnotes"><ol><li>The tide tables of 1921 were printed by "#
                        + #"hand in Liverpool.</li></ol></section>"#,
            phrase: "tide tables of 1921", shown: true),
        MarkupCase(
            name: "Pandoc footnotes",
            html:
                #"<section class="footnotes"><ol><li id="fn1">Measured at the harbour gauge in "#
                        + #"Brest.</li></ol></section>"#,
            phrase: "harbour gauge in Brest", shown: true),
        MarkupCase(
            name: "edit link",
            html: #"<h2>Spring tides<span class="mw-editsection">[<a href="?action=edit">edit</a>]</span></h2>"#,
            phrase: "edit", shown: false),
        MarkupCase(
            name: "reference mark",
            html: ##"<p>Spring tides are the highest.<sup class="reference"><a href="#cite_note-4">[4]</a></sup></p>"##,
            phrase: "[4]", shown: false),
        MarkupCase(
            name: "footnote link",
            html: ##"<p>Neap tides are the lowest<sup><a href="#fn2" id="fnref2">2</a></sup> of the month.</p>"##,
            phrase: "lowest2", shown: false),
        MarkupCase(
            name: "pronunciation", html: #"<p>The tide (<span class="IPA">/taɪd/</span>) rises twice a day.</p>"#,
            phrase: "taɪd", shown: false),
    ]

    static let prose =
        "<p>"
        + String(
            repeating:
                "The sea rises and falls twice a day because the moon and the sun pull on the "
                        + "oceans of the turning earth. ",
            count: 4) + "</p>"

    @Test(arguments: markup)
    func markupSaysWhatIsApparatus(_ test: MarkupCase) throws {
        let document = try ImportFixtures.articleDocument(title: "Tides", prose: Self.prose, inner: test.html)
        #expect(!document.text.contains(test.phrase), "\(test.name): the body has \(test.phrase)")
        #expect(document.apparatus.contains(test.phrase) == test.shown, "\(test.name): apparatus \(document.apparatus)")
    }

    // MARK: - Markdown

    @Test func markdownFootnotesAreApparatusAndTheirMarksGo() throws {
        let markdown =
            "# Heat\n\nHeat flows from hot to cold.[^1] It never flows back "
                    + "alone.[^note]\n\n[^1]: Clausius, 1854.\n[^note]: Unless work is done,\n    as in "
                    + "a refrigerator.\n"
        let parts = MarkdownText.readableParts(markdown)
        #expect(parts.text.contains("Heat flows from hot to cold. It never flows back alone."))
        #expect(!parts.text.contains("Clausius"))
        #expect(parts.footnotes == ["Clausius, 1854.", "Unless work is done, as in a refrigerator."])
        let document = try ImportFixtures.document(markdown, name: "n.md")
        #expect(document.apparatus.contains("Clausius, 1854."))
        #expect(!document.text.contains("[^"))
    }

    // MARK: - PDF

    @Test func aPDFsFootnotesAndReferencesAreApparatus() async throws {
        let document = try await Importer().load(.file(ImportFixtures.sample("realpages/paper-glaciers.pdf")))
        for note in ["Forbes first measured this flow", "The water pressure at the bed can approach"] {
            #expect(!document.text.contains(note))
            #expect(document.apparatus.contains(note))
        }
        #expect(!document.text.contains("Cuffey") && document.apparatus.contains("Cuffey, K. M."))
        #expect(
            document.text.contains("the glacier begins to flow downhill. Ice crystals"),
            "the note's mark goes from the text")
        #expect(document.text.contains("3. Why it matters"))
        // The body's pages still say where each quote is.
        let late = try #require(ImportFixtures.offset(of: "The speed of glaciers controls", in: document.text))
        #expect(document.page(atCharacterOffset: late) == 2)
        #expect(document.pages.last.map { $0.range.upperBound <= document.characterCount } == true)
    }

    typealias Line = PDFLayout.PDFLine

    /// A page of body lines at 12 points, then `foot` lines at `size` points near the bottom.
    static func page(body: [String], foot: [String], size: Double) -> [Line] {
        body.enumerated().map { Line(text: $1, x: 72, top: 100 + Double($0) * 14, height: 12) }
            + foot.enumerated().map { Line(text: $1, x: 72, top: 700 + Double($0) * 10, height: size) }
    }

    static let bodyLines12 = (1...24).map { "Line \($0) of the running text of the page, set at the body's size." }

    @Test func smallTypeAtTheFootWithAMarkTheTextPointsToIsAFootnote() {
        var body = Self.bodyLines12
        body[5] = "Glaciers flow downhill.1 Ice creeps like cold honey under its own weight."
        let page = Self.page(body: body, foot: ["1 Forbes measured it in 1842 with stakes.", "9"], size: 8)
        let (pages, notes) = PDFFootnotes.separate([page, page])
        #expect(notes == ["1 Forbes measured it in 1842 with stakes.", "1 Forbes measured it in 1842 with stakes."])
        #expect(
            pages[0].contains { $0.text == "Glaciers flow downhill. Ice creeps like cold honey under its own weight." })
        #expect(pages[0].last?.text == "9", "the page number stays for the running-line pass")
    }

    @Test(arguments: [
        ("a table set small, pointed to by nothing", ["4", "CARD32 N_ROOTS", "4", "CARD32 FIRST_ROOT_OFFSET"], 8.0),
        ("a marked line in body type", ["1 Forbes measured it in 1842 with stakes."], 12.0),
        ("a note nobody points to", ["7 Forbes measured it in 1842 with stakes."], 8.0),
    ])
    func smallLinesThatAreNoFootnotesStay(_ name: String, _ foot: [String], _ size: Double) {
        let page = Self.page(body: Self.bodyLines12, foot: foot, size: size)
        let (pages, notes) = PDFFootnotes.separate([page, page])
        #expect(notes.isEmpty, "\(name)")
        #expect(pages == [page, page], "\(name)")
    }

    @Test func pagesWithoutGeometryHaveNoFootnotes() {
        let page = (Self.bodyLines12 + ["1 A note."]).map { Line(text: $0) }
        #expect(PDFFootnotes.separate([page]).footnotes.isEmpty)
    }
}
