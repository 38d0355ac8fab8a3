import Foundation
import Testing

/// The documentation a newcomer reads first (#55): the README as a front door, the guides in
/// `docs/`, and ARCHITECTURE.md's public API list, which must name exactly the library's
/// top-level `public` declarations.
@Suite("Architecture and guides")
struct ArchitectureDocTests {
    static let root = TestPaths.packageRoot

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// Every top-level `public` declaration in `Sources/StudyKit`, split into the public API and
    /// the `@_spi(Benchmarks)` hooks (the attribute on the line or on the line before).
    static func publicDeclarations() throws -> (api: Set<String>, spi: Set<String>) {
        let sources = root.appendingPathComponent("Sources/StudyKit")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        let declaration =
            #/^((?:@\w+(?:\([^)]*\))? )*)public (?:final |indirect )?(?:struct|class|enum|protocol|actor|typealias|func|let|var) (\w+)/#
        var api = Set<String>()
        var spi = Set<String>()
        for case let file as URL in files where file.pathExtension == "swift" {
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n",
                omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() {
                guard let match = try declaration.prefixMatch(in: line) else { continue }
                let attributed = match.1.contains("@_spi") || (index > 0 && lines[index - 1].hasPrefix("@_spi"))
                if attributed { spi.insert(String(match.2)) } else { api.insert(String(match.2)) }
            }
        }
        return (api, spi)
    }

    /// The names in backticks in `text`.
    static func names(in text: Substring) -> Set<String> {
        Set(text.matches(of: #/`(\w+)`/#).map { String($0.1) })
    }

    @Test func thePublicAPIListNamesEveryPublicDeclaration() throws {
        let architecture = try Self.read("ARCHITECTURE.md")
        let section = try #require(architecture.range(of: "## Public API")).upperBound
        let rest = architecture[section...]
        let hooks = try #require(rest.range(of: "Benchmark hooks"))
        let listLines = rest[..<hooks.lowerBound].split(separator: "\n").filter { $0.hasPrefix("- **") }
        let listed = listLines.reduce(into: Set<String>()) { $0.formUnion(Self.names(in: $1)) }
        let hookEnd = try #require(rest.range(of: "Everything else is internal")).lowerBound
        let hookNames = Self.names(in: rest[hooks.upperBound..<hookEnd]).subtracting(["StudyKit"])
        let declared = try Self.publicDeclarations()

        #expect(declared.api.subtracting(listed).sorted() == [], "public but not in ARCHITECTURE.md's list")
        #expect(listed.subtracting(declared.api).sorted() == [], "listed in ARCHITECTURE.md but not public")
        #expect(declared.spi == hookNames, "the @_spi(Benchmarks) declarations and the hooks listed")
        #expect(declared.api.count > 100, "the scan found the library's declarations")
    }

    @Test func theReadmeIsAFrontDoor() throws {
        let readme = try Self.read("README.md")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 300)
        let opening = lines.prefix(40).joined(separator: "\n")
        #expect(opening.contains("scripts/setup && scripts/run headline < samples/paste.txt"))
        #expect(opening.contains("\nscripts/test\n"))
        // The CI runs the README's test command.
        let ci = try Self.read(".ci/run")
        #expect(ci.contains("scripts/test"))
    }

    /// The Markdown files a reader follows links between.
    static let guides: [String] = {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path))
            ?? []
        return ["README.md", "ARCHITECTURE.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }()

    @Test func everyGuideIsThere() {
        for guide in ["routing", "engines", "formats", "configuration", "scale-out", "builtin-engine", "development",
            "design"] {
            #expect(Self.guides.contains("docs/\(guide).md"), "docs/\(guide).md")
        }
    }

    /// GitHub's anchor for a heading: lowercased, punctuation dropped, spaces as hyphens.
    static func anchor(_ heading: Substring) -> String {
        String(heading.lowercased().compactMap { character -> Character? in
            if character == " " { return "-" }
            return character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
        })
    }

    static func anchors(in text: String) -> Set<String> {
        var inFence = false
        var found = Set<String>()
        for line in text.split(separator: "\n") {
            if line.hasPrefix("```") { inFence.toggle() }
            guard !inFence, let hashes = line.firstIndex(where: { $0 != "#" }), hashes != line.startIndex,
                  line[hashes] == " " else { continue }
            found.insert(anchor(line[line.index(after: hashes)...]))
        }
        return found
    }

    @Test(arguments: guides)
    func everyLinkResolvesInsideTheRepository(_ guide: String) throws {
        let text = try Self.read(guide)
        let folder = URL(fileURLWithPath: guide).deletingLastPathComponent().relativePath
        #expect(!text.contains("../shared"), "\(guide) points outside the repository")
        for match in text.matches(of: #/\]\(([^)\s]+)\)/#) {
            let target = String(match.1)
            if target.hasPrefix("http://") || target.hasPrefix("https://") || target.hasPrefix("mailto:") { continue }
            let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let file = parts[0].isEmpty ? guide
                : URL(fileURLWithPath: folder == "." ? String(parts[0]) : folder + "/" + parts[0]).standardized.relativePath
            let resolved = Self.root.appendingPathComponent(file).standardized
            #expect(resolved.path.hasPrefix(Self.root.standardized.path), "\(guide): \(target) leaves the repository")
            #expect(FileManager.default.fileExists(atPath: resolved.path), "\(guide): \(target) does not exist")
            if parts.count == 2, file.hasSuffix(".md"),
                let linked = try? String(contentsOf: resolved, encoding: .utf8) {
                #expect(Self.anchors(in: linked).contains(String(parts[1])), "\(guide): \(target) names no heading")
            }
        }
    }

    @Test(arguments: guides.filter { $0.hasPrefix("docs/") })
    func everyGuideOpensWithWhatItHolds(_ guide: String) throws {
        let paragraphs = try Self.read(guide).split(separator: "\n\n")
        #expect(paragraphs.first?.hasPrefix("# ") == true, "\(guide) starts with its title")
        #expect((paragraphs.dropFirst().first?.count ?? 0) >= 80, "\(guide) says what a reader finds in it")
    }
}
