// MARK: - Option vocabulary

/// One option a command accepts.
struct OptionSpec: Sendable, Equatable {
    /// The long name without dashes (`format`).
    public let name: String
    /// The value's placeholder (`<format>`), or `nil` for a flag.
    public let valueName: String?
    /// One line for `--help`.
    public let help: String

    init(_ name: String, value: String? = nil, _ help: String) {
        self.name = name
        self.valueName = value
        self.help = help
    }

    /// Whether the option takes a value.
    public var takesValue: Bool { valueName != nil }
}

/// Options every command understands.
let commonOptions: [OptionSpec] = [
    OptionSpec("help", "show help for this command"),
    OptionSpec("quiet", "no progress on stderr"),
    OptionSpec("verbose", "explain fallbacks and decisions on stderr"),
]

/// Options every generating command understands.
let generationOptions: [OptionSpec] = [
    OptionSpec("json", "print one JSON object: result plus how it was made"),
    OptionSpec("format", value: "format",
        "markdown (default), json, anki, apkg, mermaid, markmap, opml, html, svg, srt"),
    OptionSpec("engine", value: "engine", "auto (default), local, remote or builtin; a forced engine never falls back"),
    OptionSpec("offline", "never use the remote engine"),
    OptionSpec("no-cache", "neither read nor write the result cache"),
    OptionSpec("budget", value: "seconds",
        "time the whole job may take, all its chunks together; builtin fills what does not fit (default 30 with only "
            + "local models)"),
    OptionSpec("stream", "show the result while it is generated"),
    OptionSpec("out", value: "dir", "write the kit's files into this directory"),
]

/// Options of the commands that read a document too long for any window in chunks.
let chunkOptions: [OptionSpec] = [
    OptionSpec("jobs", value: "n",
        "chunk requests in flight at once (default: what the serving model server takes at once, at most 4: its slots, "
            + "1 for llama-cpp-python; 1 in process)"),
    OptionSpec("max-chunks", value: "n",
        "send at most n chunks to a model; the builtin engine takes the rest (default: no cap)"),
]

/// `--cards`: the deck's size (#54).
let cardsOption = OptionSpec(
    "cards", value: "n",
    "flashcards to make (default: about one per 700 characters of distinct body text and one per section, 12 to 400)")
/// `--questions`: the quiz's size (#54).
let questionsOption = OptionSpec("questions", value: "n", "quiz questions to make (default: half the cards, 8 to 200)")

/// Options that shape how a source is read.
let sourceOptions: [OptionSpec] = [
    OptionSpec("password", value: "password", "password of an encrypted PDF"),
    OptionSpec("max-bytes", value: "n",
        "largest source accepted (file, stdin or download), in bytes (default 50000000)"),
    OptionSpec("deadline", value: "seconds", "total time allowed for a download (default 30)"),
]

// MARK: - Command table

/// What a command does, so the parser handles every command in the table (the compiler checks it).
enum CommandKind: Sendable, Equatable {
    /// `text`: the normalized source, no model.
    case text
    /// A generating command and the task it runs.
    case generate(StudyTask)
    /// `route`.
    case route
    /// `engines`.
    case engines
    /// `schema`.
    case schema
    /// `cache`.
    case cache
    /// `eval`.
    case eval
    /// `batch`.
    case batch
}

/// One command's name, arguments and options, used for parsing and for `--help`.
struct CommandSpec: Sendable {
    let name: String
    let kind: CommandKind
    let usage: String
    let summary: String
    let options: [OptionSpec]
    let example: String
    /// Paragraph lines `--help` shows after the options (what the summary has no room for).
    var details: [String] = []

    static let all: [CommandSpec] = [
        CommandSpec(
            name: "text", kind: .text, usage: "studykit text <source> [--body]",
            summary: "print the normalized text of a source (no model): the body, then its apparatus",
            options: sourceOptions + [
                OptionSpec("body", "only the body: exactly what the kit reads, without the apparatus")
            ],
            example: "studykit text samples/notes.pdf",
            details: [
                "The body is what a kit studies. The apparatus (references, notes, citations, further reading, "
                    + "external links, navigation, captions, credits, bylines, share lines) follows it under the line "
                    + "'\(Document.apparatusRule)', and is never studied. Formulas are TeX: $…$ inline, $$…$$ on a "
                    + "line of their own.",
            ]),
        CommandSpec(
            name: "headline", kind: .generate(.headline), usage: "studykit headline [<source>]",
            summary: "a title of at most six words and a one-line blurb; reads stdin without a source",
            options: generationOptions + sourceOptions, example: "studykit headline < samples/paste.txt"),
        CommandSpec(
            name: "feynman", kind: .generate(.feynman),
            usage: "studykit feynman <source> --concept <concept> [--explanation <text>]",
            summary: "feedback on your own explanation of a concept (explanation from stdin when not given)",
            options: generationOptions + sourceOptions + [
                OptionSpec("concept", value: "concept", "the concept you are explaining (required)"),
                OptionSpec("explanation", value: "text", "your explanation; read from stdin when absent"),
            ],
            example: "studykit feynman samples/notes.pdf --concept 'light reactions' --explanation 'Light splits "
                + "water…'"),
        CommandSpec(
            name: "summary", kind: .generate(.summary), usage: "studykit summary <source>",
            summary: "an overview and key points",
            options: generationOptions + chunkOptions + sourceOptions,
            example: "studykit summary samples/article.html"),
        CommandSpec(
            name: "flashcards", kind: .generate(.flashcards), usage: "studykit flashcards <source>",
            summary: "question/answer cards with a supporting quote",
            options: generationOptions + chunkOptions + sourceOptions + [cardsOption],
            example: "studykit flashcards samples/notes.pdf --format anki > cards.tsv"),
        CommandSpec(
            name: "quiz", kind: .generate(.quiz), usage: "studykit quiz <source>", summary: "multiple-choice questions",
            options: generationOptions + chunkOptions + sourceOptions + [questionsOption],
            example: "studykit quiz samples/notes.pdf"),
        CommandSpec(
            name: "mindmap", kind: .generate(.mindmap), usage: "studykit mindmap <source>",
            summary: "a mind map of the material",
            options: generationOptions + chunkOptions + sourceOptions,
            example: "studykit mindmap samples/notes.pdf --format mermaid"),
        CommandSpec(
            name: "podcast", kind: .generate(.podcast),
            usage: "studykit podcast <source> [--audio <file.wav|file.ogg>]",
            summary: "a two-host podcast script, each explainer line quoted from the material; --audio speaks it "
                + "(espeak-ng, sox)",
            options: generationOptions + sourceOptions + [
                OptionSpec("audio", value: "file",
                    "also write the podcast as sound: WAV, or Ogg Vorbis for a .ogg name"),
            ],
            example: "studykit podcast samples/notes.pdf --audio notes.wav"),
        CommandSpec(
            name: "import", kind: .generate(.studyKit),
            usage: "studykit import <source> [--out <dir>] [--with-podcast]", summary: "the whole study kit",
            options: generationOptions + chunkOptions + sourceOptions + [cardsOption, questionsOption] + [
                OptionSpec("with-podcast",
                    "add the podcast part (with --out: podcast.md, podcast.wav when espeak-ng and sox are installed; "
                        + "kit.html shows it)"),
                OptionSpec("audio-format", value: "wav|ogg",
                    "the kit's podcast sound: podcast.wav (default) or podcast.ogg (Ogg Vorbis)"),
            ],
            example: "studykit import samples/notes.pdf --out kit/"),
        CommandSpec(
            name: "batch", kind: .batch, usage: "studykit batch <dirs or files…> --out <dir> [--jobs <n>]",
            summary: "a study kit for every PDF, HTML, Markdown and text file of folders, each in <dir>/<name>/",
            options: generationOptions.filter { ["engine", "offline",
                "no-cache"].contains($0.name) } + sourceOptions + [
                OptionSpec("json", "print one JSON object: each document's outcome, then the totals"),
                OptionSpec("budget", value: "seconds",
                    "time each document's kit may take; builtin fills what does not fit"),
                OptionSpec("out", value: "dir", "the folder that receives one kit folder per document (required)"),
                OptionSpec("jobs", value: "n",
                    "documents at a time (default 1 when only local engines serve, else what the remote server takes "
                        + "at once, at most 4)"),
                OptionSpec("with-podcast", "add the podcast part to every kit"),
                OptionSpec("audio-format", value: "wav|ogg",
                    "each kit's podcast sound: podcast.wav (default) or podcast.ogg (Ogg Vorbis)"),
            ],
            example: "studykit batch samples/eval --out kits/ --engine builtin",
            details: [
                "Folders are searched recursively; hidden files, READMEs and the --out folder are left out. Each kit",
                "folder holds the files 'import --out' writes. A document whose kit is complete and whose",
                "file is unchanged (SHA-256) is skipped (--no-cache makes it again); the cache makes an",
                "interrupted run cheap to resume.",
                "At the end, one line per document in the order given: OK and the engines used, SKIPPED, or",
                "FAILED and the error. A failed document never stops the others.",
                "EXIT STATUS: 0 when every document succeeded or was skipped; otherwise the exit code of the",
                "first failed document in that order (65 bad data, 66 missing or unreadable, 69 no engine, 1 else).",
            ]),
        CommandSpec(
            name: "route", kind: .route,
            usage: "studykit route <task> --chars <n> | studykit route <task> <source> --explain",
            summary: "where a task would run: the pure policy, or the whole plan without generating",
            options: sourceOptions + [
                OptionSpec("chars", value: "n", "a normalized character count"),
                OptionSpec("explain",
                    "plan a real source: windows, token counts, fitting or the chunk plan, cache key"),
                OptionSpec("max-chunks", value: "n", "with --explain: the cap the chunk plan shows"),
                OptionSpec("jobs", value: "n",
                    "with --explain: the chunk requests in flight at once the plan shows (default: what the server "
                        + "takes at once, as a real run)"),
                OptionSpec("json", "print the plan as JSON"),
            ],
            example: "studykit route headline --chars 2001"),
        CommandSpec(
            name: "engines", kind: .engines, usage: "studykit engines",
            summary: "each engine's availability, model, window and quota",
            options: [
                OptionSpec("json", "print JSON"),
                OptionSpec("refresh", "ask each server again instead of using the discovery cached for a day"),
            ], example: "studykit engines --refresh"),
        CommandSpec(
            name: "eval", kind: .eval,
            usage: "studykit eval <files or dirs…> [--tasks <list>] [--engines <list>] [--repeat <n>]",
            summary: "measure each engine: valid answers, grounded items, drops, coverage, time and tokens (no cache, "
                + "no budget)",
            options: sourceOptions + [
                OptionSpec("tasks", value: "list",
                    "comma-separated: headline, summary, flashcards, quiz, mindmap (default all five), podcast"),
                OptionSpec("engines", value: "list",
                    "comma-separated: builtin, local, remote (default builtin,local; remote calls are billed)"),
                OptionSpec("repeat", value: "n", "runs of each document × task × engine (default 1)"),
                OptionSpec("max-requests", value: "n",
                    "refuse a plan that could send more requests to remote (default 100)"),
                OptionSpec("json", "print JSON: every row and every run"),
            ],
            example: "studykit eval samples/eval --engines builtin,local"),
        CommandSpec(
            name: "schema", kind: .schema, usage: "studykit schema <task>", summary: "the JSON Schema a task generates",
            options: [OptionSpec("strict", "the strict variant (additionalProperties false, all required)")],
            example: "studykit schema quiz"),
        CommandSpec(
            name: "cache", kind: .cache,
            usage: "studykit cache stats | studykit cache clear [--task <task> | --attempts]",
            summary: "inspect the cache file, or clear its results and server discoveries (the ledger and attempts "
                + "stay)",
            options: [
                OptionSpec("task", value: "task", "with clear: only this task's results (discoveries stay)"),
                OptionSpec("attempts",
                    "with clear: forget every model's record of attempts instead (studykit engines shows it)"),
                OptionSpec("json", "print JSON"),
            ],
            example: "studykit cache stats"),
    ].map { spec in
        CommandSpec(
            name: spec.name, kind: spec.kind, usage: spec.usage, summary: spec.summary,
            options: commonOptions + spec.options, example: spec.example, details: spec.details)
    }

    static func named(_ name: String) -> CommandSpec? { all.first { $0.name == name } }
}
