/// SubRip subtitles for the podcast: one cue per spoken turn (the recap last), `Name: line`,
/// timed from the audio when it was made (``RenderContext/podcastTimes``), else estimated from
/// each turn's words at its host's speaking rate.
public enum SRTRenderer {
    /// The subtitles; cues numbered from 1, times `HH:MM:SS,mmm`, never going back.
    public static func render(_ script: PodcastScript, context: RenderContext) -> String {
        let script = CleanResult.podcast(script)
        let turns = script.spokenTurns
        let times = context.podcastTimes.flatMap { $0.count == turns.count ? $0 : nil } ?? estimatedTimes(script)
        var cues: [String] = []
        for (index, turn) in turns.enumerated() {
            let (start, end) = times[index]
            cues.append("\(index + 1)\n\(timestamp(start)) --> "
                + "\(timestamp(max(start, end)))\n\(ProseText.oneLine(turn.speaker)): "
                + "\(ProseText.oneLine(turn.line))")
        }
        return cues.joined(separator: "\n\n") + "\n"
    }

    /// Start and end of each spoken turn at the voices' words per minute, a pause between turns.
    static func estimatedTimes(_ script: PodcastScript) -> [(start: Double, end: Double)] {
        var clock = 0.0
        return script.spokenTurns.map { turn in
            let rate = script.role(of: turn.speaker) == .curious ? PodcastVoice.curious(language: "en").wordsPerMinute
                : PodcastVoice.explainer(language: "en").wordsPerMinute
            let seconds = Double(turn.line.split(whereSeparator: \.isWhitespace).count) * 60 / Double(rate)
            defer { clock += seconds + PodcastAudio.pause }
            return (clock, clock + seconds)
        }
    }

    /// `HH:MM:SS,mmm`.
    static func timestamp(_ seconds: Double) -> String {
        let millis = Int((max(0, seconds) * 1000).rounded())
        let (hours, rest) = millis.quotientAndRemainder(dividingBy: 3_600_000)
        let (minutes, rest2) = rest.quotientAndRemainder(dividingBy: 60_000)
        let (secs, ms) = rest2.quotientAndRemainder(dividingBy: 1000)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
        let three = ms < 10 ? "00\(ms)" : ms < 100 ? "0\(ms)" : String(ms)
        return "\(two(hours)):\(two(minutes)):\(two(secs)),\(three)"
    }
}
