/// A central topic with branches, children and grandchildren (`studykit mindmap`).
///
/// The map is exactly three levels deep at most — branch → child → grandchild — and the schema
/// is unrolled to that depth (no `$ref`), which grammar-constrained decoding handles best.
/// Bounds: `centralTopic` at most 8 words and every `label` 1–6 words, each at most 80
/// characters with a content word (``ItemMeaning/label``); 2–8 branches, 0–6 children per
/// branch, 0–5 grandchildren per child; sibling labels distinct (case- and whitespace-insensitive,
/// and no near-copies), and no label a near-copy of the one above it. Grandchildren carry no
/// `children` member.
public struct MindMap: Generable, Codable, Equatable, Hashable {
    /// A labelled node; its `children` are the next level down.
    public struct Node: Sendable, Codable, Equatable, Hashable {
        /// A short label.
        public var label: String
        /// The next level; always empty for a grandchild.
        public var children: [Node]

        /// Creates a node.
        public init(label: String, children: [Node] = []) {
            self.label = label
            self.children = children
        }

        /// A grandchild's empty `children` is left out, as the schema has no such member there;
        /// a non-empty one is kept so that validation reports the excess depth.
        func jsonValue(level: Int) -> JSONValue {
            var object: JSONObject = ["label": .string(label)]
            if level < MindMap.maximumDepth || !children.isEmpty {
                object["children"] = .array(children.map { $0.jsonValue(level: level + 1) })
            }
            return .object(object)
        }
    }

    /// The number of levels below the central topic.
    public static let maximumDepth = 3

    /// What the whole map is about.
    public var centralTopic: String
    /// The first level.
    public var branches: [Node]

    /// Creates a mind map.
    public init(centralTopic: String, branches: [Node]) {
        self.centralTopic = centralTopic
        self.branches = branches
    }

    /// The most words of a branch, child or grandchild label.
    public static let labelWords = 6

    private static func label(_ what: String) -> GenerationSchema.Property {
        .init("label", description: what, .string(maxLength: 80, maxWords: labelWords, meaning: .label))
    }

    /// The schema, unrolled to three levels.
    public static let generationSchema: GenerationSchema = {
        let grandchild: GenerationSchema = .object([label("A detail of the idea above, 1 to 6 words.")])
        let child: GenerationSchema = .object([
            label("An idea within the branch, 1 to 6 words."),
            .init("children", description: "0 to 5 details of this idea.",
                  .array(items: grandchild, minItems: 0, maxItems: 5, distinct: .field("label"))),
        ])
        let branch: GenerationSchema = .object([
            label("A main theme of the material, 1 to 6 words."),
            .init("children", description: "0 to 6 ideas within this theme.",
                  .array(items: child, minItems: 0, maxItems: 6, distinct: .field("label"))),
        ])
        return .object([
            .init("centralTopic", description: "What the whole material is about, at most 8 words.",
                  .string(maxLength: 80, maxWords: 8, meaning: .label)),
            .init("branches", description: "2 to 8 main themes of the material.",
                  .array(items: branch, minItems: 2, maxItems: 8, distinct: .field("label"))),
        ])
    }()

    /// Reads a mind map; see ``Generable/init(json:)``.
    public init(json: JSONValue) throws(SchemaError) {
        let fields = try GenerableFields(json)
        centralTopic = try fields.string("centralTopic")
        branches = try fields.objects("branches", Self.node)
    }

    private static func node(_ fields: GenerableFields) throws(SchemaError) -> Node {
        Node(label: try fields.string("label"), children: try fields.optionalObjects("children", node))
    }

    /// The map as JSON, `centralTopic` first.
    public var jsonValue: JSONValue {
        ["centralTopic": .string(centralTopic), "branches": .array(branches.map { $0.jsonValue(level: 1) })]
    }

    /// The schema covers labels, counts, depth and siblings; here a label must also say more
    /// than the node above it (a branch that repeats the central topic, a child its branch).
    public func semanticIssues() -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        func check(_ nodes: [Node], under parent: String, parentPath: String, path: String) {
            for (index, node) in nodes.enumerated() {
                let nodePath = "\(path)[\(index)]"
                if ItemRules.nearCopy(node.label, parent) {
                    issues.append(ValidationIssue(
                        path: nodePath + ".label",
                        message: "is \(ItemRules.quoted(node.label)), a near-copy of \(parentPath); "
                            + "name something narrower"))
                }
                check(node.children, under: node.label, parentPath: nodePath + ".label", path: nodePath + ".children")
            }
        }
        check(branches, under: centralTopic, parentPath: "centralTopic", path: "branches")
        return issues
    }
}

// MARK: - Prompt

extension MindMap {
    /// Version 2: labels of 1 to 6 words that must name ideas of the material.
    static let promptTemplateVersion = "mindmap/2"
    static let responseReserve = 800
    /// A map merged from a long document's chunks has a branch per top-level section, so at
    /// most one per chunk, and under each at most 3 ideas per chunk of the document; grandchildren
    /// keep one answer's limit of 5.
    static let mergedItemsPerChunk = ["branches": 1, "branches[].children": 3]
    static let instructions = TaskPrompt.instructions(
        role: "You draw a mind map of a student's study material.",
        fields: """
            - "centralTopic": what the whole material is about, at most 8 words.
            - "branches": 2 to 8 main themes, each an object with "label" and "children"; each
              child has "label" and "children"; each grandchild has only "label". Labels are 1 to
              6 words naming ideas of the material. Go no deeper than grandchildren.
            """)
    static let request =
        "Draw a mind map of the document above as a JSON object with \"centralTopic\" and \"branches\"."
}
