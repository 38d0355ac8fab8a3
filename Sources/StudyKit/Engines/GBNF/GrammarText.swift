// MARK: - Sets of characters

/// A set of Unicode scalar values as sorted, disjoint, non-adjacent closed ranges.
///
/// Regex character classes are turned into these so that the JSON-escaping rules (a `"`, a `\`
/// or a control character can only appear escaped inside a JSON string) can be applied by set
/// arithmetic instead of by string surgery on the class text.
struct GBNFScalarSet: Hashable, Sendable {
    /// The largest Unicode scalar value.
    static let maximum: UInt32 = 0x10FFFF

    private(set) var ranges: [ClosedRange<UInt32>]

    init(_ ranges: [ClosedRange<UInt32>] = []) {
        self.ranges = Self.normalized(ranges)
    }

    /// Every scalar.
    static let all = GBNFScalarSet([0...maximum])

    var isEmpty: Bool { ranges.isEmpty }

    func contains(_ value: UInt32) -> Bool { ranges.contains { $0.contains(value) } }

    func union(_ other: GBNFScalarSet) -> GBNFScalarSet { GBNFScalarSet(ranges + other.ranges) }

    /// Everything from U+0000 to U+10FFFF that is not in this set.
    var complement: GBNFScalarSet {
        var result: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for range in ranges {
            if range.lowerBound > next { result.append(next...(range.lowerBound - 1)) }
            if range.upperBound == Self.maximum { return GBNFScalarSet(result) }
            next = range.upperBound + 1
        }
        result.append(next...Self.maximum)
        return GBNFScalarSet(result)
    }

    /// Scalars in this set and not in `other`.
    func subtracting(_ other: GBNFScalarSet) -> GBNFScalarSet { intersection(other.complement) }

    private static func normalized(_ input: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        let sorted = input.sorted { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<UInt32>] = []
        for range in sorted {
            if let last = merged.last, range.lowerBound <= last.upperBound &+ 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }
}

// MARK: - Writing GBNF

/// Spelling GBNF terminals: quoted literals and character classes, with every character that
/// llama.cpp's grammar parser treats specially written as an escape.
enum GBNFText {
    /// A GBNF string literal matching exactly `text`.
    static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars { out += literalCharacter(scalar.value) }
        return out + "\""
    }

    /// A GBNF character class matching the scalars of `set` (negated when that is shorter).
    static func characterClass(_ set: GBNFScalarSet) -> String {
        let complement = set.complement
        if complement.ranges.count <= set.ranges.count {
            return "[^" + complement.ranges.map(classRange).joined() + "]"
        }
        return "[" + set.ranges.map(classRange).joined() + "]"
    }

    /// The JSON spelling of one decoded scalar inside a string: `"` → `\"`, newline → `\n`, …
    static func jsonEscaped(_ value: UInt32) -> String {
        switch value {
        case 0x22: return "\\\""
        case 0x5C: return "\\\\"
        case 0x0A: return "\\n"
        case 0x09: return "\\t"
        case 0x0D: return "\\r"
        case 0x08: return "\\b"
        case 0x0C: return "\\f"
        case 0x00...0x1F: return "\\u" + hex(value, width: 4)
        default: return Unicode.Scalar(value).map { String(Character($0)) } ?? ""
        }
    }

    /// A GBNF literal for the JSON-encoded form of the decoded `text`.
    static func jsonStringContentLiteral(_ text: String) -> String {
        literal(text.unicodeScalars.map { jsonEscaped($0.value) }.joined())
    }

    /// Scalars that may appear raw (unescaped) inside a JSON string: everything but `"`, `\` and
    /// the C0 control characters (RFC 8259 §7).
    static let rawJSONStringScalars = GBNFScalarSet([0x20...0x21, 0x23...0x5B, 0x5D...GBNFScalarSet.maximum])

    /// The decoded scalars a generated JSON escape sequence may stand for, with the letter that
    /// follows the backslash. `\uXXXX`, `\b`, `\f` and `\/` are never generated: the model has no
    /// need for them, and a grammar that allows fewer spellings is still correct.
    static let generatedEscapes: [(value: UInt32, letter: String)] = [
        (0x22, "\""), (0x5C, "\\"), (0x0A, "n"), (0x09, "t"), (0x0D, "r"),
    ]

    /// A GBNF expression matching the JSON encoding of any one scalar of `decoded`: the raw
    /// characters as a class, plus `\` and an escape letter for `"`, `\`, newline, tab, return.
    /// - Returns: `nil` when no scalar of `decoded` can be written.
    static func jsonCharacter(of decoded: GBNFScalarSet) -> String? {
        // One character is clearest as a literal of its JSON spelling.
        if decoded.ranges.count == 1, decoded.ranges[0].count == 1 {
            return literal(jsonEscaped(decoded.ranges[0].lowerBound))
        }
        let raw = rawJSONStringScalars.intersection(decoded)
        let letters = generatedEscapes.filter { decoded.contains($0.value) }.map(\.letter)
        var alternatives: [String] = []
        if !raw.isEmpty { alternatives.append(characterClass(raw)) }
        if !letters.isEmpty {
            let escape = letters.map { classCharacter($0.unicodeScalars.first!.value) }.joined()
            alternatives.append(literal("\\") + " [" + escape + "]")
        }
        switch alternatives.count {
        case 0: return nil
        case 1: return alternatives[0]
        default: return "(" + alternatives.joined(separator: " | ") + ")"
        }
    }

    /// Whether `expression` is one token or one parenthesized group, so a quantifier can follow
    /// it directly; quoted strings and classes are skipped while matching parentheses.
    static func isSingleUnit(_ expression: String) -> Bool {
        let characters = Array(expression)
        guard let first = characters.first else { return false }
        var index = 0
        func skip(from start: Int, closing: Character) -> Int {
            var position = start + 1
            while position < characters.count, characters[position] != closing {
                position += characters[position] == "\\" ? 2 : 1
            }
            return position + 1
        }
        switch first {
        case "\"": index = skip(from: 0, closing: "\"")
        case "[": index = skip(from: 0, closing: "]")
        case "(":
            var depth = 0
            while index < characters.count {
                switch characters[index] {
                case "\"": index = skip(from: index, closing: "\"")
                case "[": index = skip(from: index, closing: "]")
                case "(": depth += 1; index += 1
                case ")":
                    depth -= 1
                    index += 1
                    if depth == 0 { return index == characters.count }
                default: index += 1
                }
            }
            return false
        default:
            return !expression.contains(" ")
        }
        return index == characters.count
    }

    // MARK: characters

    private static func classRange(_ range: ClosedRange<UInt32>) -> String {
        if range.lowerBound == range.upperBound { return classCharacter(range.lowerBound) }
        return classCharacter(range.lowerBound) + "-" + classCharacter(range.upperBound)
    }

    /// Letters and digits as themselves; everything else escaped, so `-`, `^`, `]` and `\`
    /// never change a class's meaning and a space stays visible.
    private static func classCharacter(_ value: UInt32) -> String {
        switch value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return String(Character(Unicode.Scalar(value)!))
        default: return escapedCharacter(value)
        }
    }

    private static func literalCharacter(_ value: UInt32) -> String {
        switch value {
        case 0x22: return "\\\""
        case 0x5C: return "\\\\"
        case 0x20...0x7E: return String(Character(Unicode.Scalar(value)!))
        default: return escapedCharacter(value)
        }
    }

    private static func escapedCharacter(_ value: UInt32) -> String {
        switch value {
        case 0...0xFF: return "\\x" + hex(value, width: 2)
        case 0...0xFFFF: return "\\u" + hex(value, width: 4)
        default: return "\\U" + hex(value, width: 8)
        }
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

extension GBNFScalarSet {
    /// Scalars in both sets.
    func intersection(_ other: GBNFScalarSet) -> GBNFScalarSet {
        complement.union(other.complement).complement
    }
}
