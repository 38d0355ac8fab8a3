import Foundation
import Testing

/// Short files and lines (#55 item 7): in the folders of `Sources/StudyKit` listed in
/// ``ShortLinesTests/doneFolders``, no Swift file is over 600 lines and no line over 120
/// characters. A folder joins the list once it meets both, so it stays that way; the package
/// root's own files are checked too. Failures print as `file:line: 131 characters`.
@Suite("Short files and lines")
struct ShortLinesTests {
    /// The folders (with their subfolders) that meet the limits. Routing joins when its long
    /// lines are wrapped and its two large files split.
    static let doneFolders = [
        "Audio", "Cache", "CLI", "Engines", "Evaluation", "HTTP", "Import", "Output", "Schema", "Tasks", "Text",
    ]
    static let maximumLines = 600
    static let maximumCharacters = 120

    /// Every Swift file of the done folders and of the package root, relative to `Sources/StudyKit`.
    static func checkedFiles() throws -> [String] {
        let root = LayerTests.sources
        let manager = FileManager.default
        var files = try manager.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".swift") }
        for folder in doneFolders {
            let enumerator = try #require(manager.enumerator(atPath: root.appendingPathComponent(folder).path))
            for case let path as String in enumerator where path.hasSuffix(".swift") {
                files.append(folder + "/" + path)
            }
        }
        return files.sorted()
    }

    /// The places in `text` (one file's contents) over the limits, as `name:line: …` lines.
    static func problems(in text: String, name: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        var problems: [String] = []
        if lines.count > maximumLines { problems.append("\(name): \(lines.count) lines") }
        for (index, line) in lines.enumerated() where line.count > maximumCharacters {
            problems.append("\(name):\(index + 1): \(line.count) characters")
        }
        return problems
    }

    @Test("the done folders have no file over 600 lines and no line over 120 characters")
    func doneFoldersAreShort() throws {
        let files = try Self.checkedFiles()
        // Each done folder holds files: a renamed or misspelt folder must not pass by checking nothing.
        for folder in Self.doneFolders {
            #expect(files.contains { $0.hasPrefix(folder + "/") }, "no Swift file under \(folder)/")
        }
        var problems: [String] = []
        for file in files {
            let text = try String(contentsOf: LayerTests.sources.appendingPathComponent(file), encoding: .utf8)
            problems += Self.problems(in: text, name: file)
        }
        #expect(problems.isEmpty, "\(problems.count) over the limits:\n\(problems.joined(separator: "\n"))")
    }

    @Test("a line of 121 characters and a file of 601 lines are reported; 120 and 600 are not")
    func limitsAreReported() {
        let atLimit = String(repeating: "x", count: 120)
        let over = String(repeating: "é", count: 121)
        #expect(Self.problems(in: atLimit + "\n", name: "A.swift").isEmpty)
        #expect(Self.problems(in: "a\n" + over + "\n", name: "A.swift") == ["A.swift:2: 121 characters"])
        let lines600 = String(repeating: "let x = 1\n", count: 600)
        #expect(Self.problems(in: lines600, name: "B.swift").isEmpty)
        #expect(Self.problems(in: lines600 + "let y = 2\n", name: "B.swift") == ["B.swift: 601 lines"])
    }
}
