import Foundation

/// How many requests a model server serves at once, as its discovery learnt it.
///
/// Sending a server more requests than it serves at once gains nothing: they wait in its queue
/// while each one's deadline runs, and a cancelled run leaves them there to be decoded anyway.
/// llama.cpp's `llama-server` reports its parallel slots (`GET /props` → `total_slots`, else one
/// entry per slot in `GET /slots`); llama-cpp-python's server runs one completion at a time
/// behind one model lock and has no setting to change it; vLLM, TGI and hosted APIs batch many
/// requests and say nothing about a limit.
public struct ServerConcurrency: Sendable, Equatable {
    /// How the number is known.
    public enum Source: String, Sendable, Equatable {
        /// The server reported its parallel slots.
        case serverSlots = "server slots"
        /// The server's dialect is known to serve one request at a time (llama-cpp-python).
        case serializingServer = "serializing server"
        /// The server says nothing about it.
        case unreported = "default"
    }

    /// Requests served at once; `nil` when the server does not say.
    public var requests: Int?
    /// How ``requests`` is known.
    public var source: Source

    /// Creates a record.
    public init(requests: Int?, source: Source) {
        self.requests = requests
        self.source = source
    }

    /// What a server of `dialect` that reported `slots` (or did not) serves at once: the slots
    /// when reported, one for llama-cpp-python, unknown for anything else.
    public static func of(dialect: ServerDialect, slots: Int?) -> ServerConcurrency {
        if let slots, slots > 0 { return ServerConcurrency(requests: slots, source: .serverSlots) }
        if dialect == .llamaCppPython { return ServerConcurrency(requests: 1, source: .serializingServer) }
        return ServerConcurrency(requests: nil, source: .unreported)
    }
}
