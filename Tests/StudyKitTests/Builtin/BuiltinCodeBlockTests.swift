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
