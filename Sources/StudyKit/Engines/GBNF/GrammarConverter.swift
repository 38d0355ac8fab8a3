// MARK: - JSON Schema → GBNF

/// Converts a JSON Schema into a GBNF grammar that llama.cpp's grammar sampler enforces token
/// by token, so even a very small model can only write JSON of the requested shape.
///
/// Written for studykit's schemas (``GenerationSchema/jsonSchema(strict:)``): objects (every
/// declared property, in declared order), arrays with `minItems`/`maxItems`, strings with
/// `minLength`/`maxLength` or a `pattern` (see ``PatternGrammar``), string `enum`s, integers
/// and numbers (with `minimum`/`maximum`), booleans and `null`, and lists of types (`["string", "null"]`). Keywords
/// that only describe (`description`, `title`, `$schema`, `additionalProperties: false`) are ignored; anything that
/// would change the accepted language and is not understood (`anyOf`, `$ref`, `const`, …) is
/// refused, so the grammar is never looser than the schema without saying so.
///
/// The grammar may be *stricter* than the schema where that helps generation: optional
/// properties are always written, whitespace is at most one space between tokens, and only the
/// common JSON escapes are generated. Output is still validated against the schema afterwards,
/// because a `pattern` and a `maxLength` on the same string cannot both be expressed here (the
/// pattern wins) and a number's range is only approximated.
enum GrammarConverter {
    /// The grammar for the JSON Schema in `text`; the start rule is `root`.
    /// - Throws: ``GrammarError``.
    public static func grammar(forJSONSchema text: String) throws(GrammarError) -> String {
        let schema: JSONValue
        do {
            schema = try JSONValue.parse(text)
        } catch {
            throw .notJSON(error.message)
        }
        return try grammar(for: schema)
    }

    /// The grammar for `schema`; the start rule is `root`.
    /// - Throws: ``GrammarError``.
    public static func grammar(for schema: JSONValue) throws(GrammarError) -> String {
        var rules = RuleSet()
        let root = try rules.expression(for: schema, path: "", name: "root")
        rules.define("root", root, exact: true)
        return rules.text
    }
}

// MARK: - Rules

/// The rules of one grammar, named after their JSON path and shared when their bodies match
/// (the mind map repeats one node shape at every level; the grammar holds it once).
private struct RuleSet {
    private var order: [String] = []
    private var bodies: [String: String] = [:]
    private var nameForBody: [String: String] = [:]

    /// Whitespace between JSON tokens: nothing or one space. A small model given free
    /// whitespace may spend its budget on newlines; none is needed for valid JSON.
    static let space = "sp"

    init() {
        define(Self.space, "\" \"?", exact: true)
    }

    var text: String {
        // `root` first, as llama.cpp's examples do; the rest in the order they were made.
        let names = ["root"] + order.filter { $0 != "root" }
        return names.map { "\($0) ::= \(bodies[$0] ?? "")" }.joined(separator: "\n") + "\n"
    }

    /// Adds a rule and returns its name; an identical body already defined is reused.
    @discardableResult
    mutating func define(_ name: String, _ body: String, exact: Bool = false) -> String {
        if !exact, let existing = nameForBody[body] { return existing }
        var unique = name
        var suffix = 2
        while bodies[unique] != nil {
            unique = "\(name)-\(suffix)"
            suffix += 1
        }
        order.append(unique)
        bodies[unique] = body
        if nameForBody[body] == nil { nameForBody[body] = unique }
        return unique
    }

    /// A GBNF expression for `schema` at `path`, defining named rules for its parts.
    mutating func expression(for schema: JSONValue, path: String, name: String) throws(GrammarError) -> String {
        guard let object = schema.objectValue else {
            if case .bool(true) = schema { return try anyValue() }
            throw .unsupported(path: display(path), detail: "a schema that is not an object")
        }
        for key in object.keys where !Self.understood.contains(key) {
            throw .unsupported(path: display(path), detail: "the keyword '\(key)'")
        }
        if let cases = object["enum"] {
            return try enumeration(cases, path: path, name: name)
        }
        guard let type = object["type"] else {
            throw .unsupported(path: display(path), detail: "a schema without a 'type'")
        }
        // A list of types (`["string", "null"]`, how a strict schema spells an optional member)
        // is the choice between each type with the same keywords.
        if let names = type.arrayValue, !names.isEmpty, names.allSatisfy({ $0.stringValue != nil }) {
            var alternatives: [String] = []
            for (index, single) in names.enumerated() {
                var variant = object
                variant["type"] = single
                alternatives.append(try expression(for: .object(variant), path: path, name: name + "-\(index)"))
            }
            return define(name, "(" + alternatives.joined(separator: " | ") + ")")
        }
        guard let typeName = type.stringValue else {
            throw .unsupported(path: display(path), detail: "a 'type' that is not a single name (\(type.compactText))")
        }
        switch typeName {
        case "object": return try objectRule(object, path: path, name: name)
        case "array": return try arrayRule(object, path: path, name: name)
        case "string": return try stringRule(object, path: path, name: name)
        case "integer": return try integerRule(object, path: path, name: name)
        case "number": return try numberRule(object, path: path, name: name)
        case "boolean": return define("boolean", "(\"true\" | \"false\")")
        case "null": return define("null", "\"null\"")
        default: throw .unsupported(path: display(path), detail: "the type '\(typeName)'")
        }
    }

    /// Keywords read below, or harmless to ignore (annotations, and `additionalProperties`,
    /// since no extra property is ever generated).
    private static let understood: Set<String> = [
        "type", "properties", "required", "additionalProperties", "items", "minItems", "maxItems",
        "minLength", "maxLength", "pattern", "enum", "minimum", "maximum", "description", "title",
        "$schema", "examples", "default", "format",
    ]

    // MARK: objects and arrays

    private mutating func objectRule(_ object: JSONObject, path: String, name: String) throws(GrammarError) -> String {
        guard let properties = object["properties"]?.objectValue, !properties.isEmpty else {
            if object["properties"] == nil, object["additionalProperties"] != .bool(false) {
                throw .unsupported(path: display(path), detail: "an object without 'properties'")
            }
            return define(name, "\"{\" \(Self.space) \"}\"")
        }
        if let required = object["required"]?.arrayValue {
            for entry in required {
                guard let key = entry.stringValue, properties[key] != nil else {
                    throw .contradictory(path: display(path),
                        detail: "'required' names \(entry.compactText), which is not a property")
                }
            }
        }
        var members: [String] = []
        for (key, value) in properties {
            let childPath = path.isEmpty ? key : path + "." + key
            let child = try expression(for: value, path: childPath, name: ruleName(key))
            members.append("\(GBNFText.literal(jsonString(key))) \(Self.space) \":\" \(Self.space) \(child)")
        }
        let body = "\"{\" \(Self.space) "
            + members.joined(separator: " \",\" \(Self.space) ")
            + " \(Self.space) \"}\""
        return define(name, body)
    }

    private mutating func arrayRule(_ object: JSONObject, path: String, name: String) throws(GrammarError) -> String {
        guard let items = object["items"] else {
            throw .unsupported(path: display(path), detail: "an array without 'items'")
        }
        let minimum = try count(object, "minItems", path: path) ?? 0
        let maximum = try count(object, "maxItems", path: path)
        if let maximum, maximum < minimum {
            throw .contradictory(path: display(path), detail: "minItems \(minimum) is above maxItems \(maximum)")
        }
        let item = try expression(for: items, path: path + "[]", name: name + "-item")
        let next = "(\",\" \(Self.space) \(item))"
        let open = "\"[\" \(Self.space) "
        let close = " \(Self.space) \"]\""
        let body: String
        switch (minimum, maximum) {
        case (_, 0?):
            body = open + "\"]\""
        case (0, nil):
            body = open + "(\(item) \(next)*)?" + close
        case (0, let high?):
            body = open + "(\(item) \(repeated(next, 0, high - 1)))?" + close
        case (let low, nil):
            body = open + "\(item) \(repeated(next, low - 1, nil))" + close
        case (let low, let high?):
            body = open + "\(item) \(repeated(next, low - 1, high - 1))" + close
        }
        return define(name, body)
    }

    // MARK: strings

    private mutating func stringRule(_ object: JSONObject, path: String, name: String) throws(GrammarError) -> String {
        if let pattern = object["pattern"] {
            guard let text = pattern.stringValue else {
                throw .unsupported(path: display(path), detail: "a 'pattern' that is not a string")
            }
            let content = try PatternGrammar.expression(for: text)
            return define(name, "\"\\\"\" \(content) \"\\\"\"")
        }
        let minimum = try count(object, "minLength", path: path) ?? 0
        let maximum = try count(object, "maxLength", path: path)
        if let maximum, maximum < minimum {
            throw .contradictory(path: display(path), detail: "minLength \(minimum) is above maxLength \(maximum)")
        }
        let character = define("char", GBNFText.jsonCharacter(of: .all)!)
        return define(name, "\"\\\"\" \(repeated(character, minimum, maximum)) \"\\\"\"")
    }

    private mutating func enumeration(_ cases: JSONValue, path: String, name: String) throws(GrammarError) -> String {
        guard let values = cases.arrayValue, !values.isEmpty else {
            throw .contradictory(path: display(path), detail: "'enum' lists no values")
        }
        // Any JSON value may be an enum member; written compactly, which is how it is generated.
        let alternatives = values.map { GBNFText.literal($0.compactText) }
        return define(name, "(" + alternatives.joined(separator: " | ") + ")")
    }

    // MARK: numbers

    private mutating func integerRule(_ object: JSONObject, path: String, name: String) throws(GrammarError) -> String {
        let minimum = try bound(object, "minimum", path: path).map { Int(($0).rounded(.up)) }
        let maximum = try bound(object, "maximum", path: path).map { Int(($0).rounded(.down)) }
        if let minimum, let maximum {
            if maximum < minimum {
                throw .contradictory(path: display(path), detail: "minimum \(minimum) is above maximum \(maximum)")
            }
            // A small range is spelled out, so the grammar is exact (an answer index 0…3, a score 0…10).
            if maximum - minimum < 64 {
                return define(name, "(" + (minimum...maximum).map { "\"\($0)\"" }.joined(separator: " | ") + ")")
            }
        }
        // Otherwise bound the number of digits, and the sign; the exact range is validated afterwards.
        let negative = minimum.map { $0 < 0 } ?? true
        let positive = maximum.map { $0 > 0 } ?? true
        let largest = max(abs(minimum ?? Int(Int32.max)), abs(maximum ?? Int(Int32.max)))
        let digits = String(largest).count
        let magnitude = "(\"0\" | [1-9] [0-9]{0,\(digits - 1)})"
        let body: String
        switch (negative, positive) {
        case (true, true): body = "\"-\"? \(magnitude)"
        case (true, false): body = "(\"0\" | \"-\" [1-9] [0-9]{0,\(digits - 1)})"
        default: body = magnitude
        }
        return define(name, body)
    }

    private mutating func numberRule(_ object: JSONObject, path: String, name: String) throws(GrammarError) -> String {
        let minimum = try bound(object, "minimum", path: path)
        let maximum = try bound(object, "maximum", path: path)
        if let minimum, let maximum, maximum < minimum {
            throw .contradictory(path: display(path), detail: "minimum \(minimum) is above maximum \(maximum)")
        }
        let sign = (minimum.map { $0 < 0 } ?? true) ? "\"-\"? " : ""
        return define(name, sign + "(\"0\" | [1-9] [0-9]{0,15}) (\".\" [0-9]{1,15})? ([eE] [-+]? [0-9]{1,3})?")
    }

    // MARK: any value (a `true` schema)

    private mutating func anyValue() throws(GrammarError) -> String {
        let character = define("char", GBNFText.jsonCharacter(of: .all)!)
        let string = define("any-string", "\"\\\"\" \(character)* \"\\\"\"")
        let number = define("any-number", "\"-\"? (\"0\" | [1-9] [0-9]*) (\".\" [0-9]+)? ([eE] [-+]? [0-9]+)?")
        let scalar = define("any-scalar", "(\(string) | \(number) | \"true\" | \"false\" | \"null\")")
        // Nesting is one level deep: a recursive rule would be fine for llama.cpp, but no
        // studykit schema needs it and a flat shape keeps a small model from looping.
        let array = define("any-array",
            "\"[\" \(Self.space) (\(scalar) (\",\" \(Self.space) \(scalar))*)? \(Self.space) \"]\"")
        let member = "\(string) \(Self.space) \":\" \(Self.space) (\(scalar) | \(array))"
        let object = define("any-object",
            "\"{\" \(Self.space) (\(member) (\",\" \(Self.space) \(member))*)? \(Self.space) \"}\"")
        return define("any-value", "(\(scalar) | \(array) | \(object))")
    }

    // MARK: helpers

    private func repeated(_ item: String, _ minimum: Int, _ maximum: Int?) -> String {
        switch (minimum, maximum) {
        case (0, nil): return item + "*"
        case (1, nil): return item + "+"
        case (0, 1?): return item + "?"
        case (let low, nil): return item + "{\(low),}"
        case (let low, let high?) where low == high: return low == 1 ? item : item + "{\(low)}"
        case (let low, let high?): return item + "{\(low),\(high)}"
        }
    }

    private func count(_ object: JSONObject, _ key: String, path: String) throws(GrammarError) -> Int? {
        guard let value = object[key] else { return nil }
        guard let number = value.integerValue, number >= 0 else {
            throw .contradictory(path: display(path),
                detail: "'\(key)' is \(value.compactText), not a whole number ≥ 0")
        }
        return number
    }

    private func bound(_ object: JSONObject, _ key: String, path: String) throws(GrammarError) -> Double? {
        guard let value = object[key] else { return nil }
        guard let number = value.doubleValue, number.isFinite else {
            throw .contradictory(path: display(path), detail: "'\(key)' is \(value.compactText), not a number")
        }
        return number
    }

    private func display(_ path: String) -> String { path.isEmpty ? "(root)" : path }

    /// The JSON text of a member name, without the quotes GBNFText adds.
    private func jsonString(_ key: String) -> String {
        "\"" + key.unicodeScalars.map { GBNFText.jsonEscaped($0.value) }.joined() + "\""
    }

    /// A GBNF rule name from a property name: letters, digits and `-` only.
    private func ruleName(_ key: String) -> String {
        var name = ""
        for scalar in key.unicodeScalars {
            switch scalar.value {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: name.unicodeScalars.append(scalar)
            default: if !name.hasSuffix("-") { name += "-" }
            }
        }
        return name.isEmpty || name == "-" ? "member" : name
    }
}
