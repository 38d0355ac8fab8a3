// MARK: - Public entry points

extension JSONValue {
    /// Parses one complete JSON document (RFC 8259), keeping object member order.
    ///
    /// Surrounding whitespace is allowed; anything else after the value is not.
    /// - Throws: ``SchemaError/truncated`` when the text is a proper prefix of JSON — it ends
    ///   inside a string, array, object, literal or number — and ``SchemaError/malformed(_:)``
    ///   for anything else that is not JSON, including empty text and duplicate object keys.
    ///   Truncated text is never completed: that is ``partial(_:)``'s job, for display only.
    /// - Parameter allowingRawControlCharacters: accept unescaped control characters (a raw
    ///   newline or tab) inside strings as the characters they are. Model output needs this:
    ///   llama.cpp's JSON grammar lets them through, and validation then judges the text.
    public static func parse(
        _ text: String, allowingRawControlCharacters: Bool = false
    ) throws(SchemaError) -> JSONValue {
        var scanner = JSONScanner(text, allowingRawControlCharacters: allowingRawControlCharacters)
        scanner.skipWhitespace()
        if scanner.atEnd { throw .malformed("the output is empty") }
        do throws(JSONScanner.Stop) {
            let value = try scanner.strictValue(depth: 0)
            scanner.skipWhitespace()
            if !scanner.atEnd {
                throw JSONScanner.Stop.bad("unexpected text after the JSON value at \(scanner.location)")
            }
            return value
        } catch {
            switch error {
            case .end: throw .truncated
            case .bad(let detail): throw .malformed(detail)
            }
        }
    }

    /// A display snapshot of a JSON document that is still streaming in.
    ///
    /// Given any prefix of a JSON document, open strings, arrays and objects are closed, and a
    /// dangling key (with or without its colon) or a half-written literal is dropped; a number
    /// cut mid-way keeps its longest valid prefix. A leading Markdown code fence line is skipped.
    /// Never throws: input that stops being JSON ends the snapshot there.
    /// For a complete document it returns exactly what ``parse(_:)`` returns.
    ///
    /// The snapshot is for showing progress only; it is never a result, never validated or cached.
    /// - Returns: `nil` while nothing displayable has arrived yet.
    public static func partial(_ prefix: String) -> JSONValue? {
        var scanner = JSONScanner(prefix)
        scanner.skipWhitespace()
        scanner.skipOpeningFence()
        return scanner.partialValue(depth: 0)
    }
}

// MARK: - Scanner

/// A byte-level recursive-descent JSON scanner with a strict and a tolerant (partial) mode.
private struct JSONScanner {
    enum Stop: Error { case end, bad(String) }

    private let bytes: [UInt8]
    private var position = 0
    /// Set in partial mode once the input ended or stopped being JSON; every level then unwinds.
    private var stopped = false
    private static let maximumDepth = 128
    private let allowingRawControlCharacters: Bool

    init(_ text: String, allowingRawControlCharacters: Bool = false) {
        bytes = Array(text.utf8)
        self.allowingRawControlCharacters = allowingRawControlCharacters
    }

    var atEnd: Bool { position >= bytes.count }

    /// `line L, column C` of the current position, for humans.
    var location: String {
        var line = 1
        var column = 1
        for byte in bytes[0..<min(position, bytes.count)] {
            if byte == UInt8(ascii: "\n") { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        return "line \(line), column \(column)"
    }

    private var current: String {
        guard !atEnd else { return "the end" }
        let scalarEnd = bytes[(position + 1)...].firstIndex { $0 & 0xC0 != 0x80 } ?? bytes.count
        return "'" + String(decoding: bytes[position..<scalarEnd], as: UTF8.self) + "'"
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// Skips an opening "```json" fence; a streaming model often starts with one.
    mutating func skipOpeningFence() {
        let backticks = Array("```".utf8)
        guard bytes[position...].starts(with: backticks) else { return }
        position += backticks.count
        while position < bytes.count, bytes[position] < 0x80,
            Character(Unicode.Scalar(bytes[position])).isLetter || Character(Unicode.Scalar(bytes[position])).isNumber
        {
            position += 1
        }
        skipWhitespace()
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(Stop) {
        skipWhitespace()
        guard !atEnd else { throw .end }
        guard bytes[position] == byte else { throw .bad("expected \(what) at \(location), found \(current)") }
        position += 1
    }

    // MARK: Strict

    mutating func strictValue(depth: Int) throws(Stop) -> JSONValue {
        skipWhitespace()
        guard !atEnd else { throw .end }
        guard depth < Self.maximumDepth else {
            throw .bad("nesting deeper than \(Self.maximumDepth) levels at \(location)")
        }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            position += 1
            var object = JSONObject()
            skipWhitespace()
            guard !atEnd else { throw .end }
            if bytes[position] == UInt8(ascii: "}") { position += 1; return .object(object) }
            while true {
                skipWhitespace()
                guard !atEnd else { throw .end }
                guard bytes[position] == UInt8(ascii: "\"") else {
                    throw .bad("expected a quoted member name at \(location), found \(current)")
                }
                let keyLocation = location
                let key = try string()
                guard object[key] == nil else { throw .bad("duplicate member \"\(key)\" at \(keyLocation)") }
                try expect(UInt8(ascii: ":"), "':'")
                object[key] = try strictValue(depth: depth + 1)
                skipWhitespace()
                guard !atEnd else { throw .end }
                if bytes[position] == UInt8(ascii: "}") { position += 1; return .object(object) }
                guard bytes[position] == UInt8(ascii: ",") else {
                    throw .bad("expected ',' or '}' at \(location), found \(current)")
                }
                position += 1
            }
        case UInt8(ascii: "["):
            position += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            guard !atEnd else { throw .end }
            if bytes[position] == UInt8(ascii: "]") { position += 1; return .array(elements) }
            while true {
                elements.append(try strictValue(depth: depth + 1))
                skipWhitespace()
                guard !atEnd else { throw .end }
                if bytes[position] == UInt8(ascii: "]") { position += 1; return .array(elements) }
                guard bytes[position] == UInt8(ascii: ",") else {
                    throw .bad("expected ',' or ']' at \(location), found \(current)")
                }
                position += 1
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = position
            let text = numberRun()
            if let value = Self.number(text) { return value }
            // A number cut by the end of input ("1.", "-", "2e") is truncation, not garbage.
            if position == bytes.count && Self.isNumberPrefix(text) { throw .end }
            position = start
            throw .bad("invalid number \"\(text)\" at \(location)")
        default:
            throw .bad("unexpected \(current) at \(location), expected a JSON value")
        }
    }

    private mutating func literal(_ word: String, _ value: JSONValue) throws(Stop) -> JSONValue {
        let expected = Array(word.utf8)
        var index = 0
        while index < expected.count {
            guard position + index < bytes.count else { throw .end }
            guard bytes[position + index] == expected[index] else {
                throw .bad("unexpected \(current) at \(location), expected a JSON value")
            }
            index += 1
        }
        position += expected.count
        return value
    }

    /// Reads a string starting at its opening quote. In partial mode, the end of input closes it.
    private mutating func string(partial: Bool = false) throws(Stop) -> String {
        position += 1  // opening quote
        var buffer: [UInt8] = []
        while true {
            guard position < bytes.count else {
                if partial { stopped = true; return String(decoding: buffer, as: UTF8.self) }
                throw .end
            }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "\\"):
                do {
                    try escape(into: &buffer)
                } catch .end where partial {
                    // A half-written escape is dropped from the snapshot.
                    stopped = true
                    return String(decoding: buffer, as: UTF8.self)
                }
            case 0x00..<0x20 where !partial && !allowingRawControlCharacters:
                throw .bad("unescaped control character in a string at \(location)")
            default:
                buffer.append(byte)
                position += 1
            }
        }
    }

    private mutating func escape(into buffer: inout [UInt8]) throws(Stop) {
        let start = position
        position += 1
        guard position < bytes.count else { position = start; throw .end }
        let code = bytes[position]
        position += 1
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F,
            UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A,
            UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
        ]
        if let plain = simple[code] { buffer.append(plain); return }
        guard code == UInt8(ascii: "u") else {
            position = start
            throw .bad("invalid escape in a string at \(location)")
        }
        var scalar = try hex4(from: start)
        if (0xD800...0xDBFF).contains(scalar) {
            // A high surrogate must be followed by an escaped low surrogate.
            guard position + 1 < bytes.count else { position = start; throw .end }
            guard bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                position = start
                throw .bad("unpaired surrogate escape in a string at \(location)")
            }
            position += 2
            let low = try hex4(from: start)
            guard (0xDC00...0xDFFF).contains(low) else {
                position = start
                throw .bad("unpaired surrogate escape in a string at \(location)")
            }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalar) {
            position = start
            throw .bad("unpaired surrogate escape in a string at \(location)")
        }
        guard let unicode = Unicode.Scalar(scalar) else {
            position = start
            throw .bad("invalid escape in a string at \(location)")
        }
        buffer.append(contentsOf: Array(String(Character(unicode)).utf8))
    }

    private mutating func hex4(from start: Int) throws(Stop) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard position < bytes.count else { position = start; throw .end }
            guard let digit = Self.hexDigit(bytes[position]) else {
                position = start
                throw .bad("invalid \\u escape in a string at \(location)")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    /// Consumes the run of characters that can appear in a number and returns it.
    private mutating func numberRun() -> String {
        let start = position
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"),
                UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
                position += 1
            default:
                return String(decoding: bytes[start..<position], as: UTF8.self)
            }
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// The value of `text` if it is exactly a JSON number.
    private static func number(_ text: String) -> JSONValue? {
        guard isNumber(text) else { return nil }
        let isInteger = !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
        if isInteger, let integer = Int(text) { return .integer(integer) }
        return Double(text).map(JSONValue.number)
    }

    /// Whether `text` matches `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    private static func isNumber(_ text: String) -> Bool { numberState(text) == .complete }

    /// Whether `text` could still grow into a number.
    private static func isNumberPrefix(_ text: String) -> Bool { numberState(text) != .invalid }

    private enum NumberState { case complete, incomplete, invalid }

    private static func numberState(_ text: String) -> NumberState {
        var chars = Array(text.utf8)[...]
        func digits() -> Int {
            var count = 0
            while let first = chars.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) {
                chars.removeFirst()
                count += 1
            }
            return count
        }
        if chars.first == UInt8(ascii: "-") { chars.removeFirst() }
        if chars.isEmpty { return .incomplete }
        if chars.first == UInt8(ascii: "0") {
            chars.removeFirst()
        } else if digits() == 0 {
            return .invalid
        }
        if chars.first == UInt8(ascii: ".") {
            chars.removeFirst()
            if chars.isEmpty { return .incomplete }
            if digits() == 0 { return .invalid }
        }
        if chars.first == UInt8(ascii: "e") || chars.first == UInt8(ascii: "E") {
            chars.removeFirst()
            if chars.first == UInt8(ascii: "+") || chars.first == UInt8(ascii: "-") { chars.removeFirst() }
            if chars.isEmpty { return .incomplete }
            if digits() == 0 { return .invalid }
        }
        return chars.isEmpty ? .complete : .invalid
    }

    // MARK: Partial

    /// The tolerant reader behind ``JSONValue/partial(_:)``. Returns `nil` when nothing usable was read.
    mutating func partialValue(depth: Int) -> JSONValue? {
        skipWhitespace()
        guard !atEnd, depth < Self.maximumDepth else { stopped = true; return nil }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            position += 1
            var object = JSONObject()
            while !stopped {
                skipWhitespace()
                guard !atEnd else { stopped = true; break }
                let byte = bytes[position]
                if byte == UInt8(ascii: "}") { position += 1; return .object(object) }
                if byte == UInt8(ascii: ",") { position += 1; continue }
                guard byte == UInt8(ascii: "\"") else { stopped = true; break }
                guard let key = try? string(partial: true), !stopped else { stopped = true; break }
                skipWhitespace()
                guard !atEnd, bytes[position] == UInt8(ascii: ":") else { stopped = true; break }
                position += 1
                if let value = partialValue(depth: depth + 1) { object[key] = value }
            }
            return .object(object)
        case UInt8(ascii: "["):
            position += 1
            var elements: [JSONValue] = []
            while !stopped {
                skipWhitespace()
                guard !atEnd else { stopped = true; break }
                let byte = bytes[position]
                if byte == UInt8(ascii: "]") { position += 1; return .array(elements) }
                if byte == UInt8(ascii: ",") { position += 1; continue }
                if let value = partialValue(depth: depth + 1) { elements.append(value) }
            }
            return .array(elements)
        case UInt8(ascii: "\""):
            guard let text = try? string(partial: true) else { stopped = true; return nil }
            return .string(text)
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            let word = bytes[position] == UInt8(ascii: "t") ? "true"
                : bytes[position] == UInt8(ascii: "f") ? "false" : "null"
            let literalValue: JSONValue = word == "true" ? .bool(true) : word == "false" ? .bool(false) : .null
            guard let value = try? literal(word, literalValue) else {
                stopped = true
                return nil
            }
            return value
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let text = numberRun()
            if atEnd { stopped = true }
            if let value = Self.number(text) { return value }
            stopped = true
            // Keep the longest prefix that is a number, so a digit on screen never disappears.
            var candidate = text
            while !candidate.isEmpty {
                candidate.removeLast()
                if let value = Self.number(candidate) { return value }
            }
            return nil
        default:
            stopped = true
            return nil
        }
    }
}
