import Foundation

/// Writes a whole study kit into a directory, one file per format:
/// `kit.md`, `kit.json`, `cards.tsv` (Anki), `cards.apkg` (an Anki package of the cards and the
/// quiz), `quiz.md`, `mindmap.mmd` (Mermaid), `mindmap.opml`, `kit.html` (the page: cards, quiz
/// and the drawn mind map) and `mindmap.svg`. A deck with both question and cloze cards also
/// gets `cloze.tsv`: then `cards.tsv` holds the Basic notes and `cloze.tsv` the Cloze notes (see
/// ``AnkiRenderer/files(_:context:)``); a `cloze.tsv` left by an earlier kit is removed when the
/// new deck needs none, so the directory never mixes two kits. With the context's
/// ``QuoteLocator``, `cards.tsv`, `cards.apkg` and `kit.html` are grouped the same way: by the
/// document's top-level sections (``SectionGroups``: Anki subdecks, the page's groups).
///
/// Every file is rendered before anything is written, then each is written to a hidden
/// temporary file in the same directory and renamed over its final name, so a reader never
/// sees a half-written file and a failure leaves none behind. Existing files are replaced.
public struct KitWriter: Sendable {
    /// The files every kit has, in the order they are written (`cloze.tsv`, when written, follows `cards.tsv`).
    public static let fileNames = [
        "kit.md", "kit.json", "cards.tsv", "cards.apkg", "quiz.md", "mindmap.mmd", "mindmap.opml", "kit.html",
        "mindmap.svg",
    ]

    /// Creates a writer.
    public init() {}

    /// The files' contents, keyed by file name; what ``write(_:json:to:context:)`` writes.
    /// - Parameter json: the JSON text for `kit.json` (the caller builds the envelope); a
    ///   missing final newline is added.
    /// - Throws: ``OutputError/packageFailed(reason:)`` when the Anki package cannot be built.
    public func files(for kit: StudyKitBundle, json: String,
        context: RenderContext) throws(OutputError) -> [(name: String, contents: [UInt8])] {
        func text(_ name: String, _ contents: String) -> (name: String,
            contents: [UInt8]) { (name, Array(contents.utf8)) }
        return [
            text("kit.md", MarkdownRenderer.render(kit, context: context)),
            text("kit.json", json.hasSuffix("\n") ? json : json + "\n"),
        ] + AnkiRenderer.files(kit.flashcards, context: context).map { text($0.name, $0.contents) } + [
            ("cards.apkg", try AnkiPackage.bytes(for: .studyKit(kit), context: context)),
            text("quiz.md", QuizRenderer.render(kit.quiz, context: quizContext(kit, context))),
            text("mindmap.mmd", MermaidRenderer.render(kit.mindMap)),
            text("mindmap.opml", OPMLRenderer.render(kit.mindMap, context: quizContext(kit, context))),
            text("kit.html", HTMLRenderer.render(.studyKit(kit), context: context)),
            text("mindmap.svg", SVGRenderer.render(kit.mindMap, context: context)),
        ]
    }

    /// Writes the kit into `directory`, creating it (and its parents) when missing.
    /// - Returns: the written files, in ``fileNames`` order (`cloze.tsv` after `cards.tsv` when written).
    /// - Throws: ``OutputError/notADirectory(path:)`` when `directory` (or a parent) is a file;
    ///   ``OutputError/writeFailed(path:reason:)`` naming the file that could not be written.
    @discardableResult
    public func write(_ kit: StudyKitBundle, json: String, to directory: URL,
        context: RenderContext) throws(OutputError) -> [URL] {
        let files = try files(for: kit, json: json, context: context)
        try makeDirectory(directory)
        var written: [URL] = []
        for file in files {
            let url = directory.appendingPathComponent(file.name)
            try writeAtomically(Data(file.contents), to: url)
            written.append(url)
        }
        // A mixed deck's Cloze file from an earlier kit would import stale notes next to the new ones.
        if !files.contains(where: { $0.name == AnkiRenderer.clozeFile }) {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(AnkiRenderer.clozeFile))
        }
        return written
    }

    /// Writes the optional podcast part (`import --with-podcast`) as `podcast.md` into `directory`.
    /// - Returns: the written file.
    public func writePodcast(_ script: PodcastScript, to directory: URL,
        context: RenderContext) throws(OutputError) -> URL {
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

    /// Creates `directory` and its parents; a file in the way is ``OutputError/notADirectory(path:)``.
    func makeDirectory(_ directory: URL) throws(OutputError) {
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
    static func reason(_ error: any Error) -> String {
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
