/// Why a JSON Schema could not become a GBNF grammar for llama.cpp.
///
/// The converter supports what studykit's schemas emit (see ``GenerationSchema``); anything else
/// is refused with the JSON path of the offending keyword rather than dropped silently, because a
/// grammar that is looser than its schema would let a small model wander off.
enum GrammarError: StudyKitError, Equatable, Sendable, CustomStringConvertible {
    /// The schema text is not JSON; the payload says why.
    case notJSON(String)
    /// A schema node uses a keyword or type the converter does not support.
    case unsupported(path: String, detail: String)
    /// A `pattern` is not a regular expression the converter understands.
    case badPattern(pattern: String, detail: String)
    /// The constraints contradict each other (for example `minItems` above `maxItems`).
    case contradictory(path: String, detail: String)

    /// One lower-case line: what is wrong, where, and what to do.
    public var message: String {
        switch self {
        case .notJSON(let detail):
            return "the json schema for the local model is not json (\(detail)); fix the schema or use another engine "
                + "with --engine"
        case .unsupported(let path, let detail):
            return "the json schema at '\(path)' uses \(detail), which the local model's grammar does not support; use "
                + "another engine with --engine"
        case .badPattern(let pattern, let detail):
            return "the pattern '\(pattern)' cannot become a grammar: \(detail); simplify the pattern or use another "
                + "engine with --engine"
        case .contradictory(let path, let detail):
            return "the json schema at '\(path)' cannot be satisfied: \(detail); fix the schema"
        }
    }

    /// Always 65: the schema, not the engine, is the problem.
    public var exitCode: ExitCode { .dataError }

    /// The same as ``message``.
    public var description: String { message }
}
