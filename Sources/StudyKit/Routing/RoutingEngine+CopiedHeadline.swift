// MARK: - A headline that copies the material, stopped (#53)

extension RoutingEngine {
    /// The blurb words a headline may copy in a row before it is stopped as a copy.
    static let copiedBlurbWords = 8

    /// What stops the in-process model's headline as it is written, for `task` on `engine`:
    /// `nil` for any other task or engine. Its blurb was the material's opening sentence word
    /// for word on 10 of 12 documents (Qwen2.5-Coder-0.5B): such a headline is the material's
    /// own words (``ItemProvenance/written(in:model:material:cached:)``), no model-made item,
    /// and on samples/notes.pdf it cost 2.4 s of the default import's 12.2. Once its blurb has
    /// copied ``copiedBlurbWords`` words of `material` in a row from its start, the rest would
    /// be copied too; the model is stopped there and the builtin headline is used.
    static func copyStop(
        task: StudyTask, engine: any LanguageModel, material: String
    ) -> (@Sendable (String) -> String?)? {
        guard task == .headline, engine.kind == .local else { return nil }
        let materialWords = Grounding.normalizedWords(material)
        return { text in copiedBlurb(AnswerSoFar(partial: text), materialWords: materialWords) }
    }

    /// Why the headline written so far is a copy of the material, or `nil`: its blurb's settled
    /// words are ``copiedBlurbWords`` or more, all a run of `materialWords`.
    static func copiedBlurb(_ answer: AnswerSoFar, materialWords: [String]) -> String? {
        let words = Grounding.normalizedWords(answer.settledWords("blurb").joined(separator: " "))
        guard words.count >= copiedBlurbWords, Grounding.containsRun(words, in: materialWords) else { return nil }
        return "the \(EngineKind.local.rawValue) model's headline copied the material word for word "
            + "(its blurb's first \(words.count) words); it was stopped and the builtin headline used"
    }
}

/// Thrown inside the router when a headline being written copies the material
/// (``RoutingEngine/copyStop(task:engine:material:)``).
struct CopiedAnswer: StudyKitError, Equatable {
    let detail: String
    var message: String { detail }
    var exitCode: ExitCode { .unavailable }
}
