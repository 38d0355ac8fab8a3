import Foundation
import Testing
@testable import StudyKit

/// Section headings of typeset manuals as poppler lays their lines out (synthetic lines with
/// their geometry, in the shapes found in the BibTeX and TeX Live guides): each heading stays,
/// with its number, in order.
@Suite("PDF headings of manuals")
struct PDFHeadingLayoutTests {
    typealias Line = PDFLayout.PDFLine

    /// Body lines of running text, 12 points apart from `top`; `page` names the page in them
    /// (pages that repeat a line at one height would have it taken for a running header).
    static func body(_ sentences: [String], top: Double, page: Int = 1) -> [Line] {
        let name = ["one", "two", "three", "four", "five"][page - 1]
        return sentences.enumerated().map { Line(text: $1.replacingOccurrences(of: "page", with: "page \(name)"), x: 72, top: top + Double($0) * 12) }
    }

    static let filler = [
        "This paragraph of the manual runs over several full lines of text so that the page",
        "has the width of a full line to compare the headings and the last lines against, as",
        "any page of running text has in a typeset document of this kind and of this length.",
    ]

    /// Pages numbered at the bottom; page 2 opens with a section whose number is set apart from
    /// its title on the same baseline, at the top of the page.
    static let bottomNumbered: [[Line]] = [
        [Line(text: "BIBTEXING", x: 200, top: 60), Line(text: "1", x: 72, top: 150), Line(text: "Overview", x: 95, top: 150)]
            + body(filler, top: 170, page: 1) + [Line(text: "1", x: 300, top: 730)],
        [Line(text: "2", x: 72, top: 90), Line(text: "Changes", x: 95, top: 90)] + body(filler, top: 110, page: 2)
            + [Line(text: "2", x: 300, top: 760)],
        body(filler, top: 90, page: 3) + [Line(text: "3", x: 72, top: 300), Line(text: "The Entries", x: 95, top: 300)]
            + body(filler, top: 320, page: 4) + [Line(text: "3", x: 300, top: 760)],
        body(filler, top: 90, page: 5) + [Line(text: "4", x: 300, top: 760)],
    ]

    @Test func aSectionNumberAtTheTopOfAPageIsNoPageNumber() {
        let text = PDFLayout.normalizePDF(lines: Self.bottomNumbered).text
        #expect(text.hasPrefix("BIBTEXING\n\n1 Overview\n\n"), "\(text)")
        #expect(text.contains("\n\n2 Changes\n\nThis paragraph"), "\(text)")
        #expect(text.contains("\n\n3 The Entries\n\nThis paragraph"), "\(text)")
        #expect(text.hasSuffix("of this length."), "the page numbers themselves go: \(text)")
        #expect(!text.contains("length.\n\n1\n\n"), "page 1's number, alone at its own height, goes too: \(text)")
    }

    /// Pages numbered at the top right beside a running header; poppler puts the page's number
    /// between a section's number and its title, and a chapter's number after its title (a
    /// command's name in lower case: "tlmgr: Managing your installation").
    static let topNumbered: [[Line]] = (1...4).map { page in
        var lines = [Line(text: "2", x: 74, top: 38), Line(text: "OVERVIEW OF TEX LIVE", x: 89, top: 38)]
        if page == 2 {
            lines += [Line(text: "2.2", x: 74, top: 72), Line(text: "\(page)", x: 515, top: 38), Line(text: "Top level directories", x: 105, top: 72)]
        } else {
            lines.append(Line(text: "\(page)", x: 515, top: 38))
        }
        lines += body(filler, top: 91, page: page)
        if page == 3 {
            lines += [Line(text: "tlmgr: Managing your installation", x: 98, top: 160), Line(text: "3", x: 74, top: 160)]
            lines += body(filler, top: 185, page: 5)
        }
        return lines
    }

    @Test func aPageNumberInsideTheReadingOrderAndAChapterNumberAfterItsTitleFindTheirPlaces() {
        var pages = Self.topNumbered
        // Chapter 2 was seen before: the next chapter is 3.
        pages[0].insert(contentsOf: [Line(text: "2", x: 74, top: 60), Line(text: "Overview of the distribution", x: 89, top: 60)], at: 3)
        let text = PDFLayout.normalizePDF(lines: pages).text
        #expect(text.contains("\n\n2.2 Top level directories\n\nThis paragraph"), "\(text)")
        #expect(text.contains("\n\n3 tlmgr: Managing your installation\n\nThis paragraph"), "\(text)")
        #expect(!text.contains("OVERVIEW OF TEX LIVE"), "\(text)")
        #expect(!text.contains("\n\n2\n\n") && !text.contains("\n\n3\n\n"), "\(text)")
    }

    /// PDF text has no Markdown: a code line that opens with `#` (BibTeX's concatenation) stays
    /// with the code before it instead of reading as a heading.
    @Test func aLineOpeningWithAHashIsNoHeading() {
        let page = Self.body(Self.filler, top: 90) + [
            Line(text: "@PREAMBLE{ \"\\newcommand{\\noopsort}[1]{} \"", x: 90, top: 140),
            Line(text: "# \"\\newcommand{\\singleletter}[1]{#1} \" }", x: 120, top: 160),
            Line(text: "(note the use of concatenation here, too). The standard styles output whatever", x: 72, top: 185),
        ]
        let text = PDFLayout.normalizePDF(lines: [page]).text
        #expect(!text.contains("\n# "), "\(text)")
        #expect(text.contains("@PREAMBLE{ \"\\newcommand{\\noopsort}[1]{} \" # \"\\newcommand{\\singleletter}[1]{#1} \" }"), "\(text)")
    }
}

extension PDFHeadingLayoutTests {
    /// A numbered heading at the foot of a page heads the next page, which opens with a
    /// function's name in lower case (libtasn1's "4.2 ASN.1 field functions", "asn1 array2tree").
    @Test func aHeadingAtTheFootOfAPageDoesNotRunIntoTheNextPage() {
        let pages = [
            Self.body(Self.filler, top: 90, page: 1) + [Line(text: "4.2 ASN.1 field functions", x: 90, top: 701)],
            [Line(text: "asn1 array2tree", x: 90, top: 98)] + Self.body(Self.filler, top: 126, page: 2),
        ]
        let text = PDFLayout.normalizePDF(lines: pages).text
        #expect(text.contains("\n\n4.2 ASN.1 field functions\n\nasn1 array2tree"), "\(text)")
        // A sentence cut by the page break still runs on.
        let cut = [Self.body(Self.filler, top: 90, page: 1) + [Line(text: "and the value of the", x: 72, top: 701)],
                   [Line(text: "field is read from the schema.", x: 72, top: 98)] + Self.body(Self.filler, top: 126, page: 2)]
        #expect(PDFLayout.normalizePDF(lines: cut).text.contains("and the value of the field is read from the schema."))
    }
}

extension PDFHeadingLayoutTests {
    /// A line displayed inside a sentence (natbib's notes: "changes the output of", then
    /// "\citep{jon90}" set apart, then "into (Jones et al. 1990).") leaves the sentence whole,
    /// while a heading's own gap still starts its section.
    @Test func aLineDisplayedInsideASentenceLeavesTheSentenceWhole() {
        let page = [
            Line(text: "Citation aliasing", x: 72, top: 70),
            Line(text: "Defaults are authoryear, round and comma, which the package sets for every document.", x: 72, top: 90),
            Line(text: "Example 1, the style command with square brackets changes the author-year output of", x: 72, top: 106),
            Line(text: "\\citep{jon90,jon91}", x: 96, top: 119),
            Line(text: "into [Jones et al. 1990; 1991], as the notes of the package show for every style here.", x: 72, top: 136),
            Line(text: "Example 2, the style command with round brackets changes the output of the citation", x: 72, top: 148),
            Line(text: "command in the same way, and the notes of the package show that for every style here.", x: 72, top: 160),
        ] + Self.body(Self.filler, top: 172, page: 1)
        let text = PDFLayout.normalizePDF(lines: [page]).text
        #expect(text.contains("changes the author-year output of \\citep{jon90,jon91} into [Jones et al. 1990; 1991], as the notes"), "\(text)")
        #expect(text.hasPrefix("Citation aliasing\n\nDefaults are"), "\(text)")
        #expect(text.contains("every document.\n\nExample 1, the style command"), "a sentence that opens after a gap opens a paragraph: \(text)")
    }
}

extension PDFHeadingLayoutTests {
    /// A subsection's number set apart from its title joins it whatever the title opens with:
    /// capitals, a command in lower case, a symbol (the TeX Live guide's 5.1, 7.2.2, 7.4).
    @Test func aSubsectionNumberJoinsATitleInCapitalsLowerCaseOrSymbols() {
        var chapter = 7
        let paragraphs = ["5.1", "GUI interfaces for tlmgr", "TEX Live contains several front-ends.", "7.2.2", "kpsewhich: Standalone path searching",
                          "The program searches paths.", "7.4", "$TEXMFDOTDIR", "Search paths start with a dot."]
        #expect(PDFLayout.numberedHeadings(paragraphs, chapter: &chapter) == [
            "5.1 GUI interfaces for tlmgr", "TEX Live contains several front-ends.", "7.2.2 kpsewhich: Standalone path searching",
            "The program searches paths.", "7.4 $TEXMFDOTDIR", "Search paths start with a dot.",
        ])
        // A table's rows of a number and a cell stay rows.
        var none = 0
        #expect(PDFLayout.numberedHeadings(["2", "CARD16", "4", "CARD32 N_ALIASES"], chapter: &none) == ["2", "CARD16", "4", "CARD32 N_ALIASES"])
    }
}

extension PDFHeadingLayoutTests {
    /// A heading followed by a command's name in lower case, and a line of links before a
    /// heading, keep their breaks (libtasn1's "3.1 Invoking asn1Parser", "asn1Parser reads …").
    @Test func aHeadingBeforeALowerCaseCommandStaysAHeading() {
        let page = Self.body(Self.filler, top: 90, page: 1) + [
            Line(text: "General help using GNU software: <https://www.gnu.org/gethelp/> and the home page of it>", x: 72, top: 126),
            Line(text: "3.2 Invoking asn1Coding", x: 72, top: 150),
            Line(text: "asn1Coding generates a DER encoding from a file with ASN.1 definitions and another one", x: 72, top: 174),
        ] + Self.body(Self.filler, top: 186, page: 2)
        let text = PDFLayout.normalizePDF(lines: [page]).text
        #expect(text.contains("\n\n3.2 Invoking asn1Coding\n\nasn1Coding generates"), "\(text)")
    }
}

extension PDFHeadingLayoutTests {
    /// In a document of code (LaTeX's first aid: numbered listings), most lines are short, so a
    /// title is as long as a full line; it still heads its paragraph, which opens with a
    /// package's name in lower case.
    @Test func aTitleAmongShortCodeLinesKeepsItsBreak() {
        let code = (0..<12).map { n in Line(text: "\(n) \\AddToHook{package/after}{#1}", x: 144, top: 90 + Double(n) * 11.5) }
        let page = code + [
            Line(text: "2.4", x: 144, top: 250),
            Line(text: "The pgfpages and pgfmorepages first aid", x: 175, top: 250),
            Line(text: "pgfpages alters the shipout primitive to support multiple", x: 144, top: 270),
            Line(text: "page up scenarios, as the package documents.", x: 144, top: 281.5),
        ]
        let text = PDFLayout.normalizePDF(lines: [page]).text
        #expect(text.contains("\n\n2.4 The pgfpages and pgfmorepages first aid\n\npgfpages alters"), "\(text)")
    }
}
