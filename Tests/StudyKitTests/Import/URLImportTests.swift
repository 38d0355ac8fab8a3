import Foundation
import Testing
@testable import StudyKit

@Suite("URL import against a real loopback server")
struct URLImportTests {
    let server: FixtureServer
    let importer = Importer()

    init() throws { server = try FixtureServer(root: TestPaths.packageRoot) }

    @Test func importsAnHTMLPage() async throws {
        let url = server.url("/samples/article.html")
        let document = try await importer.load(.url(url))
        #expect(document.kind == .html)
        #expect(document.origin == url.absoluteString)
        #expect(document.title == "How vaccines train the immune system")
        #expect(document.text.contains("## Herd immunity"))
        #expect(!document.text.contains("Accept all cookies"))
    }

    @Test func followsARedirectChain() async throws {
        let url = server.url("/redirect/3?to=/samples/article.html")
        let document = try await importer.load(.url(url))
        #expect(document.kind == .html)
        #expect(document.text.contains("A vaccine teaches"))
    }

    @Test func aRedirectLoopFails() async throws {
        let url = server.url("/loop")
        await #expect(throws: ImportError.fetchFailed(.tooManyRedirects(url.absoluteString, limit: 5))) {
            _ = try await importer.load(.url(url))
        }
    }

    @Test func a404NamesTheURLAndStatus() async throws {
        let url = server.url("/status/404")
        await #expect(throws: ImportError.httpStatus(url.absoluteString, status: 404)) {
            _ = try await importer.load(.url(url))
        }
        let error = ImportError.httpStatus(url.absoluteString, status: 404)
        #expect(error.message.hasPrefix("\(url.absoluteString) answered 404 Not Found"))
        #expect(error.exitCode == .noInput)
    }

    @Test func aWrongContentTypeIsRejected() async throws {
        let url = server.url("/samples/paste.txt?type=image/png")
        await #expect(throws: ImportError.unsupportedContentType(url.absoluteString, type: "image/png")) {
            _ = try await importer.load(.url(url))
        }
        #expect(ImportError.unsupportedContentType("u", type: "image/png").exitCode == .dataError)
    }

    @Test func anOversizedBodyIsRejected() async throws {
        let url = server.url("/big?bytes=50000")
        do {
            _ = try await importer.load(.url(url), options: ImportOptions(maxBytes: 10_000))
            Issue.record("an oversized body loaded")
        } catch let error as ImportError {
            #expect(error == .tooLarge(url.absoluteString, limit: 10_000))
            #expect(error.exitCode == .dataError)
        }
    }

    @Test func aPDFServedOverHTTPIsImported() async throws {
        let document = try await importer.load(.url(server.url("/samples/notes.pdf")))
        #expect(document.kind == .pdf)
        #expect(document.title == "Photosynthesis: Study Notes")
        #expect(document.pages.count >= 3)
    }

    @Test func aPDFServedAsOctetStreamIsSniffed() async throws {
        let document = try await importer.load(.url(server.url("/samples/notes.pdf?type=application/octet-stream")))
        #expect(document.kind == .pdf)
    }

    @Test func plainTextAndMarkdownAreImported() async throws {
        let text = try await importer.load(.url(server.url("/samples/paste.txt")))
        #expect(text.kind == .text)
        #expect(text.text.hasPrefix("Mitosis - quick notes"))
        let markdown = try await importer.load(.url(server.url("/samples/paste.txt?type=text/markdown")))
        #expect(markdown.kind == .markdown)
    }

    @Test func aClosedPortIsAFetchFailure() async throws {
        do {
            _ = try await importer.load(.url(URL(string: "http://127.0.0.1:9/notes")!))
            Issue.record("expected a failure")
        } catch let error as ImportError {
            guard case .fetchFailed(let http) = error else {
                Issue.record("expected fetchFailed, got \(error)")
                return
            }
            #expect(http.isConnectionFailure)
            #expect(error.exitCode == .noInput)
        }
    }
}
