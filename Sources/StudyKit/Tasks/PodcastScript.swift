/// A two-host podcast about the material (`studykit podcast`): the curious host asks, the
/// explainer answers from the material and backs every answer with a quote of it.
///
/// Bounds: a title of at most 80 characters; exactly two hosts with different names, one
/// `curious` and one `explainer`; 8–30 turns, each spoken by one of the hosts, its `line` one or
/// more sentences of at most 45 words (``ItemMeaning/podcastLine``); an explainer's turn carries
/// the sentence of the material it rests on (`quote`, at most 500 characters), a curious turn an
/// empty quote; both hosts speak; `recap` is exactly three distinct points, each a sentence
/// (``ItemMeaning/keyPoint``). The recap is spoken last, by the explainer.
public struct PodcastScript: Generable, Codable, Equatable, Hashable {
    /// A host of the show.
    public struct Host: Sendable, Codable, Equatable, Hashable {
        /// The name the host is called by, and the speaker of their turns.
        public var name: String
        /// `curious` (asks) or `explainer` (answers from the material).
        public var role: Role

        /// Creates a host.
        public init(name: String, role: Role) {
            self.name = name
            self.role = role
        }
    }

    /// What a host does on the show.
    public enum Role: String, Sendable, Codable, CaseIterable, Hashable {
        /// Asks the questions a student would.
        case curious
        /// Answers from the material, with a quote.
        case explainer
    }

    /// One turn of the conversation.
    public struct Turn: Sendable, Codable, Equatable, Hashable {
        /// The name of the host who speaks.
        public var speaker: String
        /// What they say.
        public var line: String
        /// The explainer's supporting sentence of the material, word for word; empty for the curious host.
        public var quote: String

        /// Creates a turn.
        public init(speaker: String, line: String, quote: String = "") {
            self.speaker = speaker
            self.line = line
            self.quote = quote
        }

        var jsonValue: JSONValue { ["speaker": .string(speaker), "line": .string(line), "quote": .string(quote)] }
    }

    /// The episode's title.
    public var title: String
    /// The two hosts.
    public var hosts: [Host]
    /// The conversation, in order.
    public var turns: [Turn]
    /// The three points the explainer sums up with at the end.
    public var recap: [String]

    /// Creates a script.
    public init(title: String, hosts: [Host], turns: [Turn], recap: [String]) {
        self.title = title
        self.hosts = hosts
        self.turns = turns
        self.recap = recap
    }

    /// Most words in one line.
    static let lineWords = 45
    /// Fewest and most turns.
    static let turnRange = 8...30

    /// The schema: `title`, `hosts`, `turns`, `recap`.
    public static let generationSchema: GenerationSchema = .object([
        .init("title", description: "The episode's title, naming the material's subject.",
              .string(maxLength: 80, maxWords: 12, forbiddenCharacters: "\n", meaning: .label)),
        .init("hosts",
              description: "Exactly two hosts: one curious (asks) and one explainer (answers from the material).",
              .array(
                items: .object([
                    .init("name", description: "The host's first name.",
                          .string(maxLength: 30, maxWords: 3, forbiddenCharacters: "\n")),
                    .init("role", description: "curious or explainer.", .stringEnum(Role.allCases.map(\.rawValue))),
                ]),
                minItems: 2, maxItems: 2, distinct: .field("name"))),
        .init("turns", description: "8 to 30 turns; the first says what the material is about.",
              .array(
                items: .object([
                    .init("speaker", description: "The name of the host who speaks.",
                          .string(maxLength: 30, maxWords: 3, forbiddenCharacters: "\n")),
                    .init("line", description: "What the host says: at most 45 words.",
                          .string(
                            maxLength: 400, maxWords: lineWords, forbiddenCharacters: "\n", meaning: .podcastLine)),
                    .init("quote",
                          description: "For the explainer: the sentence of the material the line rests on, "
                            + "copied word for word; empty for the curious host.",
                          .string(minLength: 0, maxLength: 500, forbiddenCharacters: "\n")),
                ]),
                minItems: turnRange.lowerBound, maxItems: turnRange.upperBound, distinct: nil)),
        .init("recap", description: "Exactly 3 points the explainer sums up with at the end, each one sentence.",
              .array(
                items: .string(
                    maxLength: 300, maxWords: 30, forbiddenCharacters: "\n", sentences: 1...1, meaning: .keyPoint),
                minItems: 3, maxItems: 3, distinct: .items)),
    ])

    /// Reads a script; see ``Generable/init(json:)``.
    public init(json: JSONValue) throws(SchemaError) {
        let fields = try GenerableFields(json)
        title = try fields.string("title")
        hosts = try fields.objects("hosts") { host throws(SchemaError) in
            Host(name: try host.string("name"), role: Role(rawValue: try host.string("role")) ?? .curious)
        }
        turns = try fields.objects("turns") { turn throws(SchemaError) in
            Turn(speaker: try turn.string("speaker"), line: try turn.string("line"), quote: try turn.string("quote"))
        }
        recap = try fields.strings("recap")
    }

    /// The script as JSON, in schema order.
    public var jsonValue: JSONValue {
        [
            "title": .string(title),
            "hosts": .array(hosts.map { ["name": .string($0.name), "role": .string($0.role.rawValue)] }),
            "turns": .array(turns.map(\.jsonValue)),
            "recap": .array(recap.map(JSONValue.string)),
        ]
    }

    /// Every turn as it is spoken: the turns, then the explainer's recap of the three points.
    public var spokenTurns: [Turn] {
        guard !recap.isEmpty else { return turns }
        let ordinals = ["First", "Second", "And third"]
        let points = recap.enumerated().map { index, point in
            (index < ordinals.count ? ordinals[index] : "Also") + ": " + point.trimmingCharacters(in: .whitespaces)
        }
        let recapLine = "To recap, \(recap.count == 3 ? "three" : String(recap.count)) points. "
            + points.joined(separator: " ")
        return turns + [Turn(speaker: host(.explainer)?.name ?? "", line: recapLine)]
    }

    /// The host with `role`, if the script has one.
    public func host(_ role: Role) -> Host? { hosts.first { $0.role == role } }

    /// The role of the host named `speaker`.
    public func role(of speaker: String) -> Role? { hosts.first { Self.sameName($0.name, speaker) }?.role }

    /// One curious host and one explainer; every turn spoken by one of them, both speaking; the
    /// explainer quotes, the curious host does not; the recap repeats no turn's quote.
    public func semanticIssues() -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        if hosts.count == 2, Set(hosts.map(\.role)).count != 2 {
            issues.append(ValidationIssue(
                path: "hosts[1].role",
                message: "repeats the other host's role; one host is curious, the other the explainer"))
        }
        for (index, turn) in turns.enumerated() {
            guard let role = role(of: turn.speaker) else {
                issues.append(ValidationIssue(
                    path: "turns[\(index)].speaker",
                    message: "is not one of the hosts; use the name of a host: "
                        + hosts.map(\.name).joined(separator: " or ")))
                continue
            }
            let quoted = !turn.quote.trimmingCharacters(in: .whitespaces).isEmpty
            if role == .explainer, !quoted {
                issues.append(ValidationIssue(
                    path: "turns[\(index)].quote",
                    message: "is empty; the explainer backs each line with the sentence of the material it rests on"))
            } else if role == .curious, quoted {
                issues.append(ValidationIssue(
                    path: "turns[\(index)].quote", message: "must be empty for the curious host, who asks"))
            }
        }
        let roles = Set(turns.compactMap { role(of: $0.speaker) })
        if !turns.isEmpty, hosts.count == 2, roles.count < 2 {
            issues.append(ValidationIssue(
                path: "turns",
                message: "has only one host speaking; the curious host asks and the explainer answers"))
        }
        return issues
    }

    private static func sameName(_ a: String, _ b: String) -> Bool {
        a.trimmingCharacters(in: .whitespaces).lowercased() == b.trimmingCharacters(in: .whitespaces).lowercased()
    }
}

// MARK: - Prompt

extension PodcastScript {
    static let promptTemplateVersion = "podcast/1"
    /// Room for about 20 turns of up to 45 words; under the kit's reserve.
    static let responseReserve = 1_800
    static let instructions = TaskPrompt.instructions(
        role: "You write the script of a short two-host study podcast about a student's study material.",
        fields: """
            - "title": the episode's title, naming the material's subject.
            - "hosts": exactly two, each with "name" (a first name) and "role": one "curious" host
              who asks what a student would ask, and one "explainer" who answers from the material.
            - "turns": 8 to 30 turns, alternating, each with "speaker" (a host's name), "line" (at
              most 45 words, spoken English, full sentences) and "quote": for the explainer, the
              sentence of the material the line rests on, copied word for word; for the curious
              host, "". The first turn says what the material is about.
            - "recap": exactly 3 points, one sentence each, that the explainer sums up with at the end.
            """)
    static let request = "Write the podcast script for the document above as a JSON object with "
        + "\"title\", \"hosts\", \"turns\" and \"recap\"."
}
