// MARK: - Cloze item

/// A fill-in-the-blank question made from a source sentence.
struct ClozeItem: Sendable, Hashable {
    /// The source sentence, unchanged.
    let sentence: String
    /// The blanked term as it is written in the sentence (its first occurrence).
    let answer: String
    /// The sentence with every occurrence of the answer replaced by the blank.
    let clozeText: String
    /// Where the sentence lies in the source text.
    let sourceRange: Range<String.Index>
    /// The answer's first occurrence in the source text, as `Character` offsets.
    let answerOffsets: Range<Int>
    /// The keyphrase stem key the answer came from; one item per key.
    let answerKey: String
    /// For an entry of a definition list, the other names of its list: the quiz's first choice
    /// of wrong answers (another of the key people, another term of the glossary).
    var siblings: [String] = []

    /// The cloze text as shown: one line, without a list item's bullet or number.
    var shownQuestion: String { ProseText.withoutListMarker(ProseText.oneLine(clozeText)) }
    /// The source sentence as quoted: one line, without a list item's bullet or number.
    var shownSentence: String { ProseText.withoutListMarker(ProseText.oneLine(sentence)) }
}

// MARK: - Builder

/// Builds cloze items from ranked sentences and keyphrases, and picks distractors.
///
/// Deterministic: sentences are taken in rank order, and in each the best-scoring keyphrase not
/// yet used as an answer is blanked. Matching is by stems, so the keyphrase "light reaction"
/// blanks "light reactions" too; all occurrences in the sentence are blanked so the cloze text
/// never gives the answer away.
struct ClozeBuilder: Sendable {
    /// The text put where the answer was.
    var blank: String
    /// Sentences with fewer words are too thin to ask about.
    var minWords: Int
    /// Sentences with more words are too long to read as one question.
    var maxWords: Int
    /// Whether a single common English word ("list", "files") is an answer only where the
    /// sentence defines it ("A list is …"): a blank where "list" was teaches nothing; and whether
    /// a single word the sentence writes as a verb or an adjective ("passed", "defining", "useful")
    /// is never a blank (for English text).
    var screensCommonWords: Bool
    /// Whether a term that holds an answer already asked, or is held in one, is no new answer:
    /// after "optional fields", "optional" asks the same notion again (``overlaps(_:_:)``).
    var asksEachNotionOnce: Bool
    /// Whether a term its sentence says twice may be the blank (both places blanked), where the
    /// common words are screened: a deck's last resort for a section with no other card (#53).
    var asksAWordSaidTwice = false

    /// Creates a builder.
    init(blank: String = "_____", minWords: Int = 6, maxWords: Int = 40, screensCommonWords: Bool = false,
         asksEachNotionOnce: Bool = false) {
        self.blank = blank
        self.minWords = minWords
        self.maxWords = maxWords
        self.screensCommonWords = screensCommonWords
        self.asksEachNotionOnce = asksEachNotionOnce
    }

    /// Up to `limit` items: at most one per sentence and one per answer term.
    ///
    /// - Parameters:
    ///   - ranked: sentences most central first (`SentenceRanker.rank`); headings are skipped.
    ///   - keyphrases: candidate answers, best first (`KeyphraseExtractor`).
    ///   - compounds: stems of longer terms the text repeats (``BuiltinAnalysis/compounds``): a
    ///     blank takes no part of one.
    ///   - genericHeads: stems of words the text names several things with ("strand" of "leading
    ///     strand" and "lagging strand": ``genericHeads(keyphrases:compounds:)``): such a word alone
    ///     is no answer, except where the sentence defines it.
    func items(
        from ranked: some Sequence<RankedSentence>, keyphrases: [Keyphrase], limit: Int = 10,
        compounds: [[String]] = [], genericHeads: Set<String> = []
    ) -> [ClozeItem] {
        var used = Set<String>()
        var items: [ClozeItem] = []
        let phraseStems = keyphrases.map { $0.key.split(separator: " ").map(String.init) }
        // Every term of two words or more the text has, as stem keys ("hydrogen ion").
        let knownTerms = Set(
            phraseStems.filter { $0.count >= 2 }.map { $0.joined(separator: " ") }
                + compounds.map { $0.joined(separator: " ") })
        // The sentences are read only until the items are found: a caller may filter them lazily.
        for entry in ranked {
            guard items.count < limit else { break }
            let sentence = entry.sentence
            guard !sentence.isHeading else { continue }
            let words = TermNormalizer.words(in: sentence.text)
            guard (minWords...max(minWords, maxWords)).contains(words.count) else { continue }
            let stems = words.map(\.stem)
            let chars = Array(sentence.text)
            let matchesOf = phraseStems.map { Self.occurrences(of: $0, in: stems) }
            // The terms said in this sentence, where each starts and how many words it has: the
            // key terms, and the compounds the text repeats (looked for once a term matches here).
            lazy var saidTerms: [(start: Int, length: Int)] =
                zip(phraseStems, matchesOf).flatMap { term, starts in starts.map { ($0, term.count) } }
                + compounds.flatMap { compound in
                    Self.occurrences(of: compound, in: stems).map { ($0, compound.count) }
                }
            for (k, phrase) in keyphrases.enumerated() where !used.contains(phrase.key) {
                if asksEachNotionOnce, used.contains(where: { Self.overlaps($0, phrase.key) }) { continue }
                let matches = matchesOf[k]
                guard let first = matches.first else { continue }
                // Blanking the whole sentence would leave nothing to read.
                guard phraseStems[k].count < words.count - 2 else { continue }
                // "The _____ reactions" is no question: skip a term said here as part of a longer
                // key term, or of a longer term the text repeats though it is no key term ("a
                // _____ centre" of "reaction centre", said three times).
                let length = phraseStems[k].count
                let longer = saidTerms.filter { $0.length > length }
                guard !matches.contains(where: { m in
                    longer.contains { $0.start <= m && m + length <= $0.start + $0.length }
                })
                else { continue }
                // "the binary package _____.Y" is no question either: a blank never cuts a
                // token that dots, hyphens or slashes join ("pythonX.Y", "light-dependent").
                guard !matches.contains(where: { m in
                    Self.cutsAToken(chars, words[m].offsets.lowerBound..<words[m + length - 1].offsets.upperBound)
                }) else { continue }
                // "the “\_____ follows …" is no term: a blank holds no quotation mark or bracket.
                guard !Self.crossesMarks(
                    chars, words[first].offsets.lowerBound..<words[first + length - 1].offsets.upperBound)
                else { continue }
                // "for the MANUAL and _____, the key field …" (PROCEEDINGS entry types) and "their
                // required and _____" (optional fields): a term that shares its head with the word
                // coordinated before it takes part of a phrase, and the blank reads as no one thing.
                guard length == 1 || !matches.contains(where: { Self.isCoordinated(words, at: $0) }) else { continue }
                // "editor, _____ or number, series, type, …": a blank among the items of a list could
                // be any of them; no student can tell which.
                guard !matches.contains(where: { m in
                    Self.isInEnumeration(chars, words[m].offsets.lowerBound..<words[m + length - 1].offsets.upperBound)
                })
                else { continue }
                // "the _____ PEP carboxylase" (enzyme), "the asn1_der_decoding() _____" (function):
                // a lower-case word said as the kind of a name that stands right by it asks for
                // the kind, and the name is the term.
                if length == 1, words[first].surface.first?.isLowercase == true,
                    matches.contains(where: { Self.namesAKind(chars, words, at: $0) })
                {
                    continue
                }
                // "The French _____ is the decade …" (Revolution): a capitalised blank with a
                // capitalised word right before or after it is part of a longer name.
                if matches.contains(where: { Self.isPartOfALongerName(words, at: $0, length: length) }) { continue }
                // "Redefine \bibsection …": a single word that opens the sentence as a verb is no term;
                // nor is one in "-ing" with its object after it ("Computing the middle as …", #53).
                if screensCommonWords, length == 1, first == 0,
                    KeyphraseExtractor.isVerbOrAdjective(words[0].lowercased)
                        || words[0].lowercased.hasSuffix("ing") && words.count > 1 && !words[1].followsBreak
                            && ["the", "a", "an", "its", "their", "this", "these", "each"].contains(words[1].lowercased)
                {
                    continue
                }
                // "_____. In general, sorting is now by …" asks for a list item's number.
                if first == 0, words[0].isNumber, chars.indices.contains(words[0].offsets.upperBound),
                    ".)".contains(chars[words[0].offsets.upperBound])
                {
                    continue
                }
                // "_____ May 1789: the Estates-General opens" asks for a day of a date, not the date.
                if length == 1, words[first].isNumber, words[first].surface.count <= 2,
                    words.indices.contains(first + 1),
                    WordLists.monthNames.contains(words[first + 1].lowercased)
                {
                    continue
                }
                // "_____: ASN1_SUCCESS if …" asks for the label of a reference entry ("Returns:"), not its content.
                guard !(first == 0 && chars.indices.contains(words[length - 1].offsets.upperBound)
                    && chars[words[length - 1].offsets.upperBound] == ":") else { continue }
                // The term "pass" (a heading's "pass Statements") matches "passed" by its stem, and
                // "loop" matches "looping"; a blank where the sentence says the term as a verb or
                // an adjective asks for no term.
                let said = words[first].lowercased
                if screensCommonWords, length == 1, said != phrase.text.lowercased(),
                    said.hasSuffix("ing") || KeyphraseExtractor.isVerbOrAdjective(said)
                {
                    continue
                }
                if screensCommonWords, length == 1, EnglishFrequency.isCommon(phrase.text),
                    KeyphraseExtractor.definedTerm(in: words, text: sentence.text) != phrase.key
                {
                    continue
                }
                // "DNA polymerase I _____ the RNA primers" (removes), "Replication _____ at sites"
                // (starts): a blank that is, or ends in, the sentence's verb asks for no term (#53).
                if screensCommonWords, Self.endsOnAVerb(words, start: first, length: length, terms: knownTerms) {
                    continue
                }
                // "DNA polymerase cannot start a _____ on its own" (strand, of the leading and the
                // lagging strand): a word the text names several things with says none of them.
                if screensCommonWords, length == 1, words[first].surface.first?.isLowercase == true,
                    genericHeads.contains(words[first].stem),
                    KeyphraseExtractor.definedTerm(in: words, text: sentence.text) != phrase.key
                {
                    continue
                }
                // "its running time is O(_____ n)", "F = m·a = _____ × 3 m/s²": a piece of a formula or
                // of code is no term, however key the word (#53).
                guard !matches.contains(where: { m in
                    Self.isInAFormula(chars, words[m].offsets.lowerBound..<words[m + length - 1].offsets.upperBound)
                }) else { continue }
                // "Linear search checks the _____ one by one … an array of n _____": two blanks of one
                // word leave no one place to ask about; only the term a sentence defines is said twice
                // as the sentence's point (#53).
                if screensCommonWords, !asksAWordSaidTwice, matches.count > 1,
                    KeyphraseExtractor.definedTerm(in: words, text: sentence.text) != phrase.key
                {
                    continue
                }
                // "The usual version, written as a _____, keeps two indices": a word of an aside is
                // not what the sentence says (#53).
                if screensCommonWords, Self.isInAnAside(
                    chars, words[first].offsets.lowerBound..<words[first + length - 1].offsets.upperBound)
                {
                    continue
                }
                items.append(makeItem(sentence: sentence, chars: chars, words: words, matches: matches, first: first,
                                      length: phraseStems[k].count, key: phrase.key))
                used.insert(phrase.key)
                break
            }
        }
        return items
    }

    /// Up to `count` wrong answers for `item`, taken from `keyphrases` and of the same kind.
    ///
    /// Kind means shape: numbers go with numbers, capitalized names with names, acronyms with
    /// acronyms, lower-case noun phrases with noun phrases. Candidates are ordered by kind
    /// (same kind first, then the nearest kind), then by closeness in word count, then by
    /// keyphrase order. A candidate is skipped when it equals the answer, contains it or is
    /// contained in it (case-insensitive, also by stem key) — "light" is no distractor for
    /// "light reactions" — or equals an already chosen one. A number with too few numeric
    /// candidates gets nearby numbers of the same magnitude instead of words.
    ///
    /// `quoted` holds the phrases the text writes between quotation marks, lower-cased: a title
    /// ("Designing BibTeX Styles") or an example value ("World Gnus Almanac") is another kind of
    /// thing than a term the text uses plainly ("optional fields"), and the other way round. Within
    /// a kind, a plural answer takes plural options first, and a singular one singular options.
    func distractors(
        for item: ClozeItem, among keyphrases: [Keyphrase], count: Int = 3, quoted: Set<String> = []
    ) -> [String] {
        guard count > 0 else { return [] }
        // Judge the answer's shape by its usual spelling: a sentence-initial capital is no name,
        // and neither is a phrase the text also writes in lower case ("Optional fields:").
        // An answer the sentence writes in lower case is no name, however often a heading or a
        // line's start capitalises it ("optional" beside "Optional fields:").
        let usual = item.answer.contains(where: \.isUppercase)
            ? keyphrases.first { $0.key == item.answerKey }?.plainText ?? item.answer : item.answer
        let answerKind = TermShape(usual)
        let answerQuoted = quoted.contains(usual.lowercased())
        let answerPlural = Self.isPlural(usual)
        let answerStems = Set(item.answerKey.split(separator: " "))
        let answerLower = item.answer.lowercased()
        let answerWords = item.answer.split(separator: " ").count
        var candidates: [
            (distance: Int, number: Int, wordGap: Int, order: Int, text: String, stems: Set<Substring>)
        ] = []
        for (order, phrase) in keyphrases.enumerated() {
            let lower = phrase.text.lowercased()
            if lower == answerLower || lower.contains(answerLower) || answerLower.contains(lower) { continue }
            if phrase.key == item.answerKey || Self.overlaps(phrase.key, item.answerKey) { continue }
            let text = phrase.plainText
            var distance = answerKind.distance(to: TermShape(text))
            if quoted.contains(lower) != answerQuoted { distance += 2 }
            let number = answerKind == .number || Self.isPlural(text) == answerPlural ? 0 : 1
            let stems = Set(phrase.key.split(separator: " "))
            candidates.append((distance, number, abs(phrase.wordCount - answerWords), order, text, stems))
        }
        candidates.sort { a, b in
            if a.distance != b.distance { return a.distance < b.distance }
            if a.number != b.number { return a.number < b.number }
            if a.wordGap != b.wordGap { return a.wordGap < b.wordGap }
            return a.order < b.order
        }
        var chosen: [String] = []
        var chosenStems = answerStems
        var seen: Set<String> = [answerLower]
        func take(_ text: String, stems: Set<Substring> = []) {
            guard chosen.count < count, !seen.contains(text.lowercased()) else { return }
            seen.insert(text.lowercased())
            chosen.append(text)
            chosenStems.formUnion(stems)
        }
        // First pass: options that share no word with the answer or with each other, so
        // "carbon dioxide concentration" does not sit next to "carbon dioxide".
        if answerKind == .number {
            // A day of the month is no year: numbers of the answer's magnitude only ("5" among
            // "1789", "1792", "1794" gives itself away), then numbers near it.
            for c in candidates where c.distance == 0 && c.stems.isDisjoint(with: chosenStems)
                && Self.sameMagnitude(c.text, item.answer)
            {
                take(c.text, stems: c.stems)
            }
            for n in Self.nearbyNumbers(item.answer) { take(n) }
        }
        for c in candidates where c.stems.isDisjoint(with: chosenStems) { take(c.text, stems: c.stems) }
        // Second pass, for short keyphrase lists: any option that is not the answer.
        for c in candidates { take(c.text) }
        return chosen
    }

    // MARK: Private

    private func makeItem(
        sentence: Sentence, chars: [Character], words: [NormalizedWord], matches: [Int], first: Int, length: Int,
        key: String
    ) -> ClozeItem {
        let answerRange = words[first].offsets.lowerBound..<words[first + length - 1].offsets.upperBound
        var cloze = ""
        var cursor = 0
        for m in matches {
            let r = words[m].offsets.lowerBound..<words[m + length - 1].offsets.upperBound
            cloze += String(chars[cursor..<r.lowerBound]) + blank
            cursor = r.upperBound
        }
        cloze += String(chars[cursor...])
        let base = sentence.offsets.lowerBound
        return ClozeItem(
            sentence: sentence.text, answer: String(chars[answerRange]), clozeText: cloze,
            sourceRange: sentence.range,
            answerOffsets: (base + answerRange.lowerBound)..<(base + answerRange.upperBound), answerKey: key)
    }

    /// The stems the text's terms of two words or more end on after at least two different
    /// words ("strand" of "leading strand" and "lagging strand", "cell" of "B cells" and "memory
    /// cells"): a word that names a kind of thing, not one thing.
    static func genericHeads(keyphrases: [Keyphrase], compounds: [[String]]) -> Set<String> {
        var modifiers: [String: Set<String>] = [:]
        let terms = keyphrases.map { $0.key.split(separator: " ").map(String.init) } + compounds
        for term in terms where term.count >= 2 {
            guard let head = term.last else { continue }
            modifiers[head, default: []].insert(term.dropLast().joined(separator: " "))
        }
        return Set(modifiers.filter { $0.value.count >= 2 }.keys)
    }

    /// Words that follow a verb and never a plural noun: a determiner, a particle that opens the
    /// verb's complement, a pronoun object, a verb in the singular ("where the helix opens is").
    private static let afterAVerb: Set<String> = [
        "the", "a", "an", "its", "their", "his", "her", "this", "these", "those", "that", "some", "most", "all",
        "each", "every", "up", "down", "downwards", "upwards", "into", "onto", "away", "out", "off", "back",
        "towards", "toward", "across",
        "it", "them", "themselves", "itself", "him", "us", "is", "was", "has",
    ]

    /// Prepositions that follow a verb as often as a noun ("starts at", "ions in water"): a sign
    /// of a verb only where the word before and the blank are no term of the text.
    private static let afterAVerbOrANoun: Set<String> = [
        "at", "on", "in", "from", "to", "with", "by", "for", "through", "over",
    ]

    /// Words that stand before a noun, never before its verb: articles, determiners, numbers'
    /// words, prepositions.
    private static let beforeANoun: Set<String> = [
        "a", "an", "the", "its", "their", "his", "her", "our", "your", "my", "this", "these", "those", "some", "many",
        "most", "all", "each", "every", "no", "any", "of", "in", "on", "at", "to", "for", "with", "from", "by", "about",
        "two", "three", "several", "few", "both", "such",
    ]

    /// Whether the words `start..<start + length` of a sentence end on its verb (#53): a
    /// lower-case word in "-s" after a word that is no determiner ("DNA polymerase I removes
    /// the …", "the good rises the …", "it normally slopes downwards", "Replication starts at"), a
    /// word in "-ing" closing a longer blank ("forces acting on"), a bare form after a plural
    /// subject ("keys hash to", "buyers want to") or after "to" ("to find the first …"), each
    /// followed by what follows a verb (``afterAVerb``: "the", "into", "is"). A preposition
    /// (``afterAVerbOrANoun``) says so only for one word whose neighbour before it is no term of
    /// the text with it (`terms`, stem keys): "hydrogen ions in water" is a term and a noun.
    static func endsOnAVerb(_ words: [NormalizedWord], start: Int, length: Int, terms: Set<String> = []) -> Bool {
        let lastIndex = start + length - 1
        guard words.indices.contains(lastIndex), words.indices.contains(lastIndex + 1),
            !words[lastIndex + 1].followsBreak
        else {
            return false
        }
        let last = words[lastIndex]
        let form = last.surface
        guard form == form.lowercased(), form.count >= 3, form.allSatisfy(\.isLetter) else { return false }
        let next = words[lastIndex + 1].lowercased
        let before = lastIndex > 0 && !last.followsBreak ? words[lastIndex - 1] : nil
        let pairIsATerm = before.map { terms.contains($0.stem + " " + last.stem) } ?? false
        let strong = afterAVerb.contains(next)
        let preposition = afterAVerbOrANoun.contains(next)
        guard strong || preposition else { return false }
        // "a", "an" follow a verb only after a subject in the singular ("a child pushes a sled";
        // not "two high tides a day").
        if next == "a" || next == "an", let before, before.lowercased.hasSuffix("s") { return false }
        if form.hasSuffix("ing") { return length > 1 && !["is", "was", "has"].contains(next) }
        // A preposition says nothing after "and" ("ATP and electrons from NADPH").
        let joined = before.map { ["and", "or", "but", "nor"].contains($0.lowercased) } ?? true
        guard strong || length == 1 && !pairIsATerm && !joined else { return false }
        if form.hasSuffix("s"), !["ss", "us", "is"].contains(where: form.hasSuffix) {
            guard let before else { return false }
            return !beforeANoun.contains(before.lowercased) && !before.isNumber
        }
        guard length == 1, let before, !pairIsATerm else { return false }
        // A bare verb after "to", or after a plural subject (the sentence's first word may be capitalised).
        if before.lowercased == "to" {
            return ["the", "a", "an", "its", "their", "this", "these", "that"].contains(next)
        }
        let lower = before.lowercased
        let plural = (before.surface == lower || lastIndex == 1) && lower.hasSuffix("s") && !lower.hasSuffix("ss")
            && !before.isStopword
        return plural && !["is", "was", "has", "a", "an"].contains(next)
    }

    /// Whether `range` of `chars` starts or ends inside a token joined by `.`, `-`, `_`, `/` or
    /// `@`, or starts after a backslash (a TeX command: "\citet and \_____").
    static func cutsAToken(_ chars: [Character], _ range: Range<Int>) -> Bool {
        func joins(_ joiner: Int, _ neighbour: Int) -> Bool {
            chars.indices.contains(joiner) && chars.indices.contains(neighbour) && ".-_/@".contains(chars[joiner])
                && (chars[neighbour].isLetter || chars[neighbour].isNumber)
        }
        // "\citep", and a package's internal "\@spaces".
        let before = chars[..<min(range.lowerBound, chars.count)].suffix(2)
        if before.last == "\\" || before.elementsEqual(["\\", "@"]) { return true }
        // "or -_____ on indefinite length": a minus sign belongs to its number.
        let signed = range.lowerBound >= 1 && chars[range.lowerBound - 1] == "-"
            && chars.indices.contains(range.lowerBound)
            && chars[range.lowerBound].isNumber && (range.lowerBound < 2 || chars[range.lowerBound - 2].isWhitespace)
        return signed || joins(range.lowerBound - 1, range.lowerBound - 2)
            || joins(range.upperBound, range.upperBound + 1)
    }

    /// Whether `words[index]` stands as the kind of a name right next to it, with only a space
    /// between: before a name ("enzyme" in "the enzyme PEP carboxylase", "gene" in "the gene
    /// BRCA1": a word of two characters or more with a capital or a digit) or after a function's
    /// name ("function" in "the asn1_der_decoding() function").
    static func namesAKind(_ chars: [Character], _ words: [NormalizedWord], at index: Int) -> Bool {
        if words.indices.contains(index + 1), !words[index + 1].followsBreak {
            // One capital letter is no name but a type ("helper T cells", "vitamin C").
            let next = words[index + 1].surface
            if next.count >= 2,
                next.first?.isUppercase == true || next.contains(where: \.isNumber)
                    || next.dropFirst().contains(where: \.isUppercase)
            {
                return true
            }
        }
        let start = words[index].offsets.lowerBound
        return start >= 3 && chars[start - 1] == " " && chars[start - 3] == "(" && chars[start - 2] == ")"
    }

    /// Whether the name `words[index..<index + length]` (every word capitalised) has a capitalised
    /// word that is no function word right before or after it, with only a space between:
    /// "Revolution" of "The French Revolution", "Louis" of "Louis XVI". ("Python version" of
    /// "default Debian Python version" is no name: a term may follow a name that qualifies it.)
    static func isPartOfALongerName(_ words: [NormalizedWord], at index: Int, length: Int) -> Bool {
        guard words[index..<(index + length)].allSatisfy({ $0.surface.first?.isUppercase == true }) else {
            return false
        }
        func nameWord(_ word: NormalizedWord) -> Bool { word.surface.first?.isUppercase == true && !word.isStopword }
        if index > 0, !words[index].followsBreak, nameWord(words[index - 1]) { return true }
        let after = index + length
        return after < words.count && !words[after].followsBreak && nameWord(words[after])
    }

    /// Whether a term reads as plural: its last word, in lower case, ends in "s" but not in "ss",
    /// "us" or "is" ("fields", "entries"; not "class", "status", "analysis").
    static func isPlural(_ term: String) -> Bool {
        guard let last = term.split(separator: " ").last, last.count > 3, last.allSatisfy(\.isLowercase) else {
            return false
        }
        return last.hasSuffix("s") && !last.hasSuffix("ss") && !last.hasSuffix("us") && !last.hasSuffix("is")
    }

    /// Whether `range` of `chars` holds a quotation mark or a bracket ("url” command").
    static func crossesMarks(_ chars: [Character], _ range: Range<Int>) -> Bool {
        chars[range].contains { "\"“”„«»‘()[]{}<>".contains($0) }
    }

    /// Whether the words before `index` are a content word and "and", "or" or "nor" ("MANUAL and",
    /// "required and"): a phrase there may share its head with that word.
    static func isCoordinated(_ words: [NormalizedWord], at index: Int) -> Bool {
        guard index >= 2, !words[index].followsBreak, !words[index - 1].followsBreak else { return false }
        return ["and", "or", "nor"].contains(words[index - 1].lowercased) && !words[index - 2].isStopword
    }

    /// Whether `range` of `chars` is an item of a list: the sentence has three commas or more, and
    /// a comma (or the list's colon) stands right before or after the range with a comma, "and" or
    /// "or" on its other side ("editor, _____ or number, series", "family, _____, point size").
    static func isInEnumeration(_ chars: [Character], _ range: Range<Int>) -> Bool {
        guard chars.count(where: { $0 == "," }) >= 3 else { return false }
        let before = String(chars[..<range.lowerBound]).trimmingCharacters(in: .whitespaces).lowercased()
        let after = String(chars[range.upperBound...]).trimmingCharacters(in: .whitespaces).lowercased()
        // A list may follow its label's colon ("Optional fields: _____ or number, series, …").
        let commaBefore = before.hasSuffix(",") || before.hasSuffix(":")
        let commaAfter = after.hasPrefix(",")
        let joinBefore = commaBefore || before.hasSuffix(" and") || before.hasSuffix(" or")
        let joinAfter = commaAfter || after.hasPrefix("and ") || after.hasPrefix("or ")
        return (commaBefore && joinAfter) || (commaAfter && joinBefore)
    }

    /// Start positions of non-overlapping occurrences of `needle` in `haystack`.
    private static func occurrences(of needle: [String], in haystack: [String]) -> [Int] {
        guard !needle.isEmpty, needle.count <= haystack.count else { return [] }
        var result: [Int] = []
        var i = 0
        while i + needle.count <= haystack.count {
            if Array(haystack[i..<(i + needle.count)]) == needle {
                result.append(i)
                i += needle.count
            } else {
                i += 1
            }
        }
        return result
    }

    /// Whether one stem key is a whole-word part of the other ("light" in "light reaction").
    static func overlaps(_ a: String, _ b: String) -> Bool {
        let x = a.split(separator: " ").map(String.init)
        let y = b.split(separator: " ").map(String.init)
        let (short, long) = x.count <= y.count ? (x, y) : (y, x)
        return !occurrences(of: short, in: long).isEmpty
    }

    /// Whether two numbers have as many digits before any point ("1793" and "1789"; not "5" and
    /// "1789"); what is not a number has no magnitude to differ in.
    static func sameMagnitude(_ a: String, _ b: String) -> Bool {
        func digits(_ text: String) -> Int { text.prefix { $0 != "." }.count(where: \.isNumber) }
        return digits(a) == digits(b)
    }

    /// Plausible wrong numbers: for a year-like integer ±10, ±20, ±5 years; otherwise scaled by
    /// a half, double, and a half again. Decimals and other formats get none.
    private static func nearbyNumbers(_ answer: String) -> [String] {
        guard let n = Int(answer) else { return [] }
        if (1000...2100).contains(n) {
            return [n - 10, n + 10, n - 20, n + 5].map(String.init)
        }
        guard n > 1 else { return [String(n + 1), String(n + 2), String(n + 3)] }
        return [n * 2, n / 2, n + n / 2, n * 3].filter { $0 != n }.map(String.init)
    }
}

// MARK: - Term shape

/// The "kind" of a term judged from its spelling alone.
///
/// A person's name is told by its particle: a lower-case "van", "von", "de" … before a capitalised
/// word ("van Leunen", "Ludwig van Beethoven"); such an option beside a concept gives itself away.
private enum TermShape: Equatable {
    case number, date, acronym, name, person, phrase

    private static let particles: Set<Substring> = [
        "van", "von", "de", "der", "den", "del", "della", "di", "da", "du", "le", "ten", "ter",
    ]

    init(_ text: String) {
        let words = text.split(separator: " ")
        if !words.isEmpty, words.allSatisfy({ $0.allSatisfy { $0.isNumber || ".,%".contains($0) } }) {
            self = .number
        } else if words.contains(where: { WordLists.monthNames.contains($0.lowercased()) }),
            words.contains(where: { $0.allSatisfy(\.isNumber) })
        {
            // "20 June", "September 1792": a date is no name of a thing or a body ("Third Estate").
            self = .date
        } else if zip(words, words.dropFirst()).contains(where: {
            Self.particles.contains($0) && $1.first?.isUppercase == true
        }) {
            self = .person
        } else if words.count == 1, let w = words.first, w.count >= 2,
            w.allSatisfy({ $0.isUppercase || $0.isNumber }), w.contains(where: \.isUppercase)
        {
            self = .acronym
        } else if words.contains(where: { $0.first?.isUppercase == true }) {
            self = .name
        } else {
            self = .phrase
        }
    }

    /// 0 for the same kind; names and acronyms are neighbours; numbers are far from words, and
    /// dates from everything but numbers (a year).
    func distance(to other: TermShape) -> Int {
        if self == other { return 0 }
        switch (self, other) {
        case (.date, .number), (.number, .date): return 1
        case (.date, _), (_, .date): return 3
        case (.name, .acronym), (.acronym, .name), (.name, .phrase), (.phrase, .name),
            (.name, .person), (.person, .name):
            return 1
        case (.number, _), (_, .number): return 3
        default: return 2
        }
    }
}
