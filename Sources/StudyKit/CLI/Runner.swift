import Foundation
import Synchronization

/// Runs one studykit command line and returns its exit code.
///
/// Everything the process touches is injected — arguments, environment, stdin, stdout, stderr,
/// HTTP — so a whole command runs in process in tests.
public struct Runner: Sendable {
    /// The environment variables (configuration comes from here and the config file).
    public var environment: [String: String]
    /// Reads stdin when a command needs it, at most the given number of bytes (one more than a
    /// cap proves the input is over it).
    public var standardInput: @Sendable (_ upTo: Int) throws -> Data
    /// Results go here.
    public var output: any OutputSink
    /// Errors, progress and notes go here.
    public var errorOutput: any OutputSink
    /// HTTP for URL sources and model servers.
    public var transport: any HTTPTransport
    /// External programs (espeak-ng and sox for the podcast's audio); tests replace it.
    var processes: any ProcessRunning
    /// The signals that interrupt a command (SIGINT and SIGTERM in the real process; none in
    /// process, where the test owns the signals): see ``InterruptWatch``.
    public var interruptSignals: [Int32] = []

    /// Creates a runner from its seams.
    public init(
        environment: [String: String], standardInput: @escaping @Sendable () throws -> Data,
        output: any OutputSink, errorOutput: any OutputSink, transport: any HTTPTransport = CurlTransport()
    ) {
        self.environment = environment
        self.standardInput = { _ in try standardInput() }
        self.output = output
        self.errorOutput = errorOutput
        self.transport = transport
        self.processes = SystemProcessRunner(environment: environment)
    }

    /// The runner of the real process.
    public static func production() -> Runner {
        var runner = Runner(
            environment: ProcessInfo.processInfo.environment, standardInput: { Data() },
            output: FileDescriptorSink.standardOutput, errorOutput: FileDescriptorSink.standardError)
        runner.standardInput = { try Importer.readStandardInput(upTo: $0) }
        runner.interruptSignals = [SIGINT, SIGTERM]
        return runner
    }

    /// Runs `arguments` (without the executable name). Every failure becomes one line on stderr.
    ///
    /// One of ``interruptSignals`` cancels the command: the generation stops, nothing more is
    /// written, and the run ends with one line and exit 130 (``ExitCode/interrupted``).
    public func run(_ arguments: [String]) async -> ExitCode {
        let work = Task { () async throws -> ExitCode in
            let command = try parseCommand(arguments)
            return try await execute(command)
        }
        let watch = InterruptWatch(signals: interruptSignals) { work.cancel() }
        let result = await work.result
        watch.stop()
        if let signal = watch.firstSignal {
            errorOutput.line("studykit: interrupted by \(InterruptWatch.name(signal)); the generation was stopped and "
                + "nothing half-done was written")
            return .interrupted
        }
        switch result {
        case .success(let code):
            return code
        case .failure(let error as any StudyKitError):
            errorOutput.line("studykit: \(TerminalSafety.clean(withoutSecrets(error.message)))")
            return error.exitCode
        case .failure(is CancellationError):
            errorOutput.line("studykit: cancelled")
            return .failure
        case .failure(let error):
            errorOutput.line("studykit: \(TerminalSafety.clean(withoutSecrets(String(describing: error))))")
            return .failure
        }
    }

    /// The last guard before an error line leaves the process: the API keys of the environment
    /// and credentials inside URLs are masked, whichever layer built the line.
    func withoutSecrets(_ line: String) -> String {
        let keys = ["STUDYKIT_REMOTE_API_KEY", "OPENAI_API_KEY"].compactMap { environment[$0] }.filter { !$0.isEmpty }
        return keys.reduce(Redactor(nil).clean(line)) { text, key in Redactor(APIKey(key)).clean(text) }
    }

    private func execute(_ command: Command) async throws -> ExitCode {
        switch command {
        case .version:
            output.line("studykit \(StudyKitVersion.current)")
        case .help(let name):
            if let name {
                guard let spec = CommandSpec.named(name) else {
                    throw UsageError.unknownCommand(name,
                        suggestion: closestMatch(to: name, among: CommandSpec.all.map(\.name)))
                }
                output.write(HelpText.command(spec))
            } else {
                output.write(HelpText.overview())
            }
        case .route(let task, .characterCount(let count), _, _, _, _):
            output.line(backend(for: task, characterCount: count).rawValue)
        case .text(let source, let settings, let bodyOnly):
            let document = try await loadDocument(source, settings: settings)
            let text = bodyOnly ? document.text : document.readableText
            output.write(text.hasSuffix("\n") ? text : text + "\n")
        case .route(let task, .explain(let source), let json, let settings, let maxChunks, let jobs):
            try await explainRoute(task: task, source: source, settings: settings, json: json, maxChunks: maxChunks,
                jobs: jobs)
        case .engines(let json, let refresh):
            try await showEngines(json: json, refresh: refresh)
        case .generate(let settings):
            try await generate(settings)
        case .eval(let settings):
            try await evaluate(settings)
        case .batch(let settings):
            return try await batch(settings)
        case .schema(let task, let strict):
            output.write(jsonSchemaText(for: task, strict: strict))
        case .cacheStats(let json):
            try showCacheStats(json: json)
        case .cacheClear(let task):
            try clearCache(task: task)
        case .forgetAttempts:
            let configuration = try EngineConfiguration.load(environment: environment)
            let removed = try UsageLedger(environment: cacheEnvironment(configuration)).forgetAttempts()
            output.line("forgot \(removed) recorded attempt\(removed == 1 ? "" : "s"); every model will be tried again")
        }
        return .ok
    }
}

extension Runner {
    /// Reads and normalizes one source with the importer, stdin and transport of this runner.
    func loadDocument(_ source: String, settings: SourceSettings) async throws -> Document {
        var options = ImportOptions(password: settings.password)
        if let bytes = settings.maxBytes { options.maxBytes = bytes }
        if let seconds = settings.deadline { options.deadline = seconds }
        let importer = Importer(transport: transport, standardInputUpTo: standardInput)
        return try await importer.load(SourceReference(argument: source), options: options)
    }

    /// `studykit cache clear`: every result, what discovery learnt about each server (a cache
    /// too: a server restarted with another model, window or tokenizer behind the same URL is
    /// asked again) and the in-process model's kept instructions; with `--task`, that task's
    /// results only. The usage ledger (it guards the quota) and the capability record
    /// (`--attempts` forgets it) are kept, and the line says so.
    func clearCache(task: StudyTask?) throws {
        let configuration = try EngineConfiguration.load(environment: environment)
        let path = try CacheLocation.databasePath(environment: cacheEnvironment(configuration))
        let (removed, kept) = try ResultCache(path: path).clearCounts(task: task)
        let answers = "\(kept) kept model answer\(kept == 1 ? "" : "s")"
        if let task {
            output.line(
                "removed \(removed) cached result\(removed == 1 ? "" : "s")\(kept == 0 ? "" : " and " + answers) "
                    + "for \(task.name)")
            return
        }
        let servers = try DiscoveryRecords(path: path).forgetAll()
        // The in-process model's kept instructions go too: they are read again on the next run.
        try? FileManager.default.removeItem(
            atPath: CacheLocation.prefixDirectory(environment: cacheEnvironment(configuration)))
        output.line(
            "removed \(removed) cached result\(removed == 1 ? "" : "s")\(kept == 0 ? "" : ", " + answers) "
                + "and \(servers) server discover\(servers == 1 ? "y" : "ies") "
                + "(each server's window, dialect and tokenizer are asked again); kept the usage ledger and each "
                + "model's record "
                + "of attempts (studykit cache clear --attempts forgets the record)")
    }

    /// `studykit cache stats`: everything the cache file holds, each kind of record counted.
    func showCacheStats(json: Bool) throws {
        let configuration = try EngineConfiguration.load(environment: environment)
        let path = try CacheLocation.databasePath(environment: cacheEnvironment(configuration))
        let stats = try ResultCache(path: path).stats()
        let discoveries = try DiscoveryRecords(path: path).count()
        let ledger = try UsageLedger(path: path).contents()
        if json {
            let value: JSONValue = [
                "path": .string(path), "entries": .integer(stats.entries), "keptAnswers": .integer(stats.keptAnswers),
                "payloadBytes": .integer(stats.payloadBytes),
                "fileBytes": .integer(stats.fileBytes), "hits": .integer(stats.hits), "misses": .integer(stats.misses),
                "discoveries": .integer(discoveries), "attempts": .integer(ledger.attempts),
                "ledger": [
                    "usageDays": .integer(ledger.usageDays), "requests": .integer(ledger.requests),
                    "openReservations": .integer(ledger.openReservations),
                ],
            ]
            output.line(value.prettyText)
            return
        }
        output.write(
            """
            cache:        \(path)
            entries:      \(stats.entries) results
            kept answers: \(stats.keptAnswers) model answer\(stats.keptAnswers == 1 ? "" : "s") that are no results \
            (item answers, judged again on every use; part requests a model failed, kept a day)
            size:         \(byteText(stats.payloadBytes)) of results, \(byteText(stats.fileBytes)) on disk (everything \
            below included)
            hits:         \(stats.hits)
            misses:       \(stats.misses)
            discoveries:  \(discoveries) server\(discoveries == 1 ? "" : "s") (window, dialect, tokenizer; kept a day; \
            cache clear removes them)
            attempts:     \(ledger.attempts) model attempt\(ledger.attempts == 1 ? "" : "s") (studykit engines shows \
            the record; cache clear --attempts forgets it)
            ledger:       \(ledger.usageDays) day\(ledger.usageDays == 1 ? "" : "s") of usage, \(ledger.requests) sent \
            request\(ledger.requests == 1 ? "" : "s"), \(ledger.openReservations) open quota \
            reservation\(ledger.openReservations == 1 ? "" : "s") (kept: it guards the daily quota)

            """)
    }
}

/// A byte count for people: `512 B`, `12.3 KB`, `4.0 MB`.
func byteText(_ bytes: Int) -> String {
    if bytes < 1024 { return "\(bytes) B" }
    let units = ["KB", "MB", "GB"]
    var value = Double(bytes) / 1024
    var unit = 0
    while value >= 1024, unit < units.count - 1 {
        value /= 1024
        unit += 1
    }
    return String(format: "%.1f %@", value, units[unit])
}
