import Foundation

// MARK: - Request and response

/// One HTTP request with the limits studykit enforces on every exchange.
public struct HTTPRequest: Sendable, Equatable {
    /// The absolute http(s) URL.
    public var url: URL
    /// `GET`, `POST`, …
    public var method: String
    /// Request headers. Values may be secrets (an API key): never log them.
    public var headers: [String: String]
    /// The request body, if any.
    public var body: Data?
    /// Seconds allowed to establish the TCP (and TLS) connection.
    public var connectTimeout: TimeInterval
    /// Seconds allowed for the whole exchange, body included.
    public var deadline: TimeInterval
    /// How many redirects are followed before failing with ``HTTPError/tooManyRedirects(_:limit:)``.
    public var maxRedirects: Int
    /// The largest body accepted, in bytes; `nil` for no cap.
    public var maxBodyBytes: Int?

    /// Creates a request; the defaults are those the importer documents (5 s connect, 30 s total, 5 redirects).
    public init(
        url: URL, method: String = "GET", headers: [String: String] = [:], body: Data? = nil,
        connectTimeout: TimeInterval = 5, deadline: TimeInterval = 30, maxRedirects: Int = 5,
        maxBodyBytes: Int? = nil
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.connectTimeout = connectTimeout
        self.deadline = deadline
        self.maxRedirects = maxRedirects
        self.maxBodyBytes = maxBodyBytes
    }
}

/// The status line and headers of a response, available before its body.
public struct HTTPResponseHead: Sendable, Equatable {
    /// The HTTP status code of the final response (after redirects).
    public var status: Int
    /// Header names lower-cased; a repeated header keeps its last value.
    public var headers: [String: String]
    /// The URL that finally answered (after redirects).
    public var url: URL

    /// Creates a head; header names are lower-cased here so lookups need not care.
    public init(status: Int, headers: [String: String], url: URL) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) },
            uniquingKeysWith: { _, last in last })
        self.url = url
    }

    /// The value of a header, case-insensitively.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The media type of `Content-Type` without parameters, lower-cased (`text/html`).
    public var mediaType: String? {
        header("content-type")?.split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
    }

    /// The `charset` parameter of `Content-Type`, lower-cased, if any.
    public var charset: String? {
        guard let type = header("content-type") else { return nil }
        for parameter in type.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" {
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: " \"'")).lowercased()
            }
        }
        return nil
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }
}

/// A whole response.
public struct HTTPResponse: Sendable, Equatable {
    /// Status and headers.
    public var head: HTTPResponseHead
    /// The complete body.
    public var body: Data

    /// Creates a response.
    public init(head: HTTPResponseHead, body: Data) {
        self.head = head
        self.body = body
    }
}

/// A response whose body arrives in chunks, for server-sent events.
public struct HTTPStreamingResponse: Sendable {
    /// Status and headers, known before the first chunk.
    public var head: HTTPResponseHead
    /// Body chunks as they arrive; ends with an ``HTTPError`` if the exchange fails mid-way.
    public var body: AsyncThrowingStream<Data, any Error>

    /// Creates a streaming response.
    public init(head: HTTPResponseHead, body: AsyncThrowingStream<Data, any Error>) {
        self.head = head
        self.body = body
    }
}

// MARK: - The seam

/// How studykit talks HTTP. Production uses ``CurlTransport``; tests of faults a real server
/// cannot produce pass a scripted transport.
///
/// A test transport only needs ``stream(_:)``; ``send(_:)`` collects the stream by default:
/// ```swift
/// struct Scripted: HTTPTransport {
///     func stream(_ request: HTTPRequest) async throws -> HTTPStreamingResponse {
///         let head = HTTPResponseHead(status: 429, headers: [:], url: request.url)
///         return HTTPStreamingResponse(head: head, body: AsyncThrowingStream { $0.finish() })
///     }
/// }
/// ```
public protocol HTTPTransport: Sendable {
    /// Performs the request and returns the whole body. Throws ``HTTPError``.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
    /// Performs the request and returns as soon as the head is known. Throws ``HTTPError``.
    func stream(_ request: HTTPRequest) async throws -> HTTPStreamingResponse
}

extension HTTPTransport {
    /// Collects ``stream(_:)`` into one body, enforcing `maxBodyBytes`.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let streaming = try await stream(request)
        var body = Data()
        for try await chunk in streaming.body {
            body.append(chunk)
            if let cap = request.maxBodyBytes, body.count > cap {
                throw HTTPError.bodyTooLarge(request.url.absoluteString, limit: cap)
            }
        }
        return HTTPResponse(head: streaming.head, body: body)
    }
}
