/// `quiz.md`: the quiz as a document a student can work through, answer key at the end.
///
/// The same layout as the quiz section of ``MarkdownRenderer``, so the kit and the quiz file agree.
public enum QuizRenderer {
    /// The quiz as Markdown, headed `# Quiz: <title>` when the context has a title.
    public static func render(_ quiz: Quiz, context: RenderContext) -> String {
        MarkdownRenderer.render(quiz, context: context)
    }
}
