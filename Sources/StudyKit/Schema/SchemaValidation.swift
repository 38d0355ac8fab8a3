import Foundation

extension GenerationSchema {
    /// Every way `value` breaks this schema, in document order, each located by its path.
    ///
    /// Checks what a server may have skipped: types, required and extra members, array counts,
    /// string lengths and word limits, forbidden characters, enum cases, numeric ranges, and
    /// (beyond JSON Schema) blank strings and case/whitespace-insensitive duplicates.
    /// - Parameter path: the path of `value` inside the whole output; empty for the root.
    public func validationIssues(for value: JSONValue, at path: String = "") -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        collect(value, at: path, into: &issues)
        return issues
    }

    private func collect(_ value: JSONValue, at path: String, into issues: inout [ValidationIssue]) {
        func report(_ message: String) { issues.append(ValidationIssue(path: path, message: message)) }
        switch self {
        case .object(let properties):
            guard let object = value.objectValue else { return report(Self.typeMismatch(value, "an object")) }
            for property in properties {
                let childPath = JSONPath.member(path, property.name)
                if let child = object[property.name], !(property.isOptional && child == .null) {
                    property.schema.collect(child, at: childPath, into: &issues)
                } else if !property.isOptional {
                    issues.append(ValidationIssue(path: childPath, message: "is missing; add it"))
                }
            }
            let known = Set(properties.map(\.name))
            for key in object.keys where !known.contains(key) {
                issues.append(ValidationIssue(
                    path: JSONPath.member(path, key), message: "is not an allowed field; remove it"))
            }

        case .array(let items, let minItems, let maxItems, let distinct):
            guard let elements = value.arrayValue else { return report(Self.typeMismatch(value, "an array")) }
            let count = elements.count
            if let maxItems, minItems == maxItems, count != minItems {
                report("has \(Self.counted(count, "item")), but exactly \(minItems) are required")
            } else if count < minItems {
                report("has \(Self.counted(count, "item")), "
                    + "but at least \(minItems) \(minItems == 1 ? "is" : "are") required")
            } else if let maxItems, count > maxItems {
                report("has \(Self.counted(count, "item")), "
                    + "but at most \(maxItems) \(maxItems == 1 ? "is" : "are") allowed")
            }
            for (index, element) in elements.enumerated() {
                items.collect(element, at: JSONPath.index(path, index), into: &issues)
            }
            if let distinct {
                Self.collectDuplicates(
                    elements, distinct, at: path, meaning: items.itemMeaning(of: distinct), into: &issues)
            }

        case .string(let constraints):
            guard let text = value.stringValue else { return report(Self.typeMismatch(value, "a string")) }
            if text.isEmpty {
                // An optional string (an explainer's quote is empty for the curious host) may be "".
                if constraints.minLength > 0 { report("is empty; write some text") }
                return
            }
            if text.allSatisfy(\.isWhitespace) { return report("contains only whitespace; write some text") }
            let length = text.unicodeScalars.count
            if length < constraints.minLength {
                report("has \(Self.counted(length, "character")), but at least \(constraints.minLength) are required")
            }
            if let maxLength = constraints.maxLength, length > maxLength {
                report("has \(Self.counted(length, "character")), but at most \(maxLength) are allowed")
            }
            if let maxWords = constraints.maxWords {
                let words = Self.wordCount(text)
                if words > maxWords {
                    report("has \(Self.counted(words, "word")), but at most \(maxWords) are allowed")
                }
            }
            for character in constraints.forbiddenCharacters where text.contains(character) {
                report("contains \(Self.name(of: character)), which is not allowed; remove it")
            }
            if let meaning = constraints.meaning, let problem = ItemRules.problem(text, meaning) { report(problem) }

        case .stringEnum(let cases):
            guard let text = value.stringValue else { return report(Self.typeMismatch(value, "a string")) }
            if !cases.contains(text) {
                report("is \(Self.quoted(text)), but it must be one of: \(cases.joined(separator: ", "))")
            }

        case .integer(let minimum, let maximum):
            guard value.doubleValue != nil else { return report(Self.typeMismatch(value, "an integer")) }
            guard let number = value.integerValue else {
                return report("is \(value.compactText), but it must be a whole number")
            }
            Self.checkRange(Double(number), value.compactText, minimum.map(Double.init), maximum.map(Double.init),
                            minimum.map(String.init), maximum.map(String.init), report)

        case .number(let minimum, let maximum):
            guard let number = value.doubleValue else { return report(Self.typeMismatch(value, "a number")) }
            Self.checkRange(number, value.compactText, minimum, maximum,
                            minimum.map { JSONValue.number($0).compactText },
                            maximum.map { JSONValue.number($0).compactText },
                            report)

        case .boolean:
            guard case .bool = value else { return report(Self.typeMismatch(value, "true or false")) }
        }
    }

    // MARK: Helpers

    private static func checkRange(
        _ number: Double, _ shown: String, _ minimum: Double?, _ maximum: Double?,
        _ minimumText: String?, _ maximumText: String?, _ report: (String) -> Void
    ) {
        let tooLow = minimum.map { number < $0 } ?? false
        let tooHigh = maximum.map { number > $0 } ?? false
        guard tooLow || tooHigh else { return }
        switch (minimumText, maximumText) {
        case (let low?, let high?): report("is \(shown), but it must be between \(low) and \(high)")
        case (let low?, nil): report("is \(shown), but it must be at least \(low)")
        case (nil, let high?): report("is \(shown), but it must be at most \(high)")
        case (nil, nil): break
        }
    }

    /// The ``ItemMeaning`` of the strings an array's distinctness compares, if they have one.
    func itemMeaning(of distinct: Distinctness) -> ItemMeaning? {
        switch (distinct, self) {
        case (.items, .string(let constraints)): return constraints.meaning
        case (.field(let name), .object(let properties)):
            guard case .string(let constraints)? = properties.first(where: { $0.name == name })?.schema else {
                return nil
            }
            return constraints.meaning
        default: return nil
        }
    }

    /// Exact duplicates (case and whitespace aside), and for items with a `meaning` also entries
    /// that share most of their content words with an earlier one (``ItemRules/nearCopy(_:_:)``);
    /// an item already rejected for what it is ("Point 2") is not reported again as a copy.
    private static func collectDuplicates(
        _ elements: [JSONValue], _ distinct: Distinctness, at path: String, meaning: ItemMeaning?,
        into issues: inout [ValidationIssue]
    ) {
        var firstSeen: [String: String] = [:]
        var earlier: [(path: String, stems: Set<String>)] = []  // overlap keys of items that passed
        for (index, element) in elements.enumerated() {
            let itemPath = JSONPath.index(path, index)
            let text: String?
            let keyPath: String
            switch distinct {
            case .items:
                text = element.stringValue
                keyPath = itemPath
            case .field(let name):
                text = element[name]?.stringValue
                keyPath = JSONPath.member(itemPath, name)
            }
            // Blank or mistyped members are reported by their own checks.
            guard let text, !text.allSatisfy(\.isWhitespace) else { continue }
            let key = duplicateKey(text)
            if let first = firstSeen[key] {
                issues.append(ValidationIssue(path: keyPath, message: "repeats \(first); make every entry different"))
                continue
            }
            firstSeen[key] = keyPath
            guard let meaning, ItemRules.problem(text, meaning) == nil else { continue }
            let stems = ItemRules.overlapKeys(text)
            // Quiz choices that swap a word of each other are distinct answers (``ItemRules/swapsAWord(_:_:)``).
            let swaps = meaning == .choice
            if let original = earlier.first(where: {
                ItemRules.nearCopy(stems, $0.stems) && !(swaps && ItemRules.swapsAWord(stems, $0.stems))
            }) {
                issues.append(ValidationIssue(
                    path: keyPath,
                    message: "is \(ItemRules.quoted(text)), a near-copy of \(original.path); "
                        + "make every entry different"))
            } else {
                earlier.append((keyPath, stems))
            }
        }
    }

    /// The form two strings share when they differ only in case or whitespace.
    static func duplicateKey(_ text: String) -> String {
        ProseText.duplicateKey(text)
    }

    /// Whitespace-separated words.
    static func wordCount(_ text: String) -> Int { text.split(whereSeparator: \.isWhitespace).count }

    private static func typeMismatch(_ value: JSONValue, _ expected: String) -> String {
        "is \(kind(of: value)), but it must be \(expected)"
    }

    private static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer, .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    private static func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    /// A string value as it appears in JSON, shortened so one issue stays one line.
    private static func quoted(_ text: String) -> String {
        let shown = text.count > 60 ? String(text.prefix(57)) + "..." : text
        return JSONValue.string(shown).compactText
    }

    private static func name(of character: Character) -> String {
        switch character {
        case "\n": return "a line break"
        case "\t": return "a tab"
        case "\"", "“", "”", "«", "»", "„": return "a quotation mark (\(character))"
        default: return "the character \(character)"
        }
    }
}
