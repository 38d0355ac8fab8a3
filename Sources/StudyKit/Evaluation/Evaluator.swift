import Foundation
import Synchronization

// MARK: - What to measure

/// What `studykit eval` runs: every document × task × engine, `repeats` times.
struct EvalPlan: Sendable {
    /// The documents, each with the name it is reported under.
    var documents: [(name: String, document: Document)]
    /// The tasks measured.
    var tasks: [StudyTask]
    /// The engines measured, each forced (``EngineChoice``): no fallback hides a failure.
    var engines: [EngineKind]
    /// Runs of each document × task × engine.
    var repeats: Int

    /// The tasks eval can measure: the parts made from a document alone. Feynman feedback needs a
    /// student's explanation (its case table is `benchmarks/feynman-cases.tsv`), and the kit is
    /// the sum of these parts.
    static let measurableTasks: [StudyTask] = [.headline, .summary, .flashcards, .quiz, .mindmap]
    /// Tasks eval measures only when `--tasks` names them: the podcast, an opt-in part of the kit.
    static let optionalTasks: [StudyTask] = [.podcast]
    /// Engines measured when none are named: remote costs money and is opt-in.
    static let defaultEngines: [EngineKind] = [.builtin, .local]

    /// The number of runs.
    var runCount: Int { documents.count * tasks.count * engines.count * repeats }

    /// The most requests `engine` can be sent: each run asks once and may re-ask once.
    func maximumRequests(to engine: EngineKind) -> Int {
        guard engine != .builtin, engines.contains(engine) else { return 0 }
        return documents.count * tasks.count * repeats * 2
    }
}

/// One run: a task on a document by one engine, and what came of it.
struct EvalRun: Sendable, Equatable {
    enum Outcome: String, Sendable, Equatable {
        /// The first answer was valid and grounded whole.
        case firstTry = "first try"
        /// The first answer was judged item by item (#53): some items repaired, dropped, or added
        /// from the builtin engine, and the part kept.
        case repaired = "kept after repair"
        /// The answer needed the re-ask.
        case afterReask = "after re-ask"
        /// No valid answer: the engine failed, or its answers were invalid twice.
        case failed
    }

    var document: String
    var task: StudyTask
    var engine: EngineKind
    var outcome: Outcome
    /// Why it failed, one line; `nil` otherwise.
    var failure: String?
    /// Items shipped, and how many of them eval finds grounded in the material.
    var items: Int
    var groundedItems: Int
    /// Items the router dropped (they were not shipped): those a judged answer lost, or that
    /// failed grounding again after the re-ask.
    var droppedItems: Int
    /// Shipped items by provenance: written (or rewritten) by the model, repaired, extracted by
    /// the builtin engine (a top-up, or the builtin engine's whole part).
    var writtenItems = 0
    var repairedItems = 0
    var extractedItems = 0
    /// Why each dropped item was dropped, worded without its quoted text (``EvalRun/dropReason(_:)``).
    var dropReasons: [String] = []
    /// The document's sections with body text, and how many of them the items come from.
    var sections: Int
    var coveredSections: Int
    var seconds: Double
    var tokensIn: Int
    var tokensOut: Int
    /// Requests sent to a model (the answer and any re-ask).
    var requests: Int
    /// Steps of the fallback chain taken (a forced engine has none unless it was escalated or fitted).
    var fallbacks: Int
}

// MARK: - Running

/// Runs an ``EvalPlan`` on a router: no cache, no time budget, each engine forced (so the
/// capability skip, which never applies to a forced engine, cannot hide what a model does).
struct Evaluator: Sendable {
    let router: RoutingEngine
    /// The router's meter: what each run cost, failed runs included.
    let meter: EvalMeter
    /// Called after each run, for a progress line.
    var onRun: @Sendable (EvalRun, _ index: Int, _ total: Int) -> Void = { _, _, _ in }
    /// The wall clock.
    var now: @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }

    func run(_ plan: EvalPlan) async -> [EvalRun] {
        var runs: [EvalRun] = []
        let total = plan.runCount
        for engine in plan.engines {
            for task in plan.tasks {
                for (name, document) in plan.documents {
                    for _ in 0..<plan.repeats {
                        let run = await measure(task: task, document: document, name: name, engine: engine)
                        runs.append(run)
                        onRun(run, runs.count, total)
                    }
                }
            }
        }
        return runs
    }

    func measure(task: StudyTask, document: Document, name: String, engine: EngineKind) async -> EvalRun {
        let sections = EvalCoverage(document: document)
        var run = EvalRun(
            document: name, task: task, engine: engine, outcome: .failed, failure: nil, items: 0, groundedItems: 0,
            droppedItems: 0, sections: sections.count, coveredSections: 0, seconds: 0, tokensIn: 0, tokensOut: 0,
            requests: 0, fallbacks: 0)
        let choice: EngineChoice = switch engine {
        case .local: .local
        case .remote: .remote
        case .builtin: .builtin
        }
        let request = RoutingRequest(
            task: task, document: document, engine: choice, offline: engine != .remote, useCache: false)
        let started = now()
        let before = meter.recorded
        do {
            let routed = try await router.run(request)
            run.seconds = now() - started
            run.outcome = routed.reasked ? .afterReask : routed.judged ? .repaired : .firstTry
            let material = document.titleAndText
            let audited = Grounding.audit(routed.result, source: material)
            run.items = audited.count
            run.groundedItems = audited.filter(\.grounded).count
            run.droppedItems = routed.dropped.count
            run.dropReasons = routed.dropped.map { EvalRun.dropReason($0.reason) }
            for item in routed.items {
                switch item.kind {
                case .written, .rewritten: run.writtenItems += 1
                case .repaired: run.repairedItems += 1
                case .extracted: run.extractedItems += 1
                }
            }
            run.coveredSections = sections.covered(by: audited.map(\.anchor))
            run.fallbacks = routed.fallbacks.count
        } catch RoutingError.forcedEngineFailed(_, let reason) {
            run.seconds = now() - started
            run.failure = reason
        } catch {
            run.seconds = now() - started
            run.failure = RoutingEngine.reason(for: error)
        }
        let after = meter.recorded
        run.tokensIn = after.tokensIn - before.tokensIn
        run.tokensOut = after.tokensOut - before.tokensOut
        run.requests = after.requests - before.requests
        return run
    }
}

extension EvalRun {
    /// A drop's reason as a kind of reason: its own words without what it quotes, the paths
    /// it names or the advice after its semicolon ("quote is not in the material",
    /// "question repeats cards[].question").
    static func dropReason(_ reason: String) -> String {
        var text = reason.split(separator: ";", maxSplits: 1).first.map(String.init) ?? reason
        for pattern in [#""[^"]*""#, "“[^”]*”", #"\([^)]*\)"#, #"\[\d+\]"#] {
            let shown = pattern.hasPrefix("\\[") ? "[]" : "…"
            text = text.replacingOccurrences(of: pattern, with: shown, options: .regularExpression)
        }
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

// MARK: - Coverage

/// Which sections of a document a result's items come from: an item belongs to the section
/// whose text shares the most content words with its quote (or, without one, its own words).
struct EvalCoverage {
    private let sections: [Set<String>]

    init(document: Document) {
        let outline = DocumentOutline(text: document.text)
        sections = outline.sections.filter { !$0.sentences.isEmpty }.map { section in
            Set(section.sentences.flatMap { GroundingWords.contentStems($0.text) }
                + GroundingWords.contentStems(section.heading ?? ""))
        }
    }

    /// Sections with body text.
    var count: Int { sections.count }

    /// How many sections the texts come from.
    func covered(by anchors: [String]) -> Int {
        var hit = Set<Int>()
        for anchor in anchors {
            let stems = Set(GroundingWords.contentStems(anchor))
            guard !stems.isEmpty else { continue }
            var best: (index: Int, shared: Int)?
            for (index, section) in sections.enumerated() {
                let shared = section.intersection(stems).count
                if shared > 0, shared > (best?.shared ?? 0) { best = (index, shared) }
            }
            if let best { hit.insert(best.index) }
        }
        return hit.count
    }
}

// MARK: - The table

/// One row of the report: one task on one engine, over every document and repeat.
struct EvalRow: Sendable, Equatable {
    var task: StudyTask
    var engine: EngineKind
    var runs: Int
    var firstTry: Int
    /// Runs whose first answer was kept after repair (judged item by item).
    var repaired: Int = 0
    var afterReask: Int
    var failed: Int
    var items: Int
    var groundedItems: Int
    var droppedItems: Int
    var writtenItems: Int = 0
    var repairedItems: Int = 0
    var extractedItems: Int = 0
    /// The most frequent reasons items were dropped, each with its count ("quote is not in the
    /// material (3)"), most frequent first.
    var dropReasons: [String] = []
    var sections: Int
    var coveredSections: Int
    var p50Seconds: Double
    var maxSeconds: Double
    var tokensIn: Int
    var tokensOut: Int
    var requests: Int
    var fallbacks: Int

    /// Rows in plan order: engines, then tasks.
    static func rows(_ runs: [EvalRun], plan: EvalPlan) -> [EvalRow] {
        plan.engines.flatMap { engine in
            plan.tasks.compactMap { task in
                let mine = runs.filter { $0.engine == engine && $0.task == task }
                guard !mine.isEmpty else { return nil }
                let seconds = mine.map(\.seconds).sorted()
                let succeeded = mine.filter { $0.outcome != .failed }
                let reasons = Dictionary(grouping: mine.flatMap(\.dropReasons), by: { $0 })
                    .map { (reason: $0.key, count: $0.value.count) }
                    .sorted { $0.count != $1.count ? $0.count > $1.count : $0.reason < $1.reason }
                return EvalRow(
                    task: task, engine: engine, runs: mine.count,
                    firstTry: mine.filter { $0.outcome == .firstTry }.count,
                    repaired: mine.filter { $0.outcome == .repaired }.count,
                    afterReask: succeeded.count,
                    failed: mine.count - succeeded.count,
                    items: mine.map(\.items).reduce(0, +), groundedItems: mine.map(\.groundedItems).reduce(0, +),
                    droppedItems: mine.map(\.droppedItems).reduce(0, +),
                    writtenItems: mine.map(\.writtenItems).reduce(0, +),
                    repairedItems: mine.map(\.repairedItems).reduce(0, +),
                    extractedItems: mine.map(\.extractedItems).reduce(0, +),
                    dropReasons: reasons.prefix(3).map { "\($0.reason) (\($0.count))" },
                    sections: succeeded.map(\.sections).reduce(0, +),
                    coveredSections: succeeded.map(\.coveredSections).reduce(0, +),
                    p50Seconds: median(seconds), maxSeconds: seconds.last ?? 0,
                    tokensIn: mine.map(\.tokensIn).reduce(0, +), tokensOut: mine.map(\.tokensOut).reduce(0, +),
                    requests: mine.map(\.requests).reduce(0, +), fallbacks: mine.map(\.fallbacks).reduce(0, +))
            }
        }
    }

    /// The middle value of sorted numbers (the mean of the middle two for an even count).
    static func median(_ sorted: [Double]) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

// MARK: - Tokens, failures included

/// The router's usage meter, seen by eval: every request is passed on to the real ledger (remote
/// calls count against the quota, as always) and added up here, so a run's tokens and requests
/// are known even when it fails and no ``RoutedResult`` says what it cost.
final class EvalMeter: UsageMetering {
    private let ledger: (any UsageMetering)?
    private let totals = Mutex<(tokensIn: Int, tokensOut: Int, requests: Int)>((0, 0, 0))

    init(ledger: (any UsageMetering)?) {
        self.ledger = ledger
    }

    var today: LedgerDay { ledger?.today ?? SystemDayClock().today }

    func record(engine: EngineKind, tokensIn: Int, tokensOut: Int, requests: Int) throws(CacheError) {
        totals.withLock { $0 = ($0.tokensIn + tokensIn, $0.tokensOut + tokensOut, $0.requests + requests) }
        try ledger?.record(engine: engine, tokensIn: tokensIn, tokensOut: tokensOut, requests: requests)
    }

    func usage(engine: EngineKind, on day: LedgerDay?) throws(CacheError) -> DailyUsage {
        guard let ledger else {
            return DailyUsage(engine: engine, day: day ?? today, tokensIn: 0, tokensOut: 0, requests: 0)
        }
        return try ledger.usage(engine: engine, on: day)
    }

    func reserve(
        engine: EngineKind, tokens: Int, quota: DailyQuota, expiresAt: Date?
    ) throws(CacheError) -> QuotaReservation? {
        guard let ledger else { return QuotaReservation(id: 0, day: today, requests: 1, tokens: max(0, tokens)) }
        return try ledger.reserve(engine: engine, tokens: tokens, quota: quota, expiresAt: expiresAt)
    }

    func settle(
        _ reservation: QuotaReservation?, engine: EngineKind, spent: Spending, requests: [RequestRecord]
    ) throws(CacheError) {
        totals.withLock {
            $0 = ($0.tokensIn + spent.tokensIn, $0.tokensOut + spent.tokensOut, $0.requests + spent.requests)
        }
        try ledger?.settle(reservation, engine: engine, spent: spent, requests: requests)
    }

    func openReservations(engine: EngineKind) throws(CacheError) -> [QuotaReservation] {
        try ledger?.openReservations(engine: engine) ?? []
    }

    /// Everything recorded so far.
    var recorded: (tokensIn: Int, tokensOut: Int, requests: Int) { totals.withLock { $0 } }
}
