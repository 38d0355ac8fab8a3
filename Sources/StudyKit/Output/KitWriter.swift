import Foundation

/// Writes a whole study kit into a directory, one file per format:
/// `kit.md`, `kit.json`, `cards.tsv` (Anki), `quiz.md`, `mindmap.mmd` (Mermaid), `mindmap.opml`,
/// `kit.html` (the page: cards, quiz and the drawn mind map) and `mindmap.svg`.
///
/// Every file is rendered before anything is written, then each is written to a hidden
/// temporary file in the same directory and renamed over its final name, so a reader never
/// sees a half-written file and a failure leaves none behind. Existing files are replaced.
public struct KitWriter: Sendable {
    /// The file names, in the order they are written.
    public static let fileNames = ["kit.md", "kit.json", "cards.tsv", "quiz.md", "mindmap.mmd", "mindmap.opml", "kit.html", "mindmap.svg"]

    /// Creates a writer.
    public init() {}

    /// The files' contents, keyed by file name; what ``write(_:json:to:context:)`` writes.
    /// - Parameter json: the JSON text for `kit.json` (the caller builds the envelope); a
    ///   missing final newline is added.
    public func files(for kit: StudyKitBundle, json: String, context: RenderContext) -> [(name: String, contents: String)] {
        [
            ("kit.md", MarkdownRenderer.render(kit, context: context)),
            ("kit.json", json.hasSuffix("\n") ? json : json + "\n"),
            ("cards.tsv", AnkiRenderer.render(kit.flashcards, context: context)),
            ("quiz.md", QuizRenderer.render(kit.quiz, context: quizContext(kit, context))),
            ("mindmap.mmd", MermaidRenderer.render(kit.mindMap)),
            ("mindmap.opml", OPMLRenderer.render(kit.mindMap, context: quizContext(kit, context))),
            ("kit.html", HTMLRenderer.render(.studyKit(kit), context: context)),
            ("mindmap.svg", SVGRenderer.render(kit.mindMap, context: context)),
        ]
    }

    /// Writes the kit into `directory`, creating it (and its parents) when missing.
    /// - Returns: the written files, in ``fileNames`` order.
    /// - Throws: ``OutputError/notADirectory(path:)`` when `directory` (or a parent) is a file;
    ///   ``OutputError/writeFailed(path:reason:)`` naming the file that could not be written.
    @discardableResult
    public func write(_ kit: StudyKitBundle, json: String, to directory: URL, context: RenderContext) throws(OutputError) -> [URL] {
        let files = files(for: kit, json: json, context: context)
        try makeDirectory(directory)
        var written: [URL] = []
        for file in files {
            let url = directory.appendingPathComponent(file.name)
            try writeAtomically(Data(file.contents.utf8), to: url)
            written.append(url)
        }
        return written
    }

    /// Writes the optional podcast part (`import --with-podcast`) as `podcast.md` into `directory`.
    /// - Returns: the written file.
    public func writePodcast(_ script: PodcastScript, to directory: URL, context: RenderContext) throws(OutputError) -> URL {
        try makeDirectory(directory)
        let url = directory.appendingPathComponent("podcast.md")
        try writeAtomically(Data(MarkdownRenderer.render(script, context: context).utf8), to: url)
        return url
    }

    // MARK: - File system

    /// The standalone quiz and outline files are named after the kit's own headline.
    private func quizContext(_ kit: StudyKitBundle, _ context: RenderContext) -> RenderContext {
        var titled = context
        titled.title = kit.headline.title
        return titled
    }

    private func makeDirectory(_ directory: URL) throws(OutputError) {
        let path = directory.path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw .notADirectory(path: path) }
            return
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            // A parent that is a file is the common way this fails; say so plainly.
            if let file = firstFileAncestor(of: directory) { throw .notADirectory(path: file) }
            throw .writeFailed(path: path, reason: Self.reason(error))
        }
    }

    private func firstFileAncestor(of directory: URL) -> String? {
        var candidate = directory.deletingLastPathComponent()
        while candidate.path != "/" && !candidate.path.isEmpty {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory) {
                return isDirectory.boolValue ? nil : candidate.path
            }
            candidate = candidate.deletingLastPathComponent()
        }
        return nil
    }

    private func writeAtomically(_ data: Data, to url: URL) throws(OutputError) {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try data.write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw .writeFailed(path: url.path, reason: Self.reason(error))
        }
        // rename(2) replaces the destination atomically; FileManager's move refuses to replace.
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw .writeFailed(path: url.path, reason: reason.lowercased())
        }
    }

    /// The system's reason, lower-case and without Foundation's framing where possible.
    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
           let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return String(cString: strerror(code.rawValue)).lowercased()
        }
        if nsError.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(nsError.code))).lowercased()
        }
        return nsError.localizedDescription.lowercased()
    }
}
