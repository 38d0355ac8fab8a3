/// A title and a one-line blurb for a piece of study material (`studykit headline`).
///
/// Bounds: `title` 1–6 words, at most 60 characters, no quotation marks (`"` `“` `”` `„` `«` `»`;
/// an apostrophe is fine, "Newton's Laws"); `blurb` one plain sentence on one line, at most
/// 35 words and 220 characters. The title must differ from the blurb.
public struct Headline: Generable, Codable, Equatable, Hashable {
    /// The title, at most six words, without quotation marks.
    public var title: String
    /// One plain sentence saying what the material is about.
    public var blurb: String

    /// Creates a headline.
    public init(title: String, blurb: String) {
        self.title = title
        self.blurb = blurb
    }

    /// The schema: `title`, then `blurb`.
    public static let generationSchema: GenerationSchema = .object([
        .init("title", description: "A short title for the material: at most 6 words, no quotation marks.",
              .string(maxLength: 60, maxWords: 6, forbiddenCharacters: "\"“”„«»")),
        .init("blurb", description: "One plain sentence on one line saying what the material covers.",
              .string(maxLength: 220, maxWords: 35, forbiddenCharacters: "\n", sentences: 1...1)),
    ])

    /// Reads a headline; see ``Generable/init(json:)``.
    public init(json: JSONValue) throws(SchemaError) {
        let fields = try GenerableFields(json)
        title = try fields.string("title")
        blurb = try fields.string("blurb")
    }

    /// The headline as JSON, `title` first.
    public var jsonValue: JSONValue { ["title": .string(title), "blurb": .string(blurb)] }

    /// The blurb must be exactly one whole sentence (not one cut off after "to,"), say more than
    /// the title, and not be stock filler ("a must-read for anyone interested in …"; see
    /// ``ItemRules/stockFiller(in:)``).
    public func semanticIssues() -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        let sentences = ResultProse.sentenceCount(blurb)
        if sentences > 1 {
            issues.append(ValidationIssue(
                path: "blurb", message: "has \(sentences) sentences, but it must be one sentence"))
        }
        if ResultProse.sameText(title, blurb) {
            issues.append(ValidationIssue(
                path: "blurb", message: "repeats the title; describe what the material covers instead"))
        }
        if sentences == 1, let cut = ItemRules.sentenceCut(blurb) {
            issues.append(ValidationIssue(
                path: "blurb", message: "is \(ItemRules.quoted(blurb)), \(cut); write it as one complete sentence"))
        }
        if let filler = ItemRules.fillerIssue(blurb, path: "blurb", what: "the material's main point") {
            issues.append(filler)
        }
        return issues
    }
}

// MARK: - Prompt

extension Headline {
    /// Version 3: the blurb states the main point; stock praise is rejected. Version 4: an
    /// answer whose only fault is a long title gets the title shortened by the model
    /// (``RoutingEngine/shortenedTitleHeadline``), so the record of version 3 says nothing of it.
    static let promptTemplateVersion = "headline/4"
    static let responseReserve = 200
    static let instructions = TaskPrompt.instructions(
        role: "You write a headline for a student's study material.",
        fields: """
            - "title": a short title, at most 6 words, without quotation marks.
            - "blurb": one plain sentence stating the material's main point in its own terms.
            """)
    /// Not "… as a JSON object with …": the instructions and the grammar already say so, and
    /// SmolLM2 echoed the phrase back as its blurb ("This is a JSON object with the headline.").
    static let request = "Write the headline for the document above."
}
