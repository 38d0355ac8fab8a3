import Foundation

// MARK: - Mind map branches named

extension ItemRewriter {

    static let branchSpec = ItemSpec(
        name: "branch", version: "mindmap.branch/3",
        instructions: """
            You name one branch of a mind map of a student's study material.
            Give 1 to 5 words that say what the branch is about, in the words of its heading and details, without \
            numbering.
            Reply with a JSON object with "label".
            """,
        schema: .object([
            .init("label", description: "1 to 5 words.", .string(maxLength: 40, maxWords: 5, forbiddenCharacters: "\n"))
        ]),
        maximumTokens: 24)

    /// Whether a branch's label is worth a model's name: longer than the 5 words a name may
    /// have, and not one of the material's headings whole (`headings`: ``headingKeys(in:)``). A
    /// heading within the map's own six words is the author's name for its section: the 0.5B
    /// only restyled or cut such headings (long.pdf's "The Old Regime and its problems" came back
    /// unchanged and "The Republic and the Terror, 1792–1794" without its dates, refused on every
    /// run). A label the builtin engine had to cut from a longer heading reads as a fragment, and
    /// that is what a name is for.
    static func branchNeedsName(_ branch: MindMap.Node, headings: Set<String>) -> Bool {
        ProseText.wordCount(branch.label) > 5 && !headings.contains(ProseText.duplicateKey(branch.label))
    }

    /// The material's lines that could be a whole branch label (at most ``MindMap/labelWords``
    /// words once a section number like "2." or "3.1" is dropped), as duplicate keys.
    static func headingKeys(in material: String) -> Set<String> {
        Set(material.split(whereSeparator: \.isNewline).compactMap { line in
            let words = BuiltinEngine.withoutHeadingNumber(ProseText.oneLine(String(line)))
                guard words.contains(where: \.isLetter), ProseText.wordCount(words) <= MindMap.labelWords else {
                    return nil
                }
            return ProseText.duplicateKey(words)
        })
    }

    static func branchJob(_ branch: MindMap.Node, centre: String, path: String, materialStems: Set<String>) -> ItemJob {
        let details = branch.children.prefix(5).map(\.label).joined(separator: "; ")
        let prompt = "Branch heading: \(branch.label)\nIts details: \(details.isEmpty ? "(none)" : details)"
        return ItemJob(path: path, prompt: prompt) { json in
            guard let label = json["label"]?.stringValue.map(ProseText.oneLine), label.contains(where: \.isLetter)
            else {
                return .failure(ItemRejection(reason: "the answer had no label"))
            }
            let stems = GroundingWords.contentStems(label)
            guard !stems.isEmpty, stems.allSatisfy(materialStems.contains) else {
                return .failure(ItemRejection(reason: "the name used words the material does not have"))
            }
            guard ProseText.wordCount(label) <= 5, !ResultProse.sameText(label, branch.label) else {
                return .failure(ItemRejection(reason: "the name was too long or unchanged"))
            }
            // A new name says something the heading did not, or says it shorter; it never only
            // restyles the heading ("Light-Dependent Reactions" for "The light-dependent
            // reactions") nor loses what the heading says: its dates ("The Directory" for "The
            // Directory, 1795–1799") or most of its words ("Photorespiration" for
            // "Photorespiration, C4 and CAM plants").
            let heading = Set(GroundingWords.contentStems(branch.label))
            let named = Set(stems)
            let numbers = Set(GroundingWords.normalizedWords(branch.label).filter { $0.contains(where: \.isNumber) })
            if !numbers.isSubset(of: Set(GroundingWords.normalizedWords(label))) {
                return .failure(ItemRejection(reason: "the name dropped the heading's dates or numbers"))
            }
            if !heading.isEmpty, named == heading {
                return .failure(ItemRejection(reason: "the name only restyled the heading"))
            }
            if heading.count >= 2, heading.intersection(named).count * 2 < heading.count, named.isSubset(of: heading) {
                return .failure(ItemRejection(reason: "the name dropped most of what the heading says"))
            }
            return .success(label)
        }
    }
}
