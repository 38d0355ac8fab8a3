import Foundation

// MARK: - A quiz question's broken wrong choices

extension ItemRepairs {
    /// The wrong choices of a quiz question that break a rule a builtin distractor can mend, by
    /// index, each with what was wrong: one that repeats the right answer or an earlier choice
    /// kept (case and spacing aside), one that is a near-copy of either and swaps no word of it
    /// (``ItemRules/nearCopy(_:_:)``, ``ItemRules/swapsAWord(_:_:)``, as the schema compares them),
    /// one over ``Quiz/choiceLength`` characters, one that is no answer (``ItemRules/problem(_:_:)``),
    /// and one that copies the quote (``Grounding/copies(_:_:)``). Empty when none does, and when
    /// the right answer itself breaks a rule: that is the question's fault, not a choice's.
    ///
    /// Qwen2.5-Coder-1.5B's binary-search quiz lost all five questions to "choices[1] repeats
    /// choices[0]" (session 64, `/tmp/judge64`); its recorded quizzes wrote sentence-long options
    /// over 200 characters that only swapped "linear" for "binary" (session 62).
    static func brokenChoices(_ choices: [String], answerIndex: Int, quote: String) -> [(index: Int, why: String)] {
        guard choices.indices.contains(answerIndex), case let answer = choices[answerIndex],
            unfit(answer) == nil, Grounding.supports(quote: quote, answer)
        else { return [] }
        let quoteWords = GroundingWords.normalizedWords(quote)
        var kept: [(index: Int, key: String, stems: Set<String>)] = [
            (answerIndex, ProseText.duplicateKey(answer), ItemRules.overlapKeys(answer))
        ]
        var broken: [(index: Int, why: String)] = []
        func name(_ index: Int) -> String { index == answerIndex ? "the right answer" : "choice \(index + 1)" }
        for (index, choice) in choices.enumerated() where index != answerIndex {
            let key = ProseText.duplicateKey(choice)
            let stems = ItemRules.overlapKeys(choice)
            let why: String?
            if let unfit = unfit(choice) {
                why = unfit
            } else if let same = kept.first(where: { $0.key == key }) {
                why = "repeated \(name(same.index))"
            } else if let near = kept.first(where: {
                ItemRules.nearCopy(stems, $0.stems) && !ItemRules.swapsAWord(stems, $0.stems)
            }) {
                why = "was a near-copy of \(name(near.index))"
            } else if Grounding.copies(choice, quoteWords) {
                why = "copied the quote"
            } else {
                why = nil
            }
            if let why {
                broken.append((index, why))
            } else {
                kept.append((index, key, stems))
            }
        }
        return broken
    }

    /// `choices` with each of their ``brokenChoices(_:answerIndex:quote:)`` replaced, in order, by
    /// the first of `candidates` (the builtin engine's distractors for the right answer) that fits
    /// beside the choices kept and the ones put in before it, by the same rules; and what was
    /// replaced, for the item's note. `nil` when no choice is broken, or when the candidates run
    /// out before every broken one is replaced: the question is then dropped, as before.
    /// The right answer and its place are never changed.
    static func mendedChoices(
        _ choices: [String], answerIndex: Int, quote: String, candidates: [String]
    ) -> (choices: [String], note: String)? {
        let broken = brokenChoices(choices, answerIndex: answerIndex, quote: quote)
        guard !broken.isEmpty else { return nil }
        var mended = choices
        var pool = candidates
        var notes: [String] = []
        for (step, (index, why)) in broken.enumerated() {
            // The broken choices still to be replaced may stay broken; no other choice may be.
            let pending = Set(broken.dropFirst(step + 1).map(\.index))
            var placed = false
            while !pool.isEmpty {
                mended[index] = pool.removeFirst()
                let left = brokenChoices(mended, answerIndex: answerIndex, quote: quote)
                if left.allSatisfy({ pending.contains($0.index) }) {
                    placed = true
                    break
                }
            }
            guard placed else { return nil }
            let shown = choices[index].count > 60 ? String(choices[index].prefix(57)) + "…" : choices[index]
            notes.append("choice \(index + 1) (“\(shown)”) \(why); the builtin engine's “\(mended[index])” stands in")
        }
        return (mended, notes.joined(separator: "; "))
    }

    /// What makes `choice` unfit as any choice, right or wrong; `nil` when it fits.
    private static func unfit(_ choice: String) -> String? {
        if choice.allSatisfy(\.isWhitespace) { return "was empty" }
        if choice.count > Quiz.choiceLength { return "ran over \(Quiz.choiceLength) characters" }
        if ItemRules.problem(choice, .choice) != nil { return "was no answer" }
        return nil
    }

    /// The choice that a question's explanation and the material both say is right, when the
    /// question marks another (#53, session 67): the explanation says every content word of that
    /// one choice and not of the marked one, and a sentence of the material that carries it says
    /// more of the question's words than any sentence that carries the marked one; `nil` otherwise.
    /// `sentences` (the material's) are split only when the explanation points elsewhere.
    /// Qwen2.5-Coder-1.5B asked "What is the name of the phenomenon caused by the Moon's gravity
    /// pulling on the Earth's oceans?", explained "Tides are caused mainly by the Moon's gravity …"
    /// and marked "Solar eclipse" right; a sentence about solar eclipses names the Moon and the
    /// Earth, so the question was grounded, and shipped wrong (session 65, the Moon handout).
    static func explainedAnswer(_ question: Quiz.Question, sentences: () -> [String]) -> Int? {
        guard let marked = question.answer, !Grounding.supports(quote: question.explanation, marked) else {
            return nil
        }
        let explained = question.choices.indices.filter {
            $0 != question.answerIndex && Grounding.supports(quote: question.explanation, question.choices[$0])
        }
        guard explained.count == 1, let other = explained.first else { return nil }
        let material = sentences()
        func said(_ answer: String) -> Int {
            material.compactMap { Grounding.askedWordsSaid(question: question.prompt, answer: answer, sentence: $0) }
                .max() ?? -1
        }
        let carried = said(question.choices[other])
        return carried >= 0 && carried > said(marked) ? other : nil
    }
}
