import Foundation
import Testing
@testable import StudyKit

/// `import --with-podcast --out DIR` when the audio's programs are missing, and its options.
@Suite("import --with-podcast: the kit's podcast with and without audio")
struct KitPodcastCommandTests {
    /// Runs studykit in process with `installed` as the only programs on the machine.
    static func run(_ arguments: [String], installed: Set<String>, scratch: ScratchDirectory) async -> (ExitCode, CapturingSink, CapturingSink, RecordingRunner) {
        let output = CapturingSink(), errors = CapturingSink()
        var runner = Runner(
            environment: ["STUDYKIT_CACHE_DIR": scratch.url.appendingPathComponent("cache").path], standardInput: { Data() },
            output: output, errorOutput: errors)
        let fake = RecordingRunner(installed: installed)
        runner.processes = fake
        return (await runner.run(arguments), output, errors, fake)
    }

    static let sample = TestPaths.packageRoot.appendingPathComponent("samples/paste.txt").path

    @Test(arguments: [Set<String>(), ["sox", "soxi"], ["espeak-ng"]])
    func withoutEspeakOrSoxTheKitHasTheTranscriptOnlyAndOneNote(_ installed: Set<String>) async throws {
        let scratch = try ScratchDirectory("kit-podcast")
        let out = scratch.url.appendingPathComponent("kit")
        let (code, output, errors, fake) = await Self.run(
            ["import", Self.sample, "--engine", "builtin", "--no-cache", "--with-podcast", "--out", out.path], installed: installed, scratch: scratch)
        #expect(code == .ok, "\(errors.text)")
        let missing = installed.contains("espeak-ng") ? "sox" : "espeak-ng"
        #expect(errors.text == "studykit: the kit's podcast has its transcript but no audio: \(missing) is not installed, and the podcast's audio needs it; install the Debian package \(missing) (apt-get install \(missing))\n")
        #expect(fake.calls.withLock { $0.isEmpty }, "a program ran")
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path)
        #expect(files.contains("podcast.md") && !files.contains { $0.hasPrefix("podcast.") && $0 != "podcast.md" })
        #expect(output.text.contains("/podcast.md\n") && !output.text.contains("podcast.wav"))
        let page = try String(contentsOf: out.appendingPathComponent("kit.html"), encoding: .utf8)
        #expect(page.contains("<section id=\"podcast\""))
        #expect(page.contains("<li class=\"turn explainer\">") && page.contains("<div class=\"recap\">"))
        #expect(!page.contains("<audio") && !page.contains("media-src"))
    }

    @Test func theKitPageToStdoutShowsThePodcastWithoutAPlayer() async throws {
        let scratch = try ScratchDirectory("kit-podcast")
        let (code, output, errors, fake) = await Self.run(
            ["import", Self.sample, "--engine", "builtin", "--no-cache", "--with-podcast", "--format", "html"], installed: [], scratch: scratch)
        #expect(code == .ok, "\(errors.text)")
        // Nothing is spoken for a page on stdout, so there is nothing to say about the audio.
        #expect(errors.text.isEmpty)
        #expect(fake.calls.withLock { $0.isEmpty })
        #expect(output.text.contains("<section id=\"podcast\"") && !output.text.contains("<audio"))
        let plain = await Self.run(["import", Self.sample, "--engine", "builtin", "--no-cache", "--format", "html"], installed: [], scratch: scratch)
        #expect(plain.0 == .ok && !plain.1.text.contains("id=\"podcast\""))
    }

    @Test(arguments: [
        ["--with-podcast", "--out", "kit", "--audio-format", "mp3"],
        ["--out", "kit", "--audio-format", "ogg"],
        ["--with-podcast", "--audio-format", "ogg"],
    ])
    func audioFormatIsWavOrOggForAKitDirectoryWithAPodcast(_ options: [String]) async throws {
        let scratch = try ScratchDirectory("kit-podcast")
        let (code, output, errors, _) = await Self.run(["import", Self.sample, "--engine", "builtin"] + options, installed: [], scratch: scratch)
        #expect(code == .usage)
        #expect(errors.text.hasPrefix("studykit: Invalid value '") && errors.text.contains("for '--audio-format'"), "\(errors.text)")
        #expect(output.text.isEmpty)
    }

    @Test(arguments: [
        (["--with-podcast", "--audio-format", "mp3"], "wav or ogg"),
        (["--audio-format", "ogg"], "to come with --with-podcast and --out <dir>"),
    ])
    func batchAudioFormatIsWavOrOggWithAPodcast(_ options: [String], expected: String) async throws {
        let scratch = try ScratchDirectory("kit-podcast")
        let kits = scratch.url.appendingPathComponent("kits")
        let (code, output, errors, fake) = await Self.run(
            ["batch", Self.sample, "--out", kits.path, "--engine", "builtin"] + options, installed: ["espeak-ng", "sox", "soxi"], scratch: scratch)
        #expect(code == .usage)
        #expect(errors.text == "studykit: Invalid value '\(options[options.count - 1])' for '--audio-format': expected \(expected).\n", "\(errors.text)")
        #expect(output.text.isEmpty && fake.calls.withLock { $0.isEmpty })
        #expect(!FileManager.default.fileExists(atPath: kits.path), "nothing is written")
    }

    @Test func batchHelpNamesAudioFormat() async throws {
        let scratch = try ScratchDirectory("kit-podcast")
        let (code, output, _, _) = await Self.run(["batch", "--help"], installed: [], scratch: scratch)
        #expect(code == .ok)
        #expect(output.text.contains("--audio-format <wav|ogg>") || output.text.contains("--audio-format wav|ogg"), "\(output.text)")
    }

    /// The kit's record keeps a non-default sound: the same batch with `--audio-format ogg`
    /// is not "up to date" with WAV kits, while the record of a WAV batch is what it always was.
    @Test func batchRecordsTheSoundFormat() throws {
        var settings = BatchSettings(sources: [Self.sample], outputDirectory: "kits")
        settings.withPodcast = true
        let wav = BatchRecord(source: Self.sample, digest: "d", settings: settings)
        settings.audioFormat = "ogg"
        let ogg = BatchRecord(source: Self.sample, digest: "d", settings: settings)
        #expect(!wav.text.contains("audioFormat") && ogg.text.contains("\"audioFormat\": \"ogg\""), "\(ogg.text)")
        #expect(wav != ogg)
    }

    @Test func batchSaysOnceThatItsKitsHaveNoAudio() async throws {
        let scratch = try ScratchDirectory("kit-podcast")
        let documents = scratch.url.appendingPathComponent("docs")
        try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
        for name in ["a.txt", "b.txt"] {
            try FileManager.default.copyItem(atPath: Self.sample, toPath: documents.appendingPathComponent(name).path)
        }
        let (code, _, errors, _) = await Self.run(
            ["batch", documents.path, "--out", scratch.url.appendingPathComponent("kits").path, "--engine", "builtin", "--with-podcast"],
            installed: [], scratch: scratch)
        #expect(code == .ok, "\(errors.text)")
        #expect(Self.count("no audio", in: errors.text) == 1, "\(errors.text)")
        for name in ["a", "b"] {
            let page = try String(contentsOf: scratch.url.appendingPathComponent("kits/\(name)/kit.html"), encoding: .utf8)
            #expect(page.contains("<section id=\"podcast\""))
        }
    }

    static func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }
}
