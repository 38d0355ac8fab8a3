// MARK: - Feynman feedback

extension BuiltinEngine {
    /// How many key terms an explanation is checked against (the bound on gaps and right points).
    private static let keyTermCount = 6
    private static let conceptLength = 60
    private static let pointLength = 300
    private static let correctionLength = 400

    /// Feedback from term coverage: the material's key terms for the concept (those said in
    /// the sentences that mention it, then the document's top terms) are looked for in the
    /// explanation by stem, so "reactions" covers "reaction". The score is the covered share
    /// out of 10; each missed term becomes a gap corrected by the source sentence that says it.
    func feynmanFeedback(_ analysis: BuiltinAnalysis, concept: String?, explanation: String?) -> FeynmanFeedback {
        let givenConcept = concept.map(BuiltinProse.oneLine) ?? ""
        let conceptText = givenConcept.contains(where: { $0.isLetter || $0.isNumber }) ? givenConcept : documentTitle(analysis)
        let shownConcept = BuiltinProse.shortened(conceptText, maxLength: Self.conceptLength)
        let conceptStems = Self.stems(of: conceptText)
        let relevant = relevantSentences(analysis, conceptStems: conceptStems)
        let terms = keyTerms(analysis, conceptStems: conceptStems, relevant: relevant)

        let explanationText = explanation.map(BuiltinProse.oneLine) ?? ""
        let isMissing = !explanationText.contains(where: { $0.isLetter || $0.isNumber })
        let explained = Set(BuiltinTerms.words(in: explanationText).map(\.stem))
        let covered = terms.filter { term in !isMissing && term.stems.allSatisfy(explained.contains) }
        let missed = terms.filter { term in !covered.contains(where: { $0.key == term.key }) }

        var right: [String] = []
        for term in covered {
            let tie = term.sentences.isDisjoint(with: relevant) || relevant.count == analysis.prose.count
                ? "a key term of the material"
                : "which the material connects with \(shownConcept)"
            Self.appendPoint(BuiltinProse.shortened("You brought in \(term.text), \(tie).", maxLength: Self.pointLength), to: &right)
        }

        var gaps: [FeynmanFeedback.Gap] = []
        if isMissing {
            let source = relevant.min().map { analysis.prose[$0].text } ?? analysis.prose[0].text
            gaps.append(
                FeynmanFeedback.Gap(
                    point: "No explanation was given, so nothing could be checked.",
                    correction: Self.quoting(source, after: "Explain \(shownConcept) in your own words. The material says: ")))
        }
        for term in missed where gaps.count < Self.keyTermCount {
            let point = BuiltinProse.shortened("Your explanation does not mention \(term.text).", maxLength: Self.pointLength)
            var points = gaps.map(\.point)
            // Terms that the rules cannot tell apart ("mention 合成" after "mention 光合成") give one gap.
            guard Self.appendPoint(point, to: &points) else { continue }
            let correction = bestSentence(for: term, analysis: analysis, relevant: relevant).map {
                Self.quoting($0, after: "The material says: ")
            } ?? "The material names \(term.text) among the key terms of \(shownConcept)."
            gaps.append(FeynmanFeedback.Gap(point: point, correction: correction))
        }

        let score: Int
        let verdict: FeynmanFeedback.Verdict
        if isMissing {
            (score, verdict) = (0, .confused)
        } else if terms.isEmpty {
            // Nothing to measure against: say so rather than praise or blame.
            (score, verdict) = (5, .partial)
            gaps.append(
                FeynmanFeedback.Gap(
                    point: "The material has too few key terms to check the explanation against.",
                    correction: Self.quoting(analysis.ranked[0].sentence.text, after: "The material says: ")))
        } else {
            let ratio = Double(covered.count) / Double(terms.count)
            score = Int((ratio * 10).rounded())
            verdict = ratio >= 0.75 ? .solid : ratio >= 1.0 / 3.0 ? .partial : .confused
        }

        let question: String
        if let first = missed.first {
            question = "How does \(first.text) relate to \(shownConcept)?"
        } else if let top = terms.first {
            question = "How would you explain the role of \(top.text) in \(shownConcept) to someone new to the subject?"
        } else {
            question = "What is the most important idea about \(shownConcept), and why?"
        }
        return FeynmanFeedback(
            verdict: verdict, score: score, whatWasRight: right, gaps: gaps,
            followUpQuestion: BuiltinProse.shortened(question, maxLength: Self.pointLength))
    }

    /// Appends `point` unless the feedback-point rules reject it or it is a near-copy of an
    /// earlier one (``ItemMeaning/feedbackPoint``); says whether it was appended.
    @discardableResult
    private static func appendPoint(_ point: String, to points: inout [String]) -> Bool {
        let keys = ItemRules.overlapKeys(point)
        guard ItemRules.problem(point, .feedbackPoint) == nil,
            !points.contains(where: { ItemRules.nearCopy(keys, ItemRules.overlapKeys($0)) || ResultProse.sameText($0, point) })
        else { return false }
        points.append(point)
        return true
    }

    // MARK: Key terms

    private struct KeyTerm {
        let text: String
        let key: String
        let stems: [String]
        /// Prose indices of the sentences that mention the term.
        let sentences: Set<Int>
    }

    /// Prose indices of the sentences that mention every content word of the concept; those
    /// that mention any of them when none mentions all; every sentence when none mentions any.
    private func relevantSentences(_ analysis: BuiltinAnalysis, conceptStems: Set<String>) -> Set<Int> {
        let all = Set(analysis.prose.indices)
        guard !conceptStems.isEmpty else { return all }
        let full = all.filter { conceptStems.isSubset(of: analysis.proseStems[$0]) }
        if !full.isEmpty { return full }
        let partial = all.filter { !conceptStems.isDisjoint(with: analysis.proseStems[$0]) }
        return partial.isEmpty ? all : partial
    }

    /// Up to six key terms other than the concept itself: first those said in the relevant
    /// sentences, then the document's top terms; none inside another.
    private func keyTerms(_ analysis: BuiltinAnalysis, conceptStems: Set<String>, relevant: Set<Int>) -> [KeyTerm] {
        let candidates = analysis.keyphrases.compactMap { phrase -> KeyTerm? in
            let stems = phrase.key.split(separator: " ").map(String.init)
            guard phrase.text.contains(where: \.isLetter), !Set(stems).isSubset(of: conceptStems) else { return nil }
            let sentences = Set(analysis.prose.indices.filter { analysis.mentions(phrase.key, inProse: $0) })
            return KeyTerm(text: BuiltinProse.termText(phrase.text), key: phrase.key, stems: stems, sentences: sentences)
        }
        var chosen: [KeyTerm] = []
        func consider(_ term: KeyTerm) {
            guard chosen.count < Self.keyTermCount, !chosen.contains(where: { Self.nested($0.stems, term.stems) }) else { return }
            chosen.append(term)
        }
        // Terms said most often together with the concept first; ties keep keyphrase order.
        // Spelled out with explicit types: the chained closure form exceeds the type checker's
        // time limit on a busy machine.
        struct Related {
            let order: Int
            let together: Int
            let term: KeyTerm
        }
        var related: [Related] = []
        for (order, term) in candidates.enumerated() {
            let together = term.sentences.intersection(relevant).count
            if together > 0 { related.append(Related(order: order, together: together, term: term)) }
        }
        related.sort { (a: Related, b: Related) -> Bool in
            a.together != b.together ? a.together > b.together : a.order < b.order
        }
        for entry in related { consider(entry.term) }
        for term in candidates { consider(term) }
        return chosen
    }

    /// The most central sentence that mentions the term, preferring one about the concept.
    private func bestSentence(for term: KeyTerm, analysis: BuiltinAnalysis, relevant: Set<Int>) -> String? {
        let proseIndexOfUnit = Dictionary(uniqueKeysWithValues: analysis.prose.enumerated().map { ($1.index, $0) })
        let mentioning = analysis.ranked.filter { entry in
            proseIndexOfUnit[entry.sentence.index].map(term.sentences.contains) ?? false
        }
        let about = mentioning.first { entry in proseIndexOfUnit[entry.sentence.index].map(relevant.contains) ?? false }
        return (about ?? mentioning.first)?.sentence.text
    }

    /// `prefix` then the sentence in quotation marks, cut to fit a correction.
    private static func quoting(_ sentence: String, after prefix: String) -> String {
        let room = correctionLength - BuiltinProse.length(prefix) - 2
        return prefix + "“" + BuiltinProse.shortened(BuiltinProse.withoutListMarker(BuiltinProse.oneLine(sentence)), maxLength: room) + "”"
    }
}
