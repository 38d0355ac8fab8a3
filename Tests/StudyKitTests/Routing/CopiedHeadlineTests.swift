import Foundation
import Testing
@testable import StudyKit

/// The in-process model's headline whose blurb copies the material word for word is stopped
/// once 8 words are copied in a row, and the builtin headline is used (#53: the 0.5B's blurb was
/// the opening sentence on 10 of 12 documents, 2.4 s of samples/notes.pdf's import for no
/// model-made item).
@Suite("A headline that copies the material is stopped")
struct CopiedHeadlineTests {
    static let opening = "Photosynthesis is the process by which plants, algae and cyanobacteria capture "
        + "the energy of sunlight and store it as chemical energy in sugar."
    static let text = """
        # Photosynthesis

        \(opening) It happens in two linked stages. The light-dependent reactions turn light into chemical energy, \
        and the Calvin cycle uses that energy to build sugar from carbon dioxide.
        """
    static let material = GroundingWords.normalizedWords(text)

    static func copied(_ blurbSoFar: String) -> String? {
        RoutingEngine.copiedBlurb(
            ItemRewriter.AnswerSoFar(partial: #"{"title": "Photosynthesis", "blurb": ""# + blurbSoFar),
            materialWords: material)
    }

    @Test(arguments: [
        // Seven settled words (the eighth may still grow): not yet.
        ("Photosynthesis is the process by which plants, alg", false),
        ("Photosynthesis is the process by which plants, algae ", true),
        // Its own words from the start: never stopped, however long.
        ("Plants, algae and cyanobacteria turn the energy of sunlight into sugar in two linked stages ", false),
        // Eight words of the material, but not in a row.
        ("Photosynthesis is the process by which plants turn sunlight ", false),
        ("", false),
    ])
    func aBlurbIsACopyOnceEightWordsInARowAreTheMaterials(blurb: String, stopped: Bool) {
        #expect((Self.copied(blurb) != nil) == stopped)
    }

    /// The opening sentence streamed a word at a time.
    static var copyingStream: ScriptedModel.Step {
        let words = opening.split(separator: " ")
        let head = #"{"title": "Photosynthesis", "blurb": ""#
        return .stream((1...words.count).map { head + words.prefix($0).joined(separator: " ") } + [
            head + opening + #""}"#,
        ])
    }

    static func headline(_ local: ScriptedModel, engine: EngineChoice) async throws -> RoutedResult {
        let document = Document(text: text, title: nil, kind: .text, origin: "test")
        let router = RoutingEngine(
            local: local, remote: ScriptedModel(.remote, available: .unavailable(reason: "none")), cache: nil)
        return try await router.run(
            RoutingRequest(
                task: .headline, document: document, engine: engine,
                budget: TimeBudget(seconds: 3600, start: Date())))
    }

    @Test func automaticRoutingStopsTheCopyAndUsesTheBuiltinHeadline() async throws {
        let local = ScriptedModel(.local, window: 2048, steps: [Self.copyingStream], streamsCheaply: true)
        let routed = try await Self.headline(local, engine: .auto)
        #expect(routed.engine == .builtin)
        #expect(routed.attempts.map(\.outcome) == [.copied])
        // Stopped at the snapshot whose eighth blurb word is whole: the one that starts the ninth.
        #expect(local.calls.snapshots == 9)
        #expect(local.calls.respond == 1)
        let reason = try #require(routed.fallbacks.first { $0.engine == .local }?.reason)
        #expect(reason.contains("copied the material word for word"))
    }

    /// A copy stopped as it is written is recorded with the tokens it read and wrote, not as free.
    @Test func aStoppedCopyIsRecordedWithTheTokensItCost() async throws {
        let rig = try CapabilityMemoryTests.Rig()
        let local = ScriptedModel(.local, window: 2048, steps: [Self.copyingStream], streamsCheaply: true)
        let router = rig.router(local: local, remote: ScriptedModel(.remote, available: .unavailable(reason: "none")))
        let document = Document(text: Self.text, title: nil, kind: .text, origin: "test")
        _ = try await router.run(RoutingRequest(task: .headline, document: document, useCache: false))
        let attempts = try rig.ledger.recentAttempts(rig.headlineKey(), limit: 5)
        #expect(attempts.map(\.outcome) == [.copied])
        #expect(attempts.first.map { $0.tokensIn > 0 && $0.tokensOut > 0 } == true, "\(attempts)")
    }

    /// `import`'s headline under a time budget does not ask the local model at all (#53); the same
    /// request made for `headline` does.
    @Test func aKitsHeadlineUnderABudgetDoesNotAskTheLocalModel() async throws {
        let document = Document(text: Self.text, title: nil, kind: .text, origin: "test")
        func run(kit: Bool, budget: TimeBudget?) async throws -> (RoutedResult, ScriptedModel) {
            let local = ScriptedModel(.local, window: 2048, steps: [Self.copyingStream], streamsCheaply: true)
            let router = RoutingEngine(
                local: local, remote: ScriptedModel(.remote, available: .unavailable(reason: "none")), cache: nil)
            var request = RoutingRequest(task: .headline, document: document, budget: budget)
            request.isKitHeadline = kit
            return (try await router.run(request), local)
        }
        let budget = TimeBudget(seconds: 3600, start: Date())
        let (kit, kitModel) = try await run(kit: true, budget: budget)
        #expect(kit.engine == .builtin)
        #expect(kitModel.calls.respond == 0)
        #expect(kit.attempts.isEmpty)
        let reason = try #require(kit.fallbacks.first { $0.engine == .local }?.reason)
        #expect(reason.hasPrefix("not asked: the small local model's kit headlines"))
        // Asked for on its own, or for a kit with no time budget, the model writes it.
        for (isKit, limit) in [(false, budget), (true, nil)] {
            let (asked, model) = try await run(kit: isKit, budget: limit)
            #expect(model.calls.respond == 1)
            #expect(asked.attempts.map(\.outcome) == [.copied])
        }
    }

    @Test func aForcedLocalEngineKeepsItsWholeAnswer() async throws {
        let local = ScriptedModel(.local, window: 2048, steps: [Self.copyingStream], streamsCheaply: true)
        let routed = try await Self.headline(local, engine: .local)
        #expect(routed.engine == .local)
        guard case .headline(let headline) = routed.result else { Issue.record("not a headline"); return }
        #expect(headline.blurb == Self.opening)
    }
}
