import Foundation
import Testing
@testable import StudyKit

/// An item job the record shows the model rarely gets right is left to the builtin engine, and a
/// document that fails more often than the record predicts stops the job on that document.
@Suite("Item jobs go where the record says the model pays off")
struct ItemYieldTests {
    static let start = Date(timeIntervalSince1970: 1_750_000_000)
    static let cardKey = AttemptKey(
        engine: .local, model: "scripted://local", task: "flashcards", job: .item, promptVersion: ItemRewriter.cardSpec.version)

    /// `accepted` then `failed` attempts of `seconds` each, newest first, a minute apart, ending at `end`.
    static func record(accepted: Int, failed: Int, seconds: Double = 1, end: Date = start) -> [Attempt] {
        let outcomes = Array(repeating: AttemptOutcome.invalid, count: failed) + Array(repeating: .accepted, count: accepted)
        return outcomes.enumerated().map { index, outcome in
            Attempt(key: cardKey, outcome: outcome, duration: seconds, at: end.addingTimeInterval(Double(-60 * index)))
        }
    }

    // MARK: the cost of an accepted item

    @Test(arguments: [
        // 12 attempts of 1.3 s with 3 accepted: 5.2 s an accepted card.
        (3, 9, 1.3, true),
        // The same attempts at 0.9 s: 3.6 s an accepted card, within the 3.75 s.
        (3, 9, 0.9, false),
        // Half accepted at 1.3 s: 2.6 s.
        (6, 6, 1.3, false),
        // 9 failures and no success: too few attempts to judge (and fewer than 10 in a row).
        (0, 9, 1.3, false),
        // 11 attempts, one accepted at the start (oldest): not 10 failures in a row... but 14 s for it.
        (1, 10, 1.3, true),
    ])
    func anItemJobIsSkippedWhenAnAcceptedItemCostsTooMuch(accepted: Int, failed: Int, seconds: Double, skipped: Bool) {
        let recent = Self.record(accepted: accepted, failed: failed, seconds: seconds)
        let reason = CapabilityPolicy().skipReason(recent: recent, job: .item, now: Self.start.addingTimeInterval(60))
        #expect((reason != nil) == skipped, "\(reason ?? "nil")")
        if accepted > 0, failed < 10, let reason {
            #expect(reason.contains("\(accepted) of its last \(accepted + failed) attempts accepted"))
            #expect(reason.contains("s an item is worth)"))
        }
    }

    /// Ten refused cards in a row skip a model that gets none right, but not one whose attempts
    /// before the run got 5 in 13 right: that rate makes ten failures in a row a one-in-a-hundred
    /// stretch of hard cards, and it takes 14 (one in a thousand) to skip it for a day.
    @Test func failuresInARowSkipLaterForAModelThatGetsItemsRight() {
        let earlier: [AttemptOutcome] = [.accepted, .invalid, .invalid, .accepted, .invalid, .accepted, .invalid, .invalid, .accepted, .invalid, .accepted, .invalid, .invalid]
        func record(failures: Int, before: [AttemptOutcome]) -> [Attempt] {
            (Array(repeating: AttemptOutcome.invalid, count: failures) + before).enumerated().map { index, outcome in
                Attempt(key: Self.cardKey, outcome: outcome, duration: 0.5, at: Self.start.addingTimeInterval(Double(-60 * index)))
            }
        }
        let policy = CapabilityPolicy()
        let now = Self.start.addingTimeInterval(60)
        #expect(policy.itemFailuresInARowToSkip(record(failures: 10, before: earlier), now: now) == 14)
        #expect(policy.skipReason(recent: record(failures: 10, before: earlier), job: .item, now: now) == nil)
        #expect(policy.skipReason(recent: record(failures: 13, before: earlier), job: .item, now: now) == nil)
        let skipped = policy.skipReason(recent: record(failures: 14, before: earlier), job: .item, now: now)
        #expect(skipped?.hasPrefix("skipped: it failed each of its last 14 attempts") == true, "\(skipped ?? "nil")")
        // Nothing right before the run: 10 in a row skip, as before.
        let none = record(failures: 10, before: Array(repeating: .invalid, count: 5))
        #expect(policy.itemFailuresInARowToSkip(none, now: now) == 10)
        #expect(policy.skipReason(recent: none, job: .item, now: now)?.hasPrefix("skipped: it failed each of its last 10 attempts") == true)
        // Skipping turned off skips nothing.
        #expect(CapabilityPolicy(failuresToSkip: 0).skipReason(recent: none, job: .item, now: now) == nil)
    }

    /// With STUDYKIT_SKIP_AFTER_FAILURES=1 one failure skips, and the reason says so in the
    /// singular ("failed its last attempt", not "the last 1 attempts").
    @Test func oneFailureThatSkipsIsSaidInTheSingular() {
        let one = CapabilityPolicy(failuresToSkip: 1).skipReason(recent: Self.record(accepted: 0, failed: 1), job: .part, now: Self.start.addingTimeInterval(60))
        #expect(one?.hasPrefix("skipped: it failed its last attempt at this job (answers refused; ") == true, "\(one ?? "nil")")
    }

    /// The overview is asked once per document, so its record grows a document at a time: it is
    /// judged as a part is, and two documents whose overview failed skip it on the third.
    @Test func aJobAskedOncePerDocumentIsSkippedAfterTwoFailuresLikeAPart() {
        let recent = Self.record(accepted: 0, failed: 2, seconds: 3.9)
        let policy = CapabilityPolicy()
        #expect(policy.skipReason(recent: recent, job: .item, now: Self.start) == nil)
        let reason = policy.skipReason(recent: recent, job: .item, now: Self.start, oncePerDocument: true)
        #expect(reason?.hasPrefix("skipped: it failed each of its last 2 attempts") == true)
        // One quick failure does not: a second is cheap enough to try again (below).
        let quick = Self.record(accepted: 0, failed: 1, seconds: 1)
        #expect(policy.skipReason(recent: quick, job: .item, now: Self.start, oncePerDocument: true) == nil)
        #expect(policy.skipEnds(recent: recent, job: .item, oncePerDocument: true) == recent[0].at.addingTimeInterval(86_400))
        #expect(ItemRewriter.overviewSpec.oncePerDocument)
        #expect(ItemRewriter.oncePerDocumentVersions == [ItemRewriter.overviewSpec.version])
    }

    /// A job asked once per document that never succeeded is weighed by what a first success
    /// would cost: its mean seconds over the chance 1 in (failures + 2). One overview failed in
    /// 1.7 s (5.1 s an accepted overview at 1 in 3) skips it on the next document; one failed in
    /// 1.2 s (3.6 s) does not, nor does a slow one once the record has a success, nor a part.
    @Test(arguments: [
        (0, 1, 1.7, true),
        (0, 1, 1.2, false),
        (0, 1, 3.9, true),
        (1, 1, 1.7, false),
        (1, 0, 3.0, false),
    ])
    func aJobAskedOncePerDocumentIsSkippedWhenAFirstSuccessWouldCostTooMuch(accepted: Int, failed: Int, seconds: Double, skipped: Bool) {
        let recent = Self.record(accepted: accepted, failed: failed, seconds: seconds)
        let policy = CapabilityPolicy()
        let now = Self.start.addingTimeInterval(60)
        let reason = policy.skipReason(recent: recent, job: .item, now: now, oncePerDocument: true)
        #expect((reason != nil) == skipped, "\(reason ?? "nil")")
        if skipped {
            #expect(reason == "skipped: its last attempt failed in \(CapabilityPolicy.seconds(seconds)), none accepted; at those odds an accepted answer costs about \(CapabilityPolicy.seconds(seconds * 3)) of model time, more than the 3.75 s it is worth")
            // Over a day later the failure no longer counts; within the run it was made in, not yet.
            #expect(policy.skipReason(recent: recent, job: .item, now: Self.start.addingTimeInterval(86_401), oncePerDocument: true) == nil)
            #expect(policy.skipReason(recent: recent, job: .item, now: now, runStarted: Self.start.addingTimeInterval(-1), oncePerDocument: true) == nil)
            // With skipping turned off, nothing is skipped.
            #expect(CapabilityPolicy(failuresToSkip: 0).skipReason(recent: recent, job: .item, now: now, oncePerDocument: true) == nil)
        }
        // The rule is the once-per-document job's alone: a card or a part with the same record is tried.
        #expect(policy.skipReason(recent: recent, job: .item, now: now) == nil)
        #expect(policy.skipReason(recent: recent, job: .part, now: now) == nil)
    }

    @Test func theCostRuleDoesNotApplyToParts() {
        let recent = Self.record(accepted: 1, failed: 1, seconds: 60)
        #expect(CapabilityPolicy().skipReason(recent: recent, job: .part, now: Self.start) == nil)
    }

    @Test func attemptsOfThisRunAndAttemptsOverADayOldDoNotCount() {
        let recent = Self.record(accepted: 3, failed: 9, seconds: 1.3)
        let policy = CapabilityPolicy()
        // Every attempt made after the run started: the run finishes what it began.
        let oldest = Self.start.addingTimeInterval(-60 * 11)
        #expect(policy.skipReason(recent: recent, job: .item, now: Self.start, runStarted: oldest) == nil)
        // Started after them all: they count.
        #expect(policy.skipReason(recent: recent, job: .item, now: Self.start, runStarted: Self.start.addingTimeInterval(1)) != nil)
        // A day later the skip is over, and the record says when.
        #expect(policy.skipReason(recent: recent, job: .item, now: Self.start.addingTimeInterval(86_400 + 1)) == nil)
        // The tenth newest attempt ages out first: then fewer than 10 are left to judge.
        #expect(policy.skipEnds(recent: recent, job: .item) == recent[9].at.addingTimeInterval(86_400))
    }

    @Test func zeroFailuresToSkipTurnsTheCostRuleOffToo() {
        let recent = Self.record(accepted: 0, failed: 20)
        let policy = CapabilityPolicy(failuresToSkip: 0)
        #expect(policy.skipReason(recent: recent, job: .item, now: Self.start) == nil)
        #expect(policy.itemFailuresToStop(recent: recent, now: Self.start, runStarted: nil) == nil)
    }

    // MARK: failures in a row on one document

    @Test(arguments: [
        // 3 key points in 5 right: (3+1)/(5+2) = 0.57, and 0.43³ < 0.1.
        (3, 2, 3 as Int?),
        // 3 cards in 12: 4/14 = 0.29; 0.71⁷ < 0.1 ≤ 0.71⁶.
        (3, 9, 7),
        // Every one right: never fewer than the 2 failures that skip a part.
        (6, 0, 2),
        // Four attempts say too little.
        (2, 2, nil),
    ])
    func failuresInARowThatStopAJobFollowTheRecordsRate(accepted: Int, failed: Int, expected: Int?) {
        let recent = Self.record(accepted: accepted, failed: failed)
        #expect(CapabilityPolicy().itemFailuresToStop(recent: recent, now: Self.start, runStarted: nil) == expected)
    }

    /// A rig: a ledger on a test clock, a document whose cards are extracted and rewritten.
    struct Rig {
        let directory: CacheTestDirectory
        let clock = TestClock(ItemYieldTests.start.addingTimeInterval(3600))
        let ledger: UsageLedger

        init() throws {
            directory = try CacheTestDirectory()
            ledger = try UsageLedger(path: directory.databasePath, clock: clock)
        }

        func seed(_ attempts: [Attempt]) throws {
            for attempt in attempts.reversed() { try ledger.recordAttempt(attempt) }
        }

        func cards(_ local: ScriptedModel) async throws -> RoutedResult {
            let router = RoutingEngine(
                local: local, remote: ScriptedModel(.remote, available: .unavailable(reason: "none")), memory: ledger,
                capability: CapabilityPolicy(boundsItemRewrites: false), clock: clock)
            let document = Document(text: FeynmanCheckTests.manual, title: nil, kind: .text, origin: "test")
            return try await router.run(
                RoutingRequest(task: .flashcards, document: document, useCache: false, budget: TimeBudget(seconds: 3600, start: clock.now())))
        }
    }

    static let refused = #"{"question": "What does the manual say about it?", "answer": "nothing"}"#

    @Test func aDocumentThatFailsMoreThanTheRecordPredictsStopsTheJobOnIt() async throws {
        let rig = try Rig()
        // 3 of 5 accepted before this run: 3 failures in a row stop it.
        try rig.seed(Self.record(accepted: 3, failed: 2))
        let local = ScriptedModel(.local, window: 256, steps: Array(repeating: .answer(Self.refused), count: 40))
        let routed = try await rig.cards(local)
        #expect(local.calls.respond == 3)
        #expect(routed.attempts.count == 3)
        let stopped = routed.items.filter { $0.note?.contains("failed this material's last 3 items of this kind") == true }
        #expect(stopped.count == routed.items.count - 3)
        #expect(!stopped.isEmpty, "the document has more than 3 cards")
    }

    @Test func withoutARecordEveryItemIsTried() async throws {
        let rig = try Rig()
        let local = ScriptedModel(.local, window: 256, steps: Array(repeating: .answer(Self.refused), count: 40))
        let routed = try await rig.cards(local)
        // All fail, and only the 10-in-a-row rule (from this run's own failures) may end them.
        #expect(local.calls.respond == min(routed.items.count, 10))
        #expect(routed.items.count > 3)
    }

    @Test func aJobThatCostsTooMuchPerAcceptedItemIsNotAskedAndSaysWhy() async throws {
        let rig = try Rig()
        try rig.seed(Self.record(accepted: 3, failed: 9, seconds: 1.3))
        let local = ScriptedModel(.local, window: 256, steps: Array(repeating: .answer(Self.refused), count: 40))
        let routed = try await rig.cards(local)
        #expect(local.calls.respond == 0)
        #expect(routed.items.allSatisfy { $0.kind == .extracted && $0.note?.contains("3 of its last 12 attempts accepted") == true })
    }
}
