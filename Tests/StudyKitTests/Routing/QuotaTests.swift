import Foundation
import Synchronization
import Testing
@testable import StudyKit

/// Issue #14, items 1–4: nothing spent goes uncounted, nothing refused is asked again. The
/// remote engine is the real ``OpenAICompatibleEngine`` over a scripted transport, so every
/// POST it sends is counted.
@Suite("Money and quota")
struct QuotaTests {
    static let chat = EngineFaultTests.chat

    static func ledger(_ directory: CacheTestDirectory) throws -> UsageLedger {
        try UsageLedger(path: directory.databasePath)
    }

    static func answer(_ json: String) -> ScriptedReply { .json(EngineFaultTests.completion(json)) }

    // MARK: 1. A quota refusal holds for the rest of the process

    @Test func aQuotaRefusalIsAskedOncePerImport() async throws {
        let refused = try ScriptedReply.fixture(429, "openai-insufficient-quota")
        var routes = EngineFaultTests.models
        routes[Self.chat] = refused
        let transport = ScriptedEngineTransport(routes: routes)
        let remote = EngineFaultTests.remote(transport)
        let local = ScriptedModel(.local, available: .unavailable(reason: "no local server"))
        let router = RoutingEngine(local: local, remote: remote)
        // Over 2,000 characters: every part of the kit, the headline too, prefers remote.
        let document = RoutingEngineTests.longDocument()
        #expect(document.characterCount > localCharacterLimit)
        let request = RoutingRequest(task: .studyKit, document: document, useCache: false)
        let kit = try await KitAssembler(router: router, kitEngine: remote).run(request)
        #expect(transport.calls(to: Self.chat) == 1)
        #expect(kit.parts.allSatisfy { $0.routed.engine == .builtin })
        let reasons = kit.routed.fallbacks.filter { $0.engine == .remote }.map(\.reason)
        #expect(reasons.count == 5, "the headline and four parts each say why remote was not used")
        #expect(reasons.dropFirst().allSatisfy { $0.contains("refused with a quota error earlier in this run") })
    }

    // MARK: 2. Every sent request is recorded; a retry after sending counts the first as an estimate

    struct SendCase: Sendable, CustomTestStringConvertible {
        let name: String
        let first: ScriptedReply
        let outcome: SentRequest.Outcome?
        var testDescription: String { name }
    }

    static let url = "https://api.example.com/v1/chat/completions"
    static let sendCases: [SendCase] = [
        SendCase(name: "timeout after sending", first: .fail(.timedOut(url, seconds: 30)), outcome: .timedOut),
        SendCase(name: "connection reset", first: .fail(.connectionLost(url, reason: "Connection reset by peer")), outcome: .connectionLost),
        SendCase(name: "empty reply", first: .fail(.connectionLost(url, reason: "Empty reply from server")), outcome: .connectionLost),
        SendCase(name: "server error", first: .json(503, #"{"error":{"message":"overloaded"}}"#), outcome: .serverError),
        SendCase(name: "rate limited", first: .json(429, #"{"error":{"message":"slow","code":"rate_limit_exceeded"}}"#), outcome: .refused),
        SendCase(name: "refused connection (never sent)", first: .fail(.connectionFailed(url, reason: "Connection refused")), outcome: nil),
    ]

    @Test("a retried request is recorded with its outcome and billed as an estimate when it may have been", arguments: sendCases)
    func retriedRequestsAreRecorded(_ testCase: SendCase) async throws {
        let directory = try CacheTestDirectory()
        let ledger = try Self.ledger(directory)
        let transport = ScriptedEngineTransport(routes: EngineFaultTests.models, queue: [testCase.first, Self.answer(RoutingEngineTests.summary)])
        let remote = EngineFaultTests.remote(transport, sleeper: RecordingSleeper())
        let router = RoutingEngine(local: ScriptedModel(.local), remote: remote, ledger: ledger, quota: .tokens(1_000_000), memory: ledger)
        let routed = try await router.run(RoutingRequest(task: .summary, document: RoutingEngineTests.document(), useCache: false))
        #expect(routed.engine == .remote)
        #expect(transport.calls(to: Self.chat) == 2)

        let records = try ledger.requestRecords(engine: .remote)
        let answered = try #require(records.last)
        #expect(answered.outcome == .answered && answered.status == 200 && !answered.estimated)
        #expect(answered.tokensIn == 12 && answered.tokensOut == 7, "the answer's reported usage")
        let spent = try ledger.usage(engine: .remote)
        guard let outcome = testCase.outcome else {
            #expect(records.count == 1, "a request that never connected is not one")
            #expect(spent == DailyUsage(engine: .remote, day: ledger.today, tokensIn: 12, tokensOut: 7, requests: 1))
            return
        }
        #expect(records.count == 2)
        let first = records[0]
        #expect(first.outcome == outcome)
        let mayBeBilled = SentRequest(outcome: outcome).mayBeBilled
        #expect(first.estimated == mayBeBilled)
        if mayBeBilled {
            // The estimate: the prompt's estimated tokens, and the whole response reserve.
            #expect(first.tokensOut == StudyTask.summary.responseReserve)
            #expect(first.tokensIn > 50)
            #expect(spent.requests == 2)
            #expect(spent.tokensIn == 12 + first.tokensIn && spent.tokensOut == 7 + StudyTask.summary.responseReserve)
        } else {
            #expect(first.tokensIn == 0 && first.tokensOut == 0)
            #expect(spent.requests == 1 && spent.totalTokens == 19)
        }
        #expect(try ledger.heldReservations(engine: .remote) == 0)
        // The request rows are not model attempts: the capability memory still sees one accepted job.
        #expect(try ledger.attemptSummaries().map(\.attempts) == [1])
    }

    @Test func aCallThatSendsNothingReleasesItsReservation() async throws {
        let directory = try CacheTestDirectory()
        let ledger = try Self.ledger(directory)
        let refused = ScriptedReply.fail(.connectionFailed(Self.url, reason: "Connection refused"))
        var routes = EngineFaultTests.models
        routes[Self.chat] = refused
        let transport = ScriptedEngineTransport(routes: routes)
        let router = RoutingEngine(
            local: ScriptedModel(.local, steps: [.answer(RoutingEngineTests.summary)]), remote: EngineFaultTests.remote(transport),
            ledger: ledger, quota: .requests(1))
        let routed = try await router.run(RoutingRequest(task: .summary, document: RoutingEngineTests.document(), useCache: false))
        #expect(routed.engine == .local)
        #expect(try ledger.heldReservations(engine: .remote) == 0)
        #expect(try ledger.usage(engine: .remote).requests == 0)
        #expect(try ledger.standing(.requests(1)).remaining == 1, "nothing was sent, so nothing of the quota is gone")
    }

    // MARK: 3. A ledger that cannot count fails closed

    @Test func aLedgerThatCannotOpenKeepsRemoteClosedAndSaysSoOnce() async throws {
        let transport = ScriptedEngineTransport(routes: EngineFaultTests.models, queue: [Self.answer(RoutingEngineTests.summary)])
        let warnings = Mutex<[String]>([])
        let broken = UnavailableLedger(error: .readOnly(path: "/ro/studykit.sqlite3"))
        let router = RoutingEngine(
            local: ScriptedModel(.local, steps: [.answer(RoutingEngineTests.summary), .answer(RoutingEngineTests.summary)]),
            remote: EngineFaultTests.remote(transport), ledger: broken, quota: .requests(100),
            warn: { line in warnings.withLock { $0.append(line) } })
        for _ in 0..<2 {
            let routed = try await router.run(RoutingRequest(task: .summary, document: RoutingEngineTests.document(), useCache: false))
            #expect(routed.engine == .local)
            #expect(routed.fallbacks.first?.reason.contains("usage ledger cannot be read or written") == true)
        }
        #expect(transport.calls(to: Self.chat) == 0)
        #expect(warnings.withLock { $0 }.count == 1)
        #expect(warnings.withLock { $0 }.first?.contains("'/ro/studykit.sqlite3' is read-only") == true)
    }

    @Test func withoutAQuotaABrokenLedgerDoesNotCloseRemote() async throws {
        let transport = ScriptedEngineTransport(routes: EngineFaultTests.models, queue: [Self.answer(RoutingEngineTests.summary)])
        let router = RoutingEngine(
            local: ScriptedModel(.local), remote: EngineFaultTests.remote(transport),
            ledger: UnavailableLedger(error: .readOnly(path: "/ro/studykit.sqlite3")), quota: nil)
        let routed = try await router.run(RoutingRequest(task: .summary, document: RoutingEngineTests.document(), useCache: false))
        #expect(routed.engine == .remote)
        #expect(transport.calls(to: Self.chat) == 1)
    }

    // MARK: 4. The allowance is reserved in the same transaction as the check

    @Test func fourConcurrentLedgersAgainstThreeRequestsMakeExactlyThreeCalls() async throws {
        let directory = try CacheTestDirectory()
        let transport = SlowChatTransport(answer: Self.answer(RoutingEngineTests.summary), delay: .milliseconds(300))
        // Four ledgers on one file, as four processes would have: each its own connection.
        let routers = try (0..<4).map { _ in
            RoutingEngine(
                local: ScriptedModel(.local, steps: [.answer(RoutingEngineTests.summary)]), remote: EngineFaultTests.remote(transport),
                ledger: try Self.ledger(directory), quota: .requests(3))
        }
        let served = try await withThrowingTaskGroup(of: EngineKind.self) { group in
            for router in routers {
                group.addTask {
                    try await router.run(RoutingRequest(task: .summary, document: RoutingEngineTests.document(), useCache: false)).engine
                }
            }
            return try await group.reduce(into: [EngineKind]()) { $0.append($1) }
        }
        #expect(transport.chatCalls == 3)
        #expect(served.filter { $0 == .remote }.count == 3)
        #expect(served.filter { $0 == .local }.count == 1)
        let ledger = try Self.ledger(directory)
        #expect(try ledger.usage(engine: .remote).requests == 3)
        #expect(try ledger.heldReservations(engine: .remote) == 0)
    }

    /// Another process's call in flight holds the day's last request: what is left, and the
    /// router's decision, count it as the reservation check does (spent plus held), and the
    /// reason says it is held, not spent.
    @Test func anOpenReservationCountsInWhatIsLeftAndInTheRoutersDecision() async throws {
        let directory = try CacheTestDirectory()
        let other = try Self.ledger(directory), ledger = try Self.ledger(directory)
        let quota = DailyQuota.requests(2)
        try ledger.record(engine: .remote, tokensIn: 10, tokensOut: 5)
        #expect(try ledger.standing(quota).remaining == 1)
        _ = try #require(try other.reserve(engine: .remote, tokens: 700, quota: quota, expiresAt: Date().addingTimeInterval(180)))
        #expect(try ledger.standing(quota) == QuotaStanding(quota: quota, used: 1, reserved: 1))
        #expect(try ledger.standing(quota).remaining == 0, "the held request is not there to take")
        #expect(try ledger.standing(quota).remaining == 0)
        #expect(try ledger.standing(.tokens(1_000)).remaining == 1_000 - 15 - 700)

        let transport = ScriptedEngineTransport(routes: EngineFaultTests.models)
        let router = RoutingEngine(
            local: ScriptedModel(.local, steps: [.answer(RoutingEngineTests.summary)]), remote: EngineFaultTests.remote(transport),
            ledger: ledger, quota: quota)
        let routed = try await router.run(RoutingRequest(task: .summary, document: RoutingEngineTests.document(), useCache: false))
        #expect(routed.engine == .local)
        #expect(transport.calls(to: Self.chat) == 0)
        let reason = try #require(routed.fallbacks.first { $0.engine == .remote }?.reason)
        #expect(reason.contains("is taken: 1 used and 1 reserved by requests still open"), "\(reason)")
    }

    @Test func reservationsCountAgainstTheQuotaUntilSettled() throws {
        let directory = try CacheTestDirectory()
        let first = try Self.ledger(directory)
        let second = try Self.ledger(directory)
        let quota = DailyQuota.tokens(1_000)
        let held = try #require(try first.reserve(engine: .remote, tokens: 600, quota: quota))
        #expect(try second.reserve(engine: .remote, tokens: 600, quota: quota) == nil, "600 held + 600 asked > 1,000")
        try first.settle(held, engine: .remote, spent: Spending(requests: 1, tokensIn: 200, tokensOut: 100), requests: [])
        #expect(try second.reserve(engine: .remote, tokens: 600, quota: quota) != nil, "300 spent + 600 asked ≤ 1,000")
        #expect(try second.usage(engine: .remote).totalTokens == 300)
        // Released with nothing spent: the allowance comes back whole.
        let third = try Self.ledger(directory)
        let last = try #require(try third.reserve(engine: .remote, tokens: 50, quota: quota))
        try third.settle(last, engine: .remote, spent: Spending(), requests: [])
        #expect(try third.heldReservations(engine: .remote) == 1, "only the second's reservation is still held")
    }
}

/// A transport whose chat answers take `delay`, so concurrent callers overlap; counts chat POSTs.
final class SlowChatTransport: HTTPTransport {
    let answer: ScriptedReply
    let delay: Duration
    private let calls = Mutex(0)
    var chatCalls: Int { calls.withLock { $0 } }

    init(answer: ScriptedReply, delay: Duration) {
        self.answer = answer
        self.delay = delay
    }

    func stream(_ request: HTTPRequest) async throws -> HTTPStreamingResponse {
        var reply = EngineFaultTests.models[request.url.path] ?? .text(404, "not found")
        if request.url.path == EngineFaultTests.chat {
            calls.withLock { $0 += 1 }
            try await Task.sleep(for: delay)
            reply = answer
        }
        let head = HTTPResponseHead(status: reply.status, headers: reply.headers, url: request.url)
        let chunks = reply.chunks
        let body = AsyncThrowingStream<Data, any Error> { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish()
        }
        return HTTPStreamingResponse(head: head, body: body)
    }
}
