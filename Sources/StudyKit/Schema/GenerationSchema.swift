/// The shape a model must generate, declared in code: studykit's counterpart of Apple's
/// `@Generable`/`@Guide`, without macros.
///
/// It is deliberately small — only what studykit's result types need and what llama.cpp's
/// grammar converter and hosted structured-output APIs both honour. There is no `$ref` and no
/// recursion: a recursive type (the mind map) is unrolled to its fixed depth, which grammar
/// converters handle best. Every constraint here is also checked on our side by
/// ``validationIssues(for:at:)``, because a server may ignore any of them silently.
public indirect enum GenerationSchema: Sendable, Hashable {
    /// An object with its properties in declared order, and nothing else; every property is
    /// required unless it is declared optional.
    case object([Property])
    /// An array of `items` with between `minItems` and `maxItems` elements (`nil`: no maximum),
    /// optionally without duplicates.
    case array(items: GenerationSchema, minItems: Int, maxItems: Int?, distinct: Distinctness?)
    /// A string; never empty or whitespace-only.
    case string(StringConstraints)
    /// One of a fixed list of strings.
    case stringEnum([String])
    /// A whole number in an optional closed range.
    case integer(minimum: Int?, maximum: Int?)
    /// Any number in an optional closed range.
    case number(minimum: Double?, maximum: Double?)
    /// `true` or `false`.
    case boolean

    /// One property of an object: its JSON name, a guide for the model, and its shape.
    public struct Property: Sendable, Hashable {
        /// The JSON member name.
        public let name: String
        /// A guide to the model, emitted as `description` (the counterpart of `@Guide`).
        public let description: String
        /// The property's shape.
        public let schema: GenerationSchema
        /// Whether the member may be left out (or be `null`); the reader then supplies a default.
        /// Grammar-constrained models still write it (see ``GrammarConverter``).
        public let isOptional: Bool
        /// Whether a model is asked for the member. One that only studykit writes (a long
        /// document's key points by section, ``Summary/sections``, by its own engine; a card's
        /// hint, which a grammar would make a model write for every card) is optional, left out of
        /// the JSON Schema a model is given (``jsonSchema(strict:)``, its grammar) and of the
        /// ``fingerprint``, so the models' requests and cache keys are what they were; a result
        /// that holds it is still validated against it.
        public let isAsked: Bool

        /// Creates a property; `asked: false` makes it optional too.
        public init(
            _ name: String, description: String, _ schema: GenerationSchema, optional: Bool = false, asked: Bool = true
        ) {
            self.name = name
            self.description = description
            self.schema = schema
            self.isOptional = optional || !asked
            self.isAsked = asked
        }

        /// This property with `schema` in place of its own, its other traits kept.
        public func with(_ schema: GenerationSchema) -> Property {
            Property(name, description: description, schema, optional: isOptional, asked: isAsked)
        }
    }

    /// The names of the object members, at any depth, whose values are a ``stringEnum``: values
    /// an answer repeats by design (every card has a `kind`).
    public var enumerationMembers: Set<String> {
        switch self {
        case .object(let properties):
            return properties.reduce(into: Set<String>()) { names, property in
                if case .stringEnum = property.schema { names.insert(property.name) }
                names.formUnion(property.schema.enumerationMembers)
            }
        case .array(let items, _, _, _): return items.enumerationMembers
        default: return []
        }
    }

    /// How duplicates in an array are recognised: case- and whitespace-insensitively.
    public enum Distinctness: Sendable, Hashable {
        /// The string items themselves must differ.
        case items
        /// The named string property of each object item must differ.
        case field(String)
    }

    /// Limits on a string. Lengths count Unicode scalars, as JSON Schema does.
    public struct StringConstraints: Sendable, Hashable {
        /// Fewest characters (at least 1: empty strings are never acceptable).
        public let minLength: Int
        /// Most characters, if limited.
        public let maxLength: Int?
        /// Most whitespace-separated words, if limited.
        public let maxWords: Int?
        /// Characters that must not appear, in a fixed order (for a deterministic `pattern`).
        public let forbiddenCharacters: String
        /// How many sentences the string holds, if that is part of its meaning. The emitted
        /// `pattern` then lets `.`, `!` and `?` appear only at the end of each sentence, with
        /// `maxWords` shared evenly between the sentences, so a grammar-constrained model cannot
        /// ramble on (the sentence count itself is a semantic check of the owning type).
        public let sentences: ClosedRange<Int>?
        /// What the string must mean to be an item of its list (see ``ItemMeaning``): no field
        /// names, placeholders or lone function words, enough content words, a whole sentence.
        /// Its minimum word count and sentence end are also part of the emitted `pattern`.
        public let meaning: ItemMeaning?
        /// Whether the string may hold Chinese, Japanese or Korean characters. A request about
        /// material without any sets it off (``GenerationSchema/withoutIdeographs()``): its
        /// answer is refused for them anyway (``LanguageRule/scriptIssues(in:material:)``), so
        /// the grammar leaves the model no way to write one.
        public var ideographs: Bool = true

        /// Creates string limits.
        public init(
            minLength: Int = 1, maxLength: Int? = nil, maxWords: Int? = nil, forbiddenCharacters: String = "",
            sentences: ClosedRange<Int>? = nil, meaning: ItemMeaning? = nil
        ) {
            self.minLength = max(0, minLength)
            self.maxLength = maxLength
            self.maxWords = maxWords
            self.forbiddenCharacters = forbiddenCharacters
            self.sentences = sentences.map { max(1, $0.lowerBound)...max(1, $0.upperBound) }
            self.meaning = meaning
        }
    }

    /// This schema with no Chinese, Japanese or Korean character allowed in any of its strings,
    /// for a request about material that has none. Qwen2.5-Coder-0.5B, asked a card's question
    /// about the French Revolution, wrote "Between …" and went on in Chinese characters: an
    /// attempt spent on an answer that could only be refused.
    public func withoutIdeographs() -> GenerationSchema {
        switch self {
        case .object(let properties):
            return .object(properties.map { $0.with($0.schema.withoutIdeographs()) })
        case .array(let items, let minItems, let maxItems, let distinct):
            return .array(items: items.withoutIdeographs(), minItems: minItems, maxItems: maxItems, distinct: distinct)
        case .string(var constraints):
            constraints.ideographs = false
            return .string(constraints)
        case .stringEnum, .integer, .number, .boolean:
            return self
        }
    }

    /// A string with the given limits.
    public static func string(
        minLength: Int = 1, maxLength: Int? = nil, maxWords: Int? = nil, forbiddenCharacters: String = "",
        sentences: ClosedRange<Int>? = nil, meaning: ItemMeaning? = nil
    ) -> GenerationSchema {
        .string(StringConstraints(
            minLength: minLength, maxLength: maxLength, maxWords: maxWords, forbiddenCharacters: forbiddenCharacters,
            sentences: sentences, meaning: meaning))
    }
}

// MARK: - JSON Schema

extension GenerationSchema {
    /// This schema as a JSON Schema document, keys in a fixed order.
    ///
    /// Both variants list every required property in `required` and say `additionalProperties: false`,
    /// because studykit rejects missing and extra members whatever the server does. An optional
    /// property is left out of `required`, except in the `strict` variant, which must list every
    /// property: there it is required but may be `null` (`"type": [T, "null"]`), as OpenAI's
    /// strict mode spells an optional member.
    /// The `strict` variant is for APIs with a strict structured-output mode (OpenAI's
    /// `strict: true`), which refuse keywords they do not support: it leaves out `minLength`
    /// and `maxLength`. Those limits are still enforced when the output is validated.
    /// Word limits and forbidden characters become a `pattern` (llama.cpp turns it into grammar).
    public func jsonSchema(strict: Bool) -> JSONValue {
        switch self {
        case .object(let allProperties):
            // What a model is never asked for is no part of the schema it is given.
            let properties = allProperties.filter(\.isAsked)
            var members = JSONObject()
            for property in properties {
                var child = property.schema.jsonSchema(strict: strict).objectValue ?? JSONObject()
                // `description` goes right after `type`, so a reader sees what a field is before its limits.
                var ordered = JSONObject()
                if strict, property.isOptional, let type = child["type"] {
                    ordered["type"] = [type, "null"]
                    if let cases = child["enum"]?.arrayValue { child["enum"] = .array(cases + [.null]) }
                } else if let type = child["type"] {
                    ordered["type"] = type
                }
                ordered["description"] = .string(property.description)
                child["type"] = nil
                for member in child { ordered[member.key] = member.value }
                members[property.name] = .object(ordered)
            }
            return [
                "type": "object",
                "properties": .object(members),
                "required": .array(properties.filter { strict || !$0.isOptional }.map { .string($0.name) }),
                "additionalProperties": false,
            ]
        case .array(let items, let minItems, let maxItems, _):
            var schema: JSONObject = ["type": "array", "items": items.jsonSchema(strict: strict)]
            schema["minItems"] = .integer(minItems)
            if let maxItems { schema["maxItems"] = .integer(maxItems) }
            return .object(schema)
        case .string(let constraints):
            var schema: JSONObject = ["type": "string"]
            if !strict {
                schema["minLength"] = .integer(constraints.minLength)
                if let maxLength = constraints.maxLength { schema["maxLength"] = .integer(maxLength) }
            }
            if let pattern = constraints.pattern { schema["pattern"] = .string(pattern) }
            return .object(schema)
        case .stringEnum(let cases):
            return ["type": "string", "enum": .array(cases.map(JSONValue.string))]
        case .integer(let minimum, let maximum):
            var schema: JSONObject = ["type": "integer"]
            if let minimum { schema["minimum"] = .integer(minimum) }
            if let maximum { schema["maximum"] = .integer(maximum) }
            return .object(schema)
        case .number(let minimum, let maximum):
            var schema: JSONObject = ["type": "number"]
            if let minimum { schema["minimum"] = .number(minimum) }
            if let maximum { schema["maximum"] = .number(maximum) }
            return .object(schema)
        case .boolean:
            return ["type": "boolean"]
        }
    }

    /// A canonical serialization of every node and constraint, for cache keys.
    ///
    /// Unlike ``jsonSchema(strict:)`` it spells out constraints that JSON Schema cannot carry
    /// (distinctness, word limits), so changing any constraint or description changes it.
    /// Stable across runs and platforms: it is built from ordered values only.
    /// Version 2: the grammar emitted from the same constraints changed (word limits with room
    /// to finish), so answers cached under version 1's grammar ("Pasted frommyLectureSlides")
    /// are not served for it.
    public var fingerprint: String { "generation-schema/2 " + canonicalValue.compactText }

    private var canonicalValue: JSONValue {
        switch self {
        case .object(let properties):
            return [
                "object": .array(properties.filter(\.isAsked).map { property in
                    var member: JSONObject = [
                        "name": .string(property.name), "description": .string(property.description),
                        "schema": property.schema.canonicalValue,
                    ]
                    // Only when set, so schemas without optional members keep their fingerprints.
                    if property.isOptional { member["optional"] = true }
                    return .object(member)
                })
            ]
        case .array(let items, let minItems, let maxItems, let distinct):
            let distinctValue: JSONValue
            switch distinct {
            case nil: distinctValue = .null
            case .items: distinctValue = "items"
            case .field(let name): distinctValue = ["field": .string(name)]
            }
            return [
                "array": [
                    "items": items.canonicalValue, "minItems": .integer(minItems),
                    "maxItems": maxItems.map(JSONValue.integer) ?? .null, "distinct": distinctValue,
                ]
            ]
        case .string(let constraints):
            var string: JSONObject = [
                "minLength": .integer(constraints.minLength),
                "maxLength": constraints.maxLength.map(JSONValue.integer) ?? .null,
                "maxWords": constraints.maxWords.map(JSONValue.integer) ?? .null,
                "forbidden": .string(constraints.forbiddenCharacters),
                "sentences": constraints.sentences.map { [.integer($0.lowerBound), .integer($0.upperBound)] } ?? .null,
            ]
            // Only when present, so schemas without item rules keep their fingerprints.
            if let meaning = constraints.meaning { string["meaning"] = meaning.canonicalValue }
            if !constraints.ideographs { string["ideographs"] = false }
            return ["string": .object(string)]
        case .stringEnum(let cases):
            return ["enum": .array(cases.map(JSONValue.string))]
        case .integer(let minimum, let maximum):
            return ["integer": [
                "minimum": minimum.map(JSONValue.integer) ?? .null, "maximum": maximum.map(JSONValue.integer) ?? .null,
            ]]
        case .number(let minimum, let maximum):
            return ["number": [
                "minimum": minimum.map(JSONValue.number) ?? .null, "maximum": maximum.map(JSONValue.number) ?? .null,
            ]]
        case .boolean:
            return "boolean"
        }
    }
}

extension GenerationSchema.StringConstraints {
    /// The most characters a word of a pattern may have. Words are what the grammar counts, and
    /// a word is a run of non-space characters: without a bound, a small model meets a word
    /// limit by gluing words with commas ("Newton,Newton,Newton,…") until its response limit.
    /// Words of study material are shorter ("photosynthesis," has 15 characters).
    static let longestWord = 24

    /// One word of at most ``longestWord`` characters, none of them `excluded`.
    static func word(excluding excluded: String) -> String { "[^ \(excluded)]{1,\(longestWord)}" }

    /// One word of a sentence shape, where `excluded` holds `.`: as ``word(excluding:)``, and a
    /// point may stand before a digit ("29.5", "7.4"). Without it Qwen2.5-Coder-1.5B, held to
    /// sentences that end at the first point, wrote "A full cycle of phases takes about 29." and
    /// began its next key point "5 days, and …" (#53, session 61: the Moon's summary lost three
    /// key points as cut inside the material's numbers 29.5 and 27.3).
    /// The point is written `[.]`, not `\.`: llama-cpp-python turns a schema's pattern into a
    /// grammar itself (behind a gateway) and copies `\.` into a literal, which llama.cpp refuses
    /// ("unknown escape"), and its server then fails every request.
    static func sentenceWord(excluding excluded: String) -> String { "([^ \(excluded)]|[.][0-9]){1,\(longestWord)}" }

    /// `characters`, plus `"` and `\`, each once, written for the inside of a `[^…]` class.
    ///
    /// `"` and `\` are always excluded: grammar converters build the string's characters from
    /// the pattern without JSON-escaping them, so either would end or corrupt the JSON string.
    /// Control characters are written as escapes: a raw newline inside a character class makes
    /// llama.cpp's grammar parser fail, and the server then drops the grammar silently.
    static func classExclusions(_ characters: String) -> String {
        var excluded = ""
        var seen = Set<Character>()
        for character in characters + "\"\\" where seen.insert(character).inserted {
            switch character {
            case "\n": excluded += "\\n"
            case "\t": excluded += "\\t"
            case "\r": excluded += "\\r"
            case "\\", "]", "^", "-", "[": excluded += "\\" + String(character)
            default: excluded.append(character)
            }
        }
        return excluded
    }

    /// A regular expression that grammar-constrained servers can enforce for word limits and
    /// forbidden characters; `nil` when neither applies.
    ///
    /// Words are runs of non-space characters separated by single spaces, so the pattern also
    /// rules out leading, trailing and doubled spaces — harmless for titles and labels.
    var pattern: String? {
        if let itemPattern { return itemPattern }
        guard maxWords != nil || !forbiddenCharacters.isEmpty || sentences != nil || !ideographs else { return nil }
        let excluded = Self.classExclusions(forbiddenCharacters + (sentences != nil ? ".!?" : "")) + ideographExclusions
        let word = Self.word(excluding: excluded)
        let grammarWords = maxWords.map(Self.grammarWords)
        if let sentences {
            let word = Self.sentenceWord(excluding: excluded)
            // Any one sentence may take the words the fewest sentences share: a limit split
            // evenly (20 of an overview's 60 words each) made a model that wanted a 25-word
            // sentence glue its last words together ("whichturns"), since it may not stop mid-sentence.
            let perSentence = min(
                Self.longestRun, grammarWords.map { max(1, $0 / max(1, sentences.lowerBound)) } ?? Self.longestRun)
            // One sentence that is an item (a key point) also has the item's fewest words.
            let fewest = sentences.upperBound == 1 ? min(perSentence, meaning?.minimumWords ?? 1) : 1
            let sentence = "\(word)( \(word)){\(fewest - 1),\(perSentence - 1)}[.!?]"
            if sentences.upperBound == 1 { return "^\(sentence)$" }
            return "^\(sentence)( \(sentence)){\(sentences.lowerBound - 1),\(sentences.upperBound - 1)}$"
        }
        guard let grammarWords else { return "^[^\(excluded)]*$" }
        return "^\(word)( \(word)){0,\(max(0, min(grammarWords, max(maxWords ?? 0, Self.longestRun)) - 1))}$"
    }

    /// The most words one run of a pattern (a sentence, or a whole short field) may have in the
    /// grammar: llama.cpp expands each repetition into nested rules, and refused the kit's
    /// grammar when an overview sentence could have 90 words (40 was always accepted).
    static let longestRun = 40

    /// The words the grammar allows for a limit of `maxWords`: half as many again (at least 2
    /// more). The grammar cannot make a model stop, only forbid the next space, so at an exact
    /// limit a model that wanted one word more glued it on ("Pasted frommyLectureSlides"). With
    /// room to finish, the answer is whole and the validation's word limit, which stays exact,
    /// rejects a long one with a reason the re-ask can give.
    static func grammarWords(_ maxWords: Int) -> Int { maxWords + max(2, maxWords / 2) }
}
