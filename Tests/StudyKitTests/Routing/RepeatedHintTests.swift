import Foundation
import Testing

@testable import StudyKit

/// #53, session 65: Qwen2.5-Coder-1.5B wrote one hint for every card of its binary-search deck
/// ("Think of it as dividing the array in half repeatedly until you find the target or determine
/// it's not there.", cards 1 and 2 of the recorded answer `q15-29`). The repetition guard counted
/// the hint as an entry, so the third card stopped the deck with two cards finished, fewer than
/// half of the six asked for, and the whole deck fell to the builtin engine (`/tmp/judge64`,
/// attempt outcome "repeated"). A hint is an optional clue beside a card, not an item: written
/// again it is no loop (a hint over 80 characters, as that one is, is still left out by the judge).
@Suite("A hint written on every card is no loop")
struct RepeatedHintTests {
    typealias Fixture = PartJudgeTests
    static let hint = "Think of the steps of replication in order."

    static func deck(hint: String) -> String {
        var cards = try! JSONValue.parse(Fixture.deck(Fixture.good)).objectValue!
        cards["cards"] = .array(
            cards["cards"]!.arrayValue!.map { card in
                var fields = card.objectValue!
                fields["hint"] = .string(hint)
                return .object(fields)
            })
        return JSONValue.object(cards).compactText
    }

    @Test func theGuardDoesNotStopADeckForItsHints() {
        var guardian = RepetitionGuard(exempt: StudyTask.flashcards.repeatingMembers)
        let stopped = guardian.feed(snapshot: Self.deck(hint: Self.hint))
        #expect(!stopped)
        // A card's question written a third time is still a loop.
        let looping = Fixture.deck(Array(Fixture.good.prefix(2)) + Array(repeating: Fixture.good[2], count: 3))
        var strict = RepetitionGuard(exempt: StudyTask.flashcards.repeatingMembers)
        let loops = strict.feed(snapshot: looping)
        #expect(loops)
    }

    @Test func aDeckWithOneHintOnEveryCardKeepsEveryCard() async throws {
        let (router, remote) = LoopAndBadItemTests.remoteOnly([.stream([Self.deck(hint: Self.hint)])])
        let routed = try await router.run(
            RoutingRequest(task: .flashcards, document: Fixture.document(), engine: .remote, useCache: false))
        guard case .flashcards(let deck) = routed.result else { throw BuiltinError.emptyText }
        #expect(routed.engine == .remote)
        #expect(remote.calls.respond == 1)
        #expect(deck.cards.map(\.question) == Fixture.good.map(\.0))
        #expect(routed.items.filter { $0.kind == .extracted }.isEmpty, "\(routed.items)")
        #expect(routed.attempts.first?.outcome == .accepted)
    }
}
