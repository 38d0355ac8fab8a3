import Foundation

// MARK: - Feynman feedback, item by item

extension RoutingEngine {
    /// The builtin feedback with the corrections of its misplaced claims pointed by `engine`:
    /// each misplaced claim is one small job, and each item's provenance says what made it.
    func rewriteFeynman(
        _ feedback: FeynmanFeedback, request: RoutingRequest, engine: any LanguageModel, materialStems: Set<String>,
        fallback result: AnyStudyResult, extracted: [ItemProvenance], material: String, log: AttemptLog
    ) async -> (result: AnyStudyResult, items: [ItemProvenance]) {
        let analysis = BuiltinAnalysis(text: request.document.text, title: request.document.title)
        let check = builtin.feynmanCheck(analysis, concept: request.concept, explanation: request.explanation)
        // The first gaps are the wrong claims, in order (``BuiltinEngine/feynmanFeedback(_:analysis:)``).
        let wrong = Array(check.wrongClaims.prefix(feedback.gaps.count))
        let misplaced = wrong.enumerated().filter { $0.element.finding == .misplaced }
        let jobs = misplaced.map { index, claim in
            Self.correctionJob(claim, concept: check.concept, path: "gaps[\(index)].correction", materialStems: materialStems)
        }
        let answers = await runItems(jobs, engine: engine, task: .feynman, spec: Self.correctionSpec, request: request, log: log)
        var outcomes = wrong.map { claim in
            ItemOutcome.kept(
                claim.finding == .contradicted
                    ? "not rewritten: the correction quotes the concept's sentence that says otherwise"
                    : "not rewritten: the material says nothing like this claim, so there is nothing to point to")
        }
        for (position, (index, _)) in misplaced.enumerated() { outcomes[index] = answers[position] }
        var gaps = feedback.gaps
        var provenance = [ItemProvenance(path: "verdict", kind: .extracted, note: "from the builtin check of each claim against the material")]
        provenance += feedback.whatWasRight.indices.map {
            ItemProvenance(path: "whatWasRight[\($0)]", kind: .extracted, note: "a claim the material's sentences support")
        }
        for index in gaps.indices {
            let path = "gaps[\(index)]"
            guard index < outcomes.count else {
                let note = gaps[index].point.contains("too vague") || gaps[index].point.hasPrefix("No explanation")
                    ? "the builtin check found nothing checkable in the explanation"
                    : "a key term of the concept's sentences that the explanation leaves out"
                provenance.append(ItemProvenance(path: path, kind: .extracted, note: note))
                continue
            }
            switch outcomes[index] {
            case .rewritten(let sentence):
                let evidence = wrong[index].evidence.map { BuiltinEngine.quoting($0, after: " The material says: ") } ?? ""
                let room = 400 - BuiltinProse.length(sentence)
                gaps[index].correction = BuiltinProse.length(evidence) <= room ? sentence + evidence : sentence
                provenance.append(ItemProvenance(path: path, kind: .rewritten, note: "\(engine.modelName) pointed out where the material's sentence puts the claim"))
            case .kept(let reason):
                provenance.append(ItemProvenance(path: path, kind: .extracted, note: reason))
            }
        }
        provenance.append(ItemProvenance(path: "followUpQuestion", kind: .extracted, note: "from the builtin check"))
        var rewritten = feedback
        rewritten.gaps = gaps
        return checked(.feynman(rewritten), provenance: provenance, fallback: result, extracted: extracted, material: material)
    }
}

// MARK: - Feynman corrections

extension RoutingEngine {
    /// The model answers one question about one sentence with a phrase copied from it: where
    /// the material puts the fact of a misplaced claim ("in interphase"). A 135M model cannot
    /// be trusted to write a correction (it repeats the wrong claim), but it can point into a
    /// sentence, and that is checked: the phrase must come from the sentence and name something
    /// the claim and the concept do not.
    static let correctionSpec = ItemSpec(
        name: "where", version: "feynman.where/2",
        instructions: """
            You answer a question about one sentence of a student's study material with a short phrase copied from that sentence. Never use a word that is not in the sentence.
            Example. Sentence: In the Calvin cycle, carbon dioxide is fixed into sugar in the stroma. Question: Which words of the sentence say when or where this happens: carbon dioxide is fixed into sugar?
            {"answer": "in the Calvin cycle"}
            Example. Sentence: Glycolysis: glucose is split into two pyruvate molecules in the cytoplasm. Question: Which words of the sentence say when or where this happens: glucose is split?
            {"answer": "Glycolysis"}
            Reply with a JSON object with "answer".
            """,
        schema: .object([
            .init("answer", description: "A short phrase from the sentence.", .string(maxLength: 60, maxWords: 8, forbiddenCharacters: "\n")),
        ]),
        maximumTokens: 24)

    /// One misplaced claim: where does the material put it?
    static func correctionJob(_ claim: FeynmanCheck.Claim, concept: String, path: String, materialStems: Set<String>) -> ItemJob {
        let evidence = claim.evidence ?? ""
        let conceptWords = Set(Grounding.normalizedWords(concept))
        let statement = claim.text.split(separator: " ").filter { word in
            !conceptWords.contains(Grounding.normalizedWords(String(word)).first ?? "")
        }.joined(separator: " ")
        let asked = statement.hasPrefix("In ") || statement.hasPrefix("in ") ? String(statement.dropFirst(3)) : statement
        let prompt = "Sentence: \(evidence) Question: Which words of the sentence say when or where this happens: \(asked)?"
        return ItemJob(path: path, prompt: prompt) { json in
            guard let answer = json["answer"]?.stringValue.map(BuiltinProse.oneLine), answer.contains(where: \.isLetter) else {
                return .failure(ItemRejection(reason: "the answer had no phrase"))
            }
            let phrase = answer.trimmingCharacters(in: CharacterSet(charactersIn: " .,;:\"“”{}[]()"))
            guard BuiltinProse.wordCount(phrase) <= 8 else { return .failure(ItemRejection(reason: "the phrase was too long")) }
            // Copied word for word: "during mitosis" from "Before mitosis, …" would be grounded and false.
            let evidenceWords = " " + Grounding.normalizedWords(evidence).joined(separator: " ") + " "
            let phraseWords = Grounding.normalizedWords(phrase).joined(separator: " ")
            guard !phraseWords.isEmpty, evidenceWords.contains(" " + phraseWords + " ") else {
                return .failure(ItemRejection(reason: "the phrase “\(BuiltinProse.shortened(phrase, maxLength: 60))” was not taken from the material's sentence"))
            }
            let claimKeys = Set(FeynmanCheck.contentKeys(claim.text + " " + concept))
            guard FeynmanCheck.contentKeys(phrase).contains(where: { !claimKeys.contains($0) }) else {
                return .failure(ItemRejection(reason: "the phrase did not say where the material puts the claim"))
            }
            return .success("According to the material, this belongs to “\(phrase)”, not to \(concept).")
        }
    }
}
