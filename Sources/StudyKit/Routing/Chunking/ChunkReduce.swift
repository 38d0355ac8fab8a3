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

    /// A chunk's mind map, the section it is merged under, and the headings of the chunk (what a
    /// branch may be named after when its section's own heading is the document's topic).
    struct MapPart: Sendable, Equatable {
        var map: MindMap
        var section: String?
        var headings: [String] = []
    }

    /// Labels that a merged map's rules treat as the same: equal once normalized, or near-copies.
    static func sameLabel(_ first: String, _ second: String) -> Bool {
        normalized(first) == normalized(second) || ItemRules.nearCopy(first, second)
    }

    /// One mind map from the chunks' maps: a branch per section of the merge level (the section
    /// the chunk starts in: ``owners(levels:chunks:)``), holding the branches of its chunks'
    /// maps, merged by label, with their children as the third level. A document without
    /// headings gets a branch per chunk, labelled with that chunk's central topic.
    ///
    /// No subtree is lost to the merged map's rules, which drop a node named like the one above it:
    /// - a chunk's branch named like its section, or like another section's branch (a chunk
    ///   that runs into the next section), hands its ideas to that section;
    /// - a branch named like the central topic (a title page, a book's one top heading) hands its
    ///   ideas up as branches when the map has room for them (`branchLimit`), else keeps them
    ///   under the first heading of its chunks that names something else (two content words first).
    /// - Parameters:
    ///   - parts: each chunk's map, the section heading it belongs to and its headings.
    ///   - centralTopic: the whole document's topic.
    ///   - branchLimit: the most branches the merged map may have; `nil`: one per part, at least 8.
    static func merge(_ parts: [MapPart], centralTopic: String, branchLimit: Int? = nil) -> MindMap {
        let topic = shortLabel(centralTopic, words: 8)
        var branches: [MindMap.Node] = []
        // Each branch's headings, for a branch that must be renamed.
        var headings: [[String]] = []
        for part in parts {
            let label = shortLabel(part.section ?? part.map.centralTopic)
            let index: Int
            if let existing = branches.firstIndex(where: { sameLabel($0.label, label) }) {
                index = existing
            } else {
                index = branches.count
                branches.append(MindMap.Node(label: label))
                headings.append([])
            }
            headings[index] += part.headings
            for branch in part.map.branches {
                let child = MindMap.Node(
                    label: branch.label, children: branch.children.map { MindMap.Node(label: $0.label) })
                if sameLabel(child.label, branches[index].label) {
                    // A chunk's branch named like its section: its ideas go straight under the section.
                    add(child.children, to: &branches[index].children)
                } else {
                    add([child], to: &branches[index].children)
                }
            }
        }
        // A chunk that runs into the next section maps its opening too: an idea named like another
        // section's branch takes its ideas there.
        for index in branches.indices {
            var kept: [MindMap.Node] = []
            for child in branches[index].children {
                if let other = branches.indices.first(where: {
                    $0 != index && sameLabel(branches[$0].label, child.label)
                }) {
                    // In document order: before that section's own ideas when it comes later.
                    var list = other > index ? [] : branches[other].children
                    add(child.children, to: &list)
                    if other > index { add(branches[other].children, to: &list) }
                    branches[other].children = list
                } else {
                    kept.append(child)
                }
            }
            branches[index].children = kept
        }
        let limit = branchLimit ?? Self.branchLimit(chunks: parts.count)
        var merged: [MindMap.Node] = []
        for (index, branch) in branches.enumerated() {
            guard resembles(branch.label, topic) else {
                add([branch], to: &merged)
                continue
            }
            // Named like the whole map: its ideas go up when the map has room for all of them.
            let lifted = branch.children.flatMap { resembles($0.label, topic) ? $0.children : [$0] }
            let rest = branches[(index + 1)...].filter { !resembles($0.label, topic) }
            var trial = merged
            add(lifted, to: &trial)
            add(rest, to: &trial)
            // Else they stay together under a heading of the branch's chunks that names something
            // else than the topic and the other branches — one that says something (two content
            // words) first; an idea named like it hands its own ideas to it.
            let candidates = headings[index].map { shortLabel($0) }.filter { heading in
                !resembles(heading, topic) && !branches.contains { sameLabel($0.label, heading) }
            }
            let renamed = candidates.first { GroundingWords.contentStems($0).count >= 2 } ?? candidates.first
            if trial.count <= limit || renamed == nil {
                add(lifted, to: &merged)
            } else if let renamed {
                var kept = MindMap.Node(label: renamed)
                for child in lifted {
                    if sameLabel(child.label, renamed) {
                        add(child.children, to: &kept.children)
                    } else {
                        add([child], to: &kept.children)
                    }
                }
                add([kept], to: &merged)
            }
        }
        return MindMap(centralTopic: topic, branches: merged)
    }

    /// Whether `label` names the central topic: a near-copy of it, punctuation aside
    /// ("1789–1799: Revision Notes" under "The French Revolution, 1789-1799: Revision Notes").
    static func resembles(_ label: String, _ topic: String) -> Bool {
        ItemRules.nearCopy(label, topic) || ItemRules.nearCopy(normalized(label), normalized(topic))
    }

    /// The most branches a map merged from `chunks` chunks may have: one answer's 8, or one per
    /// chunk (``MindMap/mergedItemsPerChunk``).
    static func branchLimit(chunks: Int) -> Int {
        max(8, (MindMap.mergedItemsPerChunk["branches"] ?? 1) * chunks)
    }

    /// Adds `nodes` to `list`: one named like a node already there gives it its children instead.
    private static func add(_ nodes: [MindMap.Node], to list: inout [MindMap.Node]) {
        for node in nodes {
            if let same = list.firstIndex(where: { sameLabel($0.label, node.label) }) {
                add(node.children, to: &list[same].children)
            } else {
                list.append(node)
            }
        }
    }

    /// The outline level a long document's mind map is merged under: the top level of its
    /// headings, or the next one down while a level has a single heading (a book under one title
    /// or chapter heading) and a deeper one exists.
    static func mergeLevel(_ levels: [Int]) -> Int? {
        let headed = Set(levels.filter { $0 > 0 }).sorted()
        guard var level = headed.first else { return nil }
        for deeper in headed.dropFirst() where levels.filter({ $0 == level }).count == 1 { level = deeper }
        return level
    }

    /// For each chunk, the section its map is merged under: the last heading at or above the
    /// merge level (``mergeLevel(_:)``) up to the section the chunk starts in — or, for a chunk
    /// that starts with a heading above that level (the book's title, its one chapter heading),
    /// the first section of the merge level it holds; `nil` for a chunk that starts before any
    /// heading (the preamble).
    /// - Parameters:
    ///   - levels: each outline section's heading level, 0 for one without a heading.
    ///   - chunks: the sections each chunk holds (outline indices, in order).
    static func owners(levels: [Int], chunks: [[Int]]) -> [Int?] {
        guard let level = mergeLevel(levels) else { return chunks.map { _ in nil } }
        return chunks.map { sections in
            let start = min(sections.first ?? 0, levels.count - 1)
            if levels[start] > 0, levels[start] < level, let first = sections.first(where: { levels[$0] == level }) {
                return first
            }
            return levels[...start].lastIndex { $0 > 0 && $0 <= level }
        }
    }

    /// A label of at most `words` words (a mind map's limit), numbering like "2.1" dropped.
    static func shortLabel(_ text: String, words: Int = MindMap.labelWords) -> String {
        var parts = text.split(whereSeparator: \.isWhitespace).map(String.init)
        if let first = parts.first, parts.count > 1, first.allSatisfy({ $0.isNumber || $0 == "." }) {
            parts.removeFirst()
        }
        return parts.prefix(words).joined(separator: " ")
    }
}
