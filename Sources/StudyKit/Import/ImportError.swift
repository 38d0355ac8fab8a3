import Foundation

/// Everything that can go wrong while turning a source into a ``Document``.
///
/// One enum for the whole Import folder, so the CLI maps any import failure to one line and
/// one exit code. Transport failures arrive wrapped in ``fetchFailed(_:)`` so callers still see
/// a single error type.
public enum ImportError: StudyKitError, Equatable, Sendable {
    /// The file does not exist.
    case fileNotFound(String)
    /// The path names a directory, not a file.
    case isDirectory(String)
    /// The file exists but could not be read (permissions, I/O error); `reason` is the system's words.
    case unreadable(String, reason: String)
    /// A text or markdown source is not valid UTF-8; `offset` is the byte offset of the first bad byte.
    case notUTF8(String, offset: Int)
    /// Nothing was left after normalization.
    case empty(String)
    /// The PDF is encrypted and no password was given.
    case passwordRequired(String)
    /// The PDF is encrypted and the given password does not open it.
    case wrongPassword(String)
    /// The PDF could not be parsed; `reason` is poppler's words.
    case corruptPDF(String, reason: String)
    /// The PDF opened but has no text layer (a scan or images only).
    case imageOnlyPDF(String)
    /// The HTML could not be parsed at all.
    case unreadableHTML(String)
    /// A URL answered with a media type studykit cannot import.
    case unsupportedContentType(String, type: String)
    /// A URL answered text in a charset studykit cannot decode.
    case unsupportedCharset(String, charset: String)
    /// A URL answered with a non-2xx status.
    case httpStatus(String, status: Int)
    /// The argument looks like a URL but its scheme is not http or https.
    case unsupportedScheme(String)
    /// The transport failed (connection, timeout, redirects).
    case fetchFailed(HTTPError)
    /// The source (a file, stdin or a URL's body) is larger than the size cap, `limit` bytes.
    case tooLarge(String, limit: Int)

    /// One lower-case line naming the source and what to do next.
    public var message: String {
        switch self {
        case .fileNotFound(let path):
            return "cannot read '\(path)': no such file; check the path"
        case .isDirectory(let path):
            return "cannot read '\(path)': it is a directory; pass a file inside it"
        case .unreadable(let path, let reason):
            return "cannot read '\(path)': \(reason); check its permissions"
        case .notUTF8(let source, let offset):
            return "'\(source)' is not valid UTF-8 (first bad byte at offset \(offset)); "
                + "convert it first, e.g. iconv -f <encoding> -t UTF-8 '\(source)' > converted.txt"
        case .empty(let source):
            return "no text in \(source)"
        case .passwordRequired(let source):
            return "'\(source)' is an encrypted PDF and needs a password; pass it with --password"
        case .wrongPassword(let source):
            return "the password given for '\(source)' is wrong; check it and pass the right one with --password"
        case .corruptPDF(let source, let reason):
            return "'\(source)' is not a readable PDF (\(reason.lowercased())); re-download or re-export it"
        case .imageOnlyPDF(let source):
            return "'\(source)' is a scanned or image-only PDF and has no text; run OCR on it first (e.g. ocrmypdf)"
        case .unreadableHTML(let source):
            return "'\(source)' could not be parsed as HTML; save the page as text and pass that file"
        case .unsupportedContentType(let url, let type):
            return "\(url) answered content type '\(type)', which studykit cannot import; "
                + "use an HTML page, plain text, markdown or a PDF"
        case .unsupportedCharset(let source, let charset):
            return "'\(source)' uses charset '\(charset)', which studykit cannot decode; "
                + "convert it with iconv -f \(charset) -t UTF-8 and pass the file"
        case .httpStatus(let url, let status):
            return "\(url) answered \(status) \(Self.reasonPhrase(status)); check the address"
        case .unsupportedScheme(let argument):
            return "'\(argument)' is not a file path or an http(s) URL; download it first or pass a path"
        case .fetchFailed(let error):
            return error.message
        case .tooLarge(let source, let limit):
            return "\(source == "stdin" ? "stdin" : "'\(source)'") is larger than the \(Self.sizeText(limit)) limit "
                + "(\(limit) bytes); "
                + "raise it with --max-bytes if you mean it, or pass a smaller part"
        }
    }

    /// Missing or unreachable input is 66, unusable data is 65, a bad argument is 64.
    public var exitCode: ExitCode {
        switch self {
        case .fileNotFound, .isDirectory, .unreadable, .httpStatus:
            return .noInput
        case .notUTF8, .empty, .passwordRequired, .wrongPassword, .corruptPDF, .imageOnlyPDF,
            .unreadableHTML, .unsupportedContentType, .unsupportedCharset, .tooLarge:
            return .dataError
        case .unsupportedScheme:
            return .usage
        case .fetchFailed(let error):
            return error.exitCode
        }
    }

    /// A byte count as people say it: `50 MB`, `1.5 MB`, `900 bytes` (decimal units, like the default).
    static func sizeText(_ bytes: Int) -> String {
        if bytes < 1_000_000 { return bytes < 1000 ? "\(bytes)-byte" : "\(bytes / 1000) kB" }
        let megabytes = Double(bytes) / 1_000_000
        return megabytes == megabytes.rounded() ? "\(Int(megabytes)) MB" : String(format: "%.1f MB", megabytes)
    }

    /// The standard reason phrase, so a status reads as people know it (`404 Not Found`).
    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 402: return "Payment Required"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 406: return "Not Acceptable"
        case 408: return "Request Timeout"
        case 410: return "Gone"
        case 415: return "Unsupported Media Type"
        case 429: return "Too Many Requests"
        case 451: return "Unavailable For Legal Reasons"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        case 300..<400: return "Redirect"
        case 400..<500: return "Client Error"
        case 500..<600: return "Server Error"
        default: return "Unexpected Status"
        }
    }
}
