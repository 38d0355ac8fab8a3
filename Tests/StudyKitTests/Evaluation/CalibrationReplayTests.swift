import Foundation
import Testing

@testable import StudyKit

/// The whole parts Qwen2.5-Coder-1.5B wrote on both halves of `samples/eval` (#53), recorded in
/// `benchmarks/calibration/answers.jsonl`, replayed through the current rules part by part: how
/// many the parent binary shipped (any of its items in `verdicts.tsv` shipped), how many pass
/// whole now, how many are kept after repair, and how many of the model's items are kept,
/// repaired and dropped. No model runs: the figures RESULTS.md quotes for the 1.5B's parts.
@Suite("The 1.5B's recorded parts, replayed through the judge")
struct CalibrationReplayTests {
    struct Replay {
        var answers = 0, shippedBefore = 0, whole = 0, keptAfterRepair = 0, refused = 0, loops = 0
        var modelItems = 0, keptItems = 0, repairedItems = 0, droppedItems = 0, toppedUp = 0
        var reasons: [String: Int] = [:]
    }

    static let parts: Set<String> = ["summary", "flashcards", "quiz", "mindmap"]

    /// `answer` judged as the router judges a model's part, counted into `replay`; an answer that
    /// is no whole part (a card rewrite, a headline) is left out.
    static func replay(_ answer: CalibrationTests.Answer, document: Document, into replay: inout Replay) {
        guard parts.contains(answer.task), let task = StudyTask(rawValue: answer.task) else { return }
        replay.answers += 1
        // A loop is stopped where the guard stops it, and the items finished before it are
        // judged, as the router does (#53).
        let (text, looped) = stopped(answer.text, task: task)
        if looped { replay.loops += 1 }
        let complete = answer.finish == "stop" && !looped
        guard
            let json = complete
                ? try? JSONValue.parse(ModelOutputText.unfenced(text))
                : RoutingEngine.finishedItems(of: text)
        else {
            replay.refused += 1
            return
        }
        let written = CalibrationTests.itemPaths(json, task: task).count
        replay.modelItems += written
        let material = document.titleAndText
        if complete, let result = try? decodeResult(for: task, json: json),
            RoutingEngine.answerIssues(result, language: "en", injected: InjectedInstructions(material)).all.isEmpty
        {
            replay.whole += 1
            replay.keptItems += written
            return
        }
        let judge = PartJudge(
            material: material, counts: .standard, model: answer.model,
            skeleton: try? BuiltinEngine().generate(task, text: document.text, title: document.title))
        guard let judged = try? judge.judge(json, task: task) else {
            replay.refused += 1
            return
        }
        replay.keptAfterRepair += 1
        replay.keptItems += judged.items.filter { $0.kind == .written || $0.kind == .repaired }.count
        replay.repairedItems += judged.repaired
        replay.droppedItems += judged.dropped.count
        replay.toppedUp += judged.toppedUp
        for dropped in judged.dropped { replay.reasons[EvalRun.dropReason(dropped.reason), default: 0] += 1 }
    }

    /// `text` as the router would have it: cut where the repetition guard stops it (fed in one
    /// snapshot), and whether it stopped it.
    static func stopped(_ text: String, task: StudyTask) -> (text: String, looped: Bool) {
        var guardian = RepetitionGuard(exempt: task.repeatingMembers)
        guard guardian.feed(snapshot: text), let kept = guardian.keptBytes else { return (text, false) }
        return (RoutingEngine.prefix(of: text, bytes: kept), true)
    }

    @Test func theRecordedPartsAreKeptAfterRepairMoreOftenThanTheyShippedBefore() async throws {
        let answers = try CalibrationTests.answers()
        let shipped = Set(
            try CalibrationTests.verdicts().filter(\.shippedBefore).compactMap {
                $0.item.split(separator: "#").first.map(String.init)
            })
        var documents: [String: Document] = [:]
        var replays: [String: Replay] = [:]
        for answer in answers.values.sorted(by: { $0.id < $1.id }) where answer.model.contains("1.5B") {
            guard Self.parts.contains(answer.task) else { continue }
            if documents[answer.document] == nil {
                documents[answer.document] = try await CalibrationTests.material(answer.document)
            }
            for key in ["\(answer.half) · \(answer.task)", "\(answer.half) · all"] {
                var replay = replays[key, default: Replay()]
                if shipped.contains(answer.id) { replay.shippedBefore += 1 }
                Self.replay(answer, document: documents[answer.document]!, into: &replay)
                replays[key] = replay
            }
        }
        var lines = [
            "| half · part | answers | before: shipped | valid whole | kept after repair | refused | loops "
                + "| model items kept / written | repaired | dropped | topped up from the skeleton |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for key in replays.keys.sorted() {
            let r = replays[key]!
            lines.append(
                "| \(key) | \(r.answers) | \(r.shippedBefore) | \(r.whole) | \(r.keptAfterRepair) "
                    + "| \(r.refused) | \(r.loops) | \(r.keptItems) / \(r.modelItems) | \(r.repairedItems) "
                    + "| \(r.droppedItems) | \(r.toppedUp) |")
        }
        for key in replays.keys.sorted() where key.hasSuffix("all") {
            let reasons = replays[key]!.reasons.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            let shown = reasons.prefix(4).map { "\($0.key) (\($0.value))" }
            lines.append("- \(key) dropped: " + shown.joined(separator: "; "))
        }
        // The table RESULTS.md quotes (`swift test --filter CalibrationReplayTests`).
        print(lines.joined(separator: "\n"))
        // Judged item by item, the stronger model's parts ship at least as often as before, on both halves.
        for half in ["tuning", "held-out"] {
            let r = try #require(replays["\(half) · all"])
            #expect(r.whole + r.keptAfterRepair >= r.shippedBefore, "\(half)")
        }
    }
}
