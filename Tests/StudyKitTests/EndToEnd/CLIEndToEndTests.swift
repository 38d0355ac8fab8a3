import Foundation
import Testing
@testable import StudyKit

@Suite("studykit binary: commands without a model")
struct CLIEndToEndTests {
    @Test func versionAndHelp() async throws {
        let version = try await StudykitBinary.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout == "studykit \(StudyKitVersion.current)\n")
        let help = try await StudykitBinary.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("COMMANDS:"))
        let commandHelp = try await StudykitBinary.run(["flashcards", "--help"])
        #expect(commandHelp.stdout.contains("--format <format>"))
    }

    @Test func unknownOptionIsOneLineAndExit64() async throws {
        let result = try await StudykitBinary.run(["summary", "samples/paste.txt", "--fromat", "json"])
        #expect(result.status == 64)
        #expect(result.stderr == "studykit: Unknown option '--fromat'. Did you mean '--format'?\n")
        #expect(result.stdout.isEmpty)
    }

    @Test(arguments: StudyTask.allCases)
    func schemaPrintsValidJSONSchema(task: StudyTask) async throws {
        for strict in [false, true] {
            let result = try await StudykitBinary.run(["schema", task.name] + (strict ? ["--strict"] : []))
            #expect(result.status == 0)
            let object = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
            #expect(object["type"] as? String == "object")
            #expect(object["properties"] is [String: Any])
            #expect(object["additionalProperties"] as? Bool == false)
        }
    }

    @Test func routeAnswersThePolicy() async throws {
        #expect(try await StudykitBinary.run(["route", "headline", "--chars", "2000"]).stdout == "local\n")
        #expect(try await StudykitBinary.run(["route", "headline", "--chars", "2001"]).stdout == "remote\n")
        #expect(try await StudykitBinary.run(["route", "quiz", "--chars", "10"]).stdout == "remote\n")
    }
}

@Suite("studykit binary: formats are checked before any work")
struct FormatCheckEndToEndTests {
    @Test(arguments: [("quiz", "mermaid"), ("headline", "anki"), ("summary", "markmap"), ("feynman", "opml")])
    func aFormatThatCannotShowTheTaskIsAUsageError(task: String, format: String) async throws {
        var arguments = [task, "samples/notes.pdf", "--format", format]
        if task == "feynman" { arguments += ["--concept", "x", "--explanation", "y"] }
        let result = try await StudykitBinary.run(arguments)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("studykit: --format \(format) works with "))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    }
}
