/// One thing wrong with a model's output, located by its JSON path.
///
/// `path` uses dots for members and brackets for indices, relative to the output's root
/// (`questions[2].answerIndex`; `quiz.questions[2].answerIndex` inside a whole study kit).
/// The root itself has the empty path. `message` continues the path as a sentence, so
/// ``description`` reads naturally and can be sent back to the model verbatim.
public struct ValidationIssue: Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is; empty for the root.
    public let path: String
    /// What is wrong, continuing the path: `is 5, but there are only 4 choices`.
    public let message: String

    /// Creates an issue at `path`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// The full sentence: `questions[2].answerIndex is 5, but there are only 4 choices`.
    public var description: String { (path.isEmpty ? "the output" : path) + " " + message }

    /// This issue with `prefix` put in front of its path, for a value nested in a larger one.
    public func prefixed(_ prefix: String) -> ValidationIssue {
        ValidationIssue(path: JSONPath.member(prefix, path), message: message)
    }

    /// Text for one re-ask: what was wrong, one line each, and what to send instead.
    ///
    /// With `maximumTokens`, the list stops at the last issue that keeps the text within it, in
    /// ``worstCaseTokens(_:)``, and says how many more there are: the re-ask must still fit the
    /// window the prompt was fitted to, and thirty problems are no better guide than five. One
    /// issue is always named, shortened if it alone is too long (it may quote Chinese or emoji,
    /// where a character can cost several tokens).
    /// The most tokens `text` can take in the re-ask's accounting: 2.5 ASCII characters a token
    /// (English words and JSON paths take more characters a token), and a token for every UTF-8
    /// byte of anything else (a byte-level tokenizer may spend up to three on one Chinese
    /// character, four on an emoji). Counted by characters alone, feedback quoting Chinese text
    /// took several times the room the re-ask keeps.
    public static func worstCaseTokens(_ text: some StringProtocol) -> Int {
        var ascii = 0, other = 0
        for byte in text.utf8 {
            if byte < 0x80 { ascii += 1 } else { other += 1 }
        }
        return (ascii * 2 + 4) / 5 + other
    }

    /// `line` cut at a character boundary so it costs at most `tokens`, ending with `…`.
    static func shortened(_ line: String, toTokens tokens: Int) -> String {
        var kept = ""
        let cost = worstCaseTokens("…")
        for character in line {
            let next = worstCaseTokens(kept + String(character))
            if next + cost > tokens { break }
            kept.append(character)
        }
        return kept + "…"
    }

    public static func feedback(for issues: [ValidationIssue], maximumTokens: Int? = nil) -> String {
        let header = "Your previous answer did not meet the requirements:"
        let footer = "Reply again with the corrected JSON object only, keeping everything that was right."
        var lines = [header]
        var cost = worstCaseTokens(header) + worstCaseTokens(footer) + 2
        // Room kept for the "- and N more problems like these" line.
        let moreRoom = 16
        for (index, issue) in issues.enumerated() {
            var line = "- " + issue.description
            if let maximumTokens, cost + worstCaseTokens(line) + 1 + moreRoom > maximumTokens {
                if index > 0 {
                    let rest = issues.count - index
                    lines.append("- and \(rest) more problem\(rest == 1 ? "" : "s") like these")
                    break
                }
                line = shortened(line, toTokens: max(24, maximumTokens - cost - moreRoom - 1))
            }
            lines.append(line)
            cost += worstCaseTokens(line) + 1
        }
        lines.append(footer)
        return lines.joined(separator: "\n")
    }
}

/// Why a model's output could not become a typed result.
///
/// Truncated and malformed are kept apart: truncated output is what a response-token limit
/// produces (retry with more room or less input), malformed output is a model that did not
/// write JSON at all. Neither is ever repaired into a result.
public enum SchemaError: StudyKitError, Equatable {
    /// The text is a prefix of JSON that ends mid-way (inside a string, array, object or literal).
    case truncated
    /// The text is not JSON; the payload says where and why.
    case malformed(String)
    /// The JSON does not satisfy the schema or a semantic check; every problem is listed.
    case invalid([ValidationIssue])

    /// One lower-case line for stderr.
    public var message: String {
        switch self {
        case .truncated:
            return "the model's output ends mid-way (truncated JSON); "
                + "retry with a larger response limit or a shorter input"
        case .malformed(let detail):
            return "the model's output is not valid JSON (\(detail)); retry or choose another engine with --engine"
        case .invalid(let issues):
            let first = issues.first.map { ": \($0.description)" } ?? ""
            let more = issues.count > 1 ? " (and \(issues.count - 1) more)" : ""
            return "the model's output does not match the schema\(first)\(more); "
                + "retry or choose another engine with --engine"
        }
    }

    /// Bad model output is bad input data (65); the router treats it as an engine failure anyway.
    public var exitCode: ExitCode { .dataError }

    /// Text to send back to the model for one re-ask.
    public var feedback: String { feedback(maximumTokens: nil) }

    /// ``feedback``, listing only as many issues as fit `maximumTokens` (worst case); see
    /// ``ValidationIssue/feedback(for:maximumTokens:)``.
    public func feedback(maximumTokens: Int?) -> String {
        switch self {
        case .truncated:
            return "Your previous answer was cut off before the JSON was complete. "
                + "Reply again with a shorter, complete JSON object only."
        case .malformed(let detail):
            let text = "Your previous answer was not valid JSON (\(detail)). "
                + "Reply again with one JSON object only, no Markdown and no commentary."
            guard let maximumTokens, ValidationIssue.worstCaseTokens(text) > maximumTokens else { return text }
            return ValidationIssue.shortened(text, toTokens: maximumTokens)
        case .invalid(let issues):
            return ValidationIssue.feedback(for: issues, maximumTokens: maximumTokens)
        }
    }
}

/// Builds the dotted/bracketed paths that issues carry.
enum JSONPath {
    /// `parent.child`, or `child` at the root; an index path (`[2]…`) attaches without a dot.
    static func member(_ parent: String, _ child: String) -> String {
        if parent.isEmpty { return child }
        if child.isEmpty { return parent }
        return child.hasPrefix("[") ? parent + child : parent + "." + child
    }

    /// `parent[index]`.
    static func index(_ parent: String, _ index: Int) -> String { parent + "[\(index)]" }
}
