import Foundation
import Testing
@testable import StudyKit

/// The model is an untrusted writer: a hostile answer must print clean through the whole CLI.
@Suite("Terminal safety of model output through the Runner")
struct TerminalSafetyEndToEndTests {
    static let hostileTitle = "Cell \u{1B}]8;;http://evil.example\u{1B}\\Division\u{1B}]8;;\u{1B}\\ Basics\u{200B}"
    static let hostileBlurb = "Mitosis \u{1B}[31msplits\u{1B}[0m one cell\u{202E} into two."

    static func chatAnswer() -> String {
        let content = JSONValue.object(["title": .string(hostileTitle), "blurb": .string(hostileBlurb)]).compactText
        let answer: JSONValue = [
            "id": "x", "object": "chat.completion", "model": "scripted-model",
            "choices": [["index": 0, "message": ["role": "assistant", "content": .string(content)], "finish_reason": "stop"]],
            "usage": ["prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15],
        ]
        return answer.compactText
    }

    @Test(arguments: [[], ["--json"], ["--format", "markdown"]])
    func hostileAnswerPrintsClean(flags: [String]) async throws {
        var routes = ScriptedEngineTransport.llamaCppPythonRoutes
        routes["/extras/tokenize"] = .json(#"{"tokens":[1,2,3]}"#)
        routes["/v1/chat/completions"] = .json(Self.chatAnswer())
        let transport = ScriptedEngineTransport(routes: routes)
        let output = CapturingSink()
        let errors = CapturingSink()
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-tty-\(UUID().uuidString)")
        let runner = Runner(
            environment: [
                "STUDYKIT_LOCAL_URL": "http://127.0.0.1:1", "STUDYKIT_LOCAL_CONTEXT_SIZE": "2048",
                "STUDYKIT_LOCAL_DIALECT": "llama-cpp-python", "STUDYKIT_CACHE_DIR": cache.path,
                "XDG_CONFIG_HOME": cache.path,
            ],
            standardInput: { Data("Mitosis is the division of one nucleus into two identical nuclei.".utf8) },
            output: output, errorOutput: errors, transport: transport)
        let code = await runner.run(["headline", "--engine", "local", "--no-cache"] + flags)
        #expect(code == .ok, "\(errors.text)")
        #expect(transport.calls(to: "/v1/chat/completions") == 1)
        let printed = output.text
        #expect(!printed.isEmpty)
        for forbidden: Unicode.Scalar in ["\u{1B}", "\u{200B}", "\u{202E}", "\u{07}"] {
            #expect(!printed.unicodeScalars.contains(forbidden), "found U+\(String(forbidden.value, radix: 16))")
        }
        #expect(printed.contains("Division"))
        #expect(!printed.contains("evil.example"))
    }
}
