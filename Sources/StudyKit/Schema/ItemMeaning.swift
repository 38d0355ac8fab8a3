import Foundation

/// What a list item (a key point, a mind-map label, a card's question or answer, a quiz choice,
/// a Feynman point) must carry beyond its shape: a small model can fill every slot of a valid
/// schema with "overview", "and", "keyPoints", "is", "a", "json", "object", or with "branch1",
/// and every length and count rule passes.
///
/// A string schema with an `ItemMeaning` rejects an item that is
/// - only punctuation, or a lone function word (or two: "of the");
/// - a field name of the schema or of any task's schema (`keyPoints`, `label`, `centralTopic`);
/// - a placeholder (`label`, `branch1`, `item`, `string`, `example`, `Option A`, `…`);
/// - talk about the reply's format rather than the material ("a JSON object");
/// - under the field's minimum of content words (a key point needs 4, a label 1); where
///   ``allowsBareTerm`` holds, a number or a single term ("4", "1953", "ATP") is enough;
/// - for a sentence field, cut mid-way: it must end with `.`, `!` or `?` (not `…`), and not on
///   an article or conjunction.
/// Near-copies — two items, or an item and the overview, that share most of their content
/// words — are rejected by the arrays and types that hold them (see ``ItemRules/nearCopy(_:_:)``).
/// Each rule is stated once here, so every engine (the builtin one too) and every task gets it.
public struct ItemMeaning: Sendable, Hashable {
    /// Fewest content words (not function words, not numbers).
    public let minimumContentWords: Int
    /// Fewest whitespace-separated words; also carried by the grammar.
    public let minimumWords: Int
    /// Whether the item is a sentence that must end as one (also carried by the grammar).
    public let isSentence: Bool
    /// Whether a number or a single term ("4", "1953", "ATP", "Sometimes") is an acceptable item
    /// on its own: then only pure function words ("and", "the") are refused, not a lack of content words.
    public let allowsBareTerm: Bool
    /// What the item is, for messages ("a key point").
    public let noun: String

    /// Creates a rule set for one kind of item.
    public init(
        noun: String, minimumContentWords: Int, minimumWords: Int = 1, isSentence: Bool = false,
        allowsBareTerm: Bool = false
    ) {
        self.noun = noun
        self.minimumContentWords = max(0, minimumContentWords)
        self.minimumWords = max(1, minimumWords)
        self.isSentence = isSentence
        self.allowsBareTerm = allowsBareTerm
    }

    /// A summary's key point: a sentence of at least 4 content words.
    public static let keyPoint = ItemMeaning(
        noun: "a key point", minimumContentWords: 4, minimumWords: 4, isSentence: true)
    /// A mind-map label: at least one content word (its word limit is the schema's).
    public static let label = ItemMeaning(noun: "a label", minimumContentWords: 1)
    /// A question (a card's, a quiz's): at least one content word in two words or more.
    public static let question = ItemMeaning(noun: "a question", minimumContentWords: 1, minimumWords: 2)
    /// A card's answer: a term, a number or a sentence.
    public static let answer = ItemMeaning(noun: "an answer", minimumContentWords: 1, allowsBareTerm: true)
    /// A quiz choice: may be a number or a single term ("4", "1953", "ATP").
    public static let choice = ItemMeaning(noun: "a choice", minimumContentWords: 1, allowsBareTerm: true)
    /// A podcast host's line: at least three words, one of them a content word (one sentence or several).
    public static let podcastLine = ItemMeaning(noun: "a line", minimumContentWords: 1, minimumWords: 3)
    /// A point of Feynman feedback: at least two content words.
    public static let feedbackPoint = ItemMeaning(noun: "a feedback point", minimumContentWords: 2, minimumWords: 2)

    /// The canonical form for schema fingerprints.
    var canonicalValue: JSONValue {
        [
            "noun": .string(noun), "minimumContentWords": .integer(minimumContentWords),
            "minimumWords": .integer(minimumWords),
            "sentence": .bool(isSentence), "bareTerm": .bool(allowsBareTerm),
        ]
    }
}
