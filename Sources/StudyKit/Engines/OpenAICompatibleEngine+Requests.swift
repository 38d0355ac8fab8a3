import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// OpenAICompatibleEngine's requests on the wire: the loopback guard, sending a request with
// retries, and mapping (and redacting) what a server answers into ``EngineError``s.

// MARK: - Loopback and requests

extension OpenAICompatibleEngine {
    /// The privacy promise: a local engine never connects anywhere but this machine.
    func guardLoopback() throws {
        guard kind == .local else { return }
        guard let host = endpoint.url.host, Self.isLoopback(host: host) else {
            throw EngineError.notLoopback(URLCredentials.display(endpoint.url))
        }
    }

    /// `localhost`, 127.0.0.0/8 and ::1 (also written in full, or IPv4-mapped). The host is parsed
    /// as an address, so `127.0.0.1.evil.com` is a name, not a loopback address.
    static func isLoopback(host rawHost: String) -> Bool {
        var host = rawHost.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { $0[0] == 127 }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { bytes in
                let loopback = bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1
                let mapped = bytes.prefix(10).allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff
                    && bytes[12] == 127
                return loopback || mapped
            }
        }
        return false
    }

    /// The server root: the configured URL without a trailing `/` or `/v1`.
    var serverRoot: String { Self.serverRoot(of: endpoint.url) }

    static func serverRoot(of url: URL) -> String {
        var root = url.absoluteString
        while root.hasSuffix("/") { root.removeLast() }
        if root.hasSuffix("/v1") { root.removeLast(3) }
        return root
    }

    func url(_ path: String) -> URL {
        URL(string: serverRoot + path) ?? endpoint.url
    }

    /// The URL of `path` as messages show it: without credentials (``URLCredentials``).
    func shownURL(_ path: String) -> String { URLCredentials.display(url(path)) }

    func makeRequest(_ method: String, _ path: String, _ body: Data?, deadline: TimeInterval,
        accept: String) -> HTTPRequest {
        var headers = ["Accept": accept]
        if body != nil { headers["Content-Type"] = "application/json" }
        if let key = endpoint.apiKey { headers["Authorization"] = "Bearer \(key.secret)" }
        // No redirects: a redirect could carry the key, or a local request, to another host.
        return HTTPRequest(
            url: url(path), method: method, headers: headers, body: body,
            connectTimeout: min(connectTimeout, deadline), deadline: deadline, maxRedirects: 0, maxBodyBytes: nil)
    }

    /// A JSON exchange with retries, returning the body of a 2xx answer.
    func fetchJSON(
        _ method: String, _ path: String, _ body: Data?, deadline: TimeInterval? = nil, retries: Int? = nil
    ) async throws -> Data {
        let response = try await exchange(
            method, path, body, deadline: deadline ?? min(30, self.deadline), retries: retries
            ?? retryPolicy.maxRetries,
            accept: "application/json")
        do {
            return try await collect(response.body, cap: 32 << 20)
        } catch let error as HTTPError {
            throw mapTransport(error)
        }
    }

    /// Sends until a 2xx head arrives, retrying what may pass (connection errors, 408, 409, 429
    /// without quota trouble, 5xx) within `deadline` seconds in total.
    func exchange(
        _ method: String, _ path: String, _ body: Data?, deadline: TimeInterval, retries: Int, accept: String
    ) async throws -> HTTPStreamingResponse {
        try guardLoopback()
        let clock = ContinuousClock()
        let start = clock.now
        func remaining() -> TimeInterval {
            let elapsed = clock.now - start
            return deadline - (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        // A generation is what a provider bills: each one whose body goes out is told to the
        // router's meter (``SentRequestLog``), retries included.
        let sentLog = method == "POST" && path == "/v1/chat/completions" ? SentRequestLog.current : nil
        var attempt = 0
        while true {
            var failure: EngineError
            var retryAfter: Double? = nil
            var retryable: Bool
            let entry = sentLog?.begin()
            do {
                requests.add()
                let response = try await transport.stream(
                    makeRequest(method, path, body, deadline: max(0.001, remaining()), accept: accept))
                let trace = ResponseTrace(response.head)
                if let entry {
                    var sent = SentRequest(status: response.head.status)
                    // A gateway's requests are traced (`--verbose`); a single server's ids only
                    // show in a failure's message.
                    if trace.viaGateway { (sent.requestID, sent.servedBy) = (trace.requestID, trace.servedBy) }
                    sentLog?.resolve(entry, as: sent)
                }
                if response.head.isSuccess { return response }
                let data = (try? await collect(response.body, cap: 64 << 10)) ?? Data()
                (failure, retryable) = statusError(response.head, body: data)
                if retryable { retryAfter = Self.retryAfter(response.head, now: timing.now()) }
            } catch let error as HTTPError {
                if let entry { sentLog?.resolve(entry, as: SentRequest(afterSending: error)) }
                failure = mapTransport(error)
                retryable = error.isConnectionFailure
            }
            if let wait = retryAfter, wait > retryPolicy.retryAfterCap {
                // Waiting longer than the cap only delays the fallback the router can take now.
                throw failure
            }
            guard retryable, attempt < retries else { throw failure }
            let delay = retryAfter ?? retryPolicy.baseDelay * pow(2, Double(attempt)) * (0.5 + timing.random())
            // A retry that could not finish before the deadline only delays the fallback.
            guard remaining() - delay > 0.5 else { throw failure }
            try await timing.sleep(.milliseconds(Int((delay * 1000).rounded())))
            attempt += 1
        }
    }

    func collect(_ body: AsyncThrowingStream<Data, any Error>, cap: Int) async throws -> Data {
        var data = Data()
        for try await chunk in body {
            data.append(chunk)
            if data.count > cap { throw HTTPError.bodyTooLarge(URLCredentials.display(endpoint.url), limit: cap) }
        }
        return data
    }

    /// The wait a refusal asks for, in seconds: `retry-after-ms` (OpenAI's, in milliseconds) when
    /// it is a finite number ≥ 0, else `Retry-After` as delta-seconds or an HTTP date (any of
    /// RFC 9110's three forms; a date in the past is 0). A negative, infinite or unreadable value
    /// is `nil`: the exponential backoff applies. The result is always finite and ≥ 0; one above
    /// ``RetryPolicy/retryAfterCap`` is not waited for (the exchange fails at once).
    static func retryAfter(_ head: HTTPResponseHead, now: Date) -> Double? {
        if let milliseconds = head.header("retry-after-ms").flatMap(finiteNonNegative) { return milliseconds / 1000 }
        guard let text = head.header("retry-after")?.trimmingCharacters(in: .whitespaces),
            !text.isEmpty else { return nil }
        if let seconds = finiteNonNegative(text) { return seconds }
        for format in httpDateFormats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return max(0, date.timeIntervalSince(now)) }
        }
        return nil
    }

    /// IMF-fixdate, the obsolete RFC 850 form, and asctime.
    static let httpDateFormats = ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz",
        "EEE MMM d HH:mm:ss yyyy"]

    /// A plain decimal number (no sign, no exponent, no `inf` or `nan`) that is finite.
    static func finiteNonNegative(_ text: String) -> Double? {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let value = Double(text), value.isFinite, value >= 0
        else { return nil }
        return value
    }
}

// MARK: - Errors mapping

/// Removes the API key, anything shaped like an OpenAI key, and credentials inside URLs
/// (``URLCredentials``) from text a server sent back or an error quotes.
struct Redactor {
    let key: APIKey?
    init(_ key: APIKey?) { self.key = key }

    func clean(_ text: String) -> String {
        var result = text
        if let secret = key?.secret,
            !secret.isEmpty { result = result.replacingOccurrences(of: secret, with: "<redacted>") }
        // A key given inside a URL (user information, `?api_key=`) is shown nowhere either.
        result = URLCredentials.redacted(in: result)
        // OpenAI echoes part of a wrong key ("sk-abc***xyz"); hide every such word.
        var words: [Substring] = []
        for word in result.split(separator: " ", omittingEmptySubsequences: false) {
            let bare = word.drop(while: { "('\"`".contains($0) })
            words.append(bare.hasPrefix("sk-") ? "<redacted>" : word)
        }
        return words.joined(separator: " ")
    }
}

extension EngineError {
    /// The same error with every server-supplied text passed through `redactor`.
    func redacted(_ redactor: Redactor) -> EngineError {
        switch self {
        case .unavailable(let reason): return .unavailable(reason: redactor.clean(reason))
        case .quotaExceeded(let detail): return .quotaExceeded(redactor.clean(detail))
        case .invalidOutput(let problems): return .invalidOutput(problems.map(redactor.clean))
        case .truncated(let detail): return .truncated(redactor.clean(detail))
        case .http(let status, let message): return .http(status: status, message: redactor.clean(message))
        case .transport(let detail): return .transport(redactor.clean(detail))
        case .authentication(let detail): return .authentication(redactor.clean(detail))
        case .notLoopback(let url): return .notLoopback(redactor.clean(url))
        case .invalidConfiguration(let key, let value, let reason):
            return .invalidConfiguration(key: key, value: redactor.clean(value), reason: redactor.clean(reason))
        case .contextExceeded, .rateLimited: return self
        }
    }
}

extension OpenAICompatibleEngine {
    /// Every error leaving the engine passes here, so no server echo can carry the key out.
    func redactingErrors<T>(_ work: () async throws -> T) async throws -> T {
        do {
            return try await work()
        } catch let error as EngineError {
            throw error.redacted(Redactor(endpoint.apiKey))
        }
    }

    var engineName: String { "the \(kind.rawValue) engine at \(URLCredentials.display(endpoint.url))" }

    /// Connection trouble means the engine is unavailable (the router falls back); a deadline is transport trouble.
    func mapTransport(_ error: HTTPError) -> EngineError {
        switch error {
        case .connectionFailed, .connectionLost, .connectTimedOut:
            let hint = kind == .local
                ? "start it (scripts/serve-models) or fix "
                    + "STUDYKIT_LOCAL_URL" : "check STUDYKIT_REMOTE_URL and the network"
            return .unavailable(reason: "\(engineName) is unreachable (\(error.message)); \(hint)")
        case .timedOut(_, let seconds):
            let shown = seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
            return .transport("\(engineName) did not answer within \(shown) s; try again, or raise STUDYKIT_DEADLINE")
        default:
            return .transport("\(engineName) failed: \(error.message)")
        }
    }

    func authenticationError(status: Int, body: Data) -> EngineError {
        let detail = Redactor(endpoint.apiKey).clean(OpenAIWire.errorDetail(body).message)
        guard endpoint.apiKey != nil else {
            return .authentication(
                "\(engineName) requires an API key (http \(status): \(detail)); set STUDYKIT_REMOTE_API_KEY")
        }
        let setting = endpoint.apiKeySetting ?? "the configured API key"
        return .authentication("\(engineName) refused the API key from \(setting) (http \(status): \(detail)); check "
            + "the key")
    }

    /// Maps a non-2xx answer to an error, and says whether another attempt may succeed.
    func statusError(_ head: HTTPResponseHead, body: Data) -> (EngineError, retryable: Bool) {
        let status = head.status
        if status == 401 || status == 403 { return (authenticationError(status: status, body: body), false) }
        let detail = OpenAIWire.errorDetail(body)
        var message = Redactor(endpoint.apiKey).clean(detail.message)
        // A gateway's budget (LiteLLM: 422, or 429 where configured) is a quota: not retried, remote closed.
        if detail.type == "budget_exceeded"
            || detail.code == "budget_exceeded" { return (.quotaExceeded(message), false) }
        // The answer shape, not the server, failed: retrying the same body cannot help.
        if Self.refusesJSONSchema(message) { return (.http(status: status, message: message), false) }
        // A gateway's failure names its request, so it can be found in the gateway's log.
        if status >= 500 { message += ResponseTrace(head).suffix }
        switch status {
        case 429:
            if detail.code == "insufficient_quota" || detail.type == "insufficient_quota" {
                return (.quotaExceeded(message), false)
            }
            return (.rateLimited(retryAfter: Self.retryAfter(head, now: timing.now())), true)
        case 408, 409, 500...599:
            return (.http(status: status, message: message), true)
        case 400, 413:
            if detail.code == "context_length_exceeded" || message.contains("context length")
                || message.contains("context window"), let numbers = OpenAIWire.contextNumbers(message)
            {
                return (.contextExceeded(tokens: numbers.tokens, window: numbers.window), false)
            }
            return (.http(status: status, message: message), false)
        default:
            return (.http(status: status, message: message), false)
        }
    }
}
