import Foundation
import Synchronization
internal import CCurl

// MARK: - Public transport

/// The production ``HTTPTransport``, on libcurl.
///
/// libcurl gives what FoundationNetworking on Linux does not: a real connect timeout, an
/// exact redirect cap, a body cap enforced while reading, and streaming without
/// `URLSession.bytes`. Each transfer runs `curl_easy_perform` on its own thread; the number of
/// transfers in flight is bounded so a burst of requests cannot exhaust threads or sockets.
public struct CurlTransport: HTTPTransport {
    private let limiter: TransferLimiter
    private let userAgent: String

    /// Creates a transport allowing `maxConcurrentTransfers` exchanges at once.
    public init(maxConcurrentTransfers: Int = 4, userAgent: String = "studykit/\(StudyKitVersion.current)") {
        self.limiter = TransferLimiter(limit: max(1, maxConcurrentTransfers))
        self.userAgent = userAgent
    }

    /// Starts the exchange and returns once the response head is known. Throws ``HTTPError``.
    public func stream(_ request: HTTPRequest) async throws -> HTTPStreamingResponse {
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            request.url.host != nil
        else { throw HTTPError.invalidURL(request.url.absoluteString) }
        if let failure = studykit_curl_load() {
            throw HTTPError.transport(request.url.absoluteString, reason: String(cString: failure))
        }

        try await limiter.acquire()
        let (body, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        let transfer: Transfer
        do {
            transfer = try Transfer(request: request, userAgent: userAgent, body: continuation)
        } catch {
            await limiter.release()
            throw error
        }
        continuation.onTermination = { @Sendable termination in
            if case .cancelled = termination { transfer.cancel() }
        }
        let limiter = self.limiter
        let head = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (headContinuation: CheckedContinuation<HTTPResponseHead,
                any Error>) in
                transfer.setHeadContinuation(headContinuation)
                let thread = Thread {
                    transfer.perform()
                    Task { await limiter.release() }
                }
                thread.name = "studykit.http"
                thread.start()
            }
        } onCancel: {
            transfer.cancel()
        }
        return HTTPStreamingResponse(head: head, body: body)
    }
}

// MARK: - Concurrency bound

/// A counting semaphore for transfers, as an actor so waiting is async.
private actor TransferLimiter {
    private let limit: Int
    private var inFlight = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) { self.limit = limit }

    func acquire() async throws {
        if inFlight < limit {
            inFlight += 1
            return
        }
        await withCheckedContinuation { waiters.append($0) }
        try Task.checkCancellation()
    }

    func release() {
        if waiters.isEmpty {
            inFlight -= 1
        } else {
            waiters.removeFirst().resume()
        }
    }
}

// MARK: - One transfer

/// Owns one easy handle and its header list; both are freed in `deinit`.
private final class Transfer: Sendable {
    private struct State {
        var headContinuation: CheckedContinuation<HTTPResponseHead, any Error>?
        var headers: [String: String] = [:]
        var received = 0
        var bodyTooLarge = false
        var cancelled = false
    }

    nonisolated(unsafe) private let handle: UnsafeMutableRawPointer
    nonisolated(unsafe) private let headerList: UnsafeMutablePointer<curl_slist>?
    nonisolated(unsafe) private let errorBuffer: UnsafeMutablePointer<CChar>
    private let request: HTTPRequest
    private let body: AsyncThrowingStream<Data, any Error>.Continuation
    private let state = Mutex(State())

    init(request: HTTPRequest, userAgent: String, body: AsyncThrowingStream<Data, any Error>.Continuation) throws {
        guard let handle = studykit_curl_easy_init() else {
            throw HTTPError.transport(request.url.absoluteString, reason: "libcurl could not create a handle")
        }
        self.handle = handle
        self.request = request
        self.body = body
        self.errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        self.errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)

        var list: UnsafeMutablePointer<curl_slist>? = nil
        // Expect: 100-continue only adds a round trip to a POST.
        for line in request.headers.map({ "\($0.key): \($0.value)" }).sorted() + ["Expect:"] {
            list = studykit_curl_slist_append(list, line)
        }
        self.headerList = list
        configure(userAgent: userAgent)
    }

    deinit {
        studykit_curl_easy_cleanup(handle)
        studykit_curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    private func configure(userAgent: String) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = studykit_curl_setopt_string(handle, CURLOPT_URL, request.url.absoluteString)
        _ = studykit_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = studykit_curl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        _ = studykit_curl_setopt_string(handle, CURLOPT_USERAGENT, userAgent)
        _ = studykit_curl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "")
        _ = studykit_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        _ = studykit_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, request.maxRedirects > 0 ? 1 : 0)
        _ = studykit_curl_setopt_long(handle, CURLOPT_MAXREDIRS, max(0, request.maxRedirects))
        _ = studykit_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(request.connectTimeout * 1000))
        _ = studykit_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, Int(request.deadline * 1000))
        if let cap = request.maxBodyBytes {
            _ = studykit_curl_setopt_off(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(cap))
        }
        _ = studykit_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList)
        _ = studykit_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)

        let method = request.method.uppercased()
        if let data = request.body {
            _ = studykit_curl_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(data.count))
            data.withUnsafeBytes { raw in
                // COPYPOSTFIELDS copies the bytes, so they need not outlive this call.
                _ = studykit_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS,
                    UnsafeMutableRawPointer(mutating: raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!))
            }
            if method != "POST" { _ = studykit_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method) }
        } else if method == "GET" {
            _ = studykit_curl_setopt_long(handle, CURLOPT_HTTPGET, 1)
        } else if method == "HEAD" {
            _ = studykit_curl_setopt_long(handle, CURLOPT_NOBODY, 1)
        } else {
            _ = studykit_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method)
        }

        _ = studykit_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, me)
        _ = studykit_curl_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION) { pointer, size, count, context in
            guard let pointer, let context else { return 0 }
            let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
            return transfer.didReceive(UnsafeRawBufferPointer(start: pointer, count: size * count))
        }
        _ = studykit_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, me)
        _ = studykit_curl_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION) { pointer, size, count, context in
            guard let pointer, let context else { return 0 }
            let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
            transfer.didReceiveHeader(UnsafeRawBufferPointer(start: pointer, count: size * count))
            return size * count
        }
        _ = studykit_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0)
        _ = studykit_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, me)
        _ = studykit_curl_setopt_progress_callback(handle) { context, _, _, _, _ in
            guard let context else { return 0 }
            let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
            return transfer.isCancelled ? 1 : 0
        }
    }

    func setHeadContinuation(_ continuation: CheckedContinuation<HTTPResponseHead, any Error>) {
        state.withLock { $0.headContinuation = continuation }
    }

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    func cancel() { state.withLock { $0.cancelled = true } }

    /// Runs the blocking transfer on the calling thread, then finishes the body stream.
    func perform() {
        let code = studykit_curl_easy_perform(handle)
        if code == CURLE_OK {
            resumeHead()
            body.finish()
            return
        }
        let error = translate(code)
        let pending = state.withLock { state -> CheckedContinuation<HTTPResponseHead, any Error>? in
            defer { state.headContinuation = nil }
            return state.headContinuation
        }
        pending?.resume(throwing: error)
        body.finish(throwing: error)
    }

    // MARK: callbacks (on the transfer thread)

    private func didReceiveHeader(_ bytes: UnsafeRawBufferPointer) {
        guard let line = String(bytes: bytes, encoding: .isoLatin1)?.trimmingCharacters(in: .whitespacesAndNewlines)
        else { return }
        state.withLock { state in
            if line.hasPrefix("HTTP/") {
                // A new status line: a redirect or 100-continue came before, so start afresh.
                state.headers = [:]
            } else if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                state.headers[name] = value
            }
        }
    }

    private func didReceive(_ bytes: UnsafeRawBufferPointer) -> Int {
        let overCap = state.withLock { state -> Bool in
            state.received += bytes.count
            if let cap = request.maxBodyBytes, state.received > cap {
                state.bodyTooLarge = true
                return true
            }
            return state.cancelled
        }
        if overCap { return 0 }  // makes libcurl stop with CURLE_WRITE_ERROR
        resumeHead()
        body.yield(Data(bytes))
        return bytes.count
    }

    private func resumeHead() {
        let pending = state.withLock { state -> (CheckedContinuation<HTTPResponseHead, any Error>, [String: String])? in
            guard let continuation = state.headContinuation else { return nil }
            state.headContinuation = nil
            return (continuation, state.headers)
        }
        guard let (continuation, headers) = pending else { return }
        let effective = studykit_curl_effective_url(handle).flatMap { URL(string: String(cString: $0)) } ?? request.url
        let head = HTTPResponseHead(status: studykit_curl_response_code(handle), headers: headers, url: effective)
        continuation.resume(returning: head)
    }

    private func translate(_ code: CURLcode) -> HTTPError {
        let url = request.url.absoluteString
        let detail = String(cString: errorBuffer)
        let reason = detail.isEmpty ? String(cString: studykit_curl_easy_strerror(code)) : detail
        let flags = state.withLock { ($0.bodyTooLarge, $0.cancelled) }
        if flags.0 || code == CURLE_FILESIZE_EXCEEDED {
            return .bodyTooLarge(url, limit: request.maxBodyBytes ?? 0)
        }
        if flags.1 || code == CURLE_ABORTED_BY_CALLBACK { return .cancelled(url) }
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            return studykit_curl_connected(handle) != 0
                ? .timedOut(url, seconds: request.deadline)
                : .connectTimedOut(url, seconds: request.connectTimeout)
        case CURLE_TOO_MANY_REDIRECTS:
            return .tooManyRedirects(url, limit: request.maxRedirects)
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .connectionFailed(url, reason: reason)
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR:
            // Connected, and the request (or part of it) went out: a provider may have billed it.
            return .connectionLost(url, reason: reason)
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            // Past a redirect the bad address is the server's, not the user's: name where it pointed.
            if let location = state.withLock({ $0.headers["location"] }) {
                let base = studykit_curl_effective_url(handle).flatMap { URL(string: String(cString: $0)) }
                    ?? request.url
                let target = URL(string: location, relativeTo: base)?.absoluteString ?? location
                return .redirectRefused(url, target: target)
            }
            return .invalidURL(url)
        default:
            return .transport(url, reason: reason)
        }
    }
}
