/// What can go wrong while talking HTTP, before any status code is interpreted.
public enum HTTPError: StudyKitError, Equatable, Sendable {
    /// The URL is not an absolute http(s) URL.
    case invalidURL(String)
    /// The host could not be resolved or refused the connection.
    case connectionFailed(String, reason: String)
    /// The connection broke, or the server hung up without a word, after the request went out
    /// (a reset, an empty reply): the server may have read, and acted on, the request.
    case connectionLost(String, reason: String)
    /// The connection was not established within the connect timeout (seconds).
    case connectTimedOut(String, seconds: Double)
    /// The whole exchange did not finish within its deadline (seconds).
    case timedOut(String, seconds: Double)
    /// More redirects than allowed.
    case tooManyRedirects(String, limit: Int)
    /// The server redirected to an address that is not http(s) (`file:`, `ftp:` …), which is never followed.
    case redirectRefused(String, target: String)
    /// The body grew past the cap (bytes).
    case bodyTooLarge(String, limit: Int)
    /// The caller cancelled the exchange.
    case cancelled(String)
    /// Any other transport failure, with libcurl's words.
    case transport(String, reason: String)

    /// One line naming the URL and what to do.
    public var message: String {
        switch self {
        case .invalidURL(let url):
            return "'\(url)' is not an http(s) URL"
        case .connectionFailed(let url, let reason):
            return "could not connect to \(url): \(reason); check the address and that the server is running"
        case .connectionLost(let url, let reason):
            return "the connection to \(url) broke before an answer arrived: \(reason); try again later"
        case .connectTimedOut(let url, let seconds):
            return "could not connect to \(url) within \(Self.format(seconds)) s; check the address and your network"
        case .timedOut(let url, let seconds):
            return "\(url) did not answer within \(Self.format(seconds)) s; try again later or raise the deadline"
        case .tooManyRedirects(let url, let limit):
            return "\(url) redirected more than \(limit) times; use the final address instead"
        case .redirectRefused(let url, let target):
            return "\(url) redirected to \(target), which studykit does not follow (only http and https addresses are "
                + "fetched)"
        case .bodyTooLarge(let url, let limit):
            return "\(url) is larger than the \(limit)-byte limit; download it and pass the file, or raise the limit"
        case .cancelled(let url):
            return "the request to \(url) was cancelled"
        case .transport(let url, let reason):
            return "the request to \(url) failed: \(reason)"
        }
    }

    /// Network trouble means the input could not be read (66); a body over the cap, or a redirect
    /// to an address studykit does not fetch, is bad data from the server (65).
    public var exitCode: ExitCode {
        switch self {
        case .invalidURL: return .usage
        case .bodyTooLarge, .redirectRefused: return .dataError
        case .cancelled, .transport: return .failure
        case .connectionFailed, .connectionLost, .connectTimedOut, .timedOut, .tooManyRedirects: return .noInput
        }
    }

    /// Whether a retry could help: the connection never happened, broke, or timed out.
    public var isConnectionFailure: Bool {
        switch self {
        case .connectionFailed, .connectionLost, .connectTimedOut, .timedOut: return true
        default: return false
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
