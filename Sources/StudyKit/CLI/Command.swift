// MARK: - Commands

/// Everything the CLI can be asked to do, after parsing and validation.
enum Command: Sendable, Equatable {
    /// `studykit text <source> [--body]`: with `bodyOnly`, the body alone, as the kit reads it.
    case text(source: String, SourceSettings, bodyOnly: Bool = false)
    /// A generating command (`headline`, `feynman`, `summary`, `flashcards`, `quiz`, `mindmap`, `import`).
    case generate(GenerateSettings)
    /// `studykit route <task> --chars N` or `studykit route <task> <source> --explain`.
    case route(task: StudyTask, input: RouteInput, json: Bool, SourceSettings, maxChunks: Int? = nil, jobs: Int? = nil)
    /// `studykit engines`; `refresh` forgets the cached server discovery first.
    case engines(json: Bool, refresh: Bool = false)
    /// `studykit eval <files or dirs…>`.
    case eval(EvalSettings)
    /// `studykit batch <dirs or files…> --out OUT`.
    case batch(BatchSettings)
    /// `studykit schema <task>`.
    case schema(task: StudyTask, strict: Bool)
    /// `studykit cache stats`.
    case cacheStats(json: Bool)
    /// `studykit cache clear [--task T]`.
    case cacheClear(task: StudyTask?)
    /// `studykit cache clear --attempts`: forget the capability memory.
    case forgetAttempts
    /// `--help` for the tool or one command.
    case help(command: String?)
    /// `--version`.
    case version
}

/// How a source is read.
struct SourceSettings: Sendable, Equatable {
    /// The password of an encrypted PDF.
    public var password: String?
    /// The download size cap in bytes.
    public var maxBytes: Int?
    /// The download deadline in seconds.
    public var deadline: Double?

    /// Creates settings; `nil` means the importer's default.
    public init(password: String? = nil, maxBytes: Int? = nil, deadline: Double? = nil) {
        self.password = password
        self.maxBytes = maxBytes
        self.deadline = deadline
    }
}

/// What `route` is asked about: a bare character count, or a real source to plan.
enum RouteInput: Sendable, Equatable {
    /// `--chars N`: the pure policy only.
    case characterCount(Int)
    /// `<source> --explain`: the whole plan.
    case explain(source: String)
}

/// Everything a generating command needs.
struct GenerateSettings: Sendable, Equatable {
    /// The task.
    public var task: StudyTask
    /// The source argument; `nil` means stdin.
    public var source: String?
    /// The output format.
    public var format: RenderFormat
    /// The engine choice.
    public var engine: EngineChoice
    /// Never call the remote engine.
    public var offline: Bool
    /// Bypass the cache.
    public var noCache: Bool
    /// Show the result while it is generated.
    public var stream: Bool
    /// Silence progress.
    public var quiet: Bool
    /// Explain decisions on stderr.
    public var verbose: Bool
    /// Where `import` writes its files.
    public var outputDirectory: String?
    /// Feynman: the concept being explained.
    public var concept: String?
    /// Feynman: the student's explanation (else read from stdin).
    public var explanation: String?
    /// How the source is read.
    public var sourceSettings: SourceSettings
    /// `--budget`: seconds the whole job may take; `nil` for the command's default.
    public var budget: Double? = nil
    /// `podcast --audio`: where to write the podcast's sound.
    var audioPath: String? = nil
    /// `import --with-podcast`: add the podcast part.
    var withPodcast = false
    /// `import --with-podcast --out --audio-format`: the kit's sound, `wav` or `ogg`.
    var audioFormat = "wav"
    /// A kit without its podcast's audio (no espeak-ng or sox) goes without the note on stderr:
    /// `batch` says it once for all its kits.
    var quietAboutAudio = false
    /// `--jobs`: chunk requests in flight at once; `nil` for the serving engine's default.
    var jobs: Int? = nil
    /// `--max-chunks`: chunks sent to a model at most; `nil` for no cap.
    var maxChunks: Int? = nil
    /// `--cards` and `--questions`; by default the counts follow the material (#54).
    var size = KitSize.followsMaterial

    /// Creates settings with the defaults of the CLI.
    public init(
        task: StudyTask, source: String? = nil, format: RenderFormat = .markdown, engine: EngineChoice = .auto,
        offline: Bool = false, noCache: Bool = false, stream: Bool = false, quiet: Bool = false,
        verbose: Bool = false, outputDirectory: String? = nil, concept: String? = nil, explanation: String? = nil,
        sourceSettings: SourceSettings = SourceSettings()
    ) {
        self.task = task
        self.source = source
        self.format = format
        self.engine = engine
        self.offline = offline
        self.noCache = noCache
        self.stream = stream
        self.quiet = quiet
        self.verbose = verbose
        self.outputDirectory = outputDirectory
        self.concept = concept
        self.explanation = explanation
        self.sourceSettings = sourceSettings
    }
}

/// What `studykit eval` measures.
struct EvalSettings: Sendable, Equatable {
    /// Files and directories of documents.
    var sources: [String]
    /// The tasks measured.
    var tasks: [StudyTask] = EvalPlan.measurableTasks
    /// The engines measured, each forced.
    var engines: [EngineKind] = EvalPlan.defaultEngines
    /// Runs of each document × task × engine.
    var repeats = 1
    /// The most requests eval may send to the remote engine (they are real, billed calls).
    var maxRequests = 100
    /// Print JSON instead of the table.
    var json = false
    /// No progress lines on stderr.
    var quiet = false
    /// How sources are read.
    var sourceSettings = SourceSettings()
}

/// What `studykit batch` does: one kit per document, as `import --out` writes it.
struct BatchSettings: Sendable, Equatable {
    /// Files, directories (searched recursively) and URLs.
    var sources: [String]
    /// The folder that receives one kit folder per document.
    var outputDirectory: String
    /// Documents generated at the same time; `nil` picks the default from the engines that serve.
    var jobs: Int?
    /// The engine choice, for every document.
    var engine: EngineChoice = .auto
    /// Never call the remote engine.
    var offline = false
    /// Bypass the cache, and regenerate kits that are up to date.
    var noCache = false
    /// `--budget`: seconds each document's job may take.
    var budget: Double?
    /// Print one JSON object instead of the lines.
    var json = false
    /// No progress on stderr.
    var quiet = false
    /// Explain decisions on stderr.
    var verbose = false
    /// Add the podcast part to every kit.
    var withPodcast = false
    /// `--audio-format`: each kit's podcast sound, `wav` (podcast.wav) or `ogg` (podcast.ogg).
    var audioFormat = "wav"
    /// How sources are read.
    var sourceSettings = SourceSettings()
}
