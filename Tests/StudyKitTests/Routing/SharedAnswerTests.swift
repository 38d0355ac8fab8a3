import Foundation
import Testing

@testable import StudyKit

/// #53, session 68: Qwen2.5-Coder-1.5B's Black Death deck asked three questions whose answer was
/// "Yersinia pestis" ("What was the name of the disease?", "What was the name of the bacterium
/// that caused the plague?", "What did the fleas carry?"). The repetition guard counted the
/// answer as an entry, so the third card stopped the deck with two finished, fewer than half of
/// the six asked for, and the whole deck fell to the builtin engine in every kit of that note.
/// Several cards may ask for one term from different sides: only a card's question written a
/// third time is a loop.
@Suite("Cards that share an answer are no loop")
struct SharedAnswerTests {
    typealias Fixture = PartJudgeTests

    /// Three cards on three sentences of the material, all answered "DNA polymerase".
    static let sameAnswer: [(String, String, String)] = [
        (
            "Which enzyme cannot start a strand on its own?", "DNA polymerase",
            "DNA polymerase cannot start a strand on its own, so the enzyme primase first lays down a short RNA primer."
        ),
        (
            "Which enzyme proofreads its work and removes most wrongly paired bases?", "DNA polymerase",
            "DNA polymerase also proofreads its work and removes most wrongly paired bases, so replication makes about one error in a billion bases."
        ),
        (
            "Which enzyme removes the RNA primers and fills the gaps with DNA?", "DNA polymerase",
            "DNA polymerase I removes the RNA primers and fills the gaps with DNA."
        ),
    ]

    static var deck: String { Fixture.deck(Array(Fixture.good.prefix(3)) + sameAnswer) }

    @Test func theGuardLetsThreeCardsShareAnAnswer() {
        var guardian = RepetitionGuard(exempt: StudyTask.flashcards.repeatingMembers)
        let stopped = guardian.feed(snapshot: Self.deck)
        #expect(!stopped)
        #expect(guardian.repeatedEntry == nil)
    }

    @Test func aQuestionWrittenAThirdTimeIsStillALoop() {
        // The same card three times: its question repeats, whatever its answer does.
        let card = Self.sameAnswer[0]
        let looping = Fixture.deck(Array(Fixture.good.prefix(2)) + [card, card, card])
        var guardian = RepetitionGuard(exempt: StudyTask.flashcards.repeatingMembers)
        let stopped = guardian.feed(snapshot: looping)
        #expect(stopped)
        #expect(guardian.repeatedEntry == card.0)
    }

    @Test func aStreamedDeckWithOneAnswerThriceKeepsItsCards() async throws {
        let (router, remote) = LoopAndBadItemTests.remoteOnly([.stream([Self.deck])])
        let routed = try await router.run(
            RoutingRequest(task: .flashcards, document: Fixture.document(), engine: .remote, useCache: false))
        guard case .flashcards(let deck) = routed.result else { throw BuiltinError.emptyText }
        #expect(routed.engine == .remote)
        #expect(remote.calls.respond == 1)
        #expect(routed.attempts.first?.outcome == .accepted)
        let questions = Set(deck.cards.map(\.question))
        for card in Self.sameAnswer { #expect(questions.contains(card.0), "\(deck.cards.map(\.question))") }
        #expect(routed.items.filter { $0.kind == .extracted }.isEmpty, "\(routed.items)")
    }
}
