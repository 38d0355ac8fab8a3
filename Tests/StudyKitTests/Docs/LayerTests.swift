import Foundation
import Testing

/// Folders as layers (#55 item 5, ARCHITECTURE.md "Layers"): a folder of `Sources/StudyKit` uses
/// only the folders to its left in ``LayerScan/order``. Every use against the order fails, printed
/// as `file:line: Folder uses OtherFolder's Symbol`, except the back-edges allowed below; an
/// allowed back-edge that no longer occurs fails too, so the list only shrinks.
@Suite("Folders as layers")
struct LayerTests {
    /// A back-edge that stays for now: `file` (relative to `Sources/StudyKit`) uses `symbol`.
    struct Allowed: CustomStringConvertible {
        var file: String
        var symbol: String
        var reason: String
        var description: String { "\(file) -> \(symbol)" }
    }

    /// The back-edges left in files other work was changing when the check came. None is left
    /// (session 65 moved the last one); never add one for new code.
    static let allowed: [Allowed] = []

    static let sources = TestPaths.packageRoot.appendingPathComponent("Sources/StudyKit")

    static func isAllowed(_ violation: LayerScan.Violation) -> Bool {
        allowed.contains { $0.file == violation.file && $0.symbol == violation.symbol }
    }

    @Test func noUseGoesAgainstTheLayerOrder() throws {
        let scan = try LayerScan(sources: Self.sources)
        let found = scan.violations()
        #expect(scan.files.count > 100, "the scan read the library's files")
        let new = found.filter { !Self.isAllowed($0) }
        #expect(new.isEmpty, Comment(rawValue: "uses against the layer order (ARCHITECTURE.md, Layers):\n"
            + new.map(\.message).joined(separator: "\n")))
        let stale = Self.allowed.filter { entry in
            !found.contains { $0.file == entry.file && $0.symbol == entry.symbol }
        }
        #expect(stale.isEmpty, Comment(rawValue: "allowed back-edges that no longer occur; remove them from "
            + "LayerTests.allowed: " + stale.map(\.description).joined(separator: ", ")))
    }

    @Test func everyFolderHasAPlaceInTheOrder() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).filter { name in
            var isDirectory: ObjCBool = false
            let path = Self.sources.appendingPathComponent(name).path
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
                && (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? [])
                    .contains { $0.hasSuffix(".swift") }
        }
        let placed = Set(LayerScan.order.joined())
        #expect(Set(folders).subtracting(placed).sorted() == [], "folders the layer order does not place")
        #expect(placed.subtracting(folders).sorted() == [], "layers with no folder")
    }

    @Test func theArchitectureDocumentStatesTheOrderTheTestEnforces() throws {
        let architecture = try ArchitectureDocTests.read("ARCHITECTURE.md")
        let stated = LayerScan.order.map { $0.joined(separator: ", ") }.joined(separator: " → ")
        #expect(architecture.contains(stated), "ARCHITECTURE.md's Layers section states: \(stated)")
    }

    // MARK: The scanner itself, on a small tree of its own

    /// Writes `files` (path -> text) under a new temporary folder and scans it.
    static func scan(_ files: [String: String]) throws -> [String] {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("layers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return try LayerScan(sources: root).violations().map(\.message)
    }

    static let higher = """
        public struct RouteThing {}
        func routeHelper() -> Int { 1 }
        let routeLimit = 3
        extension String {
            var routedWords: [String] { [] }
            func sorted() -> [Character] { [] }
            private var hiddenMember: Int { 0 }
        }
        private struct Hidden {}
        """

    struct Case: Sendable, CustomStringConvertible {
        var description: String
        var code: String
        var expected: [String]
    }

    static let cases: [Case] = [
        Case(description: "a type", code: "let a = RouteThing()",
             expected: ["Text/Use.swift:1: Text uses Routing's RouteThing"]),
        Case(description: "a function and a constant", code: "let a = routeHelper()\nlet b = routeLimit",
             expected: ["Text/Use.swift:1: Text uses Routing's routeHelper",
                        "Text/Use.swift:2: Text uses Routing's routeLimit"]),
        Case(description: "an extension member", code: "let a = \"x\".routedWords",
             expected: ["Text/Use.swift:1: Text uses Routing's .routedWords"]),
        Case(description: "code in an interpolation", code: "let a = \"n: \\(RouteThing())\"",
             expected: ["Text/Use.swift:1: Text uses Routing's RouteThing"]),
        Case(description: "comments and strings", code: """
            // RouteThing in a comment
            /* routeHelper() /* nested */ RouteThing */
            let a = "RouteThing routeLimit"
            let b = #"RouteThing \\(x)"#
            let c = \"\"\"
                routeHelper()
                \"\"\"
            """, expected: []),
        Case(description: "a name the standard library also declares", code: "let a = [3, 1].sorted()", expected: []),
        Case(description: "private declarations", code: "let a = Hidden()\nlet b = \"\".hiddenMember", expected: []),
        Case(description: "a label or a binding of the same name",
             code: "func f(routeLimit: Int) -> Int { routeLimit }\nlet c = g(routeHelper: 1)", expected: []),
    ]

    @Test(arguments: cases)
    func theScannerFindsUsesAndNothingElse(_ testCase: Case) throws {
        let found = try Self.scan(["Routing/Declares.swift": Self.higher, "Text/Use.swift": testCase.code])
        #expect(found == testCase.expected)
    }

    @Test func aFolderMayUseTheFoldersToItsLeft() throws {
        let found = try Self.scan(["Routing/Declares.swift": Self.higher,
                                   "CLI/Use.swift": "let a = RouteThing()\nlet b = \"\".routedWords"])
        #expect(found == [])
    }
}
