import Foundation
import Synchronization
import Testing
@_spi(Benchmarks) @testable import StudyKit

/// A remote model whose chunk answers each pass every rule alone, but break the rules of one
/// deck once joined: each chunk gives a cloze card per sentence, up to the 20 one answer may
/// hold (where about 8 were asked for); chunk 2 repeats chunk 1's first question word for word
/// (over a quote of its own), and chunk 3 asks it again in other words — a near-copy that the
/// reduce's exact comparison does not see.
final class RuleBreakingChunkModel: LanguageModel {
    let first = Mutex<Flashcards.Card?>(nil)
    let calls = Mutex(0)

    var kind: EngineKind { .remote }
    var modelName: String { "rule-breaker" }
    var identity: String { "rule-breaker://remote" }
    var languages: LanguageSupport { .any }
    func availability() async -> Availability { .available }
    func contextSize() async throws -> ContextWindow { ContextWindow(tokens: 3_072, source: .configured(setting: "TEST")) }
    func tokenCount(for text: String) async throws -> TokenCount { TokenCount(count: ScriptedModel.tokens(text), method: .exact) }
    func tokenize(_ text: String) async throws -> [Int]? { nil }

    /// A cloze card for each plain sentence of `text`: its longest word blanked out.
    static func clozeCards(_ text: String) -> [Flashcards.Card] {
        var cards: [Flashcards.Card] = []
        for sentence in SentenceSplitter().split(text) {
            let line = sentence.text
            guard line.hasSuffix("."), (60...280).contains(line.count), !line.contains("\n"), !line.contains("_") else { continue }
            let words: [String] = line.split(whereSeparator: { !$0.isLetter }).map(String.init)
            let candidates = words.filter { word in word.count >= 7 && word.first?.isLowercase == true }
            guard let answer = candidates.max(by: { $0.count < $1.count }), let range = line.range(of: answer) else { continue }
            cards.append(Flashcards.Card(question: line.replacingCharacters(in: range, with: "_____"), answer: answer, quote: line))
        }
        return Array(cards.prefix(20))
    }

    func respond(to request: GenerationRequest) async throws -> RawResponse {
        calls.withLock { $0 += 1 }
        let part = ChunkEchoModel.part(in: request.prompt)?.0
        let document = request.prompt.components(separatedBy: "<document>\n").dropFirst().first?
            .components(separatedBy: "\n</document>").first ?? ""
        var cards = Self.clozeCards(document)
        if part == 1 { first.withLock { $0 = cards.first } }
        if let original = first.withLock({ $0 }), let last = cards.last {
            if part == 2 {
                cards[cards.count - 1] = Flashcards.Card(question: original.question, answer: original.answer, quote: last.quote)
            } else if part == 3 {
                cards[cards.count - 1] = Flashcards.Card(
                    question: "Indeed, " + original.question.prefix(1).lowercased() + original.question.dropFirst(),
                    answer: original.answer, quote: last.quote)
            }
        }
        let text = Flashcards(cards: cards).jsonValue.compactText
        return RawResponse(
            text: text, usage: Usage(promptTokens: ScriptedModel.tokens(request.prompt), completionTokens: ScriptedModel.tokens(text)),
            model: modelName, finishReason: "stop")
    }
}

@Suite("Merged chunks")
struct MergedChunksTests {
    @Test func aDeckJoinedFromChunksPassesOneDecksRulesWithAScaledLimit() async throws {
        let model = RuleBreakingChunkModel()
        let router = RoutingEngine(local: ScriptedModel(.local, available: .unavailable(reason: "off")), remote: model)
        let runner = ChunkedRunner(router: router, jobs: 1)
        let request = RoutingRequest(task: .flashcards, document: ChunkingFixture.document(), useCache: false)
        let planned = try #require(await runner.plan(request))
        let chunks = planned.plan.chunks.count
        #expect(chunks >= 3)
        let routed = try await runner.run(request)
        let coverage = try #require(routed.coverage)
        guard case .flashcards(let deck) = routed.result else { Issue.record("not a deck"); return }
        // Every chunk's answer was accepted as it was.
        #expect(coverage.chunks.allSatisfy { $0.engine == .remote && $0.readWhole })
        let answered = coverage.chunks.reduce(0) { $0 + $1.items }

        // The deck now passes one deck's rules, with at most 10 cards per chunk.
        let schema = StudyTask.flashcards.generationSchema.merged(chunks: chunks, perChunk: StudyTask.flashcards.mergedItemsPerChunk)
        #expect(schema.validationIssues(for: deck.jsonValue).isEmpty)
        #expect(deck.semanticIssues().isEmpty)
        #expect(answered > 10 * chunks)
        #expect(deck.cards.count == 10 * chunks)

        // What went, and why, is in `dropped`, each item named by its chunk and place in its answer.
        let repeated = routed.dropped.filter { $0.reason.contains("repeats the question or the quote") }
        let nearCopies = routed.dropped.filter { $0.reason.contains("near-copy") }
        // A card whose quote does not carry its answer is dropped in its own chunk's answer (#53):
        // chunk 2's copy of chunk 1's card, and chunk 3's rewording of it, put another sentence under it.
        let inChunk = routed.dropped.filter { $0.reason.contains("hold the answer") || $0.reason.contains("of the question's words") }
        #expect((repeated + inChunk).contains { $0.path.hasPrefix("chunk 2.cards[") })
        #expect((nearCopies + inChunk).contains { $0.path.hasPrefix("chunk 3.cards[") })
        let overLimit = routed.dropped.filter { $0.reason.contains("merged limit of \(10 * chunks) items (10 per chunk × \(chunks) chunks)") }
        #expect(repeated.count + nearCopies.count + overLimit.count + inChunk.count == routed.dropped.count)
        #expect(deck.cards.count == answered - (routed.dropped.count - inChunk.count))
        #expect(coverage.duplicatesDropped == repeated.count)
        #expect(!deck.cards.contains { $0.question.hasPrefix("Indeed, ") })

        // The cut kept every chunk's sections in balance: no chunk lost all its cards, and the
        // items per section add up to the deck.
        #expect(coverage.sections.reduce(0) { $0 + $1.items } == deck.cards.count)
        for chunk in planned.plan.chunks {
            let own = chunk.sections.reduce(0) { $0 + coverage.sections[$1].items }
            #expect(own > 0, "chunk \(chunk.index + 1) lost every card")
        }
    }

    @Test func aMergedPartNoDroppingCanMendFallsBackLikeAnInvalidAnswer() async throws {
        // One heading over the whole text and no other: the joined map has a single branch, and a map needs two.
        // (The three Markdown readings, their headings taken out; the plain-text one has headings of its own.)
        let markdown = ChunkingFixture.text.components(separatedBy: "Newton's Three Laws of Motion")[0]
        let text = markdown.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("#") }.joined(separator: "\n")
        let document = ChunkingFixture.document("# Readings in biology, computing and history\n\n" + text)
        let remote = ChunkEchoModel(window: 2_048)
        let router = RoutingEngine(local: ScriptedModel(.local, available: .unavailable(reason: "off")), remote: remote)
        let runner = ChunkedRunner(router: router, jobs: 1)
        let request = RoutingRequest(task: .mindmap, document: document, useCache: false)
        #expect(try #require(await runner.plan(request)).plan.chunks.count >= 3)

        let routed = try await runner.run(request)
        #expect(remote.calls >= 3)
        #expect(routed.engine == .builtin)
        let reason = try #require(routed.fallbacks.first?.reason)
        #expect(reason.contains("the merged mindmap failed validation"))
        #expect(reason.contains("branches has 1 item"))
        // What ships is a valid map of the whole document, and no chunk counts as read by a model.
        _ = try decodeResult(for: .mindmap, json: routed.result.jsonValue)
        let coverage = try #require(routed.coverage)
        #expect(coverage.charactersRead == 0)
        #expect(coverage.chunks.allSatisfy { $0.engine == .builtin && $0.read == 0 })

        // A forced engine fails instead, as it does on any invalid answer.
        var forced = request
        forced.engine = .remote
        await #expect(throws: RoutingError.self) { _ = try await runner.run(forced) }
    }
}
