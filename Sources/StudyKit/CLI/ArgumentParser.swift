// MARK: - Option vocabulary

/// One option a command accepts.
public struct OptionSpec: Sendable, Equatable {
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
    OptionSpec("format", value: "format", "markdown (default), json, anki, mermaid, markmap, opml"),
    OptionSpec("engine", value: "engine", "auto (default), local, remote or builtin; a forced engine never falls back"),
    OptionSpec("offline", "never use the remote engine"),
    OptionSpec("no-cache", "neither read nor write the result cache"),
    OptionSpec("budget", value: "seconds", "time the whole job may take; builtin fills what does not fit (default 30 with only local models)"),
    OptionSpec("stream", "show the result while it is generated"),
    OptionSpec("out", value: "dir", "write the kit's files into this directory"),
    OptionSpec("password", value: "password", "password of an encrypted PDF"),
]

/// Options that shape how a source is read.
let sourceOptions: [OptionSpec] = [
    OptionSpec("password", value: "password", "password of an encrypted PDF"),
    OptionSpec("max-bytes", value: "n", "largest download accepted, in bytes (default 20000000)"),
    OptionSpec("deadline", value: "seconds", "total time allowed for a download (default 30)"),
]

// MARK: - Commands

/// Everything the CLI can be asked to do, after parsing and validation.
public enum Command: Sendable, Equatable {
    /// `studykit text <source>`.
    case text(source: String, SourceSettings)
    /// A generating command (`headline`, `feynman`, `summary`, `flashcards`, `quiz`, `mindmap`, `import`).
    case generate(GenerateSettings)
    /// `studykit route <task> --chars N` or `studykit route <task> <source> --explain`.
    case route(task: StudyTask, input: RouteInput, json: Bool, SourceSettings)
    /// `studykit engines`.
    case engines(json: Bool)
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
public struct SourceSettings: Sendable, Equatable {
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
public enum RouteInput: Sendable, Equatable {
    /// `--chars N`: the pure policy only.
    case characterCount(Int)
    /// `<source> --explain`: the whole plan.
    case explain(source: String)
}

/// Which engine the user asks for.
public enum EngineChoice: String, Sendable, Equatable, CaseIterable {
    /// Follow the policy and fall back silently.
    case auto
    /// Only the local engine, no fallback.
    case local
    /// Only the remote engine, no fallback.
    case remote
    /// Only the builtin extractive engine.
    case builtin
}

/// Everything a generating command needs.
public struct GenerateSettings: Sendable, Equatable {
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

// MARK: - Command table

/// One command's name, arguments and options, used for parsing and for `--help`.
struct CommandSpec: Sendable {
    let name: String
    let usage: String
    let summary: String
    let options: [OptionSpec]
    let example: String

    static let all: [CommandSpec] = [
        CommandSpec(
            name: "text", usage: "studykit text <source>", summary: "print the normalized text of a source (no model)",
            options: sourceOptions, example: "studykit text samples/notes.pdf"),
        CommandSpec(
            name: "headline", usage: "studykit headline [<source>]",
            summary: "a title of at most six words and a one-line blurb; reads stdin without a source",
            options: generationOptions + sourceExtras, example: "studykit headline < samples/paste.txt"),
        CommandSpec(
            name: "feynman", usage: "studykit feynman <source> --concept <concept> [--explanation <text>]",
            summary: "feedback on your own explanation of a concept (explanation from stdin when not given)",
            options: generationOptions + sourceExtras + [
                OptionSpec("concept", value: "concept", "the concept you are explaining (required)"),
                OptionSpec("explanation", value: "text", "your explanation; read from stdin when absent"),
            ],
            example: "studykit feynman samples/notes.pdf --concept 'light reactions' --explanation 'Light splits water…'"),
        CommandSpec(
            name: "summary", usage: "studykit summary <source>", summary: "an overview and key points",
            options: generationOptions + sourceExtras, example: "studykit summary samples/article.html"),
        CommandSpec(
            name: "flashcards", usage: "studykit flashcards <source>",
            summary: "question/answer cards with a supporting quote", options: generationOptions + sourceExtras,
            example: "studykit flashcards samples/notes.pdf --format anki > cards.tsv"),
        CommandSpec(
            name: "quiz", usage: "studykit quiz <source>", summary: "multiple-choice questions",
            options: generationOptions + sourceExtras, example: "studykit quiz samples/notes.pdf"),
        CommandSpec(
            name: "mindmap", usage: "studykit mindmap <source>", summary: "a mind map of the material",
            options: generationOptions + sourceExtras, example: "studykit mindmap samples/notes.pdf --format mermaid"),
        CommandSpec(
            name: "import", usage: "studykit import <source> [--out <dir>]", summary: "the whole study kit",
            options: generationOptions + sourceExtras, example: "studykit import samples/notes.pdf --out kit/"),
        CommandSpec(
            name: "route", usage: "studykit route <task> --chars <n> | studykit route <task> <source> --explain",
            summary: "where a task would run: the pure policy, or the whole plan without generating",
            options: sourceOptions + [
                OptionSpec("chars", value: "n", "a normalized character count"),
                OptionSpec("explain", "plan a real source: windows, token counts, fitting, cache key"),
                OptionSpec("json", "print the plan as JSON"),
            ],
            example: "studykit route headline --chars 2001"),
        CommandSpec(
            name: "engines", usage: "studykit engines", summary: "each engine's availability, model, window and quota",
            options: [OptionSpec("json", "print JSON")], example: "studykit engines"),
        CommandSpec(
            name: "schema", usage: "studykit schema <task>", summary: "the JSON Schema a task generates",
            options: [OptionSpec("strict", "the strict variant (additionalProperties false, all required)")],
            example: "studykit schema quiz"),
        CommandSpec(
            name: "cache", usage: "studykit cache stats | studykit cache clear [--task <task> | --attempts]",
            summary: "inspect or clear the result cache",
            options: [
                OptionSpec("task", value: "task", "with clear: only this task's entries"),
                OptionSpec("attempts", "with clear: forget every model's record of attempts instead (studykit engines shows it)"),
                OptionSpec("json", "print JSON"),
            ],
            example: "studykit cache stats"),
    ].map { spec in
        CommandSpec(
            name: spec.name, usage: spec.usage, summary: spec.summary,
            options: uniqued(commonOptions + spec.options), example: spec.example)
    }

    private static let sourceExtras: [OptionSpec] = [
        OptionSpec("max-bytes", value: "n", "largest download accepted, in bytes (default 20000000)"),
        OptionSpec("deadline", value: "seconds", "total time allowed for a download (default 30)"),
    ]

    static func named(_ name: String) -> CommandSpec? { all.first { $0.name == name } }

    private static func uniqued(_ options: [OptionSpec]) -> [OptionSpec] {
        var seen = Set<String>()
        return options.filter { seen.insert($0.name).inserted }
    }
}

// MARK: - Errors

/// A command line that cannot be run. Always exit 64.
public enum UsageError: StudyKitError, Equatable {
    /// No command was given.
    case missingCommand
    /// The first word is not a command.
    case unknownCommand(String, suggestion: String?)
    /// An option the command does not know.
    case unknownOption(String, command: String, suggestion: String?)
    /// An option that needs a value got none.
    case missingValue(option: String)
    /// A flag was given a value.
    case unexpectedValue(option: String)
    /// A required argument is absent.
    case missingArgument(String, command: String)
    /// More positional arguments than the command takes.
    case unexpectedArgument(String, command: String)
    /// A value is not one of the allowed ones.
    case invalidValue(option: String, value: String, expected: String)

    /// One line in the style of swift-argument-parser.
    public var message: String {
        switch self {
        case .missingCommand:
            return "Missing command. See 'studykit --help'."
        case .unknownCommand(let word, let suggestion):
            return "Unknown command '\(word)'." + (suggestion.map { " Did you mean '\($0)'?" } ?? " See 'studykit --help'.")
        case .unknownOption(let option, let command, let suggestion):
            return "Unknown option '\(option)'."
                + (suggestion.map { " Did you mean '\($0)'?" } ?? " See '\(helpCommand(command))'.")
        case .missingValue(let option):
            return "Missing value for option '\(option)'."
        case .unexpectedValue(let option):
            return "Option '\(option)' does not take a value."
        case .missingArgument(let argument, let command):
            return "Missing expected argument '\(argument)'. See '\(helpCommand(command))'."
        case .unexpectedArgument(let argument, let command):
            return "Unexpected argument '\(argument)'. See '\(helpCommand(command))'."
        case .invalidValue(let option, let value, let expected):
            return "Invalid value '\(value)' for '\(option)': expected \(expected)."
        }
    }

    private func helpCommand(_ command: String) -> String {
        command.isEmpty ? "studykit --help" : "studykit \(command) --help"
    }

    /// Always ``ExitCode/usage``.
    public var exitCode: ExitCode { .usage }
}

// MARK: - Phase 1: words into raw arguments

/// The command line split into words, before validation.
struct RawArguments: Equatable {
    var command: String?
    var positionals: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []
}

/// Splits argv against the command table: `--name value`, `--name=value`, flags, `--` and `-`.
func splitArguments(_ arguments: [String]) throws(UsageError) -> RawArguments {
    var raw = RawArguments()
    var index = 0
    var onlyPositionals = false
    while index < arguments.count {
        let word = arguments[index]
        index += 1
        if onlyPositionals || word == "-" || !word.hasPrefix("-") {
            if raw.command == nil {
                raw.command = word
            } else {
                raw.positionals.append(word)
            }
            continue
        }
        if word == "--" {
            onlyPositionals = true
            continue
        }
        if word == "-h" {
            raw.flags.insert("help")
            continue
        }
        guard word.hasPrefix("--") else {
            throw .unknownOption(word, command: raw.command ?? "", suggestion: nil)
        }
        let body = word.dropFirst(2)
        let name: String
        var inlineValue: String?
        if let equals = body.firstIndex(of: "=") {
            name = String(body[..<equals])
            inlineValue = String(body[body.index(after: equals)...])
        } else {
            name = String(body)
        }
        if raw.command == nil, name == "help" || name == "version" {
            raw.flags.insert(name)
            continue
        }
        let spec = try optionSpec(named: name, written: "--\(name)", command: raw.command)
        if spec.takesValue {
            if let inlineValue {
                raw.values[name] = inlineValue
            } else if index < arguments.count, arguments[index] == "-" || !arguments[index].hasPrefix("--") {
                raw.values[name] = arguments[index]
                index += 1
            } else {
                throw .missingValue(option: "--\(name)")
            }
        } else {
            if inlineValue != nil { throw .unexpectedValue(option: "--\(name)") }
            raw.flags.insert(name)
        }
    }
    return raw
}

private func optionSpec(named name: String, written: String, command: String?) throws(UsageError) -> OptionSpec {
    let options: [OptionSpec]
    if let command, let spec = CommandSpec.named(command) {
        options = spec.options
    } else {
        options = [OptionSpec("help", "show help"), OptionSpec("version", "print the version")]
    }
    if let match = options.first(where: { $0.name == name }) { return match }
    let suggestion = closestMatch(to: name, among: options.map(\.name)).map { "--\($0)" }
    throw .unknownOption(written, command: command ?? "", suggestion: suggestion)
}

// MARK: - Phase 2: raw arguments into a command

/// Parses a command line (without the executable name) into a validated ``Command``.
/// Throws ``UsageError`` for anything that cannot be run.
public func parseCommand(_ arguments: [String]) throws(UsageError) -> Command {
    let raw = try splitArguments(arguments)
    guard let name = raw.command else {
        if raw.flags.contains("version") { return .version }
        if raw.flags.contains("help") { return .help(command: nil) }
        throw .missingCommand
    }
    guard let spec = CommandSpec.named(name) else {
        if name == "help" { return .help(command: raw.positionals.first) }
        let suggestion = closestMatch(to: name, among: CommandSpec.all.map(\.name))
        throw .unknownCommand(name, suggestion: suggestion)
    }
    if raw.flags.contains("help") { return .help(command: name) }

    switch name {
    case "text":
        let source = try single(raw, argument: "<source>", command: name, required: true)!
        return .text(source: source, try sourceSettings(raw))
    case "route":
        return try parseRoute(raw)
    case "engines":
        try noPositionals(raw, command: name)
        return .engines(json: raw.flags.contains("json"))
    case "schema":
        let taskName = try single(raw, argument: "<task>", command: name, required: true)!
        return .schema(task: try task(named: taskName, option: "<task>"), strict: raw.flags.contains("strict"))
    case "cache":
        return try parseCache(raw)
    default:
        return .generate(try parseGenerate(raw, spec: spec))
    }
}

private func parseGenerate(_ raw: RawArguments, spec: CommandSpec) throws(UsageError) -> GenerateSettings {
    let task = StudyTask(rawValue: spec.name)!
    // headline reads stdin without a source; feynman reads the explanation from stdin, so it needs a source.
    let source = try single(raw, argument: "<source>", command: spec.name, required: task != .headline)
    var settings = GenerateSettings(task: task, source: source)
    if let format = raw.values["format"] {
        settings.format = try choice(format, option: "--format", RenderFormat.self)
    }
    if raw.flags.contains("json") { settings.format = .json }
    if let engine = raw.values["engine"] {
        settings.engine = try choice(engine, option: "--engine", EngineChoice.self)
    }
    settings.offline = raw.flags.contains("offline")
    if settings.offline && settings.engine == .remote {
        throw .invalidValue(option: "--engine", value: "remote", expected: "auto, local or builtin with --offline")
    }
    settings.noCache = raw.flags.contains("no-cache")
    if let text = raw.values["budget"] {
        guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
            throw .invalidValue(option: "--budget", value: text, expected: "a positive number of seconds")
        }
        settings.budget = seconds
    }
    settings.stream = raw.flags.contains("stream")
    settings.quiet = raw.flags.contains("quiet")
    settings.verbose = raw.flags.contains("verbose")
    settings.outputDirectory = raw.values["out"]
    if settings.outputDirectory != nil && task != .studyKit {
        throw .unknownOption("--out", command: spec.name, suggestion: nil)
    }
    settings.sourceSettings = try sourceSettings(raw)
    if task == .feynman {
        guard let concept = raw.values["concept"], !concept.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .missingArgument("--concept <concept>", command: spec.name)
        }
        settings.concept = concept
        settings.explanation = raw.values["explanation"]
        if settings.explanation == nil && source == "-" {
            throw .invalidValue(
                option: "<source>", value: "-", expected: "a file or URL when the explanation comes from stdin")
        }
    }
    return settings
}

private func parseRoute(_ raw: RawArguments) throws(UsageError) -> Command {
    guard let taskName = raw.positionals.first else { throw .missingArgument("<task>", command: "route") }
    let task = try task(named: taskName, option: "<task>")
    let rest = Array(raw.positionals.dropFirst())
    if rest.count > 1 { throw .unexpectedArgument(rest[1], command: "route") }
    let json = raw.flags.contains("json")
    if let chars = raw.values["chars"] {
        if let extra = rest.first { throw .unexpectedArgument(extra, command: "route") }
        guard let count = Int(chars), count >= 0 else {
            throw .invalidValue(option: "--chars", value: chars, expected: "a whole number of characters, 0 or more")
        }
        return .route(task: task, input: .characterCount(count), json: json, try sourceSettings(raw))
    }
    guard let source = rest.first else { throw .missingArgument("--chars <n> or <source> --explain", command: "route") }
    guard raw.flags.contains("explain") else { throw .missingArgument("--explain", command: "route") }
    return .route(task: task, input: .explain(source: source), json: json, try sourceSettings(raw))
}

private func parseCache(_ raw: RawArguments) throws(UsageError) -> Command {
    guard let action = raw.positionals.first else { throw .missingArgument("stats|clear", command: "cache") }
    if raw.positionals.count > 1 { throw .unexpectedArgument(raw.positionals[1], command: "cache") }
    switch action {
    case "stats":
        if raw.values["task"] != nil { throw .unknownOption("--task", command: "cache", suggestion: nil) }
        return .cacheStats(json: raw.flags.contains("json"))
    case "clear":
        if raw.flags.contains("attempts") {
            if raw.values["task"] != nil { throw .invalidValue(option: "--attempts", value: "with --task", expected: "--attempts or --task, not both") }
            return .forgetAttempts
        }
        return .cacheClear(task: try raw.values["task"].map { (name: String) throws(UsageError) in try task(named: name, option: "--task") })
    default:
        throw .invalidValue(option: "cache", value: action, expected: "stats or clear")
    }
}

private func sourceSettings(_ raw: RawArguments) throws(UsageError) -> SourceSettings {
    var settings = SourceSettings(password: raw.values["password"])
    if let text = raw.values["max-bytes"] {
        guard let bytes = Int(text), bytes > 0 else {
            throw .invalidValue(option: "--max-bytes", value: text, expected: "a positive number of bytes")
        }
        settings.maxBytes = bytes
    }
    if let text = raw.values["deadline"] {
        guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
            throw .invalidValue(option: "--deadline", value: text, expected: "a positive number of seconds")
        }
        settings.deadline = seconds
    }
    return settings
}

private func single(_ raw: RawArguments, argument: String, command: String, required: Bool) throws(UsageError) -> String? {
    if raw.positionals.count > 1 { throw .unexpectedArgument(raw.positionals[1], command: command) }
    if required && raw.positionals.isEmpty { throw .missingArgument(argument, command: command) }
    return raw.positionals.first
}

private func noPositionals(_ raw: RawArguments, command: String) throws(UsageError) {
    if let extra = raw.positionals.first { throw .unexpectedArgument(extra, command: command) }
}

private func task(named name: String, option: String) throws(UsageError) -> StudyTask {
    guard let task = StudyTask(rawValue: name) else {
        throw .invalidValue(
            option: option, value: name, expected: StudyTask.allCases.map(\.commandName).joined(separator: ", "))
    }
    return task
}

private func choice<T: RawRepresentable & CaseIterable>(_ value: String, option: String, _ type: T.Type) throws(UsageError) -> T
where T.RawValue == String {
    guard let parsed = T(rawValue: value.lowercased()) else {
        throw .invalidValue(option: option, value: value, expected: T.allCases.map(\.rawValue).joined(separator: ", "))
    }
    return parsed
}

// MARK: - Suggestions

/// The candidate closest to `word` by edit distance, if it is close enough to be a plausible typo.
func closestMatch(to word: String, among candidates: [String]) -> String? {
    let scored = candidates.map { ($0, editDistance(word, $0)) }
    guard let best = scored.min(by: { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }) else { return nil }
    let tolerance = max(2, word.count / 3)
    if best.1 <= tolerance { return best.0 }
    // A prefix (`--form` for `--format`) is a plausible typo too.
    return candidates.first { $0.hasPrefix(word) && word.count >= 3 }
}

/// Levenshtein distance over characters.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = Array(repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
