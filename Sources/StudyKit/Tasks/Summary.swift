/// An overview and the key points of the material (`studykit summary`).
///
/// Bounds: `overview` 2–3 sentences on one line, at most 120 words and 1,000 characters; `keyPoints` 3–8
/// distinct points (case- and whitespace-insensitive), each one sentence on one line of at most 300 characters
/// and 30 words with at least 4 content words (``ItemMeaning/keyPoint``), none a near-copy of
/// another or of a sentence of the overview. The overview uses no stock filler ("a must-read").
///
/// A long document's summary (#54) also has `sections`: the key points of each top-level section
/// of its outline, in document order, each group 1–5 points under the rules of `keyPoints`. Only
/// the builtin engine writes them: the member is optional and no model is asked for it
/// (``GenerationSchema/Property/isAsked``), and `--json` has it only when there are groups, so a
/// reader of `overview` and `keyPoints` reads a summary as before.
public struct Summary: Generable, Codable, Equatable, Hashable {
    /// The key points of one top-level section of a long document.
    public struct SectionPoints: Sendable, Codable, Equatable, Hashable {
        /// The section's heading, as the mind map labels its branch.
        public var section: String
        /// The section's main points, most important first.
        public var keyPoints: [String]

        /// Creates a group.
        public init(section: String, keyPoints: [String]) {
            self.section = section
            self.keyPoints = keyPoints
        }
    }

    /// Two or three sentences giving the gist.
    public var overview: String
    /// The main points, most important first.
    public var keyPoints: [String]
    /// A long document's key points by top-level section, in document order; empty otherwise.
    public var sections: [SectionPoints]

    /// Creates a summary.
    public init(overview: String, keyPoints: [String], sections: [SectionPoints] = []) {
        self.overview = overview
        self.keyPoints = keyPoints
        self.sections = sections
    }

    /// Every key point: the document's, then each section's.
    public var allKeyPoints: [String] { keyPoints + sections.flatMap(\.keyPoints) }

    /// The most key points of one section's group.
    public static let pointsPerSection = 5
    /// The most groups one summary holds unless its request allows more (``KitSize/listLimits(for:)``).
    static let sectionGroups = 8

    /// The most words and characters of one key point.
    static let keyPointWords = 30
    static let keyPointLength = 300
    private static let keyPointSchema: GenerationSchema =
        .string(
            maxLength: keyPointLength, maxWords: keyPointWords, forbiddenCharacters: "\n", sentences: 1...1,
            meaning: .keyPoint)

    /// The schema: `overview`, then `keyPoints`.
    public static let generationSchema: GenerationSchema = .object([
        .init("overview", description: "The gist of the material in 2 to 3 sentences.",
              .string(maxLength: 1_000, maxWords: 120, forbiddenCharacters: "\n", sentences: 2...3)),
        .init("keyPoints",
              description: "3 to 8 distinct key points from the material, most important first, each one sentence.",
              .array(items: keyPointSchema, minItems: 3, maxItems: 8, distinct: .items)),
        .init("sections", description: "The key points of each top-level section, in document order.",
              .array(
                items: .object([
                    .init("section", description: "The section's heading.",
                          .string(maxLength: 120, forbiddenCharacters: "\n")),
                    .init("keyPoints", description: "1 to 5 distinct key points of the section, each one sentence.",
                          .array(items: keyPointSchema, minItems: 1, maxItems: pointsPerSection, distinct: .items)),
                ]),
                minItems: 0, maxItems: sectionGroups, distinct: .field("section")),
              asked: false),
    ])

    /// Reads a summary; see ``Generable/init(json:)``.
    public init(json: JSONValue) throws(SchemaError) {
        let fields = try GenerableFields(json)
        overview = try fields.string("overview")
        keyPoints = try fields.strings("keyPoints")
        sections = try fields.optionalObjects("sections") { group throws(SchemaError) in
            SectionPoints(section: try group.string("section"), keyPoints: try group.strings("keyPoints"))
        }
    }

    /// The summary as JSON, `overview` first; `sections` only when there are groups.
    public var jsonValue: JSONValue {
        var object: JSONObject = ["overview": .string(overview), "keyPoints": .array(keyPoints.map(JSONValue.string))]
        if !sections.isEmpty {
            object["sections"] = .array(sections.map { group in
                ["section": .string(group.section), "keyPoints": .array(group.keyPoints.map(JSONValue.string))]
            })
        }
        return .object(object)
    }

    /// The overview must be two or three sentences of plain statement, and no key point may
    /// repeat one of them.
    public func semanticIssues() -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        let sentences = ResultProse.sentenceCount(overview)
        if !(2...3).contains(sentences) {
            issues.append(ValidationIssue(
                path: "overview",
                message: "has \(sentences) sentence\(sentences == 1 ? "" : "s"), but it must have 2 to 3"))
        }
        if let filler = ItemRules.fillerIssue(overview, path: "overview", what: "what the material says") {
            issues.append(filler)
        }
        let overviewSentences = SentenceSplitter().split(overview).enumerated().map { index, sentence in
            (name: "sentence \(index + 1) of the overview", text: sentence.text)
        }
        // Points repeating each other are the schema's check; against the overview it is ours.
        issues += ItemRules.nearCopyIssues(keyPoints, at: { "keyPoints[\($0)]" }, others: overviewSentences)
            .filter { $0.message.contains("of the overview") }
        for (index, group) in sections.enumerated() {
            issues += ItemRules.nearCopyIssues(
                group.keyPoints, at: { "sections[\(index)].keyPoints[\($0)]" }, others: overviewSentences)
                .filter { $0.message.contains("of the overview") }
        }
        return issues
    }
}

// MARK: - Prompt

extension Summary {
    /// Version 3: key points are one full sentence each (``ItemMeaning/keyPoint``).
    static let promptTemplateVersion = "summary/3"
    static let responseReserve = 512
    /// A summary merged from a long document's chunks keeps at most 4 key points per chunk
    /// (each chunk writes 3 to 8), and never fewer than the 8 one answer may hold.
    static let mergedItemsPerChunk = ["keyPoints": 4]
    static let instructions = TaskPrompt.instructions(
        role: "You summarise a student's study material.",
        fields: """
            - "overview": the gist of the material in 2 to 3 sentences.
            - "keyPoints": 3 to 8 distinct key points, most important first; each one full sentence
              stating a different fact of the material.
            """)
    static let request = "Summarise the document above as a JSON object with \"overview\" and \"keyPoints\"."
}
