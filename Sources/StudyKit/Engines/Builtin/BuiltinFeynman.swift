// MARK: - Feynman feedback

extension BuiltinEngine {
    private static let conceptLength = 60
    private static let pointLength = 300
    private static let correctionLength = 400

    /// The most gaps feedback names: the worst first, so a student reads what matters.
    static let maximumFeynmanGaps = 3

    /// Feedback from the claim check (``FeynmanCheck``): every claim of the explanation is
    /// compared with the material's sentences about the concept. A claim the material states
    /// about something else, or not at all, is a gap whose correction quotes where the material
    /// puts that fact; then the key terms of the concept's sentences the explanation leaves out.
    /// The verdict and score follow from wrong claims, supported claims and the terms covered.
    func feynmanFeedback(_ analysis: BuiltinAnalysis, concept: String?, explanation: String?) -> FeynmanFeedback {
        feynmanFeedback(feynmanCheck(analysis, concept: concept, explanation: explanation), analysis: analysis)
    }

    /// The claim check of `explanation` about `concept` (the document's title when none is given).
    func feynmanCheck(_ analysis: BuiltinAnalysis, concept: String?, explanation: String?) -> FeynmanCheck {
        let givenConcept = concept.map(ProseText.oneLine) ?? ""
        let conceptText = givenConcept.contains(where: { $0.isLetter
            || $0.isNumber }) ? givenConcept : documentTitle(analysis)
        let shownConcept = ProseText.shortened(conceptText, maxLength: Self.conceptLength)
        return FeynmanCheck(analysis, concept: conceptText, shownConcept: shownConcept, explanation: explanation ?? "")
    }

    /// The point and correction the builtin engine writes for a wrong claim; its quote is the
    /// material's sentence that puts the fact, or, when the material has none, `context`: what
    /// the material does say about the concept.
    static func gap(for claim: FeynmanCheck.Claim, concept: String, context: String) -> FeynmanFeedback.Gap {
        let said = "“" + ProseText.shortened(claim.text, maxLength: 160) + "”"
        let point: String
        let prefix: String
        switch claim.finding {
        case .misplaced:
            point = "You said \(said), but the material does not say that about \(concept)."
            prefix = "The material puts it elsewhere: "
        case .contradicted:
            point = "You said \(said), but the material says otherwise."
            prefix = "The material says: "
        case .unsupported, .supported:
            point = "You said \(said), which the material does not support."
            prefix = "About \(concept), the material says: "
        }
        var correction = claim.evidence.map { quoting($0, after: prefix) }
            ?? "The material says nothing like this about \(concept)."
        if let evidence = claim.evidence, let elsewhere = claim.elsewhere {
            // Both: what the material says of the concept, and where what the student described belongs.
            let half = (correctionLength - 60) / 2
            correction = prefix + "“" + quotable(evidence,
                maxLength: half) + "” What you describe is elsewhere: “"
                + quotable(elsewhere, maxLength: half) + "”"
        }
        return FeynmanFeedback.Gap(
            point: ProseText.shortened(point, maxLength: pointLength), correction: correction,
            quote: cited(claim.evidence ?? context))
    }

    func feynmanFeedback(_ check: FeynmanCheck, analysis: BuiltinAnalysis) -> FeynmanFeedback {
        let concept = check.concept
        var gaps: [FeynmanFeedback.Gap] = []
        if check.isMissing {
            let source = check.conceptSentences.first ?? analysis.prose[0].text
            gaps.append(
                FeynmanFeedback.Gap(
                    point: "No explanation was given, so nothing could be checked.",
                    correction: Self.quoting(source,
                        after: "Explain \(concept) in your own words. The material says: "),
                    quote: Self.cited(source)))
        }
        for claim in check.wrongClaims where gaps.count < Self.maximumFeynmanGaps {
            let gap = Self.gap(for: claim, concept: concept, context: check.conceptSentences.first
                ?? analysis.ranked[0].sentence.text)
            if Self.fits(gap.point, among: gaps.map(\.point)) { gaps.append(gap) }
        }
        if check.isVague, gaps.count < Self.maximumFeynmanGaps {
            let source = check.conceptSentences.first ?? analysis.ranked[0].sentence.text
            gaps.append(
                FeynmanFeedback.Gap(
                    point: "Your explanation is too vague to check: it states none of the material's facts about "
                        + "\(concept).",
                    correction: Self.quoting(source, after: "Say what the material says, in your own words: "),
                    quote: Self.cited(source)))
        }
        for term in check.missedTerms where gaps.count < Self.maximumFeynmanGaps {
            let point = ProseText.shortened("Your explanation leaves out \(term.text).", maxLength: Self.pointLength)
            // Terms the rules cannot tell apart ("leaves out 合成" after "leaves out 光合成") give one gap.
            guard Self.fits(point, among: gaps.map(\.point)) else { continue }
            let correction = term.sentence.map { Self.quoting($0, after: "The material says: ") }
                ?? "The material names \(term.text) among the key terms of \(concept)."
            let source = term.sentence
                ?? check.conceptSentences.first { $0.localizedCaseInsensitiveContains(term.text) }
                ?? check.conceptSentences.first ?? analysis.ranked[0].sentence.text
            gaps.append(FeynmanFeedback.Gap(point: point, correction: correction, quote: Self.cited(source)))
        }

        var right: [String] = []
        for claim in check.supportedClaims where right.count < 3 {
            let point = ProseText.shortened("You said “\(claim.text)”, which the material confirms.",
                maxLength: Self.pointLength)
            if Self.fits(point, among: right) { right.append(point) }
        }
        if right.isEmpty {
            for term in check.coveredTerms where right.count < 3 {
                let point = ProseText.shortened("You brought in \(term.text), a key term of \(concept).",
                    maxLength: Self.pointLength)
                if Self.fits(point, among: right) { right.append(point) }
            }
        }

        // What the explanation got: its confirmed claims and the key terms it names, against
        // those and the terms it leaves out.
        let got = check.supportedClaims.count + check.coveredTerms.count
        let coverage = got + check.missedTerms.count == 0 ? 0 : Double(got) / Double(got + check.missedTerms.count)
        let wrong = check.wrongClaims.count
        let supported = check.supportedClaims.count
        let score: Int
        let verdict: FeynmanFeedback.Verdict
        if check.isMissing {
            (score, verdict) = (0, .confused)
        } else if wrong > 0 {
            if supported == 0 && !check.wrongClaims.contains(where: \.partlySupported) {
                (score, verdict) = (wrong > 1 ? 1 : 2, .confused)
            } else {
                (score, verdict) = (max(3, min(6, 3 + supported - wrong + Int((coverage * 2).rounded()))), .partial)
            }
        } else if check.isVague {
            (score, verdict) = (2, .confused)
        } else if coverage >= 0.6 {
            (score, verdict) = (min(10, 7 + Int(((coverage - 0.6) * 7.5).rounded())), .solid)
        } else {
            (score, verdict) = (max(3, min(6, 3 + Int((coverage * 6).rounded()))), .partial)
        }

        let question: String
        if check.wrongClaims.first?.finding == .contradicted {
            question = "What does the material say about \(concept), and where does it differ from what you wrote?"
        } else if check.wrongClaims.first?.finding == .misplaced {
            question =
                "What actually happens in \(concept), and where does the material put what you described instead?"
        } else if let first = check.missedTerms.first {
            question = "How does \(first.text) relate to \(concept)?"
        } else if let top = check.coveredTerms.first {
            question = "How would you explain the role of \(top.text) in \(concept) to someone new to the subject?"
        } else {
            question = "What is the most important idea about \(concept), and why?"
        }
        return FeynmanFeedback(
            verdict: verdict, score: score, whatWasRight: right, gaps: gaps,
            followUpQuestion: ProseText.shortened(question, maxLength: Self.pointLength))
    }

    /// Whether `point` may join `points`: it passes the feedback-point item rules
    /// (``ItemMeaning/feedbackPoint``) and is no near-copy of one already there.
    private static func fits(_ point: String, among points: [String]) -> Bool {
        let keys = ItemRules.overlapKeys(point)
        return ItemRules.problem(point, .feedbackPoint) == nil
            && !points.contains { ItemRules.nearCopy(keys, ItemRules.overlapKeys($0))
            || ResultProse.sameText($0, point) }
    }

    // MARK: Quoting

    /// `prefix` then the sentence in quotation marks, cut to fit a correction.
    /// A sentence of the material as a gap's quote: one line, at most 500 characters (a longer
    /// one is cut with `…`, which grounding checks piece by piece).
    static func cited(_ sentence: String) -> String {
        ProseText.shortened(ProseText.oneLine(sentence), maxLength: 500)
    }

    static func quoting(_ sentence: String, after prefix: String) -> String {
        prefix + "“" + quotable(sentence, maxLength: correctionLength - ProseText.length(prefix) - 2) + "”"
    }

    /// A sentence of the material as a correction quotes it: one line, no list marker, cut to `maxLength`.
    private static func quotable(_ sentence: String, maxLength: Int) -> String {
        ProseText.shortened(ProseText.withoutListMarker(ProseText.oneLine(sentence)), maxLength: maxLength)
    }
}
