import Foundation

/// The report `studykit eval` prints: a Markdown table on stdout, or one JSON object.
struct EvalReport {
    let plan: EvalPlan
    let runs: [EvalRun]
    /// The model each engine ran (`builtin-extractive/3`, `SmolLM2-135M-Instruct-Q8_0`).
    let models: [EngineKind: String]

    var rows: [EvalRow] { EvalRow.rows(runs, plan: plan) }

    /// The table, one row per task × engine, then why items were dropped and the failures (one
    /// line each, at most 3 per row).
    var markdown: String {
        var lines = [
            "studykit eval: \(plan.documents.count) document\(plan.documents.count == 1 ? "" : "s"), "
                + "\(plan.repeats) run\(plan.repeats == 1 ? "" : "s") each; valid = schema-valid and grounded whole; "
                + "kept after repair = the first answer judged item by item and kept (#53); items = written by the "
                + "model / repaired / extracted by the builtin engine; model-written = written and repaired over all; "
                + "grounded = items eval finds grounded in the material / items shipped; coverage = sections the "
                + "items come from.",
            "",
            "| task | engine | model | runs | valid 1st try | kept after repair | valid after re-ask | failed "
                + "| items written / repaired / extracted | model-written | dropped | grounded items | coverage "
                + "| p50 s | max s | requests | tokens in / out |",
            "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for row in rows {
            let coverage = row.task == .headline || row.sections == 0
                ? "—" : "\(row.coveredSections)/\(row.sections) (\(Self.percent(row.coveredSections, row.sections)))"
            let grounded = row.items == 0
                ? "—" : "\(row.groundedItems)/\(row.items) (\(Self.percent(row.groundedItems, row.items)))"
            let made = row.writtenItems + row.repairedItems + row.extractedItems
            let cells = [
                row.task.name, row.engine.rawValue, models[row.engine] ?? "—", "\(row.runs)",
                "\(row.firstTry) (\(Self.percent(row.firstTry, row.runs)))",
                "\(row.repaired) (\(Self.percent(row.repaired, row.runs)))",
                "\(row.afterReask) (\(Self.percent(row.afterReask, row.runs)))", "\(row.failed)",
                made == 0 ? "—" : "\(row.writtenItems) / \(row.repairedItems) / \(row.extractedItems)",
                made == 0 ? "—" : Self.percent(row.writtenItems + row.repairedItems, made),
                "\(row.droppedItems)", grounded, coverage,
                Self.seconds(row.p50Seconds), Self.seconds(row.maxSeconds), "\(row.requests)",
                "\(row.tokensIn) / \(row.tokensOut)",
            ]
            lines.append("| " + cells.map(Self.cell).joined(separator: " | ") + " |")
        }
        let drops = rows.filter { !$0.dropReasons.isEmpty }.map { row in
            "- \(row.task.name) on \(row.engine.rawValue): " + row.dropReasons.joined(separator: "; ")
        }
        if !drops.isEmpty {
            lines += ["", "Why items were dropped (the 3 most frequent reasons per row, with their counts):", ""]
            lines += drops
        }
        let failures = rows.flatMap { row in
            let failed = runs.filter { $0.engine == row.engine && $0.task == row.task && $0.outcome == .failed }
            return failed.prefix(3).map { run in
                "- \(row.task.name) on \(row.engine.rawValue), \(run.document): \(run.failure ?? "failed")"
            }
        }
        if !failures.isEmpty {
            lines += ["", "Failures (at most 3 per row):", ""] + failures
        }
        return lines.joined(separator: "\n") + "\n"
    }

    var jsonValue: JSONValue {
        [
            "documents": .array(plan.documents.map { .string($0.name) }),
            "tasks": .array(plan.tasks.map { .string($0.name) }),
            "engines": .array(plan.engines.map { .string($0.rawValue) }),
            "repeats": .integer(plan.repeats),
            "rows": .array(rows.map { row in
                [
                    "task": .string(row.task.name), "engine": .string(row.engine.rawValue),
                    "model": models[row.engine].map(JSONValue.string) ?? .null,
                    "runs": .integer(row.runs), "validFirstTry": .integer(row.firstTry),
                    "keptAfterRepair": .integer(row.repaired),
                    "validAfterReask": .integer(row.afterReask),
                    "writtenItems": .integer(row.writtenItems), "repairedItems": .integer(row.repairedItems),
                    "extractedItems": .integer(row.extractedItems),
                    "dropReasons": .array(row.dropReasons.map(JSONValue.string)),
                    "failed": .integer(row.failed), "items": .integer(row.items),
                    "groundedItems": .integer(row.groundedItems),
                    "droppedItems": .integer(row.droppedItems), "sections": .integer(row.sections),
                    "coveredSections": .integer(row.coveredSections),
                    "p50Seconds": .number(Self.rounded(row.p50Seconds)),
                    "maxSeconds": .number(Self.rounded(row.maxSeconds)),
                    "tokensIn": .integer(row.tokensIn), "tokensOut": .integer(row.tokensOut),
                    "requests": .integer(row.requests),
                    "fallbacks": .integer(row.fallbacks),
                ]
            }),
            "runs": .array(runs.map { run in
                [
                    "document": .string(run.document), "task": .string(run.task.name),
                    "engine": .string(run.engine.rawValue),
                    "outcome": .string(run.outcome.rawValue), "failure": run.failure.map(JSONValue.string) ?? .null,
                    "items": .integer(run.items), "groundedItems": .integer(run.groundedItems),
                    "droppedItems": .integer(run.droppedItems),
                    "writtenItems": .integer(run.writtenItems), "repairedItems": .integer(run.repairedItems),
                    "extractedItems": .integer(run.extractedItems),
                    "dropReasons": .array(run.dropReasons.map(JSONValue.string)),
                    "sections": .integer(run.sections), "coveredSections": .integer(run.coveredSections),
                    "seconds": .number(Self.rounded(run.seconds)), "tokensIn": .integer(run.tokensIn),
                    "tokensOut": .integer(run.tokensOut),
                    "requests": .integer(run.requests), "fallbacks": .integer(run.fallbacks),
                ]
            }),
        ]
    }

    static func percent(_ part: Int, _ whole: Int) -> String {
        whole == 0 ? "—" : "\(Int((Double(part) * 100 / Double(whole)).rounded()))%"
    }

    static func seconds(_ value: Double) -> String { String(format: "%.2f", value) }

    static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

    /// A table cell: pipes escaped, one line.
    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
