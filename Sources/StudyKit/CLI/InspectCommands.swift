import Foundation

// MARK: - studykit engines

extension Runner {
    /// `studykit engines`: each engine's availability (and why not), model, window, counting, and today's usage.
    func showEngines(json: Bool, refresh: Bool = false) async throws {
        let configuration = try EngineConfiguration.load(environment: environment)
        let quota = try remoteQuota(configuration)
        let ledger = try? UsageLedger(environment: cacheEnvironment(configuration))
        let discoveries = try? DiscoveryRecords(environment: cacheEnvironment(configuration))
        if refresh, let discoveries {
            for endpoint in [configuration.local, configuration.remote].compactMap({ $0 }) {
                discoveries.forget(OpenAICompatibleEngine.discoveryKey(for: endpoint))
            }
        }
        let reports = await engineReports(configuration: configuration, transport: transport,
            discoveryStore: discoveries)
        let builtin = BuiltinEngine()
        let summaries = (try? ledger?.attemptSummaries()) ?? []
        let capability = try CapabilityPolicy(environment: environment)

        var rows: [JSONValue] = []
        for report in reports {
            let usage = ledger.flatMap { try? $0.usage(engine: report.kind, on: $0.today) }
            var object: JSONObject = [
                "engine": .string(report.kind.rawValue),
                "url": report.url.map(JSONValue.string) ?? .null,
                "model": .string(report.model),
                "available": .bool(report.availability.isAvailable),
            ]
            if let selection = report.selection { object["selection"] = .string(selection) }
            if case .unavailable(let reason) = report.availability { object["reason"] = .string(reason) }
            if let window = report.contextWindow {
                object["contextSize"] = .integer(window.tokens)
                switch window.source {
                case .discovered(let endpoint): object["contextSource"] = .string("discovered from \(endpoint)")
                case .configured(let setting): object["contextSource"] = .string("configured by \(setting)")
                case .assumed(let reason): object["contextSource"] = .string("assumed: \(reason)")
                }
            } else if let problem = report.contextWindowProblem, report.availability.isAvailable {
                object["contextProblem"] = .string(problem)
            }
            object["tokenCounting"] = .string(report.tokenCounting.rawValue)
            object["languages"] = .string(report.languages.displayText)
            if let dialect = report.dialect { object["dialect"] = .string(dialect) }
            if let shape = report.answerShape { object["answerShape"] = .string(shape) }
            if let tokenizer = report.tokenizer { object["tokenizer"] = .string(tokenizer) }
            if let concurrency = report.concurrency { object["parallelRequests"] = .string(concurrency) }
            if let discovery = report.discovery { object["discovery"] = .string(discovery) }
            if !report.discoveryNotes.isEmpty {
                object["discoveryNotes"] = .array(report.discoveryNotes.map(JSONValue.string))
            }
            if let build = report.build { object["build"] = .string(build) }
            if let key = report.apiKey { object["apiKey"] = .string(key) }
            if let usage {
                object["today"] = [
                    "requests": .integer(usage.requests), "tokensIn": .integer(usage.tokensIn),
                    "tokensOut": .integer(usage.tokensOut),
                ]
            }
            let record = summaries.filter { $0.key.engine == report.kind }
            if !record.isEmpty, let ledger {
                object["record"] = .array(record.map { attemptLine($0, ledger: ledger, capability: capability) })
            }
            if report.kind == .remote {
                object["quota"] = quota.map { .string($0.description) } ?? .string("none")
                // What the reservation before a call counts: spent, and held by calls still open.
                if let quota, let ledger, let standing = try? ledger.standing(quota, engine: .remote) {
                    object["quotaUsed"] = .integer(standing.used)
                    object["quotaReserved"] = .integer(standing.reserved)
                    object["quotaRemaining"] = .integer(standing.remaining)
                }
                // Allowances held against the quota now: calls in flight, or left by a process
                // that was killed mid-call, which count until they expire.
                if let ledger, let open = try? ledger.openReservations(engine: .remote), quota != nil || !open.isEmpty {
                    object["reservations"] = .array(open.map(reservationJSON))
                }
            }
            rows.append(.object(object))
        }
        rows.append([
            "engine": "builtin", "model": .string(builtin.modelName), "available": true,
            "languages": .string(LanguageSupport.any.displayText),
            "note": "extractive, no model: always available, deterministic",
        ])

        if json {
            output.line(JSONValue.array(rows).prettyText)
            return
        }
        for row in rows {
            guard case .object(let object) = row else { continue }
            output.line(object["engine"]?.stringValue ?? "?")
            for (key, value) in object where key != "engine" {
                let text: String
                switch value {
                case .string(let string): text = string
                case .object(let nested): text =
                    nested.map { "\($0.key) \($0.value.compactText)" }.joined(separator: ", ")
                case .array(let lines):
                    output.line("  " + key + ":" + (lines.isEmpty ? " none" : ""))
                    for line in lines {
                        let text: String
                        if case .object(let fields) = line {
                            text = fields.map { "\($0.key) \($0.value.stringValue ?? $0.value.compactText)" }
                                .joined(separator: ", ")
                        } else {
                            text = line.stringValue ?? line.compactText
                        }
                        output.line("    " + TerminalSafety.clean(text))
                    }
                    continue
                default: text = value.compactText
                }
                output.line("  " + (key + ":").padding(toLength: max(16, key.count + 2), withPad: " ",
                    startingAt: 0) + TerminalSafety.clean(text))
            }
        }
    }

    /// One open reservation: what it holds, when it was taken and when it stops counting.
    private func reservationJSON(_ reservation: QuotaReservation) -> JSONValue {
        let time = ISO8601DateFormatter()
        return [
            "requests": .integer(reservation.requests), "tokens": .integer(reservation.tokens),
            "createdAt": reservation.createdAt.map { .string(time.string(from: $0)) } ?? .null,
            "expiresAt": reservation.expiresAt.map { .string(time.string(from: $0)) } ?? .string("end of day"),
        ]
    }

    /// One job's record: `flashcards/part (flashcards/2) on SmolLM2…: 2 attempts, 0 accepted, last cut, mean 41 s;
    /// skipped: …`.
    private func attemptLine(_ summary: AttemptSummary, ledger: UsageLedger,
        capability: CapabilityPolicy) -> JSONValue {
        let key = summary.key
        var line =
            "\(key.task)/\(key.job.rawValue) (\(key.promptVersion)) on \(key.model): "
            + "\(summary.attempts) attempt\(summary.attempts == 1 ? "" : "s"), \(summary.accepted) accepted, "
            + "last \(summary.lastOutcome.rawValue), mean \(CapabilityPolicy.seconds(summary.meanDuration))"
        let once = key.job == .item && ItemRewriter.oncePerDocumentVersions.contains(key.promptVersion)
        if let recent = try? ledger.recentAttempts(key, limit: capability.window(for: key.job)),
            let skip = capability.skipReason(recent: recent, job: key.job, now: ledger.clock.now(),
                oncePerDocument: once)
        {
            let until = capability.skipEnds(recent: recent, job: key.job, oncePerDocument: once) ?? Date()
            line += "; \(skip), until \(ISO8601DateFormatter().string(from: until))"
        }
        return .string(line)
    }

    /// The remote daily quota from the configuration; a malformed value is a usage error.
    func remoteQuota(_ configuration: EngineConfiguration) throws -> DailyQuota? {
        try configuration.remoteDailyQuota.map { text throws(CacheError) in try DailyQuota(parsing: text) }
    }

    /// The usage ledger for a command that may call remote: the meter the router counts with, and
    /// the ledger itself (the capability memory). One that cannot be opened is no ledger, unless
    /// a daily quota is set: then ``UnavailableLedger`` stands in, so the quota fails closed
    /// (remote is treated as over quota, and the router says so once) instead of going uncounted.
    func openLedger(_ configuration: EngineConfiguration, quota: DailyQuota?) -> (meter: (any UsageMetering)?,
        ledger: UsageLedger?) {
        do {
            let ledger = try UsageLedger(environment: cacheEnvironment(configuration))
            return (ledger, ledger)
        } catch {
            return (quota == nil ? nil : UnavailableLedger(error: error), nil)
        }
    }

    /// The environment with the config file's cache directory filled in, for the cache and ledger.
    func cacheEnvironment(_ configuration: EngineConfiguration) -> [String: String] {
        var env = environment
        if env["STUDYKIT_CACHE_DIR"] == nil,
            let directory = configuration.cacheDirectory { env["STUDYKIT_CACHE_DIR"] = directory }
        return env
    }
}

// MARK: - studykit route <task> <source> --explain

extension Runner {
    /// The whole plan for one source, without generating anything; `maxChunks` and `jobs` are
    /// `--max-chunks` and `--jobs`, as a generating command would take them.
    func explainRoute(task: StudyTask, source: String, settings: SourceSettings, json: Bool, maxChunks: Int? = nil,
        jobs explicitJobs: Int? = nil) async throws {
        let document = try await loadDocument(source, settings: settings)
        let configuration = try EngineConfiguration.load(environment: environment)
        let quota = try remoteQuota(configuration)
        let ledger = try? UsageLedger(environment: cacheEnvironment(configuration))
        // What a server is (its window, dialect, tokenizer and parallel slots) comes from the same
        // discovery records a generating command reads and writes.
        let discoveries = try? DiscoveryRecords(environment: cacheEnvironment(configuration))
        let engines: [any LanguageModel] = [
            configuration.localEngine(transport: transport, discoveryStore: discoveries),
            configuration.remoteEngine(transport: transport, discoveryStore: discoveries),
        ]
        let decision = backend(for: task, characterCount: document.characterCount)
        let plan = RoutingEngine.plan(decision: decision, choice: .auto, offline: false)

        var engineRows: [JSONValue] = []
        var lines: [String] = [
            "source:     \(document.origin) (\(document.kind.rawValue)\(document.title.map { ", “\($0)”" } ?? ""))",
            "characters: \(document.characterCount)",
            "language:   \(LanguageDetector.displayName(document.language))",
            "policy:     \(task.name) → \(decision.rawValue)"
                + (task == .headline
                || task == .feynman ? " (local up to \(localCharacterLimit) characters)" : " (remote at any size)"),
            "order:      " + plan.map(\.rawValue).joined(separator: " → "),
            "reserve:    \(task.responseReserve) response tokens",
        ]
        var fitsSomewhere = false
        for engine in engines {
            var row: JSONObject = ["engine": .string(engine.kind.rawValue), "model": .string(engine.modelName)]
            lines.append("")
            lines.append("\(engine.kind.rawValue): \(engine.modelName)")
            row["languages"] = .string(engine.languages.displayText)
            if !engine.languages.supports(document.language) {
                row["skipped"] = .string("does not support \(document.language)")
                lines.append("  languages:  \(engine.languages.displayText): does not support \(document.language), so "
                    + "it would be skipped")
                engineRows.append(.object(row))
                continue
            }
            if engine.kind == .remote, let quota, let ledger,
                let standing = try? ledger.standing(quota, engine: .remote), standing.remaining == 0 {
                let state =
                    standing.reserved > 0 ? "taken: \(standing.used) used and \(standing.reserved) reserved by "
                        + "requests still open" : "used up"
                row["quota"] = .string("\(state) (\(quota))")
                lines.append("  quota:      \(state) (\(quota)): remote would be skipped")
            }
            if case .unavailable(let reason) = await engine.availability() {
                row["available"] = false
                row["reason"] = .string(reason)
                lines.append("  available:  no — \(reason)")
                engineRows.append(.object(row))
                continue
            }
            row["available"] = true
            lines.append("  available:  yes")
            let jobs = JobsChoice.choose(explicit: explicitJobs, concurrency: await engine.concurrency(),
                kind: engine.kind)
            row["jobs"] = .integer(jobs.jobs)
            row["jobsFrom"] = .string(jobs.source.rawValue)
            lines.append("  jobs:       \(jobs.displayText) when the document is read in chunks")
            do {
                let budget = try await checkBudget(engine: engine, task: task, document: document, concept: nil,
                    explanation: nil)
                fitsSomewhere = fitsSomewhere || budget.fits
                row["contextSize"] = .integer(budget.window.tokens)
                row["tokens"] = [
                    "instructionsAndPrompt": .integer(budget.overheadTokens),
                    "document": .integer(budget.documentTokens),
                    "allowance": .integer(budget.allowance), "reserve": .integer(budget.reserve),
                    "total": .integer(budget.totalTokens), "method": .string(budget.method.rawValue),
                ]
                row["fits"] = .bool(budget.fits)
                lines.append("  window:     \(budget.window.tokens) tokens" + Self.windowOrigin(budget.window.source))
                if let counting = await Self.countingNote(engine) {
                    row["counting"] = .string(counting)
                    lines.append("  counting:   \(counting)")
                }
                lines.append(
                    "  tokens:     \(budget.overheadTokens) instructions+prompt + \(budget.documentTokens) document + "
                        + "\(budget.allowance) template/re-ask + \(budget.reserve) reserve = \(budget.totalTokens) "
                        + "(\(budget.method.rawValue))"
                )
                if budget.fits {
                    lines.append("  fits:       yes — the document is sent whole")
                } else if budget.documentBudget < RoutingEngine.minimumDocumentBudget {
                    row["fit"] = .string("impossible")
                    lines.append(
                        "  fits:       no — the window cannot hold this task's prompt and \(budget.reserve)-token "
                            + "reserve; this engine would be skipped")
                } else {
                    let fitted = try await fitContent(document, budget: budget, target: budget.documentBudget,
                        engine: engine) { fitted in
                        task.instructions + "\n" + task.prompt(document: fitted, title: document.title,
                            language: document.language)
                    }
                    row["fit"] = fitted.report.jsonValue
                    lines.append(
                        "  fits:       no — fitted here it would keep \(fitted.report.keptCharacters) of "
                            + "\(fitted.report.totalCharacters) characters, ~\(fitted.report.keptTokens ?? 0) of "
                            + "\(budget.documentTokens) tokens, "
                            + "\(Int(((fitted.report.sectionCoverage ?? 0) * 100).rounded()))% of sections"
                    )
                }
                let prompt = task.prompt(document: document.text, title: document.title, language: document.language)
                let key = try RoutingEngine.cacheKey(task: task, engine: engine, prompt: prompt, fitted: false)
                row["cacheKey"] = .string(key.digest)
                lines.append("  cache key:  \(key.digest) (whole content)")
            } catch {
                row["problem"] = .string(RoutingEngine.reason(for: error))
                lines.append("  problem:    \(RoutingEngine.reason(for: error))")
            }
            engineRows.append(.object(row))
        }
        let escalation: String
        if decision == .local {
            escalation =
                "if the local window is too small and remote is available with a larger window, the job escalates to "
                    + "remote whole; otherwise it is fitted to the local window"
        } else {
            escalation =
                "if remote is unavailable, over quota or refuses, the job runs locally, fitted to the local window"
        }
        lines += ["", "fallback:   \(escalation); with no model engine, the builtin extractive engine answers"]
        // The chunk plan: what a generating command would send, chunk by chunk, without sending it.
        let router = RoutingEngine(local: engines[0], remote: engines[1], ledger: ledger, quota: quota)
        let chunking = ChunkedRunner(router: router, jobs: explicitJobs, maxChunks: maxChunks)
        let planned = await chunking.plan(RoutingRequest(task: task, document: document))
        if let planned {
            lines += Self.chunkPlanLines(planned, task: task)
        } else if !fitsSomewhere {
            lines.append("note:       no model window holds the whole document: expect fitted content")
        }

        if json {
            let value: JSONValue = [
                "task": .string(task.name),
                "source": [
                    "kind": .string(document.kind.rawValue), "origin": .string(document.origin),
                    "title": document.title.map(JSONValue.string) ?? .null,
                    "characterCount": .integer(document.characterCount),
                    "language": .string(document.language),
                ],
                "decision": .string(decision.rawValue), "order": .array(plan.map { .string($0.rawValue) }),
                "reserve": .integer(task.responseReserve), "engines": .array(engineRows),
                "fallback": .string(escalation),
                "chunks": planned.map(Self.chunkPlanJSON) ?? .null,
            ]
            output.line(value.prettyText)
        } else {
            output.line(lines.map(TerminalSafety.clean).joined(separator: "\n"))
        }
    }

    /// Where a window came from, for `route --explain`'s window line.
    static func windowOrigin(_ source: ContextWindow.Source) -> String {
        switch source {
        case .discovered(let endpoint): return " (from \(endpoint))"
        case .configured(let setting): return " (configured by \(setting))"
        case .assumed(let reason): return " (assumed: \(reason))"
        }
    }

    /// How an engine's tokens are counted when it has no tokenizer: by estimate, with its margin;
    /// `nil` when the server counts exactly (or the engine runs in process).
    static func countingNote(_ engine: any LanguageModel) async -> String? {
        guard let count = try? await engine.tokenCount(for: "studykit"), count.method == .estimate else { return nil }
        let why = await engine.describe().dialect.map { "the \($0) server offers no tokenizer" }
            ?? "no tokenizer is offered"
        return "estimated, \(why): one token per 3 UTF-8 bytes, about a third more than English text costs a BPE "
            + "tokenizer (4 bytes a token), so what is fitted by the estimate fits the real window"
    }

    /// `route --explain`'s chunk plan: the engine and window it is sized for, then one line a chunk.
    static func chunkPlanLines(_ planned: ChunkedRunner.Planned, task: StudyTask) -> [String] {
        let plan = planned.plan
        var lines = [
            "",
            (plan.groupedItems.map {
                "chunks:     the document asks for \($0) items, more than one answer writes well: "
            }
                ?? "chunks:     the document does not fit the \(planned.engine.rawValue) window "
                + "even after escalation: ")
                + "\(plan.chunks.count) chunks of at most ~\(plan.budgetTokens) tokens, cut between sections, "
                + "paragraphs or sentences",
            "requests:   \(planned.modelChunks) to a model, \(planned.jobs) at a time (\(planned.jobsFrom.rawValue))"
                + (planned.modelChunks < plan.chunks.count ? "; the builtin engine takes the "
                + "\(plan.chunks.count - planned.modelChunks) past --max-chunks" : "")
                + (task == .summary ? ", plus one for the overview" : ""),
        ]
        let shares = ChunkedRunner.itemShares(plan, task: task)
        for (chunk, share) in zip(plan.chunks, shares) {
            let headings =
                chunk.headings.isEmpty
                    ? ChunkCoverage.preamble
                    : chunk.headings.prefix(3).joined(separator: "; ") + (chunk.headings.count > 3 ? "; …" : "")
            lines.append(
                "  chunk \(chunk.index + 1): characters \(chunk.offsets.lowerBound)–\(chunk.offsets.upperBound), "
                    + "~\(chunk.estimatedTokens) tokens"
                    + (share.map { ", \($0) items" }
                    ?? "") + (chunk.index >= planned.modelChunks ? ", builtin" : "") + " — \(headings)")
        }
        return lines
    }

    /// The chunk plan as JSON.
    static func chunkPlanJSON(_ planned: ChunkedRunner.Planned) -> JSONValue {
        [
            "engine": .string(planned.engine.rawValue), "window": .integer(planned.window),
            "budgetTokens": .integer(planned.plan.budgetTokens), "jobs": .integer(planned.jobs),
            "jobsFrom": .string(planned.jobsFrom.rawValue),
            "modelChunks": .integer(planned.modelChunks),
            "chunks": .array(planned.plan.chunks.map { chunk in
                [
                    "index": .integer(chunk.index),
                    "characters": ["start": .integer(chunk.offsets.lowerBound),
                        "end": .integer(chunk.offsets.upperBound)],
                    "estimatedTokens": .integer(chunk.estimatedTokens),
                    "headings": .array(chunk.headings.map { .string(TerminalSafety.clean($0)) }),
                ]
            }),
        ]
    }
}
