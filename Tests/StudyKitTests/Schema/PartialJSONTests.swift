import Testing
@testable import StudyKit

@Suite("Partial JSON snapshots while streaming")
struct PartialJSONTests {
    /// Every prefix of real outputs: a snapshot that re-parses to itself, growing leaf counts,
    /// and exactly the parsed value at the end.
    @Test(arguments: StudyTask.allCases)
    func everyPrefixOfAValidOutputGivesAGrowingSnapshot(_ task: StudyTask) throws {
        let text = try SchemaFixtures.validOutput(task)
        let characters = Array(text)
        var previousLeaves = 0
        for length in 0...characters.count {
            let prefix = String(characters[0..<length])
            guard let snapshot = JSONValue.partial(prefix) else {
                #expect(previousLeaves == 0, "snapshot vanished at \(length)")
                continue
            }
            #expect(try JSONValue.parse(snapshot.compactText) == snapshot, "snapshot at \(length) is not valid JSON")
            #expect(snapshot.leafCount >= previousLeaves, "leaves shrank at \(length): \(prefix)")
            previousLeaves = snapshot.leafCount
        }
        #expect(JSONValue.partial(text) == (try JSONValue.parse(text)))
    }

    @Test func fencedStreamIsReadPastTheFence() throws {
        let text = "```json\n" + (try SchemaFixtures.validOutput(.headline)) + "```\n"
        #expect(JSONValue.partial(text) == (try JSONValue.parse(try SchemaFixtures.validOutput(.headline))))
        #expect(JSONValue.partial("```js") == nil)
        #expect(JSONValue.partial("```json {\"a\": [1") == ["a": [1]])
        #expect(JSONValue.partial("```json\n{\"title\": \"Ho") == ["title": "Ho"])
    }

    struct Example: Sendable, CustomTestStringConvertible {
        let prefix: String
        let snapshot: JSONValue?
        var testDescription: String { prefix }
    }

    @Test(arguments: [
        Example(prefix: "", snapshot: nil),
        Example(prefix: "  ", snapshot: nil),
        Example(prefix: "{", snapshot: [:]),
        Example(prefix: #"{"ti"#, snapshot: [:]),
        Example(prefix: #"{"title""#, snapshot: [:]),
        Example(prefix: #"{"title": "#, snapshot: [:]),
        Example(prefix: #"{"title": "How Pl"#, snapshot: ["title": "How Pl"]),
        Example(prefix: #"{"title": "Say \"#, snapshot: ["title": "Say "]),
        Example(prefix: #"{"title": "caf\u00"#, snapshot: ["title": "caf"]),
        Example(prefix: #"{"title": "A", "bl"#, snapshot: ["title": "A"]),
        Example(prefix: #"{"ok": tr"#, snapshot: [:]),
        Example(prefix: #"{"ok": true"#, snapshot: ["ok": true]),
        Example(prefix: #"{"n": -"#, snapshot: [:]),
        Example(prefix: #"{"n": 12"#, snapshot: ["n": 12]),
        Example(prefix: #"{"n": 12."#, snapshot: ["n": 12]),
        Example(prefix: #"{"n": 12.5e"#, snapshot: ["n": 12.5]),
        Example(prefix: #"{"a": [1, "x", [true, {"b": nu"#, snapshot: ["a": [1, "x", [true, [:]]]]),
        Example(prefix: #"{"a": [1, 2], "b": {"c": "d"}}"#, snapshot: ["a": [1, 2], "b": ["c": "d"]]),
        Example(prefix: #"{"a": 1} trailing"#, snapshot: ["a": 1]),
        Example(prefix: #"{"a": 1, oops"#, snapshot: ["a": 1]),
        Example(prefix: "Sure, here", snapshot: nil),
    ])
    func completesOpenStructures(_ example: Example) {
        #expect(JSONValue.partial(example.prefix) == example.snapshot)
    }
}
