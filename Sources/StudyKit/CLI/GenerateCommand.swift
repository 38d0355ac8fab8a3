import Foundation
import Synchronization

// MARK: - Generating commands

extension Runner {
    /// `headline`, `feynman`, `summary`, `flashcards`, `quiz`, `mindmap`, `import`.
    /// - Parameter sharedLocal: a local engine made once for many documents (`batch`: the
    ///   in-process model is loaded once, not per document); `nil` makes one from the configuration.
    /// - Returns: the engines that answered and the `--json` envelope, for `batch`'s report.
    @discardableResult
    func generate(
        _ settings: GenerateSettings, sharedLocal: (any LanguageModel)? = nil
    ) async throws -> GenerationOutcome {
        let clock = SystemDayClock()
        // The budget bounds the whole run: reading the source counts too.
        let runStarted = clock.now()
        // A format that cannot show this task is a usage error before any work is done.
        if !settings.format.supportedTasks.contains(settings.task) {
            throw OutputError.formatNotSupported(
                format: settings.format, task: settings.task,
                supported: StudyTask.allCases.filter(settings.format.supportedTasks.contains))
        }
        // A binary package on a terminal is garbage on the screen: refuse before any work is done.
        if settings.format == .apkg, settings.outputDirectory == nil, output.isTerminal {
            throw OutputError.binaryOutput(format: .apkg)
        }
        let progress = Progress(sink: errorOutput, enabled: errorOutput.isTerminal && !settings.quiet)
        let source = settings.source ?? "-"
        var explanation = settings.explanation
        if settings.task == .feynman, explanation == nil {
            explanation = try readExplanation(settings)
        }
        // The audio's programs are checked before any work: a missing one is exit 69 at once.
        var audio = PodcastAudio(runner: processes)
        let asksForAudio = settings.task == .podcast && (settings.audioPath != nil || settings.format == .srt)
        var speaks = asksForAudio || settings.withPodcast && settings.outputDirectory != nil
        if asksForAudio {
            _ = try audio.checkPrograms()
        } else if speaks, let note = kitAudioMissing() {
            // A kit's podcast is its transcript first: without the programs the kit is written
            // without the sound, and says so once.
            speaks = false
            if !settings.quietAboutAudio { errorOutput.line(note) }
        }
        progress.show("reading \(SourceReference(argument: source).displayName)")
        let document = try await loadDocument(source, settings: settings.sourceSettings)

        var configuration = try EngineConfiguration.load(environment: environment)
        configuration.localEngineLogging = settings.verbose
        let quota = try remoteQuota(configuration)
        let stores = openStores(configuration: configuration, noCache: settings.noCache, quota: quota)
        let verbose = settings.verbose
        let errors = errorOutput
        let streamer = settings.stream ? StreamPreview(sink: output, watchResize: true) : nil
        // Discovery is kept even under --no-cache: it says what the server is, not what it answered.
        let discoveries = try? DiscoveryRecords(environment: cacheEnvironment(configuration))
        let remote = configuration.remoteEngine(transport: transport, discoveryStore: discoveries)
        let local = sharedLocal ?? configuration.localEngine(
            transport: transport, discoveryStore: discoveries,
            prefixDirectory: settings.noCache
                ? nil : CacheLocation.prefixDirectory(environment: cacheEnvironment(configuration)))
        let capability = try CapabilityPolicy(environment: environment)
        let remoteConfigured = configuration.remote != nil && !settings.offline
        // A forced engine runs to the end unless the user bounds it with --budget: the default
        // budget is automatic routing's, which has the builtin engine to fill in.
        let budgetSeconds = settings.engine != .auto ? settings.budget
            : settings.budget ?? TimeBudget.defaultSeconds(
                for: settings.task, remoteConfigured: remoteConfigured, characterCount: document.characterCount)
        let router = RoutingEngine(
            local: local, remote: remote,
            cache: stores.cache, ledger: stores.meter, quota: quota,
            note: { line in if verbose { errors.line("studykit: \(TerminalSafety.clean(line))") } },
            warn: { line in errors.line("studykit: \(TerminalSafety.clean(line))") },
            onPartial: streamer.map { preview in { @Sendable text in preview.show(text) } },
            memory: stores.ledger, capability: capability, clock: clock)

        let decision = backend(for: settings.task, characterCount: document.characterCount)
        progress.show("\(settings.task.name): \(document.characterCount) characters, routed \(decision.rawValue)")
        var request = RoutingRequest(
            task: settings.task, document: document, concept: settings.concept, explanation: explanation,
            engine: settings.engine, offline: settings.offline, useCache: !settings.noCache,
            budget: budgetSeconds.map { TimeBudget(seconds: $0, start: runStarted) })
        request.size = settings.size
        // The preview draws where the cursor is: take the progress line away first.
        if streamer != nil { progress.clear() }
        // An explicit --budget is the whole job's: every chunk shares the request's deadline.
        var chunker = chunkedRunner(
            router: router, settings: settings, budget: settings.budget == nil ? nil : request.budget,
            progress: progress, clock: clock)
        // With a remote and no --budget, a document that does not fit the serving window is read in
        // chunks by default, under a whole-job budget sized for its chunks at the engine's measured
        // speed; the fixed default is sized for one request (#54).
        if settings.budget == nil, settings.engine == .auto, remoteConfigured, let fixed = budgetSeconds,
            let sized = await chunker.sizedBudget(
                request, tasks: settings.task == .studyKit ? KitAssembler.remoteParts : [settings.task], floor: fixed)
        {
            request.budget = TimeBudget(seconds: sized, start: runStarted)
            chunker.budget = request.budget
            if verbose {
                errorOutput.line(
                    "studykit: read in chunks by a remote engine: a \(Int(sized)) s budget for the whole job")
            }
        }
        var routed: RoutedResult
        var parts: [(task: StudyTask, routed: RoutedResult)] = []
        var podcastScript: PodcastScript?
        if settings.task == .studyKit {
            let assembler = KitAssembler(router: router, kitEngine: settings.offline ? nil : remote, chunker: chunker)
            let kit = try await assembler.run(request)
            routed = kit.routed
            parts = kit.parts
            if settings.withPodcast {
                var podcastRequest = request
                podcastRequest.task = .podcast
                let podcast = try await router.run(podcastRequest)
                parts.append((.podcast, podcast))
                if case .podcast(let script) = podcast.result { podcastScript = script }
            }
        } else {
            routed = try await chunker.run(request)
        }
        // Every run that makes cards, questions or key points says which body sections they come from (#54).
        if SectionItems.quotes(of: routed.result) != nil {
            let sectionItems = SectionItems(document: document)
            routed.coverage = sectionItems.adding(to: routed.coverage, of: routed.result)
            parts = parts.map { task, run in
                var run = run
                run.coverage = sectionItems.adding(to: run.coverage, of: run.result)
                return (task, run)
            }
        }
        streamer?.finish()
        progress.clear()
        // Interrupted (SIGINT, SIGTERM): the router stopped; nothing is written after it.
        try Task.checkCancellation()
        if verbose {
            let fromCache = routed.cached ? " from the cache" : ""
            errorOutput.line("studykit: answered by \(routed.engine.rawValue) (\(routed.model))\(fromCache)")
        } else if let missing = Runner.missingModelNote(
            routed: routed, configuration: configuration, settings: settings, remoteConfigured: remoteConfigured)
        {
            errorOutput.line(missing)
        }

        var traffic: [(EngineKind, EngineTraffic)] = []
        for engine in [local, remote] {
            if let made = await engine.traffic() { traffic.append((engine.kind, made)) }
        }
                if case .podcast(let script) = routed.result { podcastScript = script }
        audio.language = RenderContext.language(of: document)
        // The kit's directory is written beside it and moved in whole at the end: an interrupt
        // or a failure before that leaves `--out` as it was.
        let staging = try settings.outputDirectory.flatMap { directory in
            settings.task == .studyKit ? try StagedDirectory(target: URL(fileURLWithPath: directory)) : nil
        }
        defer { staging?.discard() }
        var recording: PodcastRecording?
        if speaks, let script = podcastScript {
            progress.show("speaking the podcast (\(script.spokenTurns.count) turns)")
            recording = try await record(script, with: audio, settings: settings, staging: staging)
            progress.clear()
        }
        var extra: JSONObject = [:]
        if let script = podcastScript, settings.task == .studyKit {
            extra["podcast"] = TerminalSafety.clean(script.jsonValue)
        }
        if let recording { extra["audio"] = recording.jsonValue }
        let envelope = Envelope(routed: routed, document: document, parts: parts, traffic: traffic, extra: extra)
            .jsonValue
        let outcome = GenerationOutcome(
            engines: parts.isEmpty ? [routed.engine] : parts.map(\.routed.engine), envelope: envelope)
        var context = RenderContext(
            sourceIdentity: sourceIdentity(source), title: document.title,
            // OpenSSL failing to hash (out of memory) must not stop the output: the renderer then
            // derives its ids from the text's own bytes, still deterministically.
            digest: { (try? SHA256Digest.hex(of: $0)) ?? $0 })
        context.envelope = envelope
        context.language = RenderContext.language(of: document)
        context.formulas = RenderContext.formulaMarkup(of: document)
        // One index of the document gives the Anki notes their pages and sections and the HTML
        // page and the podcast's script their quotes' pages; the other formats never look a quote up.
        if settings.outputDirectory != nil || [.anki, .apkg, .html].contains(settings.format) || podcastScript != nil {
            let locator = QuoteLocator(document: document)
            context.quoteLocator = locator
            context.pageOfQuote = locator.page(of:)
        }
        context.podcastTimes = recording?.turnTimes
        // The podcast's page plays the sound `--audio` just wrote: by its path relative to the
        // page when stdout is a file whose place is known, else by its absolute path.
        if settings.task == .podcast, settings.format == .html, let recording, settings.audioPath != nil {
            context.podcastAudioFile = Self.audioReference(recording.path, fromPage: output.filePath)
        }
        if settings.task == .studyKit {
            context.podcast = podcastScript
            // The page plays the sound only when it lies beside it, in the kit's directory.
            if let recording, let staging,
                URL(fileURLWithPath: recording.path).deletingLastPathComponent().standardizedFileURL.path
                    == staging.target.path
            {
                context.podcastAudioFile = URL(fileURLWithPath: recording.path).lastPathComponent
            }
        }
        if let staging, case .studyKit(let kit) = routed.result {
            var written = try KitWriter().write(
                kit, json: envelope.prettyText + "\n", to: staging.staging, context: context)
            if let script = podcastScript {
                written.append(try KitWriter().writePodcast(script, to: staging.staging, context: context))
                if let recording {
                    written.append(staging.staged(URL(fileURLWithPath: recording.path).lastPathComponent))
                }
            }
            try Task.checkCancellation()
            for file in try staging.commit(order: written) { output.line(file.path) }
            return outcome
        }
        try Task.checkCancellation()
        if settings.format == .json {
            output.line(envelope.prettyText)
        } else {
            if settings.format == .markdown,
                podcastScript != nil && settings.task == .studyKit || routed.coverage != nil
            {
                var text = try OutputRenderer.render(routed.result, as: settings.format, context: context)
                // The kit's optional podcast part follows the kit in Markdown.
                if settings.task == .studyKit, let script = podcastScript {
                    text += "\n" + MarkdownRenderer.render(script, context: context)
                }
                // Which body sections the items come from; a document read in chunks also says
                // what a model read of it, and what it did not.
                if let coverage = routed.coverage {
                    text += (text.hasSuffix("\n") ? "\n" : "\n\n") + TerminalSafety.clean(coverage.markdownFooter)
                }
                output.write(text.hasSuffix("\n") ? text : text + "\n")
            } else {
                output.write(bytes: try OutputRenderer.bytes(routed.result, as: settings.format, context: context))
            }
        }
        return outcome
    }

    /// The runner that reads a document too long for any window in chunks: `--jobs`,
    /// `--max-chunks`, the whole job's explicit `--budget` (shared by all its chunks), the
    /// announcement of a long run on stderr, and chunks done with an ETA on the progress line.
    private func chunkedRunner(
        router: RoutingEngine, settings: GenerateSettings, budget: TimeBudget?, progress: Progress, clock: any DayClock
    ) -> ChunkedRunner {
        let errors = errorOutput
        let started = clock.now()
        let task = settings.task.name
        return ChunkedRunner(
            router: router, jobs: settings.jobs, maxChunks: settings.maxChunks,
            budget: budget,
            announce: { line in
                progress.clear()
                errors.line("studykit: " + TerminalSafety.clean(line))
            },
            progress: { done, total in
                var line = "\(task): chunk \(done) of \(total) done"
                let elapsed = clock.now().timeIntervalSince(started)
                if done > 0, done < total {
                    let left = Int((elapsed / Double(done) * Double(total - done)).rounded())
                    line += ", about " + (left >= 60 ? "\(left / 60) min \(left % 60) s" : "\(left) s") + " left"
                }
                progress.show(line)
            })
    }

    /// Speaks the podcast into `--audio`, `podcast.wav` (or `.ogg`, `--audio-format`) under
    /// `--out`, or (for subtitles alone) a temporary file that is removed again.
    private func record(
        _ script: PodcastScript, with audio: PodcastAudio, settings: GenerateSettings, staging: StagedDirectory?
    ) async throws -> PodcastRecording {
        if let path = settings.audioPath { return try await audio.record(script, to: path) }
        if let staging {
            // Recorded into the staging directory; the kit names it where it will be.
            let file = staging.staged("podcast." + settings.audioFormat)
            var recording = try await audio.record(script, to: file.path)
            recording.path = staging.final(file).path
            return recording
        }
        let temporary = TemporaryFiles.path(suffix: ".wav").path
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        return try await audio.record(script, to: temporary)
    }

    /// How a page at `page` refers to the sound at `audio`: the relative path from the page's
    /// folder (`podcast.ogg`, `../audio/show.wav`), or the absolute path when the page's place is
    /// unknown (a pipe, a terminal). Symbolic links are resolved on both sides first, as the
    /// kernel names the page's file.
    static func audioReference(_ audio: String, fromPage page: String?) -> String {
        let target = URL(fileURLWithPath: audio).standardizedFileURL.resolvingSymlinksInPath()
        guard let page else { return target.path }
        let from = URL(fileURLWithPath: page).standardizedFileURL.resolvingSymlinksInPath()
            .deletingLastPathComponent().pathComponents
        let to = target.pathComponents
        var common = 0
        while common < min(from.count, to.count - 1), from[common] == to[common] { common += 1 }
        return (Array(repeating: "..", count: from.count - common) + to[common...]).joined(separator: "/")
    }

    /// Why a kit's podcast (`import --with-podcast --out`, `batch --with-podcast`) gets no audio
    /// — espeak-ng or sox is missing — as the one line for stderr; `nil` when it can be spoken.
    func kitAudioMissing() -> String? {
        do { _ = try PodcastAudio(runner: processes).checkPrograms() } catch {
            return "studykit: the kit's podcast has its transcript but no audio: " + error.message
        }
        return nil
    }

    /// The student's explanation for `feynman`, from stdin; empty input is bad data.
    private func readExplanation(_ settings: GenerateSettings) throws -> String {
        let data: Data
        let cap = settings.sourceSettings.maxBytes ?? ImportOptions.defaultMaxBytes
        do { data = try standardInput(cap) } catch {
            throw ImportError.unreadable("stdin", reason: String(describing: error))
        }
        guard data.count <= cap else { throw ImportError.tooLarge("stdin", limit: cap) }
        let text = try SourceNormalizer.decodeUTF8(data, source: "the explanation on stdin")
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw ImportError.empty("the explanation on stdin") }
        return trimmed
    }

    /// The cache and ledger, or none: a store that cannot be opened must not stop the job (but
    /// with a daily quota, a ledger that cannot be opened keeps remote closed: ``openLedger``).
    private func openStores(
        configuration: EngineConfiguration, noCache: Bool, quota: DailyQuota?
    ) -> (cache: ResultCache?, meter: (any UsageMetering)?, ledger: UsageLedger?) {
        let env = cacheEnvironment(configuration)
        var cache: ResultCache?
        if !noCache {
            do { cache = try ResultCache(environment: env) } catch {
                errorOutput.line("studykit: working without the cache: \(error.message)")
            }
        }
        let ledger = openLedger(configuration, quota: quota)
        return (cache, ledger.meter, ledger.ledger)
    }

    /// A stable identity for Anki GUIDs: the absolute path or the URL.
    private func sourceIdentity(_ source: String) -> String {
        switch SourceReference(argument: source) {
        case .standardInput: return "stdin"
        case .url(let url): return url.absoluteString
        case .file(let path):
            return URL(fileURLWithPath: path).standardizedFileURL.path
        }
    }
}

/// What one generating run made, for a caller that runs many (`batch`).
struct GenerationOutcome: Sendable {
    /// The engines that answered, each once, in the order the parts were made.
    let engines: [EngineKind]
    /// The `--json` envelope of the run.
    let envelope: JSONValue

    init(engines: [EngineKind], envelope: JSONValue) {
        var seen: [EngineKind] = []
        for engine in engines where !seen.contains(engine) { seen.append(engine) }
        self.engines = seen
        self.envelope = envelope
    }
}

// MARK: - The --json envelope

/// The one object `--json` prints: the result and how it was made.
struct Envelope {
    let routed: RoutedResult
    let document: Document
    var parts: [(task: StudyTask, routed: RoutedResult)] = []
    /// What each model engine sent its server in this run.
    var traffic: [(kind: EngineKind, made: EngineTraffic)] = []
    /// Members after the story: the kit's `podcast` part, the podcast's `audio`.
    var extra: JSONObject = [:]

    var jsonValue: JSONValue {
        var object = Self.story(routed)
        if case .object(var usage)? = object["usage"] {
            // The run's requests to model servers, its re-asks, and where discovery came from.
            usage["requests"] = .integer(traffic.reduce(0) { $0 + $1.made.requests })
            usage["reasks"] = .integer(([routed] + parts.map(\.routed)).filter(\.reasked).count)
            var discovery = JSONObject()
            for (kind, made) in traffic {
                if let cached = made.discoveryFromCache {
                    discovery[kind.rawValue] = .string(cached ? "cache" : "server")
                }
            }
            usage["discovery"] = .object(discovery)
            object["usage"] = .object(usage)
        }
        object["task"] = .string(routed.result.task.name)
        object["result"] = TerminalSafety.clean(routed.result.jsonValue)
        object["source"] = [
            "kind": .string(document.kind.rawValue), "origin": .string(document.origin),
            "title": document.title.map { .string(TerminalSafety.clean($0)) } ?? .null,
            "characterCount": .integer(document.characterCount), "language": .string(document.language),
            // What the kit read and what it left: the body (the routing measure above) and the apparatus.
            "bodyCharacterCount": .integer(document.characterCount),
            "apparatusCharacterCount": .integer(document.apparatusCharacterCount),
            "formulas": .integer(document.formulas.count),
        ]
        if !parts.isEmpty {
            object["parts"] = .array(parts.map { task, run in
                var part = Self.story(run)
                part["task"] = .string(task.name)
                part["result"] = nil
                part["source"] = nil
                if let coverage = run.coverage { part["coverage"] = coverage.jsonValue }
                return .object(part)
            })
        }
        if let coverage = routed.coverage { object["coverage"] = coverage.jsonValue }
        for (key, value) in extra { object[key] = value }
        return .object(object)
    }

    /// How one result was made, in the envelope's field order.
    private static func story(_ routed: RoutedResult) -> JSONObject {
        let usage: JSONValue = [
            "in": .integer(routed.usage?.promptTokens ?? 0), "out": .integer(routed.usage?.completionTokens ?? 0),
            "method": routed.usage.map { .string($0.method.rawValue) } ?? .string(routed.cached ? "cached" : "none"),
        ]
        return [
            "task": .null,
            "engine": .string(routed.engine.rawValue),
            "model": .string(routed.model),
            "decision": .string(routed.decision.rawValue),
            "result": .null,
            "source": .null,
            "fitted": routed.fitted.jsonValue,
            "cached": .bool(routed.cached),
            "reasked": .bool(routed.reasked),
            "fallbacks": .array(
                routed.fallbacks.map { ["engine": .string($0.engine.rawValue), "reason": .string($0.reason)] }),
            "usage": usage,
            "seconds": .number((routed.seconds * 1000).rounded() / 1000),
            "attempts": .array(routed.attempts.map(\.jsonValue)),
            "items": .array(routed.items.map(\.jsonValue)),
            "dropped": .array(routed.dropped.map(\.jsonValue)),
        ]
    }
}

// MARK: - Progress and streaming

extension Runner {
    /// The one line that labels a builtin answer given because no model is installed (setup could
    /// not download it) and no remote engine is set: shown on stderr with human output, so the
    /// user knows the text was extracted, not written, and what installs the model. `--json` says
    /// it in its envelope; `--quiet` and a forced engine say nothing.
    static func missingModelNote(
        routed: RoutedResult, configuration: EngineConfiguration, settings: GenerateSettings, remoteConfigured: Bool
    ) -> String? {
        guard routed.engine == .builtin, settings.engine == .auto, !settings.quiet, settings.format != .json,
            !remoteConfigured,
            configuration.local == nil, configuration.localModelFile == nil,
            case .none(let reason?) = configuration.localSelection, reason.contains(" is not installed")
        else { return nil }
        return "studykit: answered by the builtin engine (extracted from the material, no model): \(reason)"
    }
}

/// One status line on stderr, redrawn in place; only on a terminal.
struct Progress {
    let sink: any OutputSink
    let enabled: Bool

    /// Shows `text`, cut to one row of the window: a status line that wrapped would leave its
    /// first row behind when the next one is drawn.
    func show(_ text: String) {
        guard enabled else { return }
        var line = "studykit: " + text + "…"
        if let columns = sink.terminalSize?.columns { line = TerminalLayout.prefix(line, cells: columns - 1) }
        sink.write("\r\u{1B}[2K" + line)
    }

    func clear() {
        guard enabled else { return }
        sink.write("\r\u{1B}[2K")
    }
}

/// The outline a partial result is previewed as.
enum StreamOutline {
    /// A readable outline of a JSON value: `key: value` lines, nested by indentation.
    static func outline(_ value: JSONValue, indent: String = "") -> [String] {
        switch value {
        case .object(let object):
            return object.flatMap { key, member -> [String] in
                switch member {
                case .object, .array: return ["\(indent)\(key):"] + outline(member, indent: indent + "  ")
                default: return ["\(indent)\(key): \(scalar(member))"]
                }
            }
        case .array(let items):
            return items.flatMap { item -> [String] in
                switch item {
                case .object, .array:
                    let inner = outline(item, indent: indent + "  ")
                    guard let first = inner.first else { return ["\(indent)-"] }
                    return ["\(indent)- " + first.dropFirst(indent.count + 2)] + inner.dropFirst()
                default: return ["\(indent)- \(scalar(item))"]
                }
            }
        default:
            return [indent + scalar(value)]
        }
    }

    private static func scalar(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): return text.replacingOccurrences(of: "\n", with: " ")
        case .integer(let number): return String(number)
        case .number(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return ""
        default: return value.compactText
        }
    }
}
