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
            "Events", "Emitters call listeners when an event is emitted.", "const a = 1;\n\nconsole.log(a);",
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

    @Test func aMindMapOfSectionsWithCodeHasNoCodeLabels() throws {
        let code = "```\nconst myEmitter = new MyEmitter();\nmyEmitter.on('event', handler);\nmyEmitter.emit('event');\n```"
        let sections = [
            ("Registering listeners", "A listener is registered for a named event and is called each time the event is emitted. Listeners are stored in the order of registration."),
            ("Emitting events", "Emitting an event calls every registered listener synchronously with the given arguments. The return values of listeners are ignored."),
            ("Error events", "An error event without a registered listener throws the error and stops the process. Every emitter should have an error listener."),
        ]
        let text = "# Events\n\n" + sections.map { "## \($0.0)\n\n\($0.1)\n\n\(code)" }.joined(separator: "\n\n")
        guard case .mindMap(let map) = try BuiltinEngine().generate(.mindmap, text: text, title: nil) else {
            throw CancellationError()
        }
        func labels(_ node: MindMap.Node) -> [String] { [node.label] + node.children.flatMap(labels) }
        let all = map.branches.flatMap(labels)
        #expect(!all.isEmpty)
        #expect(!all.contains { $0.contains("myEmitter") || $0.contains("MyEmitter") || $0 == "const" || $0.contains("handler") }, "\(all)")
    }
}
