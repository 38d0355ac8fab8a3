import Foundation

// MARK: - Checking an explanation's claims against the material

/// What the builtin analysis finds in a student's explanation of a concept: each claim of the
/// explanation compared with the material's sentences about the concept, the key terms of
/// those sentences the explanation leaves out, and whether it says anything checkable at all.
///
/// The comparison is word overlap weighted by rarity (a word in one sentence of the material
/// says more than one in every other sentence). A claim is *contradicted* when one of the
/// concept's sentences shares its words and says the opposite ("evaluated every time" where the
/// material says "only once"); *supported* when the concept's sentences hold its distinctive
/// words; *misplaced* when they do not but another sentence of the material does ("in prophase
/// the DNA gets copied": the material copies DNA in interphase), and that sentence is where the
/// correction points; *unsupported* when the material has its words nowhere.
struct FeynmanCheck: Sendable {
    /// How one claim compares with the material (``ExplanationClaim/Finding``).
    typealias Finding = ExplanationClaim.Finding
    /// One claim of the explanation and what the material says about it (``ExplanationClaim``).
    typealias Claim = ExplanationClaim

    /// A key term of the concept's sentences and the sentence that says it.
    struct Term: Sendable, Equatable {
        let text: String
        let sentence: String?
    }

    /// The concept as shown in feedback.
    let concept: String
    /// The material's sentences about the concept, most central first.
    let conceptSentences: [String]
    /// The explanation's checkable claims, in order.
    let claims: [Claim]
    /// Key terms of the concept's sentences the explanation names.
    let coveredTerms: [Term]
    /// Key terms it leaves out.
    let missedTerms: [Term]
    /// No explanation was given.
    let isMissing: Bool

    /// Claims the material contradicts or does not support.
    var wrongClaims: [Claim] { claims.filter { $0.finding != .supported } }
    /// Claims the material supports.
    var supportedClaims: [Claim] { claims.filter { $0.finding == .supported } }
    /// The explanation says nothing checkable about the concept.
    var isVague: Bool { !isMissing && claims.isEmpty }

    // MARK: the check

    init(_ analysis: BuiltinAnalysis, concept: String, shownConcept: String, explanation: String) {
        self.concept = shownConcept
        let sentences = analysis.prose.map { ProseText.oneLine($0.text) }
        let keys = sentences.map { Set(ClaimWords.contentKeys($0)) }
        let count = max(1, sentences.count)
        var frequency: [String: Int] = [:]
        for set in keys { for key in set { frequency[key, default: 0] += 1 } }
        // Words in more than a third of the sentences (the subject itself: "cell" in notes on
        // cells) neither support nor contradict a claim.
        let common = Set(frequency.filter { count >= 6 && $0.value * 3 > count }.keys)
        func weight(_ key: String) -> Double {
            let seen = frequency[key] ?? 0
            return log(1 + Double(count) / Double(max(seen, 1))) * (seen == 0 ? 1.5 : 1)
        }

        let conceptKeys = Set(ClaimWords.contentKeys(concept))
        let (relevant, naming) = Self.scope(of: conceptKeys, in: analysis, keys: keys)
        let rankOf = Dictionary(analysis.ranked.enumerated().map { ($1.sentence.index, $0) }, uniquingKeysWith: min)
        // The concept's sentences: those that name it first, then the rest of its section; most
        // central first, and a sentence that reads whole before one cut off ("…, so that").
        func order(_ index: Int) -> (Int, Int, Int, Int) {
            (naming.contains(index) ? 0 : 1, Self.readsWhole(sentences[index]) ? 0 : 1,
                rankOf[analysis.prose[index].index] ?? .max, index)
        }
        let ordered = relevant.sorted { order($0) < order($1) }
        conceptSentences = ordered.map { sentences[$0] }
        let relevantKeys = relevant.reduce(into: Set<String>()) { $0.formUnion(keys[$1]) }
        func section(_ index: Int) -> Int { analysis.outline.sectionOfUnit[analysis.prose[index].index] }
        let conceptSections = Set(relevant.map(section))

        let explained = ProseText.oneLine(explanation)
        let missing = !explained.contains(where: { $0.isLetter || $0.isNumber })
        isMissing = missing

        // Claims: clauses of the explanation with something checkable in them.
        var claims: [Claim] = []
        for clause in ClaimWords.clauses(of: explained) {
            let wholeKeys = Set(ClaimWords.contentKeys(clause)).subtracting(common)
            let claimKeys = Array(wholeKeys.subtracting(conceptKeys))
            guard !claimKeys.isEmpty else { continue }
            // A word or two the material never uses ("Unsure.") is no claim to check.
            if ProseText.wordCount(clause) < 3, claimKeys.allSatisfy({ frequency[$0] == nil }) { continue }
            let total = claimKeys.reduce(0) { $0 + weight($1) }
            // The concept's sentence that says the opposite ("evaluated every time" where it says
            // "evaluated only once").
            let opposite = Self.contradiction(
                of: clause, keys: wholeKeys, concept: conceptKeys, among: ordered, sentences: sentences, weight: weight)
            // The concept sentence that holds most of the claim.
            func covered(_ index: Int) -> Double {
                claimKeys.filter(keys[index].contains).reduce(0) { $0 + weight($1) }
            }
            let bestRelevant = ordered.max { (covered($0), -$0) < (covered($1), -$1) }
            let stray = claimKeys.filter { !relevantKeys.contains($0) }
            let strayWeight = stray.reduce(0) { $0 + weight($1) }
            // Where the material puts the claim's stray words: the sentence holding most of them,
            // when it holds enough of the claim to be where its fact is, rather than a sentence
            // that shares a word with it.
            func misplacedSentence(_ stray: [String]) -> String? {
                let elsewhere = stray.filter { (frequency[$0] ?? 0) > 0 }
                let unknownWeight = stray.filter { (frequency[$0] ?? 0) == 0 }.reduce(0) { $0 + weight($1) }
                guard !elsewhere.isEmpty, elsewhere.reduce(0, { $0 + weight($1) }) >= unknownWeight else { return nil }
                func strayCovered(_ index: Int) -> Double {
                    elsewhere.filter(keys[index].contains).reduce(0) { $0 + weight($1) }
                }
                let outside = keys.indices.filter { !relevant.contains($0) && strayCovered($0) > 0 }
                // Among equals, the sentence of the concept's own section ("continues with the
                // next iteration" beside "break"), then a whole sentence, then the first.
                func near(_ index: Int) -> (Double, Double, Int, Int, Int) {
                    (strayCovered(index), covered(index), conceptSections.contains(section(index)) ? 1 : 0,
                        Self.readsWhole(sentences[index]) ? 1 : 0, -index)
                }
                guard let best = outside.max(by: { near($0) < near($1) }),
                    Self.holdsTheFact(coveredWeight: covered(best), total: total)
                else { return nil }
                return sentences[best]
            }
            if let opposite {
                var claim = Claim(text: clause, finding: .contradicted, partlySupported: true,
                    evidence: sentences[opposite])
                claim.elsewhere = misplacedSentence(stray)
                claims.append(claim)
                continue
            }
            // Supported: the concept's sentences hold the claim's words, and its most telling word
            // together with another of them (a section on the light reactions says "stroma", but
            // never that they take place there).
            let telling = claimKeys.max { (weight($0), $1) < (weight($1), $0) }
            let heldTogether = claimKeys.count < 2 || telling.map { word in
                relevant.contains { keys[$0].contains(word) && claimKeys.count(where: keys[$0].contains) >= 2 }
            } ?? true
            if strayWeight < total * 0.3, heldTogether {
                claims.append(Claim(text: clause, finding: .supported, evidence: bestRelevant.map { sentences[$0] }))
                continue
            }
            // A telling word said apart from the claim's others is looked for elsewhere too.
            let looseWords = stray.isEmpty && !heldTogether ? telling.map { [$0] } ?? [] : stray
            if let place = misplacedSentence(looseWords) {
                claims.append(Claim(text: clause, finding: .misplaced, partlySupported: stray.count < claimKeys.count,
                    evidence: place))
                continue
            }
            // Nothing in the material says it: the correction quotes what the concept's sentences
            // say nearest to the claim, else their main sentence.
            let near = ordered.filter { covered($0) > 0 && Self.readsWhole(sentences[$0]) }
            // Among equals one that names the concept, then the first: a text defines what it
            // names where it first says it.
            let nearest = near.max { (covered($0), naming.contains($0) ? 1 : 0, -$0) < (covered($1),
                naming.contains($1) ? 1 : 0, -$1) }
            claims.append(
                Claim(
                    text: clause, finding: .unsupported, partlySupported: stray.count < claimKeys.count,
                    evidence: (nearest ?? ordered.first).map { sentences[$0] }))
        }
        self.claims = missing ? [] : claims

        // Key terms: the document's keyphrases said in the concept's sentences, then single words
        // its sentences repeat; a term is a thing, never a word that is only a verb or an
        // adjective ("specify"), and it is said mostly where the concept is: "keyword", said all
        // over a chapter on functions, is none of "default argument values".
        var scopeFrequency: [String: Int] = [:]
        for index in relevant { for key in keys[index] { scopeFrequency[key, default: 0] += 1 } }
        // The document's own subject (its title, or a word of a third of its sentences) has every term of it.
        let title = analysis.givenTitle ?? analysis.outline.sections.first(where: { $0.heading != nil })?.heading ?? ""
        let isSubject = !conceptKeys.isEmpty
            && (conceptKeys.isSubset(of: Set(ClaimWords.contentKeys(title))) || conceptKeys.isSubset(of: common))
        func isTheConcepts(_ key: String) -> Bool { isSubject
            || (scopeFrequency[key] ?? 0) * 2 >= (frequency[key] ?? 0) }
        // Single words come from the sentences that name the concept, where there are some ("the
        // file" of an example three sentences on is no term of it).
        let wordScope = naming.isEmpty ? relevant : naming
        var terms: [(text: String, keys: [String])] = []
        func consider(_ text: String, _ termKeys: [String]) {
            guard terms.count < 4, !termKeys.isEmpty, Set(termKeys).isSubset(of: relevantKeys),
                termKeys.allSatisfy(isTheConcepts),
                Set(termKeys).isDisjoint(with: conceptKeys), Set(termKeys).isDisjoint(with: common),
                !terms.contains(where: { !Set($0.keys).isDisjoint(with: termKeys) }),
                let last = TermNormalizer.words(in: text).last, !EnglishWordClass.isNeverNoun(last.lowercased)
            else { return }
            terms.append((ProseText.termText(text), termKeys))
        }
        for phrase in analysis.keyphrases where phrase.text.contains(where: \.isLetter) {
            consider(phrase.text, ClaimWords.contentKeys(phrase.text))
        }
        if terms.count < 4 {
            var seen = Set<String>()
            var words: [(surface: String, key: String)] = []
            for index in ordered where wordScope.contains(index) {
                for word in TermNormalizer.words(in: sentences[index]) where !word.isStopword && !word.isNumber
                    && !ClaimWords.genericWords.contains(word.lowercased) && word.surface.count >= 4
                {
                    let key = ClaimWords.key(word)
                    if seen.insert(key).inserted { words.append((word.lowercased, key)) }
                }
            }
            // A single word only when the concept's sentences say it twice ("sugar", said once, is no term).
            let nounKeys = Self.keysUsedAsNouns(in: wordScope.map { sentences[$0] })
            for word in words.sorted(by: { weight($0.key) > weight($1.key) })
            where (scopeFrequency[word.key] ?? 0) >= 2 && !KeyphraseExtractor.isVerbOrAdjective(word.surface)
                && nounKeys.contains(word.key)
            {
                consider(word.surface, [word.key])
            }
        }
        let explainedKeys = Set(ClaimWords.contentKeys(explained))
        func sentence(for termKeys: [String]) -> String? {
            ordered.first { Set(termKeys).isSubset(of: keys[$0]) }.map { sentences[$0] }
        }
        coveredTerms = terms.filter { !missing && Set($0.keys).isSubset(of: explainedKeys) }
            .map { Term(text: $0.text, sentence: sentence(for: $0.keys)) }
        missedTerms = terms.filter { missing || !Set($0.keys).isSubset(of: explainedKeys) }
            .map { Term(text: $0.text, sentence: sentence(for: $0.keys)) }
    }

    // MARK: where the concept is

    /// Words that announce a thing: articles, determiners, "of".
    static let determiners: Set<String> = ["the", "a", "an", "its", "their", "this", "that", "these", "those", "each",
        "every", "of", "your", "our"]

    /// The keys of the words that follow a determiner somewhere in `sentences`: words used as a
    /// thing ("the def keyword"), not only as a verb ("removes a package").
    static func keysUsedAsNouns(in sentences: [String]) -> Set<String> {
        var result = Set<String>()
        for sentence in sentences {
            let words = TermNormalizer.words(in: sentence)
            for position in words.indices.dropFirst() where determiners.contains(words[position - 1].lowercased) {
                result.insert(ClaimWords.key(words[position]))
            }
        }
        return result
    }

    /// Whether a sentence of the material reads as a whole one: it neither stops on a comma or a
    /// dangling word ("…, so that") nor starts in the middle ("of if statements: …").
    static func readsWhole(_ sentence: String) -> Bool {
        guard !ProseText.isUnfinished(sentence),
            let first = TermNormalizer.words(in: sentence).first else { return false }
        return !(first.isStopword && first.surface.first?.isLowercase == true)
    }

    /// The material's sentences about a concept (indices into `keys`), and among them those that
    /// name it. A sentence that names the concept is about it, with the sentences after it in its
    /// paragraph that go on about it ("The pass statement does nothing. It can be used when …";
    /// a list item stands alone). A section whose heading is the concept ("4.8.1. Default
    /// Argument Values" for "default argument values") is about it whole, its subsections too.
    /// Failing all, the sentences that share a word with the concept, then the whole material.
    static func scope(of conceptKeys: Set<String>, in analysis: BuiltinAnalysis, keys: [Set<String>]) -> (Set<Int>,
        Set<Int>) {
        guard !conceptKeys.isEmpty else { return (Set(keys.indices), []) }
        let prose = analysis.prose
        let naming = Set(keys.indices.filter { conceptKeys.isSubset(of: keys[$0]) })
        var relevant = naming
        for index in naming where !prose[index].isListItem {
            var next = index + 1
            while next < prose.count, prose[next].paragraph == prose[index].paragraph, !prose[next].isListItem,
                ProseText.leansOnContext(prose[next].text)
            {
                relevant.insert(next)
                next += 1
            }
        }
        // Sections headed by the concept, with their subsections.
        let outline = analysis.outline
        var headed = Set<Int>()
        var open: Int?  // the level of the section being taken
        for section in outline.sections {
            if let level = open, section.level > level, section.heading != nil {
                headed.insert(section.index)
                continue
            }
            open = nil
            if let heading = section.heading, isHeading(heading, of: conceptKeys) {
                headed.insert(section.index)
                open = section.level
            }
        }
        if !headed.isEmpty {
            for (index, sentence) in prose.enumerated() where sentence.index < outline.sectionOfUnit.count {
                if headed.contains(outline.sectionOfUnit[sentence.index]) { relevant.insert(index) }
            }
        }
        if relevant.isEmpty { relevant = Set(keys.indices.filter { !conceptKeys.isDisjoint(with: keys[$0]) }) }
        if relevant.isEmpty { relevant = Set(keys.indices) }
        return (relevant, naming)
    }

    /// Whether a heading names the concept: it holds every word of it and at most one more
    /// ("pass Statements" for "pass statement", "The range() Function" for "range()"), so that
    /// "break and continue Statements, and else Clauses on Loops" is no heading of "break".
    static func isHeading(_ heading: String, of conceptKeys: Set<String>) -> Bool {
        let headingKeys = Set(ClaimWords.contentKeys(heading))
        return conceptKeys.isSubset(of: headingKeys) && headingKeys.count <= conceptKeys.count + 1
    }

    /// Whether the sentence where a claim's stray words are is where its fact is: its words
    /// weigh at least half of the claim ("DNA is copied" in the sentence on interphase), not
    /// two common words of a long claim scattered over the material.
    static func holdsTheFact(coveredWeight: Double, total: Double) -> Bool {
        coveredWeight >= total * 0.5
    }

    /// The concept's sentence (an index of `candidates`) with a clause that says the opposite of
    /// `claim`: it shares two of the claim's words, weighing at least 40% of it, and then says
    /// how often the other way, uses a word opposite to one of the claim's, or negates a shared
    /// word other than the concept's own (`concept`) that the claim does not (or the other way
    /// round). Only the concept's own sentences are asked: elsewhere the same words are about
    /// something else.
    static func contradiction(
        of claim: String, keys claimKeys: Set<String>, concept: Set<String>, among candidates: [Int],
        sentences: [String],
        weight: (String) -> Double
    ) -> Int? {
        let total = claimKeys.reduce(0) { $0 + weight($1) }
        guard claimKeys.count >= 2, total > 0 else { return nil }
        let claimWords = TermNormalizer.words(in: claim)
        var best: (index: Int, weight: Double)?
        for index in candidates {
            for clause in ClaimWords.clauses(of: sentences[index]) + [sentences[index]] {
                let clauseWords = TermNormalizer.words(in: clause)
                let shared = claimKeys.intersection(clauseWords.map(ClaimWords.key))
                let sharedWeight = shared.reduce(0) { $0 + weight($1) }
                guard shared.count >= 2, sharedWeight >= total * 0.4,
                    sharedWeight > (best?.weight ?? 0) else { continue }
                if ClaimWords.opposes(claimWords, clauseWords, shared: shared.subtracting(concept),
                    concept: concept) { best = (index, sharedWeight) }
            }
        }
        return best?.index
    }
}
