import Testing
@testable import StudyKit

@Suite struct TerminalSafetyTests {
    @Test func briefExampleComesOutClean() {
        let input = "\u{1b}]8;;http://evil\u{1b}\\click\u{1b}]8;;\u{1b}\\ \u{1b}[31mred\u{200B} text\u{202E}"
        #expect(TerminalSafety.clean(input) == "click red text")
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let input: String
        let expected: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "plain text is untouched", input: "Photosynthesis: 6 CO₂ → C₆H₁₂O₆", expected: "Photosynthesis: 6 CO₂ → C₆H₁₂O₆"),
        Case(name: "newline and tab stay", input: "a\tb\nc", expected: "a\tb\nc"),
        Case(name: "carriage return goes", input: "a\r\nb\rc", expected: "a\nbc"),
        Case(name: "SGR colour", input: "\u{1b}[1;31mbold red\u{1b}[0m", expected: "bold red"),
        Case(name: "CSI cursor moves and private modes", input: "\u{1b}[2J\u{1b}[H\u{1b}[?25lx", expected: "x"),
        Case(name: "OSC 8 with ST", input: "\u{1b}]8;id=1;https://e.x/\u{1b}\\link\u{1b}]8;;\u{1b}\\", expected: "link"),
        Case(name: "OSC with BEL", input: "\u{1b}]0;title\u{07}after", expected: "after"),
        Case(name: "OSC 52 clipboard write", input: "\u{1b}]52;c;ZXZpbA==\u{07}ok", expected: "ok"),
        Case(name: "C1 CSI", input: "\u{9b}31mred", expected: "red"),
        Case(name: "C1 OSC with C1 ST", input: "\u{9d}8;;http://e\u{9c}x", expected: "x"),
        Case(name: "DCS string", input: "\u{1b}Pq#0;2;0;0;0\u{1b}\\after", expected: "after"),
        Case(name: "two-character escape", input: "\u{1b}cafter\u{1b}(Bend", expected: "afterend"),
        Case(name: "unterminated OSC swallows the rest", input: "before\u{1b}]8;;http://e", expected: "before"),
        Case(name: "lone ESC at the end", input: "end\u{1b}", expected: "end"),
        Case(name: "C0 and DEL", input: "a\u{00}b\u{07}c\u{08}d\u{7f}e", expected: "abcde"),
        Case(name: "C1 controls", input: "a\u{85}b\u{9c}c", expected: "abc"),
        Case(name: "zero-width and invisible", input: "a\u{200B}b\u{200C}c\u{2060}d\u{FEFF}e\u{00AD}f\u{2064}g", expected: "abcdefg"),
        Case(name: "bidi controls", input: "\u{202A}a\u{202B}b\u{202C}c\u{202D}d\u{202E}e\u{2066}f\u{2067}g\u{2068}h\u{2069}i\u{200E}j\u{200F}k\u{061C}l",
             expected: "abcdefghijkl"),
        Case(name: "tag characters", input: "x\u{E0041}\u{E007F}y", expected: "xy"),
        Case(name: "line separators become newlines", input: "a\u{2028}b\u{2029}c", expected: "a\nb\nc"),
        Case(name: "right-to-left text stays", input: "שלום مرحبا", expected: "שלום مرحبا"),
        Case(name: "emoji ZWJ sequence stays whole", input: "👩‍🔬 🏳️‍🌈", expected: "👩‍🔬 🏳️‍🌈"),
        Case(name: "ZWJ between letters goes", input: "a\u{200D}b", expected: "ab"),
        Case(name: "ZWJ between keycap-emoji ASCII goes", input: "1\u{200D}2", expected: "12"),
    ]

    @Test(arguments: cases)
    func cleans(_ testCase: Case) {
        #expect(TerminalSafety.clean(testCase.input) == testCase.expected)
    }

    @Test func cleaningIsIdempotent() {
        for testCase in Self.cases {
            let once = TerminalSafety.clean(testCase.input)
            #expect(TerminalSafety.clean(once) == once, "\(testCase.name)")
        }
    }

    @Test func cleansEveryStringInJSON() {
        let value: JSONValue = [
            "title\u{200B}": "a\u{1b}[31mb",
            "items": ["\u{202E}x", 3, 2.5, true, nil, ["nested": "\u{1b}]0;t\u{07}y"]],
        ]
        let expected: JSONValue = ["title": "ab", "items": ["x", 3, 2.5, true, nil, ["nested": "y"]]]
        #expect(TerminalSafety.clean(value) == expected)
    }
}
