import Foundation

// MARK: - studykit eval

extension Runner {
    /// Measures each engine on each document and task, and prints the table (or `--json`).
    func evaluate(_ settings: EvalSettings) async throws {
        var documents: [(name: String, document: Document)] = []
        for path in try documentFiles(settings.sources) {
            documents.append((path, try await loadDocument(path, settings: settings.sourceSettings)))
        }
        let plan = EvalPlan(documents: documents, tasks: settings.tasks, engines: settings.engines,
            repeats: settings.repeats)

        let configuration = try EngineConfiguration.load(environment: environment)
        if settings.engines.contains(.remote), configuration.remote == nil {
            throw UsageError.invalidValue(
                option: "--engines", value: "remote",
                expected: "a configured remote engine (set STUDYKIT_REMOTE_URL) or builtin,local")
        }
        let remoteRequests = plan.maximumRequests(to: .remote)
        if remoteRequests > settings.maxRequests {
            throw UsageError.invalidValue(
                option: "--max-requests", value: "\(settings.maxRequests)",
                expected: "at least \(remoteRequests) for this plan, whose remote calls are real, billed calls; or "
                    + "fewer documents, tasks or repeats")
        }
        errorOutput.line(
            "studykit eval: \(plan.runCount) runs (\(documents.count) documents × \(plan.tasks.count) tasks × "
                + "\(plan.engines.count) engines × \(plan.repeats)); "
                + "at most \(plan.maximumRequests(to: .local)) requests to local and \(remoteRequests) to remote (each "
                + "run may re-ask once)")

        let local = configuration.localEngine(transport: transport)
        let remote = configuration.remoteEngine(transport: transport)
        // The ledger counts remote usage against the quota, as every remote call does; no cache
        // and no capability memory: eval measures what each model does, every time.
        let quota = try remoteQuota(configuration)
        let meter = EvalMeter(ledger: openLedger(configuration, quota: quota).meter)
        let errors = errorOutput
        let router = RoutingEngine(
            local: local, remote: remote, cache: nil, ledger: meter, quota: quota,
            warn: { errors.line("studykit eval: \($0)") })
        let quiet = settings.quiet
        let evaluator = Evaluator(router: router, meter: meter, onRun: { run, index, total in
            guard !quiet else { return }
            let what =
                run.outcome == .failed ? "failed" : "valid \(run.outcome.rawValue), \(run.groundedItems)/\(run.items) "
                    + "grounded"
            errors.line(
                "studykit eval: [\(index)/\(total)] \(run.task.name) · \(run.engine.rawValue) · "
                    + "\(TerminalSafety.clean(run.document)): "
                    + "\(what) (\(String(format: "%.2f", run.seconds)) s)")
        })
        let runs = await evaluator.run(plan)
        var models: [EngineKind: String] = [.builtin: BuiltinEngine().modelName]
        if settings.engines.contains(.local) { models[.local] = local.modelName }
        if settings.engines.contains(.remote) { models[.remote] = remote.modelName }
        let report = EvalReport(plan: plan, runs: runs, models: models)
        if settings.json {
            output.line(TerminalSafety.clean(report.jsonValue).prettyText)
        } else {
            output.write(TerminalSafety.clean(report.markdown))
        }
    }
}
