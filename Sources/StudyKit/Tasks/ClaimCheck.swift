// MARK: - A reworded statement that says something false

/// Whether a model's reworded statement — a headline's blurb, a summary's key point or a
/// sentence of its overview — says something the material says otherwise (#53). Grounding by
/// words lets it through: "Supply and demand are the quantity of a good that buyers are willing
/// to buy" names only words of the material, where the material says demand is.
///
/// The statement is compared with its source sentence, as the Feynman claim check compares a
/// student's claim:
/// - **the opposite**: for each clause of it (``ClaimWords/clauses(of:)``), the clause of the
///   material that shares most of its words, weighted by rarity, says the opposite
///   (``opposes(_:_:shared:)``: "only once" against "every time", "keeps" against "deletes", a
///   shared word it negates and the material does not);
/// - **another subject**: a sentence of it says "X is P", the material says P ("… is the quantity
///   of a good that buyers …") of something X names, and of nothing that is all of X;
/// - **a swapped subject**: a sentence of it says "X is P", the material's sentence that says most
///   of P says it of Y, Y is another thing the material names beside X ("Phases, Tides and
///   Eclipses"), and no sentence about X says as much of P ("Phases are caused by the Moon's
///   gravity …", where tides are).
struct ClaimCheck {
    private let sentences: [String]
    private let keys: [Set<String>]
    /// Each sentence's first "is" split: the keys before it and after it (`nil`: no copula).
    private let copulas: [(subject: Set<String>, predicate: Set<String>)?]
    /// In how many sentences each key stands.
    private let frequency: [String: Int]

    /// The check against `material`'s sentences.
    init(material: String) {
        sentences = SentenceSplitter().split(material).map(\.text)
        keys = sentences.map { Set(ClaimWords.contentKeys($0)) }
        copulas = sentences.map(Self.copula)
        var counts: [String: Int] = [:]
        for set in keys { for key in set { counts[key, default: 0] += 1 } }
        frequency = counts
    }

    /// Why `statement` misstates the material, or `nil`.
    func misstatement(_ statement: String) -> String? {
        for clause in ClaimWords.clauses(of: statement) {
            let claimKeys = Set(ClaimWords.contentKeys(clause))
            guard claimKeys.count >= 2 else { continue }
            if let reason = opposite(clause, keys: claimKeys) { return reason }
        }
        // A subject is read whole, with its "and" ("Supply and demand are …"): per sentence, not per clause.
        for sentence in SentenceSplitter().split(statement).map(\.text) {
            if let reason = otherSubject(sentence) { return reason }
        }
        return nil
    }

    /// A rare word weighs more than one every sentence has.
    private func weight(_ key: String) -> Double { 1 / Double(max(1, frequency[key] ?? 1)) }

    private func opposite(_ clause: String, keys claimKeys: Set<String>) -> String? {
        let total = claimKeys.reduce(0) { $0 + weight($1) }
        let claimWords = TermNormalizer.words(in: clause)
        // The sources: the clauses of the material that share at least half of the claim's weight.
        var sources: [(index: Int, words: [NormalizedWord], shared: Set<String>, weight: Double)] = []
        for (index, sentenceKeys) in keys.enumerated() where sentenceKeys.intersection(claimKeys).count >= 2 {
            for part in ClaimWords.clauses(of: sentences[index]) {
                let words = TermNormalizer.words(in: part)
                let shared = claimKeys.intersection(words.map(ClaimWords.key))
                let sharedWeight = shared.reduce(0) { $0 + weight($1) }
                if shared.count >= 2, sharedWeight >= total * 0.5 {
                    sources.append((index, words, shared, sharedWeight))
                }
            }
        }
        guard let best = sources.map(\.weight).max() else { return nil }
        // The claim is false only when every clause that says as much of it says the opposite: a
        // clause that says it as it is ("Binary search only works when the array is sorted")
        // outweighs one that shares its words and another camp ("… by repeatedly halving …").
        let closest = sources.filter { $0.weight >= best - 1e-9 }
        guard !closest.isEmpty, closest.allSatisfy({ Self.opposes(claimWords, $0.words, shared: $0.shared) }) else {
            return nil
        }
        return
            "says the opposite of the material "
            + "(“\(ProseText.shortened(sentences[closest[0].index], maxLength: 120))”); state what it says"
    }

    /// Whether a claim says the opposite of its source clause: how often the other way, a word
    /// opposite to one of the source's (``ClaimWords/opposites``), or a shared word it negates
    /// that the source does not. Not the other way round: a clause the material negates ("cannot
    /// start on its own") is often reworded as its positive complement ("starts after the primer").
    static func opposes(_ claim: [NormalizedWord], _ source: [NormalizedWord], shared: Set<String>) -> Bool {
        if ClaimWords.opposes(claim, source, shared: []) { return true }
        func negated(_ words: [NormalizedWord]) -> Set<String> {
            var result = Set<String>()
            for (position, word) in words.enumerated() where shared.contains(ClaimWords.key(word)) {
                var before = position - 1
                while before >= 0, ClaimWords.carriers.contains(words[before].lowercased) { before -= 1 }
                if before >= 0, Negation.isNegator(words[before].lowercased) {
                    result.insert(ClaimWords.key(word))
                }
            }
            return result
        }
        return !negated(claim).subtracting(negated(source)).isEmpty
    }

    private func otherSubject(_ clause: String) -> String? {
        guard let (subject, predicate) = Self.copula(clause), !subject.isEmpty, predicate.count >= 2 else { return nil }
        let predicateWeight = predicate.reduce(0) { $0 + weight($1) }
        // The sentences that say the same of something: most of the predicate's weight after their "is".
        let sayers = copulas.indices.filter { index in
            guard let (_, theirs) = copulas[index] else { return false }
            let shared = predicate.intersection(theirs)
            return shared.count >= 2 && shared.reduce(0) { $0 + weight($1) } >= predicateWeight * 0.7
        }
        // False when the material says P of something the statement names, but of nothing that is
        // all it names ("Supply and demand are …" where demand is, and supply is something else).
        if let named = sayers.first(where: { !subject.isDisjoint(with: copulas[$0]?.subject ?? []) }),
            !sayers.contains(where: { subject.isSubset(of: copulas[$0]?.subject ?? []) })
        {
            return
                "says of other things what the material says of one "
                + "(“\(ProseText.shortened(sentences[named], maxLength: 120))”); state what it says"
        }
        return swappedSubject(
            subject, predicate: predicate, sayers: sayers, statement: Set(ClaimWords.contentKeys(clause)))
    }

    /// Why "X is P" says of X what the material says of another thing, or `nil`: the sentences
    /// that say most of P say it of things X does not name, one of them a thing the material names
    /// beside X as another (``sideBySide(_:_:)``), and no sentence that names X says as much of P.
    /// A subject the material calls otherwise ("The Black Death was caused by …" where "the
    /// disease" was) is not judged: the material never names the two side by side. Nor is a
    /// statement that names the other thing too (`statement`, its keys): it says something of each
    /// ("Acids are substances that release …, while bases are substances that accept …").
    private func swappedSubject(
        _ subject: Set<String>, predicate: Set<String>, sayers: [Int], statement: Set<String>
    ) -> String? {
        func said(_ keys: Set<String>) -> Double { predicate.intersection(keys).reduce(0) { $0 + weight($1) } }
        let saying = sayers.map { ($0, said(copulas[$0]?.predicate ?? [])) }
        guard let most = saying.map(\.1).max() else { return nil }
        let closest = saying.filter { $0.1 >= most - 1e-9 }.map(\.0)
        guard closest.allSatisfy({ subject.isDisjoint(with: copulas[$0]?.subject ?? []) }),
            let other = closest.first(where: { index in
                let theirs = copulas[index]?.subject ?? []
                return statement.isDisjoint(with: theirs) && sideBySide(subject, theirs)
            }),
            !keys.indices.contains(where: { subject.isSubset(of: keys[$0]) && said(keys[$0]) >= most - 1e-9 })
        else { return nil }
        return
            "says of one thing what the material says of another "
            + "(“\(ProseText.shortened(sentences[other], maxLength: 120))”); state what it says"
    }

    /// Whether the material names `one` and `other` side by side as two things: a word only one of
    /// them has, then a word only the other has, with a comma, "and", "or", "&" or "/" between
    /// them and nothing else but an article or their own words ("Phases, Tides and Eclipses";
    /// "spring and neap tides"). Two words that are only next to each other are one name ("the
    /// demand curve").
    private func sideBySide(_ one: Set<String>, _ other: Set<String>) -> Bool {
        let onlyOne = one.subtracting(other), onlyOther = other.subtracting(one)
        guard !onlyOne.isEmpty, !onlyOther.isEmpty else { return false }
        let both = one.union(other)
        for sentence in sentences {
            let characters = Array(sentence)
            let words = TermNormalizer.words(in: sentence)
            for (start, word) in words.enumerated() {
                let key = ClaimWords.key(word)
                guard onlyOne.contains(key) || onlyOther.contains(key) else { continue }
                let wanted = onlyOne.contains(key) ? onlyOther : onlyOne
                var joined = false
                for next in words.indices.dropFirst(start + 1).prefix(Self.sideBySideReach) {
                    let gap = String(characters[words[next - 1].offsets.upperBound..<words[next].offsets.lowerBound])
                    guard gap.allSatisfy({ $0 == " " || ",&/".contains($0) }) else { break }
                    if gap.contains(where: { ",&/".contains($0) }) { joined = true }
                    let between = words[next]
                    if wanted.contains(ClaimWords.key(between)) {
                        if joined { return true }
                        break
                    }
                    if Self.joiners.contains(between.lowercased) {
                        joined = true
                    } else if !Self.articles.contains(between.lowercased), !both.contains(ClaimWords.key(between)) {
                        break
                    }
                }
            }
        }
        return false
    }

    /// How many words after a subject's word its sibling may stand ("spring tides and neap").
    private static let sideBySideReach = 4
    /// The words that join two things named side by side, and the articles that may come with them.
    private static let joiners: Set<String> = ["and", "or", "nor", "versus", "vs"]
    private static let articles: Set<String> = ["the", "a", "an"]

    /// The content keys of `text` before and after its first "is", "are", "was" or "were"; `nil`
    /// without one.
    private static func copula(_ text: String) -> (subject: Set<String>, predicate: Set<String>)? {
        let words = TermNormalizer.words(in: text)
        guard let at = words.firstIndex(where: { ["is", "are", "was", "were"].contains($0.lowercased) }) else {
            return nil
        }
        let characters = Array(text)
        let cut = words[at].offsets.lowerBound
        guard cut <= characters.count else { return nil }
        return (
            Set(ClaimWords.contentKeys(String(characters[..<cut]))),
            Set(ClaimWords.contentKeys(String(characters[cut...])))
        )
    }
}
