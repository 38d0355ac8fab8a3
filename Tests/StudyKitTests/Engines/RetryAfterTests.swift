import Foundation
import Testing
@testable import StudyKit

/// Issue #14, item 9: every form of `Retry-After` gives a finite wait under the cap, and only
/// the classes worth retrying are retried.
@Suite("Retry-After and retried classes (scripted HTTP)")
struct RetryAfterTests {
    /// The seam's clock: 2027-01-15T08:00:00Z.
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let cap = OpenAICompatibleEngine.RetryPolicy().retryAfterCap

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let headers: [String: String]
        /// The parsed wait; `nil` when the header says nothing usable (the backoff applies).
        let parsed: Double?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "seconds", headers: ["Retry-After": "7"], parsed: 7),
        Case(name: "zero seconds", headers: ["Retry-After": "0"], parsed: 0),
        Case(name: "fractional seconds", headers: ["Retry-After": " 1.5 "], parsed: 1.5),
        Case(name: "HTTP-date (IMF-fixdate)", headers: ["Retry-After": "Fri, 15 Jan 2027 08:00:03 GMT"], parsed: 3),
        Case(name: "HTTP-date (RFC 850)", headers: ["Retry-After": "Friday, 15-Jan-27 08:00:04 GMT"], parsed: 4),
        Case(name: "HTTP-date (asctime)", headers: ["Retry-After": "Fri Jan 15 08:00:05 2027"], parsed: 5),
        Case(name: "a date in the past", headers: ["Retry-After": "Thu, 01 Jan 1970 00:00:00 GMT"], parsed: 0),
        Case(name: "negative", headers: ["Retry-After": "-5"], parsed: nil),
        Case(name: "huge", headers: ["Retry-After": "99999999999999999999"], parsed: 99_999_999_999_999_999_999),
        Case(name: "infinite (inf)", headers: ["Retry-After": "inf"], parsed: nil),
        Case(name: "infinite (Infinity)", headers: ["Retry-After": "Infinity"], parsed: nil),
        Case(name: "infinite (1e999)", headers: ["Retry-After": "1e999"], parsed: nil),
        Case(name: "not a number", headers: ["Retry-After": "nan"], parsed: nil),
        Case(name: "garbage", headers: ["Retry-After": "soon, please"], parsed: nil),
        Case(name: "empty", headers: ["Retry-After": ""], parsed: nil),
        Case(name: "retry-after-ms", headers: ["retry-after-ms": "1500"], parsed: 1.5),
        Case(name: "retry-after-ms wins over Retry-After", headers: ["retry-after-ms": "250", "Retry-After": "9"], parsed: 0.25),
        Case(name: "negative retry-after-ms falls back to Retry-After", headers: ["retry-after-ms": "-1", "Retry-After": "2"], parsed: 2),
        Case(name: "garbage retry-after-ms", headers: ["retry-after-ms": "later"], parsed: nil),
        Case(name: "huge retry-after-ms", headers: ["retry-after-ms": "86400000"], parsed: 86_400),
    ]

    @Test("each header form parses to a finite wait ≥ 0, or none", arguments: cases)
    func parsing(_ testCase: Case) {
        let head = HTTPResponseHead(status: 429, headers: testCase.headers, url: URL(string: "https://api.example.com")!)
        let parsed = OpenAICompatibleEngine.retryAfter(head, now: Self.now)
        #expect(parsed == testCase.parsed)
        if let parsed { #expect(parsed.isFinite && parsed >= 0) }
    }

    /// A 429 with the header, then an answer: the engine waits what was asked (or the backoff)
    /// when it is under the cap, and gives up at once, without waiting, when it is above.
    @Test("each header form gives a finite wait under the cap", arguments: cases)
    func waiting(_ testCase: Case) async throws {
        let limited = ScriptedReply.json(
            429, #"{"error":{"message":"slow down","type":"requests","code":"rate_limit_exceeded"}}"#, headers: testCase.headers)
        let transport = ScriptedEngineTransport(
            routes: EngineFaultTests.models, queue: [limited, .json(EngineFaultTests.completion(#"{"title":"t","blurb":"b"}"#))])
        let sleeper = RecordingSleeper()
        let engine = EngineFaultTests.remote(transport, sleeper: sleeper)
        let waits = sleeper
        let overCap = (testCase.parsed ?? 0) > Self.cap
        if overCap {
            do {
                _ = try await engine.respond(to: EngineTestSchema.request())
                Issue.record("expected rateLimited")
            } catch let error as EngineError {
                #expect(error == .rateLimited(retryAfter: testCase.parsed))
                // The message quotes any wait, even one past Int's range, on one line.
                #expect(error.message.contains("it asks to wait") && !error.message.contains("\n"))
            }
            #expect(transport.calls(to: EngineFaultTests.chat) == 1)
            #expect(waits.sleeps.isEmpty)
        } else {
            _ = try await engine.respond(to: EngineTestSchema.request())
            #expect(transport.calls(to: EngineFaultTests.chat) == 2)
            #expect(waits.sleeps.count == 1)
            for sleep in waits.sleeps { #expect(sleep >= .zero && sleep <= .seconds(Self.cap)) }
            if let parsed = testCase.parsed { #expect(waits.sleeps == [.milliseconds(Int((parsed * 1000).rounded()))]) }
        }
    }

    /// 408, 409 and 429 (without quota trouble) are retried, twice; every other 4xx is tried once.
    @Test("retried 4xx classes, counted calls", arguments: Array(400...499))
    func clientErrorClasses(status: Int) async throws {
        let reply = ScriptedReply.json(status, #"{"error":{"message":"refused with \#(status)"}}"#)
        let transport = ScriptedEngineTransport(routes: EngineFaultTests.models, queue: Array(repeating: reply, count: 5))
        let engine = EngineFaultTests.remote(transport)
        await #expect(throws: EngineError.self) { _ = try await engine.respond(to: EngineTestSchema.request()) }
        let retried: Set<Int> = [408, 409, 429]
        #expect(transport.calls(to: EngineFaultTests.chat) == (retried.contains(status) ? 3 : 1))
    }
}
