import Foundation

/// Joins the answers of a document's chunks into one result. Pure.
enum ChunkReduce {
    /// Text compared for duplicates: lower case, letters and digits, single spaces.
    static func normalized(_ text: String) -> String {
        text.lowercased().split { !$0.isLetter && !$0.isNumber }.joined(separator: " ")
    }

    /// The positions of the cards kept, in order: none whose question or quote (normalized) an
    /// earlier card has.
    static func dedupe(_ cards: [Flashcards.Card]) -> [Int] {
        firstOfEach(cards, keys: { [normalized($0.question), "quote:" + normalized($0.quote)] })
    }

    /// The positions of the questions kept, in order: none whose prompt or quote (normalized) an
    /// earlier one has.
    static func dedupe(_ questions: [Quiz.Question]) -> [Int] {
        firstOfEach(questions, keys: { [normalized($0.prompt), "quote:" + normalized($0.quote)] })
    }

    /// The positions of the key points kept in order, without repeats.
    static func dedupe(keyPoints: [String]) -> [Int] {
        firstOfEach(keyPoints, keys: { [normalized($0)] })
    }

    /// The positions of the items whose keys no earlier item shares (an empty key never matches).
    private static func firstOfEach<Item>(_ items: [Item], keys: (Item) -> [String]) -> [Int] {
        var seen: Set<String> = []
        var kept: [Int] = []
        for (index, item) in items.enumerated() {
            let itemKeys = keys(item).filter { !$0.isEmpty && $0 != "quote:" }
            if itemKeys.contains(where: seen.contains) { continue }
            seen.formUnion(itemKeys)
            kept.append(index)
        }
        return kept
    }

    /// One mind map from the chunks' maps: a branch per top-level section of the document (the
    /// section the chunk starts in), holding the branches of its chunks' maps, merged by label,
    /// with their children as the third level. A document without headings gets a branch per
    /// chunk, labelled with that chunk's central topic.
    /// - Parameters:
    ///   - maps: each chunk's map and the top-level section heading it belongs to.
    ///   - centralTopic: the whole document's topic.
    static func merge(_ maps: [(map: MindMap, section: String?)], centralTopic: String) -> MindMap {
        var branches: [MindMap.Node] = []
        var position: [String: Int] = [:]
        for (map, section) in maps {
            let label = shortLabel(section ?? map.centralTopic)
            let key = normalized(label)
            let index: Int
            if let existing = position[key] {
                index = existing
            } else {
                index = branches.count
                position[key] = index
                branches.append(MindMap.Node(label: label))
            }
            for branch in map.branches {
                let child = MindMap.Node(label: branch.label, children: branch.children.map { MindMap.Node(label: $0.label) })
                if let same = branches[index].children.firstIndex(where: { normalized($0.label) == normalized(child.label) }) {
                    let known = Set(branches[index].children[same].children.map { normalized($0.label) })
                    branches[index].children[same].children += child.children.filter { !known.contains(normalized($0.label)) }
                } else if normalized(child.label) != key {
                    branches[index].children.append(child)
                } else {
                    // A chunk's branch named like its section: its ideas go straight under the section.
                    branches[index].children += child.children
                }
            }
        }
        return MindMap(centralTopic: shortLabel(centralTopic, words: 8), branches: branches)
    }

    /// A label of at most `words` words (a mind map's limit), numbering like "2.1" dropped.
    static func shortLabel(_ text: String, words: Int = MindMap.labelWords) -> String {
        var parts = text.split(whereSeparator: \.isWhitespace).map(String.init)
        if let first = parts.first, parts.count > 1, first.allSatisfy({ $0.isNumber || $0 == "." }) { parts.removeFirst() }
        return parts.prefix(words).joined(separator: " ")
    }
}
