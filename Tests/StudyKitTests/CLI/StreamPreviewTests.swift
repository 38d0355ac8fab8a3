import Foundation
import Testing
@testable import StudyKit

@Suite("Live preview: rows, redraws and the final rendering")
struct StreamPreviewTests {
    // MARK: Counting cells and rows

    @Test(arguments: [
        // (line, columns, rows)
        ("", 80, 1), (String(repeating: "a", count: 80), 80, 1), (String(repeating: "a", count: 81), 80, 2),
        (String(repeating: "a", count: 240), 80, 3), (String(repeating: "漢", count: 40), 80, 1),
        (String(repeating: "漢", count: 41), 80, 2),
        // 1 + 39 × 2 = 79 cells: the 40th ideograph does not fit in the last cell and wraps whole.
        ("a" + String(repeating: "漢", count: 40), 80, 2), (String(repeating: "🌱", count: 20), 40, 1),
        (String(repeating: "🌱", count: 21), 40, 2), ("Cafe\u{0301} ❤️ 🇩🇪", 10, 1), ("Cafe\u{0301} ❤️ 🇩🇪", 9, 2),
    ])
    func rowsCountWrappingAndWideCharacters(_ line: String, columns: Int, rows: Int) {
        #expect(TerminalLayout.rows(of: line, columns: columns) == rows)
    }

    @Test func cellsFollowEastAsianWidth() {
        #expect(TerminalLayout.cells("a") == 1)
        #expect(TerminalLayout.cells("漢") == 2)
        #expect(TerminalLayout.cells("한") == 2)
        #expect(TerminalLayout.cells("Ａ") == 2)  // fullwidth A
        #expect(TerminalLayout.cells("🌱") == 2)
        #expect(TerminalLayout.cells("❤️") == 2)  // U+2764 U+FE0F
        #expect(TerminalLayout.cells("e\u{0301}") == 1)
        #expect(TerminalLayout.cells(of: "光合成 is 🌱") == 12)
    }

    @Test func theTailKeepsTheNewestLinesThatFit() {
        let lines = ["one", String(repeating: "b", count: 30), "three"]
        #expect(TerminalLayout.tail(lines, rows: 3, columns: 20) == [String(repeating: "b", count: 30), "three"])
        #expect(TerminalLayout.tail(lines, rows: 1, columns: 20) == ["three"])
        let long = TerminalLayout.tail([String(repeating: "x", count: 100) + "END"], rows: 2, columns: 20)
        #expect(long.count == 1)
        #expect(long[0].hasPrefix("…") && long[0].hasSuffix("xEND"))
        #expect(TerminalLayout.rows(of: long[0], columns: 20) <= 2)
    }

    @Test func aStatusLineIsCutToOneRow() {
        #expect(TerminalLayout.prefix("studykit: reading paste.txt…", cells: 40) == "studykit: reading paste.txt…")
        let cut = TerminalLayout.prefix("studykit: summary: 3,456 characters, 光合成 routed remote…", cells: 20)
        #expect(cut == "studykit: summary: …")
        #expect(TerminalLayout.cells(of: TerminalLayout.prefix(String(repeating: "漢", count: 30), cells: 19)) <= 19)
    }

    // MARK: Redrawing on a terminal

    /// A summary whose lines are far longer than 40 columns, with CJK and emoji in it.
    static let summaryJSON = #"""
        {"overview": "Mitosis is the process in which one eukaryotic cell divides its nucleus into two genetically identical nuclei. 有丝分裂 keeps the chromosome number the same 🌱 in both daughter cells, unlike meiosis.",
         "keyPoints": ["Prophase condenses the chromosomes into visible threads and the spindle starts to form.",
                       "Metaphase lines the chromosomes up along the 赤道面, the equator of the spindle.",
                       "Anaphase pulls the sister chromatids apart toward opposite poles of the cell 🧬.",
                       "Telophase rebuilds a nuclear envelope around each set of chromosomes.",
                       "Cytokinesis then splits the cytoplasm between the two daughter cells."]}
        """#

    static let prompt = "$ studykit summary paste.txt --stream"
    static let final = "# Summary\n\nMitosis keeps the chromosome number.\n\n- Prophase condenses the chromosomes.\n"

    /// Streams `json` a few characters at a time through a preview on a terminal of `size`,
    /// after a prompt line; returns what the sink received.
    static func stream(_ json: String, size: TerminalSize, step: Int = 9) -> (sink: CapturingSink, preview: StreamPreview) {
        let sink = CapturingSink(terminalSize: size)
        let preview = StreamPreview(sink: sink)
        var end = json.startIndex
        while end < json.endIndex {
            end = json.index(end, offsetBy: step, limitedBy: json.endIndex) ?? json.endIndex
            preview.show(String(json[..<end]))
        }
        return (sink, preview)
    }

    /// Piped, one answer after another (a chunked run's chunks, in order): every line of each
    /// is appended once, the first answer's last line too, and the second's lines from its first.
    @Test func appendedAnswersFollowOneAnother() {
        let sink = CapturingSink()
        let preview = StreamPreview(sink: sink)
        for answer in [#"{"keyPoints": ["alpha one", "alpha two"]}"#, #"{"keyPoints": ["beta one", "beta two", "beta three"]}"#] {
            var end = answer.startIndex
            while end < answer.endIndex {
                end = answer.index(end, offsetBy: 5, limitedBy: answer.endIndex) ?? answer.endIndex
                preview.show(String(answer[..<end]))
            }
        }
        preview.finish()
        let lines = sink.text.split(separator: "\n").map(String.init)
        #expect(lines == ["keyPoints:", "  - alpha one", "  - alpha two", "keyPoints:", "  - beta one", "  - beta two"], "\(lines)")
    }

    @Test(arguments: [40, 80, 120])
    func theFinalRenderingReplacesThePreviewExactly(columns: Int) {
        let size = TerminalSize(columns: columns, rows: 40)
        let (sink, preview) = Self.stream(Self.summaryJSON, size: size)
        preview.finish()
        sink.write(Self.final)

        var streamed = ScreenEmulator(columns: columns, rows: 40)
        streamed.write(Self.prompt + "\n" + sink.text)
        var plain = ScreenEmulator(columns: columns, rows: 40)
        plain.write(Self.prompt + "\n" + Self.final)
        #expect(streamed.everything == plain.everything)
        #expect(sink.text.contains("\u{1B}["), "the preview was redrawn in place, not appended")
    }

    /// A preview that starts in the window's top-left corner (a fresh tmux pane): erasing it must
    /// not read as "clear the screen", which tmux first scrolls into its history.
    @Test(arguments: [40, 80, 120])
    func aPreviewAtTheTopOfTheWindowLeavesNoCopyInTheHistory(columns: Int) {
        let (sink, preview) = Self.stream(Self.summaryJSON, size: TerminalSize(columns: columns, rows: 40))
        preview.finish()
        sink.write(Self.final)
        var streamed = ScreenEmulator(columns: columns, rows: 40)
        streamed.write(sink.text)
        var plain = ScreenEmulator(columns: columns, rows: 40)
        plain.write(Self.final)
        #expect(streamed.history.isEmpty, "\(streamed.history.prefix(5))")
        #expect(streamed.everything == plain.everything)
    }

    @Test(arguments: [40, 80, 120])
    func duringTheStreamOneCopyOfThePreviewIsOnTheScreen(columns: Int) {
        let (sink, _) = Self.stream(Self.summaryJSON, size: TerminalSize(columns: columns, rows: 40))
        var screen = ScreenEmulator(columns: columns, rows: 40)
        screen.write(Self.prompt + "\n" + sink.text)
        let everything = screen.everything.joined(separator: "\n")
        #expect(screen.everything.first == Self.prompt)
        #expect(everything.components(separatedBy: "overview:").count == 2, "\(everything)")
        #expect(everything.components(separatedBy: "keyPoints:").count == 2, "\(everything)")
        #expect(everything.components(separatedBy: "Cytokinesis then splits").count == 2)
    }

    @Test func aPreviewTallerThanTheScreenShowsItsTailAndScrollsNothing() {
        let size = TerminalSize(columns: 40, rows: 8)
        let (sink, preview) = Self.stream(Self.summaryJSON, size: size)
        var screen = ScreenEmulator(columns: 40, rows: 8)
        screen.write(Self.prompt + "\n" + sink.text)
        // The newest text is in view; the overview, at the top of the outline, is not, and no
        // copy of any preview line went up into the history.
        #expect(screen.screen.joined().contains("two daughter cells."))
        #expect(!screen.everything.joined().contains("overview:"))
        #expect(screen.history.allSatisfy { !$0.contains("keyPoints") && !$0.hasPrefix("-") && !$0.hasPrefix("  -") })
        #expect(screen.screen.count <= 8)

        preview.finish()
        sink.write(Self.final)
        screen = ScreenEmulator(columns: 40, rows: 8)
        screen.write(Self.prompt + "\n" + sink.text)
        var plain = ScreenEmulator(columns: 40, rows: 8)
        plain.write(Self.prompt + "\n" + Self.final)
        #expect(screen.everything == plain.everything)
    }

    @Test(arguments: [(80, 40), (120, 60), (40, 120)])
    func aResizeRedrawsAtTheNewSizeWithoutStaleRows(from: Int, to: Int) {
        let sink = CapturingSink(terminalSize: TerminalSize(columns: from, rows: 30))
        let preview = StreamPreview(sink: sink)
        let json = Self.summaryJSON
        let half = json.index(json.startIndex, offsetBy: json.count / 2)
        preview.show(String(json[..<half]))
        var screen = ScreenEmulator(columns: from, rows: 30)
        screen.write(Self.prompt + "\n" + sink.text)
        let before = sink.text.count

        // SIGWINCH: the window is narrower or wider now.
        screen.resize(columns: to, rows: 30)
        sink.resize(to: TerminalSize(columns: to, rows: 30))
        preview.resized()
        preview.show(json)
        screen.write(String(sink.text.dropFirst(before)))
        let text = screen.everything.joined(separator: "\n")
        #expect(text.components(separatedBy: "overview:").count == 2, "\(text)")
        #expect(screen.screen.contains("keyPoints:"))

        let beforeFinal = sink.text.count
        preview.finish()
        sink.write(Self.final)
        screen.write(String(sink.text.dropFirst(beforeFinal)))
        #expect(!screen.everything.joined().contains("overview:"))
        #expect(screen.screen.suffix(4) == Self.final.split(separator: "\n", omittingEmptySubsequences: false).dropLast().suffix(4).map(String.init))
    }

    // MARK: Appending instead

    @Test(arguments: [
        CapturingSink(), CapturingSink(isTerminal: true), CapturingSink(terminalSize: TerminalSize(columns: 12, rows: 30)),
        CapturingSink(terminalSize: TerminalSize(columns: 80, rows: 3)),
    ])
    func noTerminalOrATooSmallOneGetsAppendedLines(_ sink: CapturingSink) throws {
        let overview = try #require(Self.overview)
        let preview = StreamPreview(sink: sink)
        let json = Self.summaryJSON
        var end = json.startIndex
        while end < json.endIndex {
            end = json.index(end, offsetBy: 9, limitedBy: json.endIndex) ?? json.endIndex
            preview.show(String(json[..<end]))
        }
        preview.finish()
        #expect(!sink.text.contains("\u{1B}"))
        #expect(!sink.text.contains("\r"))
        let lines = sink.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Each completed line once, in order, then a blank line.
        #expect(lines.first == "overview: " + overview)
        #expect(lines.filter { $0.hasPrefix("keyPoints:") }.count == 1)
        #expect(lines.filter { $0.hasPrefix("  - Prophase condenses") }.count == 1)
        #expect(sink.text.hasSuffix("\n\n"))
    }

    static let overview: String? = {
        guard case .object(let object)? = JSONValue.partial(summaryJSON), case .string(let text)? = object["overview"] else { return nil }
        return text
    }()
}
