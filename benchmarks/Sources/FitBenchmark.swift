import Foundation
@_spi(Benchmarks) import StudyKit

/// Issue 5: fitting a long document to a small window, ours against the common re-count loop,
/// both against the same real tokenizer, with the same task, document and token budget.
struct FitBenchmark {
    /// What one method produced, measured the same way for both.
    struct Outcome {
        var name: String
        var counts: CountingEngine.Counts
        var seconds: [Double]
        /// Tokens of instructions + "\n" + prompt as sent, counted once with the real tokenizer.
        var promptTokens: Int
        var coverage: Coverage
        /// Ours only: fitting alone (the estimate: no I/O; exact: with its one count), median of the same number of runs.
        var fitOnlySeconds: [Double] = []
        /// Tokens of the document as sent (prompt tokens less those of the prompt without it).
        var documentTokensSent = 0

        var medianMilliseconds: Double { Self.median(seconds) * 1000 }

        static func median(_ values: [Double]) -> Double {
            guard !values.isEmpty else { return 0 }
            let sorted = values.sorted()
            let middle = sorted.count / 2
            return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        }
    }

    /// The router's template allowance (24) plus re-ask allowance (160), held back from every
    /// window (`templateAllowance` and `reaskAllowance` in Routing/TokenBudget.swift, internal
    /// there). The reference loop aims at the same budget so the two are comparable.
    static let routerAllowance = 24 + 160

    let engine: any LanguageModel
    let task: StudyTask
    let document: Document
    let runs: Int

    /// Tokens the instructions and prompt may take: window − response reserve − allowance.
    func promptBudget() async throws -> Int {
        try await engine.contextSize().tokens - task.responseReserve - Self.routerAllowance
    }

    /// The text both methods are judged by: the system message, a line break, the user message.
    private func promptText(documentText: String) -> String {
        task.instructions + "\n" + task.prompt(document: documentText, title: document.title)
    }

    // MARK: ours

    /// One run of the router up to the point of sending: availability, `checkBudget`,
    /// `fitContent`, prompt. Returns the request the router would have sent. `byEstimate` fits
    /// as before exact budgets (the padded estimate, no count of the fitted prompt).
    private func runOurs(byEstimate: Bool) async throws -> (counts: CountingEngine.Counts, seconds: Double, prompt: GenerationRequest) {
        let counting = CountingEngine(engine)
        let router = RoutingEngine(
            local: counting, remote: UnconfiguredEngine(kind: .remote, reason: "the benchmark uses the local window only"),
            fitsByEstimate: byEstimate)
        let request = RoutingRequest(task: task, document: document, engine: .local, offline: true, useCache: false)
        let clock = ContinuousClock()
        let start = clock.now
        var failure: (any Error)?
        do { _ = try await router.run(request) } catch { failure = error }
        let elapsed = clock.now - start
        let snapshot = counting.snapshot
        guard let sent = snapshot.request else {
            throw BenchmarkError("the router stopped before building a prompt: \(failure.map(describe) ?? "no error")")
        }
        return (snapshot.counts, elapsed.seconds, sent)
    }

    // MARK: reference

    /// The common approach: count the whole prompt; while it is over budget keep the first 75%
    /// of the document text and count again.
    private func runReference(budget: Int) async throws -> (counts: CountingEngine.Counts, seconds: Double, kept: String) {
        let counting = CountingEngine(engine)
        let clock = ContinuousClock()
        let start = clock.now
        var kept = document.text
        while try await counting.tokenCount(for: promptText(documentText: kept)).count > budget, !kept.isEmpty {
            kept = String(kept.prefix(kept.count * 3 / 4))
        }
        let elapsed = clock.now - start
        return (counting.snapshot.counts, elapsed.seconds, kept)
    }

    // MARK: the run

    /// One warm-up of each, then `runs` timed runs of each, interleaved so server noise hits both.
    func run() async throws -> (ours: Outcome, before: Outcome, reference: Outcome, budget: Int, documentTokens: Int, overhead: Int) {
        let budget = try await promptBudget()
        let outline = DocumentOutline(text: document.text)
        var ours = try await runOurs(byEstimate: false)
        var before = try await runOurs(byEstimate: true)
        var reference = try await runReference(budget: budget)
        var ourSeconds: [Double] = []
        var beforeSeconds: [Double] = []
        var referenceSeconds: [Double] = []
        for _ in 0..<runs {
            ours = try await runOurs(byEstimate: false)
            ourSeconds.append(ours.seconds)
            before = try await runOurs(byEstimate: true)
            beforeSeconds.append(before.seconds)
            reference = try await runReference(budget: budget)
            referenceSeconds.append(reference.seconds)
        }

        guard let ourDocument = Self.fencedDocument(in: ours.prompt.prompt),
            let beforeDocument = Self.fencedDocument(in: before.prompt.prompt)
        else {
            throw BenchmarkError("the router's prompt has no <document> fence")
        }
        // Measured outside the counted calls, with the same tokenizer.
        let documentTokens = try await engine.tokenCount(for: document.text).count
        let overhead = try await engine.tokenCount(for: promptText(documentText: "")).count
        var fitOnly: [Double] = []
        var fitOnlyBefore: [Double] = []
        for _ in 0..<runs {
            let clock = ContinuousClock()
            var start = clock.now
            _ = try await fitContent(document, documentTokens: documentTokens, budget: budget - overhead) { fitted in
                try await engine.tokenCount(for: promptText(documentText: fitted)).count - overhead
            }
            fitOnly.append((clock.now - start).seconds)
            start = clock.now
            _ = fitContent(document, documentTokens: documentTokens, budget: budget - overhead)
            fitOnlyBefore.append((clock.now - start).seconds)
        }
        func outcome(_ name: String, _ run: (counts: CountingEngine.Counts, seconds: Double, prompt: GenerationRequest), seconds: [Double], kept: String, fitOnly: [Double]) async throws -> Outcome {
            let tokens = try await engine.tokenCount(for: run.prompt.instructions + "\n" + run.prompt.prompt).count
            var result = Outcome(
                name: name, counts: run.counts, seconds: seconds, promptTokens: tokens,
                coverage: Coverage(kept: kept, in: document.text, outline: outline), fitOnlySeconds: fitOnly)
            result.documentTokensSent = tokens - overhead
            return result
        }
        let referenceTokens = try await engine.tokenCount(for: promptText(documentText: reference.kept)).count
        var referenceOutcome = Outcome(
            name: "reference", counts: reference.counts, seconds: referenceSeconds, promptTokens: referenceTokens,
            coverage: Coverage(kept: reference.kept, in: document.text, outline: outline))
        referenceOutcome.documentTokensSent = referenceTokens - overhead
        return (
            try await outcome("ours", ours, seconds: ourSeconds, kept: ourDocument, fitOnly: fitOnly),
            try await outcome("before", before, seconds: beforeSeconds, kept: beforeDocument, fitOnly: fitOnlyBefore),
            referenceOutcome, budget, documentTokens, overhead
        )
    }

    /// The text between the prompt's `<document>` fences.
    static func fencedDocument(in prompt: String) -> String? {
        guard let open = prompt.range(of: "<document>\n"), let close = prompt.range(of: "\n</document>", options: .backwards),
            open.upperBound <= close.lowerBound
        else { return nil }
        return String(prompt[open.upperBound..<close.lowerBound])
    }

    // MARK: input

    /// `source` repeated, copies joined by a blank line, until it has at least `minimumCharacters`.
    static func repeated(_ source: Document, toAtLeast minimumCharacters: Int) -> (document: Document, copies: Int) {
        var copies = 1
        var text = source.text
        while text.count < minimumCharacters {
            text += "\n\n" + source.text
            copies += 1
        }
        return (Document(text: text, title: source.title, kind: source.kind, origin: source.origin), copies)
    }
}

// MARK: - Coverage

/// How much of the document a kept text represents, measured the same way for both methods.
///
/// The kept text is cut into pieces at blank lines (`[…]` markers dropped); each piece is found
/// in the document after the previous one. Ours keeps every heading, which anchors this in-order
/// search even though the input repeats; the reference's pieces are a prefix. A unit of the
/// outline is kept when it lies wholly inside a found piece.
struct Coverage {
    /// Document characters inside the found pieces.
    var keptCharacters = 0
    /// Characters of the kept units that are headings.
    var headingCharacters = 0
    /// `[…]` lines standing for skipped text.
    var markers = 0
    /// Sections with at least one kept unit, a heading counting.
    var sectionsWithAnyUnit = 0
    /// Sections with at least one kept sentence of body text.
    var sectionsWithBody = 0
    var totalSections = 0
    /// Pieces that could not be found in the document (should be 0).
    var unmatchedPieces = 0

    init(kept: String, in text: String, outline: DocumentOutline) {
        totalSections = outline.sections.count
        var found: [Range<String.Index>] = []
        var cursor = text.startIndex
        for piece in kept.components(separatedBy: "\n\n") {
            let piece = piece.trimmingCharacters(in: .whitespacesAndNewlines)
            if piece == ContentFitter.marker { markers += 1 }
            if piece.isEmpty || piece == ContentFitter.marker { continue }
            guard let range = text.range(of: piece, options: .literal, range: cursor..<text.endIndex) else {
                unmatchedPieces += 1
                continue
            }
            found.append(range)
            keptCharacters += text[range].count
            cursor = range.upperBound
        }
        var anyUnit = Set<Int>()
        var body = Set<Int>()
        var next = 0
        for (position, unit) in outline.units.enumerated() {
            while next < found.count, found[next].upperBound < unit.range.upperBound { next += 1 }
            guard next < found.count, found[next].lowerBound <= unit.range.lowerBound else { continue }
            let section = outline.sectionOfUnit[position]
            anyUnit.insert(section)
            if unit.isHeading { headingCharacters += text[unit.range].count } else { body.insert(section) }
        }
        sectionsWithAnyUnit = anyUnit.count
        sectionsWithBody = body.count
    }
}

// MARK: - Report

extension FitBenchmark {
    /// The Markdown section for benchmarks/RESULTS.md.
    static func report(
        ours: Outcome, before: Outcome, reference: Outcome, budget: Int, overhead: Int, window: Int, task: StudyTask, source: String,
        copies: Int, document: Document, documentTokens: Int, model: String, runs: Int
    ) -> String {
        func number(_ value: Int) -> String { value.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US"))) }
        func milliseconds(_ value: Double) -> String { String(format: "%.1f ms", value) }
        func share(_ part: Int, _ whole: Int) -> String {
            "\(number(part)) of \(number(whole)) (\(whole == 0 ? 0 : Int((Double(part) / Double(whole) * 100).rounded()))%)"
        }
        let rows: [(String, (Outcome) -> String)] = [
            ("tokenizer calls", { "\($0.counts.calls)" }),
            ("characters sent to the tokenizer", { number($0.counts.characters) }),
            ("wall time, median of \(runs)", { milliseconds($0.medianMilliseconds) }),
            ("of which `fitContent` alone (before: no I/O; now: with its one count)", {
                $0.fitOnlySeconds.isEmpty ? "–" : milliseconds(Outcome.median($0.fitOnlySeconds) * 1000)
            }),
            ("final prompt tokens (instructions + prompt)", { number($0.promptTokens) }),
            ("fits the \(number(budget))-token budget", { $0.promptTokens <= budget ? "yes" : "**no**" }),
            ("document tokens sent, of the \(number(budget - overhead))-token content budget", {
                "\(number($0.documentTokensSent)) (\(String(format: "%.1f", Double($0.documentTokensSent) / Double(budget - overhead) * 100)) %)"
            }),
            ("kept characters of the document", { share($0.coverage.keptCharacters, document.characterCount) }),
            ("of which headings", { share($0.coverage.headingCharacters, $0.coverage.keptCharacters) }),
            ("`[…]` lines for skipped text", { "\($0.coverage.markers)" }),
            ("sections with a kept sentence", { share($0.coverage.sectionsWithBody, $0.coverage.totalSections) }),
            ("sections with a kept heading or sentence", { share($0.coverage.sectionsWithAnyUnit, $0.coverage.totalSections) }),
        ]
        var lines = [
            "## Fitting: exact token budgets vs the padded estimate vs a re-count loop",
            "",
            "Input: `\(source)`'s normalized text (the library's `Importer`), \(copies) \(copies == 1 ? "copy" : "copies joined by a blank line"), "
                + "headings kept: \(number(document.characterCount)) characters, \(number(documentTokens)) tokens, "
                + "\(ours.coverage.totalSections) sections (`DocumentOutline`).",
            "Task `\(task.name)` against the real local server's tokenizer (\(model), \(number(window))-token window): "
                + "instructions + prompt must fit \(number(window)) − \(task.responseReserve) response reserve − "
                + "\(routerAllowance) template/re-ask allowance = \(number(budget)) tokens.",
            "Ours runs `RoutingEngine` with the local engine forced, stopped just before generation "
                + "(`checkBudget` + `fitContent`; availability and the window are not tokenizer calls): now, sentences priced at "
                + "rates calibrated on the document's count, one exact count of the fitted prompt, then a predicted top-up or trim; "
                + "before (the same router with `fitsByEstimate`, as fitting was until this change), every sentence priced at "
                + "the document's average tokens per byte plus 10 % and a token, no count of the fitted prompt. "
                + "The reference counts the whole prompt and, while it is over budget, keeps the first 75% of the text.",
            "The content budget is the prompt budget less the tokens of the prompt without its document (\(number(overhead))).",
            "Machine: \(ProcessInfo.processInfo.activeProcessorCount) CPU cores, shared; release build; the model server is shared too. "
                + "Reproduce with `scripts/bench-fit --write`.",
            "",
            "| | now: exact budget | before: padded estimate | reference: re-count, keep 75%, repeat |",
            "|---|---|---|---|",
        ]
        for (label, value) in rows { lines.append("| \(label) | \(value(ours)) | \(value(before)) | \(value(reference)) |") }
        let ratio = ours.medianMilliseconds > 0 ? reference.medianMilliseconds / ours.medianMilliseconds : 0
        lines.append("")
        lines.append(
            "Reference / ours: \(String(format: "%.2f", ratio))× the wall time, "
                + "\(reference.counts.calls) / \(ours.counts.calls) tokenizer calls. "
                + "Now / before: \(String(format: "%.2f", before.medianMilliseconds > 0 ? ours.medianMilliseconds / before.medianMilliseconds : 0))× the wall time, "
                + "\(ours.counts.calls) / \(before.counts.calls) tokenizer calls, "
                + "\(String(format: "%.2f", before.documentTokensSent > 0 ? Double(ours.documentTokensSent) / Double(before.documentTokensSent) : 0))× the document tokens sent.")
        let unmatched = ours.coverage.unmatchedPieces + before.coverage.unmatchedPieces + reference.coverage.unmatchedPieces
        if unmatched > 0 { lines.append("(\(unmatched) kept pieces could not be located in the document; coverage is a lower bound.)") }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension Duration {
    fileprivate var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
