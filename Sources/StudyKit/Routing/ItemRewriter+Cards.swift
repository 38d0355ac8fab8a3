import Foundation

// MARK: - Flashcards: a cloze card asked as a natural question

extension ItemRewriter {

    static let cardSpec = ItemSpec(
        name: "card", version: "flashcards.card/8",
        instructions: """
            You turn one fill-in-the-blank study card into a short natural question and its answer.
            The answer is the missing words, shown in square brackets in the sentence. The question asks for them \
            without containing them and ends with a question mark.
            Example. Sentence: The Calvin cycle takes place in the [stroma]. Missing words: stroma
            {"answer": "stroma", "question": "Where does the Calvin cycle take place?"}
            Example. Sentence: [Chlorophyll] absorbs red and blue light. Missing words: Chlorophyll
            {"answer": "Chlorophyll", "question": "What absorbs red and blue light?"}
            Reply with a JSON object with "answer" and "question".
            """,
        schema: cardSchema(answer: .string(maxLength: 50, maxWords: 6, forbiddenCharacters: "\n")),
        // Bounded by the words above: 24 words of a card and the JSON around them.
        maximumTokens: 80, recordedUnder: .flashcards)

    /// A card rewrite's answer shape: the answer first, then the question. Each card fixes its
    /// answer to its missing words (``cardJob(_:path:materialStems:)``), so the model writes the
    /// question after the answer it asks for: asked for the question first, the 0.5B answered a
    /// question of its own in most refused cards ("What releases CO2 at a high concentration
    /// for RuBisCO?" — "CO2"), which gave the answer away or was not the card's.
    static func cardSchema(answer: GenerationSchema) -> GenerationSchema {
        .object([
            .init("answer", description: "The missing words.", answer),
            // At least 4 words ending as a sentence, in the grammar: SmolLM2 otherwise wrote
            // "Calvin cycle?" or a statement for 4 of 6 cards. No underscore either: a question
            // with one is always refused (the blank copied, "… released for the______."), so the
            // grammar makes the model write past the blank instead of spending the attempt. No
            // square bracket: the prompt marks the missing words with them, and a question that
            // copies the marks ("… whose keys [hash] to that bucket?") is no question to show.
            .init("question", description: "A natural question about the sentence.",
                  .string(maxLength: 120, maxWords: 18, forbiddenCharacters: "\n_[]", meaning: Self.rewrittenQuestion)),
        ])
    }

    /// The question word `question` put where the card's blank was, when the rest is the card's
    /// sentence as it stands ("In October the Convention declared that the government of what
    /// would be revolutionary until the peace, …?" for "… the government of _____ would be …"):
    /// no rewrite, and no better read than the card. `nil` for any other question.
    static func whWordInTheBlank(_ question: String, card cloze: String) -> String? {
        guard cloze.contains("_____") else { return nil }
        let asked = GroundingWords.normalizedWords(question)
        for word in ["what", "which", "who", "whom", "when", "where", "how"] {
            if GroundingWords.normalizedWords(cloze.replacingOccurrences(of: "_____", with: word)) == asked {
                return word
            }
        }
        return nil
    }

    /// The card's sentence with its missing words in square brackets, as a card rewrite shows it:
    /// "The Calvin cycle takes place in the [stroma]." The sentence is said once. The prompt gave
    /// it twice before, the sentence and then the card with its blank, and the second copy was
    /// half of the prompt tokens each card reads after the shared instructions. Without the
    /// sentence (the card alone) the model guessed at facts the blank hid and wrote more wrong
    /// cards; without the card, fewer good ones (benchmarks/RESULTS.md). A card with no blank
    /// (none the builtin engine makes) shows its quote.
    static func markedSentence(_ card: Flashcards.Card) -> String {
        guard let blank = card.question.range(of: "_____") else { return card.quote }
        return card.question.replacingCharacters(in: blank, with: "[" + card.answer + "]")
    }

    /// A rewritten card's question: a sentence of 4 words or more, 2 of them content words.
    static let rewrittenQuestion = ItemMeaning(
        noun: "a question", minimumContentWords: 2, minimumWords: 4, isSentence: true)

    /// - Parameter subjectAnswers: whether a question that asks for the sentence's subject
    ///   instead of the blank may become a card with the subject as its answer
    ///   (``subjectAnswer(_:quote:)``): a flashcard's answer is its own, a quiz question's is
    ///   fixed by its choices.
    static func cardJob(
        _ card: Flashcards.Card, path: String, materialStems: Set<String>, subjectAnswers: Bool = false
    ) -> ItemJob {
        let prompt = "Sentence: \(Self.markedSentence(card))\nMissing words: \(card.answer)"
        let passedOver = RewriteOrder.blankInAList(card.question)
            ? "the missing words are one of a list, which the small model's questions do not single out" : nil
        return ItemJob(
            path: path, prompt: prompt, schema: cardSchema(answer: .stringEnum([card.answer])), passedOver: passedOver
        ) { json in
            guard let question = json["question"]?.stringValue.map(ProseText.oneLine),
                let answer = json["answer"]?.stringValue.map(ProseText.oneLine)
            else { return .failure(ItemRejection(reason: "the answer lacked a question or an answer")) }
            guard question.hasSuffix("?"), ProseText.wordCount(question) >= 4 else {
                return .failure(ItemRejection(reason: "the question was not a question of 4 words or more"))
            }
            if question.contains("_") {
                return .failure(ItemRejection(reason: "the question still had the blank in it"))
            }
            if let word = Self.whWordInTheBlank(question, card: card.question) {
                return .failure(
                    ItemRejection(reason: "the question was the card's sentence with “\(word)” in the blank"))
            }
            if let malformed = Self.malformedQuestion(question, quote: card.quote) {
                return .failure(ItemRejection(reason: malformed))
            }
            let questionWords = GroundingWords.normalizedWords(question).joined(separator: " ")
            let answerWords = GroundingWords.normalizedWords(answer).joined(separator: " ")
            guard !answerWords.isEmpty, !(" " + questionWords + " ").contains(" " + answerWords + " ") else {
                if subjectAnswers, let subject = Self.subjectAnswer(question, quote: card.quote),
                    Grounding.supportProblem(question: question, answer: subject, quote: card.quote) == nil
                {
                    return .success(question + "\u{1F}" + subject)
                }
                return .failure(ItemRejection(reason: "the question gave its answer away"))
            }
            let quoteStems = Set(GroundingWords.contentStems(card.quote))
            let answerStems = GroundingWords.contentStems(answer)
            // A year or a number ("1789") has no content stem: it is taken from the sentence
            // when its words stand there as they are.
            let taken = answerStems.isEmpty
                ? GroundingWords.containsRun(
                    GroundingWords.normalizedWords(answer), in: GroundingWords.normalizedWords(card.quote))
                : answerStems.allSatisfy(quoteStems.contains)
            guard taken else {
                return .failure(ItemRejection(reason: "the answer was not taken from the sentence"))
            }
            // The card's answer is the blank's words: a model answering its own vaguer question
            // ("What is the rate of photosynthesis?" — "carbon dioxide") makes a wrong card.
            let blank = Set(GroundingWords.contentStems(card.answer))
            let given = Set(answerStems)
            let sameAnswer = blank.isEmpty
                ? GroundingWords.normalizedWords(answer) == GroundingWords.normalizedWords(card.answer)
                : blank.isSubset(of: given) && given.count <= blank.count + 1
            guard sameAnswer else {
                return .failure(ItemRejection(reason: "the answer was not the card's missing words"))
            }
            let questionStems = GroundingWords.contentStems(question)
            let grounded = questionStems.filter(materialStems.contains).count
            guard !questionStems.isEmpty, grounded * 3 >= questionStems.count * 2,
                questionStems.contains(where: quoteStems.contains)
            else { return .failure(ItemRejection(reason: "the question used words the material does not have")) }
            // The third of its words the question may add must be English words: words glued
            // together to stay within the grammar's word limit ("… exerts aforce?", "… in
            // the bucket array, and akeythatcollidesis?") are neither the material's nor in
            // the frequency table.
            if let invented = Self.inventedWord(
                in: question, materialStems: materialStems, isEnglish: Self.isInTheFrequencyTable)
            {
                return .failure(
                    ItemRejection(
                        reason: "the question used a word that is neither the material's nor English (\(invented))"))
            }
            guard !ResultProse.sameText(question, answer) else {
                return .failure(ItemRejection(reason: "the answer repeated the question"))
            }
            // The question asks what the card asks: it keeps the card's own content words (at
            // least 3, or half of them), not a vaguer question the blank's words happen to answer.
            // A short question made only of the card's words asks it too when it keeps the words
            // next to the blank: "What takes place in chloroplasts?" for "In plants, _____ takes
            // place in chloroplasts, which are found mainly in the mesophyll cells of leaves."
            let cardStems = Set(GroundingWords.contentStems(card.question))
            let questionSet = Set(questionStems)
            let kept = cardStems.intersection(questionStems).count
            let neighbours = Self.blankNeighbours(card.question).filter { !$0.isEmpty }
            let keepsPlace = neighbours.allSatisfy { !$0.isDisjoint(with: questionSet) }
            let onlyCardWords = questionSet.count >= 2 && questionSet.isSubset(of: cardStems) && keepsPlace
            // A glossary entry asked for by its description's relative clause ("What absorbs light
            // energy in the photosystems?" — Chlorophyll) asks what the card asks, in its own place.
            // So does a question that ends on the words right before the blank, its place in the
            // sentence ("What is the lagging strand made away from?" — fork, #53).
            let byItsClause = Self.asksForTheEntryByItsClause(question, of: card)
                || Self.endsWhereTheBlankStands(question, of: card)
            guard kept >= min(3, (cardStems.count + 1) / 2) || onlyCardWords || byItsClause else {
                return .failure(ItemRejection(reason: "the question did not ask what the card asks"))
            }
            // It asks about the blank's own place: the words next to the blank, on each side
            // that has any in its clause, are in the question. "What is the default Debian
            // Python 2 version?" shares four words with "The _____ python2-doc will always
            // provide the documentation for the default Debian Python 2 version", yet its answer
            // is not "binary package".
            guard keepsPlace || byItsClause else {
                return .failure(
                    ItemRejection(reason: "the question did not ask about the missing words' place in the sentence"))
            }
            if !byItsClause, Self.asksAnotherPart(question, of: card) {
                return .failure(
                    ItemRejection(reason: "the question asked for another part of the sentence than the missing words"))
            }
            if !byItsClause, Self.swapsSubjectAndObject(question, of: card) {
                return .failure(ItemRejection(
                    reason: "the question turned the sentence around: the missing words are what its verb acts on, not "
                        + "who acts"))
            }
            if !byItsClause, Self.asksWhatTheBlankActsOn(question, of: card) {
                return .failure(ItemRejection(
                    reason: "the question turned the sentence around: the missing words are who acts, not what its "
                        + "verb acts on"))
            }
            // Judges that say their own reason, each asked only when the one before found nothing.
            if let other = Self.otherQuantity(question, of: card) ?? Self.otherKind(question, answer: answer)
                ?? Self.splicesTwoMentions(question, of: card)
                ?? Self.verbFromAnotherClause(question, of: card)
                ?? (byItsClause ? nil : Self.dropsTheDescriptionsHead(question, of: card))
            {
                return .failure(ItemRejection(reason: other))
            }
            if let verb = Self.sharedVerb(question, answer: answer) {
                return .failure(ItemRejection(
                    reason: "the question used the answer's own verb (“\(verb)”): the missing words run into the "
                        + "sentence's verb"))
            }
            // The card's sentence carries the answer and what the question asks (#53).
            if let problem = Grounding.supportProblem(question: question, answer: answer, quote: card.quote) {
                return .failure(ItemRejection(reason: "the card's sentence \(problem)"))
            }
            return .success(question + "\u{1F}" + answer)
        }
    }

    /// The sentence's subject, as the answer of `question` when that asks for it: "What" and then
    /// the rest of the sentence's first clause word for word ("What makes extra ATP but no NADPH
    /// and no oxygen?" of "Cyclic flow makes extra ATP but no NADPH and no oxygen; …" gives
    /// "Cyclic flow"). The 0.5B asks for the subject in most cards whose blank is elsewhere, and
    /// such a question gives the blank away; its own answer is right there. `nil` unless the
    /// subject is 1 to 6 plain words with a content word, opens the sentence, is no pronoun, no
    /// preposition's phrase and no question word, and is not in the question; a leading article
    /// is dropped.
    static func subjectAnswer(_ question: String, quote: String) -> String? {
        guard question.hasPrefix("What "), question.hasSuffix("?") else { return nil }
        let asked = GroundingWords.normalizedWords(String(question.dropFirst(5)))
        let spanOpeners: Set<String> = [
            "of", "and", "or", "in", "on", "at", "to", "for", "with", "by", "from", "as", "than", "that", "which",
            "who",
        ]
        guard asked.count >= 3, let opener = asked.first, !spanOpeners.contains(opener) else { return nil }
        // The quote's words as ``GroundingWords/normalizedWords(_:)`` splits them, each where it stands.
        let runs = quote.split { !($0.isLetter || $0.isNumber) }
        let words = runs.map { $0.lowercased() }
        guard let start = GroundingWords.runStarts(asked, in: words).first(where: { (1...6).contains($0) }) else {
            return nil
        }
        // The span ends the clause: the sentence ends there, or punctuation follows.
        let after = runs[start + asked.count - 1].endIndex
        if let next = quote[after...].first(where: { !$0.isWhitespace }), !",;:.!?—–(".contains(next) { return nil }
        let subjectWords = Array(words[..<start])
        let excluded: Set<String> = [
            "what", "which", "who", "whom", "whose", "how", "why", "when", "where", "it", "its", "this", "that",
            "these", "those",
            "they", "he", "she", "we", "you", "there", "here",
            // An adverb belongs to the clause, not to its subject: "The table then maps …".
            "then", "also", "now", "still", "often", "usually", "thus", "therefore", "however", "only", "just", "soon",
            "later", "first", "finally", "always", "never", "sometimes", "already", "again", "even",
        ]
        guard subjectWords.allSatisfy({ !excluded.contains($0) }), !placePrepositions.contains(subjectWords[0]) else {
            return nil
        }
        var subject = quote[quote.startIndex..<runs[start].startIndex].trimmingCharacters(in: .whitespaces)
        guard subject.allSatisfy({ $0.isLetter || $0.isNumber || " -'’".contains($0) }),
            !GroundingWords.contentStems(subject).isEmpty,
            !GroundingWords.containsRun(
                GroundingWords.normalizedWords(subject), in: GroundingWords.normalizedWords(question))
        else { return nil }
        if subjectWords.count > 1, ["the", "a", "an"].contains(subjectWords[0]) {
            subject = String(subject.drop { !$0.isWhitespace }).trimmingCharacters(in: .whitespaces)
        }
        // One common word ("The idea was not new …") names nothing a student could recall.
        if !subject.contains(" "), subject.first?.isLowercase == true, EnglishFrequency.isCommon(subject) { return nil }
        return subject
    }

    static func splitCard(_ text: String) -> (String, String)? {
        let parts = text.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
        return parts.count == 2 ? (parts[0], parts[1]) : nil
    }
}
