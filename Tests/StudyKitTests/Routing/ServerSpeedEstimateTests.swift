import Foundation
import Testing
@testable import StudyKit

/// A whole part on a server is estimated from the server's own speeds, measured on its streamed
/// answers in this run, and is not started when it cannot end before the server's request
/// deadline (#53: Qwen2.5-Coder-1.5B's kit was expected to take 292 s from its headline's lumped
/// rate, and a kit that was asked was cut at the 120 s deadline with one part written).
@Suite("Server speed and the part estimate")
struct ServerSpeedEstimateTests {
    /// What one streamed answer tells, and what the meter keeps.
    @Test(arguments: [
        // 277 prompt tokens before the first token in 6.4 s, 42 written in 3.2 s after it.
        ([(277, 6.4, 42, 3.2)], GenerationSpeed(promptTokensPerSecond: 277 / 6.4, decodeTokensPerSecond: 41 / 3.2)),
        // A prompt the server had cached (a re-ask) reads fast: the slower first one is kept;
        // the faster writing of the first is kept as the second's slower writing replaces it.
        ([(277, 6.4, 42, 3.2), (300, 0.5, 101, 10)],
         GenerationSpeed(promptTokensPerSecond: 277 / 6.4, decodeTokensPerSecond: 10)),
        // Too short to tell: a prompt under 64 tokens, an answer under 16.
        ([(40, 1, 42, 3.2), (277, 6.4, 10, 1)], nil),
        // A clock that did not move tells nothing.
        ([(277, 0, 42, 0)], nil),
    ] as [([(Int, Double, Int, Double)], GenerationSpeed?)])
    func theMeterKeepsTheSlowestSpeeds(answers: [(Int, Double, Int, Double)], expected: GenerationSpeed?) {
        let meter = ServerSpeedMeter()
        for (prompt, first, written, writing) in answers {
            meter.record(promptTokens: prompt, untilFirstToken: first, answerTokens: written, writing: writing)
        }
        #expect(meter.speed == expected)
    }

    struct Rig {
        let directory: CacheTestDirectory
        let clock = TestClock()
        let ledger: UsageLedger

        init() throws {
            directory = try CacheTestDirectory()
            ledger = try UsageLedger(path: directory.databasePath, clock: clock)
        }

        func router(remote: ScriptedModel) -> RoutingEngine {
            RoutingEngine(
                local: ScriptedModel(.local, available: .unavailable(reason: "none")), remote: remote, memory: ledger,
                clock: clock)
        }

        /// The headline the 1.5B answered first in the lead's quiet run: 277 tokens in, 42 out, 8.1 s.
        func recordHeadline(_ remote: ScriptedModel) throws {
            let key = AttemptKey(
                engine: .remote, model: remote.identity, task: "headline", job: .part,
                promptVersion: StudyTask.headline.promptTemplateVersion)
            try ledger.recordAttempt(
                Attempt(key: key, outcome: .accepted, duration: 8.1, tokensIn: 277, tokensOut: 42, at: clock.now()))
        }
    }

    static func kitKey(_ remote: ScriptedModel) -> AttemptKey {
        AttemptKey(
            engine: .remote, model: remote.identity, task: StudyTask.studyKit.name, job: .part,
            promptVersion: StudyTask.studyKit.promptTemplateVersion)
    }

    /// The 1.5B's speeds on 2 threads, from its parts in the lead's quiet run: 43 prompt tokens and
    /// 12.7 written a second.
    static let qwen = GenerationSpeed(promptTokensPerSecond: 43, decodeTokensPerSecond: 12.7)

    @Test func aServersPartIsEstimatedFromItsOwnSpeedsNotAHeadlinesLumpedRate() async throws {
        let rig = try Rig()
        let known = ScriptedModel(.remote, speed: Self.qwen, speedKnown: true)
        try rig.recordHeadline(known)
        // The kit: 885 prompt tokens, 2,225 expected: 885 / 43 + 2,225 / 12.7 = 195.8 s.
        let split = await rig.router(remote: known).recorder.expectedSeconds(
            known, key: Self.kitKey(known), promptTokens: 885, responseTokens: 2_225)
        #expect(abs(split - 195.8) < 0.1)
        // With no speed of its own yet, the headline's lumped rate: 8.1 s over 27.7 + 42 units.
        let unknown = ScriptedModel(.remote)
        try rig.recordHeadline(unknown)
        let lumped = await rig.router(remote: unknown).recorder.expectedSeconds(
            unknown, key: Self.kitKey(unknown), promptTokens: 885, responseTokens: 2_225)
        #expect(abs(lumped - (88.5 + 2_225) * 8.1 / 69.7) < 0.1)
    }

    /// A part that cannot end before the request deadline is not started; one that can is.
    @Test(arguments: [
        // The kit: 196 s, past the 120 s deadline though the budget holds it.
        (885, 2_225, 120.0 as Double?, "skipped: expected to take 196 s, more than the server's 120 s request deadline"),
        // A quiz of 5 questions: 1,041 / 43 + 920 / 12.7 = 96.6 s: asked.
        (1_041, 920, 120.0, nil),
        // No deadline: the budget alone decides, and holds the kit.
        (885, 2_225, nil, nil),
    ] as [(Int, Int, Double?, String?)])
    func aPartPastTheRequestDeadlineIsSkipped(prompt: Int, response: Int, deadline: Double?, reason: String?) async throws {
        let rig = try Rig()
        let remote = ScriptedModel(.remote, speed: Self.qwen, speedKnown: true).withDeadline(deadline)
        let budget = TimeBudget(seconds: 300, start: rig.clock.now())
        let skip = await rig.router(remote: remote).recorder.budgetSkip(
            remote, key: Self.kitKey(remote), promptTokens: prompt, responseTokens: response, budget: budget)
        #expect(skip == reason)
    }

    /// Past the budget, the budget's reason is given, as before.
    @Test func pastTheBudgetTheBudgetIsTheReason() async throws {
        let rig = try Rig()
        let remote = ScriptedModel(.remote, speed: Self.qwen, speedKnown: true).withDeadline(120)
        let budget = TimeBudget(seconds: 100, start: rig.clock.now())
        let skip = await rig.router(remote: remote).recorder.budgetSkip(
            remote, key: Self.kitKey(remote), promptTokens: 885, responseTokens: 2_225, budget: budget)
        #expect(skip == "skipped: expected to take 196 s, with only 100 s of the 100 s budget left")
    }
}
