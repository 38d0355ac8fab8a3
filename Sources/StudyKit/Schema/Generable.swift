/// A result type a model generates as JSON against a schema we declare and check ourselves.
///
/// The counterpart of Apple's `@Generable`, written out by hand: a conforming type states its
/// ``generationSchema`` (with a description on every property, like `@Guide`), reads itself
/// from JSON, writes itself back (for `--json` and the cache), and adds the semantic checks a
/// schema cannot express. Use ``decode(modelOutput:)`` to turn a model's reply into a value.
public protocol Generable: Sendable {
    /// The shape the model must generate. Properties are emitted and generated in declared order.
    static var generationSchema: GenerationSchema { get }

    /// Reads the value from JSON.
    ///
    /// Checks shape only (members present, right types) and throws ``SchemaError/invalid(_:)``
    /// otherwise; limits and semantics are checked by ``decode(json:)``, which callers should use.
    init(json: JSONValue) throws(SchemaError)

    /// The value as JSON in the schema's member order; decoding it gives back an equal value.
    var jsonValue: JSONValue { get }

    /// Problems the schema cannot express (a title equal to its blurb, an answer index beyond
    /// the choices …), with paths relative to this value. Empty when the value is sound.
    func semanticIssues() -> [ValidationIssue]
}

extension Generable {
    /// Turns a model's reply into a checked value.
    ///
    /// Tolerates surrounding whitespace and one surrounding Markdown code fence (```` ```json ````).
    /// Members the schema does not declare are rejected, not ignored: the schema is ours, and a
    /// model that invents fields has not followed it.
    /// - Throws: ``SchemaError/truncated`` for JSON that ends mid-way, ``SchemaError/malformed(_:)``
    ///   for text that is not JSON, ``SchemaError/invalid(_:)`` listing every schema and semantic
    ///   problem. Nothing is ever repaired.
    public static func decode(modelOutput: String) throws(SchemaError) -> Self {
        try decode(json: JSONValue.parse(ModelOutputText.unfenced(modelOutput), allowingRawControlCharacters: true))
    }

    /// Checks `json` against the schema, reads it, then runs the semantic checks.
    /// - Throws: ``SchemaError/invalid(_:)`` with every problem found.
    public static func decode(json: JSONValue) throws(SchemaError) -> Self {
        let schemaIssues = generationSchema.validationIssues(for: json)
        guard schemaIssues.isEmpty else { throw .invalid(schemaIssues) }
        let value = try Self(json: json)
        let semantic = value.semanticIssues()
        guard semantic.isEmpty else { throw .invalid(semantic) }
        return value
    }

    /// Every schema and semantic problem of a value built in code (the builtin engine's, a cached one).
    public func validationIssues() -> [ValidationIssue] {
        let schemaIssues = Self.generationSchema.validationIssues(for: jsonValue)
        return schemaIssues.isEmpty ? semanticIssues() : schemaIssues
    }

    /// Throws ``SchemaError/invalid(_:)`` unless ``validationIssues()`` is empty. Run before returning or caching.
    public func validate() throws(SchemaError) {
        let issues = validationIssues()
        guard issues.isEmpty else { throw .invalid(issues) }
    }
}

// MARK: - Model output framing

/// Removes the framing models put around JSON.
enum ModelOutputText {
    /// `text` without surrounding whitespace and one surrounding Markdown code fence.
    ///
    /// An opening fence without a closing one is still removed: a reply cut off mid-way must
    /// reach the parser as truncated JSON, not as garbage.
    static func unfenced(_ text: String) -> String {
        let trimmed = text.trimmingWhitespace
        guard trimmed.hasPrefix("```") else { return trimmed }
        // The info string ("json", "JSON", "json5") sits right after the backticks.
        var body = trimmed.dropFirst(3).drop { $0.isLetter || $0.isNumber }
        body = Substring(String(body).trimmingWhitespace)
        if body.hasSuffix("```") { body = body.dropLast(3) }
        return String(body)
    }
}

private extension String {
    var trimmingWhitespace: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace })
        else {
            return ""
        }
        return String(self[first...last])
    }
}

// MARK: - Reading typed values

/// Reads the members of a JSON object for a ``Generable`` initializer, reporting the path of
/// anything missing or mistyped as ``SchemaError/invalid(_:)``.
struct GenerableFields {
    private let object: JSONObject
    private let path: String

    /// Wraps `json`, which must be an object.
    init(_ json: JSONValue, path: String = "") throws(SchemaError) {
        guard let object = json.objectValue else {
            throw .invalid([ValidationIssue(path: path, message: "is not an object")])
        }
        self.object = object
        self.path = path
    }

    private func member(_ key: String) throws(SchemaError) -> JSONValue {
        guard let value = object[key] else {
            throw .invalid([ValidationIssue(path: JSONPath.member(path, key), message: "is missing; add it")])
        }
        return value
    }

    private func mistyped(_ key: String, _ expected: String) -> SchemaError {
        .invalid([ValidationIssue(path: JSONPath.member(path, key), message: "must be \(expected)")])
    }

    /// A string member, trimmed of surrounding whitespace.
    func string(_ key: String) throws(SchemaError) -> String {
        guard let text = try member(key).stringValue else { throw mistyped(key, "a string") }
        return text.trimmingWhitespace
    }

    /// An optional string member, trimmed; `nil` when absent or `null`.
    func optionalString(_ key: String) throws(SchemaError) -> String? {
        guard let value = object[key], value != .null else { return nil }
        return try string(key)
    }

    /// A whole-number member.
    func integer(_ key: String) throws(SchemaError) -> Int {
        guard let number = try member(key).integerValue else { throw mistyped(key, "an integer") }
        return number
    }

    /// An array of strings, each trimmed.
    func strings(_ key: String) throws(SchemaError) -> [String] {
        guard let elements = try member(key).arrayValue else { throw mistyped(key, "an array") }
        var result: [String] = []
        for (index, element) in elements.enumerated() {
            guard let text = element.stringValue else {
                throw .invalid([ValidationIssue(
                    path: JSONPath.index(JSONPath.member(path, key), index), message: "must be a string")])
            }
            result.append(text.trimmingWhitespace)
        }
        return result
    }

    /// An array of objects, each read by `read` with its own path.
    func objects<Element>(
        _ key: String, _ read: (GenerableFields) throws(SchemaError) -> Element
    ) throws(SchemaError) -> [Element] {
        guard let elements = try member(key).arrayValue else { throw mistyped(key, "an array") }
        var result: [Element] = []
        for (index, element) in elements.enumerated() {
            result.append(try read(GenerableFields(element, path: JSONPath.index(JSONPath.member(path, key), index))))
        }
        return result
    }

    /// Like ``objects(_:_:)``, but an absent member reads as no elements (a mind map's grandchildren).
    func optionalObjects<Element>(
        _ key: String, _ read: (GenerableFields) throws(SchemaError) -> Element
    ) throws(SchemaError) -> [Element] {
        guard object[key] != nil else { return [] }
        return try objects(key, read)
    }

    /// A nested ``Generable`` value; issues it raises are prefixed with its path.
    func nested<Value: Generable>(_ key: String, as type: Value.Type) throws(SchemaError) -> Value {
        let value = try member(key)
        do {
            return try Value(json: value)
        } catch .invalid(let issues) {
            throw .invalid(issues.map { $0.prefixed(JSONPath.member(path, key)) })
        }
    }
}
