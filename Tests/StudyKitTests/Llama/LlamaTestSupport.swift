#if LlamaCpp
import Foundation
import Testing
@testable import StudyKit

/// The in-process engine over the SmolLM2 model `scripts/setup` installs, shared by the suites
/// so the model loads once per test run. A missing model fails the tests; it never skips them.
/// These tests exercise the engine (loading, windows, grammars, cancellation), not a model's
/// writing, so they use the quickest installed model; the default model (Qwen) is what the
/// binary's own tests and `scripts/setup`'s proof run.
enum LlamaFixtures {
    static let hint = "run scripts/setup (it installs the SmolLM2 GGUF into .venv)"

    static func modelPath() throws -> String {
        try #require(LlamaEngine.defaultModelPath(models: [.smolLM2]).path, Comment(rawValue: hint))
    }

    /// One engine for every test that only needs *an* engine; its work is serialized anyway.
    static let shared: LlamaEngine? = LlamaEngine.defaultModelPath(models: [.smolLM2]).path.map {
        LlamaEngine(settings: LlamaEngine.Settings(modelPath: $0))
    }

    static func engine() throws -> LlamaEngine {
        try #require(shared, Comment(rawValue: hint))
    }

    /// The request the router sends for `task` over `document`.
    static func request(_ task: StudyTask, document: String, maximumResponseTokens: Int? = nil) -> GenerationRequest {
        let schema = task.generationSchema
        return GenerationRequest(
            instructions: task.instructions,
            prompt: task.prompt(
                document: document, title: nil, concept: task == .feynman ? "photosynthesis" : nil,
                explanation: task == .feynman ? "Plants use sunlight to turn water and carbon dioxide into sugar and oxygen." : nil),
            schemaName: task.name, jsonSchema: schema.jsonSchema(strict: false).compactText,
            strictJSONSchema: schema.jsonSchema(strict: true).compactText,
            options: GenerationOptions(sampling: .greedy, maximumResponseTokens: maximumResponseTokens ?? task.responseReserve))
    }

    static let photosynthesis = """
        Photosynthesis is the process plants use to turn light into chemical energy. It takes place in the \
        chloroplasts, which hold the green pigment chlorophyll. In the light reactions, water is split and \
        oxygen is released. In the Calvin cycle, carbon dioxide is fixed into sugar using the energy captured \
        from light. The sugar feeds the plant and, through food chains, almost every other living thing.
        """

    /// A temporary file holding `bytes`, removed by the caller.
    static func temporaryFile(_ bytes: Data, name: String = "model.gguf") throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-llama-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try bytes.write(to: url)
        return url
    }
}
#endif
