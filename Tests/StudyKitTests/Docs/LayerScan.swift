import Foundation

/// The layer check's scanner (#55 item 5): which folder of `Sources/StudyKit` declares each name,
/// and where a folder uses a name that a folder at or right of it in the layer order declares.
/// A lexical scan, not a compiler: comments and string literals are blanked first (interpolated
/// code is kept), then identifiers are matched against what the folders declare. It needs only
/// Foundation, so it can be compiled on its own while tuning it.
struct LayerScan {
    /// The layers, left to right: a folder may use only folders in groups to its left. Files at
    /// the root of `Sources/StudyKit` (`ExitCode`, `StudyKitVersion`, `TemporaryFiles`) sit
    /// below every layer.
    static let order: [[String]] = [
        ["HTTP", "Text"], ["Schema"], ["Import"], ["Tasks"], ["Cache"], ["Engines"], ["Routing"],
        ["Audio"], ["Output"], ["Evaluation"], ["CLI"],
    ]

    /// Member names that the standard library or Foundation also declare. A `.name` that is one of
    /// these may mean the library's member, so it is never counted as a use of a folder's
    /// extension, even when one folder declares a member of that name.
    static let ambiguousMembers: Set<String> = [
        "sorted", "filter", "lastIndex", "firstIndex", "lowercased", "uppercased", "distance", "contains",
        "count", "first", "last", "isEmpty", "description", "map", "reduce", "prefix", "suffix", "split",
        "joined", "trimmed", "hash", "index", "min", "max", "value", "text", "name", "key", "words",
        "lines", "utf8", "data", "string", "path", "url", "range", "ranges", "replacing", "trimming",
        "appending", "removing", "inserting", "components", "starts", "ends", "matches", "escaped",
        "normalized", "capitalized", "folding", "compactMap", "flatMap", "dropFirst", "dropLast",
        "isLetter", "isNumber", "isUppercase", "isLowercase", "isWhitespace", "isPunctuation",
        "intersection", "union", "subtracting", "symmetricDifference", "isSubset", "isSuperset",
    ]

    /// One use of a name against the order.
    struct Violation: Hashable, Comparable {
        var file: String  // relative to Sources/StudyKit
        var line: Int
        var folder: String
        var owner: String
        var symbol: String

        var message: String { "\(file):\(line): \(folder) uses \(owner)'s \(symbol)" }

        static func < (a: Violation, b: Violation) -> Bool {
            (a.file, a.line, a.symbol) < (b.file, b.line, b.symbol)
        }
    }

    /// A source file: its path relative to `Sources/StudyKit`, its folder, its stripped text.
    struct SourceFile {
        var path: String
        var folder: String
        var tokens: [Token]
    }

    struct Token {
        enum Kind { case identifier, punctuation }
        var kind: Kind
        var text: String
        var line: Int
        var afterDot: Bool  // the previous non-blank character is `.` (a member use `.name`)
    }

    /// Where each name is declared: top-level names (types, functions, constants), members
    /// declared in extensions, and every member or nested name (for ambiguity only).
    struct Declarations {
        var topLevel: [String: Set<String>] = [:]       // name -> folders, non-private
        var extensionMembers: [String: Set<String>] = [:]  // name -> folders, non-private
        var anyMember: [String: Set<String>] = [:]      // name -> folders, any member or nested decl
        /// Lower-case names a folder binds itself (locals, parameters, labels): a bare use of one
        /// that is not a call means the folder's own name, not another folder's top-level one.
        var bound: [String: Set<String>] = [:]
    }

    var files: [SourceFile]
    var declarations = Declarations()

    static func rank(of folder: String) -> Int? {
        if folder == "" { return -1 }
        return order.firstIndex { $0.contains(folder) }
    }

    init(sources: URL) throws {
        let base = sources.standardizedFileURL.path
        var found: [SourceFile] = []
        let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = enumerator?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let full = file.standardizedFileURL.path
            let relative = String(full.dropFirst(base.count + 1))
            let parts = relative.split(separator: "/")
            let folder = parts.count > 1 ? String(parts[0]) : ""
            let text = try String(contentsOf: file, encoding: .utf8)
            found.append(SourceFile(path: relative, folder: folder, tokens: Self.tokens(Self.strip(text))))
        }
        files = found.sorted { $0.path < $1.path }
        for file in files { Self.declare(file, into: &declarations) }
    }

    // MARK: Uses

    /// Every use against the order, one per file, line and symbol.
    func violations() -> [Violation] {
        var found = Set<Violation>()
        for file in files {
            guard let rank = Self.rank(of: file.folder) else { continue }
            for (index, token) in file.tokens.enumerated() where token.kind == .identifier {
                let next = index + 1 < file.tokens.count ? file.tokens[index + 1].text : ""
                let isLowercase = token.text.first?.isLowercase ?? false
                // A lower-case name before `:` is a label (an argument, a parameter, a tuple
                // element); one the folder binds itself means its own unless it is called.
                if isLowercase, next == ":" { continue }
                if isLowercase, next != "(", declarations.bound[token.text]?.contains(file.folder) == true { continue }
                let owners: Set<String>?
                if token.afterDot {
                    guard !Self.ambiguousMembers.contains(token.text),
                          let members = declarations.extensionMembers[token.text] else { continue }
                    let all = (declarations.anyMember[token.text] ?? [])
                        .union(declarations.topLevel[token.text] ?? [])
                    owners = all.count == 1 ? members : nil
                } else {
                    // A member of the folder's own of that name shadows the top-level one.
                    let shadowed = declarations.anyMember[token.text]?.contains(file.folder) == true
                    owners = shadowed ? nil : declarations.topLevel[token.text]
                }
                guard let owners, owners.count == 1, let owner = owners.first, owner != file.folder,
                      let ownerRank = Self.rank(of: owner), ownerRank >= rank else { continue }
                let symbol = token.afterDot ? "." + token.text : token.text
                found.insert(Violation(file: file.path, line: token.line, folder: file.folder,
                                       owner: owner, symbol: symbol))
            }
        }
        return found.sorted()
    }

    // MARK: Declarations

    static let typeKeywords: Set<String> = ["struct", "enum", "class", "actor", "protocol", "extension"]
    static let declarationKeywords: Set<String> = [
        "struct", "enum", "class", "actor", "protocol", "typealias", "func", "let", "var", "case",
    ]
    static let modifiers: Set<String> = [
        "public", "internal", "package", "private", "fileprivate", "open", "static", "final", "override",
        "mutating", "nonmutating", "nonisolated", "lazy", "class", "indirect", "convenience", "required",
        "weak", "unowned", "dynamic", "consuming", "borrowing", "isolated", "set", "(", ")",
    ]

    enum Scope { case type, extensionBody, block }

    /// Records the file's declarations: names at the top level, and names declared directly in a
    /// type or extension body (not in a function body or accessor).
    static func declare(_ file: SourceFile, into declarations: inout Declarations) {
        var scopes: [(scope: Scope, isPrivate: Bool)] = []
        var pending: (scope: Scope, isPrivate: Bool)?
        var parenDepth = 0
        let tokens = file.tokens
        for (index, token) in tokens.enumerated() {
            switch token.text {
            case "{":
                scopes.append(pending ?? (.block, false))
                pending = nil
                continue
            case "}":
                _ = scopes.popLast()
                continue
            case "(", "[": parenDepth += 1; continue
            case ")", "]": parenDepth -= 1; continue
            default: break
            }
            guard token.kind == .identifier, !token.afterDot else { continue }
            if index + 1 < tokens.count, tokens[index + 1].text == ":", token.text.first?.isLowercase == true {
                declarations.bound[token.text, default: []].insert(file.folder)
            }
            let keyword = token.text
            guard declarationKeywords.contains(keyword) || keyword == "extension" else { continue }
            // `class func` / `class var` are members, not a class.
            if keyword == "class", index + 1 < tokens.count,
               ["func", "var", "let", "subscript", "override", "final"].contains(tokens[index + 1].text) { continue }
            let isPrivate = privacy(before: index, in: tokens)
            let enclosing = scopes.last
            if typeKeywords.contains(keyword) {
                let inheritedPrivacy = enclosing?.isPrivate ?? false
                pending = (keyword == "extension" ? .extensionBody : .type, isPrivate || inheritedPrivacy)
            }
            guard keyword != "extension" else { continue }
            let names = declaredNames(after: index, keyword: keyword, in: tokens)
            for name in names where name.first?.isLowercase == true {
                declarations.bound[name, default: []].insert(file.folder)
            }
            for name in names {
                if enclosing == nil {
                    if !isPrivate { declarations.topLevel[name, default: []].insert(file.folder) }
                } else if let enclosing, enclosing.scope != .block {
                    declarations.anyMember[name, default: []].insert(file.folder)
                    if enclosing.scope == .extensionBody, !isPrivate, !enclosing.isPrivate {
                        declarations.extensionMembers[name, default: []].insert(file.folder)
                    }
                }
            }
        }
    }

    /// Whether the declaration whose keyword is at `index` is `private` or `fileprivate`
    /// (`private(set)` is readable, so it does not count).
    static func privacy(before index: Int, in tokens: [Token]) -> Bool {
        var cursor = index - 1
        while cursor >= 0 {
            let text = tokens[cursor].text
            if text.hasPrefix("@") || modifiers.contains(text) {
                if text == "private" || text == "fileprivate" {
                    let next = cursor + 1 < tokens.count ? tokens[cursor + 1].text : ""
                    if next != "(" { return true }
                }
                cursor -= 1
                continue
            }
            break
        }
        return false
    }

    /// The names a declaration introduces: one, or several for `case a, b(Int), c`.
    static func declaredNames(after index: Int, keyword: String, in tokens: [Token]) -> [String] {
        guard index + 1 < tokens.count, tokens[index + 1].kind == .identifier else { return [] }
        var names = [tokens[index + 1].text]
        guard keyword == "case" else { return names }
        var cursor = index + 2
        var depth = 0
        while cursor < tokens.count, tokens[cursor].line == tokens[index].line {
            let text = tokens[cursor].text
            if text == "(" || text == "[" { depth += 1 } else if text == ")" || text == "]" { depth -= 1 }
            if text == "=" && depth == 0 { break }
            if text == ",", depth == 0, cursor + 1 < tokens.count, tokens[cursor + 1].kind == .identifier {
                names.append(tokens[cursor + 1].text)
            }
            cursor += 1
        }
        return names
    }

    // MARK: Lexing

    /// Identifiers (with `@` kept on attributes) and the punctuation that matters: braces, parens,
    /// brackets, commas, `=` and `:`.
    static func tokens(_ text: [UInt8]) -> [Token] {
        var result: [Token] = []
        var line = 1
        var index = 0
        var lastSignificant: UInt8 = 0
        func isHead(_ byte: UInt8) -> Bool {
            (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 95 || byte >= 128
        }
        func isBody(_ byte: UInt8) -> Bool { isHead(byte) || (byte >= 48 && byte <= 57) }
        while index < text.count {
            let byte = text[index]
            if byte == 10 { line += 1; index += 1; continue }
            if byte == 32 || byte == 9 || byte == 13 { index += 1; continue }
            if isHead(byte) || byte == 64 || byte == 96 || byte == 36 {
                let start = index
                index += 1
                while index < text.count, isBody(text[index]) { index += 1 }
                if byte == 96, index < text.count, text[index] == 96 { index += 1 }
                var word = String(decoding: text[start..<index], as: UTF8.self)
                if byte == 96 { word = word.replacingOccurrences(of: "`", with: "") }
                if byte == 36 { lastSignificant = 36; continue }  // `$0`, `$binding`
                result.append(Token(kind: .identifier, text: word, line: line, afterDot: lastSignificant == 46))
                lastSignificant = 97
                continue
            }
            if byte >= 48 && byte <= 57 {  // a number literal, `1.5e3`, `0xFF`, `1_000`
                while index < text.count, isBody(text[index]) || text[index] == 46
                    && index + 1 < text.count && text[index + 1] >= 48 && text[index + 1] <= 57 { index += 1 }
                lastSignificant = 48
                continue
            }
            if [123, 125, 40, 41, 91, 93, 44, 61, 58].contains(byte) {
                result.append(Token(kind: .punctuation, text: String(UnicodeScalar(byte)), line: line,
                                    afterDot: false))
            }
            // `?.` and `!.` keep the dot as the last significant character.
            lastSignificant = byte
            index += 1
        }
        return result
    }

    /// The text with comments and string literals blanked (newlines kept, so lines still count),
    /// and the code inside string interpolations kept.
    static func strip(_ source: String) -> [UInt8] {
        var text = Array(source.utf8)
        var index = 0
        code(&text, &index, stopAtParen: false)
        return text
    }

    private static func blank(_ text: inout [UInt8], _ index: Int) {
        if text[index] != 10 { text[index] = 32 }
    }

    /// Code until the end, or until the `)` that closes an interpolation.
    private static func code(_ text: inout [UInt8], _ index: inout Int, stopAtParen: Bool) {
        var depth = 0
        while index < text.count {
            let byte = text[index]
            let next: UInt8 = index + 1 < text.count ? text[index + 1] : 0
            if byte == 47 && next == 47 {  // `//`
                while index < text.count, text[index] != 10 { blank(&text, index); index += 1 }
                continue
            }
            if byte == 47 && next == 42 {  // `/*`, nested
                var nesting = 0
                while index < text.count {
                    let here = text[index]
                    let after: UInt8 = index + 1 < text.count ? text[index + 1] : 0
                    if here == 47 && after == 42 { nesting += 1; blank(&text, index); blank(&text,
                        index + 1); index += 2; continue }
                    if here == 42 && after == 47 {
                        nesting -= 1; blank(&text, index); blank(&text, index + 1); index += 2
                        if nesting == 0 { break }
                        continue
                    }
                    blank(&text, index)
                    index += 1
                }
                continue
            }
            if byte == 35 || byte == 34 {  // `#"…"#`, `#/…/#`, `"…"`
                var hashes = 0
                var cursor = index
                while cursor < text.count, text[cursor] == 35 { hashes += 1; cursor += 1 }
                if cursor < text.count, text[cursor] == 34 {
                    index = cursor
                    string(&text, &index, hashes: hashes)
                    continue
                }
                if hashes > 0, cursor < text.count, text[cursor] == 47 {  // a regex literal
                    index = cursor + 1
                    while index < text.count {
                        if text[index] == 47, (0..<hashes).allSatisfy({ index + 1 + $0 < text.count
                            && text[index + 1 + $0] == 35 }) { index += 1 + hashes; break }
                        blank(&text, index)
                        index += 1
                    }
                    continue
                }
                index = max(cursor, index + 1)
                continue
            }
            if stopAtParen {
                if byte == 40 { depth += 1 }
                if byte == 41 {
                    if depth == 0 { return }
                    depth -= 1
                }
            }
            index += 1
        }
    }

    /// A string literal from its opening quote; leaves `index` after the closing delimiter.
    private static func string(_ text: inout [UInt8], _ index: inout Int, hashes: Int) {
        let multiline = index + 2 < text.count && text[index + 1] == 34 && text[index + 2] == 34
        index += multiline ? 3 : 1
        func hashesFollow(_ at: Int) -> Bool {
            (0..<hashes).allSatisfy { at + $0 < text.count && text[at + $0] == 35 }
        }
        while index < text.count {
            let byte = text[index]
            if byte == 92, hashesFollow(index + 1) {  // `\` (with the raw string's hashes)
                let escaped = index + 1 + hashes
                if escaped < text.count, text[escaped] == 40 {  // interpolation
                    for position in index..<escaped { blank(&text, position) }
                    index = escaped + 1
                    code(&text, &index, stopAtParen: true)
                    index += 1  // the closing `)`
                    continue
                }
                for position in index...min(escaped, text.count - 1) { blank(&text, position) }
                index = escaped + 1
                continue
            }
            if byte == 34 {
                let closes = multiline
                    ? index + 2 < text.count && text[index + 1] == 34 && text[index + 2] == 34
                    && hashesFollow(index + 3)
                    : hashesFollow(index + 1)
                if closes {
                    index += (multiline ? 3 : 1) + hashes
                    return
                }
            }
            if byte == 10 && !multiline { return }  // an unterminated literal: stop at the line's end
            blank(&text, index)
            index += 1
        }
    }
}
