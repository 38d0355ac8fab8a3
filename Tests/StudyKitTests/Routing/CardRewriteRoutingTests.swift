import Foundation
import Testing
@testable import StudyKit

/// Card rewrites through the router with a scripted local model. Each rewrite is judged alone,
/// yet the deck is validated whole: a rewritten question that nearly repeats another card's
/// question stays extracted, with why, and the other rewrites ship (the whole deck used to go
/// back to its extracted form).
@Suite("Card rewrites through the router")
struct CardRewriteRoutingTests {
    /// Two sentences of samples/long.pdf on one event (a timeline entry and the prose beside
    /// it) and a third on another; the builtin engine makes one cloze card of each.
    static let material = """
        # The Revolution

        17 June 1789: the Third Estate declares itself the National Assembly.

        On 17 June the Third Estate declared itself the National Assembly, claiming to represent the whole nation.

        On 14 July 1789 the crowd of Paris stormed the Bastille, a royal fortress and prison in the east of the city.
        """

    @Test func aRewriteThatNearlyRepeatsAnotherCardStaysExtractedAndTheRestShip() async throws {
        let document = Document(text: Self.material, title: nil, kind: .markdown, origin: "test")
        let extracted = try BuiltinEngine().generate(.flashcards, text: Self.material, title: nil)
        guard case .flashcards(let deck) = extracted else { throw CancellationError() }
        #expect(deck.cards.map(\.answer) == ["Third Estate", "17 June", "14 July 1789"])
        // The Qwen2.5-Coder-0.5B's way with these cards: each question asks for its blank, and
        // the second asks what the first does, but for its date.
        let local = ScriptedModel(.local, window: 256, steps: [
            .answer(#"{"answer": "Third Estate", "question": "What declares itself the National Assembly?"}"#),
            .answer(#"{"answer": "17 June", "question": "When did the Third Estate declare itself the National Assembly?"}"#),
            .answer(#"{"answer": "14 July 1789", "question": "When did the crowd of Paris storm the Bastille?"}"#),
        ])
        let router = RoutingEngine(local: local, remote: ScriptedModel(.remote, available: .unavailable(reason: "not configured")))
        let routed = try await router.run(RoutingRequest(
            task: .flashcards, document: document, useCache: false, budget: TimeBudget(seconds: 3600, start: Date())))
        guard case .flashcards(let cards) = routed.result else { throw CancellationError() }
        #expect(local.calls.respond == 3)
        #expect(cards.validationIssues().isEmpty)
        // The first question is a near-copy of the second card (its few content words are all
        // the second sentence's): it stays extracted, and the second and third ship rewritten.
        #expect(cards.cards.map(\.question) == [
            "17 June 1789: the _____ declares itself the National Assembly.",
            "When did the Third Estate declare itself the National Assembly?",
            "When did the crowd of Paris storm the Bastille?",
        ])
        #expect(routed.items.map(\.kind) == [.extracted, .rewritten, .rewritten])
        #expect(routed.items[0].note == "the rewritten question repeats another card's")
    }
}
