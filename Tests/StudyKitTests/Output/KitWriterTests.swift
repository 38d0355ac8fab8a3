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

    @Test func writesEveryFileWithTheRenderersOutput() throws {
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
        let package = try Data(contentsOf: directory.appendingPathComponent("cards.apkg"))
        #expect(package.starts(with: [0x50, 0x4B, 0x03, 0x04]), "cards.apkg is a zip")
        for name in KitWriter.fileNames where name != "cards.apkg" {
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

    /// A deck of question and cloze cards gets cloze.tsv beside cards.tsv; a later kit with one
    /// kind of card removes it, so the directory never holds notes of two kits.
    @Test func aMixedDeckWritesAClozeFileThatALaterKitRemoves() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var mixed = OutputFixtures.cleanKit
        mixed.flashcards.cards.append(.init(question: "Glycolysis splits _____ in the cytoplasm.", answer: "glucose", quote: "Glycolysis splits glucose in the cytoplasm."))
        let context = OutputFixtures.context()
        let written = try KitWriter().write(mixed, json: Self.json, to: directory, context: context)
        #expect(written.map(\.lastPathComponent) == ["kit.md", "kit.json", "cards.tsv", "cloze.tsv", "cards.apkg", "quiz.md", "mindmap.mmd", "mindmap.opml", "kit.html", "mindmap.svg"])
        let cloze = try String(contentsOf: directory.appendingPathComponent("cloze.tsv"), encoding: .utf8)
        #expect(cloze.contains("#notetype:Cloze\n"))
        #expect(cloze.contains("{{c1::glucose}}"))
        let cards = try String(contentsOf: directory.appendingPathComponent("cards.tsv"), encoding: .utf8)
        #expect(cards.contains("#notetype:Basic\n") && !cards.contains("{{c1::"))

        try KitWriter().write(OutputFixtures.cleanKit, json: Self.json, to: directory, context: context)
        #expect(try Self.contents(of: directory) == KitWriter.fileNames.sorted())
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
