import Foundation
import Synchronization
import Testing
@testable import StudyKit

@Suite("Capability memory, time budget and repetition cut")
struct CapabilityMemoryTests {
    static let headline = RoutingEngineTests.headline
    static let cutHeadline = #"{"title":"Cell Division"#

    /// A router over a fresh ledger, with a clock the test moves.
    struct Rig {
        let directory: CacheTestDirectory
        let clock: TestClock
        let ledger: UsageLedger

        init() throws {
            directory = try CacheTestDirectory()
            clock = TestClock()
            ledger = try UsageLedger(path: directory.databasePath, clock: clock)
        }

        func router(local: any LanguageModel, remote: any LanguageModel, failures: Int = 2) -> RoutingEngine {
            RoutingEngine(
                local: local, remote: remote, memory: ledger, capability: CapabilityPolicy(failuresToSkip: failures), clock: clock)
        }

        func headlineKey(model: String = "scripted://local", version: String = StudyTask.headline.promptTemplateVersion, job: JobKind = .part) -> AttemptKey {
            AttemptKey(engine: .local, model: model, task: "headline", job: job, promptVersion: version)
        }

        func fail(_ key: AttemptKey, times: Int, seconds: Double = 30) throws {
            for _ in 0..<times {
                try ledger.recordAttempt(Attempt(key: key, outcome: .cut, duration: seconds, at: clock.now()))
            }
        }
    }

    static func request(_ engine: EngineChoice = .auto, budget: TimeBudget? = nil) -> RoutingRequest {
        RoutingRequest(task: .headline, document: RoutingEngineTests.document(), engine: engine, useCache: false, budget: budget)
    }

    // MARK: skipping

    @Test func aModelThatFailedTwiceIsSkippedThenTriedAgainWhenTheRecordExpires() async throws {
        let rig = try Rig()
        let log = CallLog()
        let local = ScriptedModel(
            .local, steps: [.cut(Self.cutHeadline), .cut(Self.cutHeadline), .answer(Self.headline)], log: log,
            clock: rig.clock, secondsPerCall: 20)
        let remote = ScriptedModel(.remote, steps: Array(repeating: .answer(Self.headline), count: 4), log: log)
        let router = rig.router(local: local, remote: remote)

        _ = try await router.run(Self.request())
        _ = try await router.run(Self.request())
        #expect(log.kinds == [.local, .remote, .local, .remote])

        // Third run: local is skipped, and --json's fallbacks say why.
        let third = try await router.run(Self.request())
        #expect(log.kinds == [.local, .remote, .local, .remote, .remote])
        #expect(third.engine == .remote)
        let reason = try #require(third.fallbacks.first?.reason)
        #expect(third.fallbacks.first?.engine == .local)
        #expect(reason.hasPrefix("skipped: it failed each of its last 2 attempts"))
        #expect(reason.contains("40 s"))

        // 24 hours after the newest failure, the model is tried again (and now answers).
        rig.clock.advance(by: 86_400 + 1)
        let fourth = try await router.run(Self.request())
        #expect(log.kinds == [.local, .remote, .local, .remote, .remote, .local])
        #expect(fourth.engine == .local)
        let outcomes = try rig.ledger.recentAttempts(rig.headlineKey(), limit: 10).map(\.outcome)
        #expect(outcomes == [.accepted, .cut, .cut])
    }

    /// The record saves attempts; an answer the model gave to this very request is in the cache
    /// and costs none. A rerun of a headline the model wrote, after it failed headlines of other
    /// documents, ships the model's headline, while another document is skipped as before.
    /// A headline that is the material's own words (its opening sentence, a title it has) is
    /// shipped, but recorded as `copied`, which counts against the model: after two, the local
    /// model is skipped for headlines and the builtin engine answers at once. A headline in the
    /// model's own words is `accepted` and clears the streak.
    @Test func aModelWhoseHeadlinesAreCopiesOfTheMaterialIsSkipped() async throws {
        let rig = try Rig()
        let copy = #"{"title":"Mitosis and the cell nucleus","blurb":"Prophase condenses the chromosomes into visible threads."}"#
        let text = RoutingEngineTests.document().text
        let document = Document(text: text, title: "Mitosis and the cell nucleus", kind: .text, origin: "test")
        let request = RoutingRequest(task: .headline, document: document, useCache: false)
        let local = ScriptedModel(.local, steps: [.answer(copy), .answer(Self.headline), .answer(copy), .answer(copy)])
        let router = rig.router(local: local, remote: ScriptedModel(.remote, available: .unavailable(reason: "none")))

        let first = try await router.run(request)
        #expect(first.engine == .local)
        #expect(first.items.map(\.kind) == [.extracted, .extracted])
        _ = try await router.run(request)
        _ = try await router.run(request)
        _ = try await router.run(request)
        #expect(try rig.ledger.recentAttempts(rig.headlineKey(), limit: 10).map(\.outcome) == [.copied, .copied, .accepted, .copied])

        let fifth = try await router.run(request)
        #expect(local.calls.respond == 4)
        #expect(fifth.engine == .builtin)
        let reason = try #require(fifth.fallbacks.first { $0.engine == .local }?.reason)
        #expect(reason.hasPrefix("skipped: it failed each of its last 2 attempts at this job (answers copied word for word"), "\(reason)")
    }

    @Test func aCachedAnswerIsServedThoughTheRecordSkipsTheModel() async throws {
        let rig = try Rig()
        let cache = try ResultCache(path: rig.directory.databasePath, clock: rig.clock)
        let remote = ScriptedModel(.remote, available: .unavailable(reason: "none"))
        func router(_ local: ScriptedModel) -> RoutingEngine {
            RoutingEngine(local: local, remote: remote, cache: cache, memory: rig.ledger, capability: CapabilityPolicy(failuresToSkip: 2), clock: rig.clock)
        }
        let request = RoutingRequest(task: .headline, document: RoutingEngineTests.document(), useCache: true)
        let first = try await router(ScriptedModel(.local, steps: [.answer(Self.headline)])).run(request)
        #expect(first.engine == .local && !first.cached)

        try rig.fail(rig.headlineKey(), times: 2)
        let silent = ScriptedModel(.local, steps: [])
        let again = try await router(silent).run(request)
        #expect(silent.calls.respond == 0)
        #expect(again.engine == .local && again.cached)
        #expect(again.result == first.result)
        #expect(!again.fallbacks.contains { $0.engine == .local })

        var other = request
        other.document = RoutingEngineTests.document(characters: 400)
        let skipped = try await router(silent).run(other)
        #expect(silent.calls.respond == 0)
        #expect(skipped.engine == .builtin)
        #expect(skipped.fallbacks.contains { $0.engine == .local && $0.reason.hasPrefix("skipped: it failed each of its last 2 attempts") })
    }

    @Test func aNewPromptVersionOrModelIsTriedDespiteTheOldRecord() async throws {
        let rig = try Rig()
        try rig.fail(rig.headlineKey(version: "headline/0"), times: 3)
        try rig.fail(rig.headlineKey(model: "another-model"), times: 3)
        let local = ScriptedModel(.local, steps: [.answer(Self.headline)])
        let routed = try await rig.router(local: local, remote: ScriptedModel(.remote)).run(Self.request())
        #expect(routed.engine == .local)
        #expect(local.calls.respond == 1)
    }

    @Test func failedItemsDoNotSkipWholePartsAndOneSuccessClearsTheStreak() async throws {
        let rig = try Rig()
        try rig.fail(rig.headlineKey(job: .item), times: 10)
        try rig.fail(rig.headlineKey(), times: 1)
        try rig.ledger.recordAttempt(Attempt(key: rig.headlineKey(), outcome: .accepted, duration: 1, at: rig.clock.now()))
        // accepted is the newest: the last two are not both failures.
        let local = ScriptedModel(.local, steps: [.answer(Self.headline)])
        let routed = try await rig.router(local: local, remote: ScriptedModel(.remote)).run(Self.request())
        #expect(routed.engine == .local)
    }

    @Test func aForcedEngineIsAlwaysTried() async throws {
        let rig = try Rig()
        try rig.fail(rig.headlineKey(), times: 2)
        let local = ScriptedModel(.local, steps: [.answer(Self.headline)])
        let routed = try await rig.router(local: local, remote: ScriptedModel(.remote)).run(Self.request(.local))
        #expect(routed.engine == .local)
        #expect(local.calls.respond == 1)
    }

    @Test func zeroFailuresToSkipNeverSkips() async throws {
        let rig = try Rig()
        try rig.fail(rig.headlineKey(), times: 5)
        let local = ScriptedModel(.local, steps: [.answer(Self.headline)])
        let routed = try await rig.router(local: local, remote: ScriptedModel(.remote), failures: 0).run(Self.request())
        #expect(routed.engine == .local)
    }

    @Test(arguments: [("3", 3), ("0", 0), (" 2 ", 2)])
    func theSkipThresholdIsConfigured(text: String, expected: Int) throws {
        #expect(try CapabilityPolicy(environment: ["STUDYKIT_SKIP_AFTER_FAILURES": text]).failuresToSkip == expected)
    }

    @Test func aMalformedThresholdIsAConfigurationError() {
        #expect(throws: EngineError.self) { try CapabilityPolicy(environment: ["STUDYKIT_SKIP_AFTER_FAILURES": "two"]) }
    }

    // MARK: the budget

    @Test func aSlowEngineIsNotCalledWhenItCannotFitTheBudget() async throws {
        let rig = try Rig()
        // The record says a headline takes this model 40 s.
        try rig.ledger.recordAttempt(Attempt(key: rig.headlineKey(), outcome: .accepted, duration: 40, at: rig.clock.now()))
        let local = ScriptedModel(.local, steps: [.answer(Self.headline)])
        let remote = ScriptedModel(.remote, available: .unavailable(reason: "not configured"))
        let budget = TimeBudget(seconds: 30, start: rig.clock.now())
        let routed = try await rig.router(local: local, remote: remote).run(Self.request(budget: budget))
        #expect(local.calls.respond == 0)
        #expect(routed.engine == .builtin)
        let reason = try #require(routed.fallbacks.first { $0.engine == .local }?.reason)
        #expect(reason == "skipped: expected to take 40 s, with only 30 s of the 30 s budget left")
    }

    /// An item's prompt is mostly instructions already in the KV cache: its seconds per token
    /// say nothing of a whole part's, which is estimated from parts (or the default) instead.
    @Test func aPartIsNotEstimatedFromTheSpeedOfItems() async throws {
        let rig = try Rig()
        let local = ScriptedModel(.local)
        let router = rig.router(local: local, remote: ScriptedModel(.remote))
        let item = AttemptKey(engine: .local, model: local.identity, task: "flashcards", job: .item, promptVersion: "flashcards.card/5")
        for _ in 0..<10 {
            try rig.ledger.recordAttempt(Attempt(key: item, outcome: .accepted, duration: 0.5, tokensIn: 2_000, tokensOut: 20, at: rig.clock.now()))
        }
        let part = rig.headlineKey(job: .part)
        // 100 prompt units and 512 response tokens at the default 0.03 s a token, not at the
        // items' 0.002 s.
        #expect(abs(await router.recorder.expectedSeconds(local, key: part, promptTokens: 1_000, responseTokens: 512) - 18.36) < 0.01)
        // Another item is estimated from the items.
        let otherItem = AttemptKey(engine: .local, model: local.identity, task: "summary", job: .item, promptVersion: "summary.keyPoint/3")
        #expect(await router.recorder.expectedSeconds(local, key: otherItem, promptTokens: 1_000, responseTokens: 60) < 1)
    }

    /// With no record of a whole part, a part whose fixed guess fits the budget but would not
    /// on a machine four times slower has the engine measure its speed first: a slow machine's
    /// model is skipped instead of running into the end of the budget; a fast one's is asked.
    @Test(arguments: [
        // 68 prompt and 23 decoded tokens a second (Qwen2.5-Coder-0.5B on a slow 2-core machine):
        // 1,800 / 68 + 600 / 23 = 52.6 s, past the 30 s budget.
        (GenerationSpeed(promptTokensPerSecond: 68, decodeTokensPerSecond: 23), true),
        // 2,000 and 100: 0.9 + 6 = 6.9 s, asked.
        (GenerationSpeed(promptTokensPerSecond: 2_000, decodeTokensPerSecond: 100), false),
    ])
    func aPartWithNoRecordIsEstimatedFromTheMeasuredSpeed(speed: GenerationSpeed, skipped: Bool) async throws {
        let rig = try Rig()
        let local = ScriptedModel(.local, steps: [.answer(Self.headline)], speed: speed)
        let router = rig.router(local: local, remote: ScriptedModel(.remote))
        let budget = TimeBudget(seconds: 30, start: rig.clock.now())
        // The fixed guess: (180 + 600) × 0.03 = 23.4 s, which fits 30 s.
        let reason = await router.recorder.budgetSkip(local, key: rig.headlineKey(job: .part), promptTokens: 1_800, responseTokens: 600, budget: budget)
        #expect(local.calls.calibrations == 1)
        if skipped {
            #expect(reason == "skipped: expected to take 53 s, with only 30 s of the 30 s budget left")
        } else {
            #expect(reason == nil)
        }
    }

    /// Measuring costs a second of the budget: not when the guess alone decides (far inside
    /// the budget, or already past it), and never for an item, whose prompt is mostly cached.
    @Test func theSpeedIsMeasuredOnlyWhenItDecides() async throws {
        let rig = try Rig()
        let slow = GenerationSpeed(promptTokensPerSecond: 68, decodeTokensPerSecond: 23)
        let local = ScriptedModel(.local, speed: slow)
        let router = rig.router(local: local, remote: ScriptedModel(.remote))
        let budget = TimeBudget(seconds: 30, start: rig.clock.now())
        let part = rig.headlineKey(job: .part)
        // 2.4 s guessed: fits even four times over.
        #expect(await router.recorder.budgetSkip(local, key: part, promptTokens: 200, responseTokens: 60, budget: budget) == nil)
        // 48 s guessed: past the budget without measuring.
        #expect(await router.recorder.budgetSkip(local, key: part, promptTokens: 4_000, responseTokens: 1_200, budget: budget) != nil)
        let item = AttemptKey(engine: .local, model: local.identity, task: "flashcards", job: .item, promptVersion: "flashcards.card/5")
        #expect(await router.recorder.budgetSkip(local, key: item, promptTokens: 1_800, responseTokens: 600, budget: budget) == nil)
        #expect(local.calls.calibrations == 0)
        // A speed the engine already knows (after a first request) is used without measuring.
        let known = ScriptedModel(.local, speed: slow, speedKnown: true)
        let knownRouter = rig.router(local: known, remote: ScriptedModel(.remote))
        #expect(await knownRouter.recorder.budgetSkip(known, key: part, promptTokens: 200, responseTokens: 60, budget: budget) == nil)
        let expected = await knownRouter.recorder.expectedSeconds(known, key: part, promptTokens: 680, responseTokens: 230)
        #expect(abs(expected - 20) < 0.01)
        #expect(known.calls.calibrations == 0)
    }

    @Test func anAttemptThatOverrunsTheBudgetIsStoppedAndTheBuiltinEngineAnswers() async throws {
        let rig = try Rig()
        // The record says a headline takes 0.1 s, so the attempt starts; then the model hangs.
        try rig.ledger.recordAttempt(Attempt(key: rig.headlineKey(), outcome: .accepted, duration: 0.1, at: rig.clock.now()))
        let local = ScriptedModel(.local, steps: [.hang])
        let remote = ScriptedModel(.remote, available: .unavailable(reason: "not configured"))
        let routed = try await rig.router(local: local, remote: remote)
            .run(Self.request(budget: TimeBudget(seconds: 1, start: rig.clock.now())))
        #expect(local.calls.respond == 1)
        #expect(routed.engine == .builtin)
        let reason = try #require(routed.fallbacks.first { $0.engine == .local }?.reason)
        #expect(reason.contains("budget ran out during the attempt"), "\(reason)")
        #expect(routed.attempts.map(\.outcome) == [.timedOut])
    }

    @Test func withoutARecordTheEstimateComesFromThePromptAndReserve() async throws {
        let rig = try Rig()
        let local = ScriptedModel(.local, steps: [.answer(Self.headline)])
        // 200 reserve tokens at the default 0.03 s each is 6 s: a 2 s budget cannot hold it.
        let routed = try await rig.router(local: local, remote: ScriptedModel(.remote, available: .unavailable(reason: "none")))
            .run(Self.request(budget: TimeBudget(seconds: 2, start: rig.clock.now())))
        #expect(local.calls.respond == 0)
        #expect(routed.engine == .builtin)
        // A budget that holds it lets the model answer.
        let roomy = try await rig.router(local: local, remote: ScriptedModel(.remote))
            .run(Self.request(budget: TimeBudget(seconds: 60, start: rig.clock.now())))
        #expect(roomy.engine == .local)
    }

    @Test func timeSpentEarlierInTheJobCountsAgainstTheBudget() async throws {
        let rig = try Rig()
        let budget = TimeBudget(seconds: 30, start: rig.clock.now())
        rig.clock.advance(by: 29)
        let local = ScriptedModel(.local, steps: [.answer(Self.headline)])
        let routed = try await rig.router(local: local, remote: ScriptedModel(.remote, available: .unavailable(reason: "none")))
            .run(Self.request(budget: budget))
        #expect(local.calls.respond == 0)
        #expect(routed.fallbacks.first?.reason.contains("1.0 s of the 30 s budget left") == true)
    }

    @Test func aForcedEngineIgnoresTheBudget() async throws {
        let rig = try Rig()
        let local = ScriptedModel(.local, steps: [.answer(Self.headline)])
        let routed = try await rig.router(local: local, remote: ScriptedModel(.remote))
            .run(Self.request(.local, budget: TimeBudget(seconds: 0.01, start: rig.clock.now())))
        #expect(routed.engine == .local)
    }

    @Test func everyAttemptIsTimedAndReported() async throws {
        let rig = try Rig()
        let local = ScriptedModel(.local, steps: [.cut(Self.cutHeadline)], clock: rig.clock, secondsPerCall: 5)
        let remote = ScriptedModel(.remote, steps: [.answer(Self.headline)], clock: rig.clock, secondsPerCall: 2)
        let routed = try await rig.router(local: local, remote: remote).run(Self.request())
        #expect(routed.attempts.map(\.outcome) == [.cut, .accepted])
        #expect(routed.attempts.map(\.engine) == [.local, .remote])
        #expect(routed.attempts.map(\.seconds) == [5, 2])
        #expect(routed.seconds == 7)
        let recorded = try rig.ledger.recentAttempts(engine: .local, model: "scripted://local", limit: 5)
        #expect(recorded.map(\.duration) == [5])
        #expect(recorded.first?.tokensOut == 200)
    }

    // MARK: repetition

    @Test func aStreamThatStartsRepeatingIsCutEarlyAndRecordedAsFailed() async throws {
        let rig = try Rig()
        let point = "Prophase condenses the chromosomes into visible threads."
        var text = #"{"overview":"Mitosis divides one cell into two. Each daughter cell gets the chromosomes.","keyPoints":["#
        var snapshots: [String] = []
        for index in 0..<30 {
            text += (index == 0 ? "" : ",") + "\"\(point)\""
            snapshots.append(text)
        }
        snapshots.append(text + "]}")
        let local = ScriptedModel(.local, steps: [.stream(snapshots)], streamsCheaply: true)
        let remote = ScriptedModel(.remote, available: .unavailable(reason: "none"))
        let document = RoutingEngineTests.document()
        let routed = try await rig.router(local: local, remote: remote).run(
            RoutingRequest(task: .headline, document: document, useCache: false))
        // The third copy of the point ends the stream (a second is dropped, not a loop: #53):
        // 3 of 31 snapshots were read.
        #expect(local.calls.snapshots == 3)
        #expect(routed.engine == .builtin)
        #expect(routed.attempts.map(\.outcome) == [.repeated])
        #expect(routed.fallbacks.first?.reason.contains("repeating") == true)
        let recorded = try rig.ledger.recentAttempts(rig.headlineKey(), limit: 5)
        #expect(recorded.map(\.outcome) == [.repeated])

        // The cut answer's prompt was read all the same: its tokens are counted (estimated).
        let meter = EvalMeter(ledger: nil)
        let again = ScriptedModel(.local, steps: [.stream(snapshots)], streamsCheaply: true)
        _ = try await RoutingEngine(local: again, remote: remote, ledger: meter).run(
            RoutingRequest(task: .headline, document: document, useCache: false))
        #expect(meter.recorded.requests == 1)
        #expect(meter.recorded.tokensIn > 100 && meter.recorded.tokensOut > 0, "\(meter.recorded)")
    }

    /// A model that answers on one serial queue, as the in-process engine does: a token count
    /// asked while its stream is still open waits until the stream has ended. Its stream writes
    /// a blurb that loops for ever, a snapshot a millisecond, until the consumer stops it.
    final class SerialLoopingModel: LanguageModel {
        let kind = EngineKind.local
        let modelName = "serial-loop"
        var streamsCheaply: Bool { true }
        /// Whether a stream is open, whether one has ended, and whether a token count came while
        /// one was open.
        let state = Mutex((open: false, ended: false, countedWhileOpen: false))

        func availability() async -> Availability { .available }
        func contextSize() async throws -> ContextWindow { ContextWindow(tokens: 2048, source: .configured(setting: "TEST")) }
        func respond(to request: GenerationRequest) async throws -> RawResponse {
            throw EngineError.transport("only streamed in this test")
        }

        func tokenCount(for text: String) async throws -> TokenCount {
            // The queue is busy with the generation until the stream ends (at most 3 s here).
            for _ in 0..<3000 where state.withLock({ $0.open }) {
                state.withLock { $0.countedWhileOpen = true }
                try await Task.sleep(nanoseconds: 1_000_000)
            }
            return TokenCount(count: (text.utf8.count + 3) / 4, method: .exact)
        }

        func streamResponse(to request: GenerationRequest) -> AsyncThrowingStream<GenerationEvent, any Error> {
            let (stream, continuation) = AsyncThrowingStream<GenerationEvent, any Error>.makeStream()
            state.withLock { $0.open = true }
            let producer = Task {
                var text = #"{"title": "Revision Notes", "blurb": "The French Revolution"#
                while !Task.isCancelled {
                    text += ", 1789: the year of revolutions"
                    continuation.yield(.partial(text))
                    try? await Task.sleep(nanoseconds: 1_000_000)
                }
                continuation.finish()
            }
            continuation.onTermination = { [self] _ in
                state.withLock {
                    $0.open = false
                    $0.ended = true
                }
                producer.cancel()
            }
            return stream
        }
    }

    /// A cut answer's tokens are counted only once its stream has ended: an in-process engine
    /// counts on the queue the generation runs on, so counting first let the loop run on to
    /// its end (2 s of a looping headline on long.pdf) before the generation was cancelled.
    @Test func aCutStreamEndsBeforeItsTokensAreCounted() async throws {
        let rig = try Rig()
        let local = SerialLoopingModel()
        let remote = ScriptedModel(.remote, available: .unavailable(reason: "none"))
        let routed = try await rig.router(local: local, remote: remote).run(Self.request())
        #expect(routed.engine == .builtin)
        #expect(routed.attempts.map(\.outcome) == [.repeated])
        let state = local.state.withLock { $0 }
        #expect(state.ended)
        #expect(!state.countedWhileOpen, "the token count was asked while the looping stream was still open")
    }

    /// A value that loops inside itself is cut before it ends; a phrase said twice, or
    /// three times with other words between each, is not a loop.
    @Test(arguments: [
        (#"{"title": "Revision Notes", "blurb": "The French Revolution, 1789: the year of revolutions, 1789: the year of revolutions, 1789: the year of revolutions, 1789: the"#, true),
        (#"{"blurb": "light and water and light and water and light and water and light and water and"#, true),
        // A 3-word run three times in a row: the 0.5B's blurb for long.pdf (`headline --engine
        // local`), cut at its third round, where the 4-word rule waited for its sixth.
        (#"{"blurb": "The French Revolution, 1789-1799: Revision Notes, 1789–1792: Revision Notes, 1789–1792: Revision Notes, 1789–1792: Revision "#, true),
        (#"{"blurb": "It is about the cell, the cell, the cell, the"#, true),
        // Said twice in a row, or three times with words between, a short phrase is prose.
        (#"{"blurb": "Demand grows more and more as prices fall and more and more sellers enter."}"#, false),
        (#"{"blurb": "Cells divide: the cell grows, the cell copies its DNA, the cell splits."}"#, false),
        (#"{"blurb": "1789: the year of revolutions, 1789: the year of revolutions, and then Napoleon took power in 1799."}"#, false),
        (#"{"overview": "In the light reactions the cell makes ATP; in the light reactions water is split; the Calvin cycle uses what the light reactions make."}"#, false),
    ])
    func aValueThatLoopsIsCutWhileItIsWritten(text: String, loops: Bool) {
        var guardian = RepetitionGuard()
        var cut = false
        var prefix = ""
        for character in text {
            prefix.append(character)
            if guardian.feed(snapshot: prefix) { cut = true; break }
        }
        #expect(cut == loops, "\(guardian.repeatedEntry ?? "not cut")")
    }

    @Test(arguments: [
        (#"{"branches":[{"label":"Cells"},{"label":"Cells"},{"label":"Cells"}]}"#, true),
        (#"{"branches":[{"label":"Cells"},{"label":"Cells"}]}"#, false),
        // One entry written twice is no loop (#53): the judge drops the second; a third is one.
        (#"{"keyPoints":["One two three four.","one two three four"]}"#, false),
        (#"{"keyPoints":["One two three four.","one two three four","One two three four"]}"#, true),
        // Counted per member: a card's answer, a quiz choice and a label may be the same term.
        (#"{"cards":[{"answer":"DNA ligase"}],"questions":[{"choices":["DNA ligase"]},{"choices":["DNA ligase"]}],"branches":[{"label":"DNA ligase"}]}"#, false),
        (#"{"cards":[{"quote":"One two three four five."},{"quote":"One two three four five."}]}"#, false),
        (#"{"Cells":"a","Cells":"b","Cells":"c"}"#, false),
        // A card's kind is one of two values: three cloze cards are no loop.
        (#"{"cards":[{"kind":"cloze","question":"a"},{"kind":"cloze","question":"b"},{"kind":"cloze","question":"c"}]}"#, false),
        // A podcast's turns name one of two speakers, again and again.
        (#"{"turns":[{"speaker":"Ada","line":"a"},{"speaker":"Ben","line":"b"},{"speaker":"Ada","line":"c"},{"speaker":"Ada","line":"d"}]}"#, false),
    ])
    func theGuardCountsValuesNotKeys(text: String, repeats: Bool) {
        var guardian = RepetitionGuard(exempt: StudyTask.flashcards.repeatingMembers.union(StudyTask.podcast.repeatingMembers))
        var cut = false
        // Fed one character at a time, as tokens arrive.
        var prefix = ""
        for character in text {
            prefix.append(character)
            if guardian.feed(snapshot: prefix) { cut = true; break }
        }
        #expect(cut == repeats)
    }

    // MARK: the table

    @Test func aVersionOneDatabaseGainsTheAttemptsTable() throws {
        let directory = try CacheTestDirectory()
        do {
            let raw = try SQLiteDatabase(path: directory.databasePath)
            try raw.execute("DROP TABLE attempts; PRAGMA user_version=1")
        }
        let ledger = try UsageLedger(path: directory.databasePath)
        let key = AttemptKey(engine: .local, model: "m", task: "summary", job: .part, promptVersion: "summary/2")
        try ledger.recordAttempt(Attempt(key: key, outcome: .invalid, duration: 1.5, tokensIn: 10, tokensOut: 3, at: Date()))
        #expect(try ledger.recentAttempts(key, limit: 5).map(\.outcome) == [.invalid])
        #expect(try ledger.attemptSummaries().map(\.attempts) == [1])
        #expect(try ledger.forgetAttempts() == 1)
        #expect(try ledger.recentAttempts(key, limit: 5).isEmpty)
    }
}
