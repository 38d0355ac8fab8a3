import Foundation
import Testing
@testable import StudyKit

@Suite struct MindMapLayoutTests {
    /// 8 branches × 3 children × 2 grandchildren: 81 labels, many of them long.
    static let bigMap: MindMap = {
        let words = ["photosynthesis", "chlorophyll", "light", "reactions", "Calvin", "cycle", "stroma", "thylakoid", "membrane", "ATP"]
        func label(_ seed: Int, _ count: Int) -> String {
            (0..<count).map { words[(seed * 7 + $0 * 3) % words.count] }.joined(separator: " ")
        }
        return MindMap(centralTopic: "How plants capture light and store it as sugar", branches: (0..<8).map { b in
            .init(label: label(b, 2 + b % 5), children: (0..<3).map { c in
                .init(label: label(b * 3 + c, 1 + (b + c) % 6), children: (0..<2).map { g in
                    .init(label: label(b * 6 + c * 2 + g, 1 + (b + c + g) % 6))
                })
            })
        })
    }()

    @Test func noTwoLabelBoxesIntersectInAnEightyNodeMap() {
        let layout = MindMapLayout(Self.bigMap)
        #expect(layout.nodes.count == 81)
        #expect(layout.overlappingPairs.isEmpty)
        // Everything is inside the drawing, margins included.
        for node in layout.nodes {
            #expect(node.frame.x >= 16 && node.frame.y >= 16)
            #expect(node.frame.maxX <= layout.width - 16 + 1 && node.frame.maxY <= layout.height - 16 + 1)
        }
    }

    @Test func overlapDetectionFindsBoxesThatShareArea() {
        let a = MindMapLayout.Rect(x: 0, y: 0, width: 10, height: 10)
        #expect(a.intersects(.init(x: 9, y: 9, width: 5, height: 5)))
        #expect(!a.intersects(.init(x: 10, y: 0, width: 5, height: 5)), "touching edges do not overlap")
        #expect(!a.intersects(.init(x: 0, y: 10.5, width: 5, height: 5)))
    }

    @Test func branchesAreSharedBetweenBothSidesAndEachSideKeepsItsColumns() {
        let layout = MindMapLayout(Self.bigMap)
        let root = layout.nodes[0].frame
        let branches = layout.nodes.filter { $0.depth == 1 }
        #expect(branches.filter { $0.side == .right }.count == 4 && branches.filter { $0.side == .left }.count == 4)
        for node in layout.nodes.dropFirst() {
            if node.side == .right { #expect(node.frame.x > root.maxX) } else { #expect(node.frame.maxX < root.x) }
            // A child sits a column further out than its parent.
            if let parent = node.parent, parent != 0 {
                let above = layout.nodes[parent].frame
                if node.side == .right { #expect(node.frame.x > above.maxX) } else { #expect(node.frame.maxX < above.x) }
            }
        }
    }

    @Test func aParentIsCentredOnItsFirstAndLastChild() {
        let layout = MindMapLayout(Self.bigMap)
        for node in layout.nodes where node.depth > 0 && node.childCount > 0 {
            let children = layout.nodes.filter { $0.parent == node.id }
            let middle = (children.first!.frame.midY + children.last!.frame.midY) / 2
            #expect(abs(node.frame.midY - middle) < 0.001)
        }
    }

    @Test func longLabelsWrapWithinTheColumnAndLongWordsBreak() {
        let metrics = MindMapLayout.Metrics()
        let map = MindMap(centralTopic: "Topic", branches: [
            .init(label: "the light dependent reactions of photosynthesis in thylakoids"),
            .init(label: String(repeating: "Pneumonoultramicroscopic", count: 2)),
        ])
        let layout = MindMapLayout(map)
        for node in layout.nodes {
            for line in node.lines {
                #expect(MindMapLayout.textWidth(line, fontSize: node.fontSize) <= metrics.maxTextWidth(node.depth))
            }
            #expect(node.lines.joined() .filter { !$0.isWhitespace } == (node.depth == 0 ? "Topic" : map.branches[node.id - 1].label)
                .filter { !$0.isWhitespace }, "wrapping loses no character")
        }
        #expect(layout.nodes[1].lines.count > 1)
        #expect(layout.nodes[2].lines.count > 1, "a word wider than the column is broken")
        #expect(layout.nodes[1].frame.height > layout.nodes[0].frame.height / 2)
    }

    @Test func aSmallSubtreeTucksUnderItsNeighbourInsteadOfBelowItsWholeHeight() {
        // The first branch is tall only at depth 3; the second has no grandchildren, so it may
        // rise beside the first's grandchildren: contour packing, not stacking whole subtrees.
        let tall = MindMap.Node(label: "First", children: [
            .init(label: "Only child", children: (0..<5).map { .init(label: "Grandchild \($0)") }),
        ])
        let short = MindMap.Node(label: "Second", children: [.init(label: "Leaf")])
        let left = MindMap.Node(label: "Third", children: [
            .init(label: "Its child", children: (0..<6).map { .init(label: "Detail \($0)") }),
        ])
        let layout = MindMapLayout(MindMap(centralTopic: "Topic", branches: [tall, short, left]))
        #expect(layout.overlappingPairs.isEmpty)
        let lowestGrandchild = layout.nodes.filter { $0.depth == 3 }.map(\.frame.maxY).max()!
        let second = layout.nodes.first { $0.lines == ["Second"] }!
        #expect(second.side == .right)
        #expect(second.frame.y < lowestGrandchild, "the second branch did not tuck in")
    }
}
