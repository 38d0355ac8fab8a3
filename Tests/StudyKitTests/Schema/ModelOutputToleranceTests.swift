import Testing
@testable import StudyKit

@Suite("Model output tolerance")
struct ModelOutputToleranceTests {
    @Test func strictParsingStillRejectsRawControlCharacters() {
        #expect(throws: SchemaError.self) { try JSONValue.parse("{\"a\":\"x\ny\"}") }
    }

    /// llama.cpp's JSON grammar lets a raw newline into a string; the text is kept as written
    /// and validation decides whether the field may hold it.
    @Test func modelOutputKeepsARawNewlineForValidationToJudge() throws {
        let text = "{\"title\":\"Cell Division\",\"blurb\":\"Mitosis splits\none cell.\"}"
        do {
            _ = try decodeResult(for: .headline, modelOutput: text)
            Issue.record("a blurb with a line break must not validate")
        } catch {
            guard case .invalid(let issues) = error else {
                Issue.record("expected a validation failure, got \(error)")
                return
            }
            #expect(issues.contains { $0.path == "blurb" })
        }
        let value = try JSONValue.parse("{\"a\":\"x\ny\"}", allowingRawControlCharacters: true)
        #expect(value["a"]?.stringValue == "x\ny")
    }
}
