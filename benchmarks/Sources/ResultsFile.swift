import Foundation

/// benchmarks/RESULTS.md, edited one `## ` section at a time so that each benchmark rewrites
/// only its own section and leaves the others (written by other scripts) as they are.
struct ResultsFile {
    let path: String

    /// Replaces the section whose heading starts with `headingPrefix` (up to the next `## `
    /// heading), or appends `section` at the end when there is none yet.
    func replaceSection(startingWith headingPrefix: String, with section: String) throws {
        let existing = (try? String(contentsOfFile: path, encoding: .utf8)) ?? "# Benchmarks\n"
        var lines = existing.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        let body = section.trimmingCharacters(in: .newlines).components(separatedBy: "\n")
        if let start = lines.firstIndex(where: { $0.hasPrefix(headingPrefix) }) {
            let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("## ") } ?? lines.endIndex
            let following = end < lines.endIndex ? [""] : []
            lines.replaceSubrange(start..<end, with: body + following)
        } else {
            while lines.last == "" { lines.removeLast() }
            lines += [""] + body
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }
}
