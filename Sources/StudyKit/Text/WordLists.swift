// MARK: - English word lists the builtin engine and the item rewriter share

/// Closed lists of English words: the builtin engine's term finding (`KeyphraseExtractor`,
/// `ClozeBuilder`) and the item rewriter's checks of a question's form read them.
enum WordLists {
    /// The months' names, lower-cased.
    static let monthNames: Set<String> = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
        "november", "december",
    ]

    /// Common past tenses of verbs that are nouns too, so absent from the irregular forms of the
    /// builtin engine's `EnglishWordClass` ("go", "make", "hold"): inside a phrase after its first
    /// word, a verb ("Executive power went", "Assembly held").
    static let pastTensesOfNounVerbs: Set<String> = [
        "went", "came", "gave", "took", "made", "became", "began", "brought", "bought", "told", "held", "kept",
        "met", "paid", "sent", "spent", "stood", "thought", "won", "led", "knew", "grew", "drew", "chose",
        "spoke", "sought", "taught", "fought", "caught", "sold", "ran", "sat", "flew", "threw", "swore", "shook",
        "struck", "rode", "hid", "fled", "withdrew", "undertook", "overthrew", "forbade", "said",
    ]
}
