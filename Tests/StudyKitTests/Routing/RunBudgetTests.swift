import Foundation
import Synchronization
import Testing
@testable import StudyKit

/// `--budget` bounds the whole run, not only each generation: discovery, the window and token
/// counts of a server that never answers count against it too (issue #14, item 5).
@Suite("The time budget bounds the whole run")
struct RunBudgetTests {
    /// A model server that accepts and never answers: every call waits until it is cancelled.
    final class BlackHoledEngine: LanguageModel {
        let kind: EngineKind
        let calls = Mutex(0)
        init(_ kind: EngineKind) { self.kind = kind }
        var modelName: String { "black-holed-\(kind.rawValue)" }

        private func hang() async {
            calls.withLock { $0 += 1 }
            try? await Task.sleep(for: .seconds(3600))
        }
        func availability() async -> Availability {
            await hang()
            return .unavailable(reason: "stopped")
        }
        func contextSize() async throws -> ContextWindow {
            await hang()
            throw CancellationError()
        }
        func respond(to request: GenerationRequest) async throws -> RawResponse {
            await hang()
            throw CancellationError()
        }
    }

    // What is asserted is what the run did, not how long it took: in the parallel suite, tests
    // that wait on processes can hold the cooperative threads for minutes (195 s seen in a CI
    // run on 2 cores, where this test then hit a 2-minute limit). The wall-clock bound is
    // RunBoundsEndToEndTests's, on the binary. Without the bound this run waits an hour.
    @Test(.timeLimit(.minutes(5)))
    func aKitAgainstBlackHoledServersEndsWithinItsBudget() async throws {
        let local = BlackHoledEngine(.local), remote = BlackHoledEngine(.remote)
        let router = RoutingEngine(local: local, remote: remote)
        let budget = TimeBudget(seconds: 1.5, start: Date())
        let kit = try await KitAssembler(router: router, kitEngine: remote).run(
            RoutingRequest(task: .studyKit, document: RoutingEngineTests.document(), budget: budget))
        #expect(kit.routed.engine == .builtin)
        #expect(kit.parts.allSatisfy { $0.routed.engine == .builtin })
        // One server was asked (the headline's preferred one) and stopped when the budget ran
        // out; after it nothing was started: no availability check, kit probe or item rewrite.
        #expect(local.calls.withLock { $0 } + remote.calls.withLock { $0 } == 1)
        #expect(kit.routed.fallbacks.contains { $0.reason.hasSuffix("budget ran out during the attempt; it was stopped") })
        #expect(kit.routed.fallbacks.contains { $0.reason.hasSuffix("skipped: the 1.5 s budget was used up before its turn") })
    }

    // Bounded, not timed (3 min): on a loaded machine the suite starves the cooperative pool for minutes.
    @Test(.timeLimit(.minutes(3)))
    func aForcedEngineIsNotCutShortByTheBudget() async throws {
        // `--engine X` always tries X: a command's default budget is automatic routing's and is
        // not given to a forced engine (only an explicit --budget is: ForcedBudgetTests), so a
        // forced engine that does not answer fails on its own deadline, here a cancelled task.
        let remote = BlackHoledEngine(.remote)
        let router = RoutingEngine(local: BlackHoledEngine(.local), remote: remote)
        let task = Task {
            try await router.run(RoutingRequest(task: .summary, document: RoutingEngineTests.document(), engine: .remote))
        }
        try await Task.sleep(for: .seconds(1))
        #expect(remote.calls.withLock { $0 } == 1, "still waiting on the forced engine after the budget")
        task.cancel()
        _ = await task.result
    }
}

/// A forced engine runs to the end unless the user gave `--budget`: then the budget bounds the
/// forced attempt, which is recorded as timed out, caches nothing, and fails with one line.
@Suite("A forced engine and an explicit budget")
struct ForcedBudgetTests {
    // Bounded, not timed: in the parallel suite, tests that wait on processes synchronously
    // (`StudykitBinary.run`) can hold both cooperative threads of a 2-core machine for minutes:
    // in two CI rehearsals of 2026-12-02 even pure scripted tests finished 290 s after they
    // started, and this one ran past a 3-minute limit. Without the fix the attempt hangs for ten.
    @Test(.timeLimit(.minutes(8)))
    func anExplicitBudgetStopsTheForcedAttempt() async throws {
        let directory = try CacheTestDirectory()
        let ledger = try UsageLedger(path: directory.url.appendingPathComponent("db.sqlite3").path)
        let cache = try ResultCache(path: directory.url.appendingPathComponent("db.sqlite3").path)
        // The clock stands still until the call: a loaded machine cannot spend the budget before
        // the attempt starts. The call takes the budget's half second and hangs on.
        let clock = TestClock()
        let local = ScriptedModel(.local, steps: [.hang], clock: clock, secondsPerCall: 0.5)
        let router = RoutingEngine(
            local: local, remote: ScriptedModel(.remote, available: .unavailable(reason: "off")), cache: cache, memory: ledger,
            clock: clock)
        let request = RoutingRequest(
            task: .headline, document: RoutingEngineTests.document(), engine: .local,
            budget: TimeBudget(seconds: 0.5, start: clock.now()))
        await #expect(throws: RoutingError.forcedEngineOutOfBudget(.local, seconds: 0.5)) { try await router.run(request) }
        #expect(try cache.stats().entries == 0)
        let record = try ledger.attemptSummaries()
        #expect(record.map(\.lastOutcome) == [.timedOut])
    }

    @Test func withoutABudgetTheForcedAttemptRunsToItsEnd() async throws {
        let local = ScriptedModel(.local, steps: [.fail(.transport("timed out: the server's deadline"))])
        let router = RoutingEngine(local: local, remote: ScriptedModel(.remote, available: .unavailable(reason: "off")))
        let request = RoutingRequest(task: .headline, document: RoutingEngineTests.document(), engine: .local)
        // The engine's own failure, not a budget's.
        await #expect(throws: RoutingError.forcedEngineFailed(.local, reason: "timed out: the server's deadline")) {
            try await router.run(request)
        }
    }
}
