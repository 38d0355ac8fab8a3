/// An overview and the key points of the material (`studykit summary`).
///
/// Bounds: `overview` 2–3 sentences on one line, at most 120 words and 1,000 characters; `keyPoints` 3–8
/// distinct points (case- and whitespace-insensitive), each one sentence on one line of at most 300 characters
/// and 30 words with at least 4 content words (``ItemMeaning/keyPoint``), none a near-copy of
/// another or of a sentence of the overview. The overview uses no stock filler ("a must-read").
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
        .init("keyPoints", description: "3 to 8 distinct key points from the material, most important first, each one sentence.",
              .array(
                items: .string(maxLength: 300, maxWords: 30, forbiddenCharacters: "\n", sentences: 1...1, meaning: .keyPoint),
                minItems: 3, maxItems: 8, distinct: .items)),
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

    /// The overview must be two or three sentences of plain statement, and no key point may
    /// repeat one of them.
    public func semanticIssues() -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        let sentences = ResultProse.sentenceCount(overview)
        if !(2...3).contains(sentences) {
            issues.append(ValidationIssue(
                path: "overview", message: "has \(sentences) sentence\(sentences == 1 ? "" : "s"), but it must have 2 to 3"))
        }
        if let filler = ItemRules.fillerIssue(overview, path: "overview", what: "what the material says") { issues.append(filler) }
        let overviewSentences = SentenceSplitter().split(overview).enumerated().map { index, sentence in
            (name: "sentence \(index + 1) of the overview", text: sentence.text)
        }
        // Points repeating each other are the schema's check; against the overview it is ours.
        issues += ItemRules.nearCopyIssues(keyPoints, at: { "keyPoints[\($0)]" }, others: overviewSentences)
            .filter { $0.message.contains("of the overview") }
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
