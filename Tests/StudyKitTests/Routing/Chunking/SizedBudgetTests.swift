import Foundation
import Testing
@testable import StudyKit

/// #54: with a remote engine and no `--budget`, a document that does not fit the serving window
/// is read in chunks by default, under a whole-job budget sized for its chunks at the engine's
/// measured speed; with local models alone the command's fixed default still extracts.
@Suite("Chunked by default: the sized budget")
struct SizedBudgetTests {
    static let document = ChunkingFixture.document()
    static let floor = 120.0

    static func runner(
        remote: any LanguageModel, local: any LanguageModel = ScriptedModel(.local, available: .unavailable(reason: "off")),
        memory: UsageLedger? = nil, clock: any DayClock = SystemDayClock()
    ) -> ChunkedRunner {
        ChunkedRunner(router: RoutingEngine(local: local, remote: remote, memory: memory, clock: clock))
    }

    /// The command's fixed default budget, as `GenerateCommand` sets it before sizing.
    static func request(_ task: StudyTask, document: Document = document, start: Date = Date()) -> RoutingRequest {
        RoutingRequest(task: task, document: document, budget: TimeBudget(seconds: floor, start: start))
    }

    @Test func aRemoteThatCannotHoldTheDocumentGetsABudgetSizedForItsChunks() async throws {
        let runner = Self.runner(remote: ChunkEchoModel())
        // The fixed default alone does not chunk: it is sized for one request.
        #expect(await runner.plan(Self.request(.flashcards)) == nil)
        let sized = try #require(await runner.sizedBudget(Self.request(.flashcards), tasks: [.flashcards], floor: Self.floor))
        #expect(sized > Self.floor)
        // A kit's four parts are each read in chunks: more than one part's budget.
        let kit = try #require(await runner.sizedBudget(Self.request(.studyKit), tasks: KitAssembler.remoteParts, floor: Self.floor))
        #expect(kit > sized)
        // The same material twice over takes more.
        let twice = ChunkingFixture.document(ChunkingFixture.text + "\n\n" + ChunkingFixture.text)
        let longer = try #require(
            await runner.sizedBudget(Self.request(.flashcards, document: twice), tasks: [.flashcards], floor: Self.floor))
        #expect(longer > sized)
    }

    @Test func underTheSizedBudgetTheDocumentIsReadInChunksAndTheCoverageSaysSo() async throws {
        let remote = ChunkEchoModel()
        var runner = Self.runner(remote: remote)
        var request = Self.request(.flashcards)
        let sized = try #require(await runner.sizedBudget(request, tasks: [.flashcards], floor: Self.floor))
        request.budget = TimeBudget(seconds: sized, start: Date())
        runner.budget = request.budget
        let planned = try #require(await runner.plan(request))
        let routed = try await runner.run(request)
        let coverage = try #require(routed.coverage)
        #expect(coverage.chunks.count == planned.plan.chunks.count)
        #expect(coverage.chunks.count >= 2)
        #expect(remote.calls == planned.plan.chunks.count)
        #expect(coverage.budget == ChunkCoverage.BudgetUse(seconds: sized, chunksAfter: 0))
    }

    @Test func aDocumentThatFitsOrALocalEngineKeepsTheFixedDefault() async throws {
        // The remote's window holds the document and it asks for one answer's cards: one
        // request, no sizing.
        var pageSized = Self.request(.flashcards)
        pageSized.size = KitSize(cards: KitSize.minimumCards)
        #expect(await Self.runner(remote: ChunkEchoModel(window: 32_000)).sizedBudget(
            pageSized, tasks: [.flashcards], floor: Self.floor) == nil)
        // Asking for more, it is asked per group of sections, under a budget sized for the groups.
        let grouped = await Self.runner(remote: ChunkEchoModel(window: 32_000)).sizedBudget(
            Self.request(.flashcards), tasks: [.flashcards], floor: Self.floor)
        #expect((grouped ?? 0) > Self.floor)
        // No remote: the local engine's part is extracted and rewritten under the fixed default.
        let localOnly = Self.runner(
            remote: ScriptedModel(.remote, available: .unavailable(reason: "off")), local: ChunkEchoModel(.local, window: 3_072))
        #expect(await localOnly.sizedBudget(Self.request(.flashcards), tasks: [.flashcards], floor: Self.floor) == nil)
        // Tasks that are not chunked (the headline) add nothing.
        #expect(await Self.runner(remote: ChunkEchoModel()).sizedBudget(
            Self.request(.headline), tasks: [.headline], floor: Self.floor) == nil)
    }

    /// The budget follows the model's measured speed: a record of slow chunks makes it larger,
    /// up to the cap.
    @Test func theBudgetFollowsTheModelsMeasuredSpeed() async throws {
        let directory = try CacheTestDirectory()
        let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000))
        let ledger = try UsageLedger(path: directory.databasePath, clock: clock)
        let remote = ChunkEchoModel()
        let runner = Self.runner(remote: remote, memory: ledger, clock: clock)
        let unmeasured = try #require(
            await runner.sizedBudget(Self.request(.flashcards, start: clock.now()), tasks: [.flashcards], floor: Self.floor))
        // Three slow deck requests of this model on record: 200 s each.
        let key = RoutingEngine.partKey(remote, task: .flashcards)
        for _ in 0..<3 {
            try ledger.recordAttempt(Attempt(key: key, outcome: .accepted, duration: 200, tokensIn: 2_000, tokensOut: 600, at: clock.now()))
        }
        let measured = try #require(
            await runner.sizedBudget(Self.request(.flashcards, start: clock.now()), tasks: [.flashcards], floor: Self.floor))
        #expect(measured > unmeasured)
        #expect(measured <= ChunkedRunner.sizedBudgetCap)
        #expect(measured >= Self.floor + 200)
    }
}
