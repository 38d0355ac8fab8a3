import Foundation

/// The form of a rewritten card's question: one question, said once, whose opening asks for the
/// kind of answer the card's missing words are, about the clause the missing words stand in.
extension ItemRewriter {
    /// Why a rewritten question is no single question, or `nil`: several questions in one
    /// ("What was closed? What was repealed? What was released?" — Jacobin Club), or a run of 4
    /// words or more said twice ("… not even the restored Bourbon monarchy, not even the restored
    /// Bourbon monarchy, …"), a model looping inside its 60 tokens. A run the card's sentence
    /// says twice itself ("… one object exerts a force on a second object, the second object
    /// exerts a force …") may stand twice.
    static func malformedQuestion(_ question: String, quote: String) -> String? {
        if question.filter({ $0 == "?" }).count > 1 { return "the question asked several questions in one" }
        let run = 4
        func repeatedRuns(_ text: String) -> [[String]] {
            let words = GroundingWords.normalizedWords(text)
            guard words.count >= 2 * run else { return [] }
            var seen = Set<ArraySlice<String>>()
            return (0...(words.count - run)).compactMap { start in
                seen.insert(words[start..<start + run]).inserted ? nil : Array(words[start..<start + run])
            }
        }
        let quoted = Set(repeatedRuns(quote))
        guard let repeated = repeatedRuns(question).first(where: { !quoted.contains($0) }) else { return nil }
        return "the question said “\(repeated.joined(separator: " "))” twice"
    }

    /// Why a question joins two phrases of the card's sentence that name one word twice, or
    /// `nil`: "What is the tilt of the Moon's orbit around the Sun?" of "… the Moon's orbit is
    /// tilted by about _____ to the Earth's orbit around the Sun" (5 degrees) puts "around the
    /// Sun" on the Moon's orbit, where the sentence puts it on the Earth's. A run of the question
    /// that is not the sentence's, made of two runs of it (two words or more each) that meet on a
    /// content word the sentence says twice, at two places, is such a join.
    static func splicesTwoMentions(_ question: String, of card: Flashcards.Card) -> String? {
        let asked = GroundingWords.normalizedWords(question)
        let said = GroundingWords.normalizedWords(card.quote)
        let sentence = " " + said.joined(separator: " ") + " "
        func places(_ run: ArraySlice<String>) -> [Int] { GroundingWords.runStarts(Array(run), in: said) }
        for pivot in asked.indices.dropFirst().dropLast() {
            let word = asked[pivot]
            guard said.filter({ $0 == word }).count >= 2,
                TermNormalizer.words(in: word).first.map(GroundingWords.isContent) == true
            else { continue }
            // The longest runs of the question ending and starting on the pivot that the sentence says.
            var start = pivot - 1
            while start > 0, !places(asked[(start - 1)...pivot]).isEmpty { start -= 1 }
            var end = pivot + 1
            while end + 1 < asked.count, !places(asked[pivot...(end + 1)]).isEmpty { end += 1 }
            guard start >= 0, end < asked.count, !places(asked[start...pivot]).isEmpty,
                !places(asked[pivot...end]).isEmpty,
                !sentence.contains(" " + asked[start...end].joined(separator: " ") + " ")
            else { continue }
            // The two runs stand at different mentions of the pivot.
            let left = Set(places(asked[start...pivot]).map { $0 + (pivot - start) })
            let right = Set(places(asked[pivot...end]))
            if left.isDisjoint(with: right) {
                return "the question joined two phrases of the sentence on “\(word)”, which it says of two things"
            }
        }
        return nil
    }

    /// Why the question's opening asks for another kind of answer than the card's missing words,
    /// or `nil`: "What month …?" for "5", "What year …?" or "How many …?" for words without a
    /// number, "Who …?" or "Where …?" for a bare number. Only the opening is read, after a
    /// preposition ("In what year …", "On which day …"); any other opening is not judged.
    static func otherKind(_ question: String, answer: String) -> String? {
        var opening = GroundingWords.normalizedWords(question).prefix(4)
        if let first = opening.first, ["in", "on", "at", "by", "during", "from", "since", "until"].contains(first) {
            opening = opening.dropFirst()
        }
        let words = Array(opening.prefix(2))
        guard let wh = words.first else { return nil }
        let noun = words.count > 1 ? words[1] : ""
        let answerWords = GroundingWords.normalizedWords(answer)
        let hasDigits = answer.contains { $0.isNumber }
        let hasNumber = hasDigits || answerWords.contains(where: numberWords.contains)
        let hasMonth = answerWords.contains(where: WordLists.monthNames.contains)
        let hasYear = answerWords.contains { (3...4).contains($0.count) && $0.allSatisfy(\.isNumber) }
            || answerWords.contains {
                $0.hasPrefix("centur") || $0.hasSuffix("s") && $0.dropLast().allSatisfy(\.isNumber)
            }
        let bareNumber = hasDigits && !answer.contains { $0.isLetter }
        let asks = wh == "which" ? "what" : wh
        if asks == "how", noun == "many", !hasNumber {
            return "the question asked how many, but the missing words are no number (“\(answer)”)"
        }
        if asks == "what", noun == "year", !hasYear {
            return "the question asked for a year, but the missing words have none (“\(answer)”)"
        }
        if asks == "what", noun == "month", !hasMonth {
            return "the question asked for a month, but the missing words name none (“\(answer)”)"
        }
        if asks == "what", noun == "day" || noun == "date", !hasNumber, !hasMonth,
            !answerWords.contains(where: weekdays.contains)
        {
            return "the question asked for a day, but the missing words are no date (“\(answer)”)"
        }
        if ["who", "whom", "where"].contains(wh), bareNumber {
            return "the question asked “\(wh)”, but the missing words are a number (“\(answer)”)"
        }
        // "What does the enzyme PEP carboxylase do?" asks for an action: missing words that open
        // with a word that may be a noun ("mesophyll cells") name a thing, not what it does.
        let all = GroundingWords.normalizedWords(question)
        if wh == "what", ["does", "do", "did"].contains(noun), all.count >= 4, all.last == "do",
            let first = answerWords.first, !EnglishWordClass.isNeverNoun(first)
        {
            return "the question asked what something does, but the missing words name a thing (“\(answer)”)"
        }
        return nil
    }

    /// Why a question asks about another clause of the card's sentence than the blank's, or
    /// `nil`: it takes a plain word that only another clause says ("rescue") and leaves out the
    /// verb of the blank's own clause ("guillotined"): "On what day did Robespierre, Saint-Just,
    /// Couthon and some twenty others rescue them?" — 28 July, of "An attempt by the Paris
    /// Commune to rescue them failed, and on _____ Robespierre, … were guillotined without
    /// trial." Clauses end at ";", ":" and a comma before "and", "but", "while" or "whereas".
    static func verbFromAnotherClause(_ question: String, of card: Flashcards.Card) -> String? {
        let clauses = card.question.replacingOccurrences(
            of: #";\s+|:\s+|,\s+(?:and|but|while|whereas)\s+"#, with: "\u{1E}", options: .regularExpression
        ).split(separator: "\u{1E}").map(String.init)
        guard clauses.count > 1, let own = clauses.first(where: { $0.contains("_____") }) else { return nil }
        let ownWords = TermNormalizer.words(in: own)
        let ownStems = Set(ownWords.map(\.stem))
        let otherStems = Set(clauses.filter { $0 != own }.flatMap { TermNormalizer.words(in: $0).map(\.stem) })
        let asked = TermNormalizer.words(in: question)
        let askedStems = Set(asked.map(\.stem))
        guard let taken = asked.first(where: { word in
                word.surface == word.lowercased && GroundingWords.isContent(word) && otherStems.contains(word.stem)
                    && !ownStems.contains(word.stem)
        }) else { return nil }
        func isVerb(_ word: NormalizedWord) -> Bool {
            let form = word.lowercased
            guard word.surface == form, form.allSatisfy(\.isLetter) else { return false }
            return form.count > 4 && form.hasSuffix("ed") || EnglishWordClass.isIrregularVerbForm(form)
                || WordLists.pastTensesOfNounVerbs.contains(form)
        }
        guard let left = ownWords.first(where: { isVerb($0) && !askedStems.contains($0.stem) }) else { return nil }
        return
            "the question took “\(taken.surface)” from another clause than the missing words' and left out its verb "
                + "(“\(left.surface)”)"
    }

    /// Words that say how many.
    static let numberWords: Set<String> = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
        "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty", "thirty",
        "forty", "fifty", "sixty", "seventy", "eighty", "ninety", "hundred", "hundreds", "thousand", "thousands",
        "million", "millions", "billion", "billions", "dozen", "dozens", "several", "many", "few", "most",
        "half", "quarter", "third", "both", "none", "no", "single", "double", "twice", "pair", "couple",
    ]

    /// The weekdays' names, lowercased.
    static let weekdays: Set<String> = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
}

// MARK: - Definition cards

extension ItemRewriter {
    /// Why a question for a definition-list card (``DefinitionEntry``: "_____. A noble elected for
    /// the Third Estate, …" — Mirabeau) drops what the description says the name is, or `nil`.
    /// The description's first content word is its head ("noble", "King", "Nobles"): a question
    /// without it asks something the entry does not say — "Who elected for the Third Estate?"
    /// makes Mirabeau the voter, not the one elected.
    static func dropsTheDescriptionsHead(_ question: String, of card: Flashcards.Card) -> String? {
        guard let description = definitionDescription(of: card) else { return nil }
        guard let head = GroundingWords.contentStems(description).first,
            !GroundingWords.contentStems(question).contains(head)
        else { return nil }
        let said = TermNormalizer.words(in: description).first { $0.stem == head }?.surface ?? head
        return "the question left out what the entry says the name is (“\(said)”)"
    }

    /// The description of a definition-list card ("_____. King of France …", "_____: the fluid
    /// around …"): the card's text after its blanked name; `nil` for any other card.
    static func definitionDescription(of card: Flashcards.Card) -> String? {
        ["_____. ", "_____: "].first(where: card.question.hasPrefix).map { String(card.question.dropFirst($0.count)) }
    }

    /// Whether `question` asks for a definition-list card's name by the relative clause its
    /// description says it with — the name is what the clause is about, so the question needs
    /// neither the description's head nor the blank's neighbours: "What absorbs light energy in
    /// the photosystems?" for "_____: the green pigment that absorbs light energy in the
    /// photosystems." (Chlorophyll), "Who fled France during the Revolution?" for "_____.
    /// Nobles, clergy and others who fled France during the Revolution, …" (Émigrés), "Where does
    /// the Calvin cycle occur?" for "_____: the fluid around the thylakoids where the Calvin
    /// cycle occurs." (Stroma). The question's content words are the clause's (up to its first
    /// punctuation), at least two of them and two thirds of the clause's. The verbs of occurring
    /// are one verb (``occurringAsOne(_:)``): "Where does the Calvin cycle take place?" asks it too.
    static func asksForTheEntryByItsClause(_ question: String, of card: Flashcards.Card) -> Bool {
        guard let entry = definitionDescription(of: card) else { return false }
        let description = occurringAsOne(entry)
        let questionWords = TermNormalizer.words(in: occurringAsOne(question))
        guard let wh = questionWords.first?.lowercased else { return false }
        let relatives: Set<String> =
            wh == "where" ? ["where"] : ["what", "who", "which"].contains(wh) ? ["that", "which", "who"] : []
        let asked = Set(questionWords.dropFirst().filter(GroundingWords.isContent).map(\.stem))
        guard !relatives.isEmpty, asked.count >= 2 else { return false }
        let words = TermNormalizer.words(in: description)
        for index in words.indices
        where relatives.contains(words[index].lowercased) && index + 1 < words.count && !words[index + 1].followsBreak {
            let clause = words[(index + 1)...].prefix {
                $0.offsets.lowerBound == words[index + 1].offsets.lowerBound || !$0.followsBreak
            }
            let stems = Set(clause.filter(GroundingWords.isContent).map(\.stem))
            if asked.isSubset(of: stems), asked.count * 3 >= stems.count * 2 { return true }
        }
        return false
    }

    /// `text` with each verb of occurring ("takes place", "happened", "occurring") said as
    /// "occurs": a question that says "take place" of a clause that says "occurs" asks the same
    /// (#53: "Where does the Calvin cycle take place?" — Stroma, of "… where the Calvin cycle
    /// occurs", a good card the 0.5B wrote and the judge refused).
    static func occurringAsOne(_ text: String) -> String {
        text.replacingOccurrences(
            of: #"\b(?:(?:take|takes|took|taken|taking) place|happen(?:s|ed|ing)?|occur(?:s|red|ring)?)\b"#,
            with: "occurs", options: [.regularExpression, .caseInsensitive])
    }
}
