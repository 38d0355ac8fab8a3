// MARK: - Limits that scale with the document

extension GenerationSchema {
    /// This schema for a part merged from the answers of `chunks` chunks of one document: every
    /// rule of a single part (shape, item meaning, duplicates and near-copies, lengths), except
    /// that each list named in `perChunk` may hold that many items per chunk — never fewer than a
    /// single answer may. A list is named by its path with the indices left empty: `cards`,
    /// `keyPoints`, `branches[].children`.
    public func merged(chunks: Int, perChunk: [String: Int]) -> GenerationSchema {
        scaled(at: "", chunks: max(1, chunks), perChunk: perChunk)
    }

    private func scaled(at pattern: String, chunks: Int, perChunk: [String: Int]) -> GenerationSchema {
        switch self {
        case .object(let properties):
            return .object(properties.map { property in
                property.with(property.schema.scaled(
                    at: JSONPath.member(pattern, property.name), chunks: chunks, perChunk: perChunk))
            })
        case .array(let items, let minItems, let maxItems, let distinct):
            var most = maxItems
            if let each = perChunk[pattern], let single = maxItems { most = max(single, each * chunks) }
            return .array(
                items: items.scaled(at: pattern + "[]", chunks: chunks, perChunk: perChunk), minItems: minItems,
                maxItems: most, distinct: distinct)
        default:
            return self
        }
    }
}

// MARK: - Checking and repairing a merged part

/// A part merged from several chunk answers (``ChunkedRunner``'s deck, quiz, summary or mind
/// map), checked with the rules every single answer is checked with, against limits that scale
/// with the document (``GenerationSchema/merged(chunks:perChunk:)``), and repaired where that
/// can be done without writing anything:
/// - an item that breaks a rule (a junk item, a duplicate or near-copy of an earlier one, an
///   item the type's own rules or grounding reject) is dropped — the innermost item that its
///   list can spare (a quiz choice cannot go, so its question goes);
/// - a list over its scaled limit is cut to it, keeping the same number of items from each
///   group (a section of the document) in turn, each group's first items first, in document order.
/// What cannot be repaired (a list left with too few items, a broken overview or central topic)
/// is thrown as ``SchemaError/invalid(_:)``, like any invalid answer. Pure and deterministic.
struct MergedPart {
    /// The scaled schema.
    let schema: GenerationSchema
    /// The part's other rules (its type's semantic checks, grounding), on a value of the right shape.
    let rules: @Sendable (JSONValue) -> [ValidationIssue]
    /// How many chunks the part was merged from, and the items each may add, for the reasons given.
    let chunks: Int
    let perChunk: [String: Int]

    /// A check for `schema` (a single part's) merged from `chunks` chunks.
    init(
        schema single: GenerationSchema, chunks: Int, perChunk: [String: Int],
        rules: @escaping @Sendable (JSONValue) -> [ValidationIssue] = { _ in [] }
    ) {
        self.schema = single.merged(chunks: chunks, perChunk: perChunk)
        self.rules = rules
        self.chunks = max(1, chunks)
        self.perChunk = perChunk
    }

    /// Every problem of `value`: the scaled schema's, then the other rules'.
    func issues(in value: JSONValue) -> [ValidationIssue] {
        schema.validationIssues(for: value) + rules(value)
    }

    /// `value` with what breaks a rule dropped and what is over a limit trimmed, and a record of
    /// each dropped item with its path in `value` and why.
    /// - Parameter groups: for a list of the root object (`cards`), the group (section) of each
    ///   item, used to keep sections balanced when the list is cut; a list without groups is cut
    ///   evenly along its length.
    /// - Throws: ``SchemaError/invalid(_:)`` with the problems no dropping can mend.
    func repaired(
        _ value: JSONValue, groups: [String: [Int]] = [:]
    ) throws(SchemaError) -> (value: JSONValue, dropped: [DroppedItem]) {
        var value = value
        var dropped: [DroppedItem] = []
        // Where each item of a root list was in `value` as given, so reported paths stay stable
        // as items go; and the groups, kept in step.
        var origins: [String: [Int]] = [:]
        var itemGroups = groups
        if let object = value.objectValue {
            for (key, member) in object { if let items = member.arrayValue { origins[key] = Array(items.indices) } }
        }
        // Each round drops at least one item, so this ends; the bound only guards the arithmetic.
        for _ in 0..<1_000 {
            let found = issues(in: value)
            if found.isEmpty { return (value, dropped) }
            var targets: [[PathStep]: String] = [:]
            var pending: [[PathStep]: Int] = [:]
            var unmendable: [ValidationIssue] = []
            var overLong: Set<[PathStep]> = []
            for issue in found {
                let steps = PathStep.parse(issue.path)
                if let limit = maximum(at: steps), let count = value.at(steps)?.arrayValue?.count, count > limit {
                    overLong.insert(steps)
                } else if let target = droppable(steps, in: value, pending: &pending, targets: targets) {
                    // The reason names the member of the item at fault ("question repeats …").
                    let below = PathStep.text(Array(steps.dropFirst(target.count)))
                    if targets[target] == nil {
                        targets[target] = below.isEmpty ? issue.message : "\(below) \(issue.message)"
                    }
                } else {
                    unmendable.append(issue)
                }
            }
            if !unmendable.isEmpty { throw .invalid(unmendable) }
            if targets.isEmpty {
                // Only lists over their limit are left: cut them, sections in balance.
                for steps in overLong.sorted(by: { $0.count > $1.count }) {
                    guard let limit = maximum(at: steps), let count = value.at(steps)?.arrayValue?.count else {
                        continue
                    }
                    let key = PathStep.text(steps)
                    let memberGroups = itemGroups[key].flatMap { $0.count == count ? $0 : nil }
                        ?? (0..<count).map { $0 * limit / count }
                    let kept = Self.balanced(groups: memberGroups, keeping: limit)
                    let each = perChunk[PathStep.pattern(steps)]
                    let why = "is over the merged limit of \(limit) items"
                        + (each.map { " (\($0) per chunk × \(chunks) chunks)" } ?? "")
                        + "; the first items of each section were kept in turn"
                    for index in 0..<count where !kept.contains(index) { targets[steps + [.index(index)]] = why }
                }
            }
            // Record, then remove every target in one pass (paths refer to `value` as it is now).
            for (target, reason) in targets.sorted(by: { PathStep.precedes($0.key, $1.key) }) {
                dropped.append(DroppedItem(
                    path: PathStep.text(Self.original(target, origins: origins)), reason: reason))
            }
            let removed = Set(targets.keys)
            for key in Array(origins.keys) {
                let list = [PathStep.member(key)]
                let keep = { (index: Int) in !removed.contains(list + [.index(index)]) }
                origins[key] = origins[key]?.enumerated().filter { keep($0.offset) }.map(\.element)
                if let memberGroups = itemGroups[key] {
                    itemGroups[key] = memberGroups.enumerated().filter { keep($0.offset) }.map(\.element)
                }
            }
            value = value.removing(removed, at: [])
        }
        throw .invalid(issues(in: value))
    }

    /// The most items the list at `steps` may hold, when `steps` is a list with a maximum.
    private func maximum(at steps: [PathStep]) -> Int? {
        guard case .array(_, _, let most, _)? = schema.at(steps) else { return nil }
        return most
    }

    /// The innermost item on `steps` whose list can spare it (more items than its minimum, after
    /// those already chosen), or `nil` when none can go.
    private func droppable(
        _ steps: [PathStep], in value: JSONValue, pending: inout [[PathStep]: Int], targets: [[PathStep]: String]
    ) -> [PathStep]? {
        // Already going with an enclosing item: nothing more to do.
        for end in steps.indices where targets[Array(steps[...end])] != nil { return Array(steps[...end]) }
        for end in steps.indices.reversed() {
            guard case .index = steps[end] else { continue }
            let list = Array(steps[..<end])
            guard case .array(_, let least, _, _)? = schema.at(list), let count = value.at(list)?.arrayValue?.count
            else { continue }
            if count - pending[list, default: 0] > least {
                pending[list, default: 0] += 1
                return Array(steps[...end])
            }
        }
        return nil
    }

    /// The indices to keep of a list whose items belong to `groups`: one from each group in turn
    /// (groups in the order they first appear, each group's items in order) until `keeping` are chosen.
    static func balanced(groups: [Int], keeping: Int) -> Set<Int> {
        var order: [Int] = []
        var members: [Int: [Int]] = [:]
        for (index, group) in groups.enumerated() {
            if members[group] == nil { order.append(group) }
            members[group, default: []].append(index)
        }
        var kept: Set<Int> = []
        var round = 0
        while kept.count < min(keeping, groups.count) {
            for group in order {
                guard let items = members[group], round < items.count else { continue }
                kept.insert(items[round])
                if kept.count == keeping { break }
            }
            round += 1
        }
        return kept
    }

    /// `steps` with the index into a root list replaced by the item's index in the part as given.
    private static func original(_ steps: [PathStep], origins: [String: [Int]]) -> [PathStep] {
        guard steps.count >= 2, case .member(let key) = steps[0], case .index(let index) = steps[1],
            let list = origins[key], list.indices.contains(index)
        else { return steps }
        return [steps[0], .index(list[index])] + steps.dropFirst(2)
    }
}

// MARK: - Paths

/// One step of an issue's path (`cards[3].question`): a member or an index.
enum PathStep: Hashable, Sendable {
    case member(String)
    case index(Int)

    /// The steps of a path as ``JSONPath`` writes them.
    static func parse(_ path: String) -> [PathStep] {
        var steps: [PathStep] = []
        var name = ""
        var number: String?
        for character in path {
            switch character {
            case "." where number == nil:
                if !name.isEmpty { steps.append(.member(name)) }
                name = ""
            case "[" where number == nil:
                if !name.isEmpty { steps.append(.member(name)) }
                name = ""
                number = ""
            case "]" where number != nil:
                steps.append(.index(Int(number ?? "") ?? 0))
                number = nil
            default:
                if number != nil { number?.append(character) } else { name.append(character) }
            }
        }
        if !name.isEmpty { steps.append(.member(name)) }
        return steps
    }

    /// The path of `steps`, as in validation issues.
    static func text(_ steps: [PathStep]) -> String {
        steps.reduce("") { path, step in
            switch step {
            case .member(let name): return JSONPath.member(path, name)
            case .index(let index): return JSONPath.index(path, index)
            }
        }
    }

    /// The path of `steps` with its indices left empty: the list a
    /// ``GenerationSchema/merged(chunks:perChunk:)`` limit names.
    static func pattern(_ steps: [PathStep]) -> String {
        steps.reduce("") { path, step in
            switch step {
            case .member(let name): return JSONPath.member(path, name)
            case .index: return path + "[]"
            }
        }
    }

    /// Document order of two paths.
    static func precedes(_ first: [PathStep], _ second: [PathStep]) -> Bool {
        for (a, b) in zip(first, second) where a != b {
            switch (a, b) {
            case (.index(let x), .index(let y)): return x < y
            case (.member(let x), .member(let y)): return x < y
            case (.member, .index): return true
            case (.index, .member): return false
            }
        }
        return first.count < second.count
    }
}

extension GenerationSchema {
    /// The schema of the value at `steps`, or `nil` when the schema has no such place.
    func at(_ steps: [PathStep]) -> GenerationSchema? {
        var schema = self
        for step in steps {
            switch (step, schema) {
            case (.member(let name), .object(let properties)):
                guard let property = properties.first(where: { $0.name == name }) else { return nil }
                schema = property.schema
            case (.index, .array(let items, _, _, _)):
                schema = items
            default:
                return nil
            }
        }
        return schema
    }
}

extension JSONValue {
    /// The value at `steps`, or `nil` when there is none.
    func at(_ steps: [PathStep]) -> JSONValue? {
        var value = self
        for step in steps {
            switch step {
            case .member(let name):
                guard let member = value[name] else { return nil }
                value = member
            case .index(let index):
                guard let items = value.arrayValue, items.indices.contains(index) else { return nil }
                value = items[index]
            }
        }
        return value
    }

    /// This value (found at `steps`) without the array elements whose paths are in `removed`.
    func removing(_ removed: Set<[PathStep]>, at steps: [PathStep]) -> JSONValue {
        guard !removed.isEmpty else { return self }
        switch self {
        case .array(let items):
            // (`JSONValue` is nil-literal convertible: filter, then map, so nothing becomes `null`.)
            return .array(items.indices.filter { !removed.contains(steps + [.index($0)]) }.map { index in
                items[index].removing(removed, at: steps + [.index(index)])
            })
        case .object(let object):
            return .object(JSONObject(object.map { key, member in
                (key, member.removing(removed, at: steps + [.member(key)]))
            }))
        default:
            return self
        }
    }
}
