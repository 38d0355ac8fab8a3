import Foundation
import Testing

/// Short files and lines (#55 item 7): no Swift file of `Sources/StudyKit` is over 600 lines and
/// no line over 120 characters, in every folder (``LayerScan/order``, subfolders included) and
/// in the package root's own files. Failures print as `file:line: 131 characters`.
@Suite("Short files and lines")
struct ShortLinesTests {
    static let maximumLines = 600
    static let maximumCharacters = 120

    /// Every Swift file of the library, relative to `Sources/StudyKit`.
    static func checkedFiles() throws -> [String] {
        let enumerator = try #require(FileManager.default.enumerator(atPath: LayerTests.sources.path))
        var files: [String] = []
        for case let path as String in enumerator where path.hasSuffix(".swift") {
            files.append(path)
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

    @Test("every folder has no file over 600 lines and no line over 120 characters")
    func everyFolderIsShort() throws {
        let files = try Self.checkedFiles()
        // Every folder of the layer order holds files: a misspelt path must not pass by checking nothing.
        for folder in LayerScan.order.joined() {
            #expect(files.contains { $0.hasPrefix(folder + "/") }, "no Swift file under \(folder)/")
        }
        #expect(files.contains { !$0.contains("/") }, "no Swift file in the package root")
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
