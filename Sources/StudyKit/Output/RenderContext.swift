/// What a renderer knows besides the result: where it came from and how to name things.
///
/// The source identity keys Anki GUIDs, so it should be stable for "the same material": the
/// absolute path or the URL, not the title (which the model writes and may change).
public struct RenderContext: Sendable {
    /// Hashes text to a digest, as lower-case hex (SHA-256 in production).
    ///
    /// Injected because libcrypto is wrapped in exactly one file elsewhere in the package; a
    /// digest that is not hex is used by its UTF-8 bytes instead.
    public typealias Digest = @Sendable (String) -> String

    /// A stable name for the source: an absolute path, a URL, or `-` for stdin.
    public var sourceIdentity: String
    /// The source's title, if known; shown in headings and as the OPML/markmap title.
    public var title: String?
    /// The Anki deck the cards go to (`#deck:`); `::` separates subdecks.
    public var deckName: String
    /// Tags every Anki note carries; spaces inside a tag become `_`.
    public var tags: [String]
    /// The hash behind Anki GUIDs.
    public var digest: Digest
    /// Finds a card's quote in the source, for the page and section of an Anki note; `nil`
    /// when the document is not at hand (then notes name no page and carry no section tag).
    public var quoteLocator: QuoteLocator?
    /// The `--json` envelope of the result (engine, model, `fitted`, `items`, `parts`), when the
    /// caller has one; the HTML page shows this provenance.
    public var envelope: JSONValue?
    /// The document's language as a BCP 47 tag, for the HTML page's `lang`; see ``language(of:)``.
    public var language = "en"
    /// The 1-based PDF page a supporting quote came from, when the source has pages and the quote is found.
    public var pageOfQuote: (@Sendable (String) -> Int?)?
    /// The podcast's spoken turns' start and end in its audio, in seconds, when the audio was made
    /// (for SRT, and the page's transcript times).
    public var podcastTimes: [(start: Double, end: Double)]?
    /// The kit's optional podcast part (`import --with-podcast`), which the kit's page shows after
    /// the mind map; `nil` for a kit without one. (A `podcast` result carries its own script.)
    public var podcast: PodcastScript?
    /// The source's formulas as the page's MathML, by their span in the text (`$tex$`, `$$tex$$`):
    /// kit.html writes a formula the material had as its own MathML; a formula a model wrote
    /// stays TeX. Empty when the source had no MathML.
    public var formulas: [String: String] = [:]
    /// The podcast's audio as the page refers to it: a path relative to the page (`podcast.wav`
    /// beside `kit.html`), set only when the file was written there. The page then plays it with
    /// an `<audio controls>` element; the sound itself is never inlined.
    public var podcastAudioFile: String?

    /// Creates a context.
    /// - Parameters:
    ///   - sourceIdentity: a stable name for the source (absolute path or URL).
    ///   - title: the source's title, if known.
    ///   - deckName: the Anki deck; defaults to the title, else `studykit`.
    ///   - tags: tags for every Anki note.
    ///   - digest: hex SHA-256 of a string in production; any deterministic hash in tests.
    public init(
        sourceIdentity: String, title: String? = nil, deckName: String? = nil, tags: [String] = ["studykit"],
        digest: @escaping Digest
    ) {
        self.sourceIdentity = sourceIdentity
        self.title = title
        self.deckName = deckName ?? title ?? "studykit"
        self.tags = tags
        self.digest = digest
    }

    /// The language the HTML page declares for `document`: the detected one, or `und` (BCP-47's
    /// "undetermined", which `lang` accepts) when the text was too short to tell.
    public static func language(of document: Document) -> String {
        document.language
    }

    /// The MathML of `document`'s formulas by their span, for ``formulas``.
    public static func formulaMarkup(of document: Document) -> [String: String] {
        var markup: [String: String] = [:]
        for formula in document.formulas {
            if let mathML = formula.mathML, markup[formula.span] == nil { markup[formula.span] = mathML }
        }
        return markup
    }

    /// The title cleaned and on one line, or `nil` when there is none worth showing.
    var cleanTitle: String? {
        guard let title else { return nil }
        let line = ProseText.oneLine(TerminalSafety.clean(title))
        return line.isEmpty ? nil : line
    }
}

/// The text shapes studykit renders to. Raw values are the names users choose a format by.
public enum RenderFormat: String, Sendable, Equatable, CaseIterable {
    /// Readable Markdown; every task.
    case markdown
    /// The result alone as pretty JSON (the CLI's `--json` envelope is built elsewhere); every task.
    case json
    /// Anki's plain-text import; flashcards, quiz, and the whole kit (its flashcards).
    case anki
    /// An Anki package (`.apkg`, binary); flashcards, quiz, and the whole kit (both). See ``AnkiPackage``.
    case apkg
    /// Mermaid `mindmap`; mind map and the whole kit (its mind map).
    case mermaid
    /// Markdown for markmap; mind map and the whole kit (its mind map).
    case markmap
    /// OPML 2.0; mind map, summary, and the whole kit (mind map and key points).
    case opml
    /// One self-contained HTML page (inline CSS and script, no network); every task.
    case html
    /// The mind map drawn as a standalone SVG; mind map and the whole kit (its mind map).
    case svg
    /// SubRip subtitles; the podcast only, timed from its audio.
    case srt

    /// The tasks whose results this format can show, in CLI order.
    public var supportedTasks: [StudyTask] {
        switch self {
        case .markdown, .json, .html: return StudyTask.allCases
        case .anki: return [.flashcards, .quiz, .studyKit]
        case .mermaid, .markmap, .svg: return [.mindmap, .studyKit]
        case .opml: return [.summary, .mindmap, .studyKit]
        case .apkg: return [.flashcards, .quiz, .studyKit]
        case .srt: return [.podcast]
        }
    }
}
