import Foundation
import Testing
@testable import StudyKit

@Suite("Chat request body")
struct ChatBodyTests {
    /// The model writes fields in the schema's property order, so the wire body must keep it:
    /// a dictionary-based encoder sorted `blurb` before `title`, and SmolLM2 then ran on in the blurb.
    @Test(arguments: [ServerDialect.llamaCppPython, .llamaServer, .ollama, .openAI])
    func keepsTheSchemaPropertyOrder(dialect: ServerDialect) throws {
        let schema = StudyTask.headline.generationSchema
        let request = GenerationRequest(
            instructions: "i", prompt: "p", schemaName: "headline", jsonSchema: schema.jsonSchema(strict: false).compactText,
            strictJSONSchema: schema.jsonSchema(strict: true).compactText)
        let body = String(decoding: try OpenAIWire.chatBody(request, model: "m", dialect: dialect, stream: false), as: UTF8.self)
        let title = try #require(body.range(of: "\"title\""))
        let blurb = try #require(body.range(of: "\"blurb\""))
        #expect(title.lowerBound < blurb.lowerBound)
        // And it is still JSON a server can read.
        #expect(try JSONSerialization.jsonObject(with: Data(body.utf8)) is [String: Any])
    }

    @Test func singleSentenceStringsEndWithOneTerminator() throws {
        let schema = GenerationSchema.string(maxWords: 3, sentences: 1...1)
        let pattern = try #require(schema.jsonSchema(strict: false)["pattern"]?.stringValue)
        // 3 words and room to finish: 5 (a limit is never met by gluing words together); a point
        // inside a word only before a digit ("7.4").
        #expect(pattern == #"^([^ .!?"\\]|[.][0-9]){1,24}( ([^ .!?"\\]|[.][0-9]){1,24}){0,4}[.!?]$"#)
        let regex = try NSRegularExpression(pattern: pattern)
        func matches(_ text: String) -> Bool {
            regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
        #expect(matches("Cells divide."))
        #expect(matches("Blood is 7.4."))
        // `\.` would reach llama.cpp as an unknown escape when llama-cpp-python converts the pattern.
        #expect(!pattern.contains(#"\."#))
        #expect(!matches("Cells divide. Then rest."))
        #expect(!matches("Cells divide"))
    }

    @Test func multiSentenceStringsShareTheirWordLimit() throws {
        let schema = GenerationSchema.string(maxWords: 6, sentences: 2...3)
        let pattern = try #require(schema.jsonSchema(strict: false)["pattern"]?.stringValue)
        let regex = try NSRegularExpression(pattern: pattern)
        func matches(_ text: String) -> Bool {
            regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
        #expect(!matches("One sentence only."))
        #expect(matches("Cells divide. Then rest."))
        #expect(matches("Cells divide. Then rest. Again!"))
        #expect(!matches("Cells divide. Then rest. Again! Four."))
        // One sentence may take what two share (6 words and room to finish, 9, over at least 2
        // sentences: 4 each); validation then counts the 6.
        #expect(matches("Cells divide quickly today. Then they rest."))
        #expect(!matches("Cells divide quickly and often today. Then rest."))
        #expect(GenerationSchema.string(maxWords: 6, sentences: 2...3).validationIssues(for: "Cells divide quickly today. Then they rest.").contains {
            $0.message.contains("words")
        })
    }
}
