import Foundation
import Testing
@testable import StudyKit

@Suite("PDF import")
struct PDFImportTests {
    let importer = Importer()

    @Test func pagesFixtureHasProvenanceAndNoRunningLines() async throws {
        let path = ImportFixtures.path("pages.pdf")
        let document = try await importer.load(.file(path))
        #expect(document.kind == .pdf)
        #expect(document.origin == path)
        #expect(document.pages.map(\.page) == [1, 2, 3])
        let heron = try #require(ImportFixtures.offset(of: "blue heron of Saint-Malo", in: document.text))
        let owl = try #require(ImportFixtures.offset(of: "quiet owl of Carcassonne", in: document.text))
        let plants = try #require(ImportFixtures.offset(of: "Green plants", in: document.text))
        #expect(document.page(atCharacterOffset: plants) == 1)
        #expect(document.page(atCharacterOffset: heron) == 2)
        #expect(document.page(atCharacterOffset: owl) == 3)
        for chrome in ["Fixture Handbook", "Chapter One", "Confidential draft", "Page 1 of 3", "Page 2", "Page 3"] {
            #expect(!document.text.contains(chrome), "\(chrome)")
        }
    }

    /// No Title metadata: the title is what page 1 shows in its largest font, not the author and
    /// e-mail line below it; the title line itself stays in the text though it is also the
    /// running header of the later pages.
    @Test func theTitleComesFromPageOnesLargestFont() async throws {
        let document = try await importer.load(.file(ImportFixtures.path("titled.pdf")))
        #expect(document.title == "Shared Glossary Database")
        #expect(document.text.hasPrefix("Shared Glossary Database\n"), "\(document.text.prefix(80))")
        #expect(document.text.components(separatedBy: "Shared Glossary Database").count == 2, "the running headers are gone")
    }

    /// The page-1 title is used only when the Title metadata says nothing; body-sized text is never a title.
    @Test func metadataTitlesWinUnlessTheyAreFileNamesOrPlaceholders() async throws {
        let notes = try await importer.load(.file(TestPaths.samples.appendingPathComponent("notes.pdf").path))
        #expect(notes.title == "Photosynthesis: Study Notes")
        let pages = try await importer.load(.file(ImportFixtures.path("pages.pdf")))
        #expect(pages.title == nil, "no metadata and no line larger than the body")
    }

    @Test(arguments: [
        ("Photosynthesis: Study Notes", "Photosynthesis: Study Notes"),
        ("  Shared MIME-info Database ", "Shared MIME-info Database"),
        ("", nil), ("untitled", nil), ("Untitled Document", nil), ("ch3-final.docx", nil), ("notes.pdf", nil),
        ("Microsoft Word - Thesis.doc", nil), ("C:\\Users\\ann\\thesis.tex", nil), ("/tmp/x/report", nil),
        ("tal197 at users.sf.net", nil), ("2 October 2018", nil), ("1234", nil),
    ] as [(String, String?)])
    func aMetadataTitleIsKeptOnlyWhenItNamesTheDocument(metadata: String, expected: String?) {
        #expect(Importer.meaningfulTitle(metadata) == expected)
    }

    /// A manual laid out like Texinfo's (src/manual.ms): what a reader skips on paper is not text.
    @Test func aManualsContentsChapterHeadersAndDefinitionLabelsAreNotText() async throws {
        let text = try await importer.load(.file(ImportFixtures.path("manual.pdf"))).text
        for furniture in ["Table of Contents", "....", ". . .", "Chapter 1: Introduction", "Chapter 2: Encoding functions", "[Function]", "\n\n2.1\n\n"] {
            #expect(!text.contains(furniture), "\(furniture)")
        }
        #expect(text.contains("\n\n1. Introduction\n\nThe kit encoding library"), "the headings themselves stay")
        #expect(text.contains("\n\nint kit_encode_element (kit_node element, const char * name, void * buffer, int * length)\n\n"),
            "the prototype is one paragraph, not cut by its label")
    }

    @Test func aCapitalisedWordBrokenAtALineEndIsJoined() async throws {
        let text = try await importer.load(.file(ImportFixtures.path("manual.pdf"))).text
        #expect(text.contains("when the ELEMENT has no value"))
        #expect(PDFLayout.joinLines("the ELE-", "MENT has", evidence: .init(words: ["element"])) == "the ELEMENT has")
        #expect(PDFLayout.joinLines("the COVID-", "SARS link", evidence: .init(words: ["element"])) == "the COVID-SARS link")
    }

    @Test func hyphenationAcrossLinesIsJoinedButRealHyphensStay() async throws {
        let text = try await importer.load(.file(ImportFixtures.path("pages.pdf"))).text
        #expect(text.contains("sugar by photosynthesis in their leaves"))
        #expect(text.contains("The Franco-Prussian War"))
        #expect(text.contains("A light-dependent reaction"))
        #expect(text.contains("two molecules of 3-phosphoglycerate"))
        #expect(!text.contains("photo-"))
    }

    @Test func paragraphsAreSeparatedByOneBlankLine() async throws {
        let text = try await importer.load(.file(ImportFixtures.path("pages.pdf"))).text
        #expect(text.hasPrefix("1. Plants\n\nGreen plants make sugar"))
        #expect(text.contains("around them.\n\nThe light-dependent stage"))
        #expect(!text.contains("\n\n\n"))
    }

    @Test func notesSampleLoadsWithTitleAndHeadings() async throws {
        let document = try await importer.load(.file(ImportFixtures.sample("notes.pdf")))
        #expect(document.title == "Photosynthesis: Study Notes")
        #expect(document.characterCount >= 6000)
        #expect(document.pages.count >= 3)
        #expect(document.text.contains("\n\n4. The Calvin cycle\n\n"))
        #expect(!document.text.contains("Biology 101\n"))
        #expect(!document.text.contains("Unit 4: Energy in Living Things"))
        // Checked against `pdftotext -f N -l N samples/notes.pdf -`.
        let calvin = try #require(ImportFixtures.offset(of: "4. The Calvin cycle", in: document.text))
        #expect(document.page(atCharacterOffset: calvin) == 2)
        let limiting = try #require(ImportFixtures.offset(of: "5. Limiting factors", in: document.text))
        #expect(document.page(atCharacterOffset: limiting) == 3)
    }

    @Test func encryptedWithoutPasswordSaysItNeedsOne() async throws {
        let path = ImportFixtures.path("encrypted.pdf")
        await #expect(throws: ImportError.passwordRequired(path)) { _ = try await importer.load(.file(path)) }
        let error = ImportError.passwordRequired(path)
        #expect(error.message.contains("password") && error.message.contains("--password"))
        #expect(error.exitCode == .dataError)
    }

    @Test func encryptedWithTheRightPasswordOpens() async throws {
        let document = try await importer.load(.file(ImportFixtures.path("encrypted.pdf")), options: ImportOptions(password: "user"))
        #expect(document.text.contains("blue heron of Saint-Malo"))
    }

    @Test func encryptedWithAWrongPasswordSaysSo() async throws {
        let path = ImportFixtures.path("encrypted.pdf")
        await #expect(throws: ImportError.wrongPassword(path)) {
            _ = try await importer.load(.file(path), options: ImportOptions(password: "nope"))
        }
        #expect(ImportError.wrongPassword(path).message.contains("wrong"))
    }

    @Test func corruptPDFIsADataError() async throws {
        let path = ImportFixtures.path("corrupt.pdf")
        do {
            _ = try await importer.load(.file(path))
            Issue.record("a corrupt PDF loaded")
        } catch let error as ImportError {
            guard case .corruptPDF(let source, _) = error else {
                Issue.record("expected corruptPDF, got \(error)")
                return
            }
            #expect(source == path)
            #expect(error.exitCode == .dataError)
            #expect(!error.message.contains("\n"))
        }
    }

    @Test func imageOnlyPDFSaysItHasNoText() async throws {
        let path = ImportFixtures.path("image-only.pdf")
        await #expect(throws: ImportError.imageOnlyPDF(path)) { _ = try await importer.load(.file(path)) }
        #expect(ImportError.imageOnlyPDF(path).message.contains("scanned or image-only"))
    }

    @Test func pdfFromStandardInputIsSniffed() async throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: ImportFixtures.path("pages.pdf")))
        let document = try await Importer(standardInput: { data }).load(.standardInput)
        #expect(document.kind == .pdf)
        #expect(document.origin == "stdin")
    }

    @Test func longSampleIsLongEnoughForTheBenchmark() async throws {
        let document = try await importer.load(.file(ImportFixtures.sample("long.pdf")))
        #expect(document.pages.count >= 30)
        #expect(document.characterCount > 30_000)
        // The running header repeats "Revision Notes" on every page; only the title keeps it.
        #expect(document.text.components(separatedBy: "Revision Notes").count == 2)
        #expect(!document.text.contains("History 210\n\nHistory 210"))
    }
}
