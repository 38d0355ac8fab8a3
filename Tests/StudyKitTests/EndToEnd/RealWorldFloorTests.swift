import Foundation
import Testing
@testable import StudyKit

/// The builtin engine on documents the project did not write (samples/realworld/, from Debian's
/// documentation), through the binary as a student runs it: the document's own title, no author,
/// e-mail, URL or date line as a title, branch, key point or card, and cloze answers that are the
/// document's terms rather than common English words.
@Suite("The builtin floor on real-world documents")
struct RealWorldFloorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let file: String
        let title: String
        /// Terms a student should learn; at least one must be a cloze answer or a mind-map label.
        let terms: [String]
        var testDescription: String { file }
    }

    static let cases = [
        Case(file: "realworld/shared-mime-info-spec.pdf", title: "Shared MIME-info Database", terms: ["MIME type", "glob", "magic"]),
        Case(file: "realworld/libtasn1.pdf", title: "Libtasn1", terms: ["DER", "DER encoding", "ASN.1", "structure", "asn1"]),
        Case(file: "realworld/users-and-groups.html", title: "Users and Groups in the Debian System", terms: ["UID", "GID", "dedicated user"]),
        Case(file: "realworld/python-policy.html", title: "Debian Python Policy 0.12.0.0 documentation", terms: ["Python module", "binary package", "python3"]),
        Case(file: "realworld/zlib_how.html", title: "zlib Usage Example", terms: ["deflate", "inflate", "zlib"]),
        Case(file: "realworld/groff-mom-intro.html", title: "What is mom?", terms: ["groff", "typesetting macros", "macros"]),
        Case(file: "notes.pdf", title: "Photosynthesis: Study Notes", terms: ["Calvin cycle", "ATP", "chlorophyll"]),
        Case(file: "long.pdf", title: "The French Revolution, 1789-1799: Revision Notes", terms: ["Third Estate", "Convention", "Louis XVI"]),
    ]

    @Test(arguments: cases)
    func titleFrontMatterAndTerms(_ sample: Case) async throws {
        let cache = try ScratchDirectory()
        let path = TestPaths.samples.appendingPathComponent(sample.file).path
        func run(_ task: String) async throws -> [String: Any] {
            let run = try await StudykitBinary.run(
                [task, path, "--engine", "builtin", "--json"], environment: ["STUDYKIT_CACHE_DIR": cache.url.path])
            #expect(run.status == 0, "\(task): \(run.stderr)")
            return try #require(try JSONSerialization.jsonObject(with: run.stdoutData) as? [String: Any])
        }
        let headline = try await run("headline")
        let source = try #require(headline["source"] as? [String: Any])
        #expect(source["title"] as? String == sample.title)

        let cards = try #require(((try await run("flashcards"))["result"] as? [String: Any])?["cards"] as? [[String: Any]])
        let answers = cards.compactMap { $0["answer"] as? String }
        let mind = try #require((try await run("mindmap"))["result"] as? [String: Any])
        let branches = mind["branches"] as? [[String: Any]] ?? []
        let branchLabels = branches.compactMap { $0["label"] as? String }
        let leaves = branches.flatMap { ($0["children"] as? [[String: Any]] ?? []).compactMap { $0["label"] as? String } }
        let labels = branchLabels + leaves
        let points = ((try await run("summary"))["result"] as? [String: Any])?["keyPoints"] as? [String] ?? []
        let headlineTitle = (headline["result"] as? [String: Any])?["title"] as? String ?? ""

        let shown = [headlineTitle, mind["centralTopic"] as? String ?? ""] + branchLabels + points + cards.compactMap { $0["question"] as? String }
        let frontMatter = shown.filter { item in
            item.split(separator: " ").count <= 14 && FrontMatter.isFrontMatter(item)
        }
        // A date is a fine leaf under a history topic ("June 1789" in a timeline); an author,
        // address or URL never is.
        + leaves.filter { FrontMatter.isFrontMatter($0) && !FrontMatter.isDate($0.lowercased()) }
        #expect(frontMatter.isEmpty, "front matter shown as an item: \(frontMatter)")

        let common = answers.filter { answer in
            let words = answer.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "'" && $0 != "-" })
            return words.count == 1 && EnglishFrequency.isCommon(String(words[0]))
        }
        #expect(Double(common.count) <= 0.1 * Double(answers.count), "common-word answers \(common) of \(answers)")

        let learned = Set((answers + labels).map { $0.lowercased() })
        #expect(sample.terms.contains { learned.contains($0.lowercased()) }, "none of \(sample.terms) in \(answers) / \(labels)")
    }
}
