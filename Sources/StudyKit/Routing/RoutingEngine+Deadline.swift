import Foundation

// MARK: - Fewer items, so that a part ends before the server's request deadline

extension RoutingEngine {
    /// The tasks whose count a whole part may lower to end in time: a deck's cards and a quiz's
    /// questions, each an item of its own (``ItemCounts/asking(_:for:)``).
    static let deadlineCountedTasks: Set<StudyTask> = [.flashcards, .quiz]

    /// The counts a whole part of `request` asks `engine` for under a time budget when the
    /// answer it asks for is expected to run past the server's request deadline, which would
    /// stop it with its time spent: the most items, down to half of them, whose answer is
    /// expected to end in time. `nil` when the counts asked for fit, when fewer items would not
    /// (the estimate is a record of past attempts, not a size), or when no such count does: the
    /// part is then skipped for its deadline as before.
    ///
    /// #53, session 68: the quizzes of the 1.5B on three of the four held-out notes were
    /// expected to take 121–168 s for 5 questions against llama-cpp-python's 120 s deadline, and
    /// were skipped for it, though 4 would end in time: the builtin engine's 8 questions shipped
    /// instead. The part is judged against the count asked for and topped up from the builtin
    /// skeleton to the count it shows (``PartJudge/shownCounts``).
    func countsWithinDeadline(_ request: RoutingRequest, engine: any LanguageModel) async -> ItemCounts? {
        let task = request.task
        guard request.engine == .auto, request.budget != nil, request.part == nil,
            Self.deadlineCountedTasks.contains(task), let deadline = engine.generationDeadline,
            let asked = request.counts.counted(task)?.count
        else { return nil }
        let key = Self.partKey(engine, task: task)
        // Counted as the part's budget counts a prompt far below the window: estimated, with the
        // chat template's tokens and the room kept for a re-ask (``checkBudget``).
        let template = (try? await engine.templateTokens()) ?? templateAllowance
        let promptTokens =
            TokenCount.estimate(for: task.instructions + "\n" + Self.wholePrompt(request)).count + template
            + reaskAllowance
        func seconds(_ counts: ItemCounts) async -> Double {
            await recorder.expectedSeconds(
                engine, key: key, promptTokens: promptTokens,
                responseTokens: counts.expectedResponseTokens(for: task) ?? 0)
        }
        let full = await seconds(request.counts)
        guard full > deadline else { return nil }
        for count in stride(from: asked - 1, through: ItemCounts.minimumKept(asked), by: -1) {
            let fewer = request.counts.asking(count, for: task)
            let expected = await seconds(fewer)
            if expected >= full { return nil }
            if expected <= deadline { return fewer }
        }
        return nil
    }
}
