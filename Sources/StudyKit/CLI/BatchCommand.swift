import Foundation

// MARK: - studykit batch

/// One document of a batch: where it is read from and the kit folder it gets under `--out`.
struct BatchItem: Sendable, Equatable {
    /// The path (or URL) as found, relative to the working directory when the folder was.
    let source: String
    /// The kit folder's name: the file's name without its extension, safe for the file system
    /// and unique in the batch.
    let name: String
}

/// How one document of a batch ended.
enum BatchStatus: Sendable, Equatable {
    /// The kit was written; the engines that answered its parts, and its `usage` (tokens and
    /// requests to model servers, as in its `kit.json`).
    case made(engines: [EngineKind], usage: JSONValue? = nil)
    /// The kit was complete and the file unchanged since the run that wrote it: nothing was done.
    case skipped
    /// The document failed: the error's one line and the exit code `import` would have given.
    case failed(message: String, exitCode: ExitCode)
}

/// One document's line of the final report.
struct BatchResult: Sendable, Equatable {
    let item: BatchItem
    let directory: String
    let status: BatchStatus
    let seconds: Double
}

extension Runner {
    /// The file kinds a folder is searched for (`eval` and `batch`).
    static let documentExtensions: Set<String> = ["txt", "md", "markdown", "html", "htm", "pdf"]

    /// Makes a kit for every document, `jobs` at a time, and reports one line per document in
    /// the order given. Exit 0 only when every document succeeded (or was up to date).
    func batch(_ settings: BatchSettings) async throws -> ExitCode {
        let out = URL(fileURLWithPath: settings.outputDirectory)
        let files = try documentFiles(settings.sources, excluding: out.path, keepMissing: true)
        let items = BatchNaming.items(for: files)

        var configuration = try EngineConfiguration.load(environment: environment)
        configuration.localEngineLogging = settings.verbose
        let remoteServes = configuration.remote != nil && !settings.offline
            && [.auto, .remote].contains(settings.engine)
        let choice: JobsChoice
        if let jobs = settings.jobs {
            choice = JobsChoice(jobs: jobs, source: .option)
        } else {
            let concurrency = remoteServes ? await remoteConcurrency(configuration) : nil
            choice = BatchNaming.defaultJobs(remoteServes: remoteServes, concurrency: concurrency)
        }
        let jobs = choice.jobs
        // The in-process model is loaded once for the whole batch; a model server's engine is made
        // per document, so each kit's `usage.requests` counts that document's requests only.
        let prefixes =
            settings.noCache ? nil : CacheLocation.prefixDirectory(environment: cacheEnvironment(configuration))
        let sharedLocal: (any LanguageModel)? = configuration.local == nil
            ? configuration.localEngine(transport: transport, prefixDirectory: prefixes) : nil

        // Said once for the whole batch, not once per kit.
        if settings.withPodcast, let note = kitAudioMissing() { errorOutput.line(note) }
        let progress = Progress(sink: errorOutput, enabled: errorOutput.isTerminal && !settings.quiet)
        progress.show("batch: \(items.count) document\(items.count == 1 ? "" : "s"), \(choice.displayText)")
        let worker = self
        let start = Date()
        var done = 0
        let results = await BoundedJobs.map(items, jobs: jobs, onFinish: { _ in
            done += 1
            progress.show("batch: \(done) of \(items.count) documents done")
        }) { item in
            await worker.makeKit(item, into: out, settings: settings, sharedLocal: sharedLocal)
        }
        progress.clear()
        let seconds = Date().timeIntervalSince(start)

        if settings.json {
            output.line(TerminalSafety.clean(BatchReport.json(results, jobs: choice, seconds: seconds)).prettyText)
        } else {
            for line in BatchReport.lines(results, seconds: seconds) { output.line(TerminalSafety.clean(line)) }
        }
        for result in results {
            if case .failed(_, let code) = result.status { return code }
        }
        return .ok
    }

    /// What the remote's server serves at once, from its discovery (cached with the others, so
    /// usually without a request); `nil` when it does not answer within ``concurrencyBound``
    /// seconds: a hung server is each document's fallback to find, not the batch's to wait for.
    private func remoteConcurrency(_ configuration: EngineConfiguration) async -> ServerConcurrency? {
        let discoveries = try? DiscoveryRecords(environment: cacheEnvironment(configuration))
        let remote = configuration.remoteEngine(transport: transport, discoveryStore: discoveries)
        return await withTaskGroup(of: ServerConcurrency?.self) { group in
            group.addTask { await remote.concurrency() }
            group.addTask {
                try? await Task.sleep(for: .seconds(Self.concurrencyBound))
                return nil
            }
            defer { group.cancelAll() }
            return await group.next() ?? nil
        }
    }

    /// Seconds a batch waits for the remote's discovery before it assumes the default.
    static let concurrencyBound = 10.0

    /// One document: skipped when its kit is up to date, else generated as `import --out` does.
    /// Never throws: a failure is this document's line, and the others go on.
    private func makeKit(_ item: BatchItem, into out: URL, settings: BatchSettings,
        sharedLocal: (any LanguageModel)?) async -> BatchResult {
        let start = Date()
        let directory = out.appendingPathComponent(item.name)
        func result(_ status: BatchStatus) -> BatchResult {
            BatchResult(item: item, directory: directory.path, status: status, seconds: Date().timeIntervalSince(start))
        }
        let record = BatchRecord(source: item.source, digest: BatchRecord.digest(of: item.source), settings: settings)
        if !settings.noCache, record.isComplete(in: directory) { return result(.skipped) }

        var generate = GenerateSettings(
            task: .studyKit, source: item.source, engine: settings.engine, offline: settings.offline,
            noCache: settings.noCache,
            quiet: true, verbose: settings.verbose, outputDirectory: directory.path,
            sourceSettings: settings.sourceSettings)
        generate.budget = settings.budget
        generate.withPodcast = settings.withPodcast
        generate.audioFormat = settings.audioFormat
        generate.quietAboutAudio = true
        // The kit's file list would interleave with the other documents': the report says where it is.
        var quiet = self
        quiet.output = DiscardingSink()
        do {
            let outcome = try await quiet.generate(generate, sharedLocal: sharedLocal)
            // Written last: a kit without its record is redone on the next run.
            if record.digest != nil { try? record.write(in: directory) }
            var usage: JSONValue?
            if case .object(let envelope) = outcome.envelope { usage = envelope["usage"] }
            return result(.made(engines: outcome.engines, usage: usage))
        } catch let error as any StudyKitError {
            return result(.failed(message: error.message, exitCode: error.exitCode))
        } catch is CancellationError {
            return result(.failed(message: "cancelled", exitCode: .failure))
        } catch {
            return result(.failed(message: String(describing: error), exitCode: .failure))
        }
    }

    /// The files named, and the documents in the folders named (recursively, sorted; hidden
    /// files, READMEs — a folder's description, not a document — and `excluding` left out).
    /// URLs pass through. A path that does not exist is an error, unless `keepMissing` keeps it
    /// for its own failure (`batch`: one missing file must not stop the others).
    func documentFiles(_ sources: [String], excluding: String? = nil, keepMissing: Bool = false) throws -> [String] {
        var files: [String] = []
        let manager = FileManager.default
        let excluded = excluding.map { URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath().path }
        for source in sources {
            if case .url = SourceReference(argument: source) {
                files.append(source)
                continue
            }
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: source, isDirectory: &isDirectory) else {
                if keepMissing {
                    files.append(source)
                    continue
                }
                throw ImportError.fileNotFound(source)
            }
            guard isDirectory.boolValue else {
                files.append(source)
                continue
            }
            let base = URL(fileURLWithPath: source)
            let resolvedBase = base.standardizedFileURL.resolvingSymlinksInPath()
            let found = (manager.enumerator(atPath: source)?.compactMap { $0 as? String } ?? []).filter { relative in
                let name = (relative as NSString).lastPathComponent
                if let excluded {
                    let path = resolvedBase.appendingPathComponent(relative).path
                    if path == excluded || path.hasPrefix(excluded + "/") { return false }
                }
                return !relative.split(separator: "/").contains { $0.hasPrefix(".") }
                    && !name.uppercased().hasPrefix("README")
                    && Self.documentExtensions.contains((name as NSString).pathExtension.lowercased())
            }
            files += found.sorted().map { base.appendingPathComponent($0).relativePath }
        }
        guard !files.isEmpty else { throw ImportError.empty(sources.joined(separator: ", ")) }
        return files
    }
}

// MARK: - Names and jobs

/// The pure decisions of a batch: kit folder names and the default concurrency.
enum BatchNaming {
    /// Documents at a time when `--jobs` is not given: one when only this machine's engines
    /// serve (a local model or the builtin engine already uses the cores); when a remote server
    /// does the work, what it serves at once, at most four (``JobsChoice``): one for a server
    /// that serializes its requests, its slots for a llama-server, four for a cluster or a
    /// hosted API (or a server that did not answer).
    static func defaultJobs(remoteServes: Bool, concurrency: ServerConcurrency?) -> JobsChoice {
        guard remoteServes else { return JobsChoice(jobs: 1, source: .localEngines) }
        return JobsChoice.choose(explicit: nil, concurrency: concurrency, kind: .remote)
    }

    /// Each source's kit folder name, in order: collisions (compared case-insensitively, for
    /// file systems that are) get `-2`, `-3`, … in the order given.
    static func items(for sources: [String]) -> [BatchItem] {
        var taken: Set<String> = []
        return sources.map { source in
            let base = safeName(stem(of: source))
            var name = base
            var suffix = 2
            while taken.contains(name.lowercased()) {
                name = "\(base)-\(suffix)"
                suffix += 1
            }
            taken.insert(name.lowercased())
            return BatchItem(source: source, name: name)
        }
    }

    /// The file's name without its extension; for a URL, its last path component or its host.
    static func stem(of source: String) -> String {
        if case .url(let url) = SourceReference(argument: source) {
            let last = url.deletingPathExtension().lastPathComponent
            return last.isEmpty || last == "/" ? (url.host ?? "document") : last
        }
        return ((source as NSString).lastPathComponent as NSString).deletingPathExtension
    }

    /// Letters, digits, `_` and `.` kept; every other run of characters (dashes, spaces,
    /// slashes, control characters, quotes) becomes one `-`; no leading dot or dash (a hidden or
    /// option-like name); at most 100 bytes of UTF-8; `document` when nothing is left.
    static func safeName(_ text: String) -> String {
        var name = ""
        for character in text {
            let keep = character.isLetter || character.isNumber || character == "_" || character == "."
            if keep {
                name.append(character)
            } else if !name.hasSuffix("-") {
                name.append("-")
            }
        }
        var trimmed = Substring(name)
        while let first = trimmed.first, first == "." || first == "-" { trimmed = trimmed.dropFirst() }
        while let last = trimmed.last, last == "-" || last == "." { trimmed = trimmed.dropLast() }
        var result = ""
        for character in trimmed {
            if result.utf8.count + String(character).utf8.count > 100 { break }
            result.append(character)
        }
        while let last = result.last, last == "-" || last == "." { result.removeLast() }
        return result.isEmpty ? "document" : result
    }
}

// MARK: - Up-to-date kits

/// What a kit folder records about the run that wrote it (`.studykit-batch`, hidden, written
/// after the kit): the source, its SHA-256 and the settings that shape the kit. A kit whose
/// record matches and whose files are all there is skipped on a rerun.
struct BatchRecord: Sendable, Equatable {
    static let fileName = ".studykit-batch"

    let source: String
    /// The file's SHA-256; `nil` for a URL or a file that cannot be read (never skipped).
    let digest: String?
    let engine: EngineChoice
    let offline: Bool
    let withPodcast: Bool
    /// The podcast's sound format; only a kit with a podcast has one.
    let audioFormat: String?

    init(source: String, digest: String?, settings: BatchSettings) {
        self.source = source
        self.digest = digest
        self.engine = settings.engine
        self.offline = settings.offline
        self.withPodcast = settings.withPodcast
        self.audioFormat = settings.withPodcast ? settings.audioFormat : nil
    }

    /// The SHA-256 of a file's bytes; `nil` for a URL or an unreadable file.
    static func digest(of source: String) -> String? {
        guard case .file(let path) = SourceReference(argument: source),
              let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? SHA256Digest.hex(of: data)
    }

    /// What decides whether a kit is up to date: the bytes and the settings, not the path (a
    /// folder moved or renamed keeps its kits).
    private var key: JSONObject {
        var key: JSONObject = [
            "sha256": digest.map { .string($0) } ?? .null, "engine": .string(engine.rawValue),
            "offline": .bool(offline), "withPodcast": .bool(withPodcast),
        ]
        // Only a non-default sound is recorded, so the records of earlier (WAV) kits still match.
        if let audioFormat, audioFormat != "wav" { key["audioFormat"] = .string(audioFormat) }
        return key
    }

    var text: String {
        var object = key
        object["source"] = .string(source)
        return JSONValue.object(object).prettyText + "\n"
    }

    /// Whether `directory` holds a whole kit written from a file with these very bytes and settings.
    func isComplete(in directory: URL) -> Bool {
        guard digest != nil,
              let data = FileManager.default.contents(atPath: directory.appendingPathComponent(Self.fileName).path),
              case .object(var recorded)? = try? JSONValue.parse(String(decoding: data,
                  as: UTF8.self)) else { return false }
        recorded["source"] = nil
        guard recorded == key else { return false }
        let files = KitWriter.fileNames + (withPodcast ? ["podcast.md"] : [])
        return files.allSatisfy { FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path) }
    }

    func write(in directory: URL) throws {
        try Data(text.utf8).write(to: directory.appendingPathComponent(Self.fileName), options: .atomic)
    }
}

// MARK: - The report

/// The end of a batch: one line per document in the order given, then the totals; or `--json`.
enum BatchReport {
    static func lines(_ results: [BatchResult], seconds: Double) -> [String] {
        var lines = results.map { result -> String in
            let target = result.directory + "/"
            switch result.status {
            case .made(let engines, _):
                let names = engines.map(\.rawValue).joined(separator: ", ")
                return "OK       \(result.item.source) → \(target) (\(names))"
            case .skipped:
                return "SKIPPED  \(result.item.source) → \(target) (kit complete, file unchanged since the run that "
                    + "wrote it)"
            case .failed(let message, let code):
                return "FAILED   \(result.item.source) (exit \(code.rawValue)): \(message)"
            }
        }
        let counts = Counts(results)
        var summary = "batch: \(results.count) document\(results.count == 1 ? "" : "s"): \(counts.made) made"
        if counts.skipped > 0 { summary += ", \(counts.skipped) skipped (up to date)" }
        summary += ", \(counts.failed) failed · \(String(format: "%.1f", seconds)) s"
        lines.append(summary)
        return lines
    }

    static func json(_ results: [BatchResult], jobs: JobsChoice, seconds: Double) -> JSONValue {
        let documents: [JSONValue] = results.map { result in
            var object: JSONObject = [
                "source": .string(result.item.source), "name": .string(result.item.name),
                "directory": .string(result.directory),
            ]
            switch result.status {
            case .made(let engines, let usage):
                object["status"] = "ok"
                object["engines"] = .array(engines.map { .string($0.rawValue) })
                if let usage { object["usage"] = usage }
            case .skipped:
                object["status"] = "skipped"
                object["reason"] = "kit complete, file unchanged since the run that wrote it"
            case .failed(let message, let code):
                object["status"] = "failed"
                object["error"] = .string(message)
                object["exitCode"] = .integer(Int(code.rawValue))
            }
            object["seconds"] = .number((result.seconds * 1000).rounded() / 1000)
            return .object(object)
        }
        let counts = Counts(results)
        return [
            "documents": .array(documents),
            "summary": [
                "documents": .integer(results.count), "made": .integer(counts.made),
                "skipped": .integer(counts.skipped),
                "failed": .integer(counts.failed), "jobs": .integer(jobs.jobs),
                "jobsFrom": .string(jobs.source.rawValue),
                "seconds": .number((seconds * 1000).rounded() / 1000),
            ],
        ]
    }

    private struct Counts {
        var made = 0, skipped = 0, failed = 0
        init(_ results: [BatchResult]) {
            for result in results {
                switch result.status {
                case .made: made += 1
                case .skipped: skipped += 1
                case .failed: failed += 1
                }
            }
        }
    }
}

// MARK: - Bounded concurrency

/// Runs jobs a bounded number at a time and returns their results in the order of the inputs,
/// whatever order they finish in.
enum BoundedJobs {
    /// `body` on every item, at most `jobs` at once; `onFinish` (on the caller's task) hears of
    /// each result as it finishes.
    static func map<Item: Sendable, Output: Sendable>(
        _ items: [Item], jobs: Int, onFinish: (Output) -> Void = { _ in },
        _ body: @escaping @Sendable (Item) async -> Output
    ) async -> [Output] {
        var results = [Output?](repeating: nil, count: items.count)
        await withTaskGroup(of: (Int, Output).self) { group in
            var next = 0
            func start() {
                let index = next
                let item = items[index]
                next += 1
                group.addTask { (index, await body(item)) }
            }
            while next < min(max(1, jobs), items.count) { start() }
            while let (index, output) = await group.next() {
                results[index] = output
                onFinish(output)
                if next < items.count { start() }
            }
        }
        return results.map { $0! }
    }
}

/// A sink that drops what it is given (a batch document's list of written files).
struct DiscardingSink: OutputSink {
    func write(_ text: String) {}
    func write(bytes: [UInt8]) {}
    var isTerminal: Bool { false }
}
