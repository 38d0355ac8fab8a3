import Foundation
import Testing
@testable import StudyKit

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Issue 16 in a real browser: the binary writes `kit.html` (builtin engine, no servers), and
/// headless Chromium opens it from `file://` with `#selftest`, which flips a card, steps through
/// the deck, answers every question (even ones right, odd ones wrong), retries, folds a branch
/// and reports what the page then showed. The assertions compare that report with what the
/// kit's own JSON says.
@Suite("End to end: the kit page in headless Chromium", .serialized)
struct KitPageBrowserTests {
    /// What `#selftest` reports (see HTMLPageAssets.script).
    struct Report: Decodable {
        struct Verdict: Decodable {
            let picked: Int
            let verdict: String
            let text: String
            let explanationShown: Bool
        }
        struct Section: Decodable {
            let id: String
            let box: [Double]
        }
        let cards: Int
        let visibleCards: Int?
        let flips: [Bool]?
        let afterRight: Int?
        let visibleAfterRight: Int?
        let afterLeft: Int?
        let stored: String?
        let questions: Int
        let verdicts: [Verdict]?
        let scoreText: String?
        let scoreAfterRetry: String?
        let answeredAfterRetry: Int?
        let mapNodes: Int?
        let labelBoxes: [[Double]]?
        let textBoxes: [[Double]]?
        let foldedAfterClick: Int?
        let foldedAfterEnter: Int?
        /// The podcast section (`import --with-podcast`): what it shows, and its player's file.
        struct Podcast: Decodable {
            struct Audio: Decodable {
                let how: String
                let src: String
                let duration: Double?
                let error: Int
                let readyState: Int
                let focusable: Bool
            }
            let turns: Int
            let speakers: [String]
            let quotes: Int
            let recap: Int
            let players: Int
            let audio: Audio?
        }
        let podcast: Podcast?
        /// The section filter (#54): the second section chosen alone, then every section again.
        struct Filter: Decodable {
            let value: String
            let heading: String
            let sections: Int
            let cardsShown: Int
            let cardsInSection: Int
            let cardsVisibleOutside: Int
            let questionsVisible: Int
            let questionsInSection: Int
            let questionsVisibleOutside: Int
            let scoreText: String?
            let stepped: [Bool]
            let cardsAfterReset: Int
            let questionsVisibleAfterReset: Int
        }
        let filter: Filter?
        let sections: [Section]
        let scripts: Int
        let resources: Int
        let lang: String
        let errors: [String]
    }

    /// Runs `studykit import SAMPLE --engine builtin --out DIR` (and `options`) with a private cache.
    static func writeKit(_ sample: String, into scratch: ScratchDirectory, options: [String] = []) async throws -> URL {
        let directory = scratch.url.appendingPathComponent("kit")
        let run = try await StudykitBinary.run(
            ["import", "samples/\(sample)", "--engine", "builtin", "--out", directory.path] + options,
            environment: ["STUDYKIT_CACHE_DIR": scratch.url.appendingPathComponent("cache").path])
        #expect(run.status == 0, "import failed: \(run.stderr)")
        return directory
    }

    static func selftest(_ page: URL, with browser: HeadlessChromium) throws -> (Report, HeadlessChromium.Run) {
        let url = try #require(URL(string: page.absoluteString + "#selftest"))
        let run = try browser.dumpDOM(url)
        let json = try #require(HeadlessChromium.element("selftest", in: run.dom), "the page wrote no self-test report; log:\n\(run.log)")
        return (try JSONDecoder().decode(Report.self, from: Data(json.utf8)), run)
    }

    static func rect(_ box: [Double]) -> MindMapLayout.Rect {
        MindMapLayout.Rect(x: box[0], y: box[1], width: box[2], height: box[3])
    }

    /// The number of labels in a mind map's JSON: the central topic and every node below it.
    static func labelCount(_ map: JSONValue) -> Int {
        func count(_ nodes: [JSONValue]) -> Int { nodes.reduce(0) { $0 + 1 + count($1["children"]?.arrayValue ?? []) } }
        return 1 + count(map["branches"]?.arrayValue ?? [])
    }

    @Test func longPDFKitPageFlipsCardsScoresTheQuizAndDrawsTheMap() async throws {
        let browser = try HeadlessChromium.require()
        let scratch = try ScratchDirectory("browser")
        let directory = try await Self.writeKit("long.pdf", into: scratch)
        let page = directory.appendingPathComponent("kit.html")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: page.path)[.size] as? Int)
        #expect(size < 200_000, "kit.html is \(size) bytes")
        let envelope = try JSONValue.parse(String(contentsOf: directory.appendingPathComponent("kit.json"), encoding: .utf8))
        let result = try #require(envelope["result"])
        let questionCount = try #require(result["quiz"]?["questions"]?.arrayValue?.count)
        let cardCount = try #require(result["flashcards"]?["cards"]?.arrayValue?.count)
        let nodeCount = Self.labelCount(try #require(result["mindMap"]))

        let (report, run) = try Self.selftest(page, with: browser)
        // Loads from file:// with no console message, no script error and no request.
        #expect(run.consoleLines.isEmpty, "console: \(run.consoleLines)")
        #expect(report.errors.isEmpty)
        #expect(report.resources == 0)
        #expect(report.scripts == 2)
        #expect(report.lang == "en")

        // One card at a time; a click flips it and flips it back, so does Space; arrows step.
        #expect(report.cards == cardCount)
        #expect(report.visibleCards == 1)
        #expect(report.flips == [false, true, false, true, false])
        #expect(report.afterRight == 1 && report.visibleAfterRight == 1)
        #expect(report.afterLeft == 0)
        #expect(report.stored == "good")

        // Even questions answered right, odd ones wrong: the verdicts and the score say so.
        #expect(report.questions == questionCount)
        let verdicts = try #require(report.verdicts)
        #expect(verdicts.map(\.verdict) == (0..<questionCount).map { $0 % 2 == 0 ? "right" : "wrong" })
        #expect(verdicts.allSatisfy { $0.explanationShown })
        #expect(verdicts.filter { $0.verdict == "wrong" }.allSatisfy { $0.text.hasPrefix("Not quite. The answer is ") })
        let right = (questionCount + 1) / 2
        #expect(report.scoreText == "You scored \(right) of \(questionCount).")
        #expect(report.scoreAfterRetry?.hasPrefix("Answered 0 of \(questionCount)") == true)
        #expect(report.answeredAfterRetry == 0)

        // Every label drawn, none overlapping another, each one's text inside its box.
        #expect(nodeCount >= 40, "long.pdf's map has \(nodeCount) labels")
        #expect(report.mapNodes == nodeCount)
        let boxes = try #require(report.labelBoxes).map(Self.rect)
        let texts = try #require(report.textBoxes).map(Self.rect)
        for first in boxes.indices {
            for second in boxes.indices where second > first {
                #expect(!boxes[first].intersects(boxes[second]), "labels \(first) and \(second) overlap")
                #expect(!texts[first].intersects(texts[second]), "texts \(first) and \(second) overlap")
            }
            let (box, text) = (boxes[first], texts[first])
            #expect(text.x >= box.x - 0.5 && text.maxX <= box.maxX + 0.5 && text.y >= box.y - 0.5 && text.maxY <= box.maxY + 0.5,
                    "label \(first)'s text \(text) spills out of its box \(box)")
        }
        // Folding a branch hides its nodes; Enter unfolds it.
        #expect((report.foldedAfterClick ?? 0) > 0)
        #expect(report.foldedAfterEnter == 0)

        // Cards and questions grouped by chapter; the filter shows one chapter's alone (#54).
        let filter = try #require(report.filter, "long.pdf's page has no section filter")
        #expect(filter.sections >= 10, "\(filter.sections) sections in the filter")
        #expect(filter.heading == "2. The Old Regime and its problems")
        #expect(filter.cardsInSection > 1 && filter.cardsShown == filter.cardsInSection)
        #expect(filter.cardsVisibleOutside == 0 && filter.questionsVisibleOutside == 0)
        #expect(filter.questionsInSection > 0 && filter.questionsVisible == filter.questionsInSection)
        #expect(filter.scoreText?.hasPrefix("Answered 0 of \(filter.questionsInSection)") == true, "\(filter.scoreText ?? "")")
        #expect(filter.stepped.count == filter.cardsShown + 1 && filter.stepped.allSatisfy { $0 }, "Next stays in the section")
        #expect(filter.cardsAfterReset == cardCount && filter.questionsVisibleAfterReset == questionCount)
    }

    @Test func everySectionOfTheNotesPageIsDrawnInLightAndDark() async throws {
        let browser = try HeadlessChromium.require()
        let scratch = try ScratchDirectory("browser")
        let page = try await Self.writeKit("notes.pdf", into: scratch).appendingPathComponent("kit.html")
        let (report, _) = try Self.selftest(page, with: browser)
        #expect(report.sections.map(\.id) == ["top", "summary", "cards", "quiz", "mindmap"])
        let height = Int(report.sections.map { $0.box[1] + $0.box[3] }.max() ?? 0) + 10
        for dark in [false, true] {
            let png = try browser.screenshot(page, width: 1100, height: min(height, 12_000), dark: dark)
            let variances = try browser.luminanceVariance(png: png, regions: report.sections.map(\.box))
            for (section, variance) in zip(report.sections, variances) {
                #expect(variance > 100, "\(section.id) looks blank (\(dark ? "dark" : "light")): variance \(variance)")
            }
        }
        // The same region of a page with nothing drawn is blank: the floor tells the two apart.
        let blank = scratch.url.appendingPathComponent("blank.html")
        try Data("<!DOCTYPE html><html><body></body></html>".utf8).write(to: blank)
        let empty = try browser.luminanceVariance(png: try browser.screenshot(blank, width: 1100, height: 600), regions: [[0, 0, 1100, 600]])
        #expect(empty.count == 1 && empty[0] < 1)
    }

    /// Issue 16's gap: the podcast on the page. Its section is drawn after the mind map with every
    /// turn, quote and recap point, and its player's source resolves to the sound file the kit
    /// wrote beside the page, which the browser loads (WAV and Ogg Vorbis).
    @Test(.enabled(if: PodcastBinaryTests.canSpeak), arguments: ["wav", "ogg"])
    func notesKitWithPodcastShowsTheTranscriptAndPlaysItsAudio(_ format: String) async throws {
        let browser = try HeadlessChromium.require()
        let scratch = try ScratchDirectory("browser")
        let directory = try await Self.writeKit("notes.pdf", into: scratch, options: ["--with-podcast", "--audio-format", format])
        let page = directory.appendingPathComponent("kit.html")
        let sound = directory.appendingPathComponent("podcast.\(format)")
        #expect(FileManager.default.fileExists(atPath: sound.path))
        let envelope = try JSONValue.parse(String(contentsOf: directory.appendingPathComponent("kit.json"), encoding: .utf8))
        let script = try PodcastScript(json: try #require(envelope["podcast"]))
        let seconds = try #require(envelope["audio"]?["seconds"]?.doubleValue)

        let (report, run) = try Self.selftest(page, with: browser)
        #expect(run.consoleLines.isEmpty, "console: \(run.consoleLines)")
        #expect(report.errors.isEmpty)
        #expect(report.scripts == 2)
        #expect(report.sections.map(\.id) == ["top", "summary", "cards", "quiz", "mindmap", "podcast"])
        let podcast = try #require(report.podcast)
        #expect(podcast.turns == script.turns.count && podcast.speakers == script.turns.map(\.speaker))
        #expect(podcast.quotes == script.turns.filter { !$0.quote.isEmpty }.count)
        #expect(podcast.recap == 3 && podcast.players == 1)
        let audio = try #require(podcast.audio)
        // The relative source resolves to the file in the kit's directory, and it plays.
        #expect(URL(string: audio.src)?.standardizedFileURL.path == sound.standardizedFileURL.path, "src \(audio.src)")
        #expect(audio.error == 0 && audio.how != "error" && audio.how != "timeout", "\(audio)")
        #expect(abs((audio.duration ?? 0) - seconds) < 0.5, "the browser reads \(audio.duration ?? 0) s, soxi \(seconds) s")
        #expect(audio.focusable, "the player cannot be reached with Tab")

        let box = try #require(report.sections.last?.box)
        let png = try browser.screenshot(page, width: 1100, height: Int(box[1] + box[3]) + 10)
        let variance = try browser.luminanceVariance(png: png, regions: [box])
        #expect(variance.first ?? 0 > 100, "the podcast section looks blank")
    }

    /// `studykit podcast --audio FILE --format html > page.html`: the standalone podcast page plays
    /// the sound the command just wrote, in a folder beside the page, through the page's own CSP.
    @Test(.enabled(if: PodcastBinaryTests.canSpeak))
    func thePodcastPagePlaysTheAudioItWrote() async throws {
        let browser = try HeadlessChromium.require()
        let scratch = try ScratchDirectory("browser")
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("audio"), withIntermediateDirectories: true)
        let sound = scratch.url.appendingPathComponent("audio/notes.ogg"), page = scratch.url.appendingPathComponent("notes-podcast.html")
        let run = try await StudykitBinary.run(
            ["podcast", "samples/notes.pdf", "--engine", "builtin", "--audio", sound.path, "--format", "html"],
            environment: ["STUDYKIT_CACHE_DIR": scratch.url.appendingPathComponent("cache").path],
            launcher: ["/bin/sh", "-c", "exec \"$@\" > \"$0\"", page.path])
        #expect(run.status == 0, "\(run.stderr)")
        let seconds = try #require(Double(try PodcastBinaryTests.soxi(["-D", sound.path])))

        let (report, browserRun) = try Self.selftest(page, with: browser)
        #expect(browserRun.consoleLines.isEmpty, "console: \(browserRun.consoleLines)")
        #expect(report.errors.isEmpty)
        let podcast = try #require(report.podcast)
        #expect(podcast.players == 1 && podcast.turns > 0)
        let audio = try #require(podcast.audio)
        #expect(URL(string: audio.src)?.standardizedFileURL.resolvingSymlinksInPath().path == sound.resolvingSymlinksInPath().path, "src \(audio.src)")
        #expect(audio.error == 0 && audio.how != "error" && audio.how != "timeout", "\(audio)")
        #expect(abs((audio.duration ?? 0) - seconds) < 0.5, "the browser reads \(audio.duration ?? 0) s, soxi \(seconds) s")
    }

    @Test func hostileModelTextRunsNothingAndBreaksNothing() throws {
        let browser = try HeadlessChromium.require()
        let scratch = try ScratchDirectory("browser")
        let page = scratch.url.appendingPathComponent("hostile.html")
        var context = HostileText.context()
        context.podcast = HostileText.podcast
        try Data(HTMLRenderer.render(.studyKit(HostileText.kit), context: context).utf8).write(to: page)
        let (report, run) = try Self.selftest(page, with: browser)
        #expect(run.consoleLines.isEmpty, "console: \(run.consoleLines)")
        #expect(report.errors.isEmpty)
        #expect(report.scripts == 2, "a script node was added")
        #expect(report.resources == 0, "something was fetched")
        // The payloads mark the root element if they run; as text they are escaped (`&lt;a`).
        let rootTag = try #require(run.dom.range(of: "<html").flatMap { start in run.dom[start.lowerBound...].range(of: ">").map { run.dom[start.lowerBound..<$0.upperBound] } })
        #expect(rootTag == "<html lang=\"en\" class=\"js\">")
        #expect(!run.dom.contains("<a href=\"javascript:"))
        #expect(!run.dom.contains("<img"))
        // The payloads are there as text, and the page still works around them.
        #expect(run.dom.contains("&lt;img src=x onerror="))
        #expect(run.dom.contains("&lt;/script&gt;"))
        #expect(report.cards == HostileText.kit.flashcards.cards.count)
        #expect(report.flips == [false, true, false, true, false])
        #expect(report.scoreText == "You scored 2 of 3.")
        #expect(report.mapNodes == Self.labelCount(HostileText.kit.mindMap.jsonValue))
        #expect(report.podcast?.turns == HostileText.podcast.turns.count && report.podcast?.recap == 3)
        #expect(report.podcast?.quotes == 2 && report.podcast?.players == 0)
    }

    @Test func mindmapSVGOfNotesIsValidXMLWithoutOverlaps() async throws {
        let scratch = try ScratchDirectory("svg")
        let environment = ["STUDYKIT_CACHE_DIR": scratch.url.path]
        let run = try await StudykitBinary.run(["mindmap", "samples/notes.pdf", "--engine", "builtin", "--format", "svg"], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let json = try await StudykitBinary.run(["mindmap", "samples/notes.pdf", "--engine", "builtin", "--json"], environment: environment)
        let nodeCount = Self.labelCount(try #require(try JSONValue.parse(json.stdout)["result"]))
        #if canImport(FoundationXML)
        let document = try XMLDocument(data: run.stdoutData)
        let rects = try document.nodes(forXPath: "//*[local-name()='g'][contains(@class,'node')]/*[local-name()='rect']")
        #expect(rects.count == nodeCount)
        let boxes = rects.compactMap { node -> MindMapLayout.Rect? in
            guard let element = node as? XMLElement else { return nil }
            func value(_ name: String) -> Double {
                Double(element.attributes?.first { $0.localName == name || $0.name == name }?.stringValue ?? "") ?? .nan
            }
            return MindMapLayout.Rect(x: value("x"), y: value("y"), width: value("width"), height: value("height"))
        }
        #expect(boxes.count == nodeCount)
        #expect(boxes.allSatisfy { $0.width > 0 && $0.height > 0 }, "\(boxes.prefix(3))")
        for first in boxes.indices {
            for second in boxes.indices where second > first {
                #expect(!boxes[first].intersects(boxes[second]), "labels \(first) and \(second) overlap")
            }
        }
        let root = try #require(document.rootElement())
        #expect(root.name == "svg")
        #expect(try document.nodes(forXPath: "//*[local-name()='script']").isEmpty)
        #endif
    }
}
