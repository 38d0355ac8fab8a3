// MARK: - A word the material has in another form

/// The keys a content word is grounded by, where its stem alone is too strict (#53, session 65).
/// Qwen2.5-Coder-1.5B's mind-map labels were dropped for "words the material does not have" that
/// the material has in another form:
/// - **a short verb's "-ing" or "-ed"**: the light stem folds "produce", "producing" to "produc",
///   but keeps a stem of four letters whole, so "moves" is "move" and "moving" is "mov"; "using"
///   and "used" keep their endings, and "use" is "use". A word whose "-ing" or "-ed" was stripped
///   from a short stem (or kept on a short word) is also keyed by that stem with its "e"
///   ("moving", "moved" → "move"; "using", "used" → "use"), never the other way round, so "rats"
///   stays no key of "rate";
/// - **British and American spelling**: "colour" / "color", "neutralise" / "neutralize",
///   "neutralisation" / "neutralization", "analyse" / "analyze", "centre" / "center",
///   "modelling" / "modeling" meet at one key (``spellingKey(_:)``).
/// Both sides get the same keys: a word is grounded when one of its keys is one of the material's.
/// Only the grounding of words compares these keys; the stems themselves (``TermNormalizer``) are
/// unchanged, so no keyphrase, cloze or builtin label changes.
extension GroundingWords {
    /// Every key of every content word of `text` (the material's side).
    static func groundingKeys(of text: String) -> Set<String> {
        Set(contentWordKeys(text).flatMap(\.keys))
    }

    /// The stems of `text`'s content words that have no key in `materialKeys` (its
    /// ``groundingKeys(of:)``), in order: the words the material does not have in any form.
    static func foreignStems(_ text: String, materialKeys: Set<String>) -> [String] {
        contentWordKeys(text).filter { $0.keys.allSatisfy { !materialKeys.contains($0) } }.map(\.stem)
    }

    /// Each content word of `text` (as ``contentStems(_:)`` counts them) with its keys.
    static func contentWordKeys(_ text: String) -> [(stem: String, keys: [String])] {
        let words = TermNormalizer.words(in: text)
        guard words.contains(where: { $0.surface.count == 1 && TermNormalizer.isCJK(Character($0.surface)) }) else {
            return words.filter(isContent).map { ($0.stem, keys(of: $0)) }
        }
        // CJK text: the pairs of characters are the keys, as they are the stems.
        return contentStems(text).map { ($0, [$0]) }
    }

    /// `word`'s keys: its stem, and its stem with an "e" where an "-ing" or "-ed" took it away;
    /// each in one spelling.
    static func keys(of word: NormalizedWord) -> [String] {
        var keys = [word.stem]
        let lower = word.lowercased
        guard lower.allSatisfy(\.isLetter) else { return keys.map(spellingKey) }
        // "moving", "moved", "making" → "mov", "mak": the stem lost its "e" with the ending.
        // Not after a doubled consonant: "sitting", "hopped" are "sit", "hop", never "site", "hope".
        let ending = lower.hasSuffix("ing") ? 3 : lower.hasSuffix("ed") ? 2 : 0
        let base = Array(lower.dropLast(ending))
        if ending > 0, lower != word.stem, word.stem.count == 3, base.count < 2 || base.last != base[base.count - 2] {
            keys.append(word.stem + "e")
        }
        // "using", "used", "owing", "aged": too short for the stem to strip the ending at all.
        if lower.count == 5, ending == 3, lower == word.stem {
            keys.append(String(lower.dropLast(3)) + "e")
        } else if lower.count == 4, ending == 2, lower == word.stem, !lower.hasSuffix("eed") {
            keys.append(String(lower.dropLast(2)) + "e")
        }
        return keys.map(spellingKey)
    }

    /// `stem` in one spelling where British and American English differ in a regular way: "-our"
    /// (after three letters or more) is "-or", "-is(ation)"/"-ys" (verbs) are "-iz(ation)"/"-yz",
    /// a "-tre"/"-bre" noun ("centr", its stem) is "-ter"/"-ber", and a doubled "l" at the end is
    /// one ("modell" → "model").
    static func spellingKey(_ stem: String) -> String {
        var key = stem
        if key.count >= 6, let range = key.range(of: "our", options: .backwards),
            key.distance(from: key.startIndex, to: range.lowerBound) >= 3
        {
            key.replaceSubrange(range, with: "or")
        }
        for (suffix, replacement) in [("isation", "ization"), ("iser", "izer"), ("is", "iz"), ("ys", "yz")]
        where key.count >= 6 && key.hasSuffix(suffix) {
            key = String(key.dropLast(suffix.count)) + replacement
            break
        }
        if key.count >= 4, key.hasSuffix("tr") || key.hasSuffix("br") {
            key = String(key.dropLast()) + "er"
        }
        if key.count >= 6, key.hasSuffix("ll") {
            key.removeLast()
        }
        return key
    }
}
