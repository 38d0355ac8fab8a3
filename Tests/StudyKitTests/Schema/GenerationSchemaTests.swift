import Foundation
import Testing
@testable import StudyKit

@Suite("GenerationSchema emission")
struct GenerationSchemaTests {
    struct Variant: Sendable, CustomTestStringConvertible {
        let task: StudyTask
        let strict: Bool
        var fileName: String { task.name + (strict ? ".strict" : "") }
        var testDescription: String { fileName }
        static let all = StudyTask.allCases.flatMap { [Variant(task: $0, strict: false), Variant(task: $0, strict: true)] }
    }

    /// The emitted JSON Schema is pinned byte for byte. To accept a deliberate change, run with
    /// `STUDYKIT_UPDATE_GOLDENS=1`, review the diff of `Fixtures/Schema`, and run again.
    @Test(arguments: Variant.all)
    func matchesGoldenFile(_ variant: Variant) throws {
        let emitted = jsonSchemaText(for: variant.task, strict: variant.strict)
        if ProcessInfo.processInfo.environment["STUDYKIT_UPDATE_GOLDENS"] == "1" {
            let url = SchemaFixtures.sourceFolder.appendingPathComponent(variant.fileName + ".json")
            try emitted.write(to: url, atomically: true, encoding: .utf8)
        }
        let golden = try SchemaFixtures.text(variant.fileName)
        #expect(emitted == golden)
    }

    @Test(arguments: StudyTask.allCases)
    func emissionIsDeterministicAndValidJSON(_ task: StudyTask) throws {
        let text = jsonSchemaText(for: task)
        #expect(text == jsonSchemaText(for: task))
        #expect(try JSONValue.parse(text) == task.generationSchema.jsonSchema(strict: false))
    }

    /// Strict schemas require every property (an optional one may be `null`); the others leave
    /// optional properties (only `kind` and `hint` of a card) out of `required`.
    @Test(arguments: StudyTask.allCases)
    func everyObjectRequiresAllPropertiesAndForbidsOthers(_ task: StudyTask) throws {
        for strict in [false, true] {
            var objects: [JSONObject] = []
            func collect(_ value: JSONValue) {
                switch value {
                case .object(let object):
                    if object["type"] == "object" { objects.append(object) }
                    for member in object { collect(member.value) }
                case .array(let elements): elements.forEach(collect)
                default: break
                }
            }
            collect(task.generationSchema.jsonSchema(strict: strict))
            #expect(!objects.isEmpty)
            for object in objects {
                let properties = try #require(object["properties"]?.objectValue)
                let names = properties.keys
                let optional = names.filter { name in properties[name]?["type"]?.arrayValue?.contains(.string("null")) == true }
                let required = strict ? names : names.filter { !["kind", "hint"].contains($0) }
                #expect(object["required"] == .array(required.map(JSONValue.string)))
                #expect(optional == (strict ? names.filter { ["kind", "hint"].contains($0) } : []))
                #expect(object["additionalProperties"] == false)
                for name in names {
                    #expect(object["properties"]?[name]?["description"]?.stringValue?.isEmpty == false, "\(name)")
                }
            }
            let text = task.generationSchema.jsonSchema(strict: strict).compactText
            #expect(!text.contains("$ref"))
            #expect(text.contains("minLength") == !strict)
        }
    }

    @Test func optionalPropertiesMayBeMissingOrNullButNotMistyped() {
        let schema = GenerationSchema.object([
            .init("name", description: "n", .string()), .init("note", description: "o", .string(maxLength: 5), optional: true),
        ])
        #expect(schema.validationIssues(for: ["name": "a"]).isEmpty)
        #expect(schema.validationIssues(for: ["name": "a", "note": .null]).isEmpty)
        #expect(schema.validationIssues(for: ["name": "a", "note": "too long"]).map(\.message) == ["has 8 characters, but at most 5 are allowed"])
        #expect(schema.validationIssues(for: ["note": "b"]).map(\.description) == ["name is missing; add it"])
        #expect(schema.jsonSchema(strict: false)["required"] == ["name"])
        #expect(schema.jsonSchema(strict: true)["required"] == ["name", "note"])
        #expect(schema.jsonSchema(strict: true)["properties"]?["note"]?["type"] == ["string", "null"])
        // Making a property optional changes what may be cached under the schema.
        let required = GenerationSchema.object([.init("name", description: "n", .string()), .init("note", description: "o", .string(maxLength: 5))])
        #expect(schema.fingerprint != required.fingerprint)
    }

    @Test func propertiesAreEmittedInDeclaredOrder() {
        let schema = Quiz.generationSchema.jsonSchema(strict: false)
        let question = schema["properties"]?["questions"]?["items"]
        #expect(question?["properties"]?.objectValue?.keys == ["prompt", "choices", "answerIndex", "explanation", "quote"])
        #expect(question?["required"] == ["prompt", "choices", "answerIndex", "explanation", "quote"])
    }

    @Test func mindMapIsUnrolledToThreeLevels() {
        let schema = MindMap.generationSchema.jsonSchema(strict: false)
        let branch = schema["properties"]?["branches"]?["items"]
        let child = branch?["properties"]?["children"]?["items"]
        let grandchild = child?["properties"]?["children"]?["items"]
        #expect(branch?["properties"]?.objectValue?.keys == ["label", "children"])
        #expect(child?["properties"]?.objectValue?.keys == ["label", "children"])
        #expect(grandchild?["properties"]?.objectValue?.keys == ["label"])
    }

    @Test func titlePatternEnforcesWordsAndQuotes() throws {
        let pattern = try #require(Headline.generationSchema.jsonSchema(strict: false)["properties"]?["title"]?["pattern"]?.stringValue)
        // 6 words in the validation, 9 in the grammar: room to finish rather than glue words.
        #expect(pattern == #"^[^ "“”„«»\\]{1,24}( [^ "“”„«»\\]{1,24}){0,8}$"#)
        let expression = try NSRegularExpression(pattern: pattern)
        func matches(_ text: String) -> Bool {
            expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
        #expect(matches("How Plants Make Food"))
        #expect(matches("Newton's Laws"))
        #expect(matches("one two three four five six"))
        // A word has at most 24 characters: a model cannot glue words with commas to beat the limit.
        #expect(!matches("Newton,Newton,Newton,Newton,Newton"))
        #expect(matches("one two three four five six seven eight nine"))
        #expect(!matches("one two three four five six seven eight nine ten"))
        #expect(Headline(title: "one two three four five six seven", blurb: "Plants make sugar from light.").validationIssues().contains {
            $0.path == "title"
        })
        #expect(!matches("The \"Best\" Title"))
        #expect(!matches("“Quoted”"))
    }

    @Test func patternEscapesRegexSyntaxInForbiddenCharacters() {
        let schema = GenerationSchema.string(forbiddenCharacters: "]-^\\")
        // `"` is always excluded too: a grammar built from the pattern must not end the JSON string.
        #expect(schema.jsonSchema(strict: false)["pattern"] == #"^[^\]\-\^\\"]*$"#)
    }

    @Test func controlCharactersAreEscapedInPatterns() {
        // A raw newline inside a character class breaks llama.cpp's grammar parser, and the
        // server then generates without any grammar at all.
        let schema = GenerationSchema.string(forbiddenCharacters: "\n\t")
        #expect(schema.jsonSchema(strict: false)["pattern"] == #"^[^\n\t"\\]*$"#)
    }

    /// Without ideographs (material with no Chinese, Japanese or Korean), every string of a
    /// schema excludes their blocks and a sentence loses its branch written without spaces;
    /// enumerations and numbers are left as they are, and so is the schema's own fingerprint.
    @Test func withoutIdeographsEveryStringExcludesChineseJapaneseAndKorean() throws {
        let schema = ItemRewriter.cardSchema(answer: .stringEnum(["stroma"]))
        func question(_ schema: GenerationSchema) throws -> NSRegularExpression {
            let pattern = try #require(schema.jsonSchema(strict: false)["properties"]?["question"]?["pattern"]?.stringValue)
            return try NSRegularExpression(pattern: pattern)
        }
        func matches(_ expression: NSRegularExpression, _ text: String) -> Bool {
            expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
        let with = try question(schema)
        let without = try question(schema.withoutIdeographs())
        for english in ["Where does the Calvin cycle take place?", "What is the role of the Calvin cycle in plants?"] {
            #expect(matches(with, english) && matches(without, english), "\(english)")
        }
        // Qwen2.5-Coder-0.5B's card question on long.pdf, and one with an ideograph in a word.
        for escaped in ["Between 什么时候 the sections of Paris surrounded the Convention?", "What happened in the八eenth century?", "カルビン回路はどこで起こりますか？"] {
            #expect(matches(with, escaped), "\(escaped)")
            #expect(!matches(without, escaped), "\(escaped)")
        }
        // The answer's enumeration is untouched; a plain string gets a pattern of its own.
        #expect(schema.withoutIdeographs().jsonSchema(strict: false)["properties"]?["answer"] == schema.jsonSchema(strict: false)["properties"]?["answer"])
        #expect(GenerationSchema.string().jsonSchema(strict: false)["pattern"] == nil)
        let plain = try NSRegularExpression(pattern: try #require(GenerationSchema.string().withoutIdeographs().jsonSchema(strict: false)["pattern"]?.stringValue))
        #expect(matches(plain, "Ordinary prose, déjà vu."))
        #expect(!matches(plain, "한국어"))
        // Every character the language rule counts as Chinese, Japanese or Korean, to U+FFFF.
        for block in CJKScript.blocks where block.range.upperBound <= 0xFFFF {
            for value in [block.range.lowerBound, block.range.upperBound] {
                let character = String(Character(try #require(Unicode.Scalar(value))))
                #expect(!matches(plain, "a" + character), "U+\(String(value, radix: 16))")
            }
        }
        // The variant has a fingerprint of its own (the task's is unchanged: the golden schemas).
        for task in StudyTask.allCases {
            #expect(task.generationSchema.fingerprint != task.generationSchema.withoutIdeographs().fingerprint, "\(task)")
        }
        #expect(Headline.generationSchema.withoutIdeographs().withoutIdeographs() == Headline.generationSchema.withoutIdeographs())
    }

    @Test func fingerprintsDifferPerTaskAndFollowEveryConstraint() {
        let fingerprints = Set(StudyTask.allCases.map(\.generationSchema.fingerprint))
        #expect(fingerprints.count == StudyTask.allCases.count)
        #expect(Headline.generationSchema.fingerprint.hasPrefix("generation-schema/2 "))

        func cards(maxItems: Int, distinct: GenerationSchema.Distinctness?) -> GenerationSchema {
            .object([.init("cards", description: "d", .array(items: .string(maxLength: 10), minItems: 1, maxItems: maxItems, distinct: distinct))])
        }
        let base = cards(maxItems: 20, distinct: .items)
        #expect(base.fingerprint == cards(maxItems: 20, distinct: .items).fingerprint)
        #expect(base.fingerprint != cards(maxItems: 21, distinct: .items).fingerprint)
        // Distinctness is not part of JSON Schema, yet it changes what we accept.
        #expect(base.jsonSchema(strict: false) == cards(maxItems: 20, distinct: nil).jsonSchema(strict: false))
        #expect(base.fingerprint != cards(maxItems: 20, distinct: nil).fingerprint)
        #expect(GenerationSchema.string(maxWords: 6).fingerprint != GenerationSchema.string(maxWords: 7).fingerprint)
        #expect(
            GenerationSchema.object([.init("a", description: "one", .boolean)]).fingerprint
                != GenerationSchema.object([.init("a", description: "two", .boolean)]).fingerprint)
    }
}
