import Foundation

/// The language of a text: a BCP-47 primary language subtag (`en`, `fr`, `de`, `ja`, `zh`,
/// `ko` …), or `und` (BCP-47's "undetermined") when the text is too short or too mixed to tell.
///
/// The rule, in order:
/// 1. Count the letters of each script in the first ``sampleCharacters`` characters. When Han,
///    kana and Hangul together are at least ``minimumCJKCharacters`` and at least half as many
///    as the other letters, the script decides, since N-gram guessers are weak on CJK: any kana
///    (at least one in twenty of the Han and kana) → `ja`; more Hangul than Han and kana → `ko`;
///    otherwise Han → `zh`. Fewer CJK characters than that, with no other letters → `und`.
/// 2. Otherwise the text needs at least ``minimumWords`` words, else `und`: a line or a title
///    is too short to tell ("Cells divide." reads as Friulian to an N-gram guesser). When at
///    least ``englishFunctionWordShare`` of its words are English function words, it is `en`
///    at once: the classifier costs about 30 ms to load, and most material is English.
/// 3. libexttextcat (``TextCat``) classifies the sample; its answer counts only when every
///    candidate it names has the same language subtag. Several languages (it lists all those
///    scoring within a few percent of the best), "SHORT", "UNKNOWN", or no fingerprints → `und`.
enum LanguageDetector {
    /// BCP-47's code for a language that could not be determined.
    static let undetermined = "und"
    /// Fewest words a non-CJK text needs before it is classified.
    static let minimumWords = 20
    /// Fewest Han, kana and Hangul characters a CJK text needs.
    static let minimumCJKCharacters = 10
    /// How much of a long text is looked at.
    static let sampleCharacters = 4_000
    /// The share of English function words (``Stopwords/english``) from which a text is
    /// English without asking libexttextcat: English prose has about 45%, French or German under 10%.
    static let englishFunctionWordShare = 0.3

    /// What the detector made of a text.
    struct Guess: Equatable {
        /// The language, or ``LanguageDetector/undetermined``.
        var code: String
        /// Every language the guess allowed, best first: libexttextcat's candidates (their
        /// subtags, several when it is unsure), or the script's one language; empty when the text
        /// was too short to tell.
        var candidates: [String]

        var isDetermined: Bool { code != LanguageDetector.undetermined }
    }

    /// The language of `text`; see the type's rule.
    static func detect(_ text: String) -> String { guess(text).code }

    /// The language of `text` with the candidates behind it.
    static func guess(_ text: String, minimumWords: Int = minimumWords) -> Guess {
        let sample = String(text.prefix(sampleCharacters))
        if let code = scriptLanguage(ScriptCount(sample)) {
            return Guess(code: code, candidates: [code])
        }
        let words = sample.split(whereSeparator: \.isWhitespace).filter { $0.contains(where: \.isLetter) }
        guard words.count >= minimumWords else { return Guess(code: undetermined, candidates: []) }
        // English prose is about half function words ("the", "of", "is"); French, German or
        // Spanish prose has few of ours. Such text is English without loading the classifier.
        let english = words.count { Stopwords.english.contains(lettersOnly($0.lowercased())) }
        if Double(english) >= englishFunctionWordShare * Double(words.count) {
            return Guess(code: "en", candidates: ["en"])
        }
        guard let ids = TextCat.classify(sample), !ids.isEmpty else { return Guess(code: undetermined, candidates: []) }
        var candidates: [String] = []
        for id in ids {
            let code = String(id.prefix { $0 != "-" }).lowercased()
            if !code.isEmpty, !candidates.contains(code) { candidates.append(code) }
        }
        return Guess(code: candidates.count == 1 ? candidates[0] : undetermined, candidates: candidates)
    }

    /// `word` trimmed of what is not a letter at either end (`trimmingCharacters(in:
    /// .letters.inverted)`); for ASCII, where a letter is `A`–`Z` or `a`–`z`, without Foundation.
    private static func lettersOnly(_ word: String) -> String {
        let ascii = word.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            let isLetter = { (b: UInt8) in (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }
            guard let first = bytes.firstIndex(where: isLetter),
                let last = bytes.lastIndex(where: isLetter) else { return "" }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[first...last]), as: UTF8.self)
        }
        if let ascii, let ascii { return ascii }
        return word.trimmingCharacters(in: .letters.inverted)
    }

    /// `ja`, `ko` or `zh` when the CJK scripts decide (step 1 of the rule), else `nil`.
    static func scriptLanguage(_ scripts: ScriptCount) -> String? {
        let cjk = scripts.han + scripts.kana + scripts.hangul
        guard cjk >= minimumCJKCharacters, cjk * 2 >= scripts.otherLetters else { return nil }
        if scripts.kana > 0, scripts.kana * 20 >= scripts.han + scripts.kana { return "ja" }
        if scripts.hangul > scripts.han + scripts.kana { return "ko" }
        return "zh"
    }

    /// The English name of a language code (`fr` → `French`), or `nil` for one this table lacks.
    static func englishName(_ code: String) -> String? { names[code] }

    /// How messages and reports name a language: `French (fr)`, `undetermined (und)`, else the code.
    static func displayName(_ code: String) -> String {
        if code == undetermined { return "undetermined (und)" }
        return names[code].map { "\($0) (\(code))" } ?? code
    }

    private static let names: [String: String] = [
        "af": "Afrikaans", "ar": "Arabic", "bg": "Bulgarian", "bn": "Bengali", "ca": "Catalan", "cs": "Czech",
        "cy": "Welsh", "da": "Danish", "de": "German", "el": "Greek", "en": "English", "eo": "Esperanto",
        "es": "Spanish", "et": "Estonian", "eu": "Basque", "fa": "Persian", "fi": "Finnish", "fr": "French",
        "ga": "Irish", "gl": "Galician", "he": "Hebrew", "hi": "Hindi", "hr": "Croatian", "hu": "Hungarian",
        "hy": "Armenian", "id": "Indonesian", "is": "Icelandic", "it": "Italian", "ja": "Japanese", "ka": "Georgian",
        "ko": "Korean", "la": "Latin", "lt": "Lithuanian", "lv": "Latvian", "mk": "Macedonian", "ms": "Malay",
        "nb": "Norwegian Bokmål", "nl": "Dutch", "nn": "Norwegian Nynorsk", "pl": "Polish", "pt": "Portuguese",
        "ro": "Romanian", "ru": "Russian", "sk": "Slovak", "sl": "Slovenian", "sq": "Albanian", "sr": "Serbian",
        "sv": "Swedish", "sw": "Swahili", "ta": "Tamil", "th": "Thai", "tr": "Turkish", "uk": "Ukrainian",
        "ur": "Urdu", "vi": "Vietnamese", "zh": "Chinese",
    ]
}

/// The scripts of Chinese, Japanese and Korean, by code point: the one table the language
/// detector, the language rule and the builtin engine's Japanese terms share.
enum CJKScript {
    case han, hiragana, katakana, hangul

    /// The blocks of code points, each with its script, lowest first.
    static let blocks: [(range: ClosedRange<UInt32>, script: CJKScript)] = [
        (0x1100...0x11FF, .hangul), (0x3040...0x309F, .hiragana), (0x30A0...0x30FF, .katakana),
        (0x3130...0x318F, .hangul), (0x31F0...0x31FF, .katakana), (0x3400...0x4DBF, .han), (0x4E00...0x9FFF, .han),
        (0xAC00...0xD7AF, .hangul), (0xF900...0xFAFF, .han), (0xFF66...0xFF9D, .katakana), (0x20000...0x2FA1F, .han),
    ]

    /// The script of `scalar`, or `nil` for any other character.
    init?(_ scalar: Unicode.Scalar) {
        // Most characters of most material come before the first block.
        guard scalar.value >= 0x1100,
            let block = Self.blocks.first(where: { $0.range.contains(scalar.value) }) else { return nil }
        self = block.script
    }
}

/// Letters of `text` by script: Han, kana (hiragana, katakana, half-width katakana), Hangul,
/// and every other letter.
struct ScriptCount {
    var han = 0
    var kana = 0
    var hangul = 0
    var otherLetters = 0

    init(_ text: String) {
        for scalar in text.unicodeScalars {
            switch CJKScript(scalar) {
            case .hiragana, .katakana: kana += 1
            case .han: han += 1
            case .hangul: hangul += 1
            case nil: if scalar.properties.isAlphabetic { otherLetters += 1 }
            }
        }
    }
}
