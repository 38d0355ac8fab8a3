import Foundation

/// The words a claim is compared by: a text's content keys (no stopwords, numbers or generic
/// words; every form of a word and its synonyms as one key), its clauses, and whether two word runs
/// say opposite things. The builtin Feynman check compares a student's claims with the material by
/// them; Tasks' claim check and Feynman feedback, and the item rewriter, compare a model's claims
/// the same way. Text's, so that every layer may ask it.
enum ClaimWords {
    /// Words too generic to support or contradict anything, beyond the stopword list: common
    /// verbs, number words, filler ("starts", "two", "gets", "stuff").
    static let genericWords: Set<String> = [
        "get", "gets", "got", "getting", "gotten", "start", "starts", "started", "starting", "go", "goes", "going",
        "went", "gone", "happen", "happens", "happened", "happening", "take", "takes", "took", "taken", "thing",
        "things",
        "way", "ways", "two", "three", "four", "five", "half", "part", "parts", "basically", "really", "just", "like",
        "kind", "lot", "lots", "also", "first", "second", "third", "next", "last", "step", "steps", "stuff", "become",
        "becomes", "became", "make", "makes", "made", "making", "do", "does", "did", "done", "put", "puts", "turn",
        "turns", "new", "whole", "end", "ends", "stage", "stages", "process", "thing", "basically", "called", "call",
        "calls", "mean", "means", "example", "important", "main", "simply", "actually", "involve", "involves",
        "involved", "include", "includes", "included", "relate", "relates", "related", "help", "helps", "about",
        "tool", "tools", "feature", "features", "useful", "various", "really", "lots", "much", "many", "stuff",
        "good", "great", "nice", "cool", "powerful", "handy", "use", "uses", "used", "using", "work", "works",
        "together", "along", "well", "certain",
    ]

    /// A word's matching key: its stem, with a final "i" read as "y" so that "copied" (copi)
    /// and "copies" (copy) meet, and words that name one operation as one ("removes",
    /// "deleting", "uninstalls").
    static func key(_ word: NormalizedWord) -> String {
        var stem = word.stem
        if stem.count > 3, stem.hasSuffix("i") { stem = String(stem.dropLast()) + "y" }
        return synonyms[stem] ?? stem
    }

    /// Stems of words that say the same operation, keyed to one of them.
    static let synonyms: [String: String] = {
        let groups: [[String]] = [
            ["remove", "delete", "uninstall", "erase"],
            ["finish", "complete"],
            ["show", "display"],
            ["fast", "quick"],
        ]
        var table: [String: String] = [:]
        for group in groups {
            let stems = group.flatMap { TermNormalizer.words(in: $0).map(\.stem) }
            for stem in stems { table[stem] = stems[0] }
        }
        return table
    }()

    /// The keys of ``genericWords``: every form of a generic word is generic ("working" as "work").
    static let genericKeys: Set<String> = Set(genericWords.flatMap { TermNormalizer.words(in: $0).map(key) })

    /// The content keys of a text, in order: no stopwords, numbers or generic words.
    static func contentKeys(_ text: String) -> [String] {
        TermNormalizer.words(in: text).compactMap { word in
            guard !word.isStopword, !word.isNumber, !genericWords.contains(word.lowercased),
                word.surface.count >= 3 || word.surface.contains(where: { !$0.isASCII })
            else { return nil }
            let wordKey = key(word)
            return genericKeys.contains(wordKey) ? nil : wordKey
        }
    }

    // MARK: saying the opposite

    /// Words that say how often or how many, in two camps that contradict each other: "every
    /// time" against "only once", "every chunk" against "the last chunk", "several statements"
    /// against "a single expression".
    static let manyWords: Set<String> = ["every", "each", "always", "whenever", "repeatedly", "several", "multiple",
        "many"]
    static let oneWords: Set<String> = ["once", "only", "never", "last", "final", "single"]

    /// Pairs of word beginnings that say opposite things ("keeps" and "deletes", "before" and "after").
    static let opposites: [(Set<String>, Set<String>)] = [
        (["keep", "kept", "retain", "preserv"], ["delet", "remov", "discard", "purg", "eras", "drop"]),
        (["add"], ["remov", "delet"]),
        (["includ"], ["exclud"]),
        (["before"], ["after"]),
        (["stable"], ["unstable"]),
        (["increas", "grow"], ["decreas", "shrink"]),
        (["faster", "quicker"], ["slower"]),
        (["larger", "bigger", "longer"], ["smaller", "shorter"]),
        (["higher"], ["lower"]),
        (["same", "identical"], ["different", "differ"]),
        (["mandatory", "required", "compulsory"], ["optional"]),
        (["public"], ["private"]),
        (["first"], ["last"]),
        (["inflat", "decompress"], ["deflat", "compress"]),
        (["encrypt"], ["decrypt"]),
        (["upload"], ["download"]),
        (["enabl"], ["disabl"]),
        (["allow", "permit"], ["forbid", "prevent", "prohibit"]),
        (["true"], ["false"]),
        (["accept"], ["reject", "refus"]),
        (["succeed", "success"], ["fail"]),
        (["absorb"], ["reflect"]),
        (["releas"], ["absorb", "store"]),
        (["inside", "inner"], ["outside", "outer"]),
        (["import"], ["export"]),
    ]

    /// Words between a negator and the word it negates that leave the negation standing.
    static let carriers: Set<String> = [
        "be", "been", "being", "is", "are", "was", "were", "a", "an", "the", "any", "always", "ever", "yet", "really",
        "actually", "even", "necessarily", "at", "all",
    ]

    /// Whether two word runs that share `shared` say opposite things (the builtin
    /// ``FeynmanCheck/contradiction(of:keys:concept:among:sentences:weight:)``).
    /// The concept's own words (`concept`) take no side: "purge" in "the purge command" deletes nothing.
    static func opposes(_ claim: [NormalizedWord], _ material: [NormalizedWord], shared: Set<String>,
        concept: Set<String> = []) -> Bool {
        func cues(_ words: [NormalizedWord]) -> Set<String> {
            Set(words.filter { !concept.contains(key($0)) }.map(\.lowercased))
        }
        let a = cues(claim), b = cues(material)
        func says(_ words: Set<String>, _ camp: Set<String>) -> Bool { !words.isDisjoint(with: camp) }
        if says(a, manyWords) && !says(a, oneWords) && says(b, oneWords) && !says(b, manyWords) { return true }
        if says(a, oneWords) && !says(a, manyWords) && says(b, manyWords) && !says(b, oneWords) { return true }
        func uses(_ words: Set<String>, _ beginnings: Set<String>) -> Bool {
            words.contains { word in beginnings.contains { word.hasPrefix($0) } }
        }
        for (left, right) in opposites {
            if uses(a, left) && !uses(a, right) && uses(b, right) && !uses(b, left) { return true }
            if uses(a, right) && !uses(a, left) && uses(b, left) && !uses(b, right) { return true }
        }
        // A shared word negated on one side only ("is not stable" / "is now stable"; "removes" /
        // "without removing"), never the concept's own name ("ends without a break" says nothing
        // against "the break statement leaves the loop"). The negator stands right before the
        // word or before words that only carry it ("cannot be upgraded", "without removing any");
        // "don't want the default" negates the wanting, not the default.
        func negated(_ words: [NormalizedWord]) -> Set<String> {
            var result = Set<String>()
            for (position, word) in words.enumerated() where shared.contains(key(word)) {
                var before = position - 1
                while before >= 0, carriers.contains(words[before].lowercased) { before -= 1 }
                if before >= 0, Negation.isNegator(words[before].lowercased) { result.insert(key(word)) }
            }
            return result
        }
        return negated(claim) != negated(material)
    }

    /// A text (an explanation, a claim) cut into clauses: at sentence ends and semicolons, and before a
    /// conjunction that starts a new statement ("… copied and the cell splits …").
    static func clauses(of text: String) -> [String] {
        var pieces: [String] = []
        var current = ""
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let joiners: Set<String> = ["and", "but", "while", "whereas", "then", "so", "because", "after", "before",
            "which"]
        for (position, word) in words.enumerated() {
            let bare = word.lowercased().trimmingCharacters(in: .punctuationCharacters)
            // "and" starts a new statement, not the second word of a pair ("the Packages and
            // Sources files", "condense and become visible"): what follows runs to three words.
            let joinsWords = bare == "and" && wordsUntilBreak(after: position, in: words, joiners: joiners) < 3
            if joiners.contains(bare), !joinsWords, !current.isEmpty {
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

    /// How many words follow `position` before the next joiner or punctuation that ends a clause.
    private static func wordsUntilBreak(after position: Int, in words: [String], joiners: Set<String>) -> Int {
        var count = 0
        for word in words.dropFirst(position + 1) {
            let bare = word.lowercased().trimmingCharacters(in: .punctuationCharacters)
            if joiners.contains(bare) { break }
            count += 1
            if let last = word.last, ".;!?:,".contains(last) { break }
        }
        return count
    }
}
