#if LlamaCpp
import Foundation
import Testing
@testable import StudyKit

/// Extract, then rewrite, on the real in-process SmolLM2 over samples/notes.pdf. What the model
/// says is not a contract: every item must come out either rewritten by the model and grounded,
/// or extracted with a recorded reason — whichever cards the model happens to get right.
@Suite("Item rewrite on the in-process model")
struct ItemRewriteTests {
    static func notes() async throws -> Document {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("samples/notes.pdf").path
        return try await Importer().load(.file(path))
    }

    @Test(arguments: [StudyTask.flashcards, .quiz, .summary, .mindmap])
    func everyItemIsRewrittenAndGroundedOrExtractedWithAReason(task: StudyTask) async throws {
        let document = try await Self.notes()
        let directory = try CacheTestDirectory()
        let ledger = try UsageLedger(path: directory.databasePath)
        let router = RoutingEngine(
            local: try LlamaFixtures.engine(), remote: UnconfiguredEngine(kind: .remote, reason: "none"), memory: ledger)
        let routed = try await router.run(
            RoutingRequest(task: task, document: document, useCache: false, budget: TimeBudget(seconds: 600, start: Date())))

        // The whole part was not attempted: the window says it does not fit; builtin extracted it.
        #expect(routed.engine == .builtin)
        #expect(routed.fallbacks.contains { $0.engine == .local && $0.reason.contains("-token window; the builtin engine extracts") })
        #expect(!routed.items.isEmpty)
        let extracted = try BuiltinEngine().generate(task, text: document.text, title: document.title)
        let material = [document.title, document.text].compactMap { $0 }.joined(separator: "\n")
        // The shipped result validates and is grounded, whatever the model wrote.
        #expect(routed.result.value.validationIssues().isEmpty)
        #expect(Grounding.issues(in: routed.result, source: material).isEmpty)
        for item in routed.items {
            switch item.kind {
            case .rewritten: #expect(item.note?.isEmpty == false)
            case .extracted: #expect(item.note?.isEmpty == false, "\(item.path) has no reason")
            case .written, .repaired: Issue.record("\(item.path) claims to be written whole")
            }
        }
        // Every model attempt was an item job, and each is in the ledger.
        #expect(routed.attempts.allSatisfy { $0.job == .item })
        let recorded = try ledger.attemptSummaries().filter { $0.key.job == .item }.reduce(0) { $0 + $1.attempts }
        #expect(recorded == routed.attempts.count)
        if case .mindMap(let map) = routed.result {
            // Only a label too long to be a name and no whole heading is named by the model; notes.pdf has none.
            let headings = ItemRewriter.headingKeys(in: document.text)
            #expect(routed.attempts.count == map.branches.filter { ItemRewriter.branchNeedsName($0, headings: headings) }.count)
            for item in routed.items where item.path.hasSuffix(".label") && item.kind == .extracted {
                #expect(item.note == "the material's heading, short enough to name the branch")
            }
        } else {
            #expect(routed.attempts.count > 0)
        }
        // A rewritten card keeps the extracted card's quote: the evidence is the material's own.
        if case .flashcards(let deck) = routed.result, case .flashcards(let original) = extracted {
            #expect(deck.cards.map(\.quote) == original.cards.map(\.quote))
            for (index, item) in routed.items.enumerated() where item.kind == .extracted {
                #expect(deck.cards[index] == original.cards[index])
            }
        }
        // A rewritten quiz question keeps its four choices, its answer and its quote.
        if case .quiz(let quiz) = routed.result, case .quiz(let original) = extracted {
            #expect(quiz.questions.map(\.choices) == original.questions.map(\.choices))
            #expect(quiz.questions.map(\.answerIndex) == original.questions.map(\.answerIndex))
            #expect(quiz.questions.map(\.quote) == original.questions.map(\.quote))
            for (index, item) in routed.items.enumerated() {
                if item.kind == .extracted { #expect(quiz.questions[index] == original.questions[index]) }
                if item.kind == .rewritten { #expect(quiz.questions[index].prompt.hasSuffix("?")) }
            }
        }
    }
}
#endif
