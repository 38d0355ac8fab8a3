// MARK: - A JSON Schema `pattern` as grammar

/// Turns a JSON Schema `pattern` (an ECMA-262 regular expression over the string's decoded
/// characters) into a GBNF expression over the string's JSON encoding.
///
/// The subset is what studykit's schemas emit (`^[^ …]+( [^ …]+){0,N}[.!?]?$` and sentence
/// shapes) plus the usual small pieces: literals, escapes (`\n`, `\t`, `\.`, `\d`, `\w`, `\s`,
/// `\uXXXX`), `.`, character classes with ranges and negation, groups (capturing or `(?:`),
/// alternation, and the quantifiers `*`, `+`, `?`, `{n}`, `{m,}`, `{m,n}`. Backreferences,
/// lookaround and lazy quantifiers are refused.
///
/// Every character the pattern can match is written the way JSON needs it: a `"` or `\` becomes
/// `\"` or `\\`, so nothing a pattern allows can end the JSON string early; a negated class never
/// lets a raw `"`, `\` or control character through.
struct PatternGrammar {
    private let pattern: String
    private let scalars: [UInt32]
    private var position = 0
    /// Where `scalars` starts in the pattern (after a leading `^`), for positions in messages.
    private var offset = 0

    /// Converts `pattern` into one GBNF expression (no surrounding quotes).
    /// - Throws: ``GrammarError/badPattern(pattern:detail:)``.
    static func expression(for pattern: String) throws(GrammarError) -> String {
        // `^` and `$` are only meaningful at the ends; an end without its anchor may have
        // anything before or after the match, exactly as a regex search would.
        var body = pattern.unicodeScalars.map(\.value)
        let anchoredStart = body.first == 0x5E
        if anchoredStart { body.removeFirst() }
        var anchoredEnd = false
        if body.last == 0x24 {
            var backslashes = 0
            var index = body.count - 2
            while index >= 0, body[index] == 0x5C { backslashes += 1; index -= 1 }
            if backslashes % 2 == 0 { anchoredEnd = true; body.removeLast() }
        }
        var parser = PatternGrammar(pattern: pattern, scalars: body)
        parser.offset = anchoredStart ? 1 : 0
        let node = try parser.parseAlternation()
        if let stray = parser.current {
            throw parser.failure("unexpected '\(parser.describe(stray))' at position "
                + "\(parser.position + parser.offset)")
        }
        let anything = Node.repetition(.characters(.all), minimum: 0, maximum: nil)
        var parts: [Node] = []
        if !anchoredStart { parts.append(anything) }
        parts.append(node)
        if !anchoredEnd { parts.append(anything) }
        return try parser.emit(parts.count == 1 ? node : .sequence(parts))
    }

    private init(pattern: String, scalars: [UInt32]) {
        self.pattern = pattern
        self.scalars = scalars
    }

    // MARK: the syntax tree

    private indirect enum Node {
        case sequence([Node])
        case alternation([Node])
        case characters(GBNFScalarSet)
        case repetition(Node, minimum: Int, maximum: Int?)
    }

    // MARK: parsing

    private var current: UInt32? { position < scalars.count ? scalars[position] : nil }

    private mutating func parseAlternation() throws(GrammarError) -> Node {
        var branches = [try parseSequence()]
        while current == 0x7C {  // |
            position += 1
            branches.append(try parseSequence())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func parseSequence() throws(GrammarError) -> Node {
        var items: [Node] = []
        while let scalar = current, scalar != 0x7C, scalar != 0x29 {  // | )
            var atom = try parseAtom()
            while let quantifier = try parseQuantifier() {
                atom = .repetition(atom, minimum: quantifier.minimum, maximum: quantifier.maximum)
            }
            items.append(atom)
        }
        return items.count == 1 ? items[0] : .sequence(items)
    }

    private mutating func parseAtom() throws(GrammarError) -> Node {
        guard let scalar = current else { throw failure("the pattern ends where a character was expected") }
        position += 1
        switch scalar {
        case 0x28:  // (
            let start = position - 1
            if current == 0x3F {  // ?
                guard position + 1 < scalars.count, scalars[position + 1] == 0x3A else {
                    throw failure("lookaround and named groups are not supported")
                }
                position += 2
            }
            let inner = try parseAlternation()
            guard current == 0x29 else { throw failure("a group opened at position \(start + offset) is not closed") }
            position += 1
            return inner
        case 0x5B:  // [
            return .characters(try parseClass())
        case 0x2E:  // .
            return .characters(GBNFScalarSet([0x0A...0x0A]).complement)
        case 0x5C:  // \
            return .characters(try parseEscape(inClass: false))
        case 0x5E, 0x24:
            throw failure("'\(describe(scalar))' is only supported at the start or end of the pattern")
        case 0x2A, 0x2B, 0x3F, 0x7B:
            throw failure("'\(describe(scalar))' at position \(position - 1 + offset) has nothing to repeat")
        default:
            return .characters(GBNFScalarSet([scalar...scalar]))
        }
    }

    private mutating func parseQuantifier() throws(GrammarError) -> (minimum: Int, maximum: Int?)? {
        guard let scalar = current else { return nil }
        let result: (minimum: Int, maximum: Int?)
        switch scalar {
        case 0x2A: position += 1; result = (0, nil)
        case 0x2B: position += 1; result = (1, nil)
        case 0x3F: position += 1; result = (0, 1)
        case 0x7B:
            position += 1
            guard let minimum = parseNumber() else { throw failure("'{' must be followed by a number") }
            var maximum: Int? = minimum
            if current == 0x2C {
                position += 1
                maximum = parseNumber()
            }
            guard current == 0x7D else { throw failure("a '{' repetition is not closed with '}'") }
            position += 1
            if let maximum, maximum < minimum {
                throw failure("the repetition {\(minimum),\(maximum)} has its bounds the wrong way round")
            }
            result = (minimum, maximum)
        default:
            return nil
        }
        if current == 0x3F { throw failure("lazy quantifiers are not supported") }
        return result
    }

    private mutating func parseNumber() -> Int? {
        var digits = ""
        while let scalar = current, (0x30...0x39).contains(scalar) {
            digits.unicodeScalars.append(Unicode.Scalar(scalar)!)
            position += 1
        }
        return Int(digits)
    }

    private mutating func parseClass() throws(GrammarError) -> GBNFScalarSet {
        var negated = false
        if current == 0x5E { negated = true; position += 1 }
        var set = GBNFScalarSet()
        var first = true
        while true {
            guard let scalar = current else { throw failure("a '[' class is not closed with ']'") }
            if scalar == 0x5D, !first { position += 1; break }  // ]
            first = false
            position += 1
            var member: GBNFScalarSet
            var single: UInt32? = scalar
            if scalar == 0x5C {
                member = try parseEscape(inClass: true)
                single = member.ranges.count == 1 && member.ranges[0].count == 1 ? member.ranges[0].lowerBound : nil
            } else {
                member = GBNFScalarSet([scalar...scalar])
            }
            // A range `a-z`, unless the `-` is the last character of the class.
            if let low = single, current == 0x2D, position + 1 < scalars.count, scalars[position + 1] != 0x5D {
                position += 1
                guard var high = current else { throw failure("a '[' class is not closed with ']'") }
                position += 1
                if high == 0x5C {
                    let escaped = try parseEscape(inClass: true)
                    guard escaped.ranges.count == 1, escaped.ranges[0].count == 1 else {
                        throw failure("a class range cannot end in a class escape")
                    }
                    high = escaped.ranges[0].lowerBound
                }
                guard low <= high else { throw failure("the class range '\(describe(low))-\(describe(high))' is out of "
                    + "order") }
                member = GBNFScalarSet([low...high])
            }
            set = set.union(member)
        }
        return negated ? set.complement : set
    }

    private mutating func parseEscape(inClass: Bool) throws(GrammarError) -> GBNFScalarSet {
        guard let scalar = current else { throw failure("the pattern ends with a lone backslash") }
        position += 1
        func one(_ value: UInt32) -> GBNFScalarSet { GBNFScalarSet([value...value]) }
        let digits = GBNFScalarSet([0x30...0x39])
        let word = GBNFScalarSet([0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
        let space = GBNFScalarSet([0x09...0x0D, 0x20...0x20, 0xA0...0xA0, 0x2028...0x2029, 0xFEFF...0xFEFF])
        switch scalar {
        case 0x6E: return one(0x0A)  // n
        case 0x74: return one(0x09)  // t
        case 0x72: return one(0x0D)  // r
        case 0x66: return one(0x0C)  // f
        case 0x76: return one(0x0B)  // v
        case 0x30: return one(0x00)  // 0
        case 0x64: return digits  // d
        case 0x44: return digits.complement  // D
        case 0x77: return word  // w
        case 0x57: return word.complement  // W
        case 0x73: return space  // s
        case 0x53: return space.complement  // S
        case 0x62 where inClass: return one(0x08)  // [\b] is backspace
        case 0x75:  // uXXXX
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let digit = current, let nibble = Self.hexValue(digit) else {
                    throw failure("'\\u' must be followed by four hex digits")
                }
                value = value * 16 + nibble
                position += 1
            }
            return one(value)
        case 0x31...0x39, 0x62, 0x42, 0x6B:
            throw failure("backreferences and word boundaries are not supported")
        case 0x41...0x5A, 0x61...0x7A:
            throw failure("the escape '\\\(describe(scalar))' is not supported")
        default:
            return one(scalar)  // an escaped punctuation character stands for itself
        }
    }

    private static func hexValue(_ scalar: UInt32) -> UInt32? {
        switch scalar {
        case 0x30...0x39: return scalar - 0x30
        case 0x41...0x46: return scalar - 0x41 + 10
        case 0x61...0x66: return scalar - 0x61 + 10
        default: return nil
        }
    }

    // MARK: emitting

    private func emit(_ node: Node) throws(GrammarError) -> String {
        switch node {
        case .sequence(let items):
            if items.isEmpty { return "\"\"" }
            var parts: [String] = []
            for item in items { parts.append(try emit(item)) }
            return parts.joined(separator: " ")
        case .alternation(let branches):
            var parts: [String] = []
            for branch in branches { parts.append(try emit(branch)) }
            return "(" + parts.joined(separator: " | ") + ")"
        case .characters(let set):
            guard let expression = GBNFText.jsonCharacter(of: set) else {
                throw failure("a character class matches nothing that can be written in a json string")
            }
            return expression
        case .repetition(let inner, let minimum, let maximum):
            let body = try emit(inner)
            let grouped = GBNFText.isSingleUnit(body) ? body : "(" + body + ")"
            switch (minimum, maximum) {
            case (0, nil): return grouped + "*"
            case (1, nil): return grouped + "+"
            case (0, 1): return grouped + "?"
            case (let low, nil): return grouped + "{\(low),}"
            case (let low, let high?) where low == high: return grouped + "{\(low)}"
            case (let low, let high?): return grouped + "{\(low),\(high)}"
            }
        }
    }

    private func failure(_ detail: String) -> GrammarError {
        .badPattern(pattern: pattern, detail: detail)
    }

    private func describe(_ scalar: UInt32) -> String {
        Unicode.Scalar(scalar).map { String(Character($0)) } ?? "?"
    }
}
