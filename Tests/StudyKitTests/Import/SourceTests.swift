import Foundation
import Testing
@testable import StudyKit

@Suite("Import sources and sniffing")
struct SourceTests {
    @Test(arguments: [
        ("-", SourceReference.standardInput),
        ("notes.pdf", .file("notes.pdf")),
        ("./dir/notes.txt", .file("./dir/notes.txt")),
        ("/abs/path.md", .file("/abs/path.md")),
        ("http://example.com/a", .url(URL(string: "http://example.com/a")!)),
        ("https://example.com/a?b=1", .url(URL(string: "https://example.com/a?b=1")!)),
        ("HTTPS://EXAMPLE.COM/", .url(URL(string: "HTTPS://EXAMPLE.COM/")!)),
        ("file:///tmp/notes.txt", .file("/tmp/notes.txt")),
        ("ftp://example.com/x", .url(URL(string: "ftp://example.com/x")!)),
        ("--", .file("--")),
        ("my notes: part 1.txt", .file("my notes: part 1.txt")),
    ])
    func argument(_ argument: String, expected: SourceReference) {
        #expect(SourceReference(argument: argument) == expected)
    }

    @Test func nonHTTPSchemesFailAtLoadWithAUsageError() async {
        await #expect(throws: ImportError.unsupportedScheme("ftp://example.com/x")) {
            _ = try await Importer().load(SourceReference(argument: "ftp://example.com/x"))
        }
        #expect(ImportError.unsupportedScheme("x").exitCode == .usage)
    }

    @Test(arguments: [
        ("%PDF-1.7\n...", nil, SourceKind.pdf),
        ("%PDF-1.4 named txt", "notes.txt", .pdf),
        ("\n\n  <!DOCTYPE html><html>", nil, .html),
        ("<!-- comment -->\n<html lang=en>", nil, .html),
        ("<HTML><BODY>x", nil, .html),
        ("plain words", "page.html", .html),
        ("plain words", "notes.md", .markdown),
        ("plain words", "notes.markdown", .markdown),
        ("# Title\n\ntext", nil, .markdown),
        ("\n## Sub\ntext", nil, .markdown),
        ("#hashtag not a heading", nil, .text),
        ("Just text.\n# later heading", nil, .text),
        ("<p>fragment without html tag</p>", nil, .text),
        ("not a pdf", "broken.pdf", .pdf),
    ] as [(String, String?, SourceKind)])
    func sniffing(content: String, name: String?, expected: SourceKind) {
        #expect(Importer.sniffKind(Data(content.utf8), name: name) == expected)
    }

    @Test func characterCountIsStringCount() {
        let document = Document(text: "👩‍🔬 e\u{301}", title: nil, kind: .text, origin: "x")
        #expect(document.characterCount == document.text.count)
        #expect(document.characterCount == 3)
    }
}
