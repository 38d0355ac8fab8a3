import Foundation
import Testing
@testable import StudyKit

/// An API reference's examples are code: the builtin engine reads the prose around them and
/// never makes a key point, a card, a quiz question or a mind-map term of a code line.
@Suite("The builtin engine and code blocks")
struct BuiltinCodeBlockTests {
    static let example = """
        ```
        import { EventEmitter } from 'node:events';
        const myEmitter = new EventEmitter();
        myEmitter.on('event', (a, b) => { console.log(a, b, this, this === myEmitter); });
        myEmitter.emit('event', 'a', 'b');
        ```
        """

    static let text = """
        # Events

        Much of the core API is built around an asynchronous event-driven architecture in which emitters emit named events.

        \(example)

        ## Passing arguments to listeners

        The emit method allows an arbitrary set of arguments to be passed to the listener functions.

        \(example)

        When an ordinary listener function is called, the standard this keyword refers to the emitter the listener is attached to.

        ## Handling events only once

        When a listener is registered with the on method, that listener is invoked every time the named event is emitted.

        \(example)

        With the once method a listener is called at most once for a particular event, and then it is unregistered.

        ## Error events

        When an error occurs within an emitter instance, the typical action is for an error event to be emitted.

        \(example)

        If an emitter has no listener registered for the error event, the error is thrown and the process exits.
        """

    /// Characters that prose never has and this example's every line has.
    static func looksLikeCode(_ text: String) -> Bool {
        ["=>", "();", "');", "{ ", "import {", "const "].contains { text.contains($0) }
    }

    @Test func noPartIsMadeOfCode() throws {
        let engine = BuiltinEngine()
        guard case .summary(let summary) = try engine.generate(.summary, text: Self.text, title: nil),
            case .flashcards(let deck) = try engine.generate(.flashcards, text: Self.text, title: nil),
            case .quiz(let quiz) = try engine.generate(.quiz, text: Self.text, title: nil),
            case .mindMap(let map) = try engine.generate(.mindmap, text: Self.text, title: nil),
            case .headline(let headline) = try engine.generate(.headline, text: Self.text, title: nil)
        else { throw CancellationError() }
        let shown = [headline.blurb, summary.overview] + summary.keyPoints
            + deck.cards.flatMap { [$0.question, $0.answer, $0.quote] }
            + quiz.questions.flatMap { [$0.prompt, $0.quote] + $0.choices }
            + map.branches.flatMap { [$0.label] + $0.children.map(\.label) }
        #expect(!deck.cards.isEmpty && !quiz.questions.isEmpty)
        let code = shown.filter(Self.looksLikeCode)
        #expect(code.isEmpty, "\(code)")
        #expect(!shown.contains { $0.contains("myEmitter") }, "\(shown)")
    }
}

/// Node.js's parameter lists ("offset <integer> Number of bytes to skip") and Valgrind's
/// command syntax ("check_memory <addr> [<len>]") are looked up, not learnt as sentences.
@Suite("The builtin engine and signature lines")
struct BuiltinSignatureTests {
    @Test(arguments: [
        ("offset <integer> Number of bytes to skip before starting to write string.", true),
        ("value <string> | <Buffer> | <Uint8Array> | <integer> The value with which to fill buf.", true),
        ("check_memory [addressable|defined] <addr> [<len>] checks that the range has the given accessibility.", true),
        ("Returns: <Buffer> A reference to buf.", true),
        ("A value is less than 3 when x < y and y > z hold.", false),
        ("The file <MIME>/magic maps file contents to types.", false),
        ("Buffers represent a fixed-length sequence of bytes.", false),
    ])
    func signatureLines(_ pair: (String, Bool)) {
        #expect(BuiltinAnalysis.isSignature(pair.0) == pair.1)
    }

    @Test func noCardOrKeyPointIsASignatureLine() throws {
        let text = """
            # buf.write(string[, offset])

            The write method writes a string into the buffer at an offset, using the character encoding given.

            - string <string> String to write to the buffer, as characters of the encoding.
            - offset <integer> Number of bytes to skip before starting to write the string.
            - Returns: <integer> Number of bytes written into the buffer by the method.

            If the buffer did not contain enough space to fit the entire string, only part of the string is written.

            The offset must satisfy the bounds of the buffer, or the method throws a range error to the caller.

            Writing past the end of the buffer never grows it: a buffer keeps the length it was allocated with.

            The character encoding decides how many bytes each character of the string takes in the buffer.

            A buffer written by several callers at once may interleave their bytes, so writers take turns.

            The number of bytes written lets the caller move the offset on for the next string.
            """
        let engine = BuiltinEngine()
        guard case .summary(let summary) = try engine.generate(.summary, text: text, title: nil),
            case .flashcards(let deck) = try engine.generate(.flashcards, text: text, title: nil)
        else { throw CancellationError() }
        let shown = [summary.overview] + summary.keyPoints + deck.cards.map(\.quote)
        #expect(!deck.cards.isEmpty)
        #expect(!shown.contains { $0.contains("<integer>") || $0.contains("<string>") }, "\(shown)")
    }
}

extension BuiltinSignatureTests {
    /// The lines that name a field most often are signature lines ("Returns: <boolean> …"),
    /// left out of the content: the field is still one ("Returns: true if …" is no term).
    @Test func fieldNamesCountTheSignatureLinesToo() throws {
        let text = """
            # Events

            The emitter calls every listener of an event synchronously, in the order the listeners were registered.

            - Returns: <boolean> Whether the event had listeners.
            - Returns: <Function[]> A copy of the listeners of the event.
            - Returns: <integer> The number of listeners of the event.
            - Returns: true when the listener was removed from the emitter.

            A listener that throws stops the emitter, and the error reaches the caller of the emit method.
            """
        let analysis = BuiltinAnalysis(text: text, title: nil)
        #expect(analysis.fieldNames.contains(TermNormalizer.words(in: "Returns")[0].stem), "\(analysis.fieldNames)")
        #expect(!analysis.keyphrases.contains { $0.text.lowercased() == "returns" })
    }
}
