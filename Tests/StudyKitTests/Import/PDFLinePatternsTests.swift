import Foundation
import Testing
@testable import StudyKit

/// The hand-written matchers of ``PDFLinePatterns`` give exactly the answers of the regular
/// expressions they replace: on lines chosen for their edges and on thousands of generated ones
/// (digits, dots, capitals, brackets, colons and the characters where Unicode makes a
/// difference: an Arabic-Indic digit, a combining accent, `İ`, the Kelvin sign, a line separator).
@Suite struct PDFLinePatternsTests {
    /// Lines made of pieces the patterns care about, the same on every run.
    static let generated: [String] = {
        let pieces = [
            "1", "2", "12", "123", "0", ".", ". ", " ", "  ", "A", "B", "z", "a", "Chapter ", "Appendix ", "Part ", "contents",
            "Contents", "CONTENTS", "table of ", "Table of ", "#", "##", "[", "]", "Function", "Data", "Type", ":", ": ", "x", "_",
            "of", "é", "\u{301}", "٣", "İ", "\u{212A}", "\u{2028}", "\u{A0}", "\n", "\r\n", "\t", "$", "tlmgr", "Introduction",
            "....", ". . . .", "iv", "•", "’",
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        return (0..<4_000).map { _ in (0..<(1 + next(6))).map { _ in pieces[next(pieces.count)] }.joined() }
    }()

    static let chosen = [
        "", "1", "12", "123", "1.2", "1.", ".1", "1..2", "12.34.5", "1.2.3.", "٣", "1\u{301}", "#", "# Title", "####### x", "#x",
        "## a\nb", "Contents", "  Table of Contents\t", "CONTENTS2", "contents 12", "contents 1234", "contents\n", "Contents é",
        "Table of  contents", "ContentsX", "1 Introduction", "2.1. NAME", "A.1 Licence", "A.", "Ab.1", "1.2.", "2.1 Naming.", "7.4",
        "Chapter 3", "Appendix A", "Part 2.1", "Part", "Chapter ", "1\u{2028}", "2.1\r\n", "[Function]", "[Data Type]",
        "[Special Form Here]", "[A b c d]", "[Macro]\n", "[function]", "der: string returned.", "bit len: number of bits",
        "a: ", "a:  x", "name:\u{A0}x", "Name: x", "a b c: d", "1Introduction", "1.1TEX Live", "12ab", "4.2 ASN.1 field",
        "4.2 asn", "x 1Intro", "Introduction . . . . . 3", "asn1_copy_node .... 11", "İçindekiler", "\u{212A}elvin contents",
    ]

    static var lines: [String] { chosen + generated }

    @Test func bareNumbersAsTheRegex() {
        for line in Self.lines {
            #expect(PDFLinePatterns.isBareNumber(line) == (line.wholeMatch(of: /\d{1,2}(?:\.\d{1,2})*/) != nil), "\(line.debugDescription)")
        }
    }

    @Test func markdownHeadingsAsTheRegex() {
        for line in Self.lines {
            #expect(PDFLinePatterns.isATXHeadingLike(line) == (line.wholeMatch(of: /#{1,6}(?: .*)?/) != nil), "\(line.debugDescription)")
        }
    }

    @Test func contentsHeadingsAsTheRegex() {
        for line in Self.lines {
            let words = line.lowercased().trimmingCharacters(in: .whitespaces)
            let expected = ["contents", "table of contents"].contains(words) || words.wholeMatch(of: /(?:table of )?contents\s*\d{1,3}/) != nil
            #expect(PDFLinePatterns.isContentsHeading(line) == expected, "\(line.debugDescription)")
        }
    }

    @Test func gluedNumbersAndNumberedTitlesAsTheRegexes() {
        for line in Self.lines {
            let glued = line.firstMatch(of: /^(\d{1,2}(?:\.\d{1,2})*)(\p{Lu}\p{L})/).map { String($0.1) }
            #expect(PDFLinePatterns.gluedNumber(line).map(String.init) == glued, "\(line.debugDescription)")
            #expect(PDFLinePatterns.startsNumberedTitle(line) == line.contains(/^\d{1,2}(?:\.\d{1,2})* \p{Lu}/), "\(line.debugDescription)")
        }
    }

    @Test func contentsEntriesAsTheExpression() {
        for line in Self.lines {
            let words = line.split(separator: " ")
            var expected = false
            if let first = words.first, words.count <= 10, !line.hasSuffix("."), first.contains(where: \.isNumber) || first.count <= 2 {
                expected = first.range(of: #"^([0-9]+|[A-Z])(\.[0-9]+)*\.?$"#, options: .regularExpression) != nil
            }
            #expect(PDFLinePatterns.isNumberedHeading(line) == expected, "\(line.debugDescription)")
        }
    }

    @Test func sectionNumbersLabelsAndDefinitionsAsTheExpressions() {
        for line in Self.lines {
            let section = line.range(of: #"^(((Chapter|Appendix|Part) )?([0-9]+|[A-Z])(\.[0-9]+)*\.?)$"#, options: .regularExpression) != nil
            #expect(PDFLinePatterns.isSectionNumber(line) == section, "\(line.debugDescription)")
            let label = line.range(of: #"^\[[A-Z][a-z]+( [A-Z]?[a-z]+){0,2}\]$"#, options: .regularExpression) != nil
            #expect(PDFLinePatterns.isCategoryLabel(line) == label, "\(line.debugDescription)")
            let definition = line.range(of: #"^[a-z][A-Za-z0-9_]*( [a-z][A-Za-z0-9_]*)?: \S"#, options: .regularExpression) != nil
            #expect(PDFLinePatterns.startsDefinition(line) == definition, "\(line.debugDescription)")
        }
    }

    /// The byte check before the search for leader dots never rules out a line that has them.
    @Test func leaderDotsAreNeverMissed() {
        for line in Self.lines where line.contains("....") || line.contains(". . . .") {
            #expect(PDFLinePatterns.mayHaveLeaderDots(line), "\(line.debugDescription)")
        }
        #expect(!PDFLinePatterns.mayHaveLeaderDots("See section 2. Then 3. And 4."))
    }

    /// The letters that rule a page-number line out at once rule out no page number.
    @Test(arguments: ["3", "- 3 -", "— 3 —", "[3]", "Page 3", "PAGE 3 of 12", "p. 3", "3 / 12", "3 of 12", "xiv", "Seite 4", "Página 7", "Pg. 2"])
    func pageNumbersStillCount(_ line: String) {
        #expect(PDFLayout.isPageNumberLine(line))
    }

    @Test(arguments: ["Chapter 3", "Summary", "3 rd", "Page three", "12 May"])
    func otherLinesAreNoPageNumbers(_ line: String) {
        #expect(!PDFLayout.isPageNumberLine(line))
    }
}
