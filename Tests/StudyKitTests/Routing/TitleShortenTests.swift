import Foundation
import Testing
@testable import StudyKit

/// A headline whose only fault is a long title that no rule can cut to its head (a subtitle, a
/// head phrase: ``ItemRepairs/titleHead(_:maxWords:maxLength:)``, #53): the model is asked to
/// shorten its own title (a Post-it job Qwen2.5-Coder-0.5B finishes: "During mitosis one
/// eukaryotic cell divides into two daughter cells" → "Mitosis"), instead of the whole headline again.
@Suite("A long title is shortened by the model")
struct TitleShortenTests {
    static let text = """
        Mitosis - quick notes (pasted from my lecture slides)

        Mitosis is how one eukaryotic cell divides into two genetically identical daughter cells. \
        It is used for growth, repair and asexual reproduction.
        """
    static let longAnswer = #"{"title": "During mitosis one eukaryotic cell divides into two daughter cells", "blurb": "Mitosis is how one eukaryotic cell divides into two genetically identical daughter cells."}"#

    static func run(_ steps: [ScriptedModel.Step]) async throws -> (RoutedResult, ScriptedModel) {
        let local = ScriptedModel(.local, steps: steps)
        let router = RoutingEngine(local: local, remote: ScriptedModel(.remote, available: .unavailable(reason: "none")))
        let document = Document(text: text, title: nil, kind: .text, origin: "test")
        let routed = try await router.run(RoutingRequest(task: .headline, document: document, useCache: false))
        return (routed, local)
    }

    @Test func theModelsShortTitleAndItsBlurbAreTheHeadline() async throws {
        let (routed, local) = try await Self.run([.answer(Self.longAnswer), .answer(#"{"title": "Mitosis"}"#)])
        #expect(routed.engine == .local)
        #expect(routed.result == .headline(Headline(
            title: "Mitosis", blurb: "Mitosis is how one eukaryotic cell divides into two genetically identical daughter cells.")))
        #expect(routed.reasked)
        #expect(local.calls.respond == 2)
        // The second request is the small one: the long title alone, fenced as material, not
        // the document again.
        #expect(local.calls.prompts.last == "<document>\nDuring mitosis one eukaryotic cell divides into two daughter cells\n</document>\nShorten this title.")
        #expect(routed.attempts.map(\.outcome) == [.accepted])
    }

    @Test func aShortTitleWithAWordOfItsOwnFallsBackToTheReAsk() async throws {
        let (routed, local) = try await Self.run([
            .answer(Self.longAnswer), .answer(#"{"title": "Cell Division"}"#),
            .answer(#"{"title": "Mitosis Notes", "blurb": "Mitosis is how one eukaryotic cell divides into two genetically identical daughter cells."}"#),
        ])
        #expect(local.calls.respond == 3)
        #expect(local.calls.prompts.last?.contains("Write the headline") == true)
        guard case .headline(let headline) = routed.result else { Issue.record("not a headline"); return }
        #expect(headline.title == "Mitosis Notes")
    }

    @Test func onlyALongTitleIsShortened() {
        #expect(RoutingEngine.onlyTitleTooLong([ValidationIssue(path: "title", message: "has 9 words, but at most 6 are allowed")]))
        #expect(!RoutingEngine.onlyTitleTooLong([
            ValidationIssue(path: "title", message: "has 9 words, but at most 6 are allowed"),
            ValidationIssue(path: "blurb", message: "has 40 words, but at most 35 are allowed"),
        ]))
        #expect(!RoutingEngine.onlyTitleTooLong([]))
    }
}
