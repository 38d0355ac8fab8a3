import Foundation
import Testing
@testable import StudyKit

@Suite("Language detection")
struct LanguageDetectorTests {
    static let english = "The mitochondria is the part of the cell that releases energy from food. It breaks glucose down with oxygen and stores the energy as ATP for the rest of the cell."
    static let french = "La photosynthèse permet aux plantes vertes de fabriquer leur propre nourriture à partir de la lumière du soleil. Les feuilles captent la lumière grâce à la chlorophylle."
    static let german = "Die Photosynthese ist der Vorgang, bei dem grüne Pflanzen mit Hilfe des Sonnenlichts aus Wasser und Kohlendioxid Zucker herstellen und dabei Sauerstoff an die Luft abgeben."
    static let japanese = "光合成は、植物が光のエネルギーを使って、水と二酸化炭素からでんぷんなどの養分をつくるはたらきである。"
    static let chinese = "光合作用是绿色植物利用光能，把二氧化碳和水转化为储存能量的有机物，并且释放出氧气的过程。"
    static let korean = "광합성은 식물이 빛 에너지를 이용하여 물과 이산화탄소로 포도당을 만들고 산소를 내보내는 과정이다."

    @Test(arguments: [
        ("English", english, "en"), ("French", french, "fr"), ("German", german, "de"), ("Japanese", japanese, "ja"),
        ("Chinese", chinese, "zh"), ("Korean", korean, "ko"),
        ("a short line", "Cells divide.", "und"), ("a short French line", "Bonjour tout le monde", "und"),
        ("a few kanji", "光合成", "und"), ("digits only", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21", "und"),
        ("Japanese with English terms", "ATPとNADPHは、光化学系IIとPhotosystem Iでつくられ、カルビン回路で使われる。", "ja"),
    ])
    func detects(name: String, text: String, expected: String) {
        #expect(LanguageDetector.detect(text) == expected, "\(name)")
    }

    @Test func aDocumentCarriesItsLanguageAndACallerMaySetIt() {
        #expect(Document(text: Self.french, title: nil, kind: .text, origin: "t").language == "fr")
        #expect(Document(text: "Cells divide.", title: nil, kind: .text, origin: "t").languageIsDetermined == false)
        #expect(Document(text: Self.english, title: nil, kind: .text, origin: "t", language: "de").language == "de")
    }

    @Test func aLongDocumentIsJudgedOnItsOpening() {
        // English front matter does not decide a long French text, nor French a long English one.
        let text = String(repeating: Self.french + "\n\n", count: 40)
        #expect(LanguageDetector.detect(text) == "fr")
    }

    @Test(arguments: [
        ("*", LanguageSupport.any), ("any", .any), ("en", .only(["en"])), (" en, FR ,ja", .only(["en", "fr", "ja"])),
        ("pt-BR,zh_Hant", .only(["pt", "zh"])),
    ])
    func languageSettingsParse(setting: String, expected: LanguageSupport) {
        #expect(LanguageSupport(setting: setting) == expected)
    }

    @Test(arguments: ["", ",", "english", "e1", "fr;de"])
    func badLanguageSettingsAreRefused(setting: String) {
        #expect(LanguageSupport(setting: setting) == nil)
    }

    @Test func supportIgnoresAnUndeterminedLanguage() {
        #expect(LanguageSupport.english.supports("en"))
        #expect(!LanguageSupport.english.supports("fr"))
        #expect(LanguageSupport.english.supports("und"))
        #expect(LanguageSupport.any.supports("ja"))
        #expect(LanguageSupport.defaultFor(.local) == .english)
        #expect(LanguageSupport.defaultFor(.remote) == .any)
    }

    @Test func aBadLanguageSettingIsAConfigurationError() throws {
        #expect(throws: EngineError.self) {
            _ = try EngineConfiguration.resolve(environment: ["STUDYKIT_LOCAL_LANGUAGES": "english"], fileText: nil)
        }
        let configuration = try EngineConfiguration.resolve(
            environment: [
                "STUDYKIT_LOCAL_URL": "http://127.0.0.1:9", "STUDYKIT_LOCAL_LANGUAGES": "en,fr",
                "STUDYKIT_REMOTE_URL": "https://api.example.com", "STUDYKIT_REMOTE_LANGUAGES": "en",
            ], fileText: nil)
        #expect(configuration.localEngine().languages == .only(["en", "fr"]))
        #expect(configuration.remoteEngine().languages == .english)
        let defaults = try EngineConfiguration.resolve(
            environment: ["STUDYKIT_LOCAL_URL": "http://127.0.0.1:9", "STUDYKIT_REMOTE_URL": "https://api.example.com"], fileText: nil)
        #expect(defaults.localEngine().languages == .english)
        #expect(defaults.remoteEngine().languages == .any)
    }

    @Test func promptsAskForTheDocumentsLanguage() {
        let french = StudyTask.summary.prompt(document: Self.french, title: nil, language: "fr")
        #expect(french.hasSuffix("Answer in French: write every text field in French, the language of the material."))
        #expect(StudyTask.quiz.prompt(document: Self.japanese, title: nil, language: "ja").contains("Answer in Japanese"))
        // English and undetermined documents keep the prompt they had (and their cache keys).
        let plain = StudyTask.summary.prompt(document: Self.english, title: nil)
        #expect(StudyTask.summary.prompt(document: Self.english, title: nil, language: "en") == plain)
        #expect(StudyTask.summary.prompt(document: Self.english, title: nil, language: "und") == plain)
        #expect(!plain.contains("Answer in"))
    }
}
