import Foundation
import Synchronization
import Testing
@testable import StudyKit

/// A process runner that records every call and answers like espeak-ng, sox and soxi would,
/// without making a sound; it tracks how many programs ran at once.
final class RecordingRunner: ProcessRunning {
    let installed: Set<String>
    let calls = Mutex<[(String, [String])]>([])
    let running = Mutex<(now: Int, most: Int)>((0, 0))

    init(installed: Set<String> = ["espeak-ng", "sox", "soxi"]) { self.installed = installed }

    func locate(_ program: String) -> String? { installed.contains(program) ? "/usr/bin/" + program : nil }

    func run(_ executable: String, _ arguments: [String]) async throws(AudioError) -> ProcessOutcome {
        calls.withLock { $0.append((executable, arguments)) }
        running.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
        // A voice stays busy until a second job runs beside it (or 2 s pass, for a lone last
        // turn): a fixed short sleep let a loaded machine finish one before the next started.
        let waitsForPartner = executable.hasSuffix("espeak-ng")
        for _ in 0..<(waitsForPartner ? 400 : 1) where running.withLock({ $0.now }) < 2 {
            try? await Task.sleep(for: .milliseconds(5))
        }
        running.withLock { $0.now -= 1 }
        return ProcessOutcome(status: 0, output: executable.hasSuffix("soxi") ? "2.5\n" : "", errorText: "")
    }

    func arguments(of program: String) -> [[String]] {
        calls.withLock { $0.filter { $0.0 == "/usr/bin/" + program }.map(\.1) }
    }
}

@Suite("Podcast audio: espeak-ng and sox through the process seam")
struct PodcastAudioTests {
    @Test func eachHostHasItsOwnVoicePitchAndSpeed() async throws {
        let runner = RecordingRunner()
        let script = PodcastScriptTests.script()
        let recording = try await PodcastAudio(runner: runner).record(script, to: "/tmp/show.wav")
        let espeak = runner.arguments(of: "espeak-ng")
        #expect(espeak.count == script.spokenTurns.count)
        func setting(_ flag: String, _ arguments: [String]) -> String? {
            arguments.firstIndex(of: flag).map { arguments[$0 + 1] }
        }
        // Turn 0 is Maya's, turn 1 Theo's: voice, pitch and speed all differ.
        let maya = try #require(recording.commands.first), theo = recording.commands[1]
        for flag in ["-v", "-p", "-s"] { #expect(setting(flag, maya) != setting(flag, theo), "\(flag)") }
        #expect(setting("-v", maya) == "en+f3" && setting("-v", theo) == "en+m3")
        #expect(Set(espeak.map { setting("-v", $0) ?? "" }) == ["en+f3", "en+m3"])
        #expect(recording.voices.map(\.host) == ["Maya", "Theo"])
        #expect(recording.commands.allSatisfy { $0.contains("-w") && $0.contains("-f") })
    }

    @Test func turnsRunTwoAtATimeAndAreJoinedInOrderWithPauses() async throws {
        let runner = RecordingRunner()
        let script = PodcastScriptTests.script()
        let recording = try await PodcastAudio(runner: runner).record(script, to: "/tmp/show.wav")
        #expect(runner.running.withLock { $0.most } == 2)
        let sox = runner.arguments(of: "sox")
        #expect(sox.count == 2)
        #expect(sox[0].prefix(2) == ["-n", "-r"] && sox[0].suffix(3) == ["trim", "0.0", "0.35"])
        let join = sox[1]
        #expect(join.last == "/tmp/show.wav")
        let inputs = join.dropLast().map { URL(fileURLWithPath: $0).lastPathComponent }
        let expected = script.spokenTurns.indices.flatMap { $0 == 0 ? ["turn-0.wav"] : ["pause.wav", "turn-\($0).wav"] }
        #expect(inputs == expected)
        // Times follow the turns' lengths (soxi says 2.5 s) and the pauses.
        #expect(recording.turnTimes.count == script.spokenTurns.count)
        #expect(recording.turnTimes[1].start == 2.85 && recording.turnTimes[1].end == 5.35)
    }

    @Test func anOggNameWritesOggVorbis() async throws {
        let runner = RecordingRunner()
        let recording = try await PodcastAudio(runner: runner).record(PodcastScriptTests.script(), to: "/tmp/show.ogg")
        #expect(recording.format == "ogg")
        #expect(runner.arguments(of: "sox").last?.suffix(3) == ["-C", "3", "/tmp/show.ogg"])
        await #expect(throws: AudioError.unsupportedFormat("/tmp/show.mp3")) {
            try await PodcastAudio(runner: runner).record(PodcastScriptTests.script(), to: "/tmp/show.mp3")
        }
    }

    @Test func withoutEspeakTheCommandSaysWhichPackageAndExits69() async throws {
        let output = CapturingSink(), errors = CapturingSink()
        var runner = Runner(environment: [:], standardInput: { Data() }, output: output, errorOutput: errors)
        let fake = RecordingRunner(installed: ["sox", "soxi"])
        runner.processes = fake
        let sample = TestPaths.packageRoot.appendingPathComponent("samples/paste.txt").path
        let code = await runner.run(["podcast", sample, "--engine", "builtin", "--no-cache", "--audio", "/tmp/x.wav"])
        #expect(code == .unavailable)
        #expect(errors.text == "studykit: espeak-ng is not installed, and the podcast's audio needs it; install the Debian package espeak-ng (apt-get install espeak-ng)\n")
        #expect(output.text.isEmpty)
        #expect(fake.calls.withLock { $0.isEmpty })
    }

    @Test func audioNeedsAWavOrOggName() async {
        let errors = CapturingSink()
        let runner = Runner(environment: [:], standardInput: { Data() }, output: CapturingSink(), errorOutput: errors)
        #expect(await runner.run(["podcast", "samples/paste.txt", "--audio", "show.mp3"]) == .usage)
        #expect(errors.text.contains("--audio"))
    }
}

@Suite("studykit podcast through the binary, with real espeak-ng and sox")
struct PodcastBinaryTests {
    static let canSpeak = ["espeak-ng", "sox", "soxi"].allSatisfy { program in
        SystemProcessRunner(environment: ProcessInfo.processInfo.environment).locate(program) != nil
    }

    static func soxi(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(SystemProcessRunner(environment: ProcessInfo.processInfo.environment).locate("soxi")))
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(.enabled(if: canSpeak)) func notesPDFBecomesAPlayableTwoVoiceWAV() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-podcast-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let wav = directory.appendingPathComponent("notes.wav").path
        let result = try await StudykitBinary.run(
            ["podcast", "samples/notes.pdf", "--engine", "builtin", "--no-cache", "--audio", wav, "--json"],
            environment: ["STUDYKIT_CACHE_DIR": directory.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.soxi(["-t", wav]) == "wav")
        let seconds = try #require(Double(try Self.soxi(["-D", wav])))

        let envelope = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        #expect(envelope["engine"] as? String == "builtin")
        let script = try PodcastScript(json: try JSONValue.parse(try #require(String(data: JSONSerialization.data(withJSONObject: envelope["result"]!), encoding: .utf8))))
        let audio = try #require(envelope["audio"] as? [String: Any])
        let voices = try #require(audio["voices"] as? [[String: Any]])
        #expect(voices.count == 2)
        #expect(voices[0]["voice"] as? String != voices[1]["voice"] as? String)
        #expect(voices[0]["pitch"] as? Int != voices[1]["pitch"] as? Int)
        #expect(abs((audio["seconds"] as? Double ?? 0) - seconds) < 0.05)

        // At least 80% of the words at each voice's rate (the pauses come on top).
        var expected = 0.0
        for turn in script.spokenTurns {
            let rate = script.role(of: turn.speaker) == .curious ? 170.0 : 150.0
            expected += Double(turn.line.split(separator: " ").count) * 60 / rate
        }
        #expect(seconds >= 0.8 * expected, "\(seconds) s for \(expected) s of words")
        #expect(seconds <= 2.5 * expected, "\(seconds) s for \(expected) s of words")
    }

    /// `podcast --audio FILE --format html`: the page plays the sound it just wrote, by the
    /// path relative to the page when stdout is a file, else by its absolute path.
    @Test(.enabled(if: canSpeak)) func thePodcastPageLinksTheSoundItWrote() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-podcast-page-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("audio"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let sound = directory.appendingPathComponent("audio/show.ogg").path, page = directory.appendingPathComponent("show.html").path
        let environment = ["STUDYKIT_CACHE_DIR": directory.appendingPathComponent("cache").path]
        let arguments = ["podcast", "samples/paste.txt", "--engine", "builtin", "--audio", sound, "--format", "html"]
        let redirected = try await StudykitBinary.run(arguments, environment: environment, stdoutFile: URL(fileURLWithPath: page))
        #expect(redirected.status == 0, "\(redirected.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("<audio controls preload=\"metadata\" src=\"audio/show.ogg\""), "the relative path from the page")
        #expect(html.contains("media-src 'self'"))
        #expect(html.contains("<span class=\"at\">0:00</span>"), "each turn's time in the recording")

        let piped = try await StudykitBinary.run(arguments, environment: environment)
        #expect(piped.status == 0, "\(piped.stderr)")
        let absolute = URL(fileURLWithPath: sound).resolvingSymlinksInPath().path
        #expect(piped.stdout.contains("<audio controls preload=\"metadata\" src=\"\(absolute)\""), "a pipe: the absolute path")

        let script = try await StudykitBinary.run(["podcast", "samples/paste.txt", "--engine", "builtin", "--format", "html"], environment: environment)
        #expect(script.status == 0 && !script.stdout.contains("<audio"), "no --audio, no player")
    }

    /// `batch --with-podcast --audio-format ogg`: every kit's sound is Ogg Vorbis, and its page plays it.
    @Test(.enabled(if: canSpeak)) func batchWritesEachKitsSoundInTheFormatAsked() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-batch-ogg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let kits = directory.appendingPathComponent("kits")
        let result = try await StudykitBinary.run(
            ["batch", "samples/paste.txt", "--out", kits.path, "--engine", "builtin", "--with-podcast", "--audio-format", "ogg"],
            environment: ["STUDYKIT_CACHE_DIR": directory.appendingPathComponent("cache").path])
        #expect(result.status == 0, "\(result.stderr)")
        let kit = kits.appendingPathComponent("paste")
        let files = try FileManager.default.contentsOfDirectory(atPath: kit.path)
        #expect(files.contains("podcast.ogg") && !files.contains("podcast.wav"), "\(files)")
        #expect(try Self.soxi(["-t", kit.appendingPathComponent("podcast.ogg").path]) == "vorbis")
        let page = try String(contentsOf: kit.appendingPathComponent("kit.html"), encoding: .utf8)
        #expect(page.contains("src=\"podcast.ogg\""))
        // A rerun with the same settings skips the kit; asking for WAV instead makes it again.
        let again = try await StudykitBinary.run(
            ["batch", "samples/paste.txt", "--out", kits.path, "--engine", "builtin", "--with-podcast", "--audio-format", "ogg"],
            environment: ["STUDYKIT_CACHE_DIR": directory.appendingPathComponent("cache").path])
        #expect(again.stdout.hasPrefix("SKIPPED "), "\(again.stdout)")
        let wav = try await StudykitBinary.run(
            ["batch", "samples/paste.txt", "--out", kits.path, "--engine", "builtin", "--with-podcast"],
            environment: ["STUDYKIT_CACHE_DIR": directory.appendingPathComponent("cache").path])
        #expect(wav.stdout.hasPrefix("OK "), "\(wav.stdout)")
        #expect(FileManager.default.fileExists(atPath: kit.appendingPathComponent("podcast.wav").path))
    }

    @Test(arguments: [
        ("/k/audio/show.ogg", "/k/show.html", "audio/show.ogg"),
        ("/k/show.wav", "/k/show.html", "show.wav"),
        ("/k/a b/show.wav", "/k/pages/x/show.html", "../../a b/show.wav"),
        ("/other/show.wav", "/k/show.html", "../other/show.wav"),
        ("/k/show.wav", nil, "/k/show.wav"),
    ] as [(String, String?, String)])
    func theSoundIsReferredToFromThePage(audio: String, page: String?, expected: String) {
        #expect(Runner.audioReference(audio, fromPage: page) == expected)
    }

    @Test(.enabled(if: canSpeak)) func importWithPodcastWritesItsScriptAndSound() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-kit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("kit").path
        let result = try await StudykitBinary.run(
            ["import", "samples/paste.txt", "--engine", "builtin", "--no-cache", "--with-podcast", "--out", out],
            environment: ["STUDYKIT_CACHE_DIR": directory.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("/podcast.md\n") && result.stdout.contains("/podcast.wav\n"))
        let markdown = try String(contentsOfFile: out + "/podcast.md", encoding: .utf8)
        #expect(markdown.contains("**Maya:** Welcome"))
        #expect(Double(try Self.soxi(["-D", out + "/podcast.wav"])) ?? 0 > 10)
        let kit = try JSONValue.parse(try String(contentsOfFile: out + "/kit.json", encoding: .utf8))
        #expect(kit.objectValue?["podcast"]?.objectValue?["turns"] != nil)

        let plain = try await StudykitBinary.run(
            ["import", "samples/paste.txt", "--engine", "builtin", "--no-cache", "--out", directory.appendingPathComponent("plain").path],
            environment: ["STUDYKIT_CACHE_DIR": directory.path])
        #expect(!plain.stdout.contains("podcast"))
    }
}
