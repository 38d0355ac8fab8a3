import Foundation
import Testing
@testable import StudyKit

@Suite("JSONValue parsing and serialization")
struct JSONValueTests {
    @Test func parsesAndKeepsMemberOrder() throws {
        let value = try JSONValue.parse(#" { "zeta": 1, "alpha": [true, false, null], "mid": {"b": 2.5, "a": -3e2} } "#)
        #expect(value.objectValue?.keys == ["zeta", "alpha", "mid"])
        #expect(value["mid"]?.objectValue?.keys == ["b", "a"])
        #expect(value["zeta"] == .integer(1))
        #expect(value["mid"]?["b"] == .number(2.5))
        #expect(value["mid"]?["a"] == .number(-300))
        #expect(value.compactText == #"{"zeta":1,"alpha":[true,false,null],"mid":{"b":2.5,"a":-300.0}}"#)
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let value = try JSONValue.parse(#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00""#)
        #expect(value == .string("a\"b\\c/d\n\té😀"))
    }

    @Test func serializesEscapesAndControlCharacters() {
        let value: JSONValue = ["text": .string("quote \" slash \\ line\nbell\u{07} é")]
        #expect(value.compactText == #"{"text":"quote \" slash \\ line\nbell\u0007 é"}"#)
    }

    @Test func prettyTextUsesTwoSpacesAndDeclaredOrder() {
        let value: JSONValue = ["b": 1, "a": ["x", []], "c": [:]]
        #expect(value.prettyText == """
            {
              "b": 1,
              "a": [
                "x",
                []
              ],
              "c": {}
            }
            """)
    }

    @Test(arguments: [
        #"{"a":[1,2,{"b":null}],"c":"d"}"#, "[]", "{}", "0", "-0.5", "1e-7", #""x""#, "true", "12345678901234567890",
    ])
    func roundTripsThroughCompactText(_ text: String) throws {
        let value = try JSONValue.parse(text)
        #expect(try JSONValue.parse(value.compactText) == value)
        #expect(try JSONValue.parse(value.prettyText) == value)
    }

    @Test func objectSubscriptReplacesInPlaceAndRemoves() {
        var object: JSONObject = ["a": 1, "b": 2, "c": 3]
        object["a"] = 10
        object["b"] = nil
        object["d"] = 4
        #expect(object.keys == ["a", "c", "d"])
        #expect(JSONValue.object(object).compactText == #"{"a":10,"c":3,"d":4}"#)
    }

    @Test func integralNumbersCountAsIntegers() {
        #expect(JSONValue.number(3.0).integerValue == 3)
        #expect(JSONValue.number(3.5).integerValue == nil)
        #expect(JSONValue.string("3").integerValue == nil)
    }

    struct MalformedCase: Sendable, CustomTestStringConvertible {
        let text: String
        let detail: String
        var testDescription: String { text }
    }

    @Test(arguments: [
        MalformedCase(text: "", detail: "the output is empty"),
        MalformedCase(text: "   \n", detail: "the output is empty"),
        MalformedCase(text: "Sure! Here is the JSON", detail: "unexpected 'S' at line 1, column 1, expected a JSON value"),
        MalformedCase(text: #"{"a": 1} and more"#, detail: "unexpected text after the JSON value at line 1, column 10"),
        MalformedCase(text: "{'a': 1}", detail: "expected a quoted member name at line 1, column 2, found '''"),
        MalformedCase(text: #"{"a": 1,}"#, detail: "expected a quoted member name at line 1, column 9, found '}'"),
        MalformedCase(text: #"{"a" 1}"#, detail: "expected ':' at line 1, column 6, found '1'"),
        MalformedCase(text: #"[1 2]"#, detail: "expected ',' or ']' at line 1, column 4, found '2'"),
        MalformedCase(text: #"{"a": 1 "b": 2}"#, detail: "expected ',' or '}' at line 1, column 9, found '\"'"),
        MalformedCase(text: #"{"a": 01}"#, detail: "invalid number \"01\" at line 1, column 7"),
        MalformedCase(text: #"{"a": trve}"#, detail: "unexpected 't' at line 1, column 7, expected a JSON value"),
        MalformedCase(text: "{\"a\": \"line\nbreak\"}", detail: "unescaped control character in a string at line 1, column 12"),
        MalformedCase(text: #"{"a": "\x"}"#, detail: "invalid escape in a string at line 1, column 8"),
        MalformedCase(text: #"{"a": "\ud83d"}"#, detail: "unpaired surrogate escape in a string at line 1, column 8"),
        MalformedCase(text: #"{"a": 1, "a": 2}"#, detail: "duplicate member \"a\" at line 1, column 10"),
        MalformedCase(text: "\n\n  {\"a\": ?}", detail: "unexpected '?' at line 3, column 9, expected a JSON value"),
    ])
    func malformedInputIsMalformed(_ example: MalformedCase) {
        #expect(throws: SchemaError.malformed(example.detail)) { try JSONValue.parse(example.text) }
    }

    @Test(arguments: [#"{"a": [1, {"b": "text", "c": true, "d": null, "e": -12.5e3}], "f": "\u00e9\n"}"#, "[1, 2, 3]"])
    func everyProperPrefixIsTruncated(_ document: String) throws {
        _ = try JSONValue.parse(document)
        let characters = Array(document)
        for length in 1..<characters.count {
            let prefix = String(characters[0..<length])
            #expect(throws: SchemaError.truncated, "prefix \(prefix)") { try JSONValue.parse(prefix) }
        }
    }

    @Test(arguments: ["-", "1.", "1e", "1e+", "tru", "nul", "fals", #""abc"#, #""abc\"#, #""\u00"#, #""\ud83d"#])
    func cutScalarsAreTruncated(_ text: String) {
        #expect(throws: SchemaError.truncated) { try JSONValue.parse(text) }
    }

    @Test func deepNestingIsRejectedNotCrashed() {
        let text = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(throws: SchemaError.malformed("nesting deeper than 128 levels at line 1, column 129")) {
            try JSONValue.parse(text)
        }
    }
}
