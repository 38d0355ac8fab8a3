import Foundation

/// Everything that can go wrong asking an engine, after configuration is read.
///
/// The associated strings are complete, user-facing sentences built by the engine; they never
/// contain an API key (server messages are redacted before they land here).
public enum EngineError: StudyKitError, Equatable, Sendable, CustomStringConvertible {
    /// The engine cannot serve: not configured, not running, unreachable.
    case unavailable(reason: String)
    /// The request needs more tokens than the engine's window holds.
    case contextExceeded(tokens: Int, window: Int)
    /// The remote account has no quota left (OpenAI `insufficient_quota`); retrying will not help.
    case quotaExceeded(String)
    /// The server kept rate-limiting; `retryAfter` is what it asked for (seconds), if it said.
    case rateLimited(retryAfter: Double?)
    /// The answer is not usable: not JSON, missing fields, … one entry per problem.
    case invalidOutput([String])
    /// The answer was cut off (response limit reached, or the stream ended early).
    case truncated(String)
    /// The server answered with an HTTP error the engine does not map to anything finer.
    case http(status: Int, message: String)
    /// The exchange failed below HTTP (timeout, reset) after retries.
    case transport(String)
    /// The server refused the credentials (401/403).
    case authentication(String)
    /// The local engine's URL is not on this machine; refused before any connection.
    case notLoopback(String)
    /// A setting has a value studykit cannot use.
    case invalidConfiguration(key: String, value: String, reason: String)

    /// How many of an unusable answer's problems ``message`` names.
    static let problemsShown = 3

    /// One lower-case line: what is wrong and what to do.
    public var message: String {
        switch self {
        case .unavailable(let reason):
            return reason
        case .contextExceeded(let tokens, let window):
            return "the request needs \(tokens) tokens but the engine's context window holds \(window); shorten the "
                + "input or use an engine with a larger window"
        case .quotaExceeded(let detail):
            return "the remote engine's quota is used up (\(detail)); wait for it to reset, raise it with the "
                + "provider, or use --engine local"
        case .rateLimited(let retryAfter):
            let wait = retryAfter.map { " (it asks to wait \(Self.seconds($0)) s)" } ?? ""
            return "the remote engine is rate-limiting requests\(wait); try again later or use --engine local"
        case .invalidOutput(let problems):
            // One line for stderr and the fallback reason: the first few problems, then a count.
            let shown = problems.prefix(Self.problemsShown).joined(separator: "; ")
            let more = problems.count > Self.problemsShown ? " (and \(problems.count - Self.problemsShown) more)" : ""
            return "the model's answer is not usable: \(shown)\(more)"
        case .truncated(let detail):
            return detail
        case .http(let status, let message):
            return "the engine answered http \(status): \(message)"
        case .transport(let detail):
            return detail
        case .authentication(let detail):
            return detail
        case .notLoopback(let url):
            return "the local engine must run on this machine, but '\(URLCredentials.redacted(in: url))' is not a "
                + "loopback address; use 127.0.0.1, ::1 or localhost in STUDYKIT_LOCAL_URL, or configure that server "
                + "as the remote engine"
        case .invalidConfiguration(let key, let value, let reason):
            // A URL setting may carry a key (`https://user:key@host`, `?api_key=`): never quoted.
            return "\(key)='\(URLCredentials.redacted(in: value))' is not valid: \(URLCredentials.redacted(in: reason))"
        }
    }

    /// 69 when no engine could serve, 65 when the answer or the input is the problem, 64 for bad settings.
    public var exitCode: ExitCode {
        switch self {
        case .unavailable, .quotaExceeded, .rateLimited, .authentication, .notLoopback, .http, .transport:
            return .unavailable
        case .invalidOutput, .truncated, .contextExceeded:
            return .dataError
        case .invalidConfiguration:
            return .usage
        }
    }

    /// The same as ``message``, so string interpolation never shows more than the user would see.
    public var description: String { message }

    private static func seconds(_ value: Double) -> String {
        // A server may ask for any number of seconds; past Int's range it is shown as it is.
        guard value.isFinite, abs(value) < 1e15 else { return String(format: "%.0f", value) }
        return value == value.rounded() ? String(Int(value)) : String(value)
    }
}
