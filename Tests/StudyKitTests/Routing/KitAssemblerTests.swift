import Foundation
import Testing
@testable import StudyKit

@Suite("KitAssembler")
struct KitAssemblerTests {
    static let summary = RoutingEngineTests.summary
    static let flashcards = #"""
        {"cards":[{"question":"What does mitosis divide one cell nucleus into?","answer":"Two identical nuclei.","quote":"Mitosis is the division of one cell nucleus into two identical nuclei."},
        {"question":"What does prophase condense into visible threads?","answer":"The chromosomes","quote":"Prophase condenses the chromosomes into visible threads."},
        {"question":"Where does metaphase line the chromosomes up?","answer":"Along the spindle equator","quote":"Metaphase lines the chromosomes up along the spindle equator."}]}
        """#
    static let quiz = #"""
        {"questions":[
        {"prompt":"What does mitosis divide?","choices":["The cell nucleus","The cell wall","The ribosome","The membrane"],"answerIndex":0,"explanation":"Mitosis divides one cell nucleus.","quote":"Mitosis is the division of one cell nucleus into two identical nuclei."},
        {"prompt":"How many nuclei does mitosis make from one nucleus?","choices":["One","Two","Three","Four"],"answerIndex":1,"explanation":"One nucleus becomes two.","quote":"Mitosis is the division of one cell nucleus into two identical nuclei."},
        {"prompt":"What are the nuclei that mitosis makes like?","choices":["Identical","Different","Smaller","Larger"],"answerIndex":0,"explanation":"They are identical.","quote":"Mitosis is the division of one cell nucleus into two identical nuclei."}]}
        """#
    static let mindMap = #"""
        {"centralTopic":"Mitosis","branches":[{"label":"Division","children":[{"label":"Nucleus","children":[]}]},{"label":"Daughter cells","children":[{"label":"Two identical nuclei","children":[]}]}]}
        """#
    static var kit: String {
        #"{"headline":\#(RoutingEngineTests.headline),"summary":\#(summary),"flashcards":\#(flashcards),"quiz":\#(quiz),"mindMap":\#(mindMap)}"#
    }

    @Test func theFixturesAreValid() throws {
        for (task, text) in [(StudyTask.summary, Self.summary), (.flashcards, Self.flashcards), (.quiz, Self.quiz), (.mindmap, Self.mindMap), (.studyKit, Self.kit)] {
            _ = try decodeResult(for: task, modelOutput: text)
        }
    }

    @Test func aKitThatFitsRemoteIsOneRequestAndTheHeadlineStaysLocal() async throws {
        let log = CallLog()
        let local = ScriptedModel(.local, steps: [.answer(RoutingEngineTests.headline)], log: log)
        let remote = ScriptedModel(.remote, window: 16_384, steps: [.answer(Self.kit)], log: log)
        let router = RoutingEngine(local: local, remote: remote)
        let kit = try await KitAssembler(router: router, kitEngine: remote).run(
            RoutingRequest(task: .studyKit, document: RoutingEngineTests.document()))
        #expect(kit.singleRequest)
        #expect(log.kinds == [.local, .remote])
        #expect(kit.routed.engine == .remote)
        #expect(kit.parts.map(\.task) == [.headline, .summary, .flashcards, .quiz, .mindmap])
        #expect(kit.parts[0].routed.engine == .local)
        guard case .studyKit(let bundle) = kit.routed.result else {
            Issue.record("not a kit")
            return
        }
        #expect(bundle.headline.title == "Cell Division Basics")
        #expect(bundle.quiz.questions.count == 3)
    }

    /// Under a time budget `import`'s headline does not ask the local model (#53); its parts do.
    @Test func underABudgetTheKitsHeadlineIsNotAskedOfTheLocalModel() async throws {
        let local = ScriptedModel(.local, window: 8192, steps: [.answer(Self.mindMap)])
        let remote = ScriptedModel(.remote, available: .unavailable(reason: "remote down"))
        let router = RoutingEngine(local: local, remote: remote)
        let kit = try await KitAssembler(router: router, kitEngine: remote).run(
            RoutingRequest(
                task: .studyKit, document: RoutingEngineTests.document(),
                budget: TimeBudget(seconds: 3600, start: Date())))
        let headline = kit.parts[0].routed
        #expect(headline.engine == .builtin)
        #expect(headline.fallbacks.contains { $0.engine == .local && $0.reason.hasPrefix("not asked: ") })
        #expect(kit.parts[4].routed.engine == .local)
    }

    @Test func withoutRemoteEachPartIsItsOwnRequest() async throws {
        let log = CallLog()
        let local = ScriptedModel(
            .local, window: 8192,
            // The parts are made cheapest items first (mind map, cards, quiz, then the summary), kit order kept.
            steps: [.answer(RoutingEngineTests.headline), .answer(Self.mindMap), .answer(Self.flashcards), .answer(Self.quiz), .answer(Self.summary)],
            log: log)
        let remote = ScriptedModel(.remote, available: .unavailable(reason: "remote down"))
        let router = RoutingEngine(local: local, remote: remote)
        let kit = try await KitAssembler(router: router, kitEngine: remote).run(
            RoutingRequest(task: .studyKit, document: RoutingEngineTests.document()))
        #expect(!kit.singleRequest)
        #expect(log.kinds == Array(repeating: .local, count: 5))
        #expect(kit.parts.allSatisfy { $0.routed.engine == .local })
        #expect(kit.parts.map(\.task) == [.headline, .summary, .flashcards, .quiz, .mindmap])
        // Every part records why remote did not answer, labelled with the part.
        #expect(kit.routed.fallbacks.map(\.reason).filter { $0.hasPrefix("quiz: ") }.count == 1)
        #expect(remote.calls.respond == 0)
    }
}
