import Foundation
import Testing
@testable import StudyKit

/// Issue 2 through the real binary: each bad input gets its exit code, exactly one line on
/// stderr naming it, and nothing on stdout. No model is involved (inputs are read before any
/// engine is asked), so the model servers are pointed at closed ports to prove it.
@Suite("Integration: bad input through the binary")
struct BadInputIntegrationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let label: String
        let arguments: [String]
        let stdin: Data?
        let status: Int32
        /// Fragments the one stderr line must contain.
        let mentions: [String]

        var testDescription: String { label }
    }

    static let importFixtures = "Tests/StudyKitTests/Fixtures/Import"

    static let fileCases: [Case] = [
        Case(label: "a missing file", arguments: ["text", "samples/no-such-notes.pdf"], stdin: nil, status: 66,
             mentions: ["'samples/no-such-notes.pdf'", "no such file"]),
        Case(label: "a directory", arguments: ["text", "samples/src"], stdin: nil, status: 66,
             mentions: ["'samples/src'", "directory"]),
        Case(label: "an encrypted PDF without password", arguments: ["headline", "\(importFixtures)/encrypted.pdf"], stdin: nil,
             status: 65, mentions: ["encrypted.pdf'", "--password"]),
        Case(label: "a corrupt PDF", arguments: ["text", "\(importFixtures)/corrupt.pdf"], stdin: nil, status: 65,
             mentions: ["corrupt.pdf'", "PDF"]),
        Case(label: "an image-only PDF", arguments: ["summary", "\(importFixtures)/image-only.pdf"], stdin: nil, status: 65,
             mentions: ["image-only.pdf'", "OCR"]),
        Case(label: "empty stdin", arguments: ["headline"], stdin: Data(), status: 65, mentions: ["no text in stdin"]),
        Case(label: "whitespace-only stdin", arguments: ["text", "-"], stdin: Data(" \n\t\n".utf8), status: 65,
             mentions: ["no text in stdin"]),
        Case(label: "invalid UTF-8 on stdin", arguments: ["headline"], stdin: Data([0x61, 0x62, 0x63, 0xFF, 0xFE, 0x64]),
             status: 65, mentions: ["'stdin'", "UTF-8", "offset 3", "iconv"]),
    ]

    @Test(arguments: fileCases)
    func badInputIsOneLineWithItsExitCode(_ input: Case) async throws {
        let cache = try ScratchDirectory()
        let run = try await StudykitBinary.run(input.arguments, stdin: input.stdin, environment: try Self.noServers(cache: cache.url))
        Self.expectOneLineFailure(run, status: input.status, mentions: input.mentions)
    }

    @Test func aURLThatIsNeitherHTMLNorPDFIs65() async throws {
        let server = try FixtureServer(root: TestPaths.samples)
        let cache = try ScratchDirectory()
        let url = server.url("/type/application/zip").absoluteString
        let run = try await StudykitBinary.run(["text", url], environment: try Self.noServers(cache: cache.url))
        Self.expectOneLineFailure(run, status: 65, mentions: [url, "application/zip"])
    }

    @Test func aURLThatAnswers404Is66() async throws {
        let server = try FixtureServer(root: TestPaths.samples)
        let cache = try ScratchDirectory()
        let url = server.url("/no-such-article.html").absoluteString
        let run = try await StudykitBinary.run(["headline", url], environment: try Self.noServers(cache: cache.url))
        Self.expectOneLineFailure(run, status: 66, mentions: [url, "404"])
    }

    /// The article's text is printed; the site chrome around it is not.
    @Test func textOfAnArticleURLDropsTheChrome() async throws {
        let server = try FixtureServer(root: TestPaths.samples)
        let cache = try ScratchDirectory()
        let run = try await StudykitBinary.run(
            ["text", server.url("/article.html").absoluteString], environment: try Self.noServers(cache: cache.url))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        let text = run.stdout
        #expect(text.hasPrefix("# How vaccines train the immune system\n"))
        for kept in [
            "A vaccine teaches the immune system to recognise a pathogen", "## The two arms of immunity",
            "## Herd immunity", "mRNA vaccines deliver instructions", "it is around 95 per cent.",
        ] {
            #expect(text.contains(kept), "kept: \(kept)")
        }
        for chrome in [
            "cookies", "Accept all", "Subscribe", "ADVERTISEMENT", "Share on", "Related stories", "newsletter", "Sign up",
            "42 comments", "Great article", "Most read", "Sponsored", "All rights reserved", "Tags:", "dataLayer", "cookie-banner",
        ] {
            #expect(!text.contains(chrome), "chrome left in: \(chrome)")
        }
    }

    // MARK: helpers

    /// Model servers on closed ports: a bad input must fail before any engine is asked.
    static func noServers(cache: URL) throws -> [String: String] {
        [
            "STUDYKIT_LOCAL_URL": try LoopbackPorts.closedURL(), "STUDYKIT_REMOTE_URL": try LoopbackPorts.closedURL(),
            "STUDYKIT_REMOTE_API_KEY": "unused", "STUDYKIT_CACHE_DIR": cache.path,
        ]
    }

    static func expectOneLineFailure(
        _ run: StudykitBinary.Result, status: Int32, mentions: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(run.status == status, "stderr: \(run.stderr)", sourceLocation: sourceLocation)
        #expect(run.stdout.isEmpty, "stdout: \(run.stdout)", sourceLocation: sourceLocation)
        #expect(run.stderr.hasPrefix("studykit: "), sourceLocation: sourceLocation)
        #expect(run.stderr.hasSuffix("\n"), sourceLocation: sourceLocation)
        #expect(run.stderr.filter { $0 == "\n" }.count == 1, "exactly one line: \(run.stderr)", sourceLocation: sourceLocation)
        for fragment in mentions {
            #expect(run.stderr.contains(fragment), "mentions \(fragment): \(run.stderr)", sourceLocation: sourceLocation)
        }
    }
}
