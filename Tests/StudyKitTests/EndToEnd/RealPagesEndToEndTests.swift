import Foundation
import Testing

@testable import StudyKit

/// Issue 52 through the built binary: on the real Wikipedia article and every page of
/// samples/realpages, no string of a builtin kit is apparatus (a citation caret, an ISBN, a DOI,
/// an arXiv number, a "Retrieved" or "Archived from" note, "(PDF)", "[edit]", a reference
/// heading, a quote from the apparatus); `studykit text` shows the body, then the apparatus;
/// `--body` exactly what the kit reads; kit.html shows the page's formulas as MathML.
@Suite("End to end: real pages, their apparatus and formulas")
struct RealPagesEndToEndTests {
    static let pages = [
        "wikipedia-t-sne.html", "de-wikipedia-photosynthese.html", "news-coral-bleaching.html",
        "science-enzyme-kinetics.html",
        "notes-thermodynamics.md", "paper-glaciers.pdf", "fr-wikipedia-volcan.html", "ja-wikipedia-mitokondoria.html",
        "es-blog-sueno.html", "report-bibliography.pdf", "notes-supply-demand.md",
    ]

    static let banned = ["ISBN", "doi:", "arXiv:", "Retrieved", "Archived from", "(PDF)", "[edit]"]
    static let referenceHeadings: Set<String> = [
        "references", "notes", "footnotes", "citations", "bibliography", "sources", "further reading", "external links",
        "see also",
        "références", "notes et références", "bibliographie", "liens externes", "einzelnachweise", "literatur",
        "weblinks",
        "referencias", "bibliografía", "enlaces externos", "参考文献", "脚注", "外部リンク", "関連項目",
    ]

    static func run(_ arguments: [String], cache: ScratchDirectory) async throws -> StudykitBinary.Result {
        let result = try await StudykitBinary.run(arguments, environment: ["STUDYKIT_CACHE_DIR": cache.url.path])
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result
    }

    /// Every string of a JSON value, with its path.
    static func strings(_ value: JSONValue, path: String = "result") -> [(path: String, text: String)] {
        switch value {
        case .string(let text): return [(path, text)]
        case .array(let items): return items.enumerated().flatMap { strings($1, path: "\(path)[\($0)]") }
        case .object(let object): return object.flatMap { strings($1, path: "\(path).\($0)") }
        default: return []
        }
    }

    /// What is apparatus in a kit's result, judged against the body `studykit text --body` printed.
    static func apparatusStrings(_ result: JSONValue, body: String) -> [String] {
        let bodyWords = GroundingWords.normalizedWords(body).joined(separator: " ")
        var found: [String] = []
        for (path, text) in strings(result) {
            var plain = text
            for range in FormulaText.spans(in: text).reversed() { plain.replaceSubrange(range, with: " ") }
            if plain.hasPrefix("^ ") || plain.contains(" ^ ") { found.append("\(path): caret: \(text)") }
            for word in banned where plain.contains(word) { found.append("\(path): \(word): \(text)") }
            if referenceHeadings.contains(text.trimmingCharacters(in: .whitespaces).lowercased()) {
                found.append("\(path): heading: \(text)")
            }
            if path.hasSuffix(".quote"), !bodyWords.contains(GroundingWords.normalizedWords(text).joined(separator: " ")) {
                found.append("\(path): quote not in the body: \(text)")
            }
        }
        return found
    }

    @Test(arguments: pages)
    func aBuiltinKitHasNoApparatusItem(_ page: String) async throws {
        let cache = try ScratchDirectory("realpages")
        let source = "samples/realpages/" + page
        let kit = try await Self.run(["import", source, "--engine", "builtin", "--json"], cache: cache)
        let body = try await Self.run(["text", source, "--body"], cache: cache).stdout
        let envelope = try JSONValue.parse(kit.stdout)
        let result = try #require(envelope["result"])
        #expect(
            Self.apparatusStrings(result, body: body).isEmpty, "\(page): \(Self.apparatusStrings(result, body: body))")
        // The headline's blurb is the body's, never a citation.
        let blurb = try #require(result["headline"]?["blurb"]?.stringValue)
        #expect(!ApparatusLines.isCitation(blurb[...]), "\(page): \(blurb)")
        // --json says what the kit read and what it left.
        let source_ = try #require(envelope["source"])
        #expect(source_["bodyCharacterCount"] == source_["characterCount"])
        #expect((source_["apparatusCharacterCount"]?.integerValue ?? 0) > 0, "\(page) has apparatus")
        #expect(source_["characterCount"]?.integerValue == body.count - (body.hasSuffix("\n") ? 1 : 0))
    }

    @Test func textShowsTheBodyThenTheApparatusAndBodyShowsWhatTheKitReads() async throws {
        let cache = try ScratchDirectory("realpages-text")
        let source = "samples/realpages/wikipedia-t-sne.html"
        let whole = try await Self.run(["text", source], cache: cache).stdout
        let body = try await Self.run(["text", source, "--body"], cache: cache).stdout
        let parts = whole.components(separatedBy: "\n\n" + Document.apparatusRule + "\n\n")
        #expect(parts.count == 2)
        #expect(parts.first.map { $0 + "\n" } == body)
        #expect(!body.contains(Document.apparatusRule))
        // The body keeps its headings (the issue "A kit that grows with the material" counts sections on it).
        #expect(body.contains("## Details"))
        #expect(!body.contains("## References") && parts.last?.contains("## References") == true)
        #expect(!whole.contains("[edit]") && !whole.contains("^ "))
        // Formulas as TeX.
        #expect(body.contains("t-SNE first computes probabilities $p_{ij}$ that are proportional"))
        #expect(body.contains("\n$$p_{ij}={\\frac {p_{j\\mid i}+p_{i\\mid j}}{2N}}$$\n"))
    }

    @Test func kitHTMLShowsEveryFormulaAsMathMLInChromium() async throws {
        let browser = try HeadlessChromium.require()
        let cache = try ScratchDirectory("realpages-kit")
        let directory = cache.url.appendingPathComponent("kit")
        _ = try await Self.run(
            ["import", "samples/realpages/wikipedia-t-sne.html", "--engine", "builtin", "--out", directory.path],
            cache: cache)
        let envelope = try JSONValue.parse(
            String(contentsOf: directory.appendingPathComponent("kit.json"), encoding: .utf8))
        let kitFormulas = Self.strings(try #require(envelope["result"])).flatMap { _, text in
            FormulaText.spans(in: text).map { String(text[$0]) }
        }
        #expect(kitFormulas.count >= 3, "the builtin kit quotes sentences with formulas: \(kitFormulas)")

        let run = try browser.dumpDOM(directory.appendingPathComponent("kit.html"))
        #expect(run.consoleLines.isEmpty, "console: \(run.consoleLines)")
        // The page as the browser built it, without its scripts (the quiz's data carries the TeX).
        var dom = run.dom
        while let start = dom.range(of: "<script"),
            let end = dom.range(of: "</script>", range: start.upperBound..<dom.endIndex)
        {
            dom.removeSubrange(start.lowerBound..<end.upperBound)
        }
        let maths = dom.components(separatedBy: "<math").count - 1
        #expect(maths >= Set(kitFormulas).count, "\(maths) <math> elements for \(Set(kitFormulas).count) formulas")
        for formula in Set(kitFormulas) {
            #expect(!dom.contains(OutputText.markupEscaped(formula)), "\(formula) is still TeX on the page")
        }
    }
}
