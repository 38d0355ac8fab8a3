// MARK: - Code text

/// Whether lines of a document are source code rather than prose, for text that does not mark
/// its code (a paragraph of a PDF, pasted notes, an HTML page that sets code without `pre`).
///
/// Marked code (a Markdown fence, an HTML `pre`, which the importer turns into a fence) needs
/// no guess. Unmarked, a line reads as code when it shows at least two of these signs:
/// - it ends as a statement or block does (`;`, `{`, `}`, `(`, `[`);
/// - it starts as only code does (`}`, `)`, `]`, `//`, `/*`, `#!`, `$ `, `>>> `, `#include`);
/// - it has an operator prose never writes (`=>`, `===`, `!==`, `==`, `&&`, `||`, `::`, `+=`,
///   `++`, `();`, `){`, `) {`, `</`, `/>`);
/// - brackets and parentheses are at least a tenth of its non-space characters;
/// - it opens with a declaration keyword (`const x`, `def f`, `import {`, `return x;`…).
/// A line that ends as a sentence does (a word, then `.`, `?`, `!` or `:`) counts one sign
/// less. One sign is not enough: "Call f(x) to compute it." has brackets, and "Return the
/// value." a keyword. A formula ("E = mc²", "6CO2 + 6H2O → C6H12O6 + 6O2") shows none.
enum CodeText {
    /// Whether a line opens or closes a fenced block: three backticks or three tildes first
    /// (the splitter, the normalizer and the Markdown title all read fences by this).
    static func isFence(_ line: some Collection<Character>) -> Bool {
        guard let mark = line.first, mark == "`" || mark == "~" else { return false }
        let opening = line.prefix(3)
        return opening.count == 3 && opening.allSatisfy { $0 == mark }
    }

    /// Whether a paragraph's lines are code: half of them or more read as code (so a comment
    /// line or a blank-ish line inside code does not break it), and at least one does.
    static func isCode(lines: [String]) -> Bool {
        let code = lines.count { isCodeLine($0) }
        return code > 0 && code * 2 >= lines.count
    }

    /// Whether one line reads as code (two signs or more; see the type's description).
    static func isCodeLine(_ raw: String) -> Bool {
        let line = raw.trimmingTabsAndSpaces()
        guard line.index(line.startIndex, offsetBy: 2, limitedBy: line.endIndex) != nil else { return false }
        var signs = 0
        if let last = line.last, ";{}([".contains(last) { signs += 1 }
        if startsAsCode(line) { signs += 1 }
        if operators.contains(where: { line.includes($0) }) { signs += 1 }
        let brackets = line.unicodeScalars.count { "{}[]()<>".unicodeScalars.contains($0) }
        if brackets >= 2 {
            let visible = line.unicodeScalars.count { !$0.properties.isWhitespace }
            if visible > 0, brackets * 10 >= visible { signs += 1 }
        }
        if startsWithKeyword(line) { signs += 1 }
        // Prose ends as a sentence does: a word, then its point ("for (i) and (ii) see below.").
        let ending = Array(line.suffix(2))
        if ending.count == 2, ending[0].isLetter, ".?!:".contains(ending[1]) { signs -= 1 }
        return signs >= 2
    }

    private static let operators = ["=>", "===", "!==", "==", "&&", "||", "::", "+=", "++", "();", "){", ") {", "</",
        "/>"]
    private static let codeStarts = ["}", ")", "]", "//", "/*", "#!", "$ ", ">>> ", "#include", "#define"]
    private static let keywords: Set<String> = [
        "const", "let", "var", "function", "def", "class", "import", "export", "return", "if", "for", "while",
        "public", "private", "static", "func", "fn", "struct", "enum", "int", "void", "char", "await", "async",
        "try", "catch", "throw", "new", "elif", "else", "switch", "case",
    ]

    private static func startsAsCode(_ line: String) -> Bool {
        codeStarts.contains { line.hasPrefix($0) }
    }

    /// A declaration keyword in lower case followed by a space or `(`: "const x", "if (", "def f".
    private static func startsWithKeyword(_ line: String) -> Bool {
        let word = line.prefix { $0.isASCII && $0.isLetter }
        guard !word.isEmpty, keywords.contains(String(word)) else { return false }
        let rest = line.dropFirst(word.count)
        return rest.first == " " || rest.first == "("
    }
}
