/// A job studykit can do. Raw values are the tasks' stable names (see ``name``).
public enum StudyTask: String, Sendable, Codable, CaseIterable, Hashable {
    /// A title of at most six words and a one-line blurb.
    case headline
    /// Feedback on the student's own explanation of a concept.
    case feynman
    /// An overview and key points.
    case summary
    /// Question/answer cards with a supporting quote.
    case flashcards
    /// Multiple-choice questions.
    case quiz
    /// A central topic with branches.
    case mindmap
    /// A two-host podcast script, each explainer line backed by a quote.
    case podcast
    /// The whole study kit (command `import`).
    case studyKit = "import"

    /// The task's stable name: in results, cache entries, the usage ledger and messages, on the
    /// command line (`import` for the whole kit) and in `--json`.
    public var name: String { rawValue }

    /// Whether the task makes the whole study kit (every part) rather than one part.
    public var isWholeKit: Bool { self == .studyKit }

    /// The name the task's schema is sent under to a structured-output API.
    public var schemaName: String { isWholeKit ? "study_kit" : name }
}
