/// The one entry point the CLI calls: any result, any format.
public enum OutputRenderer {
    /// Renders `result` as `format`'s bytes: the text formats as UTF-8 ending in a newline, an
    /// Anki package (``AnkiPackage``) as a zip.
    /// - Throws: as ``render(_:as:context:)``, and ``OutputError/packageFailed(reason:)``.
    public static func bytes(_ result: AnyStudyResult, as format: RenderFormat,
        context: RenderContext) throws(OutputError) -> [UInt8] {
        guard format == .apkg else {
            let text = try render(result, as: format, context: context)
            return Array((text.hasSuffix("\n") ? text : text + "\n").utf8)
        }
        guard format.supportedTasks.contains(result.task) else {
            throw .formatNotSupported(format: format, task: result.task, supported: format.supportedTasks)
        }
        return try AnkiPackage.bytes(for: result, context: context)
    }

    /// Renders `result` as `format`.
    ///
    /// Every model string is cleaned by ``TerminalSafety`` first. The text ends with a newline.
    /// - Throws: ``OutputError/formatNotSupported(format:task:supported:)`` when the format cannot
    ///   show this task (`mermaid` for a quiz, `anki` for a headline); ``OutputError/binaryOutput(format:)``
    ///   for `apkg`, which is no text (use ``bytes(_:as:context:)``).
    public static func render(_ result: AnyStudyResult, as format: RenderFormat,
        context: RenderContext) throws(OutputError) -> String {
        guard format.supportedTasks.contains(result.task) else {
            throw .formatNotSupported(format: format, task: result.task, supported: format.supportedTasks)
        }
        switch (format, result) {
        case (.markdown, _):
            return MarkdownRenderer.render(result, context: context)
        case (.json, _):
            return TerminalSafety.clean(result.jsonValue).prettyText + "\n"
        case (.anki, .flashcards(let cards)):
            return AnkiRenderer.render(cards, context: context)
        case (.anki, .quiz(let quiz)):
            return AnkiRenderer.render(quiz, context: context)
        case (.anki, .studyKit(let kit)):
            return AnkiRenderer.render(kit.flashcards, context: context)
        case (.mermaid, .mindMap(let map)):
            return MermaidRenderer.render(map)
        case (.mermaid, .studyKit(let kit)):
            return MermaidRenderer.render(kit.mindMap)
        case (.markmap, .mindMap(let map)):
            return MarkmapRenderer.render(map, context: context)
        case (.markmap, .studyKit(let kit)):
            return MarkmapRenderer.render(kit.mindMap, context: context)
        case (.opml, .mindMap(let map)):
            return OPMLRenderer.render(map, context: context)
        case (.opml, .summary(let summary)):
            return OPMLRenderer.render(summary, context: context)
        case (.opml, .studyKit(let kit)):
            return OPMLRenderer.render(kit, context: context)
        case (.html, _):
            return HTMLRenderer.render(result, context: context)
        case (.svg, .mindMap(let map)):
            return SVGRenderer.render(map, context: context)
        case (.srt, .podcast(let script)):
            return SRTRenderer.render(script, context: context)
        case (.svg, .studyKit(let kit)):
            return SVGRenderer.render(kit.mindMap, context: context)
        case (.apkg, _):
            throw .binaryOutput(format: format)
        default:
            // supportedTasks and the cases above list the same pairs; kept in step by tests.
            throw .formatNotSupported(format: format, task: result.task, supported: format.supportedTasks)
        }
    }
}
