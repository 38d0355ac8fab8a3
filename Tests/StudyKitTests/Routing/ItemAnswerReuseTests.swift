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
        let router = RoutingEngine(local: local, remote: ScriptedModel(.remote, available: .unavailable(reason: "none")))
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
        let router = RoutingEngine(local: local, remote: ScriptedModel(.remote, available: .unavailable(reason: "none")))
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
        _ = try await RoutingEngine(local: local, remote: remote).run(Self.request(.flashcards))
        let asked = local.calls.respond
        _ = try await RoutingEngine(local: local, remote: remote).run(Self.request(.flashcards))
        #expect(local.calls.respond == 2 * asked)
    }
}
