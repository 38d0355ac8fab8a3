import Foundation
import Synchronization
internal import CPoppler

/// Extracts the text of a PDF, page by page, with poppler-glib.
///
/// This is the only file that sees poppler. Each GObject (document, page) and the GBytes
/// holding the file is owned by a ``GObjectReference`` and released in its `deinit`, so an
/// early `throw` cannot leak; every `GError` becomes an ``ImportError`` case.
enum PDFImporter {
    /// The raw lines of each page (in order, with their position) and the document's metadata title.
    struct Extraction: Sendable, Equatable {
        var pages: [[SourceNormalizer.PDFLine]]
        var title: String?
    }

    /// Opens `data` as a PDF and returns the text of every page.
    ///
    /// Throws ``ImportError/passwordRequired(_:)``, ``ImportError/wrongPassword(_:)``,
    /// ``ImportError/corruptPDF(_:reason:)`` or ``ImportError/imageOnlyPDF(_:)``.
    static func extract(_ data: Data, source: String, password: String?) throws(ImportError) -> Extraction {
        // poppler's global state (font and encoding tables, initialised lazily) is not safe to
        // touch from two threads at once, so documents are opened and read one at a time.
        let result: Result<Extraction, ImportError> = popplerLock.withLock { _ in
            Result { () throws(ImportError) -> Extraction in try extractLocked(data, source: source, password: password) }
        }
        return try result.get()
    }

    private static let popplerLock = Mutex(())

    private static func extractLocked(_ data: Data, source: String, password: String?) throws(ImportError) -> Extraction {
        PopplerLog.silenceOnce()
        var error: UnsafeMutablePointer<GError>? = nil
        let opened: OpaquePointer?
        if let password {
            // poppler-glib 22.x crashes in poppler_document_new_from_bytes when a wrong password is
            // given (its retry reuses a stream it has already freed); opening from a file takes a
            // safe retry path, so password-protected input goes through a private temporary file.
            let temporary = URL(fileURLWithPath: NSTemporaryDirectory())
                .appendingPathComponent("studykit-\(UUID().uuidString).pdf")
            do {
                try data.write(to: temporary, options: [.atomic])
            } catch {
                throw .unreadable(source, reason: "could not stage the encrypted PDF in the temporary directory")
            }
            defer { try? FileManager.default.removeItem(at: temporary) }
            opened = poppler_document_new_from_file(temporary.absoluteString, password, &error)
            // The document keeps the file open; reading it after unlinking is fine on POSIX systems.
        } else {
            let bytes = data.withUnsafeBytes { raw in
                // g_bytes_new copies, so poppler's view of the file does not depend on `data` staying alive.
                GBytesReference(g_bytes_new(raw.baseAddress, gsize(raw.count)))
            }
            opened = poppler_document_new_from_bytes(bytes.pointer, nil, &error)
        }
        guard let opened else {
            throw translate(error, source: source, passwordGiven: password != nil)
        }
        if let error { g_error_free(error) }
        let document = GObjectReference(opened)

        let count = Int(poppler_document_get_n_pages(document.pointer))
        guard count > 0 else { throw .corruptPDF(source, reason: "it has no pages") }
        var pages: [[SourceNormalizer.PDFLine]] = []
        pages.reserveCapacity(count)
        var sawText = false
        for index in 0..<count {
            guard let pagePointer = poppler_document_get_page(document.pointer, Int32(index)) else {
                pages.append([])
                continue
            }
            let page = GObjectReference(pagePointer)
            let text = takeString(poppler_page_get_text(page.pointer)) ?? ""
            if !sawText && !text.allSatisfy(\.isWhitespace) { sawText = true }
            pages.append(lines(of: text, page: page))
        }
        if !sawText { throw .imageOnlyPDF(source) }
        let title = takeString(poppler_document_get_title(document.pointer))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return Extraction(pages: pages, title: title?.isEmpty == false ? title : nil)
    }

    /// Splits a page's text into lines and attaches each line's position from poppler's layout
    /// (one rectangle per character of the text; the page's TextPage is cached, so this is cheap).
    private static func lines(of text: String, page: GObjectReference) -> [SourceNormalizer.PDFLine] {
        var rectangles: UnsafeMutablePointer<PopplerRectangle>? = nil
        var count: guint = 0
        let hasLayout = poppler_page_get_text_layout(page.pointer, &rectangles, &count) != 0
        defer { if let rectangles { g_free(rectangles) } }

        var result: [SourceNormalizer.PDFLine] = []
        var current = String.UnicodeScalarView()
        var position = 0  // index of the current scalar in the text, which is its rectangle's index
        var firstGlyph: Int? = nil
        let usable = hasLayout && rectangles != nil
        func finish() {
            var line = SourceNormalizer.PDFLine(text: String(current))
            if usable, let glyph = firstGlyph, glyph < Int(count), let rectangles {
                line.x = rectangles[glyph].x1
                line.top = rectangles[glyph].y1
            }
            result.append(line)
            current = String.UnicodeScalarView()
            firstGlyph = nil
        }
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                finish()
            } else {
                if firstGlyph == nil && !scalar.properties.isWhitespace { firstGlyph = position }
                current.append(scalar)
            }
            position += 1
        }
        if !current.isEmpty { finish() }
        // If poppler's rectangles do not line up with the characters, positions would mislead: drop them.
        if usable && Int(count) < position {
            return result.map { SourceNormalizer.PDFLine(text: $0.text) }
        }
        return result
    }

    /// Maps poppler's GError to an import error and frees it.
    private static func translate(_ error: UnsafeMutablePointer<GError>?, source: String, passwordGiven: Bool) -> ImportError {
        guard let error else { return .corruptPDF(source, reason: "poppler could not open it") }
        defer { g_error_free(error) }
        let message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
        if error.pointee.domain == poppler_error_quark(), error.pointee.code == Int32(POPPLER_ERROR_ENCRYPTED.rawValue) {
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
