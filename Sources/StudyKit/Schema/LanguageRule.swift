import Foundation

/// An answer must be written in the document's language: a model told "Answer in French" may
/// still answer in English, and that is as wrong for a French student as an invented fact.
///
/// Only text long enough to tell is judged, so short fields (a label, a term, a name) and
/// technical words never trip it: each string field of ``minimumWords`` words or more (or
/// ``minimumCJKCharacters`` Chinese, Japanese or Korean characters) is checked on its own; when
/// no field is that long and the document is not in English, all the fields joined are checked
/// as one text. A text fails only when ``LanguageDetector`` names one or two candidate
/// languages for it and the document's is not among them; Han-only text passes for Japanese
/// (kanji compounds are Japanese too). Nothing is checked when the document's language is
/// undetermined (`und`).
enum LanguageRule {
    /// Words a field needs before its language is judged.
    static let minimumWords = 20
    /// Han, kana or Hangul characters a field needs before its language is judged.
    static let minimumCJKCharacters = 20

    /// One issue per field (or one for the whole result) written in another language than `language`.
    static func issues(in value: JSONValue, language: String) -> [ValidationIssue] {
        guard language != LanguageDetector.undetermined else { return [] }
        var fields: [(path: String, text: String)] = []
        collect(value, path: "", into: &fields)
        let long = fields.filter { isLongEnough($0.text) }
        // Joined short fields are a list of terms more than prose: judged only for a document
        // that is not in English, where an English answer is the mistake to catch.
        let joined = language == "en" ? []
            : [(path: "", text: fields.map(\.text).joined(separator: "\n"))].filter { isLongEnough($0.text) }
        let judged = long.isEmpty ? joined : long
        return judged.compactMap { field in
            guard let found = otherLanguage(of: field.text, expected: language) else { return nil }
            let expectedName = LanguageDetector.englishName(language) ?? language
            let foundName = LanguageDetector.englishName(found) ?? found
            return ValidationIssue(
                path: field.path,
                message: "is written in \(foundName), but the material is in \(expectedName): "
                    + "write it in \(expectedName)")
        }
    }

    /// One issue per string field that writes Chinese, Japanese or Korean characters when the
    /// material has none: a multilingual model (Qwen) sometimes switches script mid-sentence
    /// ("build sugar from二氧化碳"), too briefly for the language check above to see it.
    static func scriptIssues(in value: JSONValue, material: String) -> [ValidationIssue] {
        scriptIssues(in: value, materialUsesCJK: usesCJK(material))
    }

    /// ``scriptIssues(in:material:)`` with the material read once (``usesCJK(_:)``), for many answers on one material.
    static func scriptIssues(in value: JSONValue, materialUsesCJK: Bool) -> [ValidationIssue] {
        guard !materialUsesCJK else { return [] }
        var fields: [(path: String, text: String)] = []
        collect(value, path: "", into: &fields)
        return fields.compactMap { field in
            guard usesCJK(field.text) else { return nil }
            return ValidationIssue(
                path: field.path,
                message: "has Chinese, Japanese or Korean characters, which the material does not use; "
                    + "write it in the material's language")
        }
    }

    /// Whether `text` has any Chinese, Japanese or Korean character.
    static func usesCJK(_ text: String) -> Bool {
        let scripts = ScriptCount(text)
        return scripts.han + scripts.kana + scripts.hangul > 0
    }

    /// Whether `text` is long enough for its language to be judged.
    static func isLongEnough(_ text: String) -> Bool {
        let scripts = ScriptCount(text)
        if scripts.han + scripts.kana + scripts.hangul >= minimumCJKCharacters { return true }
        return text.split(whereSeparator: \.isWhitespace).count { $0.contains(where: \.isLetter) } >= minimumWords
    }

    /// The language `text` is in when the detector is fairly sure it is not `expected`, else
    /// `nil`: libexttextcat names at most two candidates (English text often reads as English
    /// or Scots) and `expected` is not one of them.
    static func otherLanguage(of text: String, expected: String) -> String? {
        let candidates = LanguageDetector.guess(text, minimumWords: minimumWords).candidates
        guard let first = candidates.first, candidates.count <= 2, !candidates.contains(expected) else { return nil }
        if expected == "ja", candidates.contains("zh") { return nil }
        return first
    }

    private static func collect(_ value: JSONValue, path: String, into fields: inout [(path: String, text: String)]) {
        switch value {
        case .string(let text): fields.append((path, text))
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                collect(element, path: JSONPath.index(path, index), into: &fields)
            }
        case .object(let object):
            for (key, element) in object { collect(element, path: JSONPath.member(path, key), into: &fields) }
        case .null, .bool, .integer, .number: break
        }
    }
}
