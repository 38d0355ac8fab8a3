import Foundation
import Testing
@testable import StudyKit

/// `--out DIR` is complete or untouched: the kit is written beside it and moved in at the end.
@Suite struct StagedDirectoryTests {
    static let json = "{\"task\":\"import\"}"

    static func write(_ staging: StagedDirectory) throws -> [URL] {
        try KitWriter().write(OutputFixtures.nastyKit, json: json, to: staging.staging, context: OutputFixtures.context())
    }

    @Test func aNewDirectoryAppearsWholeInOneRename() throws {
        let root = try KitWriterTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let target = root.appendingPathComponent("nested/kit")
        let staging = try StagedDirectory(target: target)
        #expect(staging.staging.deletingLastPathComponent().path == target.deletingLastPathComponent().path)
        let staged = try Self.write(staging)
        // Before the commit nothing is at the target.
        #expect(!FileManager.default.fileExists(atPath: target.path))
        let written = try staging.commit(order: staged)
        #expect(written.map(\.lastPathComponent) == KitWriter.fileNames)
        #expect(written.allSatisfy { $0.deletingLastPathComponent().path == target.path })
        #expect(try KitWriterTests.contents(of: target) == KitWriter.fileNames.sorted())
        #expect(try KitWriterTests.contents(of: root.appendingPathComponent("nested")) == ["kit"])
    }

    @Test func anExistingDirectoryKeepsTheStudentsFilesAndLosesTheOldKits() throws {
        let root = try KitWriterTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let target = root.appendingPathComponent("kit")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        for (name, text) in [("kit.md", "old kit"), ("podcast.md", "old podcast"), ("cloze.tsv", "old cloze"), ("mine.txt", "my notes")] {
            try Data(text.utf8).write(to: target.appendingPathComponent(name))
        }
        let staging = try StagedDirectory(target: target)
        let staged = try Self.write(staging)
        // Until the commit, the old kit is all there is.
        #expect(try String(contentsOf: target.appendingPathComponent("kit.md"), encoding: .utf8) == "old kit")
        _ = try staging.commit(order: staged)
        #expect(try KitWriterTests.contents(of: target) == (KitWriter.fileNames + ["mine.txt"]).sorted())
        #expect(try String(contentsOf: target.appendingPathComponent("kit.md"), encoding: .utf8) != "old kit")
        #expect(try String(contentsOf: target.appendingPathComponent("mine.txt"), encoding: .utf8) == "my notes")
        #expect(try KitWriterTests.contents(of: root) == ["kit"], "the staging directory is gone")
    }

    @Test func aDiscardedRunLeavesTheTargetAsItWas() throws {
        let root = try KitWriterTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let target = root.appendingPathComponent("kit")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try Data("old kit".utf8).write(to: target.appendingPathComponent("kit.md"))
        let staging = try StagedDirectory(target: target)
        _ = try Self.write(staging)
        staging.discard()
        #expect(try KitWriterTests.contents(of: root) == ["kit"])
        #expect(try KitWriterTests.contents(of: target) == ["kit.md"])
    }

    @Test func aFileInTheWayIsNotADirectory() throws {
        let root = try KitWriterTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("kit")
        try Data("x".utf8).write(to: file)
        #expect(throws: OutputError.notADirectory(path: file.path)) { _ = try StagedDirectory(target: file) }
        #expect(throws: OutputError.notADirectory(path: file.path)) { _ = try StagedDirectory(target: file.appendingPathComponent("sub")) }
    }
}
