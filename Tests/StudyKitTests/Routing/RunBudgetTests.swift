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
    // that wait on processes can hold the cooperative threads for a minute. The wall-clock bound
    // is RunBoundsEndToEndTests's, on the binary. Without the bound this run waits an hour.
    @Test(.timeLimit(.minutes(2)))
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
        #expect(kit.routed.fallbacks.contains { $0.reason.hasSuffix("skipped: the 1.5 s budget is used up") })
    }

    @Test(.timeLimit(.minutes(1)))
    func aForcedEngineIsNotCutShortByTheBudget() async throws {
        // `--engine X` always tries X: the budget steers automatic routing only, so a forced
        // engine that does not answer fails on its own deadline, here a cancelled task.
        let remote = BlackHoledEngine(.remote)
        let router = RoutingEngine(local: BlackHoledEngine(.local), remote: remote)
        let task = Task {
            try await router.run(
                RoutingRequest(
                    task: .summary, document: RoutingEngineTests.document(), engine: .remote,
                    budget: TimeBudget(seconds: 0.2, start: Date())))
        }
        try await Task.sleep(for: .seconds(1))
        #expect(remote.calls.withLock { $0 } == 1, "still waiting on the forced engine after the budget")
        task.cancel()
        _ = await task.result
    }
}
