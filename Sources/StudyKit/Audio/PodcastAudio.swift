import Foundation

/// How one host sounds: an espeak-ng voice, its pitch (0–99) and speed (words per minute).
struct PodcastVoice: Sendable, Equatable {
    /// The espeak-ng voice: language and variant (`en+f3`).
    var voice: String
    /// espeak-ng's `-p`.
    var pitch: Int
    /// espeak-ng's `-s`, words per minute.
    var wordsPerMinute: Int

    /// The curious host: a higher voice, a little quicker.
    static func curious(language: String) -> PodcastVoice { PodcastVoice(voice: language + "+f3", pitch: 62,
        wordsPerMinute: 170) }
    /// The explainer: a lower voice, a little slower.
    static func explainer(language: String) -> PodcastVoice { PodcastVoice(voice: language + "+m3", pitch: 38,
        wordsPerMinute: 150) }

    /// espeak-ng's arguments to speak the text in `textFile` into the WAV `output`.
    func arguments(textFile: String, output: String) -> [String] {
        ["-v", voice, "-p", String(pitch), "-s", String(wordsPerMinute), "-w", output, "-f", textFile]
    }

    var jsonValue: JSONValue { ["voice": .string(voice), "pitch": .integer(pitch),
        "wordsPerMinute": .integer(wordsPerMinute)] }
}

/// The podcast as sound: what was written and when each turn starts and ends.
struct PodcastRecording: Sendable, Equatable {
    /// The file written.
    var path: String
    /// `wav` or `ogg`.
    var format: String
    /// Its length in seconds (`soxi -D`).
    var seconds: Double
    /// Each spoken turn's start and end in the file, in seconds, in order.
    var turnTimes: [(start: Double, end: Double)]
    /// The voice of each host, by name.
    var voices: [(host: String, voice: PodcastVoice)]
    /// The espeak-ng arguments of each turn (its text file and output vary; the voice does not).
    var commands: [[String]]

    static func == (lhs: PodcastRecording, rhs: PodcastRecording) -> Bool {
        lhs.path == rhs.path && lhs.format == rhs.format && lhs.seconds == rhs.seconds
            && lhs.turnTimes.map(\.start) == rhs.turnTimes.map(\.start)
            && lhs.turnTimes.map(\.end) == rhs.turnTimes.map(\.end)
            && lhs.voices.map(\.host) == rhs.voices.map(\.host) && lhs.voices.map(\.voice) == rhs.voices.map(\.voice)
            && lhs.commands == rhs.commands
    }

    /// For `--json`: the file, its length, the voices and each turn's times.
    var jsonValue: JSONValue {
        [
            "file": .string(path), "format": .string(format), "seconds": .number((seconds * 1000).rounded() / 1000),
            "voices": .array(voices.map { host, voice in
                var object: JSONObject = ["host": .string(host)]
                if case .object(let fields) = voice.jsonValue { for (key, value) in fields { object[key] = value } }
                return .object(object)
            }),
            "turns": .array(turnTimes.map { ["start": .number(($0.start * 1000).rounded() / 1000),
                "end": .number(($0.end * 1000).rounded() / 1000)] }),
        ]
    }
}

/// Speaks a ``PodcastScript`` with espeak-ng, two voices, and joins the turns with sox, a short
/// pause between them, into one WAV or Ogg Vorbis file. The turns are synthesized in parallel,
/// at most ``jobs`` at a time, and joined in script order.
struct PodcastAudio: Sendable {
    /// Silence between two turns, in seconds.
    static let pause = 0.35
    /// espeak-ng's sample rate: the silence must match it for sox to join.
    static let sampleRate = 22_050

    let runner: any ProcessRunning
    /// Turns synthesized at once.
    var jobs: Int = 2
    /// The document's language (BCP 47 primary tag), for the voices; undetermined (`und`)
    /// speaks English, the language of the builtin show's own lines.
    var language: String = "en" {
        didSet { if language == "und" || language.isEmpty { language = "en" } }
    }

    /// The programs the audio needs, checked before any work: a missing one is exit 69.
    func checkPrograms() throws(AudioError) -> (espeak: String, sox: String, soxi: String) {
        guard let espeak = runner.locate("espeak-ng") else { throw .missingProgram("espeak-ng", package: "espeak-ng") }
        guard let sox = runner.locate("sox") else { throw .missingProgram("sox", package: "sox") }
        guard let soxi = runner.locate("soxi") else { throw .missingProgram("soxi", package: "sox") }
        return (espeak, sox, soxi)
    }

    /// The format of an output file by its name: `ogg` for `.ogg`/`.oga`, `wav` for `.wav`.
    static func format(of path: String) throws(AudioError) -> String {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "wav": return "wav"
        case "ogg", "oga": return "ogg"
        default: throw .unsupportedFormat(path)
        }
    }

    /// Each host's voice: the curious one higher and quicker than the explainer.
    func voices(for script: PodcastScript) -> [(host: String, voice: PodcastVoice)] {
        script.hosts.map { host in
            (host.name, host.role == .curious
                ? PodcastVoice.curious(language: language) : PodcastVoice.explainer(language: language))
        }
    }

    /// Writes the script's audio to `path` (WAV, or Ogg Vorbis for `.ogg`).
    func record(_ script: PodcastScript, to path: String) async throws(AudioError) -> PodcastRecording {
        let format = try Self.format(of: path)
        let programs = try checkPrograms()
        let fileManager = FileManager.default
        let work = fileManager.temporaryDirectory.appendingPathComponent("studykit-podcast-\(UUID().uuidString)")
        do { try fileManager.createDirectory(at: work, withIntermediateDirectories: true) } catch {
            throw .failed(program: "studykit", reason: "cannot make a temporary directory: \(error)")
        }
        defer { try? fileManager.removeItem(at: work) }

        let voices = voices(for: script)
        let turns = script.spokenTurns
        var commands: [[String]] = []
        for (index, turn) in turns.enumerated() {
            let voice = voices.first { $0.host.lowercased() == turn.speaker.lowercased() }?.voice
                ?? PodcastVoice.explainer(language: language)
            let textFile = work.appendingPathComponent("turn-\(index).txt").path
            do { try Data(turn.line.utf8).write(to: URL(fileURLWithPath: textFile)) } catch {
                throw .failed(program: "studykit", reason: "cannot write \(textFile): \(error)")
            }
            commands.append(voice.arguments(textFile: textFile,
                output: work.appendingPathComponent("turn-\(index).wav").path))
        }
        try await runBounded(commands.map { (programs.espeak, $0) })

        // Each turn's length, for the subtitles and --json; then one file, a pause between turns.
        var lengths: [Double] = []
        for index in turns.indices {
            lengths.append(try await duration(of: work.appendingPathComponent("turn-\(index).wav").path,
                soxi: programs.soxi))
        }
        let silence = work.appendingPathComponent("pause.wav").path
        try await check(programs.sox,
            ["-n", "-r", String(Self.sampleRate), "-c", "1", "-b", "16", silence, "trim", "0.0", String(Self.pause)])
        var inputs: [String] = []
        for index in turns.indices {
            if index > 0 { inputs.append(silence) }
            inputs.append(work.appendingPathComponent("turn-\(index).wav").path)
        }
        try await check(programs.sox, inputs + (format == "ogg" ? ["-C", "3", path] : [path]))

        var times: [(start: Double, end: Double)] = []
        var clock = 0.0
        for length in lengths {
            times.append((clock, clock + length))
            clock += length + Self.pause
        }
        let seconds = try await duration(of: path, soxi: programs.soxi)
        return PodcastRecording(path: path, format: format, seconds: seconds, turnTimes: times, voices: voices,
            commands: commands)
    }

    /// Runs the commands at most ``jobs`` at a time; the first failure is thrown.
    private func runBounded(_ commands: [(String, [String])]) async throws(AudioError) {
        let runner = self.runner
        let limit = max(1, jobs)
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                var next = 0
                func start() {
                    let (program, arguments) = commands[next]
                    next += 1
                    group.addTask { try await Self.check(runner, program, arguments) }
                }
                while next < min(limit, commands.count) { start() }
                while try await group.next() != nil {
                    if next < commands.count { start() }
                }
            }
        } catch let error as AudioError {
            throw error
        } catch {
            throw .failed(program: "espeak-ng", reason: String(describing: error))
        }
    }

    private func check(_ program: String, _ arguments: [String]) async throws(AudioError) {
        try await Self.check(runner, program, arguments)
    }

    private static func check(_ runner: any ProcessRunning, _ program: String,
        _ arguments: [String]) async throws(AudioError) {
        let outcome = try await runner.run(program, arguments)
        guard outcome.status == 0 else {
            throw .failed(program: URL(fileURLWithPath: program).lastPathComponent,
                reason: outcome.errorText.isEmpty ? "exit status \(outcome.status)" : outcome.errorText)
        }
    }

    private func duration(of file: String, soxi: String) async throws(AudioError) -> Double {
        let outcome = try await runner.run(soxi, ["-D", file])
        guard outcome.status == 0,
            let seconds = Double(outcome.output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw .failed(program: "soxi",
                reason: outcome.errorText.isEmpty ? "no duration for \(file)" : outcome.errorText)
        }
        return seconds
    }
}
