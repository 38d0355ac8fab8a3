/// A JSON value whose objects keep their members in insertion order.
///
/// Order matters to us twice: a model generates fields in the order the schema lists them,
/// and `studykit schema` / `--json` output must be byte-for-byte deterministic. Foundation's
/// `JSONSerialization` loses both, so studykit carries its own small value type.
///
/// Integers and other numbers are distinct cases so that `3` round-trips as `3`, not `3.0`.
/// Equality is structural and order-sensitive for objects.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without a fraction or exponent that fits in `Int`.
    case integer(Int)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, members in insertion order.
    case object(JSONObject)

    /// The member named `key` when this is an object; `nil` otherwise.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The string payload, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer payload, accepting a number with no fractional part (JSON Schema's rule).
    public var integerValue: Int? {
        switch self {
        case .integer(let value): return value
        case .number(let value):
            guard value.isFinite, value.rounded() == value, abs(value) < 9.0e15 else { return nil }
            return Int(value)
        default: return nil
        }
    }

    /// The numeric payload of an integer or a number.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        default: return nil
        }
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The object, if this is an object.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The number of scalar leaves (strings, numbers, booleans, nulls) in this value.
    ///
    /// A streaming display uses it to tell that a snapshot has grown.
    public var leafCount: Int {
        switch self {
        case .null, .bool, .integer, .number, .string: return 1
        case .array(let elements): return elements.reduce(0) { $0 + $1.leafCount }
        case .object(let object): return object.reduce(0) { $0 + $1.value.leafCount }
        }
    }
}

// MARK: - Ordered object

/// A JSON object that remembers the order its members were added in.
///
/// Setting an existing key replaces its value in place; setting `nil` removes it.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// The member names, in order.
    public private(set) var keys: [String] = []
    private var storage: [String: JSONValue] = [:]

    /// An empty object.
    public init() {}

    /// An object with `members` in the given order; a repeated key keeps its first position and last value.
    public init(_ members: [(String, JSONValue)]) {
        for (key, value) in members { self[key] = value }
    }

    /// An object literal; the literal's order is kept.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }

    /// The value for `key`, or `nil`. Assigning `nil` removes the member.
    public subscript(key: String) -> JSONValue? {
        get { storage[key] }
        set {
            if let newValue {
                if storage.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if storage.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    /// The number of members.
    public var count: Int { keys.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { keys.isEmpty }

    /// Iterates members in insertion order.
    public func makeIterator() -> AnyIterator<(key: String, value: JSONValue)> {
        var index = 0
        return AnyIterator {
            guard index < keys.count else { return nil }
            defer { index += 1 }
            let key = keys[index]
            return (key, storage[key] ?? .null)
        }
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// `null`.
    public init(nilLiteral: ()) { self = .null }
    /// A boolean literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer literal.
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// A floating-point literal.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array literal.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object literal; the literal's order is kept.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
}

// MARK: - Serialization

extension JSONValue {
    /// The value as compact JSON text (no spaces, members in order). Deterministic.
    public var compactText: String {
        var out = ""
        JSONTextWriter.write(self, into: &out, indent: nil, level: 0)
        return out
    }

    /// The value as pretty JSON text: two-space indent, `"key": value`, members in order. Deterministic.
    public var prettyText: String {
        var out = ""
        JSONTextWriter.write(self, into: &out, indent: "  ", level: 0)
        return out
    }
}

private enum JSONTextWriter {
    static func write(_ value: JSONValue, into out: inout String, indent: String?, level: Int) {
        switch value {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .integer(let number): out += String(number)
        case .number(let number):
            // JSON has no NaN or infinity; null is the conventional stand-in.
            out += number.isFinite ? "\(number)" : "null"
        case .string(let text): writeString(text, into: &out)
        case .array(let elements):
            guard !elements.isEmpty else { out += "[]"; return }
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += "," }
                newline(into: &out, indent: indent, level: level + 1)
                write(element, into: &out, indent: indent, level: level + 1)
            }
            newline(into: &out, indent: indent, level: level)
            out += "]"
        case .object(let object):
            guard !object.isEmpty else { out += "{}"; return }
            out += "{"
            for (index, member) in object.enumerated() {
                if index > 0 { out += "," }
                newline(into: &out, indent: indent, level: level + 1)
                writeString(member.key, into: &out)
                out += indent == nil ? ":" : ": "
                write(member.value, into: &out, indent: indent, level: level + 1)
            }
            newline(into: &out, indent: indent, level: level)
            out += "}"
        }
    }

    private static func newline(into out: inout String, indent: String?, level: Int) {
        guard let indent else { return }
        out += "\n"
        for _ in 0..<level { out += indent }
    }

    private static func writeString(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
