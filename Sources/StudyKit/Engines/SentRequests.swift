import Foundation
import Synchronization

// MARK: - The log of requests a call sent (each a ``SentRequest``, declared in Cache/)

/// The generation requests one model call sent, retries included, for the router to meter.
///
/// The router binds a log to ``current`` around a call; ``OpenAICompatibleEngine`` begins an
/// entry each time a chat request's body goes out and resolves it when it learns how it ended. A task-local reaches the
/// streaming task and the time budget's child task without widening ``LanguageModel``; an engine that sends nothing
/// over HTTP (in process, the builtin engine) leaves it empty.
public final class SentRequestLog: Sendable {
    /// The log of the call in progress, if someone is metering it.
    @TaskLocal public static var current: SentRequestLog?

    private let entries = Mutex<[SentRequest?]>([])

    /// Creates an empty log.
    public init() {}

    /// Adds a request about to go out, counted as cancelled until ``resolve(_:as:)`` says how it
    /// ended. A streamed call is read by a task of its own, which a cancelled caller does not wait
    /// for: the caller's meter may settle before that task learns the request's fate, and must
    /// still count what the server may have billed. Returns the entry's position.
    public func begin() -> Int {
        entries.withLock {
            $0.append(SentRequest(outcome: .cancelled))
            return $0.count - 1
        }
    }

    /// Says how the request begun at `position` ended; `nil` when it never left (no connection).
    public func resolve(_ position: Int, as request: SentRequest?) {
        entries.withLock { if $0.indices.contains(position) { $0[position] = request } }
    }

    /// Every request sent so far, in order.
    public var requests: [SentRequest] { entries.withLock { $0.compactMap { $0 } } }
}
