/// Terminal safety for JSON: Text's ``TerminalSafety`` cleans strings, and the JSON value type is
/// Schema's, so the overload that cleans every string of a value lives here, one layer up.
extension TerminalSafety {
    /// `value` with every string in it (member names too) cleaned by ``clean(_:)-(String)``.
    public static func clean(_ value: JSONValue) -> JSONValue {
        switch value {
        case .null, .bool, .integer, .number: return value
        case .string(let text): return .string(clean(text))
        case .array(let elements): return .array(elements.map(clean))
        case .object(let object):
            return .object(JSONObject(object.map { (clean($0.key), clean($0.value)) }))
        }
    }
}
