import Foundation
import Testing
@testable import StudyKit

/// A server engine measures its own speeds on its streamed answers (#53): after one streamed
/// answer of a real llama.cpp server (SmolLM2 on loopback, our own so no other test's request
/// interrupts the stream) it knows how fast the server read the prompt and wrote the answer,
/// and a whole part on it is estimated from them; before any answer it knows nothing.
@Suite("Integration: a server's measured speed")
struct ServerSpeedIntegrationTests {
    @Test func aStreamedAnswerMeasuresTheServersSpeeds() async throws {
        let server = try await OwnModelServer.start(contextSize: 2048, alias: "smollm2-135m-own")
        var failures: [String] = []
        do {
            let endpoint = EngineConfiguration.Endpoint(
                url: URL(string: server.url)!, model: "smollm2-135m-own", contextSize: 2048,
                contextSizeSetting: "STUDYKIT_REMOTE_CONTEXT_SIZE", languages: .any)
            let engine = OpenAICompatibleEngine(kind: .remote, endpoint: endpoint, deadline: 600)
            if await engine.measuredSpeed(calibrate: true) != nil { failures.append("a speed before any answer") }
            let material = try String(contentsOf: TestPaths.samples.appendingPathComponent("paste.txt"), encoding: .utf8)
            let request = GenerationRequest(
                instructions: "Write a headline for the material.", prompt: material,
                jsonSchema: Headline.generationSchema.jsonSchema(strict: false).compactText,
                options: GenerationOptions(sampling: .greedy, maximumResponseTokens: 48))
            var answer: RawResponse?
            for try await event in engine.streamResponse(to: request) {
                if case .completed(let response) = event { answer = response }
            }
            let written = answer?.usage.completionTokens ?? 0
            if written < ServerSpeedMeter.minimumAnswerTokens { failures.append("the answer had only \(written) tokens") }
            if let speed = await engine.measuredSpeed(calibrate: false) {
                if !(speed.promptTokensPerSecond > 0 && speed.decodeTokensPerSecond > 0) { failures.append("\(speed)") }
                // The part's estimate is the server's own: prompt and answer at their speeds.
                let router = RoutingEngine(local: UnconfiguredEngine(kind: .local, reason: "not in this test"), remote: engine)
                let key = RoutingEngine.partKey(engine, task: .summary)
                let expected = await router.recorder.expectedSeconds(engine, key: key, promptTokens: 700, responseTokens: 300)
                let own = speed.seconds(promptTokens: 700, responseTokens: 300)
                if abs(expected - own) > 0.001 { failures.append("estimated \(expected) s, not the speeds' \(own) s") }
            } else {
                failures.append("no speed after a streamed answer of \(written) tokens")
            }
        } catch {
            failures.append(String(describing: error))
        }
        await server.stop()
        #expect(failures.isEmpty, "\(failures)")
    }
}
