import Foundation

// MARK: - Near-copies

/// Two items that say nearly the same by their words, and an overview made of the key points.
extension ItemRules {
    /// Whether two texts say nearly the same by their words: four in five of their
    /// ``overlapKeys(_:)`` shared (Jaccard ≥ 0.8), or one that has at least three all but
    /// repeated in the other (nine in ten of them). Texts without such words are never
    /// near-copies (they are compared exactly by the duplicate check).
    static func nearCopy(_ first: String, _ second: String) -> Bool {
        nearCopy(overlapKeys(first), overlapKeys(second))
    }

    /// What two items are compared by: the stems of their content words (``GroundingWords/contentStems(_:)``),
    /// their numbers, and their ideographs one by one — so "mention 酸" and "mention 素", or
    /// "stage 1" and "stage 2", are told apart, while "The light reactions" and "light reaction" are not.
    static func overlapKeys(_ text: String) -> Set<String> {
        var keys = Set(GroundingWords.contentStems(text))
        for word in TermNormalizer.words(in: text)
        where word.isNumber || TermNormalizer.isCJK(word.surface.first ?? " ") {
            keys.insert(word.lowercased)
        }
        return keys
    }

    /// The share of `text`'s words that lie in a run of at least `run` consecutive words found,
    /// in order, in one of `sources`: near 1 for an "overview" that strings the key sentences
    /// together with a comma added, low for one that says them again in fewer words.
    static func copiedShare(_ text: String, from sources: [String], run: Int = 6) -> Double {
        let words = GroundingWords.normalizedWords(text)
        guard words.count >= run else { return 0 }
        var runs = Set<[String]>()
        for source in sources {
            let sourceWords = GroundingWords.normalizedWords(source)
            guard sourceWords.count >= run else { continue }
            for start in 0...(sourceWords.count - run) { runs.insert(Array(sourceWords[start..<start + run])) }
        }
        var copied = Array(repeating: false, count: words.count)
        for start in 0...(words.count - run) where runs.contains(Array(words[start..<start + run])) {
            for index in start..<start + run { copied[index] = true }
        }
        return Double(copied.filter { $0 }.count) / Double(words.count)
    }

    static func nearCopy(_ first: Set<String>, _ second: Set<String>) -> Bool {
        guard !first.isEmpty, !second.isEmpty else { return false }
        // The sizes of the intersection and the union, counted without building either set:
        // every new item is weighed against every kept one.
        let (few, many) = first.count <= second.count ? (first, second) : (second, first)
        let sharedCount = few.count(where: many.contains)
        let shared = Double(sharedCount)
        if shared / Double(first.count + second.count - sharedCount) >= 0.8 { return true }
        let smaller = min(first.count, second.count)
        return smaller >= 3 && shared / Double(smaller) >= 0.9
    }

    /// Whether two near-copies each hold a word the other lacks: "A strong acid ionises
    /// completely" and "A weak acid ionises completely" are two answers to choose between, while
    /// one that only adds words to the other ("…, in water") is the same answer again. Quiz
    /// choices may be such swaps (session 62: Qwen2.5-Coder-1.5B's acids-bases and binary-search
    /// quizzes lost every question whose distractors swapped one word of the right answer).
    static func swapsAWord(_ first: Set<String>, _ second: Set<String>) -> Bool {
        !first.subtracting(second).isEmpty && !second.subtracting(first).isEmpty
    }

    /// Issues for the items of `items` (at `path`) that are near-copies of an earlier item, or
    /// of one of the `others` (named text of another part of the same result).
    static func nearCopyIssues(_ items: [String], at path: (Int) -> String, others: [(name: String, text: String)] = [])
        -> [ValidationIssue]
    {
        let otherStems = others.map { ($0.name, overlapKeys($0.text)) }
        var seen: [(index: Int, stems: Set<String>)] = []
        var issues: [ValidationIssue] = []
        for (index, item) in items.enumerated() {
            let stems = overlapKeys(item)
            if let other = otherStems.first(where: { nearCopy(stems, $0.1) }) {
                issues.append(ValidationIssue(
                    path: path(index),
                    message: "is \(quoted(item)), a near-copy of \(other.0); say something it does not"))
            } else if let earlier = seen.first(where: { nearCopy(stems, $0.stems) }) {
                issues.append(ValidationIssue(
                    path: path(index),
                    message: "is \(quoted(item)), a near-copy of \(path(earlier.index)); make every entry different"))
            }
            seen.append((index, stems))
        }
        return issues
    }
}
