import Foundation

/// The languages an engine declares it can read and write: any, or a list of BCP-47 primary
/// subtags (`en`, `fr`, `ja` …).
///
/// Defaults: the local engine (SmolLM2 in process, or a loopback server) is English only, since
/// SmolLM2-135M was trained on English; the remote engine accepts any language, since hosted
/// models are multilingual; the builtin engine accepts any (it extracts, it does not write).
/// `STUDYKIT_LOCAL_LANGUAGES` and `STUDYKIT_REMOTE_LANGUAGES` override them: a comma list
/// (`en,fr`) or `*` for any. The router skips an engine that does not support the document's
/// language; an undetermined language (`und`) is never a reason to skip.
public enum LanguageSupport: Sendable, Hashable, CustomStringConvertible {
    /// Every language.
    case any
    /// Only these languages.
    case only(Set<String>)

    /// English only: the default of local engines.
    public static let english = LanguageSupport.only(["en"])

    /// What an engine of `kind` supports when nothing is configured.
    public static func defaultFor(_ kind: EngineKind) -> LanguageSupport {
        kind == .local ? .english : .any
    }

    /// Whether an engine with this support may take a document in `language`; always `true`
    /// for an undetermined language (`und`).
    public func supports(_ language: String) -> Bool {
        guard language != LanguageDetector.undetermined else { return true }
        switch self {
        case .any: return true
        case .only(let codes): return codes.contains(language.lowercased())
        }
    }

    /// `*` (any), or the codes in order, comma-separated: the setting's own syntax.
    public var description: String {
        switch self {
        case .any: return "*"
        case .only(let codes): return codes.sorted().joined(separator: ",")
        }
    }

    /// For `studykit engines`: `any`, or the codes with their English names.
    public var displayText: String {
        switch self {
        case .any: return "any"
        case .only(let codes): return codes.sorted().map(LanguageDetector.displayName).joined(separator: ", ")
        }
    }

    /// Parses a setting: `*` (or `any`) for any language, else a comma list of 2–3 letter
    /// codes, optionally with a region (`pt-BR` counts as `pt`). `nil` when it is not one.
    public init?(setting: String) {
        let trimmed = setting.trimmingCharacters(in: .whitespaces)
        if trimmed == "*" || trimmed.lowercased() == "any" {
            self = .any
            return
        }
        var codes: Set<String> = []
        for part in trimmed.split(separator: ",") {
            let tag = part.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: "_", with: "-")
            let primary = tag.prefix { $0 != "-" }
            guard (2...3).contains(primary.count), primary.allSatisfy({ ("a"..."z").contains($0) }) else { return nil }
            codes.insert(String(primary))
        }
        guard !codes.isEmpty else { return nil }
        self = .only(codes)
    }
}
