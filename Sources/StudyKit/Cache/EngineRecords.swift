import Foundation

// What the cache and the usage ledger record about engines, declared here, below Engines in the
// layer order (ARCHITECTURE.md): which kind of engine answered, and how a request sent to a
// server ended. Engines make these values; Cache stores them; neither folder owns the other.

// MARK: - Which engine answered

/// Which kind of engine answered: every result and every engine report names it.
public enum EngineKind: String, Sendable, Codable, Hashable, CaseIterable {
    /// A model on this machine (a loopback model server); nothing leaves the machine.
    case local
    /// A hosted model reached over the network; costs money and has a quota.
    case remote
    /// The extractive engine built into studykit; always available, never a model.
    case builtin
}

// MARK: - Requests whose body reached the server

/// One generation request whose body went out to the server, and how it ended: what a
/// provider may bill. A request that never connected is not one.
public struct SentRequest: Sendable, Equatable {
    /// How a sent request ended.
    public enum Outcome: String, Sendable, Equatable, CaseIterable {
        /// A 2xx head arrived: the provider generated (and bills) the answer.
        case answered
        /// A 4xx answer: refused before any generation (rate limit, quota, bad request).
        case refused
        /// A 5xx answer: the server says it failed.
        case serverError = "server-error"
        /// The deadline passed after the request was sent.
        case timedOut = "timed-out"
        /// The connection broke or the server hung up after the request was sent (reset, empty reply).
        case connectionLost = "connection-lost"
        /// Cancelled (the time budget, an interrupt) while the request was out.
        case cancelled
    }

    /// How it ended.
    public var outcome: Outcome
    /// The HTTP status, when an answer arrived.
    public var status: Int?
    /// The request's id at the gateway (`x-litellm-call-id`), when a gateway answered: `--verbose`
    /// shows it, so the request can be found in the gateway's logs.
    public var requestID: String?
    /// The backend a gateway sent the request to (`x-litellm-model-api-base`), when it says.
    public var servedBy: String?

    /// Creates a record.
    public init(outcome: Outcome, status: Int? = nil, requestID: String? = nil, servedBy: String? = nil) {
        self.outcome = outcome
        self.status = status
        self.requestID = requestID
        self.servedBy = servedBy
    }

    /// The record of an answer with `status`.
    init(status: Int) {
        switch status {
        case 200..<300: self.init(outcome: .answered, status: status)
        case 500...: self.init(outcome: .serverError, status: status)
        default: self.init(outcome: .refused, status: status)
        }
    }

    /// The record of a transport failure, or `nil` when the request never left (no connection,
    /// a bad address, a redirect studykit does not follow).
    init?(afterSending error: HTTPError) {
        switch error {
        case .timedOut: self.init(outcome: .timedOut)
        case .connectionLost, .transport, .bodyTooLarge: self.init(outcome: .connectionLost)
        case .cancelled: self.init(outcome: .cancelled)
        case .connectionFailed, .connectTimedOut, .invalidURL, .tooManyRedirects, .redirectRefused: return nil
        }
    }

    /// Whether the provider may have generated, and billed, an answer: it answered, or it went
    /// quiet after reading the request. An error answer (4xx, 5xx) generated nothing.
    public var mayBeBilled: Bool {
        switch outcome {
        case .answered, .timedOut, .connectionLost, .cancelled: return true
        case .refused, .serverError: return false
        }
    }
}
