import Foundation

// MARK: - Negation

/// Words that turn a statement into its opposite ("not", "never", "can't"): the Feynman claim
/// check, the item rules and the claim check of a model's key point all ask the same question.
enum Negation {
    /// Words that negate what follows them.
    static func isNegator(_ word: String) -> Bool {
        ["not", "never", "no", "without", "cannot", "nor", "neither"].contains(word) || word.hasSuffix("n't")
            || word.hasSuffix("n’t")
    }
}

// MARK: - Stopwords

/// English function words that carry no topic on their own, and French ones (``french``).
///
/// The ranker ignores them when it compares sentences, and the keyphrase extractor uses them as
/// phrase boundaries (RAKE). The list is our own: articles, pronouns, auxiliaries, prepositions,
/// conjunctions, common adverbs and a few verbs so generic ("use", "make") that they would
/// otherwise glue unrelated phrases together. Entries are lower-case; apostrophes are stored
/// both straight and curly because sources use either.
enum Stopwords {
    /// Returns whether a lower-cased word is a stopword.
    static func contains(_ lowercasedWord: String) -> Bool {
        words.contains(lowercasedWord)
    }

    static let words: Set<String> = english.union(french)

    /// The English function words alone.
    static let english: Set<String> = {
        let base: [String] = [
            // articles, determiners, quantifiers
            "a", "an", "the", "this", "that", "these", "those", "some", "any", "each", "every",
            "all", "both", "either", "neither", "no", "none", "other", "another", "such", "own",
            "same", "few", "more", "most", "much", "many", "several", "less", "least", "enough",
            // pronouns
            "i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "ourselves", "you",
            "your", "yours", "yourself", "yourselves", "he", "him", "his", "himself", "she", "her",
            "hers", "herself", "it", "its", "itself", "they", "them", "their", "theirs",
            "themselves", "what", "which", "who", "whom", "whose", "whoever", "whatever",
            "one", "ones", "something", "anything", "everything", "nothing", "someone", "anyone",
            "everyone",
            // auxiliaries and copulas
            "am", "is", "are", "was", "were", "be", "been", "being", "have", "has", "had",
            "having", "do", "does", "did", "doing", "done", "will", "would", "shall", "should",
            "can", "could", "may", "might", "must", "ought", "get", "gets", "got", "getting",
            // prepositions
            "about", "above", "across", "after", "against", "along", "among", "around", "as",
            "at", "before", "behind", "below", "beneath", "beside", "besides", "between",
            "beyond", "by", "despite", "down", "during", "except", "for", "from", "in", "inside",
            "into", "like", "near", "of", "off", "on", "onto", "out", "outside", "over", "past",
            "per", "since", "through", "throughout", "till", "to", "toward", "towards", "under",
            "underneath", "until", "up", "upon", "via", "with", "within", "without",
            // conjunctions and connectives
            "and", "but", "or", "nor", "so", "yet", "if", "then", "than", "because", "although",
            "though", "while", "whereas", "unless", "whether", "however", "therefore", "thus",
            "hence", "also", "moreover", "furthermore", "meanwhile", "otherwise", "instead",
            "namely", "i.e", "e.g", "etc", "vs",
            // adverbs
            "not", "only", "very", "too", "just", "even", "still", "already", "again", "ever",
            "never", "always", "often", "sometimes", "usually", "here", "there", "where", "when",
            "why", "how", "now", "once", "well", "rather", "quite", "almost", "perhaps", "really",
            "simply", "mostly", "mainly", "first", "second", "finally", "later", "soon",
            // generic verbs and nouns that join everything to everything
            "use", "uses", "used", "using", "make", "makes", "made", "making", "called", "known",
            "take", "takes", "took", "taken", "give", "gives", "gave", "given", "become", "becomes",
            "became", "turn", "turns", "turned", "need", "needs", "keep", "keeps", "let", "lets",
            "way", "ways", "thing", "things", "lot", "kind", "part", "parts",
            // contractions
            "can't", "cannot",
            "don't", "doesn't", "isn't", "aren't", "wasn't", "weren't", "it's", "that's",
            "there's", "let's", "we're", "they're", "you're", "i'm", "won't", "didn't",
        ]
        var set = Set(base)
        for word in base where word.contains("'") {
            set.insert(word.replacingOccurrences(of: "'", with: "\u{2019}"))
        }
        return set
    }()

    /// French function words, so the builtin engine neither blanks "elle" or "sous" in a cloze
    /// card nor names a mind-map branch "de la": articles, pronouns, the forms of être and avoir,
    /// prepositions, conjunctions and common adverbs. Words that are also English content
    /// words or lower-cased English acronyms are left out ("car", "son", "ton", "ai", "eu",
    /// "si"), so an English text keeps its terms ("pour" is in: a verb is no English term either). Elided forms (l',
    /// d', qu') are split off by ``TermNormalizer/words(in:)``, so "l" and "d" are here too.
    static let french: Set<String> = [
        // articles and determiners
        "le", "la", "les", "l", "un", "une", "des", "du", "de", "d", "au", "aux", "ce", "cet", "cette", "ces",
        "mon", "ma", "mes", "ta", "tes", "sa", "ses", "notre", "nos", "votre", "vos", "leur", "leurs",
        "quelques", "chaque", "plusieurs", "tout", "toute", "tous", "toutes", "autre", "autres", "même", "mêmes",
        // pronouns
        "je", "j", "tu", "il", "elle", "nous", "vous", "ils", "elles", "on", "se", "s", "me", "m", "te", "t",
        "lui", "eux", "y", "en", "qui", "que", "qu", "quoi", "dont", "où", "lequel", "laquelle", "lesquels",
        "lesquelles", "celui", "celle", "ceux", "celles", "ceci", "cela", "ça", "c",
        // être, avoir and a few auxiliaries
        "est", "sont", "être", "été", "était", "étaient", "sera", "seront", "soit", "suis", "es", "sommes",
        "êtes", "as", "avons", "avez", "ont", "avait", "avaient", "avoir", "peut", "peuvent", "doit",
        "doivent",
        // prepositions
        "à", "dans", "par", "sur", "sous", "avec", "sans", "entre", "vers", "chez", "depuis", "pendant",
        "selon", "contre", "parmi", "avant", "après", "jusqu", "lors", "pour",
        // conjunctions and connectives
        "et", "ou", "mais", "donc", "or", "ni", "puis", "comme", "lorsque", "lorsqu", "quand", "puisque",
        "puisqu", "parce", "ainsi", "alors", "enfin", "aussi", "cependant", "pourtant",
        // adverbs
        "ne", "n", "pas", "plus", "moins", "très", "trop", "peu", "bien", "encore", "déjà", "toujours", "souvent",
        "jamais", "ici", "là", "aujourd'hui", "surtout", "environ", "seulement", "d'abord", "ensuite",
        // ordinals used as adverbs ("first" and "second" are English stopwords too)
        "premier", "première", "premiers", "premières", "dernier", "dernière", "deuxième",
    ]
}
