import Foundation

/// Turns a source (stdin, a file, an http(s) URL) into a normalized ``Document``.
///
/// The kind of content is decided by the bytes as well as the name (see ``sniffKind(_:name:)``):
/// PDFs go through poppler, HTML through libxml2 and main-content extraction, text and markdown
/// through the UTF-8 policy of ``SourceNormalizer``. URLs are fetched through the injected
/// ``HTTPTransport`` with the limits in ``ImportOptions``.
public struct Importer: Sendable {
    private let transport: any HTTPTransport
    /// Reads standard input, at most the given number of bytes (more only proves it is too large).
    private let standardInput: @Sendable (_ upTo: Int) throws -> Data

    /// Creates an importer.
    /// - Parameters:
    ///   - transport: how URLs are fetched; tests pass one pointed at a loopback server.
    ///   - standardInput: reads all of standard input; tests pass the bytes they want. The
    ///     importer still refuses more than ``ImportOptions/maxBytes``.
    public init(transport: any HTTPTransport = CurlTransport(), standardInput: @escaping @Sendable () throws -> Data) {
        self.transport = transport
        self.standardInput = { _ in try standardInput() }
    }

    /// Creates an importer whose stdin is read up to a number of bytes, so an endless or huge
    /// stdin is refused without being held in memory; by default the process's own stdin.
    public init(
        transport: any HTTPTransport = CurlTransport(),
        standardInputUpTo: @escaping @Sendable (_ upTo: Int) throws -> Data =
            { try Importer.readStandardInput(upTo: $0) }
    ) {
        self.transport = transport
        self.standardInput = standardInputUpTo
    }

    /// Reads the process's stdin until its end or until more than `limit` bytes were read
    /// (then `limit + 1` bytes come back: enough to say it is too large).
    public static func readStandardInput(upTo limit: Int) throws -> Data {
        var data = Data()
        let handle = FileHandle.standardInput
        while data.count <= limit {
            guard let chunk = try handle.read(upToCount: min(1 << 20, limit + 1 - data.count)),
                !chunk.isEmpty else { break }
            data.append(chunk)
        }
        return data
    }

    /// Reads, extracts and normalizes `source`.
    ///
    /// - Throws: ``ImportError`` only; transport failures arrive as ``ImportError/fetchFailed(_:)``.
    public func load(_ source: SourceReference, options: ImportOptions = .init()) async throws -> Document {
        switch source {
        case .standardInput:
            let data: Data
            do {
                data = try standardInput(options.maxBytes)
            } catch {
                throw ImportError.unreadable("stdin", reason: String(describing: error))
            }
            guard data.count <= options.maxBytes else { throw ImportError.tooLarge("stdin", limit: options.maxBytes) }
            return try document(from: data, origin: "stdin", name: nil, options: options)
        case .file(let path):
            let data = try Self.readFile(path, maxBytes: options.maxBytes)
            return try document(from: data, origin: path, name: path, options: options)
        case .url(let url):
            return try await fetch(url, options: options)
        }
    }

    // MARK: - Files

    /// Reads a file of at most `maxBytes`: a regular file is measured before it is read; a pipe or
    /// device (`/dev/stdin`, a FIFO) is read in pieces and refused once it passes the cap.
    private static func readFile(_ path: String, maxBytes: Int) throws(ImportError) -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .fileNotFound(path)
        }
        if isDirectory.boolValue { throw .isDirectory(path) }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw .unreadable(path, reason: "permission denied")
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        if attributes?[.type] as? FileAttributeType == .typeRegular {
            if let size = (attributes?[.size] as? NSNumber)?.intValue,
                size > maxBytes { throw .tooLarge(path, limit: maxBytes) }
            do {
                return try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
            } catch {
                throw .unreadable(path, reason: "the file could not be read")
            }
        }
        var data = Data()
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            while data.count <= maxBytes, let chunk = try handle.read(upToCount: 1 << 20),
                !chunk.isEmpty { data.append(chunk) }
        } catch {
            throw .unreadable(path, reason: "the file could not be read")
        }
        guard data.count <= maxBytes else { throw .tooLarge(path, limit: maxBytes) }
        return data
    }

    // MARK: - URLs

    /// What a URL may answer with.
    private static let accept =
        "text/html,application/xhtml+xml,text/plain;q=0.9,text/markdown;q=0.9,application/pdf;q=0.9,*/*;q=0.1"

    private func fetch(_ url: URL, options: ImportOptions) async throws -> Document {
        let address = url.absoluteString
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw ImportError.unsupportedScheme(address)
        }
        let request = HTTPRequest(
            url: url, headers: ["Accept": Self.accept], connectTimeout: options.connectTimeout,
            deadline: options.deadline, maxRedirects: 5, maxBodyBytes: options.maxBytes)
        let response: HTTPResponse
        do {
            response = try await transport.send(request)
        } catch HTTPError.bodyTooLarge(_, let limit) {
            throw ImportError.tooLarge(address, limit: limit)
        } catch let error as HTTPError {
            throw ImportError.fetchFailed(error)
        } catch {
            throw ImportError.fetchFailed(.transport(address, reason: String(describing: error)))
        }
        guard response.head.isSuccess else { throw ImportError.httpStatus(address, status: response.head.status) }

        let body = response.body
        let charset = response.head.charset
        let name = url.path.isEmpty ? nil : url.path
        switch response.head.mediaType ?? "" {
        case "text/html", "application/xhtml+xml":
            return try html(body, encoding: charset, origin: address)
        case "text/plain", "text/markdown", "text/x-markdown":
            let text = try Self.decodeText(body, charset: charset, origin: address)
            var kind = Self.sniffKind(body, name: name)
            if response.head.mediaType != "text/plain" || kind == .pdf || kind == .html { kind = .markdown }
            if response.head.mediaType == "text/plain", kind != .markdown { kind = .text }
            return try textDocument(text, kind: kind, origin: address)
        case "application/pdf":
            return try pdf(body, origin: address, options: options)
        case "application/octet-stream" where Self.hasPDFMagic(body):
            return try pdf(body, origin: address, options: options)
        case "":
            return try document(from: body, origin: address, name: name, options: options)
        case let other:
            throw ImportError.unsupportedContentType(address, type: other)
        }
    }

    /// Decodes a text body in the server's charset; UTF-8 (or no charset) follows the strict UTF-8 policy.
    private static func decodeText(_ data: Data, charset: String?, origin: String) throws(ImportError) -> String {
        switch charset ?? "utf-8" {
        case "utf-8", "utf8", "us-ascii", "ascii":
            return try SourceNormalizer.decodeUTF8(data, source: origin)
        case "iso-8859-1", "latin1", "iso_8859-1", "l1":
            return String(decoding: data.map { UInt16($0) }, as: UTF16.self)
        case "windows-1252", "cp1252":
            guard let text = String(data: data, encoding: .windowsCP1252) else {
                throw .unsupportedCharset(origin, charset: "windows-1252")
            }
            return text
        case "utf-16", "utf-16le", "utf-16be":
            guard let text = String(data: data,
                encoding: charset == "utf-16le" ? .utf16LittleEndian : charset == "utf-16be" ? .utf16BigEndian : .utf16)
            else { throw .notUTF8(origin, offset: 0) }
            return text
        case let other:
            throw .unsupportedCharset(origin, charset: other)
        }
    }

    // MARK: - Content

    /// Builds a document from bytes whose kind is sniffed (files, stdin, untyped URL bodies).
    func document(from data: Data, origin: String, name: String?,
        options: ImportOptions) throws(ImportError) -> Document {
        switch Self.sniffKind(data, name: name) {
        case .pdf:
            return try pdf(data, origin: origin, options: options)
        case .html:
            return try html(data, encoding: nil, origin: origin)
        case let kind:
            let text = try SourceNormalizer.decodeUTF8(data, source: origin)
            return try textDocument(text, kind: kind, origin: origin)
        }
    }

    private func pdf(_ data: Data, origin: String, options: ImportOptions) throws(ImportError) -> Document {
        guard Self.hasPDFMagic(data) else { throw .corruptPDF(origin, reason: "it does not start with %PDF-") }
        let extraction = try PDFImporter.extract(data, source: origin, password: options.password)
        let (bodyLines, footnotes) = PDFFootnotes.separate(extraction.pages)
        let (text, pages) = PDFLayout.normalizePDF(lines: bodyLines)
        guard !text.isEmpty else { throw .empty(origin) }
        let title = Self.meaningfulTitle(extraction.title)
            ?? extraction.displayedTitle.map { SourceNormalizer.normalizeText($0) }
        let (blocks, ranges) = Apparatus.blocksAndRanges(of: text)
        let split = Apparatus.split(blocks)
        let notes = footnotes.map { SourceNormalizer.normalizeText($0) }.filter { !$0.isEmpty }
        guard !split.body.isEmpty else {
            return Document(
                text: text, title: title, kind: .pdf, origin: origin, pages: pages,
                apparatus: notes.joined(separator: "\n\n"))
        }
        let unchanged = split.apparatus.isEmpty && split.body.allSatisfy { !$0.changed }
        return Document(
            text: split.bodyText, title: title, kind: .pdf, origin: origin,
            pages: unchanged ? pages : Apparatus.pageSpans(pages, oldRanges: ranges, split: split),
            apparatus: (split.apparatus + notes).joined(separator: "\n\n"))
    }

    /// A PDF's `Title` metadata when it names the document: not empty, not a file name
    /// ("notes.docx", "C:\\work\\x.tex", "Microsoft Word - ch3.doc"), not a placeholder ("untitled"),
    /// and not front matter; else `nil`, and the title page 1 shows is used.
    static func meaningfulTitle(_ metadata: String?) -> String? {
        guard let raw = metadata.map({ SourceNormalizer.normalizeText($0) }),
            raw.contains(where: \.isLetter) else { return nil }
        let lower = raw.lowercased()
        let placeholders: Set<String> = ["untitled", "title", "document", "untitled document", "no title", "slide 1",
            "presentation"]
        if placeholders.contains(lower) || lower.hasPrefix("microsoft word - ")
            || lower.hasPrefix("microsoft powerpoint - ") { return nil }
        if raw.contains("/") || raw.contains("\\") { return nil }
        if lower.range(of: #"\.(pdf|docx?|odt|rtf|tex|dvi|ps|pptx?|txt|indd|md|html?)$"#,
            options: .regularExpression) != nil { return nil }
        if FrontMatter.isFrontMatter(raw) { return nil }
        return raw
    }

    private func html(_ data: Data, encoding: String?, origin: String) throws(ImportError) -> Document {
        let extraction = try HTMLImporter.extract(data, encoding: encoding, source: origin)
        // Each block is normalized on its own, so it keeps its apparatus flag; which reference
        // marks go is decided over all of them.
        var blocks = extraction.blocks.flatMap { block in
            // A block of running text may hold paragraphs of its own (`<br><br>`).
            Apparatus.blocks(of: FormulaText.displaysOnOwnLines(SourceNormalizer.normalizeText(block.text))).map {
                Apparatus.Block(text: $0.text, isApparatus: block.isApparatus)
            }
        }
        for (index, text) in ReferenceMarkers.removed(fromLines: blocks.map(\.text)).enumerated() {
            blocks[index].text = text
        }
        let title = extraction.title.map { SourceNormalizer.normalizeText($0) }.flatMap { $0.isEmpty ? nil : $0 }
        return try document(of: blocks, kind: .html, origin: origin, title: title, formulas: extraction.formulas)
    }

    private func textDocument(_ raw: String, kind: SourceKind, origin: String) throws(ImportError) -> Document {
        let readable = kind == .markdown ? MarkdownText.readableParts(raw) : (text: raw, footnotes: [])
        let text = ReferenceMarkers.removed(from: SourceNormalizer.normalizeText(readable.text))
        let notes = readable.footnotes.map { SourceNormalizer.normalizeText($0) }.filter { !$0.isEmpty }
        var blocks = Apparatus.blocks(of: text)
        blocks += notes.map { Apparatus.Block(text: $0, isApparatus: true) }
        var document = try document(of: blocks, kind: kind, origin: origin, title: nil, formulas: [])
        if kind == .markdown, let heading = Self.firstTitleLine(document.text) {
            let title = String(heading.dropFirst(2)).trimmingCharacters(in: .whitespaces)
            document = Document(
                text: document.text, title: title, kind: kind, origin: origin, apparatus: document.apparatus,
                formulas: document.formulas)
        }
        return document
    }

    /// The document of a source's blocks: the body and the apparatus apart (``Apparatus``), the
    /// page's formulas, or those the body writes itself. A source that is all apparatus (a
    /// reference list on its own) is studied whole: it is what the student gave.
    private func document(
        of blocks: [Apparatus.Block], kind: SourceKind, origin: String, title: String?, formulas: [Formula]
    ) throws(ImportError) -> Document {
        let split = Apparatus.split(blocks)
        let body = split.body.isEmpty ? blocks.map(\.text).joined(separator: "\n\n") : split.bodyText
        guard !body.isEmpty else { throw .empty(origin) }
        let apparatus = split.body.isEmpty ? "" : split.apparatusText
        let written = formulas.isEmpty ? FormulaText.formulas(in: body) : formulas
        return Document(text: body, title: title, kind: kind, origin: origin, apparatus: apparatus, formulas: written)
    }

    /// The first `# ` line outside fenced code (a shell comment in a code block is no title).
    private static func firstTitleLine(_ text: String) -> Substring? {
        var inFence = false
        for line in text.split(separator: "\n") {
            if CodeText.isFence(line) {
                inFence.toggle()
            } else if !inFence, line.hasPrefix("# ") {
                return line
            }
        }
        return nil
    }

    // MARK: - Sniffing

    /// Decides the kind of content: `%PDF-` in the first kilobyte → PDF; `<!doctype html` or
    /// `<html` at the start (after a BOM, whitespace and comments) or an `.html`/`.htm`/`.xhtml`
    /// name → HTML; a `.md`/`.markdown` name or a first line that is a `# ` heading → markdown;
    /// else text.
    static func sniffKind(_ data: Data, name: String?) -> SourceKind {
        if hasPDFMagic(data) { return .pdf }
        let ext = name.map { URL(fileURLWithPath: $0).pathExtension.lowercased() } ?? ""
        if ext == "pdf" { return .pdf }  // a file named .pdf without the magic is a corrupt PDF, not text
        if looksLikeHTML(data) || ["html", "htm", "xhtml"].contains(ext) { return .html }
        if ["md", "markdown"].contains(ext) { return .markdown }
        if startsWithHeading(data) { return .markdown }
        return .text
    }

    static func hasPDFMagic(_ data: Data) -> Bool {
        let magic: [UInt8] = Array("%PDF-".utf8)
        let window = data.prefix(1024)
        guard window.count >= magic.count else { return false }
        return window.withUnsafeBytes { raw -> Bool in
            let bytes = raw.bindMemory(to: UInt8.self)
            for start in 0...(bytes.count - magic.count) where bytes[start] == 0x25 {
                if (0..<magic.count).allSatisfy({ bytes[start + $0] == magic[$0] }) { return true }
            }
            return false
        }
    }

    private static func looksLikeHTML(_ data: Data) -> Bool {
        var head = Substring(String(decoding: data.prefix(2048), as: UTF8.self).lowercased())
        while true {
            head = head.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
            if head.hasPrefix("<!--"), let end = head.range(of: "-->") {
                head = head[end.upperBound...]
            } else if head.hasPrefix("<?xml"), let end = head.range(of: "?>") {
                head = head[end.upperBound...]
            } else {
                break
            }
        }
        return head.hasPrefix("<!doctype html") || head.hasPrefix("<html")
    }

    private static func startsWithHeading(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(512), as: UTF8.self)
        guard let firstLine =
            head.split(whereSeparator: \.isNewline).first(where: { !$0.allSatisfy(\.isWhitespace) }) else {
            return false
        }
        let trimmed = firstLine.drop { $0 == " " || $0 == "\u{FEFF}" }
        return trimmed.hasPrefix("# ") || trimmed.hasPrefix("## ")
    }
}
