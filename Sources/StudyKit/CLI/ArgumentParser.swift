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
func parseCommand(_ arguments: [String]) throws(UsageError) -> Command {
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

    switch spec.kind {
    case .text:
        let source = try required(raw, argument: "<source>", command: name)
        return .text(source: source, try sourceSettings(raw), bodyOnly: raw.flags.contains("body"))
    case .route:
        return try parseRoute(raw)
    case .engines:
        try noPositionals(raw, command: name)
        return .engines(json: raw.flags.contains("json"), refresh: raw.flags.contains("refresh"))
    case .schema:
        let taskName = try required(raw, argument: "<task>", command: name)
        return .schema(task: try task(named: taskName, option: "<task>"), strict: raw.flags.contains("strict"))
    case .cache:
        return try parseCache(raw)
    case .generate(let task):
        return .generate(try parseGenerate(raw, spec: spec, task: task))
    case .eval:
        return .eval(try parseEval(raw))
    case .batch:
        return .batch(try parseBatch(raw))
    }
}

private func parseBatch(_ raw: RawArguments) throws(UsageError) -> BatchSettings {
    guard !raw.positionals.isEmpty else { throw .missingArgument("<dirs or files…>", command: "batch") }
    if raw.positionals.contains("-") {
        throw .invalidValue(option: "<dirs or files…>", value: "-",
            expected: "files or folders (batch does not read stdin)")
    }
    guard let out = raw.values["out"], !out.isEmpty else { throw .missingArgument("--out <dir>", command: "batch") }
    var settings = BatchSettings(sources: raw.positionals, outputDirectory: out)
    if let text = raw.values["jobs"] {
        guard let jobs = Int(text), (1...64).contains(jobs) else {
            throw .invalidValue(option: "--jobs", value: text, expected: "a whole number from 1 to 64")
        }
        settings.jobs = jobs
    }
    (settings.engine, settings.offline) = try engineChoice(raw)
    settings.noCache = raw.flags.contains("no-cache")
    settings.budget = try budget(raw)
    settings.json = raw.flags.contains("json")
    settings.quiet = raw.flags.contains("quiet")
    settings.verbose = raw.flags.contains("verbose")
    settings.withPodcast = raw.flags.contains("with-podcast")
    if let format = try audioFormat(raw, withPodcast: settings.withPodcast,
        writesKits: true) { settings.audioFormat = format }
    settings.sourceSettings = try sourceSettings(raw)
    return settings
}

/// `--audio-format wav|ogg` (`import` and `batch`), lowercased, or `nil` when absent. The kit's
/// sound is made only for a kit with a podcast written to a directory, so it needs both.
private func audioFormat(_ raw: RawArguments, withPodcast: Bool, writesKits: Bool) throws(UsageError) -> String? {
    guard let format = raw.values["audio-format"] else { return nil }
    guard ["wav", "ogg"].contains(format.lowercased()) else {
        throw .invalidValue(option: "--audio-format", value: format, expected: "wav or ogg")
    }
    guard withPodcast, writesKits else {
        throw .invalidValue(option: "--audio-format", value: format,
            expected: "to come with --with-podcast and --out <dir>")
    }
    return format.lowercased()
}

/// `--engine` and `--offline`, which cannot ask for the remote engine together.
private func engineChoice(_ raw: RawArguments) throws(UsageError) -> (EngineChoice, offline: Bool) {
    var engine = EngineChoice.auto
    if let text = raw.values["engine"] {
        engine = try choice(text, option: "--engine", EngineChoice.self)
    }
    let offline = raw.flags.contains("offline")
    if offline && engine == .remote {
        throw .invalidValue(option: "--engine", value: "remote", expected: "auto, local or builtin with --offline")
    }
    return (engine, offline)
}

/// `--budget`: a positive number of seconds, or `nil` for the command's default.
private func budget(_ raw: RawArguments) throws(UsageError) -> Double? {
    guard let text = raw.values["budget"] else { return nil }
    guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
        throw .invalidValue(option: "--budget", value: text, expected: "a positive number of seconds")
    }
    return seconds
}

private func parseEval(_ raw: RawArguments) throws(UsageError) -> EvalSettings {
    guard !raw.positionals.isEmpty else { throw .missingArgument("<files or dirs…>", command: "eval") }
    var settings = EvalSettings(sources: raw.positionals)
    func list(_ option: String) -> [String]? {
        raw.values[option].map {
            $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        }
    }
    if let names = list("tasks") {
        let accepted = EvalPlan.measurableTasks + EvalPlan.optionalTasks
        let expected = accepted.map(\.name).joined(separator: ", ")
        var tasks: [StudyTask] = []
        for name in names {
            guard let task = accepted.first(where: { $0.name == name }) else {
                throw .invalidValue(option: "--tasks", value: name, expected: expected)
            }
            if !tasks.contains(task) { tasks.append(task) }
        }
        guard !tasks.isEmpty else { throw .invalidValue(option: "--tasks", value: "", expected: expected) }
        settings.tasks = tasks
    }
    if let names = list("engines") {
        var engines: [EngineKind] = []
        for name in names {
            guard let engine = EngineKind(rawValue: name) else {
                throw .invalidValue(option: "--engines", value: name, expected: "builtin, local, remote")
            }
            if !engines.contains(engine) { engines.append(engine) }
        }
        guard !engines.isEmpty else { throw .invalidValue(option: "--engines", value: "",
            expected: "builtin, local, remote") }
        settings.engines = engines
    }
    if let text = raw.values["repeat"] {
        guard let count = Int(text), (1...100).contains(count) else {
            throw .invalidValue(option: "--repeat", value: text, expected: "a whole number from 1 to 100")
        }
        settings.repeats = count
    }
    if let text = raw.values["max-requests"] {
        guard let count = Int(text), count >= 0 else {
            throw .invalidValue(option: "--max-requests", value: text, expected: "a whole number, 0 or more")
        }
        settings.maxRequests = count
    }
    settings.json = raw.flags.contains("json")
    settings.quiet = raw.flags.contains("quiet")
    settings.sourceSettings = try sourceSettings(raw)
    return settings
}

private func parseGenerate(_ raw: RawArguments, spec: CommandSpec,
    task: StudyTask) throws(UsageError) -> GenerateSettings {
    // headline reads stdin without a source; feynman reads the explanation from stdin, so it needs a source.
    let source = try single(raw, argument: "<source>", command: spec.name, required: task != .headline)
    var settings = GenerateSettings(task: task, source: source)
    if let format = raw.values["format"] {
        settings.format = try choice(format, option: "--format", RenderFormat.self)
    }
    if raw.flags.contains("json") { settings.format = .json }
    (settings.engine, settings.offline) = try engineChoice(raw)
    settings.noCache = raw.flags.contains("no-cache")
    settings.budget = try budget(raw)
    settings.stream = raw.flags.contains("stream")
    // The preview goes to stdout, where it would be written into the binary package.
    if settings.stream && settings.format == .apkg && raw.values["out"] == nil {
        throw .invalidValue(option: "--format", value: "apkg",
            expected: "a text format with --stream, whose preview would land inside the package")
    }
    settings.quiet = raw.flags.contains("quiet")
    settings.verbose = raw.flags.contains("verbose")
    settings.jobs = try positiveCount(raw, "jobs")
    settings.maxChunks = try positiveCount(raw, "max-chunks")
    settings.size = KitSize(cards: try itemCount(raw, "cards"), questions: try itemCount(raw, "questions"))
    settings.outputDirectory = raw.values["out"]
    if settings.outputDirectory != nil && task != .studyKit {
        throw .unknownOption("--out", command: spec.name, suggestion: nil)
    }
    settings.sourceSettings = try sourceSettings(raw)
    settings.audioPath = raw.values["audio"]
    settings.withPodcast = raw.flags.contains("with-podcast")
    if let path = settings.audioPath {
        do { _ = try PodcastAudio.format(of: path) } catch {
            throw .invalidValue(option: "--audio", value: path, expected: "a file name ending in .wav or .ogg")
        }
    }
    if let format = try audioFormat(raw, withPodcast: settings.withPodcast,
        writesKits: settings.outputDirectory != nil) {
        settings.audioFormat = format
    }
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
    let maxChunks = try positiveCount(raw, "max-chunks")
    let jobs = try positiveCount(raw, "jobs")
    return .route(task: task, input: .explain(source: source), json: json, try sourceSettings(raw),
        maxChunks: maxChunks, jobs: jobs)
}

/// A `--name n` option's whole number of 1 or more, or `nil` when it is absent.
private func positiveCount(_ raw: RawArguments, _ name: String) throws(UsageError) -> Int? {
    guard let text = raw.values[name] else { return nil }
    guard let count = Int(text), count >= 1 else {
        throw .invalidValue(option: "--\(name)", value: text, expected: "a whole number, 1 or more")
    }
    return count
}

/// `--cards` or `--questions`: from 3 (the fewest a deck or quiz holds) to 5,000; `nil` when absent.
private func itemCount(_ raw: RawArguments, _ name: String) throws(UsageError) -> Int? {
    guard let text = raw.values[name] else { return nil }
    guard let count = Int(text), (3...KitSize.largestRequest).contains(count) else {
        throw .invalidValue(option: "--\(name)", value: text,
            expected: "a whole number from 3 to \(KitSize.largestRequest)")
    }
    return count
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
            if raw.values["task"] != nil { throw .invalidValue(option: "--attempts", value: "with --task",
                expected: "--attempts or --task, not both") }
            return .forgetAttempts
        }
        return .cacheClear(task: try raw.values["task"].map { (name: String) throws(UsageError) in try task(named: name,
            option: "--task") })
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

private func single(_ raw: RawArguments, argument: String, command: String,
    required: Bool) throws(UsageError) -> String? {
    if raw.positionals.count > 1 { throw .unexpectedArgument(raw.positionals[1], command: command) }
    if required && raw.positionals.isEmpty { throw .missingArgument(argument, command: command) }
    return raw.positionals.first
}

/// The one positional argument a command requires.
private func required(_ raw: RawArguments, argument: String, command: String) throws(UsageError) -> String {
    guard let value = try single(raw, argument: argument, command: command, required: true) else {
        throw .missingArgument(argument, command: command)
    }
    return value
}

private func noPositionals(_ raw: RawArguments, command: String) throws(UsageError) {
    if let extra = raw.positionals.first { throw .unexpectedArgument(extra, command: command) }
}

private func task(named name: String, option: String) throws(UsageError) -> StudyTask {
    guard let task = StudyTask(rawValue: name) else {
        throw .invalidValue(
            option: option, value: name, expected: StudyTask.allCases.map(\.name).joined(separator: ", "))
    }
    return task
}

private func choice<T: RawRepresentable & CaseIterable>(_ value: String, option: String,
    _ type: T.Type) throws(UsageError) -> T
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
