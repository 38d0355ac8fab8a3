import Foundation
import Testing

@testable import StudyKit

/// The builtin items that fill a model's part to the count asked for (#53's top-ups) are offered
/// to the model that wrote the part, as a builtin part's items are: a good rephrasing ships
/// `rewritten`, a refused one stays `extracted` with its note and the reason, and no rephrased
/// question repeats another card's, the model's own among them.
@Suite("A model part's top-ups are offered to its model")
struct TopUpRewriteTests {
    /// The model's deck: 3 usable cards of the 6 asked for (a placeholder, an invented quote, a
    /// quote that lacks its answer are dropped). The third asks what a good rephrasing of a
    /// top-up would ask.
    static let usable: [(String, String, String)] = [
        PartJudgeTests.good[0], PartJudgeTests.good[4],
        ("What lays down a short RNA primer?", "primase", PartJudgeTests.good[2].2),
    ]
    static let unusable: [(String, String, String)] = [
        ("Question 1", "helicase", PartJudgeTests.good[0].2),
        ("What unwinds the helix?", "topoisomerase", "Topoisomerase is an enzyme found in every cell of the body."),
        (
            "What does DNA ligase do?", "joins Okazaki fragments",
            "Single-strand binding proteins keep the separated strands apart."
        ),
    ]

    static func router(_ remote: ScriptedModel, capability: CapabilityPolicy) -> RoutingEngine {
        RoutingEngine(
            local: ScriptedModel(.local, available: .unavailable(reason: "none")), remote: remote, cache: nil,
            capability: capability)
    }

    static func deck(
        _ remote: ScriptedModel, engine: EngineChoice = .auto,
        capability: CapabilityPolicy = CapabilityPolicy(rewritesTopUps: true)
    ) async throws -> (deck: Flashcards, routed: RoutedResult) {
        let routed = try await router(remote, capability: capability).run(
            RoutingRequest(task: .flashcards, document: PartJudgeTests.document(), engine: engine, useCache: false))
        guard case .flashcards(let deck) = routed.result else { throw BuiltinError.emptyText }
        return (deck, routed)
    }

    static let answer = PartJudgeTests.deck(usable + unusable)
    static let goodQuestion = "What is semi-conservative, with each new DNA molecule keeping one strand?"
    static let goodRewrite = #"{"answer": "Replication", "question": "\#(goodQuestion)"}"#

    @Test func theTopUpsGoToTheRewriterAndEachShipsAsItsAnswerIsJudged() async throws {
        let remote = ScriptedModel(
            .remote, window: 8192,
            steps: [
                .answer(Self.answer),
                // The top-ups in the deck's order: "two strands", "Replication", "fragments".
                .answer(#"{"answer": "two strands", "question": "What do the two strands run in?"}"#),
                .answer(Self.goodRewrite),
                .answer(#"{"answer": "fragments", "question": "What are joined into one continuous strand?"}"#),
            ])
        let (deck, routed) = try await Self.deck(remote)
        #expect(routed.engine == .remote)
        // The deck, then exactly its three top-ups, each asked as a cloze card is.
        #expect(remote.calls.respond == 4)
        // The prompts after the deck's: the three top-ups' sentences, in the deck's order.
        let offered = remote.calls.prompts.dropFirst().compactMap { prompt in
            prompt.split(separator: "\n").first { $0.hasPrefix("Missing words: ") }.map { $0.dropFirst(15) }
        }
        #expect(offered == ["two strands", "Replication", "fragments"])
        #expect(deck.validationIssues().isEmpty)
        let questions = deck.cards.map { ProseText.duplicateKey($0.question) }
        #expect(Set(questions).count == questions.count, "no question twice")
        #expect(Grounding.issues(in: .flashcards(deck), source: PartJudgeTests.material).isEmpty)
        // The model's three cards as it wrote them.
        #expect(deck.cards.prefix(3).map(\.question) == Self.usable.map(\.0))
        #expect(routed.items.prefix(3).allSatisfy { $0.kind == .written })
        let topUp = PartJudge.topUpNote(.flashcards, requested: 6)
        // A question that gives its answer away: refused, the cloze ships with why.
        #expect(deck.cards[3].question.contains("_____"))
        #expect(routed.items[3].kind == .extracted)
        #expect(routed.items[3].note?.hasPrefix(topUp + "; not rewritten: the question gave its answer away") == true)
        // A good question ships rewritten.
        #expect(deck.cards[4].question == Self.goodQuestion)
        #expect(deck.cards[4].answer == "Replication")
        #expect(routed.items[4].kind == .rewritten)
        #expect(routed.items[4].note?.hasPrefix("rephrased by scripted-remote") == true)
        // A question that near-copies the model's own card ("What joins the fragments into one
        // continuous strand?"): refused, so no question is asked twice.
        #expect(deck.cards[5].question == "DNA ligase then joins the _____ into one continuous strand.")
        #expect(routed.items[5].kind == .extracted)
        #expect(routed.items[5].note == topUp + "; not rewritten: the rewritten question repeats another card's")
        // Each item request is an attempt of job "item", as any item rewrite's is.
        #expect(routed.attempts.filter { $0.job == .item }.map(\.outcome) == [.invalid, .accepted, .accepted])
    }

    /// In a kit written in one answer, each part's top-ups are offered under the part's path.
    @Test func aKitsTopUpsAreOfferedPartByPart() async throws {
        let kit = #"{"headline":\#(PartJudgeTests.headline),"summary":\#(PartJudgeTests.summary),"#
            + #""flashcards":\#(Self.answer),"quiz":\#(PartJudgeTests.quiz),"mindMap":\#(PartJudgeTests.mindMap)}"#
        let remote = ScriptedModel(
            .remote, window: 16_384,
            steps: [
                .answer(PartJudgeTests.headline), .answer(kit),
                .answer(#"{"answer": "two strands", "question": "What do the two strands run in?"}"#),
                .answer(Self.goodRewrite),
                .answer(#"{"answer": "fragments", "question": "What are joined into one continuous strand?"}"#),
            ])
        let assembled = try await KitAssembler(
            router: Self.router(remote, capability: CapabilityPolicy(rewritesTopUps: true)), kitEngine: remote
        ).run(RoutingRequest(task: .studyKit, document: PartJudgeTests.document(), useCache: false))
        guard case .studyKit(let bundle) = assembled.routed.result else { throw BuiltinError.emptyText }
        #expect(assembled.singleRequest)
        let items = assembled.routed.items
        // The headline, the kit, then the deck's three top-ups; its quiz and map passed whole.
        #expect(remote.calls.respond == 5)
        let cards = items.filter { $0.path.hasPrefix("kit.flashcards.cards[") }
        #expect(cards.map(\.kind) == [.written, .written, .written, .extracted, .rewritten, .extracted])
        #expect(cards[4].path == "kit.flashcards.cards[4]")
        #expect(bundle.flashcards.cards[4].question == Self.goodQuestion)
        #expect(cards[5].note?.hasSuffix("not rewritten: the rewritten question repeats another card's") == true)
        #expect(bundle.flashcards.validationIssues().isEmpty)
    }

    /// A forced engine's answer is its answer: nothing more is asked of it.
    @Test func aForcedEngineIsNotAskedAgain() async throws {
        let remote = ScriptedModel(.remote, window: 8192, steps: [.answer(Self.answer)])
        let (_, routed) = try await Self.deck(remote, engine: .remote)
        #expect(remote.calls.respond == 1)
        #expect(routed.items.suffix(3).allSatisfy(PartJudge.isTopUp))
    }

    /// Off unless configured, so a router in a test answers as its scripted engines are scripted.
    @Test func theDefaultPolicyOffersNoTopUps() async throws {
        #expect(!CapabilityPolicy().rewritesTopUps)
        #expect(try CapabilityPolicy(environment: [:]).rewritesTopUps)
        let remote = ScriptedModel(.remote, window: 8192, steps: [.answer(Self.answer)])
        let (_, routed) = try await Self.deck(remote, capability: CapabilityPolicy())
        #expect(remote.calls.respond == 1)
        #expect(routed.items.suffix(3).allSatisfy(PartJudge.isTopUp))
    }
}
