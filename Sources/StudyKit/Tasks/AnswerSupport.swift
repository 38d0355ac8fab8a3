import Foundation

// MARK: - A quote that carries its answer

extension Grounding {
    /// Words that say what kind of answer a question wants, not what it is about: a quote need
    /// not hold them ("What year …", "How many …", "What is the name of …").
    static let askingWords: Set<String> = [
        "year", "years", "date", "day", "month", "century", "number", "amount", "percent", "percentage", "many", "much",
        "name",
        "names", "called", "term", "kind", "type", "word", "words", "example", "examples",
    ]

    /// Why `quote` does not carry the answer to `question` (#53), or `nil` when it does: it must
    /// hold the answer (every content word of it; a number or a date as written) and at least two
    /// of the question's own content words (all of them when it has fewer; words that only ask —
    /// "year", "many", "called" — do not count; "sue" and "sued" are one word). For a bare number or year,
    /// those words must stand in the quote's sentence that holds the number: "What year is the
    /// energy reported?" — "2016" needs a sentence that reports the energy in 2016, not a list of
    /// sources with a date in it. A cloze's question is its quote with a blank, so it always passes.
    static func supportProblem(question: String, answer: String, quote: String) -> String? {
        guard supports(quote: quote, answer) else {
            return "does not hold the answer; quote the sentence of the material that says it"
        }
        let asked = askedWords(question)
        guard !asked.isEmpty else { return nil }
        let needed = min(2, asked.count)
        let bareNumber = answer.contains(where: \.isNumber) && !answer.contains(where: \.isLetter)
        let places = bareNumber ? sentences(of: quote).filter { holds($0, number: answer) } : [quote]
        let best =
            places.map { place in
                let said = contentWords(place)
                return asked.filter { word in said.contains { sameWord(word, $0) } }.count
            }.max() ?? 0
        guard best < needed else { return nil }
        if bareNumber {
            return
                "holds the number, but not in a sentence about what the question asks (\(best) of its words "
                + "there); quote the sentence that says it"
        }
        return "has \(best) of the question's words; quote the sentence of the material that answers it"
    }

    /// How many of `question`'s own content words `sentence` says, when it carries the answer
    /// (``supportProblem(question:answer:quote:)`` finds nothing wrong with it as the quote);
    /// `nil` when it does not. How ``QuoteFinder`` ranks the material's sentences.
    static func askedWordsSaid(question: String, answer: String, sentence: String) -> Int? {
        guard supportProblem(question: question, answer: answer, quote: sentence) == nil else { return nil }
        let said = contentWords(sentence)
        return askedWords(question).filter { word in said.contains { sameWord(word, $0) } }.count
    }

    /// The content words of `question` that say what it is about (a cloze's blank aside), not
    /// what kind of answer it wants.
    private static func askedWords(_ question: String) -> Set<String> {
        Set(contentWords(question.replacingOccurrences(of: "_", with: " "))).subtracting(askingWords)
    }

    /// The content words of `text`, lower-cased (as ``GroundingWords/contentStems(_:)`` picks them).
    private static func contentWords(_ text: String) -> [String] {
        TermNormalizer.words(in: text).filter(GroundingWords.isContent).map(\.lowercased)
    }

    /// Whether two words are one word in two forms: one starts the other ("sue", "sued"), or they
    /// share their first half and four letters at least ("divided", "division").
    private static func sameWord(_ a: String, _ b: String) -> Bool {
        if a == b || a.hasPrefix(b) || b.hasPrefix(a) { return true }
        let common = zip(a, b).prefix { $0 == $1 }.count
        return common >= 4 && common * 2 >= min(a.count, b.count)
    }

    /// The sentences of a quote (a quote may run over two).
    private static func sentences(of quote: String) -> [String] {
        let found = SentenceSplitter().split(quote).map(\.text)
        return found.isEmpty ? [quote] : found
    }

    /// Whether `sentence` holds `number` as written.
    private static func holds(_ sentence: String, number: String) -> Bool {
        let words = GroundingWords.normalizedWords(number)
        return GroundingWords.containsRun(words, in: GroundingWords.normalizedWords(sentence))
            || sentence.contains(number.trimmingCharacters(in: .whitespaces))
    }
}
