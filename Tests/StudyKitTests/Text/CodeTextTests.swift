import Foundation
import Testing
@_spi(Benchmarks) @testable import StudyKit

/// Code in study material: marked (a Markdown fence, an HTML `pre`) or read from its lines, it is
/// one code unit, never prose to rank, quote or ask.
@Suite struct CodeTextTests {
    @Test(arguments: [
        ("const myEmitter = new MyEmitter();", true),
        ("myEmitter.on('event', () => {", true),
        ("});", true),
        ("if (x === 1) return y;", true),
        ("#include <stdio.h>", true),
        ("def area(r): return 3.14 * r ** 2", false),  // one sign only: a keyword
        ("Call f(x) to compute it.", false),
        ("E = mc²", false),
        ("6CO2 + 6H2O → C6H12O6 + 6O2", false),
        ("Return the value to the caller.", false),
        ("for (i) and (ii) see the table below.", false),
        ("The emitter calls listeners synchronously (in the order they were added).", false),
    ])
    func aLineReadsAsCodeOnlyWithTwoSigns(line: String, isCode: Bool) {
        #expect(CodeText.isCodeLine(line) == isCode, "\(line)")
    }

    @Test func aFencedBlockIsOneCodeUnitAcrossItsBlankLines() {
        let text = """
            # Events

            Emitters call listeners when an event is emitted.

            ```js
            const a = 1;

            console.log(a);
            ```

            Listeners run synchronously in the order they were added.
            """
        let units = SentenceSplitter().split(text)
        #expect(units.map(\.text) == [
            "Events", "Emitters call listeners when an event is emitted.", "const a = 1;\nconsole.log(a);",
            "Listeners run synchronously in the order they were added.",
        ])
        #expect(units.map(\.isCode) == [false, false, true, false])
    }

    @Test func aCommentInAFenceIsNoHeadingAndAnOpenFenceRunsToTheEnd() {
        let units = SentenceSplitter().split("Install it first.\n\n~~~\n# install\napt-get install sox\n")
        #expect(units.map(\.isCode) == [false, true])
        #expect(!units.contains { $0.isHeading })
    }

    @Test func anUnmarkedParagraphOfCodeIsCodeAndProseAroundItIsNot() {
        let text = "The example registers one listener.\n\nconst ee = new EventEmitter();\nee.on('foo', () => {});\nee.emit('foo');\n\nIt prints nothing."
        let units = SentenceSplitter().split(text)
        #expect(units.map(\.isCode) == [false, true, false])
    }

    @Test func codeIsNeverProseNorATermSource() {
        let text = """
            Events are named signals that an emitter sends to its listeners.

            ```
            const myEmitter = new MyEmitter();
            myEmitter.on('event', () => { console.log('an event occurred!'); });
            myEmitter.emit('event');
            ```

            A listener is a function that runs each time its event is emitted.
            """
        let analysis = BuiltinAnalysis(text: text, title: nil)
        #expect(analysis.prose.count == 2)
        #expect(!analysis.prose.contains { $0.text.contains("myEmitter") })
        #expect(!analysis.keyphrases.contains { $0.text.lowercased().contains("myemitter") || $0.text == "const" })
    }
}
