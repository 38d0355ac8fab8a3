import Foundation
import Testing

@testable import StudyKit

/// The judge calibrated against a student's verdict (#53): `benchmarks/verdicts.tsv` holds a
/// verdict on items two models wrote on the evaluation set (useful: true and worth studying;
/// wrong: misstates the material; junk: malformed, trivial, or about the document), and
/// `benchmarks/calibration/answers.jsonl` the answers they came from, as the models wrote them.
/// Every answer is judged again here by the current rules, so the two shares — accepted items
/// that are useful, useful items that were accepted — are measured on every change.
@Suite("The judge against a student's verdict")
struct CalibrationTests {
    struct Answer: Sendable {
        let id: String
        let model: String
        let document: String
        let half: String
        let task: String
        let finish: String?
        let text: String
        let card: Flashcards.Card?
    }

    struct Verdict: Sendable {
        let item: String
        let model: String
        let half: String
        let verdict: String
        /// Whether the parent commit's binary shipped the item as a model's.
        let shippedBefore: Bool
    }

    static let folder = TestPaths.packageRoot.appendingPathComponent("benchmarks")

    static func answers() throws -> [String: Answer] {
        let text = try String(contentsOf: folder.appendingPathComponent("calibration/answers.jsonl"), encoding: .utf8)
        var answers: [String: Answer] = [:]
        for line in text.split(separator: "\n") where !line.isEmpty {
            let json = try JSONValue.parse(String(line))
            let card = json["card"].flatMap { card -> Flashcards.Card? in
                guard let question = card["question"]?.stringValue, let answer = card["answer"]?.stringValue,
                    let quote = card["quote"]?.stringValue
                else { return nil }
                return Flashcards.Card(question: question, answer: answer, quote: quote)
            }
            let answer = Answer(
                id: json["id"]?.stringValue ?? "", model: json["model"]?.stringValue ?? "",
                document: json["document"]?.stringValue ?? "",
                half: json["half"]?.stringValue ?? "", task: json["task"]?.stringValue ?? "",
                finish: json["finish"]?.stringValue,
                text: json["answer"]?.stringValue ?? "", card: card)
            answers[answer.id] = answer
        }
        return answers
    }

    static func verdicts() throws -> [Verdict] {
        let text = try String(contentsOf: folder.appendingPathComponent("verdicts.tsv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard cells.count >= 6 else { return nil }
            return Verdict(
                item: cells[0], model: cells[1], half: cells[2], verdict: cells[4], shippedBefore: cells[5] == "yes")
        }
    }

    /// The material of a document, as the router grounds answers in it.
    static func material(_ path: String) async throws -> Document {
        try await Importer().load(SourceReference(argument: TestPaths.packageRoot.appendingPathComponent(path).path))
    }

    /// The paths of `answer`'s items that the current rules accept (ship as the model's), by
    /// their place in the answer as written.
    static func accepted(_ answer: Answer, document: Document) -> Set<String> {
        let material = document.titleAndText
        let builtin = BuiltinEngine()
        switch answer.task {
        case "card", "quizQuestion":
            guard let card = answer.card, let json = try? JSONValue.parse(answer.text) else { return [] }
            let job = ItemRewriter.cardJob(
                card, path: "item", materialStems: Set(GroundingWords.contentStems(material)),
                subjectAnswers: answer.task == "card")
            if case .success = job.verdict(json) { return ["item"] }
            return []
        case "headline":
            // A title over its six words is shortened by the model in a second request: the blurb is what is judged.
            guard var json = try? JSONValue.parse(answer.text), var fields = json.objectValue else { return [] }
            fields["title"] = .string("Notes")
            json = .object(fields)
            let injected = InjectedInstructions(material)
            if let result = try? decodeResult(for: .headline, json: json),
                RoutingEngine.answerIssues(result, language: "en", injected: injected).all.isEmpty
            {
                return ["blurb"]
            }
            // A blurb mended by rule (its filler aside left out, cut to its main clause) is the model's too.
            let skeleton = try? builtin.generate(.headline, text: document.text, title: document.title)
            let floor: Headline? = if case .headline(let own)? = skeleton { own } else { nil }
            let mended = RoutingEngine.repairedHeadline(
                json: json, model: answer.model, language: "en", injected: injected, builtin: floor)
            let blurb = mended?.items.first { $0.path == "blurb" }
            guard mended?.result != nil, let blurb, blurb.kind == .repaired else { return [] }
            return ["blurb"]
        default:
            guard let task = StudyTask(rawValue: answer.task) else { return [] }
            // A loop is stopped where the router's guard stops it; the items before it are judged.
            let (text, looped) = CalibrationReplayTests.stopped(answer.text, task: task)
            let complete = answer.finish == "stop" && !looped
            guard
                let json = complete
                    ? try? JSONValue.parse(ModelOutputText.unfenced(text))
                    : RoutingEngine.finishedItems(of: text)
            else { return [] }
            let judge = PartJudge(
                material: material, counts: .standard, model: answer.model,
                skeleton: try? builtin.generate(task, text: document.text, title: document.title))
            let judged: PartJudge.Judged
            do {
                judged = try judge.judge(json, task: task)
            } catch {
                if ProcessInfo.processInfo.environment["STUDYKIT_CALIBRATION_DEBUG"] == answer.id {
                    print("\(answer.id) refused: \(error)")
                }
                return []
            }
            if ProcessInfo.processInfo.environment["STUDYKIT_CALIBRATION_DEBUG"] == answer.id {
                print("\(answer.id) dropped: \(judged.dropped.map { "\($0.path): \($0.reason)" })")
            }
            var paths = Set(Self.itemPaths(json, task: task))
            paths.subtract(judged.dropped.map { Self.itemPath($0.path) })
            // An overview or a central topic the builtin engine's stood in for.
            for record in judged.items where record.note?.contains("the builtin engine's is shown") == true {
                paths.remove(record.path)
            }
            for part in judged.refusedParts {
                let name = KitAssembler.bundleMember(part)
                paths = paths.filter { !$0.hasPrefix(name + ".") }
            }
            return paths
        }
    }

    /// The path of the item a dropped path names (`cards[3].quote` → `cards[3]`).
    static func itemPath(_ path: String) -> String {
        guard let close = path.firstIndex(of: "]") else { return path }
        return String(path[...close])
    }

    /// Every item's path in an answer as written: list items, an overview, a central topic.
    static func itemPaths(_ json: JSONValue, task: StudyTask) -> [String] {
        func lists(_ value: JSONValue, prefix: String) -> [String] {
            var paths: [String] = []
            for (list, single) in [
                ("cards", nil), ("questions", nil), ("keyPoints", "overview"), ("branches", "centralTopic"),
            ] as [(String, String?)] {
                if let items = value[list]?.arrayValue { paths += items.indices.map { "\(prefix)\(list)[\($0)]" } }
                if let single, value[single] != nil { paths.append(prefix + single) }
            }
            return paths
        }
        guard task == .studyKit else { return lists(json, prefix: "") }
        return ["summary", "flashcards", "quiz", "mindMap"].flatMap { name in
            json[name].map { lists($0, prefix: name + ".") } ?? []
        }
    }

    @Test func theJudgeIsMeasuredAgainstTheVerdicts() async throws {
        let answers = try Self.answers()
        let verdicts = try Self.verdicts()
        #expect(verdicts.count >= 60)
        var documents: [String: Document] = [:]
        var acceptedPaths: [String: Set<String>] = [:]
        for answer in answers.values {
            if documents[answer.document] == nil {
                documents[answer.document] = try await Self.material(answer.document)
            }
            acceptedPaths[answer.id] = Self.accepted(answer, document: documents[answer.document]!)
        }
        struct Tally {
            var accepted = 0, acceptedUseful = 0, useful = 0, before = 0, beforeUseful = 0
            var wrongAccepted: [String] = [], junkAccepted: [String] = [], usefulRefused: [String] = []
        }
        var tallies: [String: Tally] = [:]
        for verdict in verdicts {
            let parts = verdict.item.split(separator: "#", maxSplits: 1).map(String.init)
            guard parts.count == 2, let paths = acceptedPaths[parts[0]] else {
                Issue.record("\(verdict.item): no such answer")
                continue
            }
            let accepted = paths.contains(parts[1])
            let useful = verdict.verdict == "useful"
            for key in ["\(verdict.model) · \(verdict.half)", "all"] {
                var tally = tallies[key, default: Tally()]
                if accepted { tally.accepted += 1 }
                if accepted, useful { tally.acceptedUseful += 1 }
                if useful { tally.useful += 1 }
                if verdict.shippedBefore { tally.before += 1 }
                if verdict.shippedBefore, useful { tally.beforeUseful += 1 }
                if accepted, verdict.verdict == "wrong" { tally.wrongAccepted.append(verdict.item) }
                if accepted, verdict.verdict == "junk" { tally.junkAccepted.append(verdict.item) }
                if !accepted, useful { tally.usefulRefused.append(verdict.item) }
                tallies[key] = tally
            }
        }
        func share(_ part: Int, _ whole: Int) -> String {
            whole == 0 ? "—" : "\(part)/\(whole) (\(Int((Double(part) * 100 / Double(whole)).rounded()))%)"
        }
        var lines = [
            "| model · half | accepted that are useful | useful that were accepted | before: shipped that are useful | before: useful that shipped | wrong accepted |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for key in tallies.keys.sorted() {
            let tally = tallies[key]!
            lines.append(
                "| \(key) | \(share(tally.acceptedUseful, tally.accepted)) | \(share(tally.acceptedUseful, tally.useful)) | "
                    + "\(share(tally.beforeUseful, tally.before)) | \(share(tally.beforeUseful, tally.useful)) | \(tally.wrongAccepted.count) |"
            )
        }
        // The table RESULTS.md quotes (`swift test --filter CalibrationTests`).
        print(lines.joined(separator: "\n"))
        if ProcessInfo.processInfo.environment["STUDYKIT_CALIBRATION_ITEMS"] == "1" {
            for key in tallies.keys.sorted() where key != "all" {
                let tally = tallies[key]!
                print(
                    "\(key)\n  wrong accepted: \(tally.wrongAccepted)\n  junk accepted: \(tally.junkAccepted)\n  useful refused: \(tally.usefulRefused)"
                )
            }
        }
        // The default model's wrong items never ship on the held-out half.
        for (key, tally) in tallies where key.contains("0.5B") && key.contains("held-out") {
            #expect(tally.wrongAccepted.isEmpty, "\(key): \(tally.wrongAccepted)")
        }
    }
}
