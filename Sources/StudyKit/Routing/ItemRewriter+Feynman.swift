import Foundation

// MARK: - Feynman feedback, item by item

extension ItemRewriter {
    /// The builtin feedback with the corrections of its wrong claims written by `engine`: each
    /// wrong claim the check found evidence for is one small job, the first claim first (a
    /// misplaced claim is pointed to where the material puts it, any other corrected from the
    /// material's sentence), and each item's provenance says what made it.
    func rewriteFeynman(
        _ feedback: FeynmanFeedback, fallback result: AnyStudyResult, extracted: [ItemProvenance]
    ) async -> (result: AnyStudyResult, items: [ItemProvenance]) {
        let analysis = builtin.analysis(of: request.document.text, title: request.document.title)
        let check = builtin.feynmanCheck(analysis, concept: request.concept, explanation: request.explanation)
        // Each gap of a wrong claim, found by its point: the feedback leaves out a wrong claim's
        // gap that fails the point rules or repeats another, so position alone could pair a
        // claim with a key term's gap (``BuiltinEngine/feynmanFeedback(_:analysis:)``).
        var claimOfGap: [Int: ExplanationClaim] = [:]
        for claim in check.wrongClaims {
            let point = BuiltinEngine.gap(for: claim, concept: check.concept, context: "").point
            if let index = feedback.gaps.firstIndex(where: { $0.point == point }), claimOfGap[index] == nil {
                claimOfGap[index] = claim
            }
        }
        let asked = claimOfGap.keys.sorted().filter { claimOfGap[$0]?.evidence != nil }
        // A misplaced claim is pointed to its place; a contradicted or unsupported one corrected
        // from the concept's sentence. One job at a time, in the gaps' order: the budget has
        // room for one or two, and the first claim matters most.
        var answers: [ItemOutcome] = []
        for index in asked {
            let claim = claimOfGap[index]!
            let path = "gaps[\(index)].correction"
            answers += claim.finding == .misplaced
                ? await runItems(
                    [Self.pointingJob(claim, concept: check.concept, path: path, materialStems: materialStems)],
                    task: .feynman,
                    spec: Self.pointingSpec)
                : await runItems(
                    [Self.correctionJob(claim, concept: check.concept, path: path)], task: .feynman,
                    spec: Self.correctionSpec)
        }
        var outcomes: [Int: ItemOutcome] = claimOfGap.mapValues { _ in
            ItemOutcome.kept(
                "not rewritten: the material says nothing like this claim, so there is nothing to correct it from")
        }
        for (position, index) in asked.enumerated() { outcomes[index] = answers[position] }
        var gaps = feedback.gaps
        var provenance = [
            ItemProvenance(
                path: "verdict", kind: .extracted, note: "from the builtin check of each claim against the material")
        ]
        provenance += feedback.whatWasRight.indices.map {
            ItemProvenance(
                path: "whatWasRight[\($0)]", kind: .extracted, note: "a claim the material's sentences support")
        }
        for index in gaps.indices {
            let path = "gaps[\(index)]"
            guard let outcome = outcomes[index], let claim = claimOfGap[index] else {
                let note = gaps[index].point.contains("too vague") || gaps[index].point.hasPrefix("No explanation")
                    ? "the builtin check found nothing checkable in the explanation"
                    : "a key term of the concept's sentences that the explanation leaves out"
                provenance.append(ItemProvenance(path: path, kind: .extracted, note: note))
                continue
            }
            switch outcome {
            case .rewritten(let sentence):
                // The model's sentence first, then the builtin correction (the material's
                // sentence quoted) when both fit, so the fact a tutor would name is always there;
                // alone when it already says most of that sentence (the gap's quote still has it).
                let builtinCorrection = gaps[index].correction
                let evidenceKeys = Set(ClaimWords.contentKeys(claim.evidence ?? ""))
                let said = evidenceKeys.intersection(ClaimWords.contentKeys(sentence)).count
                if !evidenceKeys.isEmpty, said * 4 >= evidenceKeys.count * 3 {
                    gaps[index].correction = sentence
                } else if ProseText.length(sentence) + 1 + ProseText.length(builtinCorrection) <= 400 {
                    gaps[index].correction = sentence + " " + builtinCorrection
                } else {
                    let quote = claim.evidence.map { BuiltinEngine.quoting($0, after: " The material says: ") } ?? ""
                    gaps[index].correction =
                        sentence + ProseText.shortened(quote, maxLength: 400 - ProseText.length(sentence))
                }
                let note = claim.finding == .misplaced
                    ? "\(engine.modelName) pointed out where the material's sentence puts the claim"
                    : "correction written by \(engine.modelName) from the material's sentence"
                provenance.append(ItemProvenance(path: path, kind: .rewritten, note: note))
            case .kept(let reason):
                provenance.append(ItemProvenance(path: path, kind: .extracted, note: reason))
            }
        }
        provenance.append(ItemProvenance(path: "followUpQuestion", kind: .extracted, note: "from the builtin check"))
        var rewritten = feedback
        rewritten.gaps = gaps
        return checked(.feynman(rewritten), provenance: provenance, fallback: result, extracted: extracted)
    }
}

// MARK: - Feynman corrections

extension ItemRewriter {
    /// The model corrects one wrong claim in one short sentence, from one sentence of the
    /// material: what the material says instead ("The default value is evaluated only once.").
    /// Its answer ships only when ``FeynmanFeedback/correctionProblem(_:claim:evidence:concept:misplaced:)``
    /// finds nothing wrong with it: a small model's commonest answer is the wrong claim again.
    static let correctionSpec = ItemSpec(
        name: "correction", version: "feynman.correction/4",
        // Short on purpose: on a loaded 2-core machine the 0.5B model reads about 50 prompt
        // tokens a second, and the whole answer has 5 s.
        instructions: """
            Correct the student's wrong claim in one short sentence, with the material's words.
            Student: The Calvin cycle takes place in the thylakoids. Material: The Calvin cycle, in the stroma, fixes \
            carbon dioxide into sugar.
            {"correction": "The Calvin cycle takes place in the stroma."}
            Student: Glycolysis needs oxygen. Material: Glycolysis does not need oxygen.
            {"correction": "Glycolysis does not need oxygen."}
            """,
        schema: .object([
            .init("correction", description: "One short sentence from the material.",
                  .string(maxLength: 200, maxWords: 30, forbiddenCharacters: "\n")),
        ]),
        maximumTokens: 56)

    /// One wrong claim and the material's sentence about it. A misplaced claim is shown without
    /// the concept's name ("the DNA gets copied", not "In prophase the DNA gets copied"): its
    /// sentence is about something else, and the model should say what, not repeat the concept.
    static func correctionJob(_ claim: ExplanationClaim, concept: String, path: String) -> ItemJob {
        let evidence = ProseText.withoutListMarker(ProseText.oneLine(claim.evidence ?? ""))
        let misplaced = claim.finding == .misplaced
        let statement = misplaced ? Self.claim(claim.text, without: concept, orLeading: ["in", "during"]) : claim.text
        let prompt = "Student: \(statement). Material: \(evidence)"
        return ItemJob(path: path, prompt: prompt) { json in
            guard let answer = json["correction"]?.stringValue.map(ProseText.oneLine),
                answer.contains(where: \.isLetter)
            else {
                return .failure(ItemRejection(reason: "the answer had no correction"))
            }
            var sentence = answer.trimmingCharacters(in: .whitespaces)
            if let first = sentence.first, first.isLowercase { sentence = first.uppercased() + sentence.dropFirst() }
            if let last = sentence.last, !".!?".contains(last) { sentence += "." }
            if let problem = FeynmanFeedback.correctionProblem(
                sentence, claim: claim.text, evidence: evidence, concept: concept, misplaced: misplaced)
            {
                return .failure(ItemRejection(reason: "“\(ProseText.shortened(sentence, maxLength: 120))”: \(problem)"))
            }
            return .success(sentence)
        }
    }
}

// MARK: - Pointing a misplaced claim to its place

extension ItemRewriter {
    /// The model answers one question about one sentence with a phrase copied from it: where
    /// the material puts the fact of a misplaced claim ("in interphase"). Asked to write a
    /// correction of a misplaced claim, small models repeat the claim (Qwen2.5-Coder-0.5B in 5 of
    /// 5 on the samples), but they can point into a sentence, and that is checked: the phrase must
    /// come from the sentence and name something the claim and the concept do not.
    static let pointingSpec = ItemSpec(
        name: "where", version: "feynman.where/2",
        instructions: """
            You answer a question about one sentence of a student's study material with a short phrase copied from \
            that sentence. Never use a word that is not in the sentence.
            Example. Sentence: In the Calvin cycle, carbon dioxide is fixed into sugar in the stroma. Question: Which \
            words of the sentence say when or where this happens: carbon dioxide is fixed into sugar?
            {"answer": "in the Calvin cycle"}
            Example. Sentence: Glycolysis: glucose is split into two pyruvate molecules in the cytoplasm. Question: \
            Which words of the sentence say when or where this happens: glucose is split?
            {"answer": "Glycolysis"}
            Reply with a JSON object with "answer".
            """,
        schema: .object([
            .init(
                "answer", description: "A short phrase from the sentence.",
                .string(maxLength: 60, maxWords: 8, forbiddenCharacters: "\n"))
        ]),
        maximumTokens: 24)

    /// A claim's words without the concept's name, nor a first word of `leading` that the name
    /// left dangling: "In prophase the DNA gets copied" → "the DNA gets copied".
    static func claim(_ text: String, without concept: String, orLeading leading: Set<String>) -> String {
        let conceptWords = Set(GroundingWords.normalizedWords(concept))
        let words = text.split(separator: " ").filter { word in
            !conceptWords.contains(GroundingWords.normalizedWords(String(word)).first ?? "")
        }
        let start = words.first.map { leading.contains($0.lowercased()) } == true ? 1 : 0
        return words.dropFirst(start).joined(separator: " ")
    }

    /// Prepositions a model puts before a place it names ("in the Calvin cycle").
    static let placePrepositions: Set<String> = [
        "in", "at", "on", "during", "to", "into", "within", "inside", "from", "by", "before", "after",
    ]

    /// `answer` when the sentence has it word for word; else, when it starts with a preposition
    /// the sentence does not put there ("in the Calvin cycle" for "The Calvin cycle, …, takes
    /// place in the stroma"), the rest, if the sentence has that word for word and no other
    /// preposition before it: "during mitosis" is not "Before mitosis, …" with its first word
    /// changed, since that would say the opposite. `nil` when the sentence has neither.
    static func copiedPhrase(_ answer: String, from sentence: String) -> String? {
        let sentenceWords = GroundingWords.normalizedWords(sentence)
        let words = GroundingWords.normalizedWords(answer)
        guard !words.isEmpty else { return nil }
        if GroundingWords.containsRun(words, in: sentenceWords) { return answer }
        guard words.count > 1, placePrepositions.contains(words[0]) else { return nil }
        let rest = Array(words.dropFirst())
        // Every place the rest stands in the sentence must have no other preposition before it.
        var found = false
        for start in GroundingWords.runStarts(rest, in: sentenceWords) {
            if start > 0, placePrepositions.contains(sentenceWords[start - 1]) { return nil }
            found = true
        }
        guard found else { return nil }
        // The answer's own spelling, without its first word.
        let text = answer.split(separator: " ", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
        return text.isEmpty ? nil : text
    }

    /// Whether `phrase`, not led by a preposition, stands in `sentence` right after a content
    /// word of `claim` (past an article or a possessive): "splits the cytoplasm" for the claim
    /// "the cell splits in two".
    static func followsTheClaimsWord(_ phrase: String, in sentence: String, claim: String) -> Bool {
        let sentenceWords = GroundingWords.normalizedWords(sentence)
        let words = GroundingWords.normalizedWords(phrase)
        let claimKeys = Set(ClaimWords.contentKeys(claim))
        let skipped: Set<String> = ["the", "a", "an", "its", "their", "his", "her"]
        // A place or a time ("in interphase") may follow any word.
        guard let first = words.first, !placePrepositions.contains(first), !claimKeys.isEmpty else { return false }
        for start in GroundingWords.runStarts(words, in: sentenceWords) {
            var before = start - 1
            while before >= 0, skipped.contains(sentenceWords[before]) { before -= 1 }
            if before >= 0, ClaimWords.contentKeys(sentenceWords[before]).contains(where: claimKeys.contains) {
                return true
            }
        }
        return false
    }

    /// One misplaced claim: where does the material put it?
    static func pointingJob(
        _ claim: ExplanationClaim, concept: String, path: String, materialStems: Set<String>
    ) -> ItemJob {
        let evidence = claim.evidence ?? ""
        let asked = Self.claim(claim.text, without: concept, orLeading: ["in"])
        let prompt =
            "Sentence: \(evidence) Question: Which words of the sentence say when or where this happens: \(asked)?"
        return ItemJob(path: path, prompt: prompt) { json in
            guard let answer = json["answer"]?.stringValue.map(ProseText.oneLine), answer.contains(where: \.isLetter)
            else {
                return .failure(ItemRejection(reason: "the answer had no phrase"))
            }
            let answered = answer.trimmingCharacters(in: CharacterSet(charactersIn: " .,;:\"“”{}[]()"))
            guard ProseText.wordCount(answered) <= 8 else {
                return .failure(ItemRejection(reason: "the phrase was too long"))
            }
            // Copied word for word: "during mitosis" from "Before mitosis, …" would be grounded and false.
            guard let phrase = Self.copiedPhrase(answered, from: evidence) else {
                return .failure(ItemRejection(
                    reason: "the phrase “\(ProseText.shortened(answered, maxLength: 60))” was not taken from the "
                        + "material's sentence"))
            }
            let claimKeys = Set(ClaimWords.contentKeys(claim.text + " " + concept))
            guard ClaimWords.contentKeys(phrase).contains(where: { !claimKeys.contains($0) }) else {
                return .failure(ItemRejection(reason: "the phrase did not say where the material puts the claim"))
            }
            // "Cytokinesis then splits the cytoplasm": for "the cell splits in two", the
            // 0.5B's "cytoplasm" is what the claim's verb acts on, not where the splitting belongs.
            if Self.followsTheClaimsWord(phrase, in: evidence, claim: claim.text) {
                return .failure(ItemRejection(
                    reason: "the phrase “\(phrase)” named what the claim's words act on, not where the material puts "
                        + "the claim"))
            }
            return .success("According to the material, this belongs to “\(phrase)”, not to \(concept).")
        }
    }
}
