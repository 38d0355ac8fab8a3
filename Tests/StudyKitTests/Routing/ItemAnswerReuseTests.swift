import Foundation
import Testing
@testable import StudyKit

/// Item jobs are decoded greedily, so the same job asked twice gets the same answer: within one
/// run (one router and its copies) an item asked again — a kit's quiz question on the sentence a
/// card was made from — is judged from the answer the model gave the first time, with no call.
@Suite("An item asked twice in one run is answered once")
struct ItemAnswerReuseTests {
    static func request(_ task: StudyTask) -> RoutingRequest {
        let document = Document(text: FeynmanCheckTests.manual, title: nil, kind: .text, origin: "test")
        return RoutingRequest(task: task, document: document, useCache: false, budget: TimeBudget(seconds: 3600, start: Date()))
    }

    @Test func theQuizReusesTheCardsAnswersWithoutAskingAgain() async throws {
        let answer = #"{"question": "What does the manual say about it?", "answer": "nothing"}"#
        // A window too small for the material: the parts are extracted, their items rewritten.
        let local = ScriptedModel(.local, window: 256, steps: Array(repeating: .answer(answer), count: 40))
        let router = RoutingEngine(
            local: local, remote: ScriptedModel(.remote, available: .unavailable(reason: "none")),
            capability: CapabilityPolicy(boundsItemRewrites: false))
        let cards = try await router.run(Self.request(.flashcards))
        let asked = local.calls.respond
        #expect(asked > 0)
        #expect(asked == cards.items.count)

        // A copy of the router, as the kit's parts get: the answers are shared.
        let copy = router
        let quiz = try await copy.run(Self.request(.quiz))
        guard case .flashcards(let deck) = cards.result, case .quiz(let questions) = quiz.result else {
            Issue.record("wrong result types"); return
        }
        let cardClozes = Set(deck.cards.map { "\($0.question)|\($0.answer)" })
        let reused = questions.questions.filter { cardClozes.contains("\($0.prompt)|\($0.answer ?? "")") }
        #expect(!reused.isEmpty, "the builtin quiz asks no card's cloze")
        // Only the quiz's clozes no card asked reach the model.
        let clozes = questions.questions.filter { $0.prompt.contains("_____") }
        #expect(local.calls.respond - asked == clozes.count - reused.count)
        #expect(quiz.attempts.count == clozes.count - reused.count)
        // A reused answer is judged as the card's was: the same reason, quoting the same answer.
        for (index, question) in questions.questions.enumerated() where cardClozes.contains("\(question.prompt)|\(question.answer ?? "")") {
            let card = try #require(deck.cards.firstIndex { $0.question == question.prompt })
            #expect(quiz.items[index].note == cards.items[card].note)
            #expect(quiz.items[index].note?.contains("What does the manual say about it?") == true)
        }
    }

    @Test func aCutAnswerIsNotAskedAgainEither() async throws {
        let local = ScriptedModel(.local, window: 256, steps: Array(repeating: .cut(#"{"question": "What"#), count: 40))
        let router = RoutingEngine(
            local: local, remote: ScriptedModel(.remote, available: .unavailable(reason: "none")),
            capability: CapabilityPolicy(boundsItemRewrites: false))
        let first = try await router.run(Self.request(.flashcards))
        let asked = local.calls.respond
        let second = try await router.run(Self.request(.flashcards))
        #expect(local.calls.respond == asked)
        #expect(second.attempts.isEmpty)
        #expect(second.items.map(\.note) == first.items.map(\.note))
        #expect(first.items.allSatisfy { $0.note?.contains("token limit") == true })
    }

    @Test func anotherRouterAsksAgain() async throws {
        let answer = #"{"question": "What does the manual say about it?", "answer": "nothing"}"#
        let local = ScriptedModel(.local, window: 256, steps: Array(repeating: .answer(answer), count: 40))
        let remote = ScriptedModel(.remote, available: .unavailable(reason: "none"))
        let unbounded = CapabilityPolicy(boundsItemRewrites: false)
        _ = try await RoutingEngine(local: local, remote: remote, capability: unbounded).run(Self.request(.flashcards))
        let asked = local.calls.respond
        _ = try await RoutingEngine(local: local, remote: remote, capability: unbounded).run(Self.request(.flashcards))
        #expect(local.calls.respond == 2 * asked)
    }
}

/// Across runs the result cache keeps each item answer as the model gave it, under a key of
/// every input of the request, and a later run judges it again instead of asking: the second
/// import of the same notes asks only what was never asked, and ships the same items.
@Suite("Item answers kept across runs")
struct StoredItemAnswerTests {
    static let refused = #"{"question": "What does the manual say about it?", "answer": "nothing"}"#

    static func request(_ task: StudyTask, useCache: Bool = true, start: Date = Date()) -> RoutingRequest {
        let document = Document(text: FeynmanCheckTests.manual, title: nil, kind: .text, origin: "test")
        return RoutingRequest(task: task, document: document, useCache: useCache, budget: TimeBudget(seconds: 3600, start: start))
    }

    static func router(_ local: ScriptedModel, cache: ResultCache?, memory: UsageLedger? = nil, clock: any DayClock = SystemDayClock()) -> RoutingEngine {
        RoutingEngine(
            local: local, remote: ScriptedModel(.remote, available: .unavailable(reason: "none")), cache: cache,
            memory: memory, capability: CapabilityPolicy(boundsItemRewrites: false), clock: clock)
    }

    @Test func aSecondRunJudgesTheKeptAnswersAndAsksNothing() async throws {
        let directory = try CacheTestDirectory()
        let cache = try ResultCache(path: directory.databasePath)
        let first = ScriptedModel(.local, window: 256, steps: Array(repeating: .answer(Self.refused), count: 40))
        let asked = try await Self.router(first, cache: cache).run(Self.request(.flashcards))
        #expect(first.calls.respond == asked.items.count)
        // Kept beside the results, not as results: nothing validated was stored.
        #expect(try cache.stats().keptAnswers == asked.items.count)
        #expect(try cache.stats().entries == 0)

        // Another process: a new router, a model that would answer otherwise.
        let second = ScriptedModel(.local, window: 256, steps: Array(repeating: .cut("{"), count: 40))
        let again = try await Self.router(second, cache: cache).run(Self.request(.flashcards))
        #expect(second.calls.respond == 0)
        #expect(again.attempts.isEmpty)
        #expect(again.result == asked.result)
        #expect(again.items.map(\.kind) == asked.items.map(\.kind))
        for (before, after) in zip(asked.items, again.items) {
            let note = try #require(before.note)
            #expect(note.contains("What does the manual say about it?"))
            #expect(after.note == note + " (the model's answer of an earlier run, from the cache)")
        }
    }

    @Test func noCacheNeitherReadsNorKeepsAnswers() async throws {
        let directory = try CacheTestDirectory()
        let cache = try ResultCache(path: directory.databasePath)
        let first = ScriptedModel(.local, window: 256, steps: Array(repeating: .answer(Self.refused), count: 40))
        _ = try await Self.router(first, cache: cache).run(Self.request(.flashcards))
        let kept = try cache.stats().keptAnswers
        #expect(kept > 0)
        let second = ScriptedModel(.local, window: 256, steps: Array(repeating: .answer(Self.refused), count: 40))
        let fresh = try await Self.router(second, cache: cache).run(Self.request(.flashcards, useCache: false))
        #expect(second.calls.respond == fresh.items.count)
        #expect(fresh.items.allSatisfy { $0.note?.contains("from the cache") == false })
        #expect(try cache.stats().keptAnswers == kept)
    }

    @Test func aCutAnswerIsKeptAsACutWithoutItsText() async throws {
        let directory = try CacheTestDirectory()
        let cache = try ResultCache(path: directory.databasePath)
        let first = ScriptedModel(.local, window: 256, steps: Array(repeating: .cut(#"{"question": "What"#), count: 40))
        _ = try await Self.router(first, cache: cache).run(Self.request(.flashcards))
        let second = ScriptedModel(.local, window: 256, steps: [])
        let again = try await Self.router(second, cache: cache).run(Self.request(.flashcards))
        #expect(second.calls.respond == 0)
        #expect(again.items.allSatisfy { $0.note?.contains("token limit") == true && $0.note?.hasSuffix("from the cache)") == true })
        // What is kept is the fact, not the half-written text.
        let payloads = try SQLiteDatabase(path: directory.databasePath).query("SELECT payload FROM results WHERE kind = 'item-answer'") { $0.text(at: 0) ?? "" }
        #expect(try cache.stats().keptAnswers == payloads.count)
        #expect(!payloads.isEmpty)
        #expect(payloads.allSatisfy { $0 == #"{"item":"card","cut":true}"# }, "\(payloads)")
    }

    /// A kept answer costs nothing, so it is read before the capability memory is asked: a
    /// model skipped for the job since still gets its earlier answers judged.
    @Test func aKeptAnswerIsUsedEvenWhenTheJobIsSkipped() async throws {
        let directory = try CacheTestDirectory()
        let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000))
        let cache = try ResultCache(path: directory.databasePath, clock: clock)
        let ledger = try UsageLedger(path: directory.databasePath, clock: clock)
        let first = ScriptedModel(.local, window: 256, steps: Array(repeating: .answer(Self.refused), count: 40))
        let asked = try await Self.router(first, cache: cache, memory: ledger, clock: clock).run(Self.request(.flashcards, start: clock.now()))
        #expect(first.calls.respond > 0)
        // A record of nothing but failures: the job is now skipped for a day.
        let key = AttemptKey(engine: .local, model: first.identity, task: "flashcards", job: .item, promptVersion: ItemRewriter.cardSpec.version)
        for _ in 0..<20 { try ledger.recordAttempt(Attempt(key: key, outcome: .invalid, duration: 1, at: clock.now())) }
        let second = ScriptedModel(.local, window: 256, steps: [])
        let again = try await Self.router(second, cache: cache, memory: ledger, clock: clock).run(Self.request(.flashcards, start: clock.now()))
        #expect(second.calls.respond == 0)
        let judged = asked.items.indices.filter { asked.items[$0].note?.contains("What does the manual say about it?") == true }
        #expect(!judged.isEmpty)
        for index in judged { #expect(again.items[index].note?.contains("What does the manual say about it?") == true) }
    }
}

/// A whole part the model failed in a way a greedy decode repeats is not asked again in the
/// capability memory's skip duration: the result cache keeps the fact under the part's key.
@Suite("A part the model failed is not asked again")
struct StoredRefusalTests {
    static let invalid = #"{"title":"","blurb":""}"#

    static func headline(_ local: ScriptedModel, cache: ResultCache, clock: TestClock, engine: EngineChoice = .auto, useCache: Bool = true) async throws -> RoutedResult {
        try await RoutingEngine(
            local: local, remote: ScriptedModel(.remote, available: .unavailable(reason: "none")), cache: cache, clock: clock
        ).run(RoutingRequest(task: .headline, document: RoutingEngineTests.document(), engine: engine, useCache: useCache))
    }

    @Test func anInvalidHeadlineIsSkippedOnTheNextRunAndAskedAgainADayLater() async throws {
        let directory = try CacheTestDirectory()
        let clock = TestClock()
        let cache = try ResultCache(path: directory.databasePath, clock: clock)
        let first = ScriptedModel(.local, steps: [.answer(Self.invalid), .answer(Self.invalid)])
        let failed = try await Self.headline(first, cache: cache, clock: clock)
        #expect(failed.engine == .builtin)
        #expect(first.calls.respond == 2)
        // A failure is no result: it is counted apart, and `cache clear --task headline` removes it.
        #expect(try cache.stats().entries == 0)
        #expect(try cache.stats().keptAnswers == 1)

        clock.advance(by: 600)
        let second = ScriptedModel(.local, steps: [.answer(RoutingEngineTests.headline)])
        let skipped = try await Self.headline(second, cache: cache, clock: clock)
        #expect(second.calls.respond == 0)
        #expect(skipped.engine == .builtin)
        let reason = try #require(skipped.fallbacks.first { $0.engine == .local }?.reason)
        #expect(reason.hasPrefix("skipped: it failed this same request 10 min ago ("))
        #expect(reason.hasSuffix("); --no-cache asks again"))

        // --engine local always tries local; --no-cache asks again.
        let forced = ScriptedModel(.local, steps: [.answer(Self.invalid), .answer(Self.invalid)])
        await #expect(throws: RoutingError.self) { try await Self.headline(forced, cache: cache, clock: clock, engine: .local) }
        #expect(forced.calls.respond == 2)
        let fresh = ScriptedModel(.local, steps: [.answer(RoutingEngineTests.headline)])
        #expect(try await Self.headline(fresh, cache: cache, clock: clock, useCache: false).engine == .local)

        // A day later the model is asked again.
        clock.advance(by: CapabilityPolicy().skipDuration)
        let later = ScriptedModel(.local, steps: [.answer(RoutingEngineTests.headline)])
        let answered = try await Self.headline(later, cache: cache, clock: clock)
        #expect(later.calls.respond == 1)
        #expect(answered.engine == .local)
    }

    @Test(arguments: [
        (ScriptedModel.Step.cut(#"{"title":"Cell"#), true),
        (ScriptedModel.Step.fail(.transport("the server closed the connection")), false),
        (ScriptedModel.Step.fail(.transport("the request timed out")), false),
    ])
    func onlyAFailureAGreedyDecodeRepeatsIsKept(step: ScriptedModel.Step, kept: Bool) async throws {
        let directory = try CacheTestDirectory()
        let clock = TestClock()
        let cache = try ResultCache(path: directory.databasePath, clock: clock)
        _ = try await Self.headline(ScriptedModel(.local, steps: [step, step]), cache: cache, clock: clock)
        let second = ScriptedModel(.local, steps: [.answer(RoutingEngineTests.headline)])
        let routed = try await Self.headline(second, cache: cache, clock: clock)
        #expect(second.calls.respond == (kept ? 0 : 1))
        #expect(routed.engine == (kept ? .builtin : .local))
    }
}
