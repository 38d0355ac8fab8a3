import Foundation

// MARK: - Checking an explanation's claims against the material

/// What the builtin analysis finds in a student's explanation of a concept: each claim of the
/// explanation compared with the material's sentences about the concept, the key terms of
/// those sentences the explanation leaves out, and whether it says anything checkable at all.
///
/// The comparison is word overlap weighted by rarity (a word in one sentence of the material
/// says more than one in every other sentence). A claim is *supported* when the concept's
/// sentences hold its distinctive words; *misplaced* when they do not but another sentence of
/// the material does ("in prophase the DNA gets copied": the material copies DNA in
/// interphase), and that sentence is where the correction points; *unsupported* when the
/// material has its words nowhere.
struct FeynmanCheck: Sendable {
    /// How one claim compares with the material.
    enum Finding: String, Sendable, Equatable {
        /// The concept's sentences hold the claim's distinctive words.
        case supported
        /// The material says it, but about something else; `evidence` is where.
        case misplaced
        /// The material says nothing like it.
        case unsupported
    }

    /// One claim of the explanation and what the material says about it.
    struct Claim: Sendable, Equatable {
        /// The claim as the student wrote it (one clause, one line).
        let text: String
        let finding: Finding
        /// Some of the claim's words are in the concept's sentences (a wrong claim that is partly right).
        var partlySupported = false
        /// The material's sentence that supports the claim, that states its fact elsewhere, or
        /// (unsupported) the concept's main sentence.
        let evidence: String?
    }

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

    // MARK: words

    /// Words too generic to support or contradict anything, beyond the stopword list: common
    /// verbs, number words, filler ("starts", "two", "gets", "stuff").
    static let genericWords: Set<String> = [
        "get", "gets", "got", "getting", "gotten", "start", "starts", "started", "starting", "go", "goes", "going",
        "went", "gone", "happen", "happens", "happened", "happening", "take", "takes", "took", "taken", "thing", "things",
        "way", "ways", "two", "three", "four", "five", "half", "part", "parts", "basically", "really", "just", "like",
        "kind", "lot", "lots", "also", "first", "second", "third", "next", "last", "step", "steps", "stuff", "become",
        "becomes", "became", "make", "makes", "made", "making", "do", "does", "did", "done", "put", "puts", "turn",
        "turns", "new", "whole", "end", "ends", "stage", "stages", "process", "thing", "basically", "called", "call",
        "calls", "mean", "means", "example", "important", "main", "simply", "actually", "involve", "involves",
        "involved", "include", "includes", "included", "relate", "relates", "related", "help", "helps", "about",
    ]

    /// A word's matching key: its stem, with a final "i" read as "y" so that "copied" (copi)
    /// and "copies" (copy) meet.
    static func key(_ word: BuiltinWord) -> String {
        let stem = word.stem
        if stem.count > 3, stem.hasSuffix("i") { return String(stem.dropLast()) + "y" }
        return stem
    }

    /// The content keys of a text, in order: no stopwords, numbers or generic words.
    static func contentKeys(_ text: String) -> [String] {
        BuiltinTerms.words(in: text).compactMap { word in
            guard !word.isStopword, !word.isNumber, !genericWords.contains(word.lowercased),
                word.surface.count >= 3 || word.surface.contains(where: { !$0.isASCII })
            else { return nil }
            return key(word)
        }
    }

    // MARK: the check

    init(_ analysis: BuiltinAnalysis, concept: String, shownConcept: String, explanation: String) {
        self.concept = shownConcept
        let sentences = analysis.prose.map { BuiltinProse.oneLine($0.text) }
        let keys = sentences.map { Set(Self.contentKeys($0)) }
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

        let conceptKeys = Set(Self.contentKeys(concept))
        var relevant = Set(keys.indices.filter { !conceptKeys.isEmpty && conceptKeys.isSubset(of: keys[$0]) })
        if relevant.isEmpty { relevant = Set(keys.indices.filter { !conceptKeys.isDisjoint(with: keys[$0]) }) }
        if relevant.isEmpty { relevant = Set(keys.indices) }
        let rankOf = Dictionary(analysis.ranked.enumerated().map { ($1.sentence.index, $0) }, uniquingKeysWith: min)
        let ordered = relevant.sorted { (rankOf[analysis.prose[$0].index] ?? .max, $0) < (rankOf[analysis.prose[$1].index] ?? .max, $1) }
        conceptSentences = ordered.map { sentences[$0] }
        let relevantKeys = relevant.reduce(into: Set<String>()) { $0.formUnion(keys[$1]) }

        let explained = BuiltinProse.oneLine(explanation)
        let missing = !explained.contains(where: { $0.isLetter || $0.isNumber })
        isMissing = missing

        // Claims: clauses of the explanation with something checkable in them.
        var claims: [Claim] = []
        for clause in Self.clauses(of: explained) {
            let claimKeys = Array(Set(Self.contentKeys(clause)).subtracting(conceptKeys).subtracting(common))
            guard !claimKeys.isEmpty else { continue }
            // A word or two the material never uses ("Unsure.") is no claim to check.
            if BuiltinProse.wordCount(clause) < 3, claimKeys.allSatisfy({ frequency[$0] == nil }) { continue }
            let total = claimKeys.reduce(0) { $0 + weight($1) }
            // The concept sentence that holds most of the claim.
            func covered(_ index: Int) -> Double { claimKeys.filter(keys[index].contains).reduce(0) { $0 + weight($1) } }
            let bestRelevant = ordered.max { covered($0) < covered($1) }
            let stray = claimKeys.filter { !relevantKeys.contains($0) }
            let strayWeight = stray.reduce(0) { $0 + weight($1) }
            if strayWeight < total * 0.3 {
                claims.append(Claim(text: clause, finding: .supported, evidence: bestRelevant.map { sentences[$0] }))
                continue
            }
            let elsewhere = stray.filter { (frequency[$0] ?? 0) > 0 }
            let unknownWeight = stray.filter { (frequency[$0] ?? 0) == 0 }.reduce(0) { $0 + weight($1) }
            let elsewhereWeight = elsewhere.reduce(0) { $0 + weight($1) }
            if !elsewhere.isEmpty, elsewhereWeight >= unknownWeight {
                // Where the material puts the claim's stray words: the sentence holding most of them.
                func strayCovered(_ index: Int) -> Double { elsewhere.filter(keys[index].contains).reduce(0) { $0 + weight($1) } }
                let outside = keys.indices.filter { !relevant.contains($0) && strayCovered($0) > 0 }
                if let best = outside.max(by: { (strayCovered($0), covered($0), -$0) < (strayCovered($1), covered($1), -$1) }) {
                    claims.append(Claim(text: clause, finding: .misplaced, partlySupported: stray.count < claimKeys.count, evidence: sentences[best]))
                    continue
                }
            }
            claims.append(
                Claim(text: clause, finding: .unsupported, partlySupported: stray.count < claimKeys.count, evidence: ordered.first.map { sentences[$0] }))
        }
        self.claims = missing ? [] : claims

        // Key terms: keyphrases said in the concept's sentences, then their rarest single words.
        var terms: [(text: String, keys: [String])] = []
        func consider(_ text: String, _ termKeys: [String]) {
            guard terms.count < 4, !termKeys.isEmpty, Set(termKeys).isSubset(of: relevantKeys),
                Set(termKeys).isDisjoint(with: conceptKeys), Set(termKeys).isDisjoint(with: common),
                !terms.contains(where: { !Set($0.keys).isDisjoint(with: termKeys) })
            else { return }
            terms.append((BuiltinProse.termText(text), termKeys))
        }
        for phrase in analysis.keyphrases where phrase.text.contains(where: \.isLetter) {
            consider(phrase.text, Self.contentKeys(phrase.text))
        }
        if terms.count < 4 {
            var seen = Set<String>()
            var words: [(surface: String, key: String)] = []
            for index in ordered {
                for word in BuiltinTerms.words(in: sentences[index]) where !word.isStopword && !word.isNumber
                    && !Self.genericWords.contains(word.lowercased) && word.surface.count >= 4
                {
                    let key = Self.key(word)
                    if seen.insert(key).inserted { words.append((word.lowercased, key)) }
                }
            }
            for word in words.sorted(by: { weight($0.key) > weight($1.key) }) { consider(word.surface, [word.key]) }
        }
        let explainedKeys = Set(Self.contentKeys(explained))
        func sentence(for termKeys: [String]) -> String? {
            ordered.first { Set(termKeys).isSubset(of: keys[$0]) }.map { sentences[$0] }
        }
        coveredTerms = terms.filter { !missing && Set($0.keys).isSubset(of: explainedKeys) }
            .map { Term(text: $0.text, sentence: sentence(for: $0.keys)) }
        missedTerms = terms.filter { missing || !Set($0.keys).isSubset(of: explainedKeys) }
            .map { Term(text: $0.text, sentence: sentence(for: $0.keys)) }
    }

    /// The explanation cut into clauses: at sentence ends and semicolons, and before a
    /// conjunction that starts a new statement ("… copied and the cell splits …").
    static func clauses(of text: String) -> [String] {
        var pieces: [String] = []
        var current = ""
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let joiners: Set<String> = ["and", "but", "while", "whereas", "then", "so", "because", "after", "before", "which"]
        for word in words {
            let bare = word.lowercased().trimmingCharacters(in: .punctuationCharacters)
            if joiners.contains(bare), !current.isEmpty {
                pieces.append(current)
                current = ""
                if bare == "before" || bare == "after" { current = word }  // keeps "before mitosis" with its clause
                continue
            }
            current += current.isEmpty ? word : " " + word
            if let last = word.last, ".;!?:".contains(last) {
                pieces.append(current)
                current = ""
            }
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces.map { piece in
            var line = piece.trimmingCharacters(in: .whitespaces)
            while let last = line.last, ",;:.!?".contains(last) { line.removeLast() }
            return line
        }.filter { $0.contains(where: \.isLetter) }
    }
}
