import Foundation
import Testing
@testable import StudyKit

@Suite struct KitWriterTests {
    static let json = "{\"task\":\"import\"}"

    /// A fresh directory under the system's temporary directory, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-kitwriter-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func contents(of directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test func writesAllSixFilesWithTheRenderersOutput() throws {
        let root = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("nested/kit")
        let kit = OutputFixtures.nastyKit
        let context = OutputFixtures.context()

        let written = try KitWriter().write(kit, json: Self.json, to: directory, context: context)

        #expect(written.map(\.lastPathComponent) == KitWriter.fileNames)
        #expect(try Self.contents(of: directory) == KitWriter.fileNames.sorted())
        func read(_ name: String) throws -> String {
            try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        }
        #expect(try read("kit.md") == MarkdownRenderer.render(kit, context: context))
        #expect(try read("kit.json") == Self.json + "\n")
        #expect(try read("cards.tsv") == AnkiRenderer.render(kit.flashcards, context: context))
        #expect(try read("quiz.md").hasPrefix("# Quiz: Cells & \\<Energy> 🧠\n\n1. Where does the Krebs cycle run?"))
        #expect(try read("mindmap.mmd") == MermaidRenderer.render(kit.mindMap))
        #expect(try read("mindmap.opml").contains("<title>Cells &amp; &lt;Energy&gt; 🧠</title>"))
        for name in KitWriter.fileNames {
            #expect(OutputFixtures.unsafeScalars(in: try read(name)).isEmpty, "\(name)")
        }
    }

    @Test func rewritingReplacesTheFilesAndLeavesNoTemporaries() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = KitWriter()
        try writer.write(OutputFixtures.nastyKit, json: "{\"old\":true}\n", to: directory, context: OutputFixtures.context())
        try writer.write(OutputFixtures.cleanKit, json: Self.json, to: directory, context: OutputFixtures.context())
        #expect(try Self.contents(of: directory) == KitWriter.fileNames.sorted())
        let markdown = try String(contentsOf: directory.appendingPathComponent("kit.md"), encoding: .utf8)
        #expect(markdown.hasPrefix("# Cellular Respiration\n"))
    }

    @Test func aPathThatIsAFileFailsClearlyAndWritesNothing() throws {
        let root = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("kit")
        try Data("not a directory\n".utf8).write(to: file)

        #expect(throws: OutputError.notADirectory(path: file.path)) {
            try KitWriter().write(OutputFixtures.cleanKit, json: Self.json, to: file, context: OutputFixtures.context())
        }
        #expect(try Self.contents(of: root) == ["kit"])
        #expect(try String(contentsOf: file, encoding: .utf8) == "not a directory\n")
    }

    @Test func aPathBelowAFileNamesTheFile() throws {
        let root = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("notes.txt")
        try Data("x".utf8).write(to: file)

        #expect(throws: OutputError.notADirectory(path: file.path)) {
            try KitWriter().write(OutputFixtures.cleanKit, json: Self.json, to: file.appendingPathComponent("kit"),
                                  context: OutputFixtures.context())
        }
        #expect(try Self.contents(of: root) == ["notes.txt"])
    }

    @Test func errorsAreOneLineNamingThePath() {
        let notDirectory = OutputError.notADirectory(path: "/tmp/kit")
        #expect(notDirectory.message == "cannot write the kit into '/tmp/kit': it exists and is not a directory; choose another output directory")
        #expect(notDirectory.exitCode == .failure)
        let failed = OutputError.writeFailed(path: "/tmp/kit/kit.md", reason: "no space left on device")
        #expect(failed.message == "cannot write '/tmp/kit/kit.md' (no space left on device); check the directory exists and is writable")
        #expect(failed.exitCode == .failure)
    }
}
