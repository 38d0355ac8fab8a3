import Foundation
import Testing
@testable import StudyKit

@Suite("Import normalization")
struct NormalizerTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let rule: String
        let input: String
        let expected: String
        var testDescription: String { rule }
    }

    static let textCases: [Case] = [
        Case(rule: "CRLF and CR become LF", input: "a\r\nb\rc", expected: "a\nb\nc"),
        Case(rule: "tab becomes a space", input: "a\tb", expected: "a b"),
        Case(rule: "runs of spaces collapse", input: "a    b  \t c", expected: "a b c"),
        Case(
            rule: "a fenced block keeps its indentation, nothing else does",
            input: "  Text   here\n```\ndef f(x):\n    return  x\n   \n```\n  after",
            expected: "Text here\n```\ndef f(x):\n    return x\n\n```\nafter"),
        Case(rule: "lines are trimmed", input: "  a  \n   b", expected: "a\nb"),
        Case(rule: "2+ newlines become one blank line", input: "a\n\n\n\n\nb", expected: "a\n\nb"),
        Case(rule: "blank lines of spaces count as blank", input: "a\n   \n \t \nb", expected: "a\n\nb"),
        Case(rule: "single newlines are kept", input: "a\nb", expected: "a\nb"),
        Case(rule: "leading and trailing blank lines go", input: "\n\n  a\n\n", expected: "a"),
        Case(rule: "C0 controls are stripped", input: "a\u{07}b\u{00}c\u{1F}d", expected: "abcd"),
        Case(rule: "C1 controls and DEL are stripped", input: "a\u{85}b\u{9A}c\u{7F}d", expected: "abcd"),
        Case(rule: "a C1 CSI sequence is stripped whole", input: "a\u{9B}1;31mb\u{9B}0mc", expected: "abc"),
        Case(rule: "a DCS string is stripped whole", input: "a\u{1B}Pq#0;2;0;0;0\u{1B}\\b", expected: "ab"),
        Case(rule: "an unterminated OSC ends at its line", input: "a\u{1B}]0;title\nb", expected: "a\nb"),
        Case(rule: "the Arabic letter mark is invisible", input: "a\u{061C}b", expected: "ab"),
        Case(rule: "ANSI CSI colour is stripped", input: "\u{1B}[1;31mred\u{1B}[0m text", expected: "red text"),
        Case(rule: "ANSI OSC 8 link ending ESC \\ is stripped", input: "\u{1B}]8;;https://x.org\u{1B}\\link\u{1B}]8;;\u{1B}\\", expected: "link"),
        Case(rule: "ANSI OSC ending BEL is stripped", input: "\u{1B}]0;title\u{07}after", expected: "after"),
        Case(rule: "two-character escapes are stripped", input: "a\u{1B}cb", expected: "ab"),
        Case(rule: "zero-width space is stripped", input: "zero\u{200B}width", expected: "zerowidth"),
        Case(rule: "bidi controls are stripped", input: "a\u{202E}b\u{2066}c\u{2069}", expected: "abc"),
        Case(rule: "word joiner and BOM are stripped", input: "\u{FEFF}a\u{2060}b", expected: "ab"),
        Case(rule: "soft hyphen is stripped", input: "photo\u{AD}synthesis", expected: "photosynthesis"),
        Case(rule: "tag characters are stripped", input: "hi\u{E0041}\u{E0042}\u{E007F}", expected: "hi"),
        Case(rule: "ZWJ inside an emoji sequence is kept", input: "👩\u{200D}🔬 lab", expected: "👩\u{200D}🔬 lab"),
        Case(rule: "VS16 after an emoji is kept", input: "❤\u{FE0F} ok", expected: "❤\u{FE0F} ok"),
        Case(rule: "stray VS16 after a letter is dropped", input: "a\u{FE0F}b", expected: "ab"),
        Case(rule: "no-break and other Unicode spaces become a space", input: "a\u{00A0}\u{2003}b", expected: "a b"),
        Case(rule: "NFC composes", input: "cafe\u{301}", expected: "caf\u{E9}"),
        Case(rule: "stripping before NFC lets marks compose", input: "e\u{200B}\u{301}", expected: "\u{E9}"),
    ]

    @Test(arguments: textCases)
    func textRule(_ c: Case) {
        let output = SourceNormalizer.normalizeText(c.input)
        // Compare scalars: String equality is canonical and would hide NFC mistakes.
        #expect(Array(output.unicodeScalars) == Array(c.expected.unicodeScalars), "\(c.rule)")
    }

    @Test(arguments: textCases)
    func normalizingTwiceIsNormalizingOnce(_ c: Case) {
        let once = SourceNormalizer.normalizeText(c.input)
        #expect(Array(SourceNormalizer.normalizeText(once).unicodeScalars) == Array(once.unicodeScalars))
    }

    @Test func pdfNormalizationIsIdempotentOnItsOutputText() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: ImportFixtures.sample("notes.pdf")))
        let pages = try PDFImporter.extract(data, source: "notes.pdf", password: nil).pages
        let text = PDFLayout.normalizePDF(lines: pages).text
        #expect(SourceNormalizer.normalizeText(text) == text)
    }

    // MARK: UTF-8 policy

    struct DecodeCase: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]
        let result: Result<String, ImportError>
        var testDescription: String { name }
    }

    static let decodeCases: [DecodeCase] = [
        DecodeCase(name: "plain UTF-8", bytes: Array("héllo".utf8), result: .success("héllo")),
        DecodeCase(name: "UTF-8 BOM is dropped", bytes: [0xEF, 0xBB, 0xBF] + Array("hi".utf8), result: .success("hi")),
        DecodeCase(name: "UTF-16LE with BOM", bytes: [0xFF, 0xFE, 0x68, 0x00, 0xE9, 0x00], result: .success("hé")),
        DecodeCase(name: "UTF-16BE with BOM", bytes: [0xFE, 0xFF, 0x00, 0x68, 0x00, 0xE9], result: .success("hé")),
        DecodeCase(name: "Latin-1 byte is rejected at its offset", bytes: Array("caf".utf8) + [0xE9, 0x21], result: .failure(.notUTF8("x", offset: 3))),
        DecodeCase(name: "offset counts the BOM", bytes: [0xEF, 0xBB, 0xBF, 0x61, 0xFF], result: .failure(.notUTF8("x", offset: 4))),
        DecodeCase(name: "overlong encoding is rejected", bytes: [0x61, 0xC0, 0xAF], result: .failure(.notUTF8("x", offset: 1))),
        DecodeCase(name: "surrogate is rejected", bytes: [0xED, 0xA0, 0x80], result: .failure(.notUTF8("x", offset: 0))),
        DecodeCase(name: "truncated sequence is rejected", bytes: [0x61, 0x62, 0xE2, 0x82], result: .failure(.notUTF8("x", offset: 2))),
        DecodeCase(name: "beyond U+10FFFF is rejected", bytes: [0xF4, 0x90, 0x80, 0x80], result: .failure(.notUTF8("x", offset: 0))),
        DecodeCase(name: "four-byte emoji is fine", bytes: [0xF0, 0x9F, 0x98, 0x80], result: .success("😀")),
        DecodeCase(name: "odd UTF-16 length is rejected", bytes: [0xFF, 0xFE, 0x68, 0x00, 0x69], result: .failure(.notUTF8("x", offset: 4))),
    ]

    @Test(arguments: decodeCases)
    func utf8Policy(_ c: DecodeCase) {
        let result = Result { () throws(ImportError) -> String in try SourceNormalizer.decodeUTF8(Data(c.bytes), source: "x") }
        #expect(result == c.result)
    }

    @Test func notUTF8MessageNamesSourceOffsetAndIconv() {
        let error = ImportError.notUTF8("notes.txt", offset: 17)
        #expect(error.message.contains("'notes.txt'"))
        #expect(error.message.contains("offset 17"))
        #expect(error.message.contains("iconv -f <encoding> -t UTF-8"))
        #expect(error.exitCode == .dataError)
    }

    // MARK: PDF rules

    @Test(arguments: [
        ("3", true), ("- 3 -", true), ("— 12 —", true), ("Page 3", true), ("Page 3 of 12", true),
        ("3 / 12", true), ("3/12", true), ("p. 7", true), ("xiv", true), ("[4]", true),
        ("3 apples", false), ("Chapter 3", false), ("1871", true), ("The year 1871", false), ("", false),
    ])
    func pageNumberLines(line: String, isPageNumber: Bool) {
        #expect(PDFLayout.isPageNumberLine(line) == isPageNumber)
    }

    @Test func runningHeadersAndFootersRepeatingOnHalfThePagesGo() {
        let bodies = ["Cells are small.", "Tissues are groups of cells.", "Organs do a job.", "Systems work together."]
        let pages = (1...4).map { n in
            ["Biology 101 — Unit \(n)", bodies[n - 1], "Confidential", "\(n)"]
        }
        let kept = PDFLayout.removeRunningLines(pages)
        #expect(kept == bodies.map { [$0] })
    }

    @Test func fewerThanThreePagesKeepRepeatedLinesButDropPageNumbers() {
        let pages = [["Header", "Text one.", "1"], ["Header", "Text two.", "2"]]
        #expect(PDFLayout.removeRunningLines(pages) == [["Header", "Text one."], ["Header", "Text two."]])
    }

    @Test func aLineRepeatingOnFewerThanHalfThePagesStays() {
        let pages = [["Intro", "a."], ["Intro", "b."], ["Other", "c."], ["Else", "d."], ["More", "e."]]
        #expect(PDFLayout.removeRunningLines(pages).map(\.first) == ["Intro", "Intro", "Other", "Else", "More"])
    }

    struct JoinCase: Sendable, CustomTestStringConvertible {
        let a: String
        let b: String
        let joined: String
        var testDescription: String { "\(a) + \(b)" }
    }

    static let joinCases: [JoinCase] = [
        JoinCase(a: "made by photo-", b: "synthesis in leaves", joined: "made by photosynthesis in leaves"),
        JoinCase(a: "the Franco-", b: "Prussian War", joined: "the Franco-Prussian War"),
        JoinCase(a: "molecules of 3-", b: "phosphoglycerate", joined: "molecules of 3-phosphoglycerate"),
        JoinCase(a: "COVID-", b: "19 cases", joined: "COVID-19 cases"),
        JoinCase(a: "a light-", b: "dependent step", joined: "a light-dependent step"),  // the compound occurs elsewhere
        JoinCase(a: "a plain line", b: "next line", joined: "a plain line next line"),
        JoinCase(a: "a spaced dash -", b: "then more", joined: "a spaced dash - then more"),
    ]

    @Test(arguments: joinCases)
    func hyphenationRule(_ c: JoinCase) {
        let evidence = PDFLayout.HyphenationEvidence(compounds: ["light-dependent"], heads: ["light"], tails: ["dependent"])
        #expect(PDFLayout.joinLines(c.a, c.b, evidence: evidence) == c.joined)
    }

    @Test func pdfLinesJoinIntoParagraphsAndPagesGetSpans() {
        let pages = [
            "Running Head\nThe first paragraph starts here and runs on across a line\nand ends on page one.\n1",
            "Running Head\nA second page paragraph that is long enough to be a full line\nof text.\n2",
            "Running Head\nThird page text that continues the story at full length\nto its end.\n3",
        ]
        let (text, spans) = PDFLayout.normalizePDF(pages: pages)
        #expect(!text.contains("Running Head"))
        #expect(text.hasPrefix("The first paragraph starts here and runs on across a line and ends on page one.\n\n"))
        #expect(spans.map(\.page) == [1, 2, 3])
        let second = ImportFixtures.offset(of: "A second page", in: text)!
        #expect(spans[1].range.contains(second))
        #expect(spans.last?.range.upperBound == text.count)
    }

    /// Texinfo sets `[Function]` on the prototype's first baseline; poppler may give it between
    /// the prototype's two lines. The label goes, the prototype is one paragraph, and the body
    /// (back to the left after the indented continuation) is the next one.
    @Test func aDefinitionLabelNeitherStaysNorCutsThePrototype() {
        typealias Line = PDFLayout.PDFLine
        let page = [
            Line(text: "Some text paragraph that is long enough to be a full line of text here.", x: 90, top: 100),
            Line(text: "int kit_decode (kit_node element, const void", x: 90, top: 130),
            Line(text: "[Function]", x: 470, top: 130),
            Line(text: "* ider, int ider_len)", x: 139, top: 142),
            Line(text: "element: pointer to the element that the function decodes into a string.", x: 118, top: 156),
        ]
        let text = PDFLayout.normalizePDF(lines: [page]).text
        #expect(!text.contains("[Function]"))
        #expect(text.contains("\n\nint kit_decode (kit_node element, const void * ider, int ider_len)\n\nelement: pointer"), "\(text)")
    }

    /// A bullet glued to its item's first word (poppler drops the gap) is spaced like a typed one,
    /// so the item reads as a list item and no sentence starts with the glyph; a bullet already
    /// spaced, and a line that only starts with a word, are left as they are.
    @Test func aBulletGluedToItsFirstWordIsSpaced() {
        #expect(PDFLayout.spacedListMarker("•A standard way of getting the MIME type for a file.") == "• A standard way of getting the MIME type for a file.")
        #expect(PDFLayout.spacedListMarker("◦<MIME>/globs2 (contains a mapping)") == "◦ <MIME>/globs2 (contains a mapping)")
        #expect(PDFLayout.spacedListMarker("• Already spaced.") == "• Already spaced.")
        #expect(PDFLayout.spacedListMarker("Bullets are dots.") == "Bullets are dots.")
        #expect(PDFLayout.spacedListMarker("1.Photosystem II") == "1. Photosystem II")
        let page = "A full line of prose that is long enough to count as the full width of a page.\n\nThe goals are:\n•A standard way for applications to install new MIME related information.\n•A standard way of getting the MIME type for a file."
        let text = PDFLayout.normalizePDF(pages: [page]).text
        #expect(text.contains("• A standard way of getting the MIME type for a file."), "\(text)")
        #expect(!text.contains("•A"), "\(text)")
    }

    /// A function's parameters, one per line (`name: what it is`), are separate paragraphs, not one run-on.
    @Test func aListOfParameterDefinitionsIsNotOneParagraph() {
        let page = "A full line of prose that is long enough to count as the full width of a page.\n\nParameters:\nstr: BIT string.\nbit len: number of meaningful bits in STR.\nder: string returned.\nret len: Output variable containing the encoded length of the DER data that was read here.\nstr: Pre-allocated output buffer."
        let text = PDFLayout.normalizePDF(pages: [page]).text
        #expect(text.hasSuffix("\n\nParameters:\n\nstr: BIT string.\n\nbit len: number of meaningful bits in STR.\n\nder: string returned.\n\nret len: Output variable containing the encoded length of the DER data that was read here.\n\nstr: Pre-allocated output buffer."), "\(text)")
    }

    @Test func aParagraphCutByAPageBreakIsRejoined() {
        let pages = ["Intro line that is long enough to be a full line of text and\nit runs on to the next page with the", "rest of the sentence on page two."]
        let (text, spans) = PDFLayout.normalizePDF(pages: pages)
        #expect(text == "Intro line that is long enough to be a full line of text and it runs on to the next page with the rest of the sentence on page two.")
        let rest = ImportFixtures.offset(of: "rest of the sentence", in: text)!
        #expect(spans.first { $0.range.contains(rest) }?.page == 2)
    }

    /// The TeX Live guide's contents: leader dots with the page numbers set apart (none on the
    /// entry's line), the chapters' entries between them, a running head "CONTENTS 2" glued
    /// to its number. None of it is text; the chapters the body opens later stay.
    @Test func contentsWhosePageNumbersAreSetApartAreNotText() {
        let pages = [
            "The Guide\n\n1 Introduction\n\n1.1 The collection . . . . . . . . . . . . . . .\n1.2 Operating systems . . . . . . . . . . . .\n\n2 Installation\n\n2.1 Starting the installer . . . . . . . . . . . .\n2.2 Running the installer . . . . . . . . . . .",
            "CONTENTS2\n\n3 Windows notes\n\n3.1 Windows features . . . . . . . . . . . . .\n3.2 Windows registry . . . . . . . . . . . .\n3.3 Windows permissions . . . . . . . . . . .",
            "The guide describes the collection of programs and how to install it on your machine.\n\n1 Introduction\n\nThe collection is a complete system of programs and fonts that is easy to install on any machine.\n\n2 Installation\n\nThe installer asks where the programs go and which collections of packages to install.\n\n3 Windows notes\n\nOn Windows the installer adds shortcuts to the menu and registers the file types.",
        ]
        let text = PDFLayout.normalizePDF(pages: pages).text
        #expect(!text.contains(". . . ."), "\(text)")
        #expect(!text.contains("CONTENTS"), "\(text)")
        #expect(text.hasPrefix("The Guide\n\nThe guide describes the collection of programs and how to install it on your machine.\n\n1 Introduction\n\nThe collection is"), "\(text)")
        #expect(text.components(separatedBy: "3 Windows notes").count == 2, "\(text)")
    }

    /// The TeX Live guide's headings as poppler gives them: a number glued to its title, or on a
    /// line of its own above it. The outline needs "1 Introduction" and "1.2 Operating systems".
    @Test func sectionNumbersStayWithTheirTitles() {
        let page = [
            "1Introduction", "1.1TEX Live and the collection",
            "This document describes the main features of the software distribution for many systems.",
            "1.2", "Operating system support",
            "The collection contains binaries for many platforms, including the ones most people use.",
            "2", "Overview of TEX Live",
            "This section describes the structure and contents of the collection and of its trees.",
            "3", "A user’s guide to the library",
            "The library finds the files that the programs need, searching a path of directories.",
            "14", "Top level directories",
            "The top level of the installation holds the programs, the macros and the fonts of the collection.",
            "3D graphics are drawn with the packages that the collection installs by default.",
            "12", "This page number stands above a sentence that is not any title at all.",
            "The header of a cache file is a table of sizes and types:", "2", "CARD16", "2", "CARD16", "4", "CARD32", "4", "CARD32 N_ALIASES", "The list follows.",
        ].joined(separator: "\n\n")
        let paragraphs = PDFLayout.normalizePDF(pages: [page]).text.components(separatedBy: "\n\n")
        #expect(paragraphs.contains("1 Introduction"), "\(paragraphs)")
        #expect(paragraphs.contains("1.1 TEX Live and the collection"), "\(paragraphs)")
        #expect(paragraphs.contains("1.2 Operating system support"), "\(paragraphs)")
        #expect(paragraphs.contains("2 Overview of TEX Live"), "\(paragraphs)")
        #expect(paragraphs.contains("3 A user’s guide to the library"), "\(paragraphs)")
        // A page number above a section’s title is no chapter number ("14" in chapter 3).
        #expect(paragraphs.contains("Top level directories"), "\(paragraphs)")
        #expect(paragraphs.contains { $0.hasPrefix("3D graphics are drawn") }, "\(paragraphs)")
        #expect(!paragraphs.contains { $0.hasPrefix("12 This page") }, "\(paragraphs)")
        #expect(!paragraphs.contains { $0.hasPrefix("2 CARD16") || $0.hasPrefix("4 CARD32") }, "\(paragraphs)")
    }
}
