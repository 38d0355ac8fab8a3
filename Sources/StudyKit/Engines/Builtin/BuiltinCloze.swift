// MARK: - Cloze items, flashcards and quiz

extension BuiltinEngine {
    private static let questionLength = 300
    private static let quoteLength = 500
    private static let promptLength = 400
    private static let choiceLength = 200
    private static let explanationLength = 600

    /// Up to `limit` cloze items with distinct one-line questions that fit every bound (a few
    /// more when a body section would otherwise have none, unless `exact`).
    ///
    /// The document's best items come first, up to what a page of notes gets
    /// (``flashcardLimit``); then every body section gets its share (``SectionSpread``: one card
    /// at least, the rest by its share of the distinct text, from its own sentences and terms);
    /// then the document's terms top the deck up. A deck sized past a page's is in document order.
    ///
    /// Passes, each only while more are needed: the builder's defaults (one per sentence of 6–40
    /// words, one per term); then shorter sentences and terms not used yet; then, only to reach
    /// the minimum of three, other terms of sentences already asked about (common words too).
    /// The first two take only sentences that stand alone, as the summary's do: finished, reading
    /// on their own (``StandaloneSentence/readsOnItsOwn(_:)``: not leaning on the one before, not sending the reader
    /// elsewhere) and whole (``isPieceOfLongerSentence(_:in:)``).
    func clozeItems(_ analysis: BuiltinAnalysis, limit: Int, exact: Bool = false) -> [ClozeItem] {
        analysis.decks.value(for: ClozeDeckKey(limit: limit, exact: exact)) { key in
            buildClozeItems(analysis, limit: key.limit, exact: key.exact)
        }
    }

    private func buildClozeItems(_ analysis: BuiltinAnalysis, limit: Int, exact: Bool) -> [ClozeItem] {
        var items: [ClozeItem] = []
        var questionKeys = Set<String>()
        var questionStems: [Set<String>] = []
        var usedTerms = Set<String>()
        var usedSentences = Set<String.Index>()
        // Every run of words of an accepted answer's key: what a term overlapping one asks again.
        var usedRuns = Set<String>()
        // The sentences asked about, by their text: a sentence the document says again (a
        // section repeated word for word) is no new card (#54).
        var usedTexts = Set<String>()
        func accept(_ item: ClozeItem) -> Bool {
            let question = item.shownQuestion
            let key = ProseText.duplicateKey(question)
            let stems = ItemRules.overlapKeys(question)
            // The rules every card and question answers to (a question with content
            // words, an answer that is a term, no near-copy of another question).
            guard ProseText.length(question) <= Self.questionLength,
                ProseText.length(ProseText.oneLine(item.sentence)) <= Self.quoteLength,
                !questionKeys.contains(key), ItemRules.problem(question, .question) == nil,
                ItemRules.problem(ProseText.oneLine(item.answer), .answer) == nil,
                !questionStems.contains(where: { ItemRules.nearCopy(stems, $0) })
            else { return false }
            usedTerms.insert(item.answerKey)
            usedRuns.formUnion(SectionSpread.runs(of: item.answerKey))
            usedTexts.insert(ProseText.oneLine(item.sentence))
            usedSentences.insert(item.sourceRange.lowerBound)
            questionKeys.insert(key)
            questionStems.append(stems)
            items.append(item)
            return true
        }
        // A definition list's entries first, up to a third of the deck, the best-ranked
        // descriptions first: each is a card as it stands. No other card is cut from their
        // descriptions, which name no one on their own ("King of _____ from 1774 to 1792").
        let rankOfUnit = Dictionary(
            analysis.ranked.enumerated().map { ($1.sentence.range.lowerBound, $0) }, uniquingKeysWith: { min($0, $1) })
        // What a page of notes gets comes first, the document's best items; the rest is spread.
        let base = min(limit, Self.flashcardLimit)
        let definitionCards = min(base, max(Self.minimumDefinitionCards, base / 3))
        let entries = analysis.definitions.sorted {
            (rankOfUnit[$0.description.range.lowerBound] ?? .max)
                < (rankOfUnit[$1.description.range.lowerBound] ?? .max)
        }
        for entry in entries where items.count < definitionCards {
            _ = accept(Self.definitionItem(entry, among: analysis.definitions))
        }
        for entry in analysis.definitions { usedSentences.insert(entry.description.range.lowerBound) }
        let genericHeads = ClozeBuilder.genericHeads(keyphrases: analysis.keyphrases, compounds: analysis.compounds)
        let passes: [(builder: ClozeBuilder, reuseSentences: Bool)] = [
            (ClozeBuilder(screensCommonWords: analysis.isEnglish, asksEachNotionOnce: true), false),
            (ClozeBuilder(minWords: 4, screensCommonWords: analysis.isEnglish, asksEachNotionOnce: true), false),
            (ClozeBuilder(minWords: 4), true),
        ]
        // A card stands alone: never a sentence that stops before the list or code that finishes
        // it ("… the following function accumulates the arguments passed to it:"), nor one that
        // leans on the sentence before ("This is useful when …"). Asked only of the sentences the
        // builder reaches, once each: it stops at the cards it needs, and a book has thousands.
        // Nor the document's own label ("Astronomy club handout, session 4", "Unit 3 notes"), which
        // says what the document is, not what it teaches (#53): not even the pass that reuses sentences.
        func isLabel(_ sentence: Sentence) -> Bool {
            ItemRules.documentLabel(GroundingWords.normalizedWords(sentence.text)) != nil
        }
        var standsAlone = [Bool?](repeating: nil, count: analysis.ranked.count)
        // Each ranked sentence's text on one line, found when first asked (a copy may break its lines elsewhere).
        var lineOf = [String?](repeating: nil, count: analysis.ranked.count)
        func isAskedAlready(_ position: Int) -> Bool {
            guard !usedTexts.isEmpty else { return false }
            if let known = lineOf[position] { return usedTexts.contains(known) }
            let line = ProseText.oneLine(analysis.ranked[position].sentence.text)
            lineOf[position] = line
            return usedTexts.contains(line)
        }
        func isStandalone(_ position: Int) -> Bool {
            if let known = standsAlone[position] { return known }
            let sentence = analysis.ranked[position].sentence
            let answer = !ProseText.isUnfinished(sentence.text) && StandaloneSentence.readsOnItsOwn(sentence.text)
                && !Self.isPieceOfLongerSentence(sentence, in: analysis) && !isLabel(sentence)
            standsAlone[position] = answer
            return answer
        }
        func runPasses(upTo limit: Int) {
            for pass in passes {
                let target = pass.reuseSentences ? min(3, limit) : limit
                while items.count < target {
                    let ranked: any Sequence<RankedSentence> = pass.reuseSentences
                        ? analysis.ranked.lazy.filter { !isLabel($0.sentence) }
                        : analysis.ranked.indices.lazy.filter {
                            !usedSentences.contains(analysis.ranked[$0].sentence.range.lowerBound)
                                && !isAskedAlready($0) && isStandalone($0)
                        }.map { analysis.ranked[$0] }
                    // One card per notion: "optional" is no new term after "optional fields", nor
                    // "entry" after "entry type" (only the pass that tops a thin text up allows it).
                    let terms = analysis.keyphrases.filter { phrase in
                        !usedTerms.contains(phrase.key)
                            && (pass.reuseSentences || !usedTerms.contains { ClozeBuilder.overlaps($0, phrase.key) })
                    }
                    let fresh = pass.builder.items(
                        from: ranked, keyphrases: terms, limit: target - items.count, compounds: analysis.compounds,
                        genericHeads: genericHeads)
                    guard !fresh.isEmpty else { break }
                    // A copy of a sentence asked about in this same batch is skipped, its term kept
                    // (the pass that tops a thin text up asks a sentence again by design).
                    for item in fresh
                    where (pass.reuseSentences || !usedTexts.contains(ProseText.oneLine(item.sentence)))
                        && !accept(item)
                    {
                        usedTerms.insert(item.answerKey)
                    }
                }
            }
        }
        runPasses(upTo: base)
        let spread = SectionSpread(analysis: analysis, limit: limit, givesEverySectionACard: !exact)
        // Every section gets a card (#54): where a word its sentences say twice is the only blank
        // they have ("A _____ expels hot exhaust gas downwards, and the gas pushes the _____
        // upwards"), that card rather than none.
        var lastResort = ClozeBuilder(minWords: 4, screensCommonWords: analysis.isEnglish, asksEachNotionOnce: true)
        lastResort.asksAWordSaidTwice = true
        let sectionBuilders = passes.filter { !$0.reuseSentences }.map(\.builder) + [lastResort]
        spread.fill(items: items) { _, positions, terms, count, reusing in
            let before = items.count
            var sectionTerms = Set<String>()
            for builder in sectionBuilders {
                // The last builder asks a word its sentence says twice: only for a section that has no card.
                if builder.asksAWordSaidTwice, items.count > before { break }
                while items.count - before < count {
                    let ranked = positions.lazy.filter {
                        !usedSentences.contains(analysis.ranked[$0].sentence.range.lowerBound)
                            && !isAskedAlready($0) && isStandalone($0)
                    }.map { analysis.ranked[$0] }
                    // A term asked in another section may be asked again only where the section has
                    // no card (`reusing`), and never twice in one section.
                    let fresh = terms.filter { phrase in
                        reusing ? !sectionTerms.contains(phrase.key)
                            : !usedTerms.contains(phrase.key) && !usedRuns.contains(phrase.key)
                                && !SectionSpread.runs(of: phrase.key).contains(where: usedTerms.contains)
                    }
                    // No term left to blank: reading the section's sentences again finds nothing.
                    guard !fresh.isEmpty else { break }
                    let made = builder.items(
                        from: ranked, keyphrases: fresh, limit: count - (items.count - before),
                        compounds: analysis.compounds, genericHeads: genericHeads)
                    guard !made.isEmpty else { break }
                    // A copy of a sentence asked about in this same batch is skipped, its term kept.
                    for item in made where !usedTexts.contains(ProseText.oneLine(item.sentence)) {
                        sectionTerms.insert(item.answerKey)
                        if !accept(item) { usedTerms.insert(item.answerKey) }
                    }
                }
            }
            return items.count - before
        }
        runPasses(upTo: limit)
        guard limit > base else { return items }
        return items.sorted { $0.answerOffsets.lowerBound < $1.answerOffsets.lowerBound }
    }

    /// A deck's definition cards when the document has a definition list: at least this many,
    /// at most a third of the deck.
    static let minimumDefinitionCards = 3

    /// The cloze item of a definition-list entry: the name blanked before its description
    /// ("_____. King of France from 1774 to 1792; …" — Louis XVI), quoting both as the text has
    /// them; the description's own mentions of the name are blanked too.
    static func definitionItem(
        _ entry: DefinitionEntry, among entries: [DefinitionEntry], blank: String = "_____"
    ) -> ClozeItem {
        let label = String(entry.label.text.dropFirst(entry.termStart))
        let description = entry.descriptionText
        let named = description.replacingOccurrences(of: entry.term, with: blank)
        let siblings = entries.filter { $0.term != entry.term && $0.section == entry.section }.map(\.term)
        // On one line ("Stroma: the fluid around …") the card is the line with its name blanked.
        let sentence = entry.isInline ? label : label + "\n\n" + description
        let opener = entry.isInline
            ? String(label.dropFirst(entry.term.count).prefix { $0 != " " }) : String(label.dropFirst(entry.term.count))
        let start = entry.label.offsets.lowerBound + entry.termStart
        return ClozeItem(
            sentence: sentence,
            answer: entry.term,
            clozeText: blank + opener + " " + named,
            sourceRange: entry.label.range.lowerBound..<entry.description.range.upperBound,
            answerOffsets: start..<(start + entry.term.count),
            answerKey: TermNormalizer.words(in: entry.term).map(\.stem).joined(separator: " "),
            siblings: siblings)
    }

    /// The deck's size for `analysis` (#54): `--cards`, else one card per 700 distinct characters
    /// of the body, its code counted (the cards come from the prose around it), and one per body
    /// section, 12 to 400 (``KitSize``).
    static func cardCount(_ analysis: BuiltinAnalysis, size: KitSize) -> Int {
        size.cardCount(
            distinctCharacters: analysis.sections.distinctCharactersWithCode,
            bodySections: analysis.sections.distinctBody.count)
    }

    func flashcards(_ analysis: BuiltinAnalysis, size: KitSize = .followsMaterial) throws(BuiltinError) -> Flashcards {
        let limit = Self.cardCount(analysis, size: size)
        let cards = clozeItems(analysis, limit: limit, exact: size.cards != nil).map { item in
            Flashcards.Card(
                question: item.shownQuestion, answer: ProseText.oneLine(item.answer),
                quote: item.shownSentence, kind: .cloze)
        }
        guard cards.count >= 3 else {
            throw .tooShort(task: .flashcards, usableSentences: analysis.usableSentenceCount)
        }
        return Flashcards(cards: cards)
    }

    /// A quiz of `--questions`, else half the deck's cards, 8 to 200 (``KitSize``); a quiz past a
    /// page's asks from every section in turn and is in document order.
    func quiz(_ analysis: BuiltinAnalysis, size: KitSize = .followsMaterial) throws(BuiltinError) -> Quiz {
        let cards = Self.cardCount(analysis, size: size)
        let wanted = size.questionCount(cards: cards)
        let spread = SectionSpread(analysis: analysis, limit: cards)
        let deck = clozeItems(analysis, limit: max(cards, wanted), exact: size.cards != nil)
        let items = wanted > Self.quizLimit ? spread.inTurn(deck) : deck
        let fallbackTerms = Self.frequentWords(analysis)
        let quoted = Self.quotedPhrases(analysis)
        var questions: [Quiz.Question] = []
        var places: [Int] = []
        var distractorUse: [String: Int] = [:]
        for item in items where questions.count < wanted {
            let prompt = item.shownQuestion
            let answer = Self.usualSpelling(of: item, among: analysis.keyphrases)
            guard ProseText.length(prompt) <= Self.promptLength, ProseText.length(answer) <= Self.choiceLength,
                ItemRules.problem(answer, .choice) == nil
            else {
                continue
            }
            let wrong = distractors(
                for: item, analysis: analysis, fallback: fallbackTerms, quoted: quoted, use: distractorUse)
            guard wrong.count == Quiz.choiceCount - 1 else { continue }
            for option in wrong { distractorUse[ProseText.duplicateKey(option), default: 0] += 1 }
            // The answer's place comes from a stable hash of the item, so it varies across
            // questions but not across runs.
            let position = Int(
                ProseText.stableHash(item.answerKey + "\u{1F}" + item.sentence) % UInt64(Quiz.choiceCount))
            var choices = wrong
            choices.insert(answer, at: position)
            let quote = ProseText.shortened(item.shownSentence, maxLength: Self.explanationLength - 24)
            questions.append(
                Quiz.Question(
                    prompt: prompt, choices: choices, answerIndex: position,
                    explanation: "The material says: “\(quote)”", quote: BuiltinEngine.cited(item.shownSentence)))
            places.append(item.answerOffsets.lowerBound)
        }
        if wanted > Self.quizLimit {
            questions = zip(places, questions).sorted { $0.0 < $1.0 }.map(\.1)
        }
        // Never every answer in the same place: a student would learn the letter, not the matter.
        if questions.count > 1, Set(questions.map(\.answerIndex)).count == 1, var last = questions.popLast() {
            let answer = last.choices.remove(at: last.answerIndex)
            last.answerIndex = (last.answerIndex + 1) % Quiz.choiceCount
            last.choices.insert(answer, at: last.answerIndex)
            questions.append(last)
        }
        guard questions.count >= 3 else { throw .tooShort(task: .quiz, usableSentences: analysis.usableSentenceCount) }
        return Quiz(questions: questions)
    }

    /// The answer as the text usually writes it: a blank that opens the sentence took its capital
    /// ("Functions"), which among lower-case options would give the answer away. A definition
    /// list's name keeps the list's spelling ("Stroma"), as the other names offered with it do.
    static func usualSpelling(of item: ClozeItem, among keyphrases: [Keyphrase]) -> String {
        let answer = ProseText.oneLine(item.answer)
        guard item.siblings.isEmpty, item.shownSentence.hasPrefix(answer),
            let usual = keyphrases.first(where: { $0.key == item.answerKey })?.plainText,
            usual.first?.isLowercase == true, let first = answer.first, first.isUppercase,
            answer.prefix(while: { $0 != " " }).dropFirst().allSatisfy({ !$0.isUppercase })
        else { return answer }
        return first.lowercased() + answer.dropFirst()
    }

    /// Three wrong answers of the answer's kind from the key terms, then from frequent words of
    /// the text; distinct from the answer and from each other as the validator compares them.
    /// Fewer than three when the text has no more.
    ///
    /// The builder's candidates are asked for generously and the ones used least so far in the
    /// quiz (`use`) are taken first, so the same three terms do not follow every question.
    /// `others` are choices already standing beside the answer (a model's, when its question's
    /// other choices are mended: ``distractors(forAnswer:prompt:quote:beside:count:material:)``),
    /// which the options must not repeat either; `count` options at most.
    func distractors(
        for item: ClozeItem, analysis: BuiltinAnalysis, fallback: [(text: String, stem: String)], quoted: Set<String>,
        use: [String: Int], beside others: [String] = [], count: Int = Quiz.choiceCount - 1
    ) -> [String] {
        let answer = ProseText.oneLine(item.answer)
        var keys: Set<String> = Set(([answer] + others).map(ProseText.duplicateKey))
        var optionStems: [Set<String>] = ([answer] + others).map(ItemRules.overlapKeys)
        let answerStems = Set(item.answerKey.split(separator: " ").map(String.init))
        var chosen: [String] = []
        // A term the question itself says ("a powerful Senate") is plainly not the blank; such
        // options are only taken when nothing else is left.
        let promptStems = Set(TermNormalizer.words(in: item.clozeText).map(\.stem))
        var heldBack: [String] = []
        func take(_ candidate: String, allowingPromptTerms: Bool = false) {
            let text = ProseText.termText(candidate)
            let key = ProseText.duplicateKey(text)
            let stems = ItemRules.overlapKeys(text)
            guard chosen.count < count, !text.isEmpty, ProseText.length(text) <= Self.choiceLength,
                !keys.contains(key), ItemRules.problem(text, .choice) == nil,
                !optionStems.contains(where: { ItemRules.nearCopy(stems, $0) })
            else { return }
            // A heading's "Interactive", "Porting" or "Optional", shown in lower case as the text
            // writes it, is plainly no term beside a noun: such an option waits with the prompt's terms.
            if !allowingPromptTerms,
                analysis.usesEnglishWords && Self.isPlainlyNoTerm(text, inflectedAsAVerb: analysis.inflectsAsAVerb)
                    || TermNormalizer.words(in: text).allSatisfy({ promptStems.contains($0.stem) })
            {
                heldBack.append(text)
                return
            }
            keys.insert(key)
            optionStems.append(stems)
            chosen.append(text)
        }
        // An entry of a definition list: the other names of its list first.
        let siblings = item.siblings.sorted {
            ProseText.stableHash(item.answerKey + $0) < ProseText.stableHash(item.answerKey + $1)
        }
        for sibling in siblings {
            take(sibling)
        }
        let options = ClozeBuilder().distractors(for: item, among: analysis.keyphrases, count: 6, quoted: quoted)
        let leastUsed = options.indices.sorted { a, b in
            let (ua, ub) = (use[ProseText.duplicateKey(options[a])] ?? 0, use[ProseText.duplicateKey(options[b])] ?? 0)
            // Within one use count, the builder's order (same kind, closest length) holds.
            return ua != ub ? ua < ub : a < b
        }
        // Only the builder's best few compete, so a far-fetched option never beats a close one
        // merely for being fresh.
        for index in leastUsed where index < 5 { take(options[index]) }
        for option in options { take(option) }
        for word in fallback where !answerStems.contains(word.stem) { take(word.text) }
        for option in heldBack { take(option, allowingPromptTerms: true) }
        return chosen
    }

    /// Whether a quiz option written in lower case ends in a word that is never a noun or is a
    /// past participle ("interactive", "optional", "rebuild", "stay compatible"), or is a piece
    /// of a clause: it opens on a verb ("absorbs light", "reduce NADP") or runs from a plural into
    /// its verb ("buyers want", "plates move"). Beside the answer, a term, it gives itself away
    /// as wrong.
    static func isPlainlyNoTerm(_ option: String, inflectedAsAVerb: (String) -> Bool) -> Bool {
        let words = option.split(separator: " ").map(String.init)
        guard let first = words.first, let last = words.last else { return false }
        // A phrase that opens on a verb ("absorbs light", "reduce NADP", "assumes users") or runs
        // from a plural into its verb ("buyers want", "plates move") is a piece of a clause. A
        // word in its plain form opens one only when the text inflects it as a verb: "new",
        // "cheap", "civil" and "innate" are never nouns either, and open terms ("new version",
        // "civil war", "innate immune system").
        if words.count > 1, first == first.lowercased(), EnglishWordClass.isNeverNoun(first),
            first.hasSuffix("s") || !adjectiveEndings.contains(where: first.hasSuffix) && inflectedAsAVerb(first)
        {
            return true
        }
        if words.count > 1, words.dropLast().contains(where: KeyphraseExtractor.endsANounPhrase) { return true }
        guard !option.contains(where: \.isUppercase) else { return false }
        return KeyphraseExtractor.endsInNonNoun(option) || KeyphraseExtractor.isVerbOrAdjective(last)
    }

    /// Endings that make a word that is never a noun a modifier, not a verb: "natural",
    /// "genetic", "rapid", "inner", "typesetting" open terms ("natural selection", "inner
    /// do-loop", "typesetting macros"); "reduce" opens a clause.
    static let adjectiveEndings = [
        "al", "ic", "ous", "ive", "ful", "less", "able", "ible", "ant", "ent", "ary", "ory", "ar", "id", "ish", "ile",
        "ine", "ern", "ese", "ian", "ed", "en", "y", "er", "ing",
    ]

    /// The phrases of at most six words the text writes between quotation marks (“Designing BibTeX
    /// Styles”, " World Gnus Almanac "), lower-cased: titles and example values.
    static func quotedPhrases(_ analysis: BuiltinAnalysis) -> Set<String> {
        var phrases = Set<String>()
        let pairs: [(Character, Character)] = [("“", "”"), ("\"", "\""), ("‘", "’"), ("«", "»")]
        // Every unit: an example value is often quoted in code ("@STRING( WGA = " World Gnus Almanac " )").
        for unit in analysis.units {
            for (open, close) in pairs where unit.text.contains(open) {
                var rest = Substring(unit.text)
                while let start = rest.firstIndex(of: open) {
                    let inside = rest[rest.index(after: start)...]
                    guard let end = inside.firstIndex(of: close) else { break }
                    let phrase = ProseText.oneLine(String(inside[..<end])).lowercased()
                    if (1...6).contains(ProseText.wordCount(phrase)) { phrases.insert(phrase) }
                    rest = inside[inside.index(after: end)...]
                }
            }
        }
        return phrases
    }

    /// Content words of the text (no stopwords, numbers or one-letter words; for English, no word
    /// that is never a noun), most frequent first, ties to the earlier; each in its most common
    /// spelling.
    static func frequentWords(_ analysis: BuiltinAnalysis) -> [(text: String, stem: String)] {
        var counts: [String: (count: Int, first: Int, surface: String)] = [:]
        var position = 0
        for words in analysis.proseWords {
            for word in words
            where !word.isStopword && !word.isNumber && word.surface.count >= 3
                && !(analysis.isEnglish && KeyphraseExtractor.isVerbOrAdjective(word.lowercased))
            {
                let seen = counts[word.stem] ?? (0, position, word.lowercased)
                counts[word.stem] = (seen.count + 1, seen.first, seen.surface)
                position += 1
            }
        }
        return counts.sorted { a, b in
            a.value.count != b.value.count ? a.value.count > b.value.count : a.value.first < b.value.first
        }.map { (text: $0.value.surface, stem: $0.key) }
    }
}
