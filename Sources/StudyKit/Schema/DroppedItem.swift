import Foundation

/// An item that failed grounding twice (the answer and its one re-ask) and was dropped from the result.
public struct DroppedItem: Sendable, Equatable, Hashable {
    /// Where it was in the answer, as in validation issues: `cards[3]`, `branches[1].children[0]`.
    public var path: String
    /// The first thing wrong with it.
    public var reason: String

    /// Creates a record of a dropped item.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    var jsonValue: JSONValue { ["path": .string(path), "reason": .string(reason)] }
}
