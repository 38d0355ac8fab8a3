import Foundation

// MARK: - Whether a card's question asks what the card asks

extension ItemRewriter {
    /// Whether `question` ends on the words that stand right before the card's blank (at least
    /// two, after any article), and every content word it has stands in the blank's clause before
    /// it: "What is the lagging strand made away from?" of "The lagging strand is made away from
    /// the _____ in short pieces called Okazaki fragments." (fork). The question asks for what
    /// comes next in the sentence, which is the blank — whatever the words after the blank are.
    static func endsWhereTheBlankStands(_ question: String, of card: Flashcards.Card) -> Bool {
        guard let blank = card.question.range(of: "_____"), question.hasSuffix("?") else { return false }
        var before = GroundingWords.normalizedWords(String(card.question[..<blank.lowerBound]))
        while let last = before.last, ["the", "a", "an", "its", "their", "his", "her"].contains(last) {
            before.removeLast()
        }
        let asked = GroundingWords.normalizedWords(question)
        guard asked.count >= 4, before.count >= 2 else { return false }
        // The words the question ends on, 2 to 4 of them, as the sentence has them before the blank.
        let ending = (2...min(4, before.count)).contains { length in
            Array(asked.suffix(length)) == Array(before.suffix(length))
        }
        guard ending else { return false }
        // Its content words are the clause's before the blank (from its last comma or semicolon).
        let head = String(card.question[..<blank.lowerBound])
        let clause = head.split(whereSeparator: { ",;:".contains($0) }).last.map(String.init) ?? head
        let clauseStems = Set(GroundingWords.contentStems(clause))
        let questionStems = GroundingWords.contentStems(question)
        return !questionStems.isEmpty && questionStems.allSatisfy(clauseStems.contains)
    }

    /// Where a cloze card's first blank stands among its sentence's words: the cloze's words
    /// before the blank are the sentence's. `nil` without a blank.
    static func blankStart(in cloze: String) -> Int? {
        cloze.range(of: "_____").map { TermNormalizer.words(in: String(cloze[..<$0.lowerBound])).count }
    }

    /// Whether a "What", "Who" or "Which" question asks for another part of the card's sentence
    /// than its blank. A run of the question's content words that stands in the sentence (at
    /// least 2, or its one) is what the answer goes with: the blank must stand right before one
    /// (at most one word of content between: "_____ is probably the most abundant protein"), or
    /// right after it with only "is", "called", an article and the like between, in its clause
    /// ("The main pigment is _____", "Isaac Newton published his _____"). Each run the Qwen 0.5B
    /// asked about elsewhere made a wrong card: "What is the demand curve?" — quantity, of "A
    /// demand curve is a graph of price against _____ demanded"; "What reflects green light?" —
    /// leaves, of "Chlorophyll … reflects green light, which is why _____ look green"; "What is
    /// the load factor?" — 8, of "The load factor is 3 divided by _____". A question whose words
    /// do not stand in the sentence as a run of two is not judged here.
    static func asksAnotherPart(_ question: String, of card: Flashcards.Card) -> Bool {
        let questionWords = TermNormalizer.words(in: question)
        guard let opener = questionWords.first?.lowercased, ["what", "who", "which"].contains(opener),
            let blankStart = blankStart(in: card.question)
        else { return false }
        let asked = questionWords.dropFirst().filter(GroundingWords.isContent).map(\.stem)
        let words = TermNormalizer.words(in: card.quote)
        let answerWords = TermNormalizer.words(in: card.answer)
        let blankEnd = blankStart + answerWords.count
        guard !asked.isEmpty, !answerWords.isEmpty, blankEnd <= words.count,
            zip(words[blankStart..<blankEnd], answerWords).allSatisfy({ $0.lowercased == $1.lowercased })
        else { return false }
        let positions = words.indices.filter { GroundingWords.isContent(words[$0]) }
        let stems = positions.map { words[$0].stem }
        // Every run of the question's content stems (two or more, or its one) that stands in the
        // sentence: a long question ("What laws did Isaac Newton publish in 1687 in the Principia
        // (…)?") has its longest run away from the blank, and a shorter one next to it.
        var runs: [(start: Int, end: Int, from: Int)] = []
        for length in stride(from: min(asked.count, stems.count), through: asked.count == 1 ? 1 : 2, by: -1) {
            for from in 0...(asked.count - length) {
                for at in GroundingWords.runStarts(Array(asked[from..<(from + length)]), in: stems) {
                    runs.append((positions[at], positions[at + length - 1] + 1, from))
                }
            }
        }
        guard !runs.isEmpty else { return false }
        let chars = Array(card.quote)
        // What may stand between the question's words and an answer after them: "is", "called",
        // an article or a possessive ("Isaac Newton published his _____").
        let links: Set<String> = [
            "is", "are", "was", "were", "be", "been", "being", "called", "named", "known", "as", "a", "an", "the",
            "his", "her", "its", "their", "our", "your", "my", "this", "these", "those", "some",
        ]
        let answersARun = runs.contains { run in
            if blankEnd <= run.start {
                return words[blankEnd..<run.start].count(where: { !$0.isStopword }) <= 1
            }
            // "Which package, python2-doc, …" of "The _____ python2-doc …" (binary package): the
            // word after "Which" names the answer's last word, and the question goes on from
            // there. Not a verb the answer ends on: "What do sellers want to buy?" — buyers want.
            let namesTheAnswer = run.from == 0 && questionWords.count > 1 && !questionWords[1].isStopword
            if namesTheAnswer, run.start > blankStart, run.start < blankEnd, run.end > blankEnd { return true }
            guard blankStart >= run.end else { return false }
            // The word a question ends on stands before its answer: a preposition ("What is the
            // load factor 3 divided by?" of "… 3 divided by _____") or a verb ("What does a change
            // in motion, an acceleration, need?" of "…, an acceleration, needs a _____").
            let last = questionWords.last?.stem
            let between = words[run.end..<blankStart]
            let linked = between.allSatisfy { links.contains($0.lowercased) || $0.stem == last }
            let gap = chars[words[run.end - 1].offsets.upperBound..<words[blankStart].offsets.lowerBound]
            guard gap.contains(where: { ",;:".contains($0) }) else { return linked }
            // Across a comma only to the next item of a list ("depends on light intensity,
            // _____ and temperature") or to the question's last word, never into the next
            // clause ("As the load factor rises, _____ become more frequent").
            if linked, let verb = between.lastIndex(where: { $0.stem == last }),
                !chars[words[verb].offsets.upperBound..<words[blankStart].offsets.lowerBound].contains(where: {
                    ",;:".contains($0)
                })
            {
                return true
            }
            let next = words.indices.contains(blankEnd) ? words[blankEnd].lowercased : ""
            return blankStart == run.end
                && (next == "and" || next == "or" || chars[words[blankEnd - 1].offsets.upperBound...].first == ",")
        }
        return !answersARun
    }

    /// Whether a "Who" or "What" question makes the sentence's subject the object of its verb
    /// while the blank is that verb's object: "Who sued Fust to recover his money?" of "In 1455
    /// Fust sued _____ to recover his money" asks who sued, and the blank (Gutenberg) was sued.
    /// A passive sentence is no such case: "Who paid for the project?" of "The project was paid
    /// for with loans from the merchant _____" has other words between the verb and the blank.
    static func swapsSubjectAndObject(_ question: String, of card: Flashcards.Card) -> Bool {
        let questionWords = TermNormalizer.words(in: question)
        guard let opener = questionWords.first?.lowercased, ["what", "who"].contains(opener),
            let blankStart = blankStart(in: card.question)
        else { return false }
        let asked = questionWords.dropFirst().filter(GroundingWords.isContent)
        guard asked.count >= 2 else { return false }
        let (verb, actor) = (asked[asked.startIndex].stem, asked[asked.startIndex + 1].stem)
        let words = TermNormalizer.words(in: card.quote)
        guard blankStart <= words.count else { return false }
        let articles: Set<String> = ["a", "an", "the", "his", "her", "its", "their"]
        for index in words.indices where words[index].stem == actor && index + 1 < blankStart {
            // The actor's next word of content is the verb, and the blank follows the verb; an
            // actor may be a phrase with "of" ("the shortage of labour weakened the _____", #53).
            var next = words[(index + 1)..<blankStart].firstIndex(where: GroundingWords.isContent)
            if let found = next, words[found].stem != verb, found >= 1, words[found - 1].lowercased == "of",
                !words[found].followsBreak
            {
                next = words[(found + 1)..<blankStart].firstIndex(where: GroundingWords.isContent)
            }
            guard let next, words[next].stem == verb, !words[next].followsBreak else { continue }
            if words[(next + 1)..<blankStart].allSatisfy({ articles.contains($0.lowercased) }) { return true }
        }
        return asksTheAgentAsTheObject(question, of: card)
    }

    /// Whether a "What" or "Who" question makes a passive sentence's agent the object of its
    /// verb: "What causes the Moon's gravity pulling on the Earth's oceans?" of "_____ are caused
    /// mainly by the Moon's gravity pulling on the Earth's oceans" (Tides) asks what causes the
    /// gravity, where the gravity causes the blank.
    static func asksTheAgentAsTheObject(_ question: String, of card: Flashcards.Card) -> Bool {
        let questionWords = TermNormalizer.words(in: question)
        guard questionWords.count >= 3, ["what", "who"].contains(questionWords[0].lowercased),
            let blankStart = blankStart(in: card.question)
        else { return false }
        let words = TermNormalizer.words(in: card.quote)
        let blankEnd = blankStart + TermNormalizer.words(in: card.answer).count
        // "_____ are caused (mainly) by …": a form of "be", a participle, at most one word, "by".
        let copulas: Set<String> = ["is", "are", "was", "were", "be", "been"]
        guard blankEnd + 2 < words.count, copulas.contains(words[blankEnd].lowercased) else { return false }
        let participle = words[blankEnd + 1]
        guard let by = words[(blankEnd + 2)...].prefix(2).firstIndex(where: { $0.lowercased == "by" }) else {
            return false
        }
        let agent = Set(words[(by + 1)...].prefix(4).filter(GroundingWords.isContent).map(\.stem))
        // The question's verb is the participle's, and the agent's words follow it as its object.
        let verb = questionWords[1]
        guard ClaimWords.key(verb) == ClaimWords.key(participle) || verb.stem == participle.stem else {
            return false
        }
        let object = Set(questionWords.dropFirst(2).filter(GroundingWords.isContent).map(\.stem))
        return !agent.isEmpty && object.intersection(agent).count * 2 >= agent.count
    }

    /// Whether a "What did X verb?" question asks for what the verb acts on while the blank is
    /// who acts: "What did the Declaration of the Rights of Man and of the Citizen adopt?" of "On
    /// 26 August 1789 the _____ adopted the Declaration of the Rights of Man and of the Citizen"
    /// (Assembly) — the sentence's verb comes right after the blank, and the question's subject
    /// stands after that verb.
    static func asksWhatTheBlankActsOn(_ question: String, of card: Flashcards.Card) -> Bool {
        let questionWords = TermNormalizer.words(in: question)
        guard questionWords.count >= 4, ["what", "who", "whom"].contains(questionWords[0].lowercased),
            ["did", "does", "do"].contains(questionWords[1].lowercased),
            let blankStart = blankStart(in: card.question)
        else { return false }
        let asked = questionWords.dropFirst(2).filter(GroundingWords.isContent)
        guard asked.count >= 2, let subject = asked.first?.stem, let verb = asked.last?.stem else { return false }
        let words = TermNormalizer.words(in: card.quote)
        let blankEnd = blankStart + TermNormalizer.words(in: card.answer).count
        guard blankEnd < words.count, let next = words[blankEnd...].firstIndex(where: GroundingWords.isContent),
            words[next].stem == verb
        else { return false }
        return words[(next + 1)...].contains { $0.stem == subject }
    }

    /// A word of `answer` that `question` says too and that reads as a verb: a form in "-s" or
    /// "-ed", or a word that is never a noun. Such an answer ran from its subject into the
    /// sentence's verb, and the question made the verb its own: "What rests on a table?" — book
    /// rests, "What does a swimmer push backwards on the water?" — swimmer pushes, "What does a
    /// demand curve normally slope from left to right?" — normally slopes. The noun a "What" or
    /// "Which" asks for is no verb ("What laws did Isaac Newton publish?" — three laws, "In which
    /// climate …?" — dry climates); neither is a capitalised name.
    static func sharedVerb(_ question: String, answer: String) -> String? {
        let questionWords = TermNormalizer.words(in: question)
        let asked = Set(questionWords.map(\.stem))
        // The nouns right after "what" and "which", before the question's auxiliary ("What laws
        // did …", "which climate is …"; not "What rests on …").
        let auxiliaries: Set<String> = [
            "do", "does", "did", "is", "are", "was", "were", "can", "could", "will", "would", "has", "have", "had",
        ]
        let whNouns = Set(questionWords.indices.dropLast(2).compactMap { index -> String? in
            guard ["what", "which"].contains(questionWords[index].lowercased),
                auxiliaries.contains(questionWords[index + 2].lowercased)
            else { return nil }
            return questionWords[index + 1].stem
        })
        func inflected(_ form: String) -> Bool { form.hasSuffix("s") && !form.hasSuffix("ss") || form.hasSuffix("ed") }
        return TermNormalizer.words(in: answer).first { word in
            guard word.surface == word.lowercased, GroundingWords.isContent(word), asked.contains(word.stem),
                !whNouns.contains(word.stem)
            else { return false }
            let form = word.lowercased
            if inflected(form) || EnglishWordClass.isNeverNoun(form) { return true }
            // The question inflects the answer's word as its verb: "What releases cytokines …?" —
            // release signalling molecules, "What flows back from the lumen …?" — protons flow back.
            return questionWords.contains {
                $0.stem == word.stem && $0.surface == $0.lowercased && $0.lowercased != form && inflected($0.lowercased)
            }
        }?.surface
    }

    /// Why a question asks for another quantity than the card's number is of, or `nil`: the unit
    /// that ends the answer or follows the blank ("2 kg", "_____ m/s²") says what the number
    /// measures, and a question naming another quantity asks for another number of the sentence
    /// ("What is the mass of the person on the Moon?" — 1.6, of "where g is about _____ m/s²";
    /// "What is the force in Newton's second law?" — 2 kg). A question that names no quantity, or
    /// a unit this table does not know, is not judged.
    static func otherQuantity(_ question: String, of card: Flashcards.Card) -> String? {
        func unit(_ token: Substring?) -> String? {
            guard let token else { return nil }
            let trimmed = token.trimmingCharacters(in: CharacterSet(charactersIn: ",.;:)!?"))
            return unitQuantities[trimmed] != nil ? trimmed : nil
        }
        let after =
            card.question.range(of: "_____").map { card.question[$0.upperBound...].split(separator: " ").first } ?? nil
        guard let found = unit(card.answer.split(separator: " ").last) ?? unit(after),
            let allowed = unitQuantities[found]
        else { return nil }
        let words = Set(GroundingWords.normalizedWords(question))
        let named = quantityWords.filter(words.contains)
        guard !named.isEmpty, named.isDisjoint(with: allowed) else { return nil }
        return "the question asked for a \(named.sorted()[0]), but the missing number is in \(found)"
    }

    /// What a unit measures, as the words a question names it by.
    static let unitQuantities: [String: Set<String>] = {
        let mass: Set<String> = ["mass"]
        let acceleration: Set<String> = ["acceleration", "gravity", "deceleration"]
        let speed: Set<String> = ["speed", "velocity"]
        let force: Set<String> = ["force", "weight", "thrust", "friction", "tension", "drag", "lift"]
        let energy: Set<String> = ["energy", "work", "heat"]
        let power: Set<String> = ["power"]
        let length: Set<String> = [
            "distance", "length", "height", "width", "depth", "displacement", "radius", "diameter", "wavelength",
        ]
        let time: Set<String> = ["time", "period", "duration"]
        let temperature: Set<String> = ["temperature"]
        return [
            "kg": mass, "mg": mass, "tonnes": mass,
            "m/s²": acceleration, "m/s2": acceleration, "m/s^2": acceleration,
            "m/s": speed, "km/h": speed, "mph": speed,
            "N": force, "kN": force,
            "J": energy, "kJ": energy, "kWh": energy, "kcal": energy,
            "W": power, "kW": power, "MW": power,
            "m": length, "km": length, "cm": length, "mm": length,
            "s": time, "ms": time,
            "°C": temperature, "K": temperature,
        ]
    }()

    /// Every quantity word of ``unitQuantities``.
    static let quantityWords: Set<String> = unitQuantities.values.reduce(into: Set<String>()) { $0.formUnion($1) }

    /// The content stems next to a cloze card's first blank: up to two on its left and two on
    /// its right, each side stopping at the clause's edge (`,` `;` `:` and brackets). A date's
    /// words are no neighbours: "What declared itself the National Assembly?" asks for the
    /// blank of "… on 17 June the _____ declared itself the National Assembly" without its date,
    /// and "What year does the Third Estate declare itself the National Assembly?" for the blank
    /// of "17 June _____: the Third Estate declares …" (numbers are no content stems anyway).
    static func blankNeighbours(_ cloze: String) -> [Set<String>] {
        guard let blank = cloze.range(of: "_____") else { return [] }
        func clause(_ text: Substring, fromEnd: Bool) -> String {
            let edges: Set<Character> = [",", ";", ":", "(", ")", "—", "–"]
            if fromEnd { return String(text.reversed().prefix { !edges.contains($0) }.reversed()) }
            return String(text.prefix { !edges.contains($0) })
        }
        let left = GroundingWords.contentStems(
            clause(cloze[..<blank.lowerBound], fromEnd: true).replacingOccurrences(of: "_", with: " "))
        let right = GroundingWords.contentStems(
            clause(cloze[blank.upperBound...], fromEnd: false).replacingOccurrences(of: "_", with: " "))
        return [
            Set(left.filter { !monthStems.contains($0) }.suffix(2)),
            Set(right.filter { !monthStems.contains($0) }.prefix(2)),
        ]
    }

    /// The months' names as content stems.
    static let monthStems = Set(GroundingWords.contentStems(WordLists.monthNames.joined(separator: " ")))
}
