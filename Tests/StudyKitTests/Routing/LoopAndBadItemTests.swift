import Foundation
import Testing

@testable import StudyKit

/// #53, the 1.5B's quiet runs: a loop stopped the whole part and the items written before it
/// were never judged, and one bad item read as the reason a whole part was refused. A loop is
/// still stopped, but what it finished is judged like an answer cut at its limit; each bad item
/// is repaired or dropped by a rule of its own.
@Suite("Loops and single bad items")
struct LoopAndBadItemTests {
    typealias Fixture = PartJudgeTests

    static func remoteOnly(_ steps: [ScriptedModel.Step]) -> (RoutingEngine, ScriptedModel) {
        let remote = ScriptedModel(.remote, window: 16_384, steps: steps, streamsCheaply: true)
        let local = ScriptedModel(.local, available: .unavailable(reason: "none"))
        let router = RoutingEngine(local: local, remote: remote)
        return (router, remote)
    }

    // MARK: where a loop's answer ends

    @Test(arguments: [
        // A value written a third time: kept through its closing quote (its item is then dropped as unfinished).
        (#"{"keyPoints":["Helicase unwinds it.","Ligase joins it.","Ligase joins it.","Ligase joins it.","More"#,
         #"{"keyPoints":["Helicase unwinds it.","Ligase joins it.","Ligase joins it.","Ligase joins it.""#),
        // A value that loops within itself: kept up to its opening quote.
        (#"{"keyPoints":["Helicase unwinds it.","the moon pulls water, the moon pulls water, "#
            + #"the moon pulls water, the"#,
         #"{"keyPoints":["Helicase unwinds it.","#),
    ])
    func aLoopsAnswerEndsWhereItWasLastWhole(text: String, kept: String) throws {
        var guardian = RepetitionGuard()
        let stopped = guardian.feed(snapshot: text)
        #expect(stopped)
        let bytes = try #require(guardian.keptBytes)
        #expect(RoutingEngine.prefix(of: text, bytes: bytes) == kept)
    }

    @Test func aLoopFedInPiecesEndsAtTheSamePlace() throws {
        let text = #"{"labels":["Okazaki fragments","Okazaki fragments","Okazaki fragments","x"]}"#
        var whole = RepetitionGuard()
        let wholeStopped = whole.feed(snapshot: text)
        #expect(wholeStopped)
        var pieces = RepetitionGuard()
        var stopped = false
        for end in stride(from: 5, through: text.utf8.count, by: 7) where !stopped {
            stopped = pieces.feed(snapshot: RoutingEngine.prefix(of: text, bytes: end))
        }
        if !stopped { stopped = pieces.feed(snapshot: text) }
        #expect(stopped)
        #expect(pieces.keptBytes == whole.keptBytes)
    }

    // MARK: a loop in a part

    @Test func aDeckThatLoopsAfterEnoughCardsKeepsTheCardsWrittenBeforeIt() async throws {
        // Five good cards, then the fifth twice more: the loop is stopped at its third copy, the
        // second copy dropped as a duplicate, and the five judged; the builtin skeleton tops up to six.
        let cards = Array(Fixture.good.prefix(5)) + [Fixture.good[4], Fixture.good[4]] + [Fixture.good[5]]
        let looping = Fixture.deck(cards)
        let (router, remote) = Self.remoteOnly([.stream([looping])])
        let routed = try await router.run(
            RoutingRequest(task: .flashcards, document: Fixture.document(), engine: .remote, useCache: false))
        guard case .flashcards(let deck) = routed.result else { throw BuiltinError.emptyText }
        #expect(routed.engine == .remote)
        #expect(remote.calls.respond == 1, "not asked again")
        #expect(Array(deck.cards.prefix(5).map(\.question)) == Fixture.good.prefix(5).map(\.0))
        #expect(!deck.cards.contains { $0.question == Fixture.good[5].0 }, "nothing after the loop is read")
        #expect(routed.items.filter { $0.kind == .written }.count == 5)
        // The duplicate, and the card the loop was writing (shown as dropped, for `--json`).
        #expect(routed.dropped.map(\.path) == ["cards[5]", "cards[6]"])
        #expect(routed.dropped.last?.reason.contains("(a loop)") == true)
        #expect(routed.attempts.first?.outcome == .accepted)
    }

    @Test func aKitThatLoopsInItsQuizKeepsTheFinishedPartsAndAsksOnlyTheRestAlone() async throws {
        let question = try #require(JSONValue.parse(Fixture.quiz)["questions"]?.arrayValue?.first?.compactText)
        let looping =
            #"{"headline":\#(Fixture.headline),"summary":\#(Fixture.summary),"#
            + #""flashcards":\#(Fixture.deck(Fixture.good)),"#
            + #""quiz":{"questions":["# + [question, question, question].joined(separator: ",") + "]}"
        let (router, remote) = Self.remoteOnly([
            // Then only the parts the kit did not finish, the shortest expected answer first.
            .stream([Fixture.headline]), .stream([looping]), .stream([Fixture.mindMap]), .stream([Fixture.quiz]),
        ])
        let assembled = try await KitAssembler(router: router, kitEngine: remote).run(
            RoutingRequest(task: .studyKit, document: Fixture.document(), useCache: false))
        guard case .studyKit(let bundle) = assembled.routed.result else { throw BuiltinError.emptyText }
        #expect(remote.calls.respond == 4)
        #expect(bundle.flashcards.cards.map(\.question) == Fixture.good.map(\.0))
        #expect(bundle.quiz.questions.count == 3)
        for task in [StudyTask.summary, .flashcards] {
            #expect(assembled.parts.first { $0.task == task }?.routed.engine == .remote, "\(task)")
        }
        #expect(assembled.parts.dropFirst().allSatisfy { $0.routed.engine == .remote })
    }

    // MARK: one bad item, one rule

    /// A fixture answer with one item spoiled, what the rule does to it, and where.
    struct BadItem: Sendable, CustomTestStringConvertible {
        let rule: String
        let task: StudyTask
        let answer: String
        /// The path of the model's item dropped, or `nil` when it is repaired and kept.
        let dropped: String?
        /// The model's items that ship.
        let kept: Int
        var testDescription: String { rule }
    }

    static let badItems: [BadItem] = {
        let longHint = String(repeating: "It is the enzyme that unwinds the helix at the fork, ", count: 2)
        var cards = try! JSONValue.parse(Fixture.deck(Fixture.good)).objectValue!
        var list = cards["cards"]!.arrayValue!
        var first = list[0].objectValue!
        first["hint"] = .string(longHint)
        list[0] = .object(first)
        cards["cards"] = .array(list)
        let nearCopyChoices =
            #"{"prompt":"What keeps the separated strands apart?","choices":["Single-strand binding proteins","#
            + #""single-strand binding protein","helicase","primase"],"answerIndex":0,"#
            + #""explanation":"They keep them apart.","#
            + #""quote":"Single-strand binding proteins keep the separated strands apart."}"#
        let quiz = Fixture.quiz.replacingOccurrences(
            of: #"{"questions":["#, with: #"{"questions":["# + nearCopyChoices + ",")
        let summary = Fixture.summary.replacingOccurrences(
            of: #""keyPoints":["#, with: #""keyPoints":["Primase lays the primers.","#)
        return [
            BadItem(
                rule: "a card's hint over 80 characters is left out", task: .flashcards,
                answer: JSONValue.object(cards).compactText, dropped: nil, kept: 8),
            BadItem(
                rule: "a question's choice that near-copies its right answer is the builtin engine's",
                task: .quiz, answer: quiz, dropped: nil, kept: 4),
            BadItem(
                rule: "a key point of too few content words is dropped", task: .summary, answer: summary,
                dropped: "keyPoints[0]", kept: 4),
        ]
    }()

    @Test(arguments: badItems)
    func oneBadItemIsRepairedOrDroppedAndThePartKept(_ bad: BadItem) throws {
        let judged = try Fixture.judge(bad.answer, task: bad.task)
        #expect(judged.dropped.map(\.path).map(CalibrationTests.itemPath) == (bad.dropped.map { [$0] } ?? []))
        // The model's items that ship (written, repaired, or its own choice of the material's
        // words), a summary's overview among them: all but the skeleton's top-up.
        #expect(judged.items.count - judged.toppedUp == bad.kept, "\(judged.items) \(judged.dropped)")
        if bad.dropped == nil { #expect(judged.repaired == 1) }
    }

    // MARK: a headline's long title

    @Test(arguments: [
        ("Moon Phases, Tides, and Eclipses: A Comprehensive Guide", "Moon Phases, Tides, and Eclipses"),
        ("The Black Death - Europe's Great Mortality of 1347", "The Black Death"),
        ("Binary Search (Halving a Sorted Array Step by Step)", "Binary Search"),
        ("Acids and Bases in Everyday Chemistry Lab Work", "Acids and Bases"),
    ])
    func aLongTitleIsCutToItsHead(title: String, head: String) {
        #expect(ItemRepairs.titleHead(title, maxWords: 6, maxLength: 60) == head)
    }

    @Test(arguments: ["DNA Replication", "In the beginning there was a long and winding title"])
    func aTitleThatFitsOrHasNoHeadIsNotCut(title: String) {
        #expect(ItemRepairs.titleHead(title, maxWords: 6, maxLength: 60) == nil)
    }

    @Test func aHeadlineWhoseOnlyFaultIsALongTitleIsRepairedWithoutAnotherCall() async throws {
        let long =
            #"{"title":"DNA Replication: Lecture Notes for Week Seven","#
            + #""blurb":"Helicase unwinds the double helix and DNA polymerase builds each new strand."}"#
        let (router, remote) = Self.remoteOnly([.answer(long)])
        let routed = try await router.run(
            RoutingRequest(task: .headline, document: Fixture.document(), engine: .remote, useCache: false))
        guard case .headline(let headline) = routed.result else { throw BuiltinError.emptyText }
        #expect(headline.title == "DNA Replication")
        #expect(remote.calls.respond == 1)
        #expect(routed.items.first { $0.path == "title" }?.kind == .repaired)
        #expect(routed.items.first { $0.path == "blurb" }?.kind == .written)
    }
}
