import Foundation
import Synchronization
internal import CPoppler

/// Extracts the text of a PDF, page by page, with poppler-glib.
///
/// This is the only file that sees poppler. Each GObject (document, page) and the GBytes
/// holding the file is owned by a ``GObjectReference`` and released in its `deinit`, so an
/// early `throw` cannot leak; every `GError` becomes an ``ImportError`` case.
enum PDFImporter {
    /// The raw lines of each page (in order, with their position), the document's metadata
    /// title, and the title as page 1 shows it (its largest-font lines near the top).
    struct Extraction: Sendable, Equatable {
        var pages: [[PDFLayout.PDFLine]]
        var title: String?
        var displayedTitle: String? = nil
    }

    /// Opens `data` as a PDF and returns the text of every page.
    ///
    /// Throws ``ImportError/passwordRequired(_:)``, ``ImportError/wrongPassword(_:)``,
    /// ``ImportError/corruptPDF(_:reason:)`` or ``ImportError/imageOnlyPDF(_:)``.
    static func extract(_ data: Data, source: String, password: String?) throws(ImportError) -> Extraction {
        // poppler's global state (font and encoding tables, initialised lazily) is not safe to
        // touch from two threads at once, so documents are opened and read one at a time.
        let result: Result<Extraction, ImportError> = popplerLock.withLock { _ in
            Result { () throws(ImportError) -> Extraction in try extractLocked(data, source: source,
                password: password) }
        }
        return try result.get()
    }

    private static let popplerLock = Mutex(())

    private static func extractLocked(_ data: Data, source: String,
        password: String?) throws(ImportError) -> Extraction {
        PopplerLog.silenceOnce()
        var error: UnsafeMutablePointer<GError>? = nil
        let opened: OpaquePointer?
        // The bytes poppler reads, kept so that further workers can open their own copy of the document.
        var bytes: GBytesReference? = nil
        if let password {
            // poppler-glib 22.x crashes in poppler_document_new_from_bytes when a wrong password is
            // given (its retry reuses a stream it has already freed); opening from a file takes a
            // safe retry path, so password-protected input goes through a private temporary file.
            let temporary = TemporaryFiles.path(suffix: ".pdf")
            do {
                try data.write(to: temporary, options: [.atomic])
            } catch {
                throw .unreadable(source, reason: "could not stage the encrypted PDF in the temporary directory")
            }
            defer { try? FileManager.default.removeItem(at: temporary) }
            opened = poppler_document_new_from_file(temporary.absoluteString, password, &error)
            // The document keeps the file open; reading it after unlinking is fine on POSIX systems.
        } else {
            let copy = data.withUnsafeBytes { raw in
                // g_bytes_new copies, so poppler's view of the file does not depend on `data` staying alive.
                GBytesReference(g_bytes_new(raw.baseAddress, gsize(raw.count)))
            }
            bytes = copy
            opened = poppler_document_new_from_bytes(copy.pointer, nil, &error)
        }
        guard let opened else {
            throw translate(error, source: source, passwordGiven: password != nil)
        }
        if let error { g_error_free(error) }
        let document = GObjectReference(opened)

        let count = Int(poppler_document_get_n_pages(document.pointer))
        guard count > 0 else { throw .corruptPDF(source, reason: "it has no pages") }
        let (pages, displayedTitle) = readPages(count, of: document, reopening: bytes)
        if !pages.contains(where: \.hasText) { throw .imageOnlyPDF(source) }
        let title = takeString(poppler_document_get_title(document.pointer))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return Extraction(pages: pages.map(\.lines), title: title?.isEmpty == false ? title : nil,
            displayedTitle: displayedTitle)
    }

    // MARK: - The title on page 1

    /// The title as a reader sees it: the lines near the top of page 1 set in the page's largest
    /// font, when that font is clearly larger than the body text (×1.2) — a LaTeX title, a
    /// report's cover line. Front matter (authors, e-mail, URLs, dates) is never the title.
    /// `page` is page 1 and `text` its text: poppler lays out a page's text once per page object.
    private static func displayedTitle(of page: GObjectReference, text: String) -> String? {
        guard let list = poppler_page_get_text_attributes(page.pointer) else { return nil }
        defer { poppler_page_free_text_attributes(list) }
        // Font size of every scalar of the page text (attribute ranges are scalar positions, inclusive).
        let scalars = Array(text.unicodeScalars)
        var sizes = [Double](repeating: 0, count: scalars.count)
        var node: UnsafeMutablePointer<GList>? = list
        while let current = node {
            if let data = current.pointee.data {
                let attributes = data.assumingMemoryBound(to: PopplerTextAttributes.self).pointee
                let start = max(0, Int(attributes.start_index))
                let end = min(scalars.count - 1, Int(attributes.end_index))
                if start <= end { for i in start...end { sizes[i] = attributes.font_size } }
            }
            node = current.pointee.next
        }
        // Lines with their largest glyph; the body size is the size most characters have.
        var lines: [(text: String, size: Double)] = []
        var start = 0
        var weights: [Double: Int] = [:]
        for i in 0...scalars.count where i == scalars.count || scalars[i] == "\n" {
            let line = String(String.UnicodeScalarView(scalars[start..<i])).trimmingCharacters(in: .whitespaces)
            let size = sizes[start..<i].max() ?? 0
            if !line.isEmpty {
                lines.append((line, size))
                weights[(size * 2).rounded() / 2, default: 0] += line.count
            }
            start = i + 1
        }
        guard let body = weights.max(by: { $0.value < $1.value })?.key, body > 0 else { return nil }
        let top = lines.prefix(12)
        guard let largest = top.map(\.size).max(), largest >= body * 1.2 else { return nil }
        // The consecutive lines in that font (a title may wrap), at most three.
        guard let first = top.firstIndex(where: { abs($0.size - largest) < 0.5 }) else { return nil }
        var parts: [String] = []
        for line in top[first...] where parts.count < 3 {
            guard abs(line.size - largest) < 0.5 else { break }
            parts.append(line.text)
        }
        let title = parts.joined(separator: " ")
        guard title.count <= 200, title.contains(where: \.isLetter),
            !FrontMatter.isFrontMatter(title) else { return nil }
        return title
    }

    // MARK: - Pages

    /// One page's lines, and whether it had any text at all.
    private struct PageText: Sendable {
        var lines: [PDFLayout.PDFLine] = []
        var hasText = false
    }

    /// Reads every page, on several threads when the document is long enough to repay it, and
    /// the title page 1 shows (``displayedTitle(of:text:)``) from the page 1 it read.
    ///
    /// Laying out a page's text is most of the cost of a PDF import, and pages are independent.
    /// A poppler document must not be read from two threads at once, so each extra worker opens
    /// its own document on the same bytes (its parse of the cross-reference table is cheap next to
    /// the pages); workers take the next unread page from a shared counter, so a slow page does
    /// not hold up the rest. Poppler builds some process-wide state lazily and without a lock when
    /// it first lays out a page (the colour-management profiles made in `GfxState`'s constructor),
    /// so no worker reads a page before this thread has read the first one; opening a document
    /// does not touch that state, so the workers open theirs meanwhile, which also hides the time
    /// a new thread takes to get a core.
    private static func readPages(
        _ count: Int, of document: GObjectReference, reopening bytes: GBytesReference?
    ) -> (pages: [PageText], displayedTitle: String?) {
        let workers = bytes == nil ? 1 : min(ProcessInfo.processInfo.activeProcessorCount, maximumWorkers,
            count / minimumPagesPerWorker)
        guard workers > 1, let bytes else {
            let first = firstPage(of: document)
            return ([first.text] + (1..<count).map { pageText(of: document, at: $0) }, first.displayedTitle())
        }
        let reading = PageReading(count: count)
        // GBytes is immutable and its reference count atomic; each worker opens its own document on it.
        nonisolated(unsafe) let shared = bytes
        for _ in 1..<workers {
            Thread {
                do {
                    // If a copy cannot be opened, this worker reads nothing and the others read its pages.
                    let copy = poppler_document_new_from_bytes(shared.pointer, nil, nil).map(GObjectReference.init)
                    reading.firstPageRead.wait()
                    if let copy { readRemainingPages(of: copy, into: reading) }
                }  // the copy is released here, before the caller can go on (and release poppler's lock)
                reading.finished.signal()
            }.start()
        }
        let first = firstPage(of: document)
        reading.results.withLock { $0[0] = first.text }
        for _ in 1..<workers { reading.firstPageRead.signal() }
        let displayedTitle = first.displayedTitle()
        readRemainingPages(of: document, into: reading)
        for _ in 1..<workers { reading.finished.wait() }
        return (reading.results.withLock { $0 }, displayedTitle)
    }

    /// Page 1's text, and how to find the title it shows from the same page object.
    private static func firstPage(of document: GObjectReference) -> (text: PageText, displayedTitle: () -> String?) {
        guard let pagePointer = poppler_document_get_page(document.pointer, 0) else { return (PageText(), { nil }) }
        let page = GObjectReference(pagePointer)
        let text = takeString(poppler_page_get_text(page.pointer))
        return (pageText(of: page, text: text ?? ""), { text.flatMap { displayedTitle(of: page, text: $0) } })
    }

    /// What the page workers share: the pages read so far, the next page to read, and two signals.
    private final class PageReading: Sendable {
        let results: Mutex<[PageText]>
        /// Page 0 is read by the calling thread before any worker reads, so the counter starts at 1.
        let nextPage = Atomic(1)
        /// Signalled once per worker when page 0 has been read (see ``readPages(_:of:reopening:)``).
        let firstPageRead = DispatchSemaphore(value: 0)
        /// Signalled by each worker when it has no page left to read.
        let finished = DispatchSemaphore(value: 0)

        init(count: Int) { results = Mutex([PageText](repeating: PageText(), count: count)) }
    }

    /// Reads pages of `document` until the shared counter runs past the last one.
    private static func readRemainingPages(of document: GObjectReference, into reading: PageReading) {
        let count = reading.results.withLock { $0.count }
        while true {
            let index = reading.nextPage.wrappingAdd(1, ordering: .relaxed).oldValue
            guard index < count else { return }
            let page = pageText(of: document, at: index)
            reading.results.withLock { $0[index] = page }
        }
    }

    /// More workers than this gain little: each re-parses the document and they share memory bandwidth.
    private static let maximumWorkers = 4

    /// Below this many pages per worker, opening another copy of the document costs more than it saves.
    private static let minimumPagesPerWorker = 4

    private static func pageText(of document: GObjectReference, at index: Int) -> PageText {
        guard let pagePointer = poppler_document_get_page(document.pointer, Int32(index)) else { return PageText() }
        let page = GObjectReference(pagePointer)
        return pageText(of: page, text: takeString(poppler_page_get_text(page.pointer)) ?? "")
    }

    private static func pageText(of page: GObjectReference, text: String) -> PageText {
        PageText(lines: lines(of: text, page: page), hasText: containsNonWhitespace(text))
    }

    /// Whether any `Character` of `text` is not whitespace. A printable ASCII byte always starts
    /// such a character, so the Unicode-aware walk only runs for pages without one.
    private static func containsNonWhitespace(_ text: String) -> Bool {
        if text.utf8.contains(where: { $0 > 0x20 && $0 < 0x7F }) { return true }
        return !text.allSatisfy(\.isWhitespace)
    }

    /// Splits a page's text into lines and attaches each line's position from poppler's layout
    /// (one rectangle per Unicode scalar of the text; the page's TextPage is cached, so this is cheap).
    ///
    /// Works on the UTF-8 bytes: a line break is one byte, a scalar starts at every byte that is
    /// not a continuation byte, and only a line's leading bytes need decoding to find its first glyph.
    private static func lines(of text: String, page: GObjectReference) -> [PDFLayout.PDFLine] {
        var rectangles: UnsafeMutablePointer<PopplerRectangle>? = nil
        var count: guint = 0
        let hasLayout = poppler_page_get_text_layout(page.pointer, &rectangles, &count) != 0
        defer { if let rectangles { g_free(rectangles) } }
        let usable = hasLayout && rectangles != nil

        var result: [PDFLayout.PDFLine] = []
        var position = 0  // index of the current scalar in the text, which is its rectangle's index
        var text = text
        text.withUTF8 { bytes in
            var lineStart = 0
            var firstGlyph: Int? = nil
            func finish(at end: Int) {
                var line = PDFLayout.PDFLine(
                    text: String(decoding: UnsafeBufferPointer(rebasing: bytes[lineStart..<end]), as: UTF8.self))
                if usable, let glyph = firstGlyph, glyph < Int(count), let rectangles {
                    line.x = rectangles[glyph].x1
                    line.top = rectangles[glyph].y1
                    line.height = rectangles[glyph].y2 - rectangles[glyph].y1
                }
                result.append(line)
                firstGlyph = nil
            }
            var i = 0
            while i < bytes.count {
                let byte = bytes[i]
                if byte == 0x0A {
                    finish(at: i)
                    lineStart = i + 1
                    position += 1
                    i += 1
                    continue
                }
                let length = utf8SequenceLength(byte)
                if firstGlyph == nil && !isWhitespace(bytes, at: i, length: length) { firstGlyph = position }
                position += 1
                i += length
            }
            if lineStart < bytes.count { finish(at: bytes.count) }
        }
        // If poppler's rectangles do not line up with the characters, positions would mislead: drop them.
        if usable && Int(count) < position {
            return result.map { PDFLayout.PDFLine(text: $0.text) }
        }
        return result
    }

    /// The length of the UTF-8 sequence that `lead` starts (the text is valid UTF-8: it is a Swift string).
    private static func utf8SequenceLength(_ lead: UInt8) -> Int {
        lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    }

    /// Whether the scalar encoded at `bytes[start..<start + length]` has the Unicode White_Space property.
    private static func isWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, length: Int) -> Bool {
        let lead = bytes[start]
        if length == 1 { return lead == 0x20 || (lead >= 0x09 && lead <= 0x0D) }
        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for k in 1..<length { value = value << 6 | UInt32(bytes[start + k] & 0x3F) }
        return Unicode.Scalar(value)?.properties.isWhitespace ?? false
    }

    /// Maps poppler's GError to an import error and frees it.
    private static func translate(_ error: UnsafeMutablePointer<GError>?, source: String,
        passwordGiven: Bool) -> ImportError {
        guard let error else { return .corruptPDF(source, reason: "poppler could not open it") }
        defer { g_error_free(error) }
        let message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
        if error.pointee.domain == poppler_error_quark(),
            error.pointee.code == Int32(POPPLER_ERROR_ENCRYPTED.rawValue) {
            return passwordGiven ? .wrongPassword(source) : .passwordRequired(source)
        }
        return .corruptPDF(source, reason: message)
    }

    /// Copies a g_malloc'd UTF-8 string into Swift and frees it.
    private static func takeString(_ pointer: UnsafeMutablePointer<gchar>?) -> String? {
        guard let pointer else { return nil }
        defer { g_free(pointer) }
        return String(cString: pointer)
    }
}

// MARK: - Ownership of C handles

/// Owns one GObject reference (a document or a page) and drops it in `deinit`.
private final class GObjectReference {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    deinit { g_object_unref(gpointer(pointer)) }
}

/// Owns one GBytes reference; poppler takes its own reference to the bytes while it needs them.
private final class GBytesReference {
    let pointer: OpaquePointer?

    init(_ pointer: OpaquePointer?) { self.pointer = pointer }

    deinit { if let pointer { g_bytes_unref(pointer) } }
}

// MARK: - Logging

/// poppler reports syntax problems of damaged files through GLib's log; the user gets one
/// clear error line from us instead, so those messages are dropped.
private enum PopplerLog {
    private static let installed: Bool = {
        _ = g_log_set_handler("Poppler", GLogLevelFlags(rawValue: ~0), { _, _, _, _ in }, nil)
        return true
    }()

    static func silenceOnce() { _ = installed }
}
