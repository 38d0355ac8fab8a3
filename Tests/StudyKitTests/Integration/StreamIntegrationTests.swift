import Foundation
import Testing
@testable import StudyKit

/// `--stream` into a pipe: the preview is written line by line with no escape sequences, and
/// stdout ends with the same rendering a run without `--stream` prints.
///
/// The model names are configured: without them the cache misses (see
/// ``CacheIntegrationTests/theCacheHitsWhenTheServerNamesTheModel()``), and the final
/// rendering is read back from the cache. Runs against our own server: llama-cpp-python interrupts a streaming answer as soon as any
/// other request reaches the same server, so on the shared servers (used by parallel tests and
/// other people) the stream is cut at random and the job falls back.
@Suite("Integration: --stream through the binary")
struct StreamIntegrationTests {
    @Test func streamedHeadlineAndSummaryArePlainAndEndWithTheFinalRendering() async throws {
        let server = try await OwnModelServer.start(contextSize: 8192, alias: "smollm2-135m-own")
        let paste = try Data(contentsOf: TestPaths.samples.appendingPathComponent("paste.txt"))
        let closed = try LoopbackPorts.closedURL()
        var failures: [String] = []
        do {
            // headline prefers local: the server is local, remote is down.
            try await Self.check(
                ["headline"], stdin: paste, preview: "title: ",
                environment: [
                    "STUDYKIT_LOCAL_URL": server.url, "STUDYKIT_LOCAL_MODEL": "smollm2-135m-own", "STUDYKIT_LOCAL_CONTEXT_SIZE": "8192",
                    "STUDYKIT_REMOTE_URL": closed,
                ],
                expectedEngine: "local")
            // summary prefers remote: the server is remote, local is down.
            try await Self.check(
                ["summary", "samples/paste.txt"], stdin: nil, preview: "overview: ",
                environment: [
                    "STUDYKIT_REMOTE_URL": server.url, "STUDYKIT_REMOTE_API_KEY": "unused", "STUDYKIT_REMOTE_CONTEXT_SIZE": "8192",
                    "STUDYKIT_REMOTE_MODEL": "smollm2-135m-own",
                    "STUDYKIT_LOCAL_URL": closed,
                ],
                expectedEngine: "remote")
        } catch {
            failures.append(String(describing: error))
        }
        await server.stop()
        #expect(failures.isEmpty, "\(failures)")
    }

    /// Streams `arguments`, then asks again with `--json` (a cache hit when the streamed answer
    /// was accepted) and, when it was, once more for the plain rendering, which the streamed
    /// stdout must end with.
    private static func check(
        _ arguments: [String], stdin: Data?, preview: String, environment: [String: String], expectedEngine: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let cache = try ScratchDirectory()
        var environment = environment
        environment["STUDYKIT_CACHE_DIR"] = cache.url.path
        // A busy machine must not turn a slow stream into a timeout.
        environment["STUDYKIT_DEADLINE"] = "300"
        let streamed = try await StudykitBinary.run(arguments + ["--stream"], stdin: stdin, environment: environment)
        #expect(streamed.status == 0, "\(streamed.stderr)", sourceLocation: sourceLocation)
        #expect(streamed.stderr.isEmpty, "\(streamed.stderr)", sourceLocation: sourceLocation)
        #expect(!streamed.stdout.contains("\u{1B}"), "no escape sequences when piped", sourceLocation: sourceLocation)
        #expect(!streamed.stdout.contains("\r"), "no carriage-return redraws when piped", sourceLocation: sourceLocation)
        // The preview's lines are `name: value` and `  - item`; the final rendering opens with
        // its `# ` heading after a blank line.
        let split = try #require(streamed.stdout.range(of: "\n\n# "), "no final rendering after the preview: \(streamed.stdout)", sourceLocation: sourceLocation)
        let previewPart = streamed.stdout[..<split.lowerBound]
        let finalPart = streamed.stdout[streamed.stdout.index(split.lowerBound, offsetBy: 2)...]
        #expect(previewPart.hasPrefix(preview), "the preview came first: \(previewPart)", sourceLocation: sourceLocation)
        #expect(!previewPart.contains("\n# "), "the preview is only the answer's fields: \(previewPart)", sourceLocation: sourceLocation)

        let json = try await StudykitBinary.run(arguments + ["--json"], stdin: stdin, environment: environment)
        let envelope = try LiveEnvelope(json)
        // Cached iff the model's streamed answer was accepted; what the model says is not a
        // contract, so a rejected answer (builtin, not cached; or this run's own answer) passes too. Its final rendering
        // cannot be asked for again: the builtin result's items rewritten by the model depend on
        // the time each job took.
        if envelope.cached == true {
            #expect(envelope.engine == expectedEngine, "\(envelope.fallbacks)", sourceLocation: sourceLocation)
            let rendered = try await StudykitBinary.run(arguments, stdin: stdin, environment: environment)
            #expect(rendered.status == 0, "\(rendered.stderr)", sourceLocation: sourceLocation)
            #expect(String(finalPart) == rendered.stdout, "stdout ends with the final rendering", sourceLocation: sourceLocation)
        } else if envelope.engine == "builtin" {
            #expect(envelope.fallbacks.first?.engine == expectedEngine, "\(envelope.fallbacks)", sourceLocation: sourceLocation)
        } else {
            // The streamed answer was not kept (refused, or stopped by the budget on a busy
            // machine) and this run's own answer was accepted: it comes from the same engine.
            #expect(envelope.engine == expectedEngine, "\(envelope.fallbacks)", sourceLocation: sourceLocation)
        }
    }
}
