import Foundation
import Testing
@testable import StudyKit

/// The podcast on the kit's page (`import --with-podcast`): a transcript with speakers, quotes
/// and the recap, and a player only when the audio lies beside the page.
@Suite("The kit page's podcast section")
struct HTMLPodcastPageTests {
    static func kitPage(podcast: PodcastScript?, audio: String? = nil, times: [(start: Double, end: Double)]? = nil,
                        context base: RenderContext = OutputFixtures.context()) -> String {
        var context = base
        context.podcast = podcast
        context.podcastAudioFile = audio
        context.podcastTimes = times
        return HTMLRenderer.render(.studyKit(OutputFixtures.cleanKit), context: context)
    }

    static func count(_ needle: String, in page: String) -> Int { page.components(separatedBy: needle).count - 1 }

    /// The page's Content-Security-Policy.
    static func policy(_ page: String) throws -> String {
        let start = try #require(page.range(of: "http-equiv=\"Content-Security-Policy\" content=\""))
        let end = try #require(page.range(of: "\"", range: start.upperBound..<page.endIndex))
        return String(page[start.upperBound..<end.lowerBound])
    }

    @Test func aKitWithoutAPodcastHasNoPodcastSectionAndLoadsNoMedia() throws {
        let page = Self.kitPage(podcast: nil, audio: "podcast.wav")
        #expect(!page.contains("id=\"podcast\"") && !page.contains("<audio"))
        #expect(!page.contains("href=\"#podcast\""))
        #expect(try !Self.policy(page).contains("media-src"))
    }

    @Test func theTranscriptHasEveryTurnItsSpeakerTheQuotesAndTheRecapAfterTheMap() throws {
        let script = PodcastScriptTests.script()
        var context = OutputFixtures.context()
        context.pageOfQuote = { quote in quote.hasPrefix("Anaphase") ? 3 : nil }
        let page = Self.kitPage(podcast: script, context: context)
        let map = try #require(page.range(of: "<section id=\"mindmap\"")?.lowerBound)
        let podcast = try #require(page.range(of: "<section id=\"podcast\"")?.lowerBound)
        #expect(map < podcast)
        #expect(page.contains("<li><a href=\"#podcast\">Podcast</a></li>"))
        #expect(page.contains("<h3 class=\"episode\">Mitosis in Four Steps</h3>"))
        #expect(page.contains("With <strong>Maya</strong> (asks) and <strong>Theo</strong> (explains, from the material)."))
        #expect(Self.count("<li class=\"turn curious\"><p class=\"speaker\">Maya</p>", in: page) == 4)
        #expect(Self.count("<li class=\"turn explainer\"><p class=\"speaker\">Theo</p>", in: page) == 4)
        // Each explainer line reads its quote out: the quote is marked in the line as the material's words.
        #expect(page.contains("<p class=\"line\">Put simply: <mark class=\"material\">Mitosis is how one eukaryotic cell divides into two genetically identical daughter cells.</mark></p>"))
        #expect(Self.count("<mark class=\"material\">", in: page) == 4)
        #expect(page.contains("Highlighted: word for word from the material, page 3</p>"))
        // The recap: spoken by the explainer, its three points as a list, last.
        let recap = try #require(page.range(of: "<div class=\"recap\"><h4>Recap</h4><p class=\"speaker\">Theo</p><ol>"))
        #expect(page.range(of: "<li class=\"turn", range: recap.upperBound..<page.endIndex) == nil)
        #expect(page.contains("<li>In anaphase the sister chromatids move to opposite poles.</li></ol></div>"))
        // Without audio: no player, no time stamps, and the page still loads nothing.
        #expect(!page.contains("<audio") && !page.contains("class=\"at\""))
        #expect(try !Self.policy(page).contains("media-src"))
    }

    @Test func aQuoteTheLineDoesNotReadOutIsShownUnderItAsTheMaterials() {
        var script = PodcastScriptTests.script()
        script.turns[1].line = "Put simply, one cell becomes two identical ones."
        let page = Self.kitPage(podcast: script)
        #expect(page.contains("<p class=\"line\">Put simply, one cell becomes two identical ones.</p><figure class=\"material\"><blockquote>Mitosis is how one eukaryotic cell divides into two genetically identical daughter cells.</blockquote><figcaption>From the material</figcaption></figure>"))
        #expect(Self.count("<mark class=\"material\">", in: page) == 3)
    }

    @Test func aListItemsQuoteIsMarkedInTheLineThatReadsItOutWithoutItsMarker() {
        var script = PodcastScriptTests.script()
        script.turns[3].quote = "3. Before mitosis, in interphase, the cell grows and copies its DNA"
        script.turns[5].quote = "• Anaphase: the sister chromatids are pulled apart to opposite poles of the cell."
        let page = Self.kitPage(podcast: script)
        #expect(page.contains("Put simply: <mark class=\"material\">Before mitosis, in interphase, the cell grows and copies its DNA</mark></p>"))
        #expect(page.contains("Put simply: <mark class=\"material\">Anaphase: the sister"))
        #expect(!page.contains("<figure class=\"material\">"))
        #expect(HTMLRenderer.withoutListMarker("12) Twelve") == "Twelve")
        #expect(HTMLRenderer.withoutListMarker("2024. A year") == "2024. A year")
        #expect(HTMLRenderer.withoutListMarker("-5 degrees") == "-5 degrees")
    }

    @Test func withAudioBesideThePageItPlaysTheFileByItsRelativePath() throws {
        let script = PodcastScriptTests.script()
        let times = (0...script.turns.count).map { (start: Double($0) * 7.5, end: Double($0) * 7.5 + 7) }
        let page = Self.kitPage(podcast: script, audio: "podcast.wav", times: times)
        #expect(Self.count("<audio ", in: page) == 1)
        #expect(page.contains("<audio controls preload=\"metadata\" src=\"podcast.wav\" aria-label=\"Listen to the podcast: Mitosis in Four Steps\"><a href=\"podcast.wav\">podcast.wav</a></audio>"))
        #expect(page.contains("<figcaption>Listen (1:07), or <a href=\"podcast.wav\" download>download podcast.wav</a>."))
        // The player comes before the transcript; each turn and the recap say where they start.
        let player = try #require(page.range(of: "<figure class=\"player\">")?.lowerBound)
        let transcript = try #require(page.range(of: "<ol class=\"transcript\"")?.lowerBound)
        #expect(player < transcript)
        #expect(page.contains("<li class=\"turn explainer\"><p class=\"speaker\"><span class=\"at\">0:07</span> Theo</p>"))
        #expect(page.contains("<h4>Recap</h4><p class=\"speaker\"><span class=\"at\">1:00</span> Theo</p>"))
        // The sound is referred to, never inlined, and the policy lets the page load it and nothing else.
        #expect(!page.contains("data:audio") && !page.contains("base64"))
        #expect(try Self.policy(page) == "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; media-src 'self'")
    }

    @Test func theAudioPathIsPercentEncodedAndEscaped() {
        let page = Self.kitPage(podcast: PodcastScriptTests.script(), audio: "my show \"1\".ogg")
        #expect(page.contains("src=\"my%20show%20%221%22.ogg\""))
        #expect(page.contains(">my show &quot;1&quot;.ogg</a></audio>"))
    }

    @Test func thePodcastCommandsOwnPageHasTheSameTranscript() {
        let script = PodcastScriptTests.script()
        let page = HTMLRenderer.render(.podcast(script), context: OutputFixtures.context())
        #expect(page.contains("<section id=\"podcast\""))
        #expect(Self.count("<li class=\"turn ", in: page) == script.turns.count)
        #expect(page.contains("<div class=\"recap\">"))
        #expect(!page.contains("<audio"))
    }

    @Test func scriptTagsAndHandlersInThePodcastAreText() throws {
        let page = Self.kitPage(podcast: HostileText.podcast, audio: "podcast.wav", context: HostileText.context())
        let section = try #require(page.range(of: "<section id=\"podcast\"").map { String(page[$0.lowerBound...]) })
        // Only the page's own two script elements, and no tag or handler from the script's text.
        #expect(Self.count("<script", in: page) == 2)
        for raw in ["<img", "<svg onload", "<a href=\"javascript:", "onerror=\"", "\" onmouseover=\"", "<!--"] {
            #expect(!section.contains(raw), "raw \(raw) in the podcast")
        }
        #expect(section.contains("<h3 class=\"episode\">Show &lt;/script&gt;&lt;script&gt;document.documentElement"))
        #expect(section.contains("<p class=\"speaker\"><span") == false)
        #expect(section.contains("<p class=\"speaker\">Maya &lt;img src=x onerror=&quot;alert(1);"))
        // The quote read out in its line is still marked, escaped; the other is quoted under its line.
        #expect(section.contains("<mark class=\"material\">Quote &quot; onmouseover=&quot;document.documentElement"))
        #expect(section.contains("<blockquote>Quote &lt;/script&gt;&lt;script&gt;"))
        #expect(section.contains("<li>First &lt;/script&gt;&lt;script&gt;"))
        #expect(!section.unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{2029}" })
    }

    @Test func clockTimesAreMinutesAndSeconds() {
        #expect(HTMLRenderer.clockText(0) == "0:00")
        #expect(HTMLRenderer.clockText(7.9) == "0:07")
        #expect(HTMLRenderer.clockText(74) == "1:14")
        #expect(HTMLRenderer.clockText(605.2) == "10:05")
    }
}
