/// An overview and the key points of the material (`studykit summary`).
///
/// Bounds: `overview` 2–3 sentences on one line, at most 120 words and 1,000 characters; `keyPoints` 3–8
/// distinct points (case- and whitespace-insensitive), each at most 300 characters.
public struct Summary: Generable, Codable, Equatable, Hashable {
    /// Two or three sentences giving the gist.
    public var overview: String
    /// The main points, most important first.
    public var keyPoints: [String]

    /// Creates a summary.
    public init(overview: String, keyPoints: [String]) {
        self.overview = overview
        self.keyPoints = keyPoints
    }

    /// The schema: `overview`, then `keyPoints`.
    public static let generationSchema: GenerationSchema = .object([
        .init("overview", description: "The gist of the material in 2 to 3 sentences.",
              .string(maxLength: 1_000, maxWords: 120, forbiddenCharacters: "\n", sentences: 2...3)),
        .init("keyPoints", description: "3 to 8 distinct key points from the material, most important first.",
              .array(items: .string(maxLength: 300), minItems: 3, maxItems: 8, distinct: .items)),
    ])

    /// Reads a summary; see ``Generable/init(json:)``.
    public init(json: JSONValue) throws(SchemaError) {
        let fields = try GenerableFields(json)
        overview = try fields.string("overview")
        keyPoints = try fields.strings("keyPoints")
    }

    /// The summary as JSON, `overview` first.
    public var jsonValue: JSONValue {
        ["overview": .string(overview), "keyPoints": .array(keyPoints.map(JSONValue.string))]
    }

    /// The overview must be two or three sentences.
    public func semanticIssues() -> [ValidationIssue] {
        let sentences = ResultProse.sentenceCount(overview)
        guard !(2...3).contains(sentences) else { return [] }
        return [ValidationIssue(
            path: "overview", message: "has \(sentences) sentence\(sentences == 1 ? "" : "s"), but it must have 2 to 3")]
    }
}

// MARK: - Prompt

extension Summary {
    /// Version 2: answers must also pass ``Grounding``.
    static let promptTemplateVersion = "summary/2"
    static let responseReserve = 512
    static let instructions = TaskPrompt.instructions(
        role: "You summarise a student's study material.",
        fields: """
            - "overview": the gist of the material in 2 to 3 sentences.
            - "keyPoints": 3 to 8 distinct key points, most important first.
            """)
    static let request = "Summarise the document above as a JSON object with \"overview\" and \"keyPoints\"."
}
