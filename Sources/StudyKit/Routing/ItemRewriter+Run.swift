import Foundation

// MARK: - Running items: each asked, judged and recorded

extension ItemRewriter {
    /// What every item of one kind shares: instructions (the shared prefix), schema, limit, version.
    struct ItemSpec {
        let name: String
        let version: String
        let instructions: String
        let schema: GenerationSchema
        let maximumTokens: Int
        /// The task whose record the attempts go in when another task asks the same job (a quiz
        /// question is rewritten as a card is): one record per job, whichever part asks.
        var recordedUnder: StudyTask? = nil
        /// Whether the job is asked once per document (the overview): its record then grows a
        /// document at a time, so it is judged as a whole part is, on its last 2 attempts.
        var oncePerDocument = false

        /// The request that asks one item of this kind: the shared instructions, `prompt`, the
        /// small schema (a grammar in process) and the token limit, decoded greedily. Without
        /// `ideographs` (material with no Chinese, Japanese or Korean) its strings may hold none.
        func request(prompt: String, schema own: GenerationSchema? = nil, ideographs: Bool = true) -> GenerationRequest
        {
            let schema = ideographs ? own ?? schema : (own ?? schema).withoutIdeographs()
            return GenerationRequest(
                instructions: instructions, prompt: prompt, schemaName: name,
                jsonSchema: schema.jsonSchema(strict: false).compactText,
                strictJSONSchema: schema.jsonSchema(strict: true).compactText,
                options: GenerationOptions(sampling: .greedy, maximumResponseTokens: maximumTokens))
        }
    }

    /// Runs the jobs of some of a part's items (those worth asking), in order, and gives each
    /// outcome by its item's index; an index without a job has no outcome.
    func runItems(
        _ jobs: [(index: Int, job: ItemJob)], task: StudyTask, spec: ItemSpec, allowance: ItemAllowance = .open
    ) async -> [Int: ItemOutcome] {
        let answers = await runItems(
            jobs.map(\.job), task: task, spec: spec, allowance: allowance)
        return Dictionary(uniqueKeysWithValues: zip(jobs.map(\.index), answers))
    }

    /// Runs the jobs in order on `engine`, within the budget and the item record.
    ///
    /// An item asked before in this run with the very same instructions and prompt (a quiz
    /// question on the sentence a card was made from) gets the answer the model gave then,
    /// judged by its own job, without a second call: items are decoded greedily, so asking
    /// again would only spend the budget on the same answer.
    func runItems(
        _ jobs: [ItemJob], task: StudyTask, spec: ItemSpec, allowance: ItemAllowance = .open
    ) async -> [ItemOutcome] {
        let key = AttemptKey(
            engine: engine.kind, model: engine.identity, task: (spec.recordedUnder ?? task).name, job: .item,
            promptVersion: spec.version)
        var outcomes: [ItemOutcome] = []
        // Read once: whether the material itself has Chinese, Japanese or Korean characters.
        let materialUsesCJK = LanguageRule.usesCJK(request.document.text)
        // How many failures in a row on this document stop the job here, from the record of
        // earlier runs (``CapabilityPolicy/itemFailuresToStop(recent:now:runStarted:)``).
        let failuresToStop = memory.flatMap { memory in
            (try? memory.recentAttempts(key, limit: CapabilityPolicy.itemYieldWindow)).flatMap {
                capability.itemFailuresToStop(recent: $0, now: clock.now(), runStarted: request.budget?.start)
            }
        }
        var failuresInARow = 0
        // This run's own answers of this part: what ``ItemAllowance`` judges.
        var answered = 0
        var acceptedHere = 0
        var passedOver = 0
        for job in jobs {
            if let failuresToStop, failuresInARow >= failuresToStop {
                outcomes.append(
                    .kept(
                        "not rewritten: \(engine.modelName) failed this material's last \(failuresInARow) items of "
                            + "this kind, more than its record makes likely; the rest keep their extracted form"
                    ))
                continue
            }
            let prompt = [job.prompt, TaskPrompt.languageInstruction(request.document.language)].compactMap { $0 }
                .joined(separator: "\n\n")
            let asked = ItemAnswers.Key(
                model: "\(engine.kind.rawValue)/\(engine.identity)", version: spec.version,
                instructions: spec.instructions, prompt: prompt)
            if let answer = itemAnswers[asked] {
                if itemAnswers.isStored(asked) { log.answeredFromCache(job.path) }
                outcomes.append(Self.judge(answer, job: job, spec: spec, materialUsesCJK: materialUsesCJK).item)
                continue
            }
            // Asked in an earlier run: judged again here, at no cost, before any skip.
            let stored = try? Self.itemAnswerKey(spec, job: job, task: task, engine: engine, prompt: prompt)
            if let answer = storedItemAnswer(stored) {
                itemAnswers.keepStored(answer, for: asked)
                log.answeredFromCache(job.path)
                outcomes.append(Self.judge(answer, job: job, spec: spec, materialUsesCJK: materialUsesCJK).item)
                continue
            }
            if capability.boundsItemRewrites,
                let stop = allowance.stop(asked: answered, accepted: acceptedHere, passedOver: passedOver)
            {
                outcomes.append(.kept(stop))
                continue
            }
            if capability.boundsItemRewrites, !allowance.asksEveryShape, let reason = job.passedOver {
                outcomes.append(.kept("not rewritten: " + reason))
                passedOver += 1
                continue
            }
            if let skip = recorder.capabilitySkip(
                engine, key: key, runStarted: request.budget?.start, oncePerDocument: spec.oncePerDocument)
            {
                outcomes.append(.kept("not rewritten: \(engine.modelName) \(skip)"))
                continue
            }
            if let budget = request.budget {
                let promptTokens = TokenCount.estimate(for: spec.instructions + job.prompt).count
                if let skip = await recorder.budgetSkip(
                    engine, key: key, promptTokens: promptTokens, responseTokens: spec.maximumTokens, budget: budget)
                {
                    outcomes.append(.kept("not rewritten: \(skip)"))
                    continue
                }
            }
            let started = clock.now()
            var outcome: AttemptOutcome? = nil
            var usage = Usage(promptTokens: 0, completionTokens: 0)
            do {
                var generation = spec.request(prompt: prompt, schema: job.schema, ideographs: materialUsesCJK)
                generation.reusesPromptPrefix = true
                let sent = generation
                var stop: (@Sendable (String) -> Bool)?
                if let refusal = job.settledRefusal {
                    stop = { @Sendable (text: String) -> Bool in refusal(AnswerSoFar(partial: text)) != nil }
                }
                let response = try await generate(sent, key, stop)
                usage = response.usage
                let answer: ItemAnswers.Answer = switch response.finishReason {
                case "length": .cut
                case ItemAnswers.stoppedFinishReason: .stopped(response.text)
                default: .text(response.text)
                }
                itemAnswers[asked] = answer
                storeItemAnswer(answer, key: stored, spec: spec)
                let judged = Self.judge(answer, job: job, spec: spec, materialUsesCJK: materialUsesCJK)
                outcome = judged.attempt
                outcomes.append(judged.item)
            } catch {
                outcome = RoutingEngine.outcome(for: error)
                outcomes.append(.kept("not rewritten: \(RoutingEngine.reason(for: error))"))
            }
            recorder.recordAttempt(key, outcome: outcome, started: started, usage: usage, log: log)
            if let outcome {
                failuresInARow = outcome == .accepted ? 0 : failuresInARow + 1
                answered += 1
                if outcome == .accepted { acceptedHere += 1 }
            }
        }
        return outcomes
    }

    /// How one item's answer counts in the record, and what becomes of the item.
    static func judge(
        _ answer: ItemAnswers.Answer, job: ItemJob, spec: ItemSpec, materialUsesCJK: Bool
    ) -> (attempt: AttemptOutcome, item: ItemOutcome) {
        let text: String
        switch answer {
        case .cut:
            return (.cut, .kept("not rewritten: the answer reached its \(spec.maximumTokens)-token limit"))
        case .stopped(let written):
            // Stopped by a settled rule, which says why once more from what was written.
            let soFar = AnswerSoFar(partial: written)
            let reason = job.settledRefusal?(soFar) ?? "the answer was stopped before its end"
            return (.invalid, .kept("not rewritten: " + Self.quotingAnswer(reason, soFar.json, stopped: true)))
        case .text(let written):
            text = written
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(ModelOutputText.unfenced(text), allowingRawControlCharacters: true)
        } catch {
            return (.invalid, .kept("not rewritten: \(RoutingEngine.reason(for: error))"))
        }
        let verdict = LanguageRule.scriptIssues(in: json, materialUsesCJK: materialUsesCJK).first.map {
            Result<String, ItemRejection>.failure(ItemRejection(reason: "the answer \($0.message)"))
        } ?? job.verdict(json)
        switch verdict {
        case .success(let rewritten):
            return (.accepted, .rewritten(rewritten))
        case .failure(let rejection):
            return (.invalid, .kept("not rewritten: " + Self.quotingAnswer(rejection.reason, json)))
        }
    }

    /// `reason`, followed by what the model wrote (its first text field, shortened) unless the
    /// reason already quotes it, so a student or a maintainer sees what was refused:
    /// `the question gave its answer away (“What makes extra ATP but no NADPH?”)`.
    static func quotingAnswer(_ reason: String, _ json: JSONValue, stopped: Bool = false) -> String {
        // The longest string the model wrote says most of what it did: a card's question, not
        // its answer, which the card fixes anyway.
        guard !reason.contains("“"), case .object(let fields) = json else { return reason }
        let texts: [String] = fields.keys.compactMap { fields[$0]?.stringValue }.map(ProseText.oneLine)
        let longestFirst = texts.sorted { (left: String, right: String) -> Bool in
            left.count != right.count ? left.count > right.count : left < right
        }
        guard let said = longestFirst.first, !said.isEmpty else { return reason }
        // A stopped answer is quoted as far as it went, which the ellipsis says.
        var quoted = ProseText.shortened(said, maxLength: 100)
        if stopped, !quoted.hasSuffix("…") { quoted += "…" }
        return reason + " (“" + quoted + "”)"
    }

}
