import Foundation

/// Requests a run keeps in flight at once against one engine (`--jobs`), and why that many.
public struct JobsChoice: Sendable, Equatable {
    /// Where the number comes from: shown by `route --explain`, in `--json` as `jobsFrom`.
    public enum Source: String, Sendable, Equatable {
        /// `--jobs N` on the command line: it always wins.
        case option = "--jobs"
        /// The server's parallel slots (at most ``JobsChoice/most``).
        case serverSlots = "server slots"
        /// A server that serves one request at a time.
        case serializingServer = "serializing server"
        /// llama.cpp in this process (or another engine that is no server): one at a time, the
        /// model already uses the cores.
        case inProcess = "in-process model"
        /// `batch` with no remote serving: one document at a time, this machine does the work.
        case localEngines = "local engines only"
        /// Nothing is known: ``JobsChoice/most`` for a remote engine, one for a local one.
        case assumed = "default"
    }

    /// Requests in flight at once.
    public var jobs: Int
    /// Why.
    public var source: Source

    /// Creates a choice.
    public init(jobs: Int, source: Source) {
        self.jobs = jobs
        self.source = source
    }

    /// The most requests studykit keeps in flight by default, whatever a server could take:
    /// the bound on our side that DESIGN.md's scale-out stance asks for.
    public static let most = 4

    /// `explicit` (`--jobs`) when given; else what the engine's server serves at once, at most
    /// ``most``; else (an engine that is no server, or a server that does not say) one for a
    /// local engine and ``most`` for a remote one.
    public static func choose(explicit: Int?, concurrency: ServerConcurrency?, kind: EngineKind) -> JobsChoice {
        if let explicit { return JobsChoice(jobs: max(1, explicit), source: .option) }
        guard let concurrency else {
            return kind == .remote ? JobsChoice(jobs: most, source: .assumed) : JobsChoice(jobs: 1, source: .inProcess)
        }
        // A server that does not say: a remote one is assumed to scale (vLLM, TGI, a hosted
        // API); a local one shares this machine's cores (Ollama), as issue #17 sets for local engines.
        guard let requests = concurrency.requests else {
            return JobsChoice(jobs: kind == .remote ? most : 1, source: .assumed)
        }
        let source: Source = concurrency.source == .serializingServer ? .serializingServer : .serverSlots
        return JobsChoice(jobs: min(most, max(1, requests)), source: source)
    }

    /// `2 at a time (server slots)`.
    public var displayText: String { "\(jobs) at a time (\(source.rawValue))" }
}
