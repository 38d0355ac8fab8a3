import Foundation

/// The `--json` envelope of a run, parsed, with the few accessors the integration tests need.
struct LiveEnvelope {
    let object: [String: Any]

    /// Parses stdout of a `--json` run; fails the test with the run's stderr when it is not JSON.
    init(_ run: StudykitBinary.Result) throws {
        guard let object = try? JSONSerialization.jsonObject(with: run.stdoutData) as? [String: Any] else {
            throw LiveEnvelopeError.notJSON(status: run.status, stdout: run.stdout, stderr: run.stderr)
        }
        self.object = object
    }

    var engine: String? { object["engine"] as? String }
    var cached: Bool? { object["cached"] as? Bool }
    var decision: String? { object["decision"] as? String }
    var fitted: [String: Any] { object["fitted"] as? [String: Any] ?? [:] }
    var fittedCut: Bool? { fitted["cut"] as? Bool }
    var keptCharacters: Int? { fitted["keptCharacters"] as? Int }
    var totalCharacters: Int? { fitted["totalCharacters"] as? Int }
    /// `(engine, reason)` of each fallback step, in order.
    var fallbacks: [(engine: String, reason: String)] {
        (object["fallbacks"] as? [[String: Any]] ?? []).map { ($0["engine"] as? String ?? "?", $0["reason"] as? String ?? "") }
    }
    /// Whether `expected` answered, or was asked and gave an answer that validation rejected
    /// (not valid JSON, off the schema, cut at the response limit, items or prose the rules
    /// refuse), so the builtin engine answered instead. Which engine is asked is the router's contract; what a small model
    /// then says differs between CPU builds, thread counts and prompt-cache states, and is not.
    func answered(by expected: String) -> Bool {
        if engine == expected { return true }
        guard engine == "builtin", let step = fallbacks.last(where: { $0.engine == expected }) else { return false }
        return step.reason.hasPrefix("the model's output") || step.reason.hasPrefix("the model's answer")
            || step.reason.contains("response limit")
    }

    /// The result re-serialized with sorted keys, so two results compare as text.
    var resultText: String? {
        guard let result = object["result"],
            let data = try? JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}

enum LiveEnvelopeError: Error, CustomStringConvertible {
    case notJSON(status: Int32, stdout: String, stderr: String)

    var description: String {
        switch self {
        case .notJSON(let status, let stdout, let stderr):
            return "studykit --json printed no JSON object (exit \(status)); stdout: \(stdout.prefix(400)); stderr: \(stderr.prefix(600))"
        }
    }
}
