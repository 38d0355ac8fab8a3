#if LlamaCpp
import Foundation
import Testing
@testable import StudyKit

/// The converter's grammars as llama.cpp sees them: every study task's grammar parses, and
/// llama.cpp's grammar sampler (over SmolLM2's vocabulary) accepts exactly the JSON it should.
@Suite("LlamaGrammar: converted grammars in llama.cpp")
struct LlamaGrammarTests {
    static func grammar(_ schema: String) throws -> String { try GrammarConverter.grammar(forJSONSchema: schema) }

    static func accepts(_ schema: String, _ json: String) async throws -> Bool {
        let grammar = try Self.grammar(schema)
        let verdict: Bool? = try await LlamaFixtures.engine().grammar(grammar, accepts: json)
        return try #require(verdict, "llama.cpp refused:\n\(grammar)")
    }

    @Test(arguments: StudyTask.allCases)
    func everyTaskGrammarParsesInLlamaCpp(task: StudyTask) async throws {
        let engine = try LlamaFixtures.engine()
        for strict in [false, true] {
            let grammar = try GrammarConverter.grammar(for: task.generationSchema.jsonSchema(strict: strict))
            #expect(try await engine.grammarParses(grammar), "\(task) strict=\(strict):\n\(grammar)")
        }
    }

    @Test func llamaCppRejectsABrokenGrammar() async throws {
        #expect(try await LlamaFixtures.engine().grammarParses("root ::= \"a") == false)
        #expect(try await LlamaFixtures.engine().grammar("root ::= (", accepts: "a") == nil)
    }

    /// `value` as a model writes it under `schema`'s grammar: each object's members in the schema's
    /// order, those a model is not asked for (a card's hint) left out.
    static func asWritten(_ value: JSONValue, _ schema: GenerationSchema) -> JSONValue {
        switch (schema, value) {
        case (.object(let properties), .object(let object)):
            return .object(JSONObject(properties.filter(\.isAsked).compactMap { property in
                object[property.name].map { (property.name, asWritten($0, property.schema)) }
            }))
        case (.array(let items, _, _, _), .array(let elements)):
            return .array(elements.map { asWritten($0, items) })
        default:
            return value
        }
    }

    @Test(arguments: StudyTask.allCases)
    func everyTaskGrammarAcceptsItsValidFixtureOutput(task: StudyTask) async throws {
        let output = try JSONValue.parse(SchemaFixtures.validOutput(task))
        let compact = Self.asWritten(output, task.generationSchema).compactText
        let grammar = try GrammarConverter.grammar(for: task.generationSchema.jsonSchema(strict: false))
        #expect(try await LlamaFixtures.engine().grammar(grammar, accepts: compact) == true, "\(task): \(compact)")
    }

    /// A card rewrite's question can never hold the blank: the judge refuses any underscore,
    /// so the grammar leaves the model no way to write one, nor a square bracket. Its answer comes first and is the
    /// card's missing words, nothing else.
    @Test func aCardQuestionCannotCopyTheBlank() async throws {
        let card = Flashcards.Card(
            question: "The Calvin cycle takes place in the _____.", answer: "stroma", quote: "The Calvin cycle takes place in the stroma.")
        let job = ItemRewriter.cardJob(card, path: "cards[0]", materialStems: [])
        let schema = ItemRewriter.cardSpec.request(prompt: job.prompt, schema: job.schema).jsonSchema
        #expect(try await Self.accepts(schema, #"{"answer":"stroma","question":"Where does the Calvin cycle take place?"}"#))
        #expect(try await Self.accepts(schema, #"{"answer":"stroma","question":"Where does the Calvin cycle take place, the _____?"}"#) == false)
        #expect(try await Self.accepts(schema, #"{"answer":"stroma","question":"What does deflate_init set up?"}"#) == false)
        // Nor the square brackets the prompt marks the missing words with.
        #expect(try await Self.accepts(schema, #"{"answer":"stroma","question":"Where does the [Calvin] cycle take place?"}"#) == false)
        #expect(try await Self.accepts(schema, #"{"answer":"the stroma","question":"Where does the Calvin cycle take place?"}"#) == false)
        #expect(try await Self.accepts(schema, #"{"question":"Where does the Calvin cycle take place?","answer":"stroma"}"#) == false)
    }

    /// About material without Chinese, Japanese or Korean, a card's question cannot go on in
    /// them, as Qwen2.5-Coder-0.5B's did on long.pdf ("Between …" and then Chinese characters).
    @Test func withoutIdeographsACardQuestionCannotEscapeIntoChinese() async throws {
        let card = Flashcards.Card(
            question: "The Calvin cycle takes place in the _____.", answer: "stroma", quote: "The Calvin cycle takes place in the stroma.")
        let job = ItemRewriter.cardJob(card, path: "cards[0]", materialStems: [])
        let any = ItemRewriter.cardSpec.request(prompt: job.prompt, schema: job.schema).jsonSchema
        let latin = ItemRewriter.cardSpec.request(prompt: job.prompt, schema: job.schema, ideographs: false).jsonSchema
        let escaped = #"{"answer":"stroma","question":"Where does the 卡尔文 cycle take place?"}"#
        #expect(try await Self.accepts(any, escaped))
        #expect(try await Self.accepts(latin, escaped) == false)
        #expect(try await Self.accepts(latin, #"{"answer":"stroma","question":"Where does the Calvin cycle take place?"}"#))
    }

    // MARK: headline, the main job

    static let headline = StudyTask.headline.generationSchema.jsonSchema(strict: false).compactText

    struct Sample: Sendable, CustomTestStringConvertible {
        var json: String
        var accepted: Bool
        var why: String
        var testDescription: String { why }
    }

    @Test(arguments: [
        Sample(json: #"{"title":"Cell Division Basics","blurb":"Mitosis splits one cell into two identical cells."}"#, accepted: true, why: "valid"),
        Sample(json: #"{"title": "Cell Division Basics", "blurb": "Mitosis splits one cell into two."}"#, accepted: true, why: "one space after : and ,"),
        Sample(json: #"{"blurb":"Mitosis splits one cell.","title":"Cell Division"}"#, accepted: false, why: "members out of order"),
        Sample(json: #"{"title":"Cell Division"}"#, accepted: false, why: "a missing member"),
        Sample(json: #"{"title":"Cells","blurb":"Cells divide.","extra":1}"#, accepted: false, why: "an extra member"),
        // Room to finish a title (9 words in the grammar); validation keeps the six.
        Sample(json: #"{"title":"One two three four five six seven","blurb":"Cells divide."}"#, accepted: true, why: "seven words in the title"),
        Sample(json: #"{"title":"One two three four five six seven eight nine ten","blurb":"Cells divide."}"#, accepted: false, why: "ten words in the title"),
        Sample(json: #"{"title":"Cells","blurb":"Cells divide"}"#, accepted: false, why: "a blurb without closing punctuation"),
        Sample(json: #"{"title":"Cells","blurb":"Cells divide. Then they grow."}"#, accepted: false, why: "two sentences in the blurb"),
        Sample(json: #"{"title":"Say \"cells\"","blurb":"Cells divide."}"#, accepted: false, why: "an escaped quote in the title"),
        Sample(json: #"{"title":"Cells  divide","blurb":"Cells divide."}"#, accepted: false, why: "a doubled space"),
        Sample(json: #"{"title":"Zellteilung für Anfänger","blurb":"Zellen teilen sich – schnell."}"#, accepted: true, why: "non-ASCII text"),
        Sample(json: "{\"title\":\"Cells\",\"blurb\":\"Cells\ndivide.\"}", accepted: false, why: "a raw newline in a string"),
        Sample(json: #"{"title":"Cells","blurb":"Cells divide."}  "#, accepted: false, why: "trailing spaces after the object"),
    ])
    func theHeadlineGrammarAcceptsExactlyValidHeadlines(sample: Sample) async throws {
        #expect(try await Self.accepts(Self.headline, sample.json) == sample.accepted, "\(sample.json)")
    }

    // MARK: JSON escaping

    /// A pattern that allows `"` and `\`: they must appear escaped, never raw.
    static let anything = #"{"type":"object","properties":{"s":{"type":"string","pattern":"^[^x]+$"}},"required":["s"]}"#

    @Test(arguments: [
        Sample(json: #"{"s":"say \"hi\""}"#, accepted: true, why: "an escaped quote"),
        Sample(json: #"{"s":"a\\b"}"#, accepted: true, why: "an escaped backslash"),
        Sample(json: #"{"s":"line\nbreak"}"#, accepted: true, why: "an escaped newline"),
        Sample(json: #"{"s":"say "hi""}"#, accepted: false, why: "a raw quote ends the string"),
        Sample(json: #"{"s":"a\b"}"#, accepted: false, why: "a lone backslash"),
        Sample(json: #"{"s":"box"}"#, accepted: false, why: "a character the pattern excludes"),
    ])
    func quotesAndBackslashesAreOnlyEverEscaped(sample: Sample) async throws {
        #expect(try await Self.accepts(Self.anything, sample.json) == sample.accepted, "\(sample.json)")
    }

    // MARK: the other features

    @Test(arguments: [
        // arrays with bounds
        (#"{"type":"array","items":{"type":"integer","minimum":0,"maximum":3},"minItems":2,"maxItems":3}"#, "[1,2]", true),
        (#"{"type":"array","items":{"type":"integer","minimum":0,"maximum":3},"minItems":2,"maxItems":3}"#, "[1, 2, 3]", true),
        (#"{"type":"array","items":{"type":"integer","minimum":0,"maximum":3},"minItems":2,"maxItems":3}"#, "[1]", false),
        (#"{"type":"array","items":{"type":"integer","minimum":0,"maximum":3},"minItems":2,"maxItems":3}"#, "[0,1,2,3]", false),
        (#"{"type":"array","items":{"type":"integer","minimum":0,"maximum":3},"minItems":2,"maxItems":3}"#, "[1,4]", false),
        (#"{"type":"array","items":{"type":"boolean"},"maxItems":2}"#, "[]", true),
        // strings with lengths
        (#"{"type":"string","minLength":2,"maxLength":4}"#, #""abcd""#, true),
        (#"{"type":"string","minLength":2,"maxLength":4}"#, #""a""#, false),
        (#"{"type":"string","minLength":2,"maxLength":4}"#, #""abcde""#, false),
        // enums, numbers, booleans
        (#"{"type":"string","enum":["solid","partial","confused"]}"#, #""partial""#, true),
        (#"{"type":"string","enum":["solid","partial","confused"]}"#, #""sure""#, false),
        (#"{"type":"number","minimum":0}"#, "3.25", true),
        (#"{"type":"number","minimum":0}"#, "-1", false),
        (#"{"type":"number"}"#, "-1.5e3", true),
        (#"{"type":"integer","minimum":-5,"maximum":500}"#, "-5", true),
        (#"{"type":"integer","minimum":0,"maximum":500}"#, "007", false),
        (#"{"type":"boolean"}"#, "false", true),
        (#"{"type":"boolean"}"#, "no", false),
        // a pattern with groups, alternation and counted repetition
        (#"{"type":"string","pattern":"^(ab|cd){2}-[0-9]{1,2}$"}"#, #""abcd-42""#, true),
        (#"{"type":"string","pattern":"^(ab|cd){2}-[0-9]{1,2}$"}"#, #""ab-42""#, false),
        (#"{"type":"string","pattern":"^(ab|cd){2}-[0-9]{1,2}$"}"#, #""abab-123""#, false),
    ])
    func featuresAcceptAndReject(schema: String, json: String, accepted: Bool) async throws {
        #expect(try await Self.accepts(schema, json) == accepted, "\(schema) with \(json)")
    }
}
#endif
