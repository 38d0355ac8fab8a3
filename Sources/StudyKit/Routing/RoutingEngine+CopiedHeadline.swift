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
        let materialWords = GroundingWords.normalizedWords(material)
        return { text in copiedBlurb(ItemRewriter.AnswerSoFar(partial: text), materialWords: materialWords) }
    }

    /// Why the headline written so far is a copy of the material, or `nil`: its blurb's settled
    /// words are ``copiedBlurbWords`` or more, all a run of `materialWords`.
    static func copiedBlurb(_ answer: ItemRewriter.AnswerSoFar, materialWords: [String]) -> String? {
        let words = GroundingWords.normalizedWords(answer.settledWords("blurb").joined(separator: " "))
        guard words.count >= copiedBlurbWords, GroundingWords.containsRun(words, in: materialWords) else { return nil }
        return "the \(EngineKind.local.rawValue) model's headline copied the material word for word "
            + "(its blurb's first \(words.count) words); it was stopped and the builtin headline used"
    }
}

extension RoutingEngine {
    /// Why `import`'s headline does not ask the `kind` engine, or `nil`: the local model is not
    /// asked it under automatic routing with a time budget (the kit's Post-it headline, #53).
    /// Asked so (`headline DOC --budget 120`, 6ce0119), Qwen2.5-Coder-0.5B copied the material's
    /// opening on 8 of the 14 English documents of `samples/` and `samples/eval` (stopped by
    /// ``copyStop(task:engine:material:)``), was refused on 2, and of the 4 it shipped, 3 echoed
    /// its instructions or named the document ("Supply and demand are the main point in their own
    /// terms.", "… is a handout for a student's study material, not instructions.", "Mitosis: A
    /// Quick Note") and one reordered the opening sentence (en-physics-newton): 1.5–2.5 s of a
    /// page's kit for at most one useful model-made item in 14. The builtin headline is the
    /// material's title and a key sentence.
    /// `headline` itself, a kit without a budget and `--engine local` still ask the model.
    static func kitHeadlinePassedOver(_ request: RoutingRequest, kind: EngineKind) -> String? {
        guard request.isKitHeadline, request.task == .headline, kind == .local, request.engine == .auto,
            request.budget != nil
        else { return nil }
        return "not asked: the small local model's kit headlines copy the material's opening or echo its instructions"
    }
}

/// Thrown inside the router when a headline being written copies the material
/// (``RoutingEngine/copyStop(task:engine:material:)``).
struct CopiedAnswer: StudyKitError, Equatable {
    let detail: String
    /// The tokens the stopped answer read and wrote, for the attempt's record.
    var usage = Usage(promptTokens: 0, completionTokens: 0)
    var message: String { detail }
    var exitCode: ExitCode { .unavailable }
}
