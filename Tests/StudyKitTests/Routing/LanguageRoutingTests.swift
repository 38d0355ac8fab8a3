import Foundation
import Testing
@testable import StudyKit

@Suite("Routing by the document's language, with scripted engines")
struct LanguageRoutingTests {
    static let frenchText = """
        La photosynthèse permet aux plantes vertes de fabriquer leur propre nourriture à partir de la lumière du soleil. \
        Les feuilles captent la lumière grâce à la chlorophylle, un pigment vert présent dans les chloroplastes. \
        Les racines absorbent l'eau du sol, et les feuilles prennent le dioxyde de carbone de l'air par de petites ouvertures appelées stomates. \
        La plante produit ainsi du glucose, qui lui fournit de l'énergie, et rejette de l'oxygène dans l'atmosphère. \
        Sans photosynthèse, la vie animale sur Terre serait impossible.
        """
    static let french = Document(text: frenchText, title: nil, kind: .text, origin: "test")

    static let frenchHeadline = #"{"title":"La photosynthèse des plantes","blurb":"Les plantes vertes fabriquent leur nourriture à partir de la lumière du soleil grâce à la chlorophylle."}"#
    static let frenchSummary = #"""
        {"overview":"La photosynthèse permet aux plantes vertes de fabriquer leur propre nourriture à partir de la lumière du soleil. La plante produit du glucose et rejette de l'oxygène dans l'atmosphère.",
         "keyPoints":["Les feuilles captent la lumière grâce à la chlorophylle, un pigment vert.","Les racines absorbent l'eau du sol et les feuilles prennent le dioxyde de carbone de l'air.",
                      "Sans photosynthèse, la vie animale sur Terre serait impossible."]}
        """#
    /// The same summary in English: every field is a translation of the material, not the material.
    static let englishSummary = #"""
        {"overview":"Photosynthesis lets green plants make their own food from the light of the sun. The plant produces glucose for energy and releases oxygen into the atmosphere around it.",
         "keyPoints":["The leaves capture light thanks to chlorophyll, a green pigment.","The roots absorb water from the soil and the leaves take carbon dioxide from the air.",
                      "Without photosynthesis, animal life on Earth would be impossible."]}
        """#

    @Test func anEnglishOnlyLocalEngineIsSkippedWithTheReason() async throws {
        let local = ScriptedModel(.local, steps: [.answer(Self.frenchHeadline)])
        let remote = ScriptedModel(.remote, steps: [.answer(Self.frenchHeadline)])
        let routed = try await RoutingEngine(local: local, remote: remote).run(RoutingRequest(task: .headline, document: Self.french))
        #expect(routed.decision == .local)
        #expect(routed.engine == .remote)
        #expect(routed.fallbacks == [FallbackStep(engine: .local, reason: "does not support the document's language, French (fr) (it declares English (en))")])
        #expect(local.calls.respond == 0)
        #expect(local.calls.availability == 0)
        #expect(remote.calls.prompts.first?.contains("Answer in French") == true)
    }

    /// A request about material without Chinese, Japanese or Korean asks for an answer whose
    /// strings cannot hold them (the grammar excludes their blocks); about material with them,
    /// the request's schema lets them through.
    @Test func theGrammarOffersIdeographsOnlyForMaterialThatHasThem() async throws {
        let remote = ScriptedModel(.remote, steps: [.answer(Self.frenchHeadline)])
        _ = try await RoutingEngine(local: ScriptedModel(.local), remote: remote)
            .run(RoutingRequest(task: .headline, document: Self.french, useCache: false))
        let french = try #require(remote.calls.schemas.first)
        #expect(french.contains("u4e00-") && !french.contains("。"), "\(french)")

        let japaneseText = "光合成は、植物が光のエネルギーを使って二酸化炭素と水から糖を作るしくみである。葉の葉緑体で行われ、酸素が放出される。"
        let japanese = Document(text: japaneseText, title: nil, kind: .text, origin: "test")
        let server = ScriptedModel(.remote, steps: [.answer(#"{"title":"光合成","blurb":"植物は光のエネルギーで二酸化炭素と水から糖を作る。"}"#)])
        _ = try? await RoutingEngine(local: ScriptedModel(.local), remote: server)
            .run(RoutingRequest(task: .headline, document: japanese, useCache: false))
        let sent = try #require(server.calls.schemas.first)
        #expect(!sent.contains("u4e00-"), "\(sent)")
        #expect(sent == StudyTask.headline.generationSchema.jsonSchema(strict: false).compactText)
    }

    @Test func withNoEngineForTheLanguageTheBuiltinEngineAnswers() async throws {
        let local = ScriptedModel(.local)
        let remote = ScriptedModel(.remote, languages: .only(["en", "de"]))
        let routed = try await RoutingEngine(local: local, remote: remote).run(RoutingRequest(task: .summary, document: Self.french))
        #expect(routed.engine == .builtin)
        #expect(routed.fallbacks == [
            FallbackStep(engine: .remote, reason: "does not support the document's language, French (fr) (it declares German (de), English (en))"),
            FallbackStep(engine: .local, reason: "does not support the document's language, French (fr) (it declares English (en))"),
        ])
        #expect(local.calls.respond + remote.calls.respond == 0)
    }

    @Test func aForcedEngineThatDoesNotSupportTheLanguageIsAClearError() async throws {
        let local = ScriptedModel(.local, steps: [.answer(Self.frenchHeadline)])
        let router = RoutingEngine(local: local, remote: ScriptedModel(.remote))
        do {
            _ = try await router.run(RoutingRequest(task: .headline, document: Self.french, engine: .local))
            Issue.record("a forced English-only engine answered a French document")
        } catch let error as RoutingError {
            #expect(error == .unsupportedLanguage(.local, language: "fr", supported: .english))
            #expect(error.exitCode == .unavailable)
            #expect(error.message.contains("does not support the document's language, French (fr)"))
            #expect(error.message.contains("STUDYKIT_LOCAL_LANGUAGES"))
        }
        #expect(local.calls.respond == 0)
    }

    @Test func anEngineThatDeclaresTheLanguageIsUsed() async throws {
        let local = ScriptedModel(.local, steps: [.answer(Self.frenchHeadline)], languages: .only(["en", "fr"]))
        let routed = try await RoutingEngine(local: local, remote: ScriptedModel(.remote)).run(
            RoutingRequest(task: .headline, document: Self.french))
        #expect(routed.engine == .local)
        #expect(routed.fallbacks.isEmpty)
    }

    @Test func anUndeterminedLanguageRestrictsNothing() async throws {
        let document = Document(text: Self.frenchText, title: nil, kind: .text, origin: "test", language: "und")
        let local = ScriptedModel(.local, steps: [.answer(Self.frenchHeadline)])
        let routed = try await RoutingEngine(local: local, remote: ScriptedModel(.remote)).run(RoutingRequest(task: .headline, document: document))
        #expect(routed.engine == .local)
        #expect(local.calls.prompts.first?.contains("Answer in") == false)
    }

    @Test func anAnswerInTheWrongLanguageIsReaskedWithThatFeedback() async throws {
        let remote = ScriptedModel(.remote, steps: [.answer(Self.englishSummary), .answer(Self.frenchSummary)])
        let routed = try await RoutingEngine(local: ScriptedModel(.local), remote: remote).run(
            RoutingRequest(task: .summary, document: Self.french))
        #expect(routed.engine == .remote)
        #expect(routed.reasked)
        let reask = try #require(remote.calls.prompts.last)
        #expect(reask.contains("overview is written in English, but the material is in French: write it in French"))
        guard case .summary(let summary) = routed.result else { Issue.record("not a summary"); return }
        #expect(summary.overview.hasPrefix("La photosynthèse"))
    }

    @Test func anAnswerStillInTheWrongLanguageFallsBack() async throws {
        let remote = ScriptedModel(.remote, steps: [.answer(Self.englishSummary), .answer(Self.englishSummary)])
        let routed = try await RoutingEngine(local: ScriptedModel(.local), remote: remote).run(
            RoutingRequest(task: .summary, document: Self.french))
        #expect(routed.engine == .builtin)
        #expect(routed.fallbacks.first?.engine == .remote)
        #expect(routed.fallbacks.first?.reason.contains("is written in English, but the material is in French") == true)
    }

    @Test func theCacheKeyCoversTheLanguage() throws {
        let engine = ScriptedModel(.remote)
        let french = StudyTask.summary.prompt(document: Self.frenchText, title: nil, language: "fr")
        let unmarked = StudyTask.summary.prompt(document: Self.frenchText, title: nil, language: "und")
        let one = try RoutingEngine.cacheKey(task: .summary, engine: engine, prompt: french, fitted: false)
        let other = try RoutingEngine.cacheKey(task: .summary, engine: engine, prompt: unmarked, fitted: false)
        #expect(one != other)
    }
}

@Suite("The language rule")
struct LanguageRuleTests {
    static let englishSentence = "Photosynthesis lets green plants make their own food from the light of the sun and release the oxygen that animals breathe."

    @Test func shortFieldsOfAnEnglishDocumentAreNeverJudged() {
        let value: JSONValue = ["title": "Cells", "blurb": "Mitosis splits one cell.", "labels": ["ATP", "Calvin cycle", "Rubisco"]]
        #expect(LanguageRule.issues(in: value, language: "en").isEmpty)
        // Nor are short French fields of a French document, or short English ones: too short to tell.
        #expect(LanguageRule.issues(in: ["title": "La cellule", "blurb": "Splits one cell."], language: "fr").isEmpty)
    }

    @Test func chineseCharactersInAnAnswerOnMaterialWithoutAnyAreNamed() {
        // Qwen2.5-Coder-0.5B on samples/notes.pdf: one word in another script, too short for the language check.
        let value: JSONValue = ["overview": "The Calvin cycle uses that energy to build sugar from二氧化碳.", "keyPoints": ["Light reactions make ATP."]]
        let material = "The Calvin cycle uses that energy to build sugar from carbon dioxide."
        #expect(LanguageRule.issues(in: value, language: "en").isEmpty)
        let issues = LanguageRule.scriptIssues(in: value, material: material)
        #expect(issues.map(\.path) == ["overview"])
        #expect(issues.first?.message.contains("Chinese, Japanese or Korean") == true)
        // Material that has such characters may be quoted in them.
        #expect(LanguageRule.scriptIssues(in: value, material: material + " 二氧化碳").isEmpty)
        #expect(LanguageRule.scriptIssues(in: ["overview": "Plain English."], material: material).isEmpty)
    }

    @Test func aLongFieldInAnotherLanguageIsNamed() {
        let value: JSONValue = ["overview": .string(Self.englishSentence), "keyPoints": ["Les feuilles captent la lumière."]]
        let issues = LanguageRule.issues(in: value, language: "fr")
        #expect(issues == [ValidationIssue(path: "overview", message: "is written in English, but the material is in French: write it in French")])
        #expect(LanguageRule.issues(in: value, language: "en").isEmpty)
        #expect(LanguageRule.issues(in: value, language: "und").isEmpty)
    }

    @Test func shortFieldsAreJudgedJoined() {
        let labels = ["green plants make food", "light of the sun", "oxygen that animals breathe", "roots take water from the soil", "leaves open their stomata"]
        let value: JSONValue = ["centralTopic": "Photosynthesis", "labels": .array(labels.map(JSONValue.string))]
        let issues = LanguageRule.issues(in: value, language: "de")
        #expect(issues.count == 1)
        #expect(issues.first?.path == "")
        #expect(issues.first?.message.hasPrefix("is written in English, but the material is in German") == true)
    }

    @Test func japaneseAcceptsKanjiOnlyTextAndRefusesEnglish() {
        let kanji: JSONValue = ["terms": "光合成葉緑体二酸化炭素水素酸素気孔細胞呼吸植物動物"]
        #expect(LanguageRule.issues(in: kanji, language: "ja").isEmpty)
        #expect(LanguageRule.issues(in: ["overview": .string(Self.englishSentence)], language: "ja").count == 1)
    }
}
