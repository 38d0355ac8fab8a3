/// The text of `studykit --help` and `studykit <command> --help`.
enum HelpText {
    static func overview() -> String {
        var lines = [
            "studykit \(StudyKitVersion.current) — turn study material into a study kit, on the right model.",
            "",
            "USAGE: studykit <command> [<source>] [options]",
            "",
            "A <source> is a file (text, Markdown, HTML, PDF), an http(s) URL, or '-' for stdin.",
            "",
            "COMMANDS:",
        ]
        let width = CommandSpec.all.map(\.name.count).max() ?? 0
        for spec in CommandSpec.all {
            lines.append("  " + spec.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + spec.summary)
        }
        lines += [
            "",
            "Run 'studykit <command> --help' for a command's options.",
            "",
            "EXIT CODES: 0 ok · 64 usage · 65 bad input data · 66 input missing or unreadable ·",
            "            69 no engine could serve · 1 anything else",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    static func command(_ spec: CommandSpec) -> String {
        var lines = ["USAGE: \(spec.usage)", "", spec.summary.prefix(1).uppercased() + spec.summary.dropFirst() + ".",
            "", "OPTIONS:"]
        let rendered = spec.options.map { option -> (String, String) in
            ("--\(option.name)" + (option.valueName.map { " <\($0)>" } ?? ""), option.help)
        }
        let width = rendered.map(\.0.count).max() ?? 0
        for (left, help) in rendered {
            lines.append("  " + left.padding(toLength: width + 2, withPad: " ", startingAt: 0) + help)
        }
        if !spec.details.isEmpty { lines += [""] + spec.details }
        lines += ["", "EXAMPLE:", "  \(spec.example)"]
        return lines.joined(separator: "\n") + "\n"
    }
}
