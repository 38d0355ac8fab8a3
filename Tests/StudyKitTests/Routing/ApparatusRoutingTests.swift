import Foundation
import Testing
@testable import StudyKit

/// Issue 52: what a model is sent is the body. The Wikipedia article's reference list, hatnote
/// and external links never reach a prompt; its formulas do, as TeX.
@Suite("Routing sends the body, never the apparatus")
struct ApparatusRoutingTests {
    static let summary = #"""
        {"overview":"t-SNE is a machine learning algorithm for visualization that models similar objects by nearby points.",
         "keyPoints":["The t-SNE algorithm comprises two main stages.",
                      "It minimizes the Kullback–Leibler divergence between the two distributions."]}
        """#

    @Test func aModelIsSentTheBodyAndNeverTheApparatus() async throws {
        let document = try await Importer().load(.file(ImportFixtures.sample("realpages/wikipedia-t-sne.html")))
        #expect(document.characterCount == document.text.count && document.apparatusCharacterCount > 2_000)
        let remote = ScriptedModel(.remote, window: 32_768, steps: [.answer(Self.summary), .answer(Self.summary)])
        let local = ScriptedModel(.local, available: .unavailable(reason: "not installed"))
        let request = RoutingRequest(task: .summary, document: document, useCache: false)
        _ = try? await RoutingEngine(local: local, remote: remote).run(request)
        let prompts = remote.calls.prompts
        #expect(!prompts.isEmpty)
        for prompt in prompts {
            #expect(prompt.contains("Kullback–Leibler divergence"))
            #expect(prompt.contains("$p_{ij}$"), "formulas go as TeX")
            for apparatus in ["Retrieved", "ISBN", "doi:", "arXiv:", "Gashi", "redirects here", "Google Tech Talk", "[edit]"] {
                #expect(!prompt.contains(apparatus), "a prompt carries \(apparatus)")
            }
        }
    }
}
