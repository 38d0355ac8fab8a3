import Foundation
import Testing
@testable import StudyKit

/// The small model's rewrites are asked where they pay most, and a part stops asking once its
/// own answers say the rest would be refused (#53, #54).
@Suite("Rewrite order and allowance")
struct RewriteOrderTests {
    typealias Item = RewriteOrder.Item

    @Test(arguments: [
        // One section: shared first, then a blank that opens its sentence, then by rank.
        ([Item(section: 1, rank: 0), Item(section: 1, rank: 5, opensItsSentence: true),
          Item(section: 1, rank: 9, shared: true)],
         [2, 1, 0]),
        // Three sections: one item of each in turn (the better first), then the second of each.
        ([Item(section: 1, rank: 3), Item(section: 1, rank: 1), Item(section: 2, rank: 7), Item(section: 3, rank: 0),
          Item(section: 3, rank: 8)],
         [3, 1, 2, 0, 4]),
        // The quiz's cards first, though two share a section, then the others spread.
        ([Item(section: 1, rank: 0, shared: true), Item(section: 1, rank: 1, shared: true), Item(section: 2, rank: 2),
          Item(section: 3, rank: 3)],
         [0, 1, 2, 3]),
        // No rank and no section: deck order, each its own section.
        ([Item(), Item(), Item()], [0, 1, 2]),
    ])
    func itemsAreAskedSpreadOverSectionsBestFirst(items: [Item], expected: [Int]) {
        let order = RewriteOrder.order(items)
        #expect(order == expected)
        #expect(order.sorted() == Array(items.indices))
    }

    @Test(arguments: [
        ("_____: the enzyme that fixes carbon dioxide onto RuBP.", true),
        ("The _____ stay closed during the day.", true),
        ("Cyclic flow makes extra _____ but no NADPH.", false),
        ("During the day the _____ stay closed to save water.", false),
        ("No blank at all.", false),
    ])
    func aBlankOpensItsSentenceOnlyAfterNothingButAnArticle(cloze: String, opens: Bool) {
        #expect(RewriteOrder.opensItsSentence(cloze) == opens)
    }

    @Test(arguments: [
        // (attempts allowed, refusal rule, asked, accepted, stops)
        (8, true, 7, 7, false),
        (8, true, 8, 7, true),
        (nil, true, 2, 0, false),
        (nil, true, 3, 0, true),
        (nil, true, 3, 1, false),
        (nil, true, 5, 1, false),
        (nil, true, 9, 1, false),
        (nil, true, 10, 2, false),
        (nil, true, 13, 2, true),
        (nil, false, 30, 0, false),
    ] as [(Int?, Bool, Int, Int, Bool)])
    func aPartStopsAtItsAllowanceOrOnItsRefusals(
        attempts: Int?, refusals: Bool, asked: Int, accepted: Int, stops: Bool
    ) {
        let allowance = ItemAllowance(attempts: attempts, stopsOnRefusals: refusals)
        let reason = allowance.stop(asked: asked, accepted: accepted)
        #expect((reason != nil) == stops, "\(reason ?? "nil")")
        if let reason { #expect(reason.hasPrefix("not rewritten: ")) }
    }

    /// A blank that is one of a list is passed over on the local model (#53): samples/notes.pdf's
    /// two such cards were both refused; the others are asked.
    @Test(arguments: [
        ("The rate of photosynthesis depends on light intensity, _____ concentration and temperature.", true),
        ("The thylakoid membranes hold the pigments, the _____ and the enzyme ATP synthase; the stroma holds.", true),
        ("Plants need water, light or _____.", false),
        ("Plants need water, _____, or light.", false),
        ("In 1789, _____ stormed the Bastille and freed its prisoners.", false),
        ("In their mesophyll cells the enzyme PEP carboxylase, which does not react with _____, fixes CO2.", false),
        ("During the day the _____ stay closed to save water, and the stored CO2 is released.", false),
        ("No blank here, and none after.", false),
    ])
    func aBlankInAListIsPassedOver(cloze: String, inList: Bool) {
        #expect(RewriteOrder.blankInAList(cloze) == inList)
        let card = Flashcards.Card(question: cloze, answer: "x", quote: cloze)
        let job = ItemRewriter.cardJob(card, path: "cards[0]", materialStems: [])
        #expect((job.passedOver != nil) == inList)
    }

    @Test func anItemPassedOverKeepsItsPlaceInTheAllowance() {
        let allowance = ItemAllowance.clozes(bodySections: 7)
        #expect(!allowance.asksEveryShape)
        #expect(allowance.stop(asked: 7, accepted: 5) == nil)
        #expect(allowance.stop(asked: 7, accepted: 5, passedOver: 1) != nil)
        // Passed-over items are no refusals: the first three answers decide that.
        #expect(ItemAllowance(attempts: nil).stop(asked: 2, accepted: 0, passedOver: 5) == nil)
        #expect(ItemAllowance.open.asksEveryShape)
        #expect(ItemAllowance.forEngine(.local).asksEveryShape)
    }

    @Test func aDeckIsAllowedOneAnswerPerBodySectionAndAPagesQuizWorth() {
        #expect(ItemAllowance.clozes(bodySections: 0).attempts == KitSize.minimumQuestions)
        #expect(ItemAllowance.clozes(bodySections: 7).attempts == 8)
        #expect(ItemAllowance.clozes(bodySections: 30).attempts == 30)
        #expect(ItemAllowance.forEngine(.remote) == .open)
        #expect(ItemAllowance.forEngine(.local).stopsOnRefusals)
    }

    @Test(arguments: [
        // A page of notes (samples/notes.pdf: 8,231 characters): 30 s as before.
        (StudyTask.studyKit, false, 8_231, 30.0),
        (.studyKit, false, 10_000, 30),
        (.studyKit, false, 30_000, 40),
        // The 105-page textbook: 75 s, under #54's 90 s.
        (.studyKit, false, 99_929, 74),
        (.studyKit, false, 600_000, 80),
        // A remote model: 240 s for a one-page note (#53's line), 300 s from 4,000 characters.
        (.studyKit, true, 1_991, 240),
        (.studyKit, true, 2_500, 240),
        (.studyKit, true, 3_000, 260),
        (.studyKit, true, 3_962, 298),
        (.studyKit, true, 4_403, 300),
        (.studyKit, true, 99_929, 300),
        // Another command: unchanged.
        (.flashcards, false, 99_929, 30),
        (.feynman, false, 99_929, 5),
    ])
    func theKitsDefaultBudgetGrowsWithTheMaterial(task: StudyTask, remote: Bool, characters: Int, seconds: Double) {
        #expect(TimeBudget.defaultSeconds(for: task, remoteConfigured: remote, characterCount: characters) == seconds)
    }

    /// A model that gets none of a part's first three items right is not asked the rest: the
    /// fourth and later cards keep their extracted form, and say why.
    @Test func aLocalModelThatGetsTheFirstThreeCardsWrongIsNotAskedTheRest() async throws {
        let material = """
            # Cells

            The nucleus holds the genetic material of the cell and controls its activities.

            Ribosomes build proteins from amino acids, reading the code carried by messenger RNA.

            Mitochondria release energy from glucose in a process called cellular respiration.

            Chloroplasts capture light energy and turn it into chemical energy in green plants.

            The cell membrane controls which substances enter and leave the cell by diffusion.
            """
        let document = Document(text: material, title: nil, kind: .markdown, origin: "test")
        let refusal = #"{"answer": "x", "question": "Is this a question?"}"#
        let local = ScriptedModel(.local, window: 256, steps: Array(repeating: .answer(refusal), count: 12))
        let router = RoutingEngine(
            local: local, remote: ScriptedModel(.remote, available: .unavailable(reason: "not configured")))
        let routed = try await router.run(RoutingRequest(
            task: .flashcards, document: document, useCache: false, budget: TimeBudget(seconds: 3600, start: Date())))
        guard case .flashcards(let deck) = routed.result else { throw CancellationError() }
        #expect(deck.cards.count > ItemAllowance.refusalEvidence)
        #expect(local.calls.respond == ItemAllowance.refusalEvidence)
        let stopped = routed.items.filter {
            ($0.note ?? "").contains("of this document's first 3 rewrites of this kind were accepted")
        }
        #expect(stopped.count == deck.cards.count - ItemAllowance.refusalEvidence)
    }

    /// The small local model copies the key sentences it is shown for an overview (none of its
    /// overviews on record was accepted), so under a bounded allowance it is not asked one: a
    /// page's kit keeps the extracted overview and says why. A remote model is asked it.
    @Test func theLocalModelIsNotAskedTheOverviewUnderABoundedAllowance() async throws {
        #expect(!ItemAllowance.overview(.local).asksEveryShape)
        #expect(!ItemAllowance.overview(.local).stopsOnRefusals)
        #expect(ItemAllowance.overview(.remote) == .open)
        let job = ItemRewriter.overviewJob(
            sentences: ["One."], keyPoints: ["One."], extracted: "One.", materialStems: [])
        #expect(job.passedOver == ItemRewriter.overviewPassedOver)

        let long = #"{"point": ""# + (1...30).map { "word\($0)" }.joined(separator: " ") + #"."}"#
        let document = Document(text: SettledRefusalTests.terror, title: nil, kind: .text, origin: "test")
        for bounded in [true, false] {
            let local = ScriptedModel(.local, window: 256, steps: Array(repeating: .answer(long), count: 20))
            let router = RoutingEngine(
                local: local, remote: ScriptedModel(.remote, available: .unavailable(reason: "not configured")),
                capability: CapabilityPolicy(boundsItemRewrites: bounded))
            let routed = try await router.run(RoutingRequest(
                task: .summary, document: document, useCache: false, budget: TimeBudget(seconds: 3600, start: Date())))
            let overview = try #require(routed.items.first { $0.path == "overview" })
            #expect(overview.kind == .extracted)
            // The three key points are asked either way; the overview only when every shape is.
            #expect(local.calls.respond == (bounded ? 3 : 4))
            #expect((overview.note == "not rewritten: " + ItemRewriter.overviewPassedOver) == bounded,
                "\(overview.note ?? "nil")")
        }
    }
}
