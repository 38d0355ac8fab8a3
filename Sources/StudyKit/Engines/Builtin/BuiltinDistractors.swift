// MARK: - Distractors for a model's question

extension BuiltinEngine {
    /// Up to `count` wrong answers the builtin quiz would offer beside `answer`, the right answer
    /// of a question asked from `quote` (a sentence of the material), when `others` already stand
    /// beside it: options of the answer's kind from the material's key terms, then its frequent
    /// words, none repeating or near-copying the answer or `others`, none only a term the prompt
    /// says (``distractors(for:analysis:fallback:quoted:use:beside:count:)``).
    ///
    /// For a model's quiz question whose other choices repeat each other or run too long (#53,
    /// session 65): its question, right answer and quote stay the model's, and only the broken
    /// wrong choices are taken from here. `material` is read once per engine value (its last
    /// analysis is kept). Empty when the material has no option that fits.
    func distractors(
        forAnswer answer: String, prompt: String, quote: String, beside others: [String], count: Int,
        material: String
    ) -> [String] {
        let answer = ProseText.oneLine(answer)
        guard count > 0, !answer.isEmpty else { return [] }
        // This engine's reading of the material, made once for all of a part's questions.
        let analysis = analysis(of: material, title: nil)
        let key = TermNormalizer.words(in: answer).map(\.stem).joined(separator: " ")
        let item = ClozeItem(
            sentence: quote, answer: answer, clozeText: prompt, sourceRange: quote.startIndex..<quote.endIndex,
            answerOffsets: 0..<0, answerKey: key)
        return distractors(
            for: item, analysis: analysis, fallback: Self.frequentWords(analysis), quoted: Self.quotedPhrases(analysis),
            use: [:], beside: others, count: count)
    }
}
