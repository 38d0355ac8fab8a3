import Foundation
import Testing

@testable import StudyKit

/// #53's kit within its time on a slow remote model (Qwen2.5-Coder-1.5B on two cores): parts
/// estimated at what their answers take, sent with a limit sized from the items asked for, the
/// shortest asked first, and no second ask that the budget cannot hold.
@Suite("A kit's parts within the time budget")
struct KitTimeTests {
    /// The headline a rule refuses whole (stock filler), so the router would ask again.
    static let filler = #"{"title":"Cell Division Basics","blurb":"This document explains how cells divide."}"#

    @Test(arguments: [(budget: 100.0, asked: 1), (budget: 200.0, asked: 2)])
    func aSecondAskIsMadeOnlyWhenWhatIsLeftHoldsIt(budget: Double, asked: Int) async throws {
        // Each answer takes 60 s: with 100 s of budget, 40 s are left after the first.
        let clock = TestClock()
        let remote = ScriptedModel(.remote, steps: [.answer(Self.filler), .answer(Self.filler)], clock: clock, secondsPerCall: 60)
        let router = RoutingEngine(
            local: ScriptedModel(.local, available: .unavailable(reason: "none")), remote: remote, clock: clock)
        let routed = try await router.run(
            RoutingRequest(
                task: .headline, document: RoutingEngineTests.document(characters: 2_400), useCache: false,
                budget: TimeBudget(seconds: budget, start: clock.now())))
        #expect(remote.calls.respond == asked)
        #expect(routed.engine == .builtin)
        let skipped = routed.fallbacks.contains { $0.reason.contains("not asked again: the answer took 60 s, with only 40 s") }
        #expect(skipped == (asked == 1), "\(routed.fallbacks)")
    }

    @Test func partsGoToARemoteModelShortestExpectedAnswerFirst() {
        #expect(KitAssembler.remoteOrder(.standard) == [.summary, .mindmap, .flashcards, .quiz])
        // Three cards (245 tokens) are a shorter answer than five key points (285).
        let fewCards = ItemCounts(cards: 3, questions: 5, keyPoints: 5, branches: 4)
        #expect(KitAssembler.remoteOrder(fewCards) == [.flashcards, .summary, .mindmap, .quiz])
    }

    struct Limit: Sendable, CustomTestStringConvertible {
        var task: StudyTask
        var counts: ItemCounts
        var reserve: Int
        var limit: Int
        var testDescription: String { "\(task.name) → \(limit)" }
    }

    static let limits: [Limit] = [
        // Four branches are expected in 340 tokens: twice that, under the 800 reserve.
        Limit(task: .mindmap, counts: .standard, reserve: 800, limit: 680),
        // Six cards in 470 tokens: twice that, under the 1,200 reserve.
        Limit(task: .flashcards, counts: .standard, reserve: 1_200, limit: 940),
        Limit(task: .flashcards, counts: ItemCounts(cards: 3, questions: 3, keyPoints: 3, branches: 2), reserve: 1_200, limit: 490),
        // Ten questions in 1,820 tokens: more than the reserve, which holds.
        Limit(
            task: .quiz, counts: ItemCounts(cards: 6, questions: 10, keyPoints: 5, branches: 4), reserve: 1_200,
            limit: 1_200),
        Limit(task: .summary, counts: .standard, reserve: 512, limit: 512),
        // A task that counts no items keeps its reserve.
        Limit(task: .headline, counts: .standard, reserve: 200, limit: 200),
    ]

    @Test(arguments: limits)
    func aPartsResponseLimitFollowsTheItemsAskedFor(row: Limit) {
        #expect(row.counts.responseLimit(for: row.task, reserve: row.reserve) == row.limit)
    }

    @Test func aPartIsEstimatedAtWhatItsItemsTakeNotAtItsReserve() {
        // A quiz of 5 questions: 920 tokens expected, not the 1,200 of its reserve.
        #expect(ItemCounts.standard.expectedResponseTokens(for: .quiz) == 920)
        #expect(ItemCounts.standard.expectedResponseTokens(for: .headline) == nil)
        let kit = ItemCounts.standard.expectedResponseTokens(for: .studyKit) ?? 0
        #expect(kit == 60 + 285 + 470 + 920 + 340)
    }
}
