import Foundation
import Testing
@testable import StudyKit

/// The Feynman case table of issue 12 (`benchmarks/feynman-cases.tsv`), shared by the
/// end-to-end tests and `scripts/bench-kit --feynman`.
struct FeynmanCase: Sendable, CustomTestStringConvertible {
    /// One error a tutor would name, and how feedback names it.
    enum Planted: Sendable, Equatable {
        /// A gap quotes the claim holding `word`, and some correction says `fact` (any when `nil`).
        case wrong(word: String, fact: String?)
        /// A gap says the explanation leaves out `term`.
        case missing(term: String)
        /// A gap says the explanation is too vague.
        case vague
    }

    let id: String
    let source: String
    let concept: String
    let kind: String
    let planted: [Planted]
    let explanation: String

    var testDescription: String { id }

    /// `studykit feynman SOURCE --concept … --explanation … ARGUMENTS --json` through the built
    /// binary, with a cache directory of its own.
    static func run(source: String, concept: String, explanation: String, _ arguments: [String] = []) async throws -> StudykitBinary.Result {
        let cache = try ScratchDirectory("feynman")
        return try await StudykitBinary.run(
            ["feynman", source, "--concept", concept, "--explanation", explanation] + arguments + ["--json"],
            environment: ["STUDYKIT_CACHE_DIR": cache.url.path])
    }

    /// ``run(source:concept:explanation:_:)`` on this case.
    func run(_ arguments: [String] = []) async throws -> StudykitBinary.Result {
        try await Self.run(source: source, concept: concept, explanation: explanation, arguments)
    }

    static func all() throws -> [FeynmanCase] {
        let text = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("benchmarks/feynman-cases.tsv"), encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            precondition(fields.count == 6, "benchmarks/feynman-cases.tsv: a line needs 6 tab-separated fields: \(line)")
            let planted: [Planted] = fields[4] == "-" ? [] : fields[4].split(separator: ";").map { entry in
                if entry == "vague" { return .vague }
                if entry.hasPrefix("missing:") { return .missing(term: String(entry.dropFirst("missing:".count))) }
                let body = entry.dropFirst("wrong:".count).split(separator: ">", omittingEmptySubsequences: false)
                return .wrong(word: String(body[0]), fact: body.count > 1 && !body[1].isEmpty ? String(body[1]) : nil)
            }
            return FeynmanCase(id: fields[0], source: fields[1], concept: fields[2], kind: fields[3], planted: planted, explanation: fields[5])
        }
    }

    /// Whether `feedback` names `error`.
    static func names(_ error: Planted, in feedback: FeynmanFeedback) -> Bool {
        let points = feedback.gaps.map { $0.point.lowercased() }
        let corrections = feedback.gaps.map { $0.correction.lowercased() }
        switch error {
        case .wrong(let word, let fact):
            return feedback.gaps.contains { gap in
                gap.point.lowercased().contains(word.lowercased())
                    && (fact.map { fact in corrections.contains { $0.contains(fact.lowercased()) } } ?? true)
            }
        case .missing(let term):
            return points.contains { $0.contains(term.lowercased()) && !$0.contains("you said") }
        case .vague:
            return points.contains { $0.contains("vague") }
        }
    }

    /// Gaps that call a claim of the explanation wrong.
    static func wrongClaimGaps(in feedback: FeynmanFeedback) -> [FeynmanFeedback.Gap] {
        feedback.gaps.filter { $0.point.hasPrefix("You said") }
    }
}
