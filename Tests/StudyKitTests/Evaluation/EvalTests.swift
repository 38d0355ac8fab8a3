import Foundation
import Testing
@testable import StudyKit

@Suite("studykit eval: what each engine does, measured")
struct EvalTests {
    static let document = RoutingEngineTests.document()
    static let deck = #"""
        {"cards":[
          {"question":"What does prophase do to the chromosomes?","answer":"Condenses them into visible threads","quote":"Prophase condenses the chromosomes into visible threads."},
          {"question":"Where does metaphase line the chromosomes up?","answer":"Along the spindle equator","quote":"Metaphase lines the chromosomes up along the spindle equator."},
          {"question":"What does anaphase pull apart?","answer":"Sister chromatids","quote":"Anaphase pulls sister chromatids toward opposite poles."}]}
        """#
    /// The same deck with a fourth card whose quote the material never had.
    static let deckWithInventedCard = deck.replacingOccurrences(
        of: "]}", with: #",{"question":"What does meiosis make?","answer":"Eight diploid spores","quote":"Meiosis makes eight diploid spores in the roots."}]}"#)

    static func plan(_ engines: [EngineKind], repeats: Int = 1) -> EvalPlan {
        EvalPlan(documents: [("mitosis.txt", document)], tasks: [.flashcards], engines: engines, repeats: repeats)
    }

    @Test func eachRunSaysWhetherItWasValidFirstKeptAfterRepairAfterTheReaskOrNotAtAll() async {
        // Run 1: valid at once. Run 2: an invented card, dropped at once and the deck topped up
        // from the builtin engine (#53). Run 3: garbage twice.
        let remote = ScriptedModel(.remote, steps: [
            .answer(Self.deck),
            .answer(Self.deckWithInventedCard),
            .answer("not JSON"), .answer("still not JSON"),
        ])
        let meter = EvalMeter(ledger: nil)
        let router = RoutingEngine(local: ScriptedModel(.local), remote: remote, ledger: meter)
        let runs = await Evaluator(router: router, meter: meter).run(Self.plan([.remote], repeats: 3))
        #expect(runs.map(\.outcome) == [.firstTry, .repaired, .failed])
        #expect(runs.map(\.writtenItems) == [3, 3, 0])
        #expect(runs[1].items > 3 && runs[1].extractedItems == runs[1].items - 3, "topped up: \(runs[1])")
        #expect(runs.map { $0.groundedItems == $0.items } == [true, true, true])
        #expect(runs.map(\.droppedItems) == [0, 1, 0])
        #expect(runs[1].dropReasons == ["quote is not in the material"])
        #expect(runs.map(\.requests) == [1, 1, 2])
        // A failed run still cost what it sent: its tokens are counted.
        #expect(runs[2].tokensIn > 0 && runs[2].tokensOut > 0)
        #expect(runs[2].failure?.contains("not usable") == true || runs[2].failure?.contains("JSON") == true, "\(runs[2].failure ?? "")")
        #expect(runs[2].failure?.contains("drop --engine") == false)

        let row = try! #require(EvalRow.rows(runs, plan: Self.plan([.remote], repeats: 3)).first)
        let counts: [Int] = [row.runs, row.firstTry, row.repaired, row.afterReask, row.failed, row.droppedItems, row.requests]
        #expect(counts == [3, 1, 1, 2, 1, 1, 4])
        #expect(row.dropReasons == ["quote is not in the material (1)"])
    }

    @Test func theBuiltinEngineIsGroundedByConstructionAndCostsNothing() async {
        let meter = EvalMeter(ledger: nil)
        let router = RoutingEngine(local: ScriptedModel(.local), remote: ScriptedModel(.remote), ledger: meter)
        let plan = EvalPlan(
            documents: [("mitosis.txt", Self.document)], tasks: EvalPlan.measurableTasks, engines: [.builtin], repeats: 1)
        let runs = await Evaluator(router: router, meter: meter).run(plan)
        #expect(runs.count == 5)
        for run in runs {
            #expect(run.outcome == .firstTry, "\(run.task): \(run.failure ?? "")")
            #expect(run.items > 0 && run.groundedItems == run.items, "\(run.task)")
            #expect(run.requests == 0 && run.tokensIn == 0)
        }
    }

    @Test func theTableHasARowPerTaskAndEngineWithMedianAndMaximum() {
        func run(_ seconds: Double, _ outcome: EvalRun.Outcome) -> EvalRun {
            var run = EvalRun(
                document: "a", task: .quiz, engine: .local, outcome: outcome, failure: outcome == .failed ? "the model's answer | was cut" : nil,
                items: 4, groundedItems: 3, droppedItems: 1, sections: 5, coveredSections: 2, seconds: seconds, tokensIn: 100,
                tokensOut: 10, requests: 1, fallbacks: 0)
            (run.writtenItems, run.repairedItems, run.extractedItems) = (2, 1, 1)
            run.dropReasons = ["questions[].quote is not in the material"]
            return run
        }
        let plan = EvalPlan(documents: [("a", Self.document)], tasks: [.quiz], engines: [.local], repeats: 4)
        let report = EvalReport(plan: plan, runs: [run(4, .firstTry), run(1, .afterReask), run(3, .failed), run(2, .firstTry)], models: [.local: "tiny"])
        let row = try! #require(report.rows.first)
        #expect(row.p50Seconds == 2.5)
        #expect(row.maxSeconds == 4)
        let table = report.markdown
        #expect(table.contains("| quiz | local | tiny | 4 | 2 (50%) | 0 (0%) | 3 (75%) | 1 | 8 / 4 / 4 | 75% | 4 | 12/16 (75%) | 6/15 (40%) | 2.50 | 4.00 | 4 | 400 / 40 |"), "\(table)")
        #expect(table.contains("- quiz on local: questions[].quote is not in the material (4)"))
        // A failure's reason is one line with its pipe escaped, so the table stays a table.
        #expect(table.contains("- quiz on local, a: the model's answer | was cut"))
        #expect(report.jsonValue["rows"]?.arrayValue?.first?["validAfterReask"] == .integer(3))
    }

    @Test func sectionsAreCoveredByWhereTheItemsComeFrom() {
        let document = Document(
            text: "# Cells\n\nCells divide by mitosis.\n\n# Plants\n\nChloroplasts capture light.\n\n# Rocks\n\nGranite is an igneous rock.",
            title: "Notes", kind: .text, origin: "test")
        let coverage = EvalCoverage(document: document)
        #expect(coverage.count == 3)
        #expect(coverage.covered(by: ["Chloroplasts capture light.", "mitosis", "light"]) == 2)
    }

    @Test func argumentsAreParsedAndCheckedBeforeAnyWork() throws {
        guard case .eval(let settings) = try parseCommand(["eval", "samples", "notes.pdf", "--tasks", "quiz,mindmap", "--engines", "remote,builtin", "--repeat", "3", "--max-requests", "12"]) else {
            Issue.record("not eval")
            return
        }
        #expect(settings.sources == ["samples", "notes.pdf"])
        #expect(settings.tasks == [.quiz, .mindmap])
        #expect(settings.engines == [.remote, .builtin])
        #expect((settings.repeats, settings.maxRequests) == (3, 12))
        #expect(throws: UsageError.invalidValue(option: "--tasks", value: "feynman", expected: "headline, summary, flashcards, quiz, mindmap, podcast")) {
            try parseCommand(["eval", "samples", "--tasks", "feynman"])
        }
        #expect(throws: UsageError.invalidValue(option: "--engines", value: "cloud", expected: "builtin, local, remote")) {
            try parseCommand(["eval", "samples", "--engines", "cloud"])
        }
        #expect(throws: UsageError.missingArgument("<files or dirs…>", command: "eval")) { try parseCommand(["eval"]) }
    }

    @Test func remoteRequestsAreCountedAndCappedBeforeAnyCall() {
        let plan = EvalPlan(
            documents: [("a", Self.document), ("b", Self.document)], tasks: [.quiz, .summary], engines: [.builtin, .remote], repeats: 2)
        #expect(plan.runCount == 16)
        #expect(plan.maximumRequests(to: .remote) == 16)
        #expect(plan.maximumRequests(to: .local) == 0)
        #expect(plan.maximumRequests(to: .builtin) == 0)
    }
}

@Suite("studykit eval through the binary")
struct EvalEndToEndTests {
    @Test func builtinOnTheSamplesIsValidAndFullyGrounded() async throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-eval-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let result = try await StudykitBinary.run(
            ["eval", "samples/paste.txt", "samples/notes.pdf", "--engines", "builtin", "--json", "--quiet"],
            environment: ["STUDYKIT_CACHE_DIR": cache.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("studykit eval: 10 runs (2 documents × 5 tasks × 1 engines × 1); at most 0 requests to local and 0 to remote"))
        let json = try JSONValue.parse(result.stdout)
        guard case .array(let rows)? = json["rows"] else {
            Issue.record("no rows: \(result.stdout)")
            return
        }
        #expect(rows.count == 5)
        for row in rows {
            #expect(row["validFirstTry"] == .integer(2), "\(row)")
            #expect(row["items"] == row["groundedItems"], "\(row)")
            #expect((row["items"]?.integerValue ?? 0) > 0)
        }
    }

    @Test func remoteWithoutAServerOrOverTheCapIsRefusedBeforeAnyCall() async throws {
        let unconfigured = try await StudykitBinary.run(["eval", "samples/paste.txt", "--engines", "remote"])
        #expect(unconfigured.status == 64)
        #expect(unconfigured.stderr.contains("a configured remote engine (set STUDYKIT_REMOTE_URL)"))
        let capped = try await StudykitBinary.run(
            ["eval", "samples/paste.txt", "--engines", "remote", "--repeat", "20", "--max-requests", "10"],
            environment: ["STUDYKIT_REMOTE_URL": "http://127.0.0.1:9/v1", "STUDYKIT_REMOTE_API_KEY": "sk-test-not-used"])
        #expect(capped.status == 64)
        #expect(capped.stderr == "studykit: Invalid value '10' for '--max-requests': expected at least 200 for this plan, whose remote calls are real, billed calls; or fewer documents, tasks or repeats.\n")
        let missing = try await StudykitBinary.run(["eval", "samples/no-such-dir"])
        #expect(missing.status != 0)
        #expect(missing.stderr.split(separator: "\n").count == 1)
    }
}
