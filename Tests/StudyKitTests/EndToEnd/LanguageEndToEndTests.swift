import Foundation
import Testing
@testable import StudyKit

/// French and Japanese samples through the `studykit` binary. The local engine is a loopback
/// server that is not running: an English-only engine is skipped for its language before it is
/// ever contacted, so no model is needed, and with `STUDYKIT_LOCAL_LANGUAGES` it is tried (and
/// found down) instead.
@Suite("studykit binary: the document's language")
struct LanguageEndToEndTests {
    static func environment(_ cache: ScratchDirectory, _ extra: [String: String] = [:]) -> [String: String] {
        ["STUDYKIT_CACHE_DIR": cache.url.path, "STUDYKIT_LOCAL_URL": "http://127.0.0.1:9"].merging(extra) { $1 }
    }

    static func json(_ result: StudykitBinary.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
    }

    static func fallbacks(_ object: [String: Any]) -> [String] {
        ((object["fallbacks"] as? [[String: Any]]) ?? []).map { "\($0["engine"] ?? "?"): \($0["reason"] ?? "?")" }
    }

    @Test(arguments: [
        ("eval/fr-tectonique.txt", "fr"), ("eval/fr-revolution-industrielle.txt", "fr"), ("eval/ja-kazan.txt", "ja"),
        ("eval/ja-edo-keizai.txt", "ja"), ("eval/ja-kazan.pdf", "ja"), ("paste.txt", "en"), ("notes.pdf", "en"),
    ])
    func theSourceCarriesItsLanguage(sample: String, language: String) async throws {
        let cache = try ScratchDirectory("lang")
        let result = try await StudykitBinary.run(
            ["headline", "samples/" + sample, "--engine", "builtin", "--json"], environment: Self.environment(cache))
        #expect(result.status == 0, "\(result.stderr)")
        let source = try #require(try Self.json(result)["source"] as? [String: Any])
        #expect(source["language"] as? String == language)
    }

    @Test(arguments: ["samples/eval/ja-kazan.txt", "samples/eval/ja-kazan.pdf"])
    func aJapaneseKitComesFromTheBuiltinEngineAndSaysWhy(sample: String) async throws {
        let cache = try ScratchDirectory("lang")
        let result = try await StudykitBinary.run(["import", sample, "--json"], environment: Self.environment(cache))
        #expect(result.status == 0, "\(result.stderr)")
        let object = try Self.json(result)
        let parts = try #require(object["parts"] as? [[String: Any]])
        #expect(parts.count == 5)
        for part in parts {
            #expect(part["engine"] as? String == "builtin")
            #expect(Self.fallbacks(part).contains("local: does not support the document's language, Japanese (ja) (it declares English (en))"), "\(part["task"] ?? "?"): \(Self.fallbacks(part))")
        }
        // The kit itself is Japanese, and its cards blank Japanese terms, not particles.
        let result_ = try #require(object["result"] as? [String: Any])
        let cards = try #require((result_["flashcards"] as? [String: Any])?["cards"] as? [[String: Any]])
        let answers = cards.compactMap { $0["answer"] as? String }
        #expect(answers.count >= 5)
        #expect(answers.contains("マグマ"))
        #expect(answers.allSatisfy { $0.count >= 2 && !$0.unicodeScalars.contains { (0x3040...0x309F).contains($0.value) } }, "\(answers)")
    }

    @Test(arguments: ["samples/eval/fr-tectonique.txt", "samples/eval/fr-revolution-industrielle.txt"])
    func frenchCardsBlankTermsNotFunctionWords(sample: String) async throws {
        let cache = try ScratchDirectory("lang")
        let result = try await StudykitBinary.run(["flashcards", sample, "--engine", "builtin", "--json"], environment: Self.environment(cache))
        #expect(result.status == 0, "\(result.stderr)")
        let cards = try #require((try Self.json(result)["result"] as? [String: Any])?["cards"] as? [[String: Any]])
        let answers = cards.compactMap { $0["answer"] as? String }
        #expect(answers.count >= 8)
        let functionWords = answers.filter { answer in
            answer.split(separator: " ").contains { Stopwords.french.contains($0.lowercased()) }
        }
        #expect(functionWords.isEmpty, "\(answers)")
    }

    @Test func aForcedEngineWithoutTheLanguageIsOneLineAndExit69() async throws {
        let cache = try ScratchDirectory("lang")
        let result = try await StudykitBinary.run(
            ["flashcards", "samples/eval/fr-tectonique.txt", "--engine", "local"], environment: Self.environment(cache))
        #expect(result.status == 69)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "studykit: the local engine does not support the document's language, French (fr) (it declares English (en)); add fr to STUDYKIT_LOCAL_LANGUAGES if its model writes it, or use --engine builtin or drop --engine\n")
    }

    @Test func anEngineDeclaringTheLanguageIsTried() async throws {
        let cache = try ScratchDirectory("lang")
        let result = try await StudykitBinary.run(
            ["headline", "samples/eval/ja-kazan.txt", "--json"], environment: Self.environment(cache, ["STUDYKIT_LOCAL_LANGUAGES": "en,ja"]))
        #expect(result.status == 0, "\(result.stderr)")
        let object = try Self.json(result)
        #expect(object["engine"] as? String == "builtin")
        let local = try #require(Self.fallbacks(object).first)
        // Tried, so it failed for another reason: the server is not there.
        #expect(local.hasPrefix("local: "))
        #expect(!local.contains("does not support"))
    }

    @Test func enginesShowTheirLanguages() async throws {
        let cache = try ScratchDirectory("lang")
        let result = try await StudykitBinary.run(
            ["engines", "--json"],
            environment: Self.environment(cache, ["STUDYKIT_REMOTE_URL": "http://127.0.0.1:9", "STUDYKIT_REMOTE_LANGUAGES": "en,fr"]))
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [[String: Any]])
        let languages = Dictionary(uniqueKeysWithValues: rows.map { ($0["engine"] as? String ?? "?", $0["languages"] as? String ?? "?") })
        #expect(languages == ["local": "English (en)", "remote": "English (en), French (fr)", "builtin": "any"])
    }
}
