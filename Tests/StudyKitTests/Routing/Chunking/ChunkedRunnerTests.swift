import Foundation
import Synchronization
import Testing
@testable import StudyKit

/// A model that answers each chunk from the chunk itself (the builtin engine's extraction of the
/// document in the prompt, so every answer is valid and grounded), counts its calls and how many
/// ran at once, and fails or waits as a test scripts it.
final class ChunkEchoModel: LanguageModel {
    static let oneAnswer = KitSize(cards: KitSize.minimumCards, questions: KitSize.minimumQuestions)
    struct State {
        var calls = 0
        var inFlight = 0
        var mostInFlight = 0
        var parts: [Int] = []
        var finished: [Int] = []
    }

    let kind: EngineKind
    let window: Int
    /// Chunk number (1-based) → the error its request throws.
    let failures: @Sendable (_ call: Int, _ part: Int?) -> EngineError?
    /// Chunk number (1-based) and total → the chunk whose answer this one waits for (at most
    /// 5 s), or `nil`: a finishing order made by the model, not by sleeps a loaded machine outruns.
    let answersAfter: @Sendable (_ part: Int, _ total: Int) -> Int?
    let state = Mutex(State())
    /// What its "server" says it serves at once; `nil`: no server.
    let serves: ServerConcurrency?
    /// Called as each request ends, answered or not (a test clock moved by the time it took).
    let onAnswer: @Sendable () -> Void

    init(
        _ kind: EngineKind = .remote, window: Int = 3_072, serves: ServerConcurrency? = nil,
        failures: @escaping @Sendable (Int, Int?) -> EngineError? = { _, _ in nil },
        answersAfter: @escaping @Sendable (Int, Int) -> Int? = { _, _ in nil },
        onAnswer: @escaping @Sendable () -> Void = {}
    ) {
        self.onAnswer = onAnswer
        self.kind = kind
        self.window = window
        self.serves = serves
        self.failures = failures
        self.answersAfter = answersAfter
    }

    func concurrency() async -> ServerConcurrency? { serves }

    var modelName: String { "echo-\(kind.rawValue)" }
    var identity: String { "echo://\(kind.rawValue)" }
    var languages: LanguageSupport { .any }
    var calls: Int { state.withLock { $0.calls } }
    var parts: [Int] { state.withLock { $0.parts } }
    var mostInFlight: Int { state.withLock { $0.mostInFlight } }
    var finished: [Int] { state.withLock { $0.finished } }

    func availability() async -> Availability { .available }
    func contextSize() async throws -> ContextWindow { ContextWindow(tokens: window, source: .configured(setting: "TEST")) }
    func tokenCount(for text: String) async throws -> TokenCount { TokenCount(count: ScriptedModel.tokens(text), method: .exact) }
    func tokenize(_ text: String) async throws -> [Int]? { nil }

    /// "part 3 of 12" in the prompt, or `nil`.
    static func part(in prompt: String) -> (Int, Int)? {
        guard let range = prompt.range(of: #"part (\d+) of (\d+)"#, options: .regularExpression) else { return nil }
        let numbers = prompt[range].split(separator: " ").compactMap { Int($0) }
        return numbers.count == 2 ? (numbers[0], numbers[1]) : nil
    }

    func respond(to request: GenerationRequest) async throws -> RawResponse {
        defer { onAnswer() }
        let part = Self.part(in: request.prompt)
        let call = state.withLock { state -> Int in
            state.calls += 1
            state.inFlight += 1
            state.mostInFlight = max(state.mostInFlight, state.inFlight)
            if let part { state.parts.append(part.0) }
            return state.calls
        }
        defer { state.withLock { $0.inFlight -= 1 } }
        if let part, let other = answersAfter(part.0, part.1) {
            for _ in 0..<1_000 where !state.withLock({ $0.finished.contains(other) }) {
                try await Task.sleep(nanoseconds: 5_000_000)
            }
        }
        if let part { state.withLock { $0.finished.append(part.0) } }
        if let error = failures(call, part?.0) { throw error }
        let document = request.prompt.components(separatedBy: "<document>\n").dropFirst().first?.components(separatedBy: "\n</document>").first ?? ""
        let task = StudyTask.allCases.first { $0.schemaName == request.schemaName } ?? .flashcards
        // The model sees the title line too, as a real one does.
        let title = request.prompt.split(separator: "\n").first { $0.hasPrefix("Title: ") }.map { String($0.dropFirst(7)) }
        // A model writes what one answer may hold: the page-sized deck and quiz.
        let result = try BuiltinEngine().generate(task, text: document, title: title, size: Self.oneAnswer)
        let text = result.jsonValue.compactText
        return RawResponse(
            text: text, usage: Usage(promptTokens: ScriptedModel.tokens(request.prompt), completionTokens: ScriptedModel.tokens(text)),
            model: modelName, finishReason: "stop")
    }
}

/// A ``ChunkEchoModel`` that streams: each answer goes out as three growing snapshots, after
/// the answer it waits for (``ChunkEchoModel/answersAfter``), and each snapshot's part is noted.
final class StreamingChunkModel: LanguageModel {
    let echo: ChunkEchoModel
    /// Every snapshot streamed, with the part it belongs to.
    let streamed = Mutex<[String: Int]>([:])

    init(answersAfter: @escaping @Sendable (Int, Int) -> Int?) {
        echo = ChunkEchoModel(answersAfter: answersAfter)
    }

    var kind: EngineKind { echo.kind }
    var modelName: String { echo.modelName }
    var identity: String { echo.identity }
    var languages: LanguageSupport { .any }
    func availability() async -> Availability { .available }
    func contextSize() async throws -> ContextWindow { try await echo.contextSize() }
    func tokenCount(for text: String) async throws -> TokenCount { try await echo.tokenCount(for: text) }
    func tokenize(_ text: String) async throws -> [Int]? { nil }
    func respond(to request: GenerationRequest) async throws -> RawResponse { try await echo.respond(to: request) }

    func streamResponse(to request: GenerationRequest) -> AsyncThrowingStream<GenerationEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let response = try await self.echo.respond(to: request)
                    let part = ChunkEchoModel.part(in: request.prompt)?.0 ?? 0
                    let text = response.text
                    for share in [3, 2, 1] {
                        let snapshot = String(text.prefix(text.count / share))
                        self.streamed.withLock { $0[snapshot] = part }
                        continuation.yield(.partial(snapshot))
                        await Task.yield()
                    }
                    continuation.yield(.completed(response))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

@Suite("Chunked generation")
struct ChunkedRunnerTests {
    static let document = ChunkingFixture.document()

    static func runner(
        remote: any LanguageModel, local: any LanguageModel = ScriptedModel(.local, available: .unavailable(reason: "off")),
        cache: (any ResultCaching)? = nil, ledger: (any UsageMetering)? = nil, quota: DailyQuota? = nil,
        jobs: Int? = nil, maxChunks: Int? = nil
    ) -> ChunkedRunner {
        let router = RoutingEngine(local: local, remote: remote, cache: cache, ledger: ledger, quota: quota)
        return ChunkedRunner(router: router, jobs: jobs, maxChunks: maxChunks)
    }

    /// A document that fits and asks for no more items than one answer writes well (a page's
    /// 12 cards or 8 questions, or what `--cards` says) goes in one request.
    @Test(arguments: [
        (StudyTask.flashcards, KitSize(cards: 12)), (.quiz, KitSize(questions: 10)), (.summary, .followsMaterial),
        (.mindmap, .followsMaterial),
    ])
    func aDocumentThatFitsGoesInOneRequest(task: StudyTask, size: KitSize) async throws {
        let remote = ChunkEchoModel(window: 32_000)
        var request = RoutingRequest(task: task, document: Self.document)
        request.size = size
        let routed = try await Self.runner(remote: remote).run(request)
        #expect(routed.coverage == nil)
        #expect(remote.calls == 1)
        #expect(remote.parts.isEmpty)
    }

    /// #54: a document that fits the remote window but asks for more cards than one answer
    /// writes well is asked per group of consecutive sections, each for its share (at most 12
    /// cards, 10 questions), through the chunks' map and reduce: deduplicated, with coverage.
    @Test(arguments: [StudyTask.flashcards, .quiz])
    func aDocumentThatFitsIsAskedPerGroupOfSections(task: StudyTask) async throws {
        let remote = ChunkEchoModel(window: 32_000)
        let runner = Self.runner(remote: remote)
        let request = RoutingRequest(task: task, document: Self.document)
        let planned = try #require(await runner.plan(request))
        let wanted = try #require(
            SectionGroupPlanner.wantedItems(task, size: .followsMaterial, outline: planned.outline))
        let limit = try #require(SectionGroupPlanner.groupLimit(task))
        #expect(planned.plan.groupedItems == wanted)
        #expect(planned.plan.chunks.count >= 2 && planned.plan.chunks.count >= (wanted + limit - 1) / limit)
        let shares = ChunkedRunner.itemShares(planned.plan, task: task).compactMap { $0 }
        #expect(shares.count == planned.plan.chunks.count)
        #expect(shares.allSatisfy { $0 <= limit + 1 }, "\(shares)")
        #expect(abs(shares.reduce(0, +) - wanted) <= shares.count, "\(shares) for \(wanted)")
        // Groups of whole sections: no section is cut in two (every section is held whole by one group).
        #expect(planned.plan.chunks.flatMap(\.wholeSections).count == planned.plan.sectionHeadings.count)

        let routed = try await runner.run(request)
        let coverage = try #require(routed.coverage)
        #expect(remote.calls == planned.plan.chunks.count)
        #expect(Set(remote.parts) == Set(1...planned.plan.chunks.count))
        #expect(coverage.groupedItems == wanted)
        #expect(coverage.sectionsRead == coverage.sections.count)
        #expect(coverage.jsonValue["chunksAre"] == .string("groups of sections"))
        #expect(coverage.markdownFooter.contains("groups of sections"))
        #expect(routed.engine == .remote)
        let items: Int
        switch routed.result {
        case .flashcards(let deck): items = deck.cards.count
        case .quiz(let quiz): items = quiz.questions.count
        default: items = 0
        }
        #expect(items > limit)
        #expect(items == coverage.chunks.reduce(0) { $0 + $1.items } - routed.dropped.count)
    }

    /// A group request that fails falls back as any request does: that group's items are the
    /// builtin engine's, the others' the model's, and the coverage says which group no model read.
    @Test func aFailedGroupFallsBackToTheBuiltinEngine() async throws {
        let remote = ChunkEchoModel(
            window: 32_000, failures: { _, part in part == 2 ? .transport("group 2 dropped") : nil })
        let runner = Self.runner(remote: remote)
        let routed = try await runner.run(RoutingRequest(task: .flashcards, document: Self.document))
        let coverage = try #require(routed.coverage)
        #expect(coverage.chunks.count >= 2)
        #expect(coverage.chunks[1].engine == .builtin)
        #expect(coverage.chunks[0].engine == .remote)
        #expect(coverage.chunks[1].items > 0)
        #expect(coverage.sectionsRead < coverage.sections.count)
        let asked = try #require(coverage.groupedItems)
        #expect(Self.count(routed.result) <= asked)
    }

    /// #54: when every group falls back, the deck is the builtin engine's deck of the whole
    /// document for the count asked — not each group's builtin deck added up past it.
    @Test(arguments: [(StudyTask.flashcards, KitSize(cards: 24)), (.quiz, KitSize(questions: 14)), (.flashcards, .followsMaterial)])
    func groupsThatAllFallBackHoldTheCountAsked(task: StudyTask, size: KitSize) async throws {
        let remote = ChunkEchoModel(window: 32_000, failures: { _, _ in .transport("dropped") })
        let runner = Self.runner(remote: remote)
        var request = RoutingRequest(task: task, document: Self.document)
        request.size = size
        let routed = try await runner.run(request)
        let coverage = try #require(routed.coverage)
        #expect(coverage.chunks.count >= 2 && coverage.chunks.allSatisfy { $0.engine == .builtin })
        var whole = request
        whole.engine = .builtin
        let builtin = try await runner.router.run(whole)
        let asked = try #require(coverage.groupedItems)
        #expect(Self.count(routed.result) == Self.count(builtin.result))
        #expect(Self.count(routed.result) <= asked)
    }

    /// Cards or questions in a result.
    static func count(_ result: AnyStudyResult) -> Int {
        switch result {
        case .flashcards(let deck): return deck.cards.count
        case .quiz(let quiz): return quiz.questions.count
        default: return 0
        }
    }

    /// Capping a merged list keeps a card in every section while there are enough: the
    /// section with the most loses its last first.
    @Test(arguments: [
        ([0, 0, 0, 1, 2, 2], 4, [0, 1, 3, 4]),
        ([0, 0, 0, 1, 2, 2], 3, [0, 3, 4]),
        ([0, 1], 5, [0, 1]),
        ([nil, 1, 1, 1], 2, [0, 1]),
    ] as [([Int?], Int, [Int])])
    func aMergedListIsCappedKeepingTheSpread(sections: [Int?], wanted: Int, kept: [Int]) {
        #expect(ChunkedRunner.spreadCap(sections, wanted: wanted) == kept)
    }

    @Test func aLongDocumentIsReadChunkByChunkAndCovered() async throws {
        let remote = ChunkEchoModel()
        let runner = Self.runner(remote: remote)
        let planned = try #require(await runner.plan(RoutingRequest(task: .flashcards, document: Self.document)))
        #expect(planned.plan.chunks.count >= 3)
        #expect(planned.jobs == 4)
        let routed = try await runner.run(RoutingRequest(task: .flashcards, document: Self.document))
        let coverage = try #require(routed.coverage)
        // One request per chunk, every chunk read whole by the model.
        #expect(remote.calls == planned.plan.chunks.count)
        #expect(coverage.chunks.count == planned.plan.chunks.count)
        #expect(coverage.sectionsRead == coverage.sections.count)
        #expect(coverage.charactersRead == Self.document.characterCount)
        #expect(routed.engine == .remote)
        #expect(!routed.fitted.cut)
        // Items per section add up to the cards shipped: the chunks' cards less those dropped
        // when they were joined (duplicates, and what the merged deck's rules refused).
        guard case .flashcards(let deck) = routed.result else { Issue.record("not a deck"); return }
        #expect(coverage.sections.reduce(0) { $0 + $1.items } == deck.cards.count)
        #expect(deck.cards.count == coverage.chunks.reduce(0) { $0 + $1.items } - routed.dropped.count)
        #expect(routed.dropped.count >= coverage.duplicatesDropped)
        // Each prompt said which part it was and asked for its share of cards.
        #expect(Set(remote.parts) == Set(1...planned.plan.chunks.count))
    }

    /// Without --jobs, a run keeps as many chunk requests in flight as the serving engine's
    /// server serves at once; with it, what it says.
    @Test(arguments: [
        (ServerConcurrency(requests: 1, source: .serializingServer), nil, 1, JobsChoice.Source.serializingServer),
        (ServerConcurrency(requests: 2, source: .serverSlots), nil, 2, .serverSlots),
        (ServerConcurrency(requests: nil, source: .unreported), nil, 4, .assumed),
        (ServerConcurrency(requests: 1, source: .serializingServer), 3, 3, .option),
    ] as [(ServerConcurrency, Int?, Int, JobsChoice.Source)])
    func theDefaultJobsAreWhatTheServerServesAtOnce(serves: ServerConcurrency, jobs: Int?, expected: Int, source: JobsChoice.Source) async throws {
        // Every chunk waits for the next one's answer (at most 5 s): with room, they run together.
        let remote = ChunkEchoModel(serves: serves, answersAfter: { part, total in part < total ? part + 1 : nil })
        let runner = Self.runner(remote: remote, jobs: jobs)
        let request = RoutingRequest(task: .flashcards, document: Self.document, useCache: false)
        let planned = try #require(await runner.plan(request))
        #expect(planned.plan.chunks.count >= 4)
        #expect(planned.jobs == expected)
        #expect(planned.jobsFrom == source)
        let routed = try await runner.run(request)
        #expect(remote.mostInFlight == expected)
        #expect(routed.coverage?.jobs == JobsChoice(jobs: expected, source: source))
        guard case .object(let coverage) = routed.coverage?.jsonValue else { Issue.record("no coverage"); return }
        #expect(coverage["jobs"] == .integer(expected))
        #expect(coverage["jobsFrom"] == .string(source.rawValue))
    }

    @Test func resultsKeepDocumentOrderWhateverTheFinishingOrder() async throws {
        // With 3 in flight, chunk 3 answers first, then 2, then 1.
        let remote = ChunkEchoModel(answersAfter: { part, _ in part < 3 ? part + 1 : nil })
        let sequential = ChunkEchoModel()
        let concurrent = try await Self.runner(remote: remote, jobs: 3).run(RoutingRequest(task: .flashcards, document: Self.document, useCache: false))
        let inOrder = try await Self.runner(remote: sequential, jobs: 1).run(RoutingRequest(task: .flashcards, document: Self.document, useCache: false))
        #expect(remote.mostInFlight == 3)
        #expect(sequential.mostInFlight == 1)
        #expect(concurrent.result == inOrder.result)
        #expect(concurrent.coverage?.chunks.map(\.index) == inOrder.coverage?.chunks.map(\.index))
        // They did finish out of order.
        #expect(remote.finished != remote.finished.sorted())
    }

    /// `--stream --jobs 3`: the chunks finish last to first, yet their text is shown in
    /// document order, each chunk's whole before the next one's, the last snapshot of each
    /// included (so an appended preview shows every line of every chunk).
    @Test func streamedTextComesInDocumentOrderWhateverTheFinishingOrder() async throws {
        let remote = StreamingChunkModel(answersAfter: { part, total in part < min(total, 3) ? part + 1 : nil })
        let shown = Mutex<[String]>([])
        let router = RoutingEngine(
            local: ScriptedModel(.local, available: .unavailable(reason: "off")), remote: remote,
            onPartial: { text in shown.withLock { $0.append(text) } })
        let runner = ChunkedRunner(router: router, jobs: 3)
        let request = RoutingRequest(task: .flashcards, document: Self.document, useCache: false)
        let planned = try #require(await runner.plan(request))
        _ = try await runner.run(request)

        // They did finish out of order.
        #expect(remote.echo.finished != remote.echo.finished.sorted())
        let streamed = remote.streamed.withLock { $0 }
        let parts = shown.withLock { $0 }.map { streamed[$0] ?? 0 }
        #expect(parts == parts.sorted(), "shown out of order: \(parts)")
        #expect(Set(parts) == Set(1...planned.plan.chunks.count))
        // Each chunk's final snapshot is shown, not only the part streamed while it was first in line.
        let finals = Dictionary(streamed.map { ($0.value, $0.key) }) { $0.count > $1.count ? $0 : $1 }
        for (part, text) in finals { #expect(shown.withLock { $0 }.contains(text), "chunk \(part)'s whole answer was not shown") }
    }

    @Test func aRunThatDiesAtChunkKResumesFromTheCache() async throws {
        let directory = try CacheTestDirectory()
        let cache = try ResultCache(path: directory.databasePath)
        let failing = 3
        // A forced engine that fails at chunk 3 ends the run (exit 69), as a kill would.
        let dying = ChunkEchoModel(failures: { _, part in part == failing ? .transport("connection reset") : nil })
        let request = RoutingRequest(task: .flashcards, document: Self.document, engine: .remote)
        await #expect(throws: RoutingError.self) {
            _ = try await Self.runner(remote: dying, cache: cache, jobs: 1).run(request)
        }
        #expect(dying.calls == failing)

        let healthy = ChunkEchoModel()
        let routed = try await Self.runner(remote: healthy, cache: cache, jobs: 1).run(request)
        let coverage = try #require(routed.coverage)
        // The chunks before the failure came from the cache; only the rest were asked for.
        #expect(coverage.chunksFromCache == failing - 1)
        #expect(healthy.calls == coverage.chunks.count - (failing - 1))
        #expect(Array(coverage.chunks.prefix(failing - 1).map(\.cached)) == Array(repeating: true, count: failing - 1))
        #expect(coverage.sectionsRead == coverage.sections.count)
    }

    @Test func quotaExhaustedAtChunkKSendsTheRestDownTheFallbackChain() async throws {
        let directory = try CacheTestDirectory()
        let ledger = try UsageLedger(path: directory.databasePath)
        let quota = DailyQuota.requests(2)
        let remote = ChunkEchoModel()
        let routed = try await Self.runner(remote: remote, ledger: ledger, quota: quota, jobs: 1)
            .run(RoutingRequest(task: .flashcards, document: Self.document))
        let coverage = try #require(routed.coverage)
        // The quota is checked before each chunk: two chunks were sent, and no more.
        #expect(remote.calls == 2)
        #expect(coverage.chunks.prefix(2).allSatisfy { $0.engine == .remote && $0.readWhole })
        let rest = coverage.chunks.dropFirst(2)
        #expect(!rest.isEmpty)
        #expect(rest.allSatisfy { $0.engine == .builtin && $0.read == 0 })
        #expect(rest.allSatisfy { $0.fallbacks.contains { $0.engine == .remote && $0.reason.contains("quota") } })
        // The report says so: sections of those chunks are not covered, nor their characters read.
        #expect(coverage.sectionsRead < coverage.sections.count)
        #expect(coverage.charactersRead == coverage.chunks.prefix(2).reduce(0) { $0 + $1.offsets.count })
        #expect(coverage.markdownFooter.contains("Not covered by a model"))
        #expect(coverage.markdownFooter.contains("quota"))
        // Every chunk still has items: the builtin engine extracted them.
        #expect(rest.allSatisfy { $0.items > 0 })
        // Every card of the merged deck says who made it, under its chunk: the first two
        // chunks' by the remote model, the rest extracted by the builtin engine.
        guard case .flashcards(let deck) = routed.result else { Issue.record("not a deck"); return }
        #expect(routed.items.map(\.path) == deck.cards.indices.map { "cards[\($0)]" })
        let early = routed.items.filter { $0.note?.hasPrefix("chunk 1: ") == true || $0.note?.hasPrefix("chunk 2: ") == true }
        #expect(!early.isEmpty && early.allSatisfy { $0.kind == .written })
        let late = routed.items.filter { $0.note?.hasPrefix("chunk \(coverage.chunks.count): ") == true }
        #expect(!late.isEmpty && late.allSatisfy { $0.kind == .extracted })
        #expect(early.count + routed.items.filter { $0.kind == .extracted }.count == deck.cards.count)
        // --json's coverage object carries the same counts.
        let json = coverage.jsonValue
        #expect(json["read"]?["sections"]?["read"] == .integer(coverage.sectionsRead))
        #expect(json["read"]?["sections"]?["total"] == .integer(coverage.sections.count))
        #expect(json["characters"]?["read"] == .integer(coverage.charactersRead))
        #expect(json["characters"]?["total"] == .integer(Self.document.characterCount))
        guard case .array(let notRead)? = json["read"]?["notRead"] else { Issue.record("no notRead"); return }
        #expect(notRead.count == coverage.sections.count - coverage.sectionsRead)
    }

    @Test func maxChunksCapsTheRequests() async throws {
        let remote = ChunkEchoModel()
        let routed = try await Self.runner(remote: remote, maxChunks: 2).run(RoutingRequest(task: .quiz, document: Self.document, useCache: false))
        let coverage = try #require(routed.coverage)
        #expect(remote.calls == 2)
        #expect(coverage.chunks.dropFirst(2).allSatisfy { $0.engine == .builtin && $0.fallbacks.contains { $0.reason.contains("--max-chunks") } })
        // The footer gives the chunks past the cap one line together.
        let capped = coverage.markdownFooter.split(separator: "\n").filter { $0.contains("--max-chunks") }
        #expect(capped.count == 1)
        #expect(capped.first?.hasPrefix("- chunks 3–\(coverage.chunks.count) (") == true, "\(capped)")
    }

    @Test func aRunOfMoreThanTenChunksIsAnnouncedAndReportsProgress() async throws {
        let remote = ChunkEchoModel(window: 2_048)
        let lines = Mutex<[String]>([])
        let steps = Mutex<[Int]>([])
        var runner = Self.runner(remote: remote, maxChunks: 12)
        runner.announce = { line in lines.withLock { $0.append(line) } }
        runner.progress = { done, _ in steps.withLock { $0.append(done) } }
        let planned = try #require(await runner.plan(RoutingRequest(task: .flashcards, document: Self.document)))
        let total = planned.plan.chunks.count
        #expect(total > ChunkedRunner.announceAbove)
        _ = try await runner.run(RoutingRequest(task: .flashcards, document: Self.document, useCache: false))
        // One line before the run, saying how many requests it makes (the cap) out of how many chunks.
        #expect(lines.withLock { $0.count } == 1)
        let line = lines.withLock { $0.first ?? "" }
        #expect(line.contains("12 chunk requests"), "\(line)")
        #expect(line.contains("\(total) chunks"), "\(line)")
        #expect(remote.calls == 12)
        // Progress from 0 to every chunk done.
        #expect(steps.withLock { $0 } == Array(0...total))
    }

    @Test func aShortRunIsNotAnnounced() async throws {
        let lines = Mutex<[String]>([])
        var runner = Self.runner(remote: ChunkEchoModel())
        runner.announce = { line in lines.withLock { $0.append(line) } }
        let routed = try await runner.run(RoutingRequest(task: .flashcards, document: Self.document, useCache: false))
        #expect(routed.coverage != nil)
        #expect(lines.withLock { $0.isEmpty })
    }

    @Test func importReadsEachPartInChunksAndReportsTheKitsCoverage() async throws {
        let remote = ChunkEchoModel()
        let runner = Self.runner(remote: remote)
        let kit = try await KitAssembler(router: runner.router, kitEngine: remote, chunker: runner)
            .run(RoutingRequest(task: .studyKit, document: Self.document, useCache: false))
        #expect(!kit.singleRequest)
        #expect(kit.parts.map(\.task) == [.headline, .summary, .flashcards, .quiz, .mindmap])
        // The headline is one request; each remote part was read in chunks with its own report.
        #expect(kit.parts[0].routed.coverage == nil)
        for (task, routed) in kit.parts.dropFirst() {
            let coverage = try #require(routed.coverage, "\(task) was not chunked")
            #expect(coverage.sectionsRead == coverage.sections.count, "\(task)")
        }
        // The kit's report: every part's chunks, labelled with their part, and every section covered.
        let coverage = try #require(kit.routed.coverage)
        #expect(Set(coverage.chunks.compactMap(\.part)) == ["summary", "flashcards", "quiz", "mindmap"])
        #expect(coverage.sectionsRead == coverage.sections.count)
        #expect(coverage.charactersRead == Self.document.characterCount)
        guard case .studyKit(let bundle) = kit.routed.result else { Issue.record("not a kit"); return }
        #expect(bundle.flashcards.cards.count >= 3)
    }

    @Test func aSummaryGetsAnOverviewFromTheChunkSummaries() async throws {
        let remote = ChunkEchoModel(window: 2_048)
        let routed = try await Self.runner(remote: remote).run(RoutingRequest(task: .summary, document: Self.document, useCache: false))
        let coverage = try #require(routed.coverage)
        // One request per chunk and one for the overview.
        #expect(remote.calls == coverage.chunks.count + 1)
        guard case .summary(let summary) = routed.result else { Issue.record("not a summary"); return }
        #expect(!summary.overview.isEmpty)
        #expect(summary.keyPoints.count >= coverage.chunks.count)
        #expect(Set(summary.keyPoints.map(ChunkReduce.normalized)).count == summary.keyPoints.count)
    }

    @Test func aMindMapHasABranchPerTopLevelSection() async throws {
        let remote = ChunkEchoModel(window: 2_048)
        let routed = try await Self.runner(remote: remote).run(RoutingRequest(task: .mindmap, document: Self.document, useCache: false))
        guard case .mindMap(let map) = routed.result else { Issue.record("not a mind map"); return }
        #expect(map.centralTopic == "Four topics")
        // The four documents' titles are the top-level (#) headings.
        #expect(Array(map.branches.map(\.label).prefix(3)) == ["The Human Immune System", "Hash Tables", "The Printing Press in Fifteenth-Century Europe"])
        #expect(map.branches.count >= 3)
        #expect(map.branches.allSatisfy { !$0.children.isEmpty })
    }
}
