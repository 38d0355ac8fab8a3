import Foundation

// MARK: - One engine: fitting, generating, validating, the re-ask

extension RoutingEngine {

    func attempt(
        _ request: RoutingRequest, engine: any LanguageModel, decision: Backend, mayEscalate: Bool,
        fallbacks: [FallbackStep],
        log: AttemptLog, halfRepairs: Bool = false
    ) async throws -> RoutedResult {
        let kind = engine.kind
        let task = request.task
        let document = request.document
        let partLine = Self.requestLine(request)
        let whole = Self.wholePrompt(request)

        // The cache comes first: a hit makes no engine call at all, not even a window lookup.
        if let hit = cachedAnswer(
            request, engine: engine, prompt: whole, fitted: false, decision: decision, fallbacks: fallbacks)
        {
            return hit
        }

        // Under a budget every call to the server counts against it, not only the generation
        // (which has its own bound below): discovery, the window and token counts of a server
        // that accepts and never answers cost at most what is left, and nothing starts once it is spent.
        // A forced engine has a budget only when the user gave one (`--engine X --budget N`): it
        // bounds the attempt, though none of automatic routing's budget policy applies.
        let bound = request.budget
        if case .unavailable(let reason) = try await withinBudget(bound, floor: 0, { await engine.availability() }) {
            throw EngineError.unavailable(reason: reason)
        }
        let budget = try await withinBudget(bound, floor: 0) {
            try await checkBudget(
                engine: engine, task: task, document: document, concept: request.concept,
                explanation: request.explanation, part: partLine)
        }
        if case .assumed(let reason) = budget.window.source, warnings.first("window \(kind.rawValue)") {
            warn("the \(kind.rawValue) engine's window is assumed to be \(budget.window.tokens) tokens: \(reason)")
        }
        var prompt = whole
        // What the model is shown of the material, for the grounding checks.
        var sent = document.text
        var fitted = FitReport.whole(document, tokens: budget.documentTokens)
        // Under a time budget a headline is a Post-it job: the opening, the headings and the
        // best sentences of each section, not the whole material, so its prompt is processed in
        // a beat and the rest of the budget goes to the kit's other parts.
        let underBudget = request.engine == .auto && request.budget != nil
        let postIt = underBudget && task == .headline
        // Material a headline can read whole in a beat (a pasted page) goes whole.
        let postItCut = postIt && budget.documentTokens > Self.headlineWholeTokens
        let postItTokens = kind == .local ? Self.localHeadlineDocumentTokens : Self.headlineDocumentTokens
        let target = postItCut ? min(budget.documentBudget, postItTokens) : budget.documentBudget
        if !budget.fits || budget.documentTokens > target {
            if !budget.fits, mayEscalate,
                let larger = try? await withinBudget(
                    bound, floor: 0, { await self.largerWindow(than: budget.window.tokens) })
            {
                throw Escalation(reason: FallbackReason.escalated(budget, largerWindow: larger).text)
            }
            // Under a time budget a fitted whole part is a poor use of it: the builtin engine
            // extracts from the whole material and the model rewrites its items instead (a whole
            // kit is assembled part by part, each with its own items). A headline is already a
            // Post-it of the material.
            if !budget.fits, underBudget, !postIt {
                let rest =
                    ItemRewriter.rewritableTasks.contains(task)
                    ? "the builtin engine extracts and the model rewrites items" : "the builtin engine extracts it"
                throw BudgetSkip(reason: FallbackReason.doesNotFitWhole(budget, instead: rest).text)
            }
            guard budget.documentBudget >= Self.minimumDocumentBudget else {
                throw EngineError.contextExceeded(tokens: budget.totalTokens, window: budget.window.tokens)
            }
            let byEstimate = fitsByEstimate
            let content = try await withinBudget(bound, floor: 0) {
                if byEstimate { return fitContent(document, documentTokens: budget.documentTokens, budget: target) }
                return try await fitContent(document, budget: budget, target: target, engine: engine) { fitted in
                    task.instructions + "\n"
                        + task.prompt(
                            document: fitted, title: document.title, concept: request.concept,
                            explanation: request.explanation,
                            language: document.language, part: partLine)
                }
            }
            note(
                "\(kind.rawValue): fitted \(content.report.keptCharacters) of \(content.report.totalCharacters) "
                    + "characters "
                    + (budget.fits
                        ? "to a headline's \(target) tokens under the time budget"
                        : "to a \(budget.window.tokens)-token window")
                    + (content.report.method == .estimate
                        ? " (by a conservative estimate: the engine has no tokenizer)" : ""))
            prompt = task.prompt(
                document: content.text, title: document.title, concept: request.concept,
                explanation: request.explanation,
                language: document.language, part: partLine)
            sent = content.text
            fitted = content.report
            if let hit = cachedAnswer(
                request, engine: engine, prompt: prompt, fitted: true, decision: decision, fallbacks: fallbacks)
            {
                return hit
            }
        }

        if let refused = storedRefusal(task: task, engine: engine, prompt: prompt, fitted: fitted.cut, request: request)
        {
            throw BudgetSkip(reason: refused)
        }
        let key = Self.partKey(engine, task: task)
        let counts = request.part?.items.map { request.counts.asking($0, for: task) } ?? request.counts
        // Sent with a limit sized from the items asked for, and estimated at what such an
        // answer takes, not at the most it may take (#53).
        let limit = counts.responseLimit(for: task, reserve: budget.reserve)
        if request.engine == .auto, let timeBudget = request.budget {
            let promptTokens = budget.overheadTokens + min(budget.documentTokens, target) + budget.allowance
            let expected = min(limit, counts.expectedResponseTokens(for: task) ?? limit)
            if let skip = await recorder.budgetSkip(
                engine, key: key, promptTokens: promptTokens, responseTokens: expected, budget: timeBudget)
            {
                throw BudgetSkip(reason: skip)
            }
        }
        var generated: Generated
        do {
            generated = try await generateValidated(
                task: task, engine: engine, prompt: prompt,
                material: [document.title, sent].compactMap { $0 }.joined(separator: "\n"),
                document: document, reserve: limit, key: key, log: log, deadline: request.budget, counts: counts,
                stopsCopies: request.engine == .auto, halfRepairs: halfRepairs)
        } catch {
            storeRefusal(error, task: task, engine: engine, prompt: prompt, fitted: fitted.cut, request: request)
            throw error
        }
        let shownMaterial = InjectedInstructions([document.title, sent].compactMap { $0 }.joined(separator: "\n"))
            .stripped
        // A server model's copied key points, restated by it where it can (#53).
        if request.engine == .auto, kind == .remote, capability.restatesCopiedKeyPoints {
            (generated.result, generated.items) = await itemRewriter(
                engine, request: request, material: shownMaterial, log: log
            )
                .restatingCopiedKeyPoints(generated.result, items: generated.items)
        }
        // The builtin items that filled the model's part, offered to the same model to rephrase,
        // as the items of a part the builtin engine writes whole are (#53).
        if request.engine == .auto, generated.judged, capability.rewritesTopUps {
            (generated.result, generated.items) = await itemRewriter(
                engine, request: request, material: shownMaterial, log: log
            )
                .rewritingTopUps(generated.result, items: generated.items)
        }
        if request.useCache {
            storeResult(generated.result, task: task, engine: engine, prompt: prompt, fitted: fitted)
        }
        var routed = RoutedResult(
            result: generated.result, engine: kind, model: generated.model, decision: decision, fitted: fitted,
            cached: false,
            fallbacks: fallbacks, usage: generated.usage, reasked: generated.reasked,
            items: generated.items, dropped: generated.dropped)
        routed.refusedParts = generated.refusedParts
        routed.judged = generated.judged
        return routed
    }

    /// Below this many tokens for the document, fitting would send a meaningless scrap.
    static let minimumDocumentBudget = 64

    /// The most tokens of material a headline is sent under a time budget (about 1,000
    /// characters): the title block, the opening sentence and the main headings. At 400 tokens
    /// the 0.5B took 7 s on long.pdf and its blurbs strung headings together; at 250, 5 s.
    static let headlineDocumentTokens = 250

    /// The same for the in-process model, whose prompt is read on the machine's own cores before
    /// its first word (#53): the opening, the headings and a sentence or so of the first sections.
    /// At 250 the headline of samples/notes.pdf read 396 tokens before it copied the opening.
    static let localHeadlineDocumentTokens = 160

    /// Material of at most this many tokens is sent to a headline whole, even under a budget: a
    /// pasted page (samples/paste.txt, about 260) reads in a beat, and cutting it saves nothing.
    static let headlineWholeTokens = 400

    /// The remote window when remote can serve and its window is larger, else `nil`.
    func largerWindow(than tokens: Int) async -> Int? {
        guard case .available = await remote.availability(),
            let window = try? await remote.contextSize(), window.tokens > tokens
        else { return nil }
        return window.tokens
    }

    struct Generated {
        var result: AnyStudyResult
        var model: String
        var usage: Usage
        var reasked: Bool
        var dropped: [DroppedItem] = []
        /// How each item was made (``ItemProvenance/written(in:model:material:cached:)``, or the
        /// judge's record when the answer was judged item by item).
        var items: [ItemProvenance] = []
        /// A kit's parts whose model answer was refused and replaced by the builtin engine's.
        var refusedParts: [StudyTask] = []
        /// Whether the answer was judged item by item.
        var judged = false
    }

    /// Generates, validates (the schema, the type's own rules, ``Grounding`` in `material`, and
    /// ``LanguageRule`` against the `document`'s language), and re-asks once with the
    /// validation errors as feedback. An accepted answer that is all the `document`'s own words
    /// is recorded as `copied`.
    func generateValidated(
        task: StudyTask, engine: any LanguageModel, prompt: String, material: String, document: Document, reserve: Int,
        key: AttemptKey,
        log: AttemptLog, deadline: TimeBudget? = nil, counts: ItemCounts = .standard, stopsCopies: Bool = false,
        halfRepairs: Bool = false
    ) async throws -> Generated {
        let started = clock.now()
        var spent = Usage(promptTokens: 0, completionTokens: 0)
        var outcome: AttemptOutcome? = nil
        defer { recorder.recordAttempt(key, outcome: outcome, started: started, usage: spent, log: log) }
        do {
            let judge = { @Sendable (model: String) -> PartJudge in
                PartJudge(
                    material: InjectedInstructions(material).stripped, counts: counts, model: model,
                    skeleton: self.skeleton(task, document: document))
            }
            // The builtin engine's headline, made only when a headline answer needs an item of it.
            let builtinHeadline: @Sendable () -> AnyStudyResult? = { self.skeleton(.headline, document: document) }
            var generated = try await generateValidatedOnce(
                task: task, engine: engine, prompt: prompt, material: material, language: document.language,
                reserve: reserve, key: key,
                spent: &spent, deadline: deadline, judge: PartJudge.judgedTasks.contains(task) ? judge : nil,
                stopsCopies: stopsCopies, fallback: task == .headline ? builtinHeadline : nil, halfRepairs: halfRepairs)
            if generated.items.isEmpty {
                generated.items = ItemProvenance.written(
                    in: generated.result, model: generated.model, material: document.titleAndText, cached: false)
            }
            outcome = generated.items.allSatisfy { $0.kind == .extracted } ? .copied : .accepted
            return generated
        } catch {
            outcome = Self.outcome(for: error)
            throw error
        }
    }

    func generateValidatedOnce(
        task: StudyTask, engine: any LanguageModel, prompt: String, material: String, language: String, reserve: Int,
        key: AttemptKey,
        spent: inout Usage, deadline: TimeBudget? = nil, judge: (@Sendable (String) -> PartJudge)? = nil,
        stopsCopies: Bool = false, fallback: (@Sendable () -> AnyStudyResult?)? = nil, halfRepairs: Bool = false
    ) async throws -> Generated {
        // An answer about material without Chinese, Japanese or Korean is refused for them, so
        // its grammar has none to offer.
        let schema = LanguageRule.usesCJK(material) ? task.generationSchema : task.generationSchema.withoutIdeographs()
        var request = GenerationRequest(
            instructions: task.instructions, prompt: prompt, schemaName: task.schemaName,
            jsonSchema: schema.jsonSchema(strict: false).compactText,
            strictJSONSchema: schema.jsonSchema(strict: true).compactText,
            options: GenerationOptions(sampling: .greedy, maximumResponseTokens: reserve))
        var usage = Usage(promptTokens: 0, completionTokens: 0)
        // Sentences of the material that speak to the model: an answer must not obey them, and
        // quoting them grounds nothing.
        let injected = InjectedInstructions(material)
        // Automatic routing only: a forced engine's copy is its answer.
        let copying = stopsCopies ? Self.copyStop(task: task, engine: engine, material: injected.stripped) : nil
        // A headline with one item repaired from the builtin engine's, kept while the re-ask tries for both.
        var halfHeadline: Generated?
        for round in 0..<2 {
            let sent = request
            let roundStarted = clock.now()
            // Metered: reserved against the quota before, counted in the ledger after (a request
            // sent and then interrupted counts its estimate).
            var response: RawResponse
            // A stream the server stopped mid-way (its deadline): what was finished is judged.
            var stoppedBy: (any Error)?
            do {
                response = try await metered(engine, sent, key: key, deadline: deadline) {
                    try await self.respond(
                        engine, to: sent, enumerations: task.repeatingMembers, keepsWhatWasWritten: judge != nil,
                        copying: copying)
                }
            } catch let stopped as StoppedAnswer {
                stoppedBy = stopped.cause
                note("\(engine.kind.rawValue): \(Self.reason(for: stopped.cause)); judging what it finished")
                let written = TokenCount.estimate(for: stopped.text).count
                response = RawResponse(
                    text: stopped.text, usage: Usage(promptTokens: 0, completionTokens: written, method: .estimated),
                    model: engine.modelName, finishReason: "length")
            } catch var copy as CopiedAnswer {
                // A copy stopped as it was written cost its tokens all the same: the record says so.
                usage.promptTokens += copy.usage.promptTokens
                usage.completionTokens += copy.usage.completionTokens
                spent = usage
                copy.usage = usage
                throw copy
            }
            usage.promptTokens += response.usage.promptTokens
            usage.completionTokens += response.usage.completionTokens
            usage.method = response.usage.method
            spent = usage
            // Counted above, rejected here: a cut answer cost its tokens all the same. A loop is
            // stopped; a part judged item by item keeps the items finished before it, as an
            // answer cut at its limit does (#53: a deck that looped at its ninth card lost eight).
            let looped = response.finishReason == RepetitionGuard.finishReason
            let repeated = RepeatedAnswer(
                detail: "the \(engine.kind.rawValue) model started repeating entries it had already written; "
                    + "it was stopped early")
            if looped, judge == nil { throw repeated }
            let truncated = EngineError.truncated(
                "the \(engine.kind.rawValue) model stopped at its \(reserve)-token response limit before finishing "
                    + "its answer; allow more response tokens or shorten the input")
            // An answer with items cut at its limit keeps the items it finished: the one being
            // written when it stopped is dropped, and the rest are judged like any answer.
            let cut = response.finishReason == "length" || looped
            if cut, judge == nil { throw truncated }
            // The item a loop was writing when it was stopped, shown as dropped.
            var loopedAt: String?
            // Why an answer judged item by item was refused, as its message gives it.
            var judgedProblems: [String]?
            do throws(SchemaError) {
                var json: JSONValue
                if cut {
                    guard let salvaged = Self.finishedItemsAndCut(of: response.text) else {
                        throw SchemaError.truncated
                    }
                    json = salvaged.value
                    loopedAt = looped ? salvaged.cut : nil
                } else {
                    json = try JSONValue.parse(
                        ModelOutputText.unfenced(response.text), allowingRawControlCharacters: true)
                }
                // A card or quiz question that came without its quote gets one here, before any check.
                json = QuoteFinder.located(json, task: task, material: injected.stripped)
                var strict: SchemaError?
                do throws(SchemaError) {
                    if cut { throw SchemaError.truncated }
                    let result = try decodeResult(for: task, json: json)
                    let issues = Self.answerIssues(result, language: language, injected: injected)
                    if issues.all.isEmpty {
                        return Generated(result: result, model: response.model, usage: usage, reasked: round == 1)
                    }
                    // A part not judged item by item (Feynman gaps, podcast turns) drops what still
                    // fails grounding after the re-ask, when enough is left.
                    if judge == nil, round == 1, issues.wrongLanguage.isEmpty, issues.obeyed.isEmpty,
                        let kept = Grounding.dropUngrounded(result, source: injected.stripped)
                    {
                        note(
                            "\(engine.kind.rawValue): dropped \(kept.dropped.count) ungrounded "
                                + "item\(kept.dropped.count == 1 ? "" : "s") after the re-ask"
                        )
                        return Generated(
                            result: kept.result, model: response.model, usage: usage, reasked: true,
                            dropped: kept.dropped)
                    }
                    throw SchemaError.invalid(issues.all)
                } catch {
                    strict = error
                    // An answer in the wrong language, or one that obeyed the document, is not kept in part.
                    if case .invalid = error, Self.refusedWhole(json: json, language: language, injected: injected) {
                        throw error
                    }
                }
                // Repair, not refusal: the answer judged item by item.
                if let judge {
                    do throws(SchemaError) {
                        var judged = try judge(response.model).judge(json, task: task)
                        if looped {
                            note("\(engine.kind.rawValue): \(repeated.detail); judging the items it finished")
                            judged.dropped.append(
                                DroppedItem(
                                    path: loopedAt ?? "",
                                    reason: "\(RepeatedAnswer.loopReason); the items before it were kept"))
                        }
                        note(
                            "\(engine.kind.rawValue): kept the answer's usable items (\(judged.dropped.count) dropped, "
                                + "\(judged.repaired) repaired, \(judged.toppedUp) added from the builtin engine)")
                        return Generated(
                            result: judged.result, model: response.model, usage: usage, reasked: round == 1,
                            dropped: judged.dropped,
                            items: judged.items, refusedParts: judged.refusedParts, judged: true)
                    } catch {
                        // What is wrong with each item, then how few passed (the judge's first
                        // issue): the re-ask's feedback. The message says how few passed and why
                        // each was dropped first: the whole answer's first problem alone read as if
                        // one bad item had refused the part (#53: a summary refused "for" one short
                        // key point had lost all five).
                        if case .invalid(let own) = error, case .invalid(let whole)? = strict {
                            strict = .invalid(whole + own.prefix(1))
                            let named = Set(own.map(\.description))
                            judgedProblems = (own + whole.filter { !named.contains($0.description) }).map(\.description)
                        }
                    }
                }
                throw strict ?? SchemaError.invalid([])
            } catch {
                // A cut answer with too few finished items is what it was before: cut, or stopped.
                if let stoppedBy { throw stoppedBy }
                if looped { throw repeated }
                if cut { throw truncated }
                if case .truncated = error { throw EngineError.truncated("the answer's JSON ended mid-way") }
                var problems: [String]
                if let judgedProblems {
                    problems = judgedProblems
                } else if case .invalid(let issues) = error {
                    problems = issues.map(\.description)
                } else {
                    problems = [error.message]
                }
                var feedback = error
                // A headline is repaired where a rule says how (its title cut to its head; title and
                // blurb judged apart, the builtin engine's item beside the one that passes), and
                // every problem of it is named, so a re-ask can fix all of them at once (#53).
                if task == .headline, case .invalid = error,
                    let mended = Self.repairedHeadline(
                        json: try? JSONValue.parse(
                            ModelOutputText.unfenced(response.text), allowingRawControlCharacters: true),
                        model: response.model, language: language, injected: injected,
                        builtin: { if case .headline(let headline)? = fallback?() { headline } else { nil } }())
                {
                    problems = mended.problems.map(\.description)
                    feedback = .invalid(mended.problems)
                    if let result = mended.result, mended.whole || halfRepairs {
                        var generated = Generated(
                            result: result, model: response.model, usage: usage, reasked: round == 1)
                        generated.items = mended.items
                        let how = mended.whole ? "its title cut to its head" : "one item kept, the builtin's beside it"
                        note("\(engine.kind.rawValue): the headline was repaired (\(how)): "
                            + problems.joined(separator: "; "))
                        spent = usage
                        // A whole repair ships at once; a half one after the re-ask, or with no time for it.
                        if mended.whole || round == 1 { return generated }
                        halfHeadline = generated
                    }
                    if round == 1, var halfHeadline {
                        spent = usage
                        halfHeadline.usage = usage
                        halfHeadline.reasked = true
                        return halfHeadline
                    }
                }
                if round == 1 { throw EngineError.invalidOutput(problems) }
                // A headline that fails only on its title's length: the model shortens its own
                // title, a smaller question than the whole headline again.
                if task == .headline, case .invalid(let issues) = feedback, Self.onlyTitleTooLong(issues),
                    let shortened = try await shortenedTitleHeadline(
                        response.text, engine: engine, key: key, usage: &usage, deadline: deadline, injected: injected,
                        language: language)
                {
                    spent = usage
                    return Generated(result: shortened, model: response.model, usage: usage, reasked: true)
                }
                spent = usage
                // A second ask takes about as long as the first: when what is left of the budget
                // cannot hold it, it would only be stopped at the end, with the rest of a kit's
                // parts still waiting (a 1.5B quiz asked twice took 144 s of 300, #53).
                if let deadline {
                    let took = clock.now().timeIntervalSince(roundStarted)
                    let remaining = deadline.remaining(at: clock.now())
                    if took > remaining {
                        if var halfHeadline {
                            halfHeadline.usage = usage
                            return halfHeadline
                        }
                        let reason = FallbackReason.noTimeToAskAgain(
                            took: took, remaining: remaining, budget: deadline.seconds)
                        throw EngineError.invalidOutput(problems + [reason.text])
                    }
                }
                note(
                    "\(engine.kind.rawValue): the answer failed validation (\(problems.count) "
                        + "problem\(problems.count == 1 ? "" : "s")); asking once more"
                )
                request.prompt = prompt + "\n\n" + feedback.feedback(maximumTokens: reaskFeedbackTokens)
            }
        }
        throw EngineError.invalidOutput(["no valid answer"])
    }
}
