import Foundation
import Testing
@testable import StudyKit

/// The JSON Schema → GBNF converter as text: what it writes for each feature and what it
/// refuses. Whether llama.cpp accepts the grammars, and which JSON they accept, is checked by
/// `LlamaGrammarTests` with llama.cpp's own grammar sampler.
@Suite("GrammarConverter: JSON Schema to GBNF")
struct GrammarConverterTests {
    static func grammar(_ schema: String) throws -> String {
        try GrammarConverter.grammar(forJSONSchema: schema)
    }

    /// The body of the rule called `name`.
    static func rule(_ name: String, in grammar: String) -> String? {
        for line in grammar.split(separator: "\n") where line.hasPrefix(name + " ::= ") {
            return String(line.dropFirst(name.count + 5))
        }
        return nil
    }

    @Test func anObjectListsItsPropertiesInDeclaredOrder() throws {
        let text = try Self.grammar(#"{"type":"object","properties":{"zeta":{"type":"boolean"},"alpha":{"type":"integer"}},"required":["zeta","alpha"]}"#)
        let root = try #require(Self.rule("root", in: text))
        let zeta = try #require(root.range(of: #""\"zeta\"""#))
        let alpha = try #require(root.range(of: #""\"alpha\"""#))
        #expect(zeta.lowerBound < alpha.lowerBound)
        #expect(root.hasPrefix(#""{" sp "#))
        #expect(root.hasSuffix(#"sp "}""#))
        #expect(text.hasPrefix("root ::= "))
    }

    @Test func arraysBoundTheirItemCount() throws {
        let text = try Self.grammar(#"{"type":"array","items":{"type":"boolean"},"minItems":2,"maxItems":5}"#)
        let root = try #require(Self.rule("root", in: text))
        #expect(root.contains(#"boolean (",""#))
        #expect(root.contains("{1,4}"))
        let optional = try Self.grammar(#"{"type":"array","items":{"type":"boolean"},"maxItems":3}"#)
        #expect(Self.rule("root", in: optional)?.contains("{0,2})?") == true)
    }

    @Test func stringsBoundTheirLength() throws {
        let text = try Self.grammar(#"{"type":"string","minLength":3,"maxLength":40}"#)
        #expect(Self.rule("root", in: text) == #""\"" char{3,40} "\"""#)
        // Raw characters exclude the quote, the backslash and control characters; escapes cover them.
        #expect(Self.rule("char", in: text) == #"([^\x00-\x1F\x22\x5C] | "\\" [\x22\x5Cntr])"#)
    }

    @Test func smallIntegerRangesAreSpelledOut() throws {
        let text = try Self.grammar(#"{"type":"integer","minimum":0,"maximum":3}"#)
        #expect(Self.rule("root", in: text) == #"("0" | "1" | "2" | "3")"#)
        let wide = try Self.grammar(#"{"type":"integer","minimum":0,"maximum":5000}"#)
        #expect(Self.rule("root", in: wide) == #"("0" | [1-9] [0-9]{0,3})"#)
        let signed = try Self.grammar(#"{"type":"integer"}"#)
        #expect(Self.rule("root", in: signed)?.hasPrefix(#""-"? "#) == true)
    }

    @Test func enumsAreTheirJSONSpellings() throws {
        let text = try Self.grammar(#"{"type":"string","enum":["solid","say \"hi\""]}"#)
        #expect(Self.rule("root", in: text) == #"("\"solid\"" | "\"say \\\"hi\\\"\"")"#)
    }

    @Test func identicalShapesShareOneRule() throws {
        let node = #"{"type":"object","properties":{"label":{"type":"string","maxLength":10}},"required":["label"]}"#
        let text = try Self.grammar(#"{"type":"object","properties":{"a":\#(node),"b":\#(node)},"required":["a","b"]}"#)
        let root = try #require(Self.rule("root", in: text))
        #expect(root.contains(#"":" sp a ","#))
        #expect(root.hasSuffix(#"":" sp a sp "}""#))
        #expect(Self.rule("b", in: text) == nil)
    }

    // MARK: patterns

    struct PatternCase: Sendable, CustomTestStringConvertible {
        var pattern: String
        var expression: String
        var testDescription: String { pattern }
    }

    @Test(arguments: [
        // The word-limited title shape our schemas emit; non-ASCII quotes are escaped as \u.
        PatternCase(
            pattern: #"^[^ "“”\\]+( [^ "“”\\]+){0,5}$"#,
            expression: #"([^\x00-\x20\x22\x5C\u201C-\u201D] | "\\" [ntr])+ (" " ([^\x00-\x20\x22\x5C\u201C-\u201D] | "\\" [ntr])+){0,5}"#),
        // A sentence: words, then one closing punctuation mark; \n in the class is a newline.
        PatternCase(
            pattern: #"^[^ \n.!?"\\]+( [^ \n.!?"\\]+){0,34}[.!?]$"#,
            expression: #"([^\x00-\x22\x2E\x3F\x5C] | "\\" [tr])+ (" " ([^\x00-\x22\x2E\x3F\x5C] | "\\" [tr])+){0,34} [\x21\x2E\x3F]"#),
        // A class that allows the quote and the backslash writes them as JSON escapes.
        PatternCase(pattern: #"^[a"\\]$"#, expression: #"([a] | "\\" [\x22\x5C])"#),
        // Alternation, `?`, `*`, a group and an escaped dot.
        PatternCase(pattern: #"^(ab|c)?d*\.$"#, expression: #"("a" "b" | "c")? "d"* ".""#),
    ])
    func patternsBecomeJSONAwareExpressions(_ example: PatternCase) throws {
        let actual = try PatternGrammar.expression(for: example.pattern)
        #expect(actual == example.expression, "\(actual)")
    }

    @Test func anUnanchoredPatternAllowsTextAroundTheMatch() throws {
        let expression = try PatternGrammar.expression(for: "x")
        #expect(expression.hasPrefix("([^\\x00-\\x1F\\x22\\x5C] | \"\\\\\" [\\x22\\x5Cntr])*"))
        #expect(expression.contains(#" "x" "#))
    }

    struct BadPattern: Sendable, CustomTestStringConvertible {
        var pattern: String
        var detail: String
        var testDescription: String { pattern }
    }

    @Test(arguments: [
        BadPattern(pattern: "^(a$", detail: "a group opened at position 1 is not closed"),
        BadPattern(pattern: "^[abc$", detail: "a '[' class is not closed with ']'"),
        BadPattern(pattern: "^a{3,1}$", detail: "the repetition {3,1} has its bounds the wrong way round"),
        BadPattern(pattern: "^(?=a)$", detail: "lookaround and named groups are not supported"),
        BadPattern(pattern: #"^(a)\1$"#, detail: "backreferences and word boundaries are not supported"),
        BadPattern(pattern: "^a+?$", detail: "lazy quantifiers are not supported"),
        BadPattern(pattern: "^*a$", detail: "'*' at position 1 has nothing to repeat"),
        BadPattern(pattern: "^a)$", detail: "unexpected ')' at position 2"),
        BadPattern(pattern: "^[z-a]$", detail: "the class range 'z-a' is out of order"),
    ])
    func badPatternsAreRefusedWithTheReason(_ example: BadPattern) {
        #expect(throws: GrammarError.badPattern(pattern: example.pattern, detail: example.detail)) {
            try PatternGrammar.expression(for: example.pattern)
        }
    }

    // MARK: refusals

    struct Refusal: Sendable, CustomTestStringConvertible {
        var schema: String
        var error: GrammarError
        var testDescription: String { schema }
    }

    @Test(arguments: [
        Refusal(schema: #"{"anyOf":[{"type":"string"}]}"#, error: .unsupported(path: "(root)", detail: "the keyword 'anyOf'")),
        Refusal(schema: ##"{"type":"object","properties":{"a":{"$ref":"#/x"}}}"##, error: .unsupported(path: "a", detail: "the keyword '$ref'")),
        Refusal(schema: #"{"type":[1,"null"]}"#, error: .unsupported(path: "(root)", detail: #"a 'type' that is not a single name ([1,"null"])"#)),
        Refusal(schema: #"{"type":"array","items":{"type":"date"}}"#, error: .unsupported(path: "[]", detail: "the type 'date'")),
        Refusal(schema: #"{"type":"array","items":{"type":"string"},"minItems":3,"maxItems":1}"#,
                error: .contradictory(path: "(root)", detail: "minItems 3 is above maxItems 1")),
        Refusal(schema: #"{"type":"object","properties":{"a":{"type":"string"}},"required":["b"]}"#,
                error: .contradictory(path: "(root)", detail: #"'required' names "b", which is not a property"#)),
        Refusal(schema: "{not json", error: .notJSON("the model's output is not valid JSON")),
    ])
    func unsupportedSchemasAreRefused(_ example: Refusal) {
        do {
            _ = try GrammarConverter.grammar(forJSONSchema: example.schema)
            Issue.record("expected \(example.error)")
        } catch {
            if case .notJSON = example.error {
                guard case .notJSON = error else { Issue.record("got \(error)"); return }
            } else {
                #expect(error == example.error)
            }
        }
    }

    @Test func everyStudyTaskSchemaConverts() throws {
        for task in StudyTask.allCases {
            for strict in [false, true] {
                let text = try GrammarConverter.grammar(for: task.generationSchema.jsonSchema(strict: strict))
                #expect(text.hasPrefix("root ::= "), "\(task)")
                // Every rule that is used is defined.
                let defined = Set(text.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) })
                for line in text.split(separator: "\n") {
                    let body = line.split(separator: "::=", maxSplits: 1).last ?? ""
                    let names = body.replacingOccurrences(of: #""(\\.|[^"\\])*"|\[(\\.|[^\]\\])*\]|\{[0-9,]*\}"#, with: " ", options: .regularExpression)
                        .split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-") })
                    for name in names where !name.isEmpty {
                        #expect(defined.contains(String(name)), "\(task): rule '\(name)' is used but not defined")
                    }
                }
            }
        }
    }

    // MARK: character sets

    @Test func scalarSetArithmetic() {
        let letters = GBNFScalarSet([0x61...0x7A, 0x41...0x5A])
        #expect(letters.ranges == [0x41...0x5A, 0x61...0x7A])
        #expect(letters.complement.complement == letters)
        #expect(letters.subtracting(GBNFScalarSet([0x61...0x61])).contains(0x61) == false)
        #expect(letters.intersection(GBNFScalarSet([0x50...0x62])).ranges == [0x50...0x5A, 0x61...0x62])
        #expect(GBNFScalarSet([0x30...0x35, 0x36...0x39]).ranges == [0x30...0x39])
        #expect(GBNFScalarSet.all.complement.isEmpty)
    }
}
