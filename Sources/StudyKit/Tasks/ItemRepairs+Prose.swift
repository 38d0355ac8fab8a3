import Foundation

// MARK: - A blurb and an overview mended, not replaced (#53)

/// Repairs of a model's prose that keep its words and leave out only what breaks a rule:
/// - a blurb over its length cut to its main clause (``mainClause(_:maxWords:maxLength:)``);
/// - a blurb whose stock filler lies in a short opening or closing clause ("In these notes, …",
///   "…, as this handout explains.") or in a sentence of its own, without that clause or sentence;
/// - an overview without its sentences of stock filler ("This document provides an overview of …"),
///   when what is left reads on its own.
/// Each returns `nil` when no such cut applies; what it returns is judged again like any answer.
extension ItemRepairs {
    /// The most words of a clause that may be left out of a blurb as filler: an aside, not half of it.
    static let fillerClauseWords = 8
    /// The words an aside about the document opens on: "In these notes, …", "…, as the handout
    /// explains", "According to the slides, …". A clause that opens otherwise ("A comprehensive
    /// guide to the phases, tides, …") is the sentence's head, and the rest is no statement.
    private static let asideOpenings: Set<String> = [
        "in", "as", "according", "throughout", "within", "here", "from", "per", "like",
    ]

    /// `blurb` mended by rule, with what was done; `nil` when no rule applies. Over `maxWords`
    /// words or `maxLength` characters: cut to its main clause. Stock filler
    /// (``ItemRules/stockFiller(in:)``): without the sentence that holds it, when one other
    /// sentence is left; else without the opening or closing clause of at most
    /// ``fillerClauseWords`` words that holds it, when the rest holds no filler. What is left must
    /// read on its own (``StandaloneSentence/readsOnItsOwn(_:)``).
    static func mendedBlurb(_ blurb: String, maxWords: Int, maxLength: Int) -> (text: String, how: String)? {
        let trimmed = ProseText.oneLine(blurb)
        if let cut = mainClause(trimmed, maxWords: maxWords, maxLength: maxLength), mendable(cut) {
            return (cut, "cut to its main clause (“\(cut)”)")
        }
        guard ItemRules.stockFiller(in: trimmed) != nil else { return nil }
        let sentences = SentenceSplitter().split(trimmed).map(\.text)
        if sentences.count > 1 {
            let kept = sentences.filter { ItemRules.stockFiller(in: $0) == nil }
            guard kept.count == 1, let only = kept.first, mendable(only) else { return nil }
            return (only, "its sentence of stock filler left out")
        }
        guard let rest = withoutFillerClause(trimmed), mendable(rest) else { return nil }
        return (rest, "its clause of stock filler left out (“\(rest)”)")
    }

    /// Whether `text` may stand as a mended blurb: it reads on its own, holds no filler, and
    /// states something (at least 4 content words).
    private static func mendable(_ text: String) -> Bool {
        StandaloneSentence.readsOnItsOwn(text) && ItemRules.stockFiller(in: text) == nil
            && ItemRules.contentWordCount(TermNormalizer.words(in: text)) >= 4
    }

    /// `sentence` without an opening clause ("In these lecture notes, …") or a closing one
    /// ("…, as the handout explains.") of at most ``fillerClauseWords`` words that holds its stock
    /// filler and opens as an aside (``asideOpenings``), the rest opening on a capital and closing on
    /// its end mark; `nil` when neither edge clause is such an aside.
    static func withoutFillerClause(_ sentence: String) -> String? {
        let text = sentence.trimmingCharacters(in: .whitespaces)
        let end = text.last.map { ".!?".contains($0) ? String($0) : "" } ?? ""
        let body = String(text.dropLast(end.count))
        let breaks = [", ", "; ", ": ", " — ", " – "]
        func words(_ part: Substring) -> Int { part.split(whereSeparator: \.isWhitespace).count }
        func aside(_ clause: Substring) -> Bool {
            let first = clause.split(whereSeparator: \.isWhitespace).first.map { $0.lowercased() } ?? ""
            return words(clause) <= fillerClauseWords && asideOpenings.contains(first)
                && ItemRules.stockFiller(in: String(clause)) != nil
        }
        // The opening clause: up to the first break.
        if let first = breaks.compactMap({ body.range(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound }) {
            let clause = body[..<first.lowerBound]
            let rest = body[first.upperBound...]
            if aside(clause), ItemRules.stockFiller(in: String(rest)) == nil, let opening = rest.first
            {
                return opening.uppercased() + rest.dropFirst() + (end.isEmpty ? "." : end)
            }
        }
        // The closing clause: after the last break.
        if let last = breaks.compactMap({ body.range(of: $0, options: .backwards) })
            .max(by: { $0.lowerBound < $1.lowerBound })
        {
            let clause = body[last.upperBound...]
            let rest = body[..<last.lowerBound]
            if aside(clause), ItemRules.stockFiller(in: String(rest)) == nil {
                return rest + (end.isEmpty ? "." : end)
            }
        }
        return nil
    }

    /// `overview` without its sentences of stock filler ("This document provides an overview of
    /// …", "… revision sheet 3."), with the indices of those left out; `nil` when none holds
    /// filler, when none is left, or when a sentence left right after one left out leans on it
    /// ("It covers the pH scale …" after "This document provides …": "it" was the document).
    static func overviewWithoutFiller(_ overview: String) -> (kept: [String], removed: [Int])? {
        let sentences = SentenceSplitter().split(overview).map(\.text)
        var kept: [String] = []
        var removed: [Int] = []
        for (index, sentence) in sentences.enumerated() {
            if ItemRules.stockFiller(in: sentence) != nil {
                removed.append(index)
                continue
            }
            if removed.last == index - 1, !StandaloneSentence.readsOnItsOwn(sentence) { return nil }
            kept.append(sentence)
        }
        guard !removed.isEmpty, !kept.isEmpty else { return nil }
        return (kept, removed)
    }
}
