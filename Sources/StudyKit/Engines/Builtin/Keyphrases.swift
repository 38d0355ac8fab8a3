import Foundation

// MARK: - Keyphrase

/// A key term of a document.
struct Keyphrase: Sendable, Hashable {
    /// The phrase as it is written most often in the text (ties: its first spelling).
    let text: String
    /// Importance; only comparable within one extraction.
    let score: Double
    /// How many times the phrase (in any inflection) occurs as a candidate.
    let occurrences: Int
    /// The stem key the phrase was deduplicated under ("light reaction" for "Light Reactions").
    let key: String
    /// The phrase as the text writes it in lower case, when it does ("optional fields" beside the
    /// "Optional fields:" that opens line after line): the phrase is then no name, whatever
    /// spelling is most frequent.
    var lowerCaseText: String? = nil
    /// Number of words in `text`.
    var wordCount: Int { key.split(separator: " ").count }
    /// The phrase as a term among others (a quiz option, a distractor's kind): in lower case when
    /// the text writes it so, else as it is written most often.
    var plainText: String { lowerCaseText ?? text }
}

// MARK: - Extractor

/// RAKE-style keyphrase extraction, scored for study terms.
///
/// Candidates are runs of content words between stopwords and punctuation, as in RAKE. Every
/// sequence of one to `maxWords` consecutive words inside a run is a candidate phrase; phrases
/// meet under a stem key, so "light reaction" and "Light Reactions" are one keyphrase.
///
/// Scoring departs from RAKE's degree/frequency on purpose: RAKE ranks a long phrase said once
/// ("increase crop yield") above the terms a text keeps returning to ("ATP", "Calvin cycle"),
/// which are what a student must learn. Here a phrase scores its frequency times a length
/// weight (its degree: 1 + one per extra word) when it recurs, and only a token bonus for extra
/// words when it occurs once. A shorter phrase that nearly always occurs inside a longer
/// keyphrase ("cycle" inside "Calvin cycle", in ≥ 75% of its occurrences) is dropped in favour
/// of the longer one.
///
/// For English text (`weighsGeneralEnglish`), a score is also weighed by how specific the term is
/// to the document rather than to English at large (``EnglishFrequency/specificity(of:)``: "MIME
/// type" and "glob" over "type" and "list"), raised for terms the document names in a heading or
/// defines ("A glob is …", "Glob: …"); a verb is no term at all: a past participle on its own or
/// closing a phrase ("released", "files matched"), a word the text also writes as one opening a
/// phrase ("fixes carbon dioxide" beside "fixed"), or a word that is never a noun on its own or
/// closing a phrase ("occurs", "useful", "exception occurs": ``EnglishWordClass``), unless a
/// heading names it or the text defines it.
struct KeyphraseExtractor: Sendable {
    /// Longest candidate, in words.
    var maxWords: Int
    /// Whether to weigh terms against general English (only sensible for English text).
    var weighsGeneralEnglish: Bool

    /// Creates an extractor (`maxWords` from 1 to 3 is sensible).
    init(maxWords: Int = 3, weighsGeneralEnglish: Bool = false) {
        self.maxWords = max(1, maxWords)
        self.weighsGeneralEnglish = weighsGeneralEnglish
    }

    /// Factor for a term named in a heading, and for a term the document defines.
    static let headingWeight = 1.5
    static let definitionWeight = 1.5

    /// The best keyphrases of `text`, best first; at most `limit`.
    func keyphrases(in text: String, limit: Int = 20) -> [Keyphrase] {
        keyphrases(in: SentenceSplitter().split(text), limit: limit)
    }

    /// The best keyphrases of already split units (headings count too: they name topics; code
    /// does not).
    ///
    /// Ties in score go to the phrase that occurs first, so the output is deterministic.
    /// `words`, when given, are each unit's `TermNormalizer.words(in:)`, so a caller that
    /// tokenized already does not pay for it twice.
    /// `fieldNames`, when given, are the document's (``fieldNames(in:words:)``), for an
    /// extraction from a part of it: a field is one across the whole document.
    func keyphrases(
        in sentences: [Sentence], words unitWords: [[NormalizedWord]]? = nil, limit: Int = 20,
        fieldNames: Set<String>? = nil
    ) -> [Keyphrase] {
        // Japanese has no spaces and no stopwords we know, but its scripts mark the words:
        // terms are runs of kanji or of katakana, and hiragana is mostly particles and endings.
        let japanese =
            LanguageDetector.scriptLanguage(ScriptCount(sentences.map(\.text).joined(separator: "\n"))) == "ja"
        var runs: [[NormalizedWord]] = []
        var headingStems = Set<String>()
        // Words a heading writes, or the text writes as a call ("deflate()"), lower-cased: there a
        // verb's base form names a thing ("pass Statements", "break and continue").
        var namingWords = Set<String>()
        var defined = Set<String>()
        var verbStems = Set<String>()  // stems the text also uses as a past participle ("fixed")
        // Code is no source of terms ("const", "myEmitter").
        for (index, sentence) in sentences.enumerated() where !sentence.isCode {
            let words = unitWords?[index] ?? TermNormalizer.words(in: sentence.text)
            runs.append(contentsOf: japanese ? Self.japaneseTermRuns(in: words) : contentRuns(in: words))
            guard weighsGeneralEnglish else { continue }
            if sentence.text.contains("(") {
                let chars = Array(sentence.text)
                for word in words where chars.indices.contains(word.offsets.upperBound)
                    && chars[word.offsets.upperBound] == "(" {
                    namingWords.insert(word.lowercased)
                }
            }
            for word in words where word.surface == word.lowercased && Self.endsInParticiple(word.surface) {
                verbStems.insert(word.stem)
            }
            if sentence.isHeading {
                headingStems.formUnion(words.map(\.stem))
                namingWords.formUnion(words.map(\.lowercased))
            } else if let key = Self.definedTerm(in: words, text: sentence.text) {
                defined.insert(key)
            }
        }
        let fieldNames = fieldNames ?? Self.fieldNames(in: sentences, words: unitWords)
        defined.subtract(fieldNames)
        // Count every n-gram inside every run.
        var groups: [String: Group] = [:]
        var position = 0
        for run in runs {
            // A Japanese run is one term: its pieces ("ドー" of "ドーム") are none.
            for length in japanese ? [run.count] : Array(1...min(maxWords, run.count)) {
                for start in 0...(run.count - length) {
                    let piece = run[start..<(start + length)]
                    guard isUseful(piece) else { continue }
                    let stems = piece.map(\.stem)
                    let key = stems.joined(separator: " ")
                    let surface = piece.map(\.surface).joined(separator: " ")
                    // In place: a copy of the group taken out and stored back copied its spellings each time.
                    let first = position
                    Self.count(surface, at: first,
                        in: &groups[key, default: Group(first: first, count: 0, surfaces: [:], stems: stems)])
                    position += 1
                }
            }
        }
        let unsorted: [(phrase: Keyphrase, first: Int, stems: [String])] = groups.compactMap { key, group in
            let extra = Double(group.stems.count - 1)
            var weight = group.count >= 2 ? 1 + extra : 1 + 0.1 * extra
            var surfaces = group.surfaces
            if weighsGeneralEnglish {
                // A term is shown as a noun: "pass" as "The pass is silently ignored" writes it, not
                // the "passed" the text says more often. A term said only as a verb or an adjective
                // ("occurs", "Defining", "unpacked") is none unless the text defines it, or a heading
                // or a call writes its base form ("break and continue Statements", "deflate()").
                let nounLike = surfaces.filter { surface, _ in !Self.isVerbForm(surface, namingWords: namingWords) }
                if !nounLike.isEmpty {
                    surfaces = nounLike
                } else if !defined.contains(key) {
                    return nil
                }
            }
            let best = surfaces.min { a, b in
                a.value.count != b.value.count ? a.value.count > b.value.count : a.value.first < b.value.first
            }
            let text = best?.key ?? key
            if weighsGeneralEnglish {
                let isDefined = defined.contains(key)
                let inHeading = group.stems.allSatisfy(headingStems.contains)
                // A verb is no term: "released", "files matched", and "fixes carbon dioxide" in a
                // text that also says "fixed".
                let verbLike = Self.endsInParticiple(text)
                    || (verbStems.contains(group.stems[0]) && text.first?.isLowercase == true)
                // A heading that writes the term as it is shown names it ("pass Statements"); one
                // that only shares its stem does not ("Comparing Sequences" for "compare").
                let named = text.lowercased().split(separator: " ").allSatisfy { namingWords.contains(String($0)) }
                if !isDefined, !named, verbLike { return nil }
                // A phrase said once that runs from a subject into its verb ("king dismissed
                // Necker", "1455 Fust sued", "Luther wrote short") or opens on a verb ("wrote short
                // pamphlets") is no term, whatever it ends in; one that opens on an adverb is none
                // however often it is said ("normally slopes", twice).
                if !isDefined, !inHeading, group.stems.count > 1, group.count == 1 || Self.opensOnAnAdverb(text),
                    Self.runsIntoAVerb(text) {
                    return nil
                }
                // A phrase said once that opens on a date and runs on is the sentence's date and
                // its subject ("Before 1789 French society was divided", "In February 1793 France
                // declared war", "On 23 June Louis XVI held …"), no term.
                if !isDefined, !inHeading, group.count == 1, Self.opensOnADate(text) { return nil }
                if fieldNames.contains(key) { return nil }
                weight *= EnglishFrequency.specificity(of: text)
                if inHeading { weight *= Self.headingWeight }
                if isDefined { weight *= Self.definitionWeight }
            }
            // A phrase of words the text also writes in lower case is no name; a single word must be
            // written so often ("python" of a package name once beside "Python" is still a name).
            let lowerCase = text.contains(where: \.isUppercase)
                ? surfaces.filter { surface, seen in
                    !surface.contains(where: \.isUppercase)
                        && (group.stems.count > 1 || 2 * seen.count >= (best?.value.count ?? 0))
                }.min { a, b in
                    a.value.count != b.value.count ? a.value.count > b.value.count : a.value.first < b.value.first
                }?.key
                : nil
            let phrase = Keyphrase(
                text: text, score: Double(group.count) * weight, occurrences: group.count, key: key,
                lowerCaseText: lowerCase)
            return (phrase, group.first, group.stems)
        }
        // By the score, then the first occurrence, which no two phrases share: the order is the same
        // whatever the algorithm. Positions are sorted, on their own keys: moving (and copying, to
        // compare) a book's tens of thousands of entries was what cost.
        let scores = unsorted.map(\.phrase.score), firsts = unsorted.map(\.first)
        let scored = unsorted.indices.sorted { a,
            b in scores[a] != scores[b] ? scores[a] > scores[b] : firsts[a] < firsts[b] }
            .map { unsorted[$0] }
        // Drop phrases that mostly live inside a longer phrase that scored higher or equal.
        // Longer phrases indexed by each of their stems, so each check looks at a few phrases only.
        var longerByStem: [String: [Int]] = [:]
        for (i, entry) in scored.enumerated() where entry.stems.count > 1 {
            for stem in Set(entry.stems) { longerByStem[stem, default: []].append(i) }
        }
        var kept: [Keyphrase] = []
        for candidate in scored {
            guard kept.count < max(0, limit) else { break }
            let others = longerByStem[candidate.stems[0]] ?? []
            let subsumed = others.contains { o in
                let other = scored[o]
                return other.stems.count > candidate.stems.count
                    && Double(other.phrase.occurrences) >= 0.75 * Double(candidate.phrase.occurrences)
                    && Self.contains(other.stems, candidate.stems)
            }
            if !subsumed { kept.append(candidate.phrase) }
        }
        return kept
    }

    private struct Group {
        var first: Int
        var count: Int
        var surfaces: [String: (count: Int, first: Int)]
        var stems: [String]
    }

    /// One more occurrence of a group's phrase, written `surface` at `position`.
    private static func count(_ surface: String, at position: Int, in group: inout Group) {
        group.count += 1
        let seen = group.surfaces[surface] ?? (0, position)
        group.surfaces[surface] = (seen.count + 1, seen.first)
    }

    /// Runs of content words in one unit, broken by stopwords and punctuation — but for a name's
    /// particle between two capitalised words (``joinsAName(_:after:before:)``), which stays in
    /// the run: "Champ de Mars" is one term, not "Champ" and "Mars".
    private func contentRuns(in words: [NormalizedWord]) -> [[NormalizedWord]] {
        var result: [[NormalizedWord]] = []
        var run: [NormalizedWord] = []
        for (index, word) in words.enumerated() {
            if let last = run.last, index + 1 < words.count,
                Self.joinsAName(word, after: last, before: words[index + 1]) {
                run.append(word)
                continue
            }
            if word.followsBreak || word.isStopword || isNoise(word), !run.isEmpty {
                result.append(run)
                run = []
            }
            if !word.isStopword, !isNoise(word) { run.append(word) }
        }
        if !run.isEmpty { result.append(run) }
        return result
    }

    /// Runs of two to eight kanji, or of two to eight katakana, in a Japanese unit (each CJK
    /// character is a word of its own): "火山灰", "マグマ". Hiragana, punctuation, other scripts
    /// and a change between kanji and katakana end a run.
    static func japaneseTermRuns(in words: [NormalizedWord]) -> [[NormalizedWord]] {
        enum Script { case kanji, katakana, other }
        func script(_ word: NormalizedWord) -> Script {
            guard word.surface.count == 1, let scalar = word.surface.unicodeScalars.first else { return .other }
            switch CJKScript(scalar) {
            case .han: return .kanji
            case .katakana: return .katakana
            case .hiragana, .hangul, nil: return .other
            }
        }
        var result: [[NormalizedWord]] = []
        var run: [NormalizedWord] = []
        var current = Script.other
        func close() {
            if (2...8).contains(run.count) { result.append(run) }
            run = []
        }
        for word in words {
            let kind = script(word)
            if kind != current || word.followsBreak { close() }
            current = kind
            if kind != .other { run.append(word) }
        }
        close()
        return result
    }

    /// Particles that join the parts of a name written in lower case ("Champ de Mars", "Marquis
    /// de Lafayette", "Ludwig van Beethoven", "Leonardo da Vinci").
    static let nameParticles: Set<String> = ["de", "du", "des", "von", "van", "der", "den", "di", "da", "del", "della",
        "dos"]

    /// Whether `word` is a name's particle, written in lower case between two capitalised words
    /// with nothing but a space on either side.
    static func joinsAName(
        _ word: NormalizedWord, after previous: NormalizedWord, before next: NormalizedWord
    ) -> Bool {
        nameParticles.contains(word.surface) && !word.followsBreak && !next.followsBreak && !next.isStopword
            && previous.surface.first?.isUppercase == true && next.surface.first?.isUppercase == true
    }

    /// Single Latin letters carry no topic.
    private func isNoise(_ word: NormalizedWord) -> Bool {
        word.surface.count < 2 && !word.isNumber && !TermNormalizer.isCJK(word.surface.first ?? " ")
    }

    /// Numbers count alone ("1905"), never as part of a phrase of numbers ("3 4"); a cross-reference
    /// ("Chapter 5", "Section 9.10", "Figure 2") is no term.
    private func isUseful(_ piece: ArraySlice<NormalizedWord>) -> Bool {
        // A name's particle is inside a term, never at its edge ("de Mars", "Champ de").
        guard let first = piece.first, let last = piece.last, !first.isStopword, !last.isStopword else { return false }
        if piece.allSatisfy(\.isNumber) { return piece.count == 1 }
        return !zip(piece, piece.dropFirst()).contains { word, next in next.isNumber
            && Self.referenceWords.contains(word.lowercased) }
    }

    /// Words that, before a number, point to a part of a document rather than name a topic.
    private static let referenceWords: Set<String> = [
        "chapter", "chapters", "section", "sections", "figure", "fig", "table", "example", "part", "appendix", "page",
        "pages", "step", "volume", "lecture", "unit", "lesson", "exercise", "listing", "equation", "eq",
    ]

    /// How many units a term must open with a colon to be a field's name.
    static let fieldNameRepeats = 3

    /// The stem keys of field names: a glossary defines a term once, while "Type:",
    /// "Returns:", "Default:" opening unit after unit (an API reference's parameter lists) name
    /// fields, never terms.
    static func fieldNames(in sentences: [Sentence], words unitWords: [[NormalizedWord]]? = nil) -> Set<String> {
        var counts: [String: Int] = [:]
        for (index, sentence) in sentences.enumerated() where !sentence.isHeading {
            let words = unitWords?[index] ?? TermNormalizer.words(in: sentence.text)
            guard words.count >= 2 else { continue }
            let chars = Array(sentence.text)
            guard chars[words[0].offsets.upperBound..<words[1].offsets.lowerBound].contains(":"),
                let key = definedTerm(in: words, text: sentence.text)
            else { continue }
            counts[key, default: 0] += 1
        }
        return Set(counts.filter { $0.value >= fieldNameRepeats }.keys)
    }

    /// Verbs that introduce a definition when they follow the term at the start of a sentence.
    private static let definingVerbs: Set<String> = [
        "is", "are", "means", "mean", "refers", "refer", "denotes", "denote", "describes", "stands", "defines",
    ]

    /// The stem key of the term a sentence defines, if it is a definition: one to four words at
    /// its start (after an article) followed by a defining verb ("A glob is a pattern …") or by a
    /// colon or dash ("Glob: a pattern …", "DER — the distinguished encoding").
    static func definedTerm(in words: [NormalizedWord], text: String) -> String? {
        var start = 0
        if let first = words.first, ["a", "an", "the"].contains(first.lowercased) { start = 1 }
        guard words.count >= start + 2 else { return nil }
        let chars = Array(text)
        for end in (start + 1)...min(words.count - 1, start + 4) {
            let term = words[start..<end]
            guard term.allSatisfy({ !$0.isStopword }) else { return nil }
            let gap = chars[words[end - 1].offsets.upperBound..<words[end].offsets.lowerBound]
            let glossary = gap.contains(":") || gap.contains("—") || gap.contains("–")
                || String(gap).contains(" - ")
            if glossary || (!words[end].followsBreak && definingVerbs.contains(words[end].lowercased)) {
                return term.map(\.stem).joined(separator: " ")
            }
            if words[end].followsBreak { return nil }
        }
        return nil
    }

    /// Whether a lower-case term is or ends in a past participle ("released", "files matched",
    /// "applied"): its last word ends in "-ed" and, without the ending, is a known English word.
    static func endsInParticiple(_ text: String) -> Bool {
        // The suffix first: it rules out almost every word before anything is split or lowered.
        guard text.hasSuffix("ed"), let last = text.split(separator: " ").last.map(String.init),
            last == last.lowercased(),
            last.count > 4
        else { return false }
        let withoutD = String(last.dropLast(1))  // "released" → "release"
        let withoutEd = String(last.dropLast(2))  // "matched" → "match"
        let shorter = String(last.dropLast(3))
        var bases = [withoutD, withoutEd]
        if last.hasSuffix("ied") { bases.append(shorter + "y") }  // "applied" → "apply"
        if withoutEd.last == shorter.last { bases.append(shorter) }  // "stopped" → "stop"
        return bases.contains { $0.count >= 3 && EnglishFrequency.zipf($0) >= 3 }
    }

    /// Whether a phrase holds a verb or an adjective after its first word ("king dismissed
    /// Necker", "49 survive today", "genetically identical daughter"), a short past tense there
    /// ("Fust sued"), or opens on an adverb in "-ly" ("normally slopes") or a verb's irregular
    /// form ("wrote short pamphlets"). Capitalised words are names and never judged.
    static func runsIntoAVerb(_ text: String) -> Bool {
        let words = text.split(separator: " ").map(String.init)
        func plain(_ word: String) -> Bool { word.allSatisfy { $0.isLetter && $0.isLowercase } }
        if let first = words.first, plain(first), EnglishWordClass.isIrregularVerbForm(first)
            || opensOnAnAdverb(text) { return true }
        // "sued", "tied", "died": four letters are too few for ``endsInParticiple(_:)``.
        func shortPastTense(_ word: String) -> Bool {
            guard plain(word), word.count == 4, word.hasSuffix("ed"), !word.hasSuffix("eed") else { return false }
            let base = String(word.dropLast())
            return !Stopwords.contains(base) && EnglishFrequency.zipf(base) >= 3
        }
        if words.count > 1, let first = words.first, shortPastTense(first) { return true }
        if words.indices.dropLast().contains(where: { endsANounPhrase(words[$0]) && plain(words[$0 + 1])
            && !Stopwords.contains(words[$0 + 1]) }) {
            return true
        }
        return words.dropFirst().contains { word in
            plain(word)
                && (isVerbOrAdjective(word) || shortPastTense(word) || WordLists.pastTensesOfNounVerbs.contains(word))
        }
    }

    /// Whether a phrase opens on a date — a year ("1789"), a month and a year ("February 1793"),
    /// a day and a month ("23 June") or a month before a name ("June Louis XVI") — and goes on
    /// past it ("1789 French society"). The cost: a name said once that opens on a month ("May
    /// Day") is no term.
    static func opensOnADate(_ text: String) -> Bool {
        let words = text.split(separator: " ").map(String.init)
        func isYear(_ word: String) -> Bool { word.count == 4 && word.allSatisfy(\.isNumber)
            && (1000...2199).contains(Int(word) ?? 0) }
        func isDay(_ word: String) -> Bool { (1...2).contains(word.count) && word.allSatisfy(\.isNumber) }
        func isMonth(_ word: String) -> Bool { word.first?.isUppercase == true
            && WordLists.monthNames.contains(word.lowercased()) }
        var date = 0
        var hasYearOrDayAndMonth = false
        while date < words.count {
            let word = words[date]
            if isYear(word) {
                hasYearOrDayAndMonth = true
            } else if isMonth(word) {
                // A month opening a phrase is a date's when a name follows ("June Louis XVI", of
                // "On 23 June Louis XVI held …"): the day before it may stand apart.
                if date > 0 && isDay(words[date - 1]) || date == 0 && words.count > 1
                    && words[1].first?.isUppercase == true
                    && !WordLists.monthNames.contains(words[1].lowercased()) {
                    hasYearOrDayAndMonth = true
                }
            } else if !(isDay(word) && date + 1 < words.count && isMonth(words[date + 1])) {
                break
            }
            date += 1
        }
        return hasYearOrDayAndMonth && date < words.count
    }

    /// Whether a word inside a phrase is a plural noun, which ends its noun phrase: English puts a
    /// compound's modifier in the singular ("proton gradient"), so a plain word after a plural is
    /// the sentence's verb ("Protons flow back", "Greenhouse growers add" — blanks of the builtin
    /// cards). A plural is an "-s" form of a known word, not "-ss", "-us", "-is", "-ics" or
    /// "-ous" ("glass", "status", "basis", "physics", "famous"). The few compounds with a plural
    /// modifier ("customs posts") are lost when said once.
    static func endsANounPhrase(_ word: String) -> Bool {
        let lower = word.lowercased()
        guard lower.count >= 4, lower.hasSuffix("s"), lower.allSatisfy({ $0.isLetter && $0.isASCII }),
            word.dropFirst().allSatisfy(\.isLowercase),
            !["ss", "us", "is", "ics", "ous"].contains(where: lower.hasSuffix), !Stopwords.contains(lower)
        else { return false }
        let singular = String(lower.dropLast())
        return EnglishFrequency.zipf(singular) >= 2.5 && !EnglishWordClass.isNeverNoun(singular)
    }

    /// Whether a phrase opens on an adverb in "-ly" that is never a noun ("normally slopes").
    static func opensOnAnAdverb(_ text: String) -> Bool {
        guard let first = text.split(separator: " ").first.map(String.init), first.count > 4, first.hasSuffix("ly"),
            first.allSatisfy({ $0.isLetter && $0.isLowercase })
        else { return false }
        return EnglishWordClass.isNeverNoun(first)
    }

    /// Whether one lower-case English word is plainly no term: never a noun ("define", "useful",
    /// "occurs": ``EnglishWordClass``) or a past participle ("passed").
    static func isVerbOrAdjective(_ word: String) -> Bool {
        EnglishWordClass.isNeverNoun(word) || endsInParticiple(word)
    }

    /// Whether a word ends as a verb's inflection may: "-s", "-ing", "-ed".
    private static func hasInflection(_ word: String) -> Bool {
        word.hasSuffix("ing") || word.hasSuffix("ed") || word.hasSuffix("s")
    }

    /// Whether a term is or ends in a word that is never a noun (``EnglishWordClass``): "occurs",
    /// "useful", "exception occurs" name no thing a student could learn. A capitalised word is a
    /// name, except a verb's form in "-s", "-ing" or "-ed" opening a heading or sentence
    /// ("Defining", an API reference's "Adds the listener …").
    static func endsInNonNoun(_ text: String) -> Bool {
        guard let last = text.split(separator: " ").last.map(String.init) else { return false }
        if let first = last.first, first.isUppercase, last.dropFirst().allSatisfy(\.isLowercase), hasInflection(last) {
            return EnglishWordClass.isNeverNoun(last.lowercased())
        }
        return EnglishWordClass.isNeverNoun(last)
    }

    /// Whether a surface of a term is a verb or adjective form: a past participle or a word that
    /// is never a noun closing it, except a base form that names a thing where a heading or a call
    /// writes it (`namingWords`: "continue" of "break and continue Statements", "deflate()").
    private static func isVerbForm(_ surface: String, namingWords: Set<String>) -> Bool {
        if endsInParticiple(surface) { return true }
        guard endsInNonNoun(surface) else { return false }
        let last = surface.split(separator: " ").last.map { $0.lowercased() } ?? ""
        return hasInflection(last) || !namingWords.contains(last)
    }

    /// Whether `short` occurs as consecutive stems inside `long`.
    private static func contains(_ long: [String], _ short: [String]) -> Bool {
        guard short.count <= long.count else { return false }
        for start in 0...(long.count - short.count) where Array(long[start..<(start + short.count)]) == short {
            return true
        }
        return false
    }
}
