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
    /// Number of words in `text`.
    var wordCount: Int { key.split(separator: " ").count }
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
struct KeyphraseExtractor: Sendable {
    /// Longest candidate, in words.
    var maxWords: Int

    /// Creates an extractor (`maxWords` from 1 to 3 is sensible).
    init(maxWords: Int = 3) {
        self.maxWords = max(1, maxWords)
    }

    /// The best keyphrases of `text`, best first; at most `limit`.
    func keyphrases(in text: String, limit: Int = 20) -> [Keyphrase] {
        keyphrases(in: SentenceSplitter().split(text), limit: limit)
    }

    /// The best keyphrases of already split units (headings count too: they name topics).
    ///
    /// Ties in score go to the phrase that occurs first, so the output is deterministic.
    func keyphrases(in sentences: [Sentence], limit: Int = 20) -> [Keyphrase] {
        var runs: [[BuiltinWord]] = []
        for sentence in sentences {
            runs.append(contentsOf: contentRuns(in: BuiltinTerms.words(in: sentence.text)))
        }
        // Count every n-gram inside every run.
        var groups: [String: Group] = [:]
        var position = 0
        for run in runs {
            for length in 1...maxWords where length <= run.count {
                for start in 0...(run.count - length) {
                    let piece = run[start..<(start + length)]
                    guard isUseful(piece) else { continue }
                    let stems = piece.map(\.stem)
                    let key = stems.joined(separator: " ")
                    let surface = piece.map(\.surface).joined(separator: " ")
                    var group = groups[key] ?? Group(first: position, count: 0, surfaces: [:], stems: stems)
                    group.count += 1
                    let seen = group.surfaces[surface] ?? (0, position)
                    group.surfaces[surface] = (seen.count + 1, seen.first)
                    groups[key] = group
                    position += 1
                }
            }
        }
        var scored: [(phrase: Keyphrase, first: Int, stems: [String])] = groups.map { key, group in
            let extra = Double(group.stems.count - 1)
            let weight = group.count >= 2 ? 1 + extra : 1 + 0.1 * extra
            let best = group.surfaces.min { a, b in
                a.value.count != b.value.count ? a.value.count > b.value.count : a.value.first < b.value.first
            }
            let phrase = Keyphrase(
                text: best?.key ?? key, score: Double(group.count) * weight, occurrences: group.count, key: key)
            return (phrase, group.first, group.stems)
        }
        scored.sort { a, b in a.phrase.score != b.phrase.score ? a.phrase.score > b.phrase.score : a.first < b.first }
        // Drop phrases that mostly live inside a longer phrase that scored higher or equal.
        // Longer phrases indexed by each of their stems, so each check looks at a few phrases only.
        var longerByStem: [String: [Int]] = [:]
        for (i, entry) in scored.enumerated() where entry.stems.count > 1 {
            for stem in Set(entry.stems) { longerByStem[stem, default: []].append(i) }
        }
        var kept: [Keyphrase] = []
        for candidate in scored where kept.count < max(0, limit) {
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

    /// Runs of content words in one unit, broken by stopwords and punctuation.
    private func contentRuns(in words: [BuiltinWord]) -> [[BuiltinWord]] {
        var result: [[BuiltinWord]] = []
        var run: [BuiltinWord] = []
        for word in words {
            if word.followsBreak || word.isStopword || isNoise(word), !run.isEmpty {
                result.append(run)
                run = []
            }
            if !word.isStopword, !isNoise(word) { run.append(word) }
        }
        if !run.isEmpty { result.append(run) }
        return result
    }

    /// Single Latin letters carry no topic.
    private func isNoise(_ word: BuiltinWord) -> Bool {
        word.surface.count < 2 && !word.isNumber && !BuiltinTerms.isCJK(word.surface.first ?? " ")
    }

    /// Numbers count alone ("1905"), never as part of a phrase of numbers ("3 4").
    private func isUseful(_ piece: ArraySlice<BuiltinWord>) -> Bool {
        guard !piece.isEmpty else { return false }
        if piece.allSatisfy(\.isNumber) { return piece.count == 1 }
        return true
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
