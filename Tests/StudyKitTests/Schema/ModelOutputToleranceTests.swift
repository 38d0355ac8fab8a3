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

@Suite("Feynman feedback semantics")
struct FeynmanSemanticsTests {
    static func feedback(verdict: String = "partial", score: Int = 5, right: String = "Cells divide", question: String = "What happens in anaphase?") -> String {
        #"{"verdict":"\#(verdict)","score":\#(score),"whatWasRight":["\#(right)"],"gaps":[],"followUpQuestion":"\#(question)"}"#
    }

    @Test(arguments: [
        (feedback(), nil),
        (feedback(verdict: "solid", score: 0), "score"),
        (feedback(verdict: "confused", score: 9), "score"),
        (feedback(right: "1.5"), "whatWasRight[0]"),
        (feedback(question: "Explain anaphase."), "followUpQuestion"),
    ] as [(String, String?)])
    func checks(text: String, failingPath: String?) {
        do {
            _ = try decodeResult(for: .feynman, modelOutput: text)
            #expect(failingPath == nil)
        } catch {
            guard case .invalid(let issues) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(issues.map(\.path) == [failingPath].compactMap { $0 })
        }
    }
}
