/// A job studykit can do. Raw values are the CLI command names.
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
    /// The whole study kit (command `import`).
    case studyKit = "import"

    /// The name used on the command line and in `--json`.
    public var commandName: String { rawValue }
}
