import Foundation
import Testing
@testable import StudyKit

@Suite("Text, markdown and stdin import")
struct FileImportTests {
    let importer = Importer()

    @Test func missingFileIsNoInput() async {
        await #expect(throws: ImportError.fileNotFound("no/such/notes.pdf")) {
            _ = try await importer.load(.file("no/such/notes.pdf"))
        }
        #expect(ImportError.fileNotFound("notes.pdf").message == "cannot read 'notes.pdf': no such file; check the path")
        #expect(ImportError.fileNotFound("notes.pdf").exitCode == .noInput)
    }

    @Test func directoryIsNoInput() async {
        let path = NSTemporaryDirectory()
        await #expect(throws: ImportError.isDirectory(path)) { _ = try await importer.load(.file(path)) }
        #expect(ImportError.isDirectory(path).exitCode == .noInput)
    }

    @Test func messyTextIsCleaned() async throws {
        let document = try await importer.load(.file(ImportFixtures.path("messy.txt")))
        #expect(document.kind == .text)
        #expect(document.text == "Title line\n\nRed alert and a link here.\nzerowidthsoft and tabbell\n\nlast paragraph")
    }

    @Test func invalidUTF8NamesTheOffset() async {
        let path = ImportFixtures.path("latin1.txt")
        await #expect(throws: ImportError.notUTF8(path, offset: 19)) { _ = try await importer.load(.file(path)) }
    }

    @Test func markdownByHeadingGetsItsTitle() async throws {
        let document = try await importer.load(.file(ImportFixtures.path("heading.txt")))
        #expect(document.kind == .markdown)
        #expect(document.title == "Heading")
        #expect(document.text == "# Heading\n\nBody text.")
    }

    @Test func pasteSampleIsShortText() async throws {
        let document = try await importer.load(.file(ImportFixtures.sample("paste.txt")))
        #expect(document.kind == .text)
        #expect(document.characterCount < 2000)
        #expect(document.text.contains("- Metaphase:"))
    }

    @Test(arguments: ["", "   \n\n\t ", "\u{200B}\u{1B}[0m\u{FEFF}"])
    func emptyInputIsNoTextIn(_ input: String) async {
        let importer = Importer(standardInput: { Data(input.utf8) })
        await #expect(throws: ImportError.empty("stdin")) { _ = try await importer.load(.standardInput) }
        #expect(ImportError.empty("stdin").message == "no text in stdin")
        #expect(ImportError.empty("stdin").exitCode == .dataError)
    }

    @Test func stdinIsText() async throws {
        let document = try await Importer(standardInput: { Data("hello   world\r\n".utf8) }).load(.standardInput)
        #expect(document == Document(text: "hello world", title: nil, kind: .text, origin: "stdin"))
    }

    @Test func aFailingStdinIsUnreadable() async {
        struct Broken: Error {}
        let importer = Importer(standardInput: { throw Broken() })
        do {
            _ = try await importer.load(.standardInput)
            Issue.record("expected an error")
        } catch let error as ImportError {
            #expect(error.exitCode == .noInput)
        } catch {
            Issue.record("not an ImportError: \(error)")
        }
    }
}
