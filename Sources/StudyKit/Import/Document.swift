import Foundation

/// What kind of content a source holds, decided by its bytes as well as its name.
public enum SourceKind: String, Sendable, Equatable, CaseIterable, Codable {
    /// Plain text.
    case text
    /// Markdown (by extension or leading `# ` heading lines).
    case markdown
    /// An HTML page; its main content is extracted.
    case html
    /// A PDF with a text layer.
    case pdf
}

/// The character range of `text` that came from one PDF page, for provenance.
public struct PageSpan: Sendable, Equatable, Hashable {
    /// The 1-based page number.
    public let page: Int
    /// Offsets in `Character`s (the units of `String.count`) into ``Document/text``.
    public let range: Range<Int>

    /// Creates a span.
    public init(page: Int, range: Range<Int>) {
        self.page = page
        self.range = range
    }
}

/// An imported source: normalized text plus what is known about where it came from.
///
/// The text is the source's **body**, what a student studies and the kit reads: every engine,
/// the routing policy, fitting, chunking, grounding and the cache key see it alone. The source's
/// **apparatus** — references, notes, citations, further reading, external links, navigation
/// boxes, captions and credits, hatnotes, bylines, share lines (see ``Apparatus``) — is kept
/// beside it for `studykit text`, and never studied.
public struct Document: Sendable, Equatable {
    /// The normalized body text: NFC, no control or invisible characters, paragraphs separated by one blank line.
    public let text: String
    /// The apparatus the import set apart from the body, blocks separated by one blank line; empty when there was none.
    public let apparatus: String
    /// The formulas of the text, each once, in the order they first appear.
    public let formulas: [Formula]
    /// The title if the source has one (HTML `og:title`/`<title>`/`<h1>`, PDF metadata, markdown `# ` heading).
    public let title: String?
    /// The kind of content the source held.
    public let kind: SourceKind
    /// A display name for the source: the path, the URL, or `stdin`.
    public let origin: String
    /// For PDFs, which characters of ``text`` came from which page; empty for other kinds.
    public let pages: [PageSpan]
    /// Exactly `text.count`: the routing policy's measure of size, stored because counting is O(n).
    public let characterCount: Int
    /// Exactly `apparatus.count`.
    public let apparatusCharacterCount: Int
    /// The language of ``text``: a BCP-47 primary subtag (`en`, `fr`, `ja`, `zh`, `ko` …), or
    /// `und` when the text is too short or too mixed to tell. Detected at import by script
    /// counting for Chinese, Japanese and Korean and by libexttextcat for the rest (see the README).
    public let language: String

    /// The title, if any, and the text, one line apart: the material a model's answer about the
    /// whole document is grounded in and compared with.
    public var titleAndText: String { [title, text].compactMap { $0 }.joined(separator: "\n") }

    /// Creates a document; ``characterCount`` is computed here so it can never disagree with `text`.
    /// - Parameters:
    ///   - text: the body.
    ///   - language: the language when the caller knows it; `nil` detects it from `text`.
    ///   - apparatus: what the import set apart from the body (``apparatus``).
    ///   - formulas: the formulas `text` carries as TeX.
    public init(
        text: String, title: String?, kind: SourceKind, origin: String, pages: [PageSpan] = [], language: String? = nil,
        apparatus: String = "", formulas: [Formula] = []
    ) {
        self.text = text
        self.title = title
        self.kind = kind
        self.origin = origin
        self.pages = pages
        self.characterCount = text.count
        self.apparatus = apparatus
        self.apparatusCharacterCount = apparatus.count
        self.formulas = formulas
        self.language = language ?? LanguageDetector.detect(text)
    }

    /// The line `studykit text` sets between the body and the apparatus.
    public static let apparatusRule = "--- apparatus (not studied) ---"

    /// The whole text as `studykit text` shows it: the body, then, when there is any, the
    /// apparatus under ``apparatusRule``.
    public var readableText: String {
        apparatus.isEmpty ? text : text + "\n\n" + Self.apparatusRule + "\n\n" + apparatus
    }

    /// Whether the language is known: not `und`.
    public var languageIsDetermined: Bool { language != LanguageDetector.undetermined }

    /// The page the character at `offset` came from, or `nil` when the document has no pages or
    /// the offset is outside the text.
    public func page(atCharacterOffset offset: Int) -> Int? {
        pages.first { $0.range.contains(offset) }?.page
    }
}

/// Where a source comes from, parsed from one command-line argument.
public enum SourceReference: Sendable, Equatable {
    /// `-`: read standard input.
    case standardInput
    /// A file path, as given.
    case file(String)
    /// An absolute URL. Only http and https can be loaded; other schemes fail at load with a usage error.
    case url(URL)

    /// Reads an argument: `-` is stdin; `http://`/`https://` is a URL; `file://` becomes its path;
    /// any other `scheme://` is kept as a URL so loading can reject it with a clear message; the
    /// rest is a file path.
    public init(argument: String) {
        if argument == "-" {
            self = .standardInput
            return
        }
        if let scheme = Self.scheme(of: argument) {
            if scheme == "file", let url = URL(string: argument), !url.path.isEmpty {
                self = .file(url.path)
            } else if let url = URL(string: argument) {
                self = .url(url)
            } else {
                // Not parseable as a URL (spaces, say): the loader reports it as an unsupported source.
                let escaped = argument.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? ""
                self = .url(URL(string: "invalid:" + escaped)!)
            }
            return
        }
        self = .file(argument)
    }

    /// The display name used in messages and ``Document/origin``.
    public var displayName: String {
        switch self {
        case .standardInput: return "stdin"
        case .file(let path): return path
        case .url(let url): return url.absoluteString
        }
    }

    /// The lower-cased scheme when `argument` starts with `scheme://`, else `nil`.
    private static func scheme(of argument: String) -> String? {
        guard let range = argument.range(of: "://") else { return nil }
        let scheme = argument[..<range.lowerBound]
        let scalars = Array(scheme.unicodeScalars)
        func isLetter(_ s: Unicode.Scalar) -> Bool { ("a"..."z").contains(s) || ("A"..."Z").contains(s) }
        guard let first = scalars.first, isLetter(first),
            scalars.allSatisfy({ isLetter($0) || ("0"..."9").contains($0) || $0 == "+" || $0 == "." || $0 == "-" })
        else { return nil }
        return scheme.lowercased()
    }
}

/// Limits and secrets for one import.
public struct ImportOptions: Sendable, Equatable {
    /// The password of an encrypted PDF.
    public var password: String?
    /// Seconds allowed for a whole URL fetch.
    public var deadline: TimeInterval
    /// The largest source accepted, in bytes: a file, stdin or a URL's body (``defaultMaxBytes``).
    public var maxBytes: Int
    /// Seconds allowed to connect to a URL's host.
    public var connectTimeout: TimeInterval

    /// The documented size cap of every source: 50 MB.
    public static let defaultMaxBytes = 50_000_000

    /// Creates options; the defaults are the documented limits (30 s, 50 MB, 5 s connect).
    public init(
        password: String? = nil, deadline: TimeInterval = 30, maxBytes: Int = ImportOptions.defaultMaxBytes,
        connectTimeout: TimeInterval = 5
    ) {
        self.password = password
        self.deadline = deadline
        self.maxBytes = maxBytes
        self.connectTimeout = connectTimeout
    }
}
