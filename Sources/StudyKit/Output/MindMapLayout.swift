/// Where every label of a mind map goes when it is drawn: a two-sided tidy tree.
///
/// The central topic sits in the middle; the branches are shared between its right and its
/// left, in order, so that both sides are about as tall. On each side every depth has its own
/// column, as wide as its widest label, so boxes of different depths never meet. Within a
/// column, subtrees are packed top to bottom by their contours (Reingold–Tilford): a subtree
/// moves down just far enough that, at every depth the two share, its top clears the bottom of
/// what is above it by ``Metrics/verticalGap``. A parent is centred on its first and last child.
///
/// Labels wrap at word boundaries to a column's maximum width (a word longer than that is
/// broken), with widths estimated from a per-character table that errs wide for the fonts the
/// drawing asks for (DejaVu Sans, Verdana), so the drawn text stays inside its box.
public struct MindMapLayout: Sendable, Equatable {
    /// An axis-aligned rectangle in drawing units (CSS pixels).
    public struct Rect: Sendable, Equatable {
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double

        /// Creates a rectangle.
        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        /// The vertical centre.
        public var midY: Double { y + height / 2 }
        /// The right edge.
        public var maxX: Double { x + width }
        /// The bottom edge.
        public var maxY: Double { y + height }

        /// Whether the two share any area (touching edges do not count).
        public func intersects(_ other: Rect) -> Bool {
            x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
        }
    }

    /// Which side of the central topic a node is drawn on.
    public enum Side: String, Sendable, Equatable {
        case center, left, right
    }

    /// One label, placed.
    public struct Node: Sendable, Equatable {
        /// The node's position in depth-first order; the central topic is 0.
        public var id: Int
        /// The node above, or `nil` for the central topic.
        public var parent: Int?
        /// 0 for the central topic, 1 for a branch, 2 for a child, 3 for a grandchild.
        public var depth: Int
        /// Which branch (0-based) the node belongs to; `nil` for the central topic.
        public var branch: Int?
        /// The label, wrapped.
        public var lines: [String]
        /// The label's box.
        public var frame: Rect
        /// The side it is drawn on.
        public var side: Side
        /// Font size of the label, in drawing units.
        public var fontSize: Double
        /// The number of nodes directly below.
        public var childCount: Int
    }

    /// Sizes and gaps; the defaults are what the page and `--format svg` draw with.
    public struct Metrics: Sendable, Equatable {
        /// Font size by depth (central topic, branch, child, grandchild and deeper).
        public var fontSizes: [Double] = [18, 15, 14, 13]
        /// Widest text of a label before it wraps, by depth.
        public var maxTextWidths: [Double] = [220, 190, 180, 170]
        /// Line height as a multiple of the font size.
        public var lineHeight = 1.3
        /// Space between a label's text and its box, left and right.
        public var paddingX = 10.0
        /// Space between a label's text and its box, above and below.
        public var paddingY = 6.0
        /// Space between two columns, where the connecting curves run.
        public var horizontalGap = 44.0
        /// The least space between two boxes in one column.
        public var verticalGap = 10.0
        /// Space around the whole drawing.
        public var margin = 16.0

        /// Creates the default metrics.
        public init() {}

        func fontSize(_ depth: Int) -> Double { fontSizes[min(depth, fontSizes.count - 1)] }
        func maxTextWidth(_ depth: Int) -> Double { maxTextWidths[min(depth, maxTextWidths.count - 1)] }
    }

    /// The nodes in depth-first order (``Node/id`` is the index).
    public var nodes: [Node]
    /// The drawing's size, margins included.
    public var width: Double
    public var height: Double

    /// Lays out `map`. Labels are used as given; clean them first.
    public init(_ map: MindMap, metrics: Metrics = Metrics()) {
        let root = MindMap.Node(label: map.centralTopic, children: map.branches)
        var builder = Builder(metrics: metrics)
        builder.add(root, parent: nil, depth: 0, branch: nil, side: .center)
        builder.place()
        nodes = builder.nodes
        let frames = nodes.map(\.frame)
        let minX = frames.map(\.x).min() ?? 0, minY = frames.map(\.y).min() ?? 0
        let maxX = frames.map(\.maxX).max() ?? 0, maxY = frames.map(\.maxY).max() ?? 0
        for index in nodes.indices {
            nodes[index].frame.x += metrics.margin - minX
            nodes[index].frame.y += metrics.margin - minY
        }
        width = (maxX - minX + 2 * metrics.margin).rounded(.up)
        height = (maxY - minY + 2 * metrics.margin).rounded(.up)
    }

    /// Pairs of nodes whose boxes intersect; empty for every layout this type makes.
    public var overlappingPairs: [(Int, Int)] {
        var pairs: [(Int, Int)] = []
        for first in nodes.indices {
            for second in nodes.indices where second > first && nodes[first].frame.intersects(nodes[second].frame) {
                pairs.append((first, second))
            }
        }
        return pairs
    }

    // MARK: - Text measure

    /// An estimate of `text`'s width at `fontSize`, erring wide: per character, a width in em
    /// at or above DejaVu Sans Bold's for that class of character.
    static func textWidth(_ text: String, fontSize: Double) -> Double {
        var em = 0.0
        for character in text {
            em += characterWidth(character)
        }
        return em * fontSize
    }

    private static func characterWidth(_ character: Character) -> Double {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        if character.unicodeScalars.count > 1 && scalar.properties.isEmojiPresentation { return 1.3 }
        switch scalar {
        case " ": return 0.36
        case "i", "j", "l", "I", "!", "|", ".", ",", ":", ";", "'": return 0.42
        case "f", "t", "r", "(", ")", "[", "]", "{", "}", "-", "\"": return 0.52
        case "m", "w", "M", "W", "@", "%", "—", "…": return 1.1
        case "a"..."z", "0"..."9": return 0.72
        case "A"..."Z", "&", "#": return 0.86
        default:
            // East Asian ideographs and kana, Hangul, emoji: full width.
            if scalar.properties.isEmojiPresentation { return 1.3 }
            switch scalar.value {
            case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
                 0x20000...0x3FFFD:
                return 1.1
            default: return 0.86
            }
        }
    }

    /// `text` broken into lines no wider than `maxWidth`, at spaces where possible.
    static func wrap(_ text: String, fontSize: Double, maxWidth: Double) -> [String] {
        var lines: [String] = []
        var current = ""
        func fits(_ candidate: String) -> Bool { textWidth(candidate, fontSize: fontSize) <= maxWidth }
        for word in text.split(whereSeparator: \.isWhitespace).map(String.init) {
            let candidate = current.isEmpty ? word : current + " " + word
            if fits(candidate) {
                current = candidate
                continue
            }
            if !current.isEmpty { lines.append(current) }
            current = ""
            // A word wider than a whole line is cut where it stops fitting.
            var piece = ""
            for character in word {
                if !piece.isEmpty && !fits(piece + String(character)) {
                    lines.append(piece)
                    piece = ""
                }
                piece.append(character)
            }
            current = piece
        }
        if !current.isEmpty { lines.append(current) }
        return lines.isEmpty ? [""] : lines
    }

    // MARK: - Building

    private struct Builder {
        let metrics: Metrics
        var nodes: [Node] = []
        var children: [[Int]] = []

        init(metrics: Metrics) { self.metrics = metrics }

        mutating func add(_ node: MindMap.Node, parent: Int?, depth: Int, branch: Int?, side: Side) {
            let fontSize = metrics.fontSize(depth)
            let lines = MindMapLayout.wrap(node.label, fontSize: fontSize, maxWidth: metrics.maxTextWidth(depth))
            let textWidth = lines.map { MindMapLayout.textWidth($0, fontSize: fontSize) }.max() ?? 0
            let frame = Rect(
                x: 0, y: 0, width: (textWidth + 2 * metrics.paddingX).rounded(.up),
                height: (Double(lines.count) * fontSize * metrics.lineHeight + 2 * metrics.paddingY).rounded(.up))
            let id = nodes.count
            nodes.append(Node(
                id: id, parent: parent, depth: depth, branch: branch, lines: lines, frame: frame, side: side,
                fontSize: fontSize, childCount: node.children.count))
            children.append([])
            if let parent { children[parent].append(id) }
            for (index, child) in node.children.enumerated() {
                // Branches are shared out between the sides later; below a branch, a node keeps its side.
                add(child, parent: id, depth: depth + 1, branch: branch ?? index, side: depth == 0 ? .right : side)
            }
        }

        /// Splits the branches between the sides, packs each side and places the columns.
        mutating func place() {
            let branches = children[0]
            let heights = branches.map { estimatedHeight($0) }
            let total = heights.reduce(0, +)
            // The first branches go right (reading order), the rest left, split where the two
            // sides come closest to the same height.
            var rightCount = branches.count
            if branches.count > 1 {
                rightCount = (1..<branches.count).min { first, second in
                    abs(2 * heights.prefix(first).reduce(0, +) - total) < abs(2 * heights.prefix(second).reduce(0,
                        +) - total)
                }!
            }
            let right = Array(branches.prefix(rightCount)), left = Array(branches.dropFirst(rightCount))
            for id in left { setSide(.left, below: id) }

            let rootFrame = nodes[0].frame
            nodes[0].frame.x = -rootFrame.width / 2
            nodes[0].frame.y = -rootFrame.height / 2
            for (side, group) in [(Side.right, right), (Side.left, left)] where !group.isEmpty {
                let packed = pack(group)
                // The side's stack is centred on the central topic.
                let shift = -(packed.contour.values.map(\.top).min()! + packed.contour.values.map(\.bottom).max()!) / 2
                for (id, y) in packed.tops { nodes[id].frame.y = y + shift }
                placeColumns(side: side, ids: packed.tops.map(\.id))
            }
        }

        private func estimatedHeight(_ id: Int) -> Double {
            let own = nodes[id].frame.height + metrics.verticalGap
            let below = children[id].map { estimatedHeight($0) }.reduce(0, +)
            return max(own, below)
        }

        private mutating func setSide(_ side: Side, below id: Int) {
            nodes[id].side = side
            for child in children[id] { setSide(side, below: child) }
        }

        /// A packed group of subtrees: each node's top, relative to the group, and the group's
        /// extent at each depth.
        private struct Packed {
            var tops: [(id: Int, y: Double)] = []
            var contour: [Int: (top: Double, bottom: Double)] = [:]
            /// The vertical centre of each top-level member, in order.
            var centers: [Double] = []
        }

        /// Packs the subtrees rooted at `ids` one below the other, as close as their contours allow.
        private func pack(_ ids: [Int]) -> Packed {
            var group = Packed()
            for id in ids {
                let subtree = layout(id)
                var shift = 0.0
                if !group.tops.isEmpty {
                    shift = -Double.infinity
                    for (depth, extent) in subtree.contour {
                        if let above = group.contour[depth] {
                            shift = max(shift, above.bottom + metrics.verticalGap - extent.top)
                        }
                    }
                    if shift == -Double.infinity {
                        // No depth in common (cannot happen for siblings); stack below everything.
                        shift = group.contour.values.map(\.bottom).max()! + metrics.verticalGap
                            - subtree.contour.values.map(\.top).min()!
                    }
                }
                group.tops += subtree.tops.map { ($0.id, $0.y + shift) }
                group.centers.append(subtree.centers[0] + shift)
                for (depth, extent) in subtree.contour {
                    let moved = (top: extent.top + shift, bottom: extent.bottom + shift)
                    if let existing = group.contour[depth] {
                        group.contour[depth] = (min(existing.top, moved.top), max(existing.bottom, moved.bottom))
                    } else {
                        group.contour[depth] = moved
                    }
                }
            }
            return group
        }

        /// The subtree at `id`, its root centred on its first and last child.
        private func layout(_ id: Int) -> Packed {
            let node = nodes[id]
            let height = node.frame.height
            guard !children[id].isEmpty else {
                return Packed(tops: [(id, 0)], contour: [node.depth: (0, height)], centers: [height / 2])
            }
            var below = pack(children[id])
            let center = (below.centers.first! + below.centers.last!) / 2
            let top = center - height / 2
            below.tops.insert((id, top), at: 0)
            below.contour[node.depth] = (top, top + height)
            below.centers = [center]
            return below
        }

        /// Sets each node's x: one column per depth, as wide as its widest box, outwards from the centre.
        private mutating func placeColumns(side: Side, ids: [Int]) {
            var columnWidth: [Int: Double] = [:]
            for id in ids { columnWidth[nodes[id].depth] = max(columnWidth[nodes[id].depth] ?? 0,
                nodes[id].frame.width) }
            var edge = nodes[0].frame.width / 2 + metrics.horizontalGap
            var columnStart: [Int: Double] = [:]
            for depth in columnWidth.keys.sorted() {
                columnStart[depth] = edge
                edge += columnWidth[depth]! + metrics.horizontalGap
            }
            for id in ids {
                let start = columnStart[nodes[id].depth]!
                // Right of the centre a column's boxes line up on their left edge, left of it on their right.
                nodes[id].frame.x = side == .right ? start : -start - nodes[id].frame.width
            }
        }
    }
}
