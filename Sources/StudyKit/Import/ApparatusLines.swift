import Foundation

/// The shapes of apparatus lines (issue 52), wherever they stand, and the cleaning of the body's
/// lines: see ``Apparatus`` for where they are used.
///
/// - **Citations**: a line led by Wikipedia's backlink caret (`^`, `↑`); a line with an ISBN,
///   DOI, arXiv, ISSN, PMID, OCLC or JSTOR identifier, or a "Retrieved …", "Archived from the
///   original …", "Abgerufen am …", "Consulté le …", "Consultado el …", "…閲覧" access note; a
///   numbered reference (`[12] …`) with a year; an author-led entry ("van der Maaten, L.J.P.;
///   Hinton, G.E. (Nov 2008). …", "L. Smith and J. Roe. …") with a year and a venue (pages,
///   volume, "Proceedings", "Press", a quoted title …). Long prose (over 80 words) is never one.
/// - **Page furniture**: bylines ("By Jane Doe | March 3, 2024"), publication and reading-time
///   lines, share, subscribe and follow lines, photo and image credits, hatnotes ("This article is
///   about …", "Main article: …"), coordinates, "From Wikipedia, the free encyclopedia".
///
/// Every pattern is compiled once; a cheap look at a line's first word, its length and its
/// characters decides whether a pattern is tried at all.
enum ApparatusLines {
    // MARK: - The whole test

    /// Whether a line might be apparatus at all: the cheap filter before ``isApparatus(_:inList:)``.
    static func mayBeApparatus(_ line: Substring) -> Bool {
        // The bytes answer for a line in ASCII; a character outside it may be a number or an arrow.
        if line.utf8.contains(where: { isMarkByte[Int($0)] }) { return true }
        let outsideASCII = line.utf8.contains { $0 >= 0x80 }
        return outsideASCII
            && line.contains {
                $0 == "^" || $0 == "↑" || $0 == ":" || $0 == "(" || $0 == "°" || $0 == "|" || $0 == "/"
                    || $0.isNumber
            }
            || firstWords.contains(firstWord(of: line))
    }

    /// `^`, `:`, `(`, `|`, `/` and the digits, by the byte's value.
    private static let isMarkByte: [Bool] = (0..<256).map { "^:(|/0123456789".utf8.contains(UInt8($0)) }

    /// Whether `line` of the body is apparatus by its shape. `inList`: the line is an item of a
    /// list (or one line of several in its block), where a bare author-and-year entry is a citation.
    static func isApparatus(_ line: Substring, inList: Bool) -> Bool {
        let words = wordCount(line)
        if isCitation(line, inList: inList, words: words) { return true }
        guard words <= 40 else { return false }
        let first = firstWord(of: line)
        if firstWords.contains(first) {
            if words <= 14, line.firstMatch(of: byline) != nil, bylineTail(line) { return true }
            if words <= 14, line.firstMatch(of: dateline) != nil, line.contains(where: \.isNumber) { return true }
            if words <= 14, line.firstMatch(of: share) != nil { return true }
            if words <= 25, line.firstMatch(of: credit) != nil { return true }
        }
        if words <= 40, let first = line.first, hatnoteFirsts.contains(first),
            mayBeHatnote(line), line.firstMatch(of: hatnote) != nil
        {
            return true
        }
        if words <= 14, isSocialOnly(line) { return true }
        if words <= 8, let first = line.first, first.isNumber || "RLT".contains(first),
            readingTimeWords.contains(where: { line.utf8.mayContainBytes(of: $0) }),
            line.firstMatch(of: readingTime) != nil
        {
            return true
        }
        if words <= 30, mayBeAgencyCredit(line), line.firstMatch(of: agencyCredit) != nil {
            return true
        }
        if words <= 25, line.utf8.mayContainBytes(of: "°"), line.contains("°"),
            line.firstMatch(of: coordinates) != nil {
            return true
        }
        if words <= 12, namesTheEncyclopedia(line), line.firstMatch(of: encyclopediaLine) != nil
        {
            return true
        }
        return false
    }

    /// Whether `line` is a citation (see the type's notes).
    static func isCitation(_ line: Substring) -> Bool {
        isCitation(line, inList: true, words: wordCount(line))
    }

    private static func isCitation(_ line: Substring, inList: Bool, words: Int) -> Bool {
        let entry = withoutListMarker(line)
        if let first = entry.first, first == "^" || first == "↑" { return true }
        guard words <= 80 else { return false }
        if mayHaveIdentifier(entry), entry.firstMatch(of: identifier) != nil {
            return true
        }
        if hasAccessWord(entry), entry.firstMatch(of: access) != nil { return true }
        guard words <= 60, hasYear(entry) else { return false }
        if mayHavePDFMark(entry), entry.firstMatch(of: pdfMark) != nil { return true }
        if entry.first == "[", entry.firstMatch(of: numberedReference) != nil { return true }
        let authors =
            entry.utf8.contains(0x2C) && entry.firstMatch(of: authorLed) != nil
            && (entry.firstMatch(of: initials) != nil || entry.contains(";") || entry.contains("et al.")
                || entry.firstMatch(of: yearThenStop) != nil)
        let initialsFirst = entry.dropFirst().first == "." && entry.firstMatch(of: initialsLed) != nil
        guard authors || initialsFirst else { return false }
        return inList || entry.firstMatch(of: venue) != nil
    }

    static func isListItem(_ line: Substring) -> Bool {
        withoutListMarker(line).count != line.count
    }

    // MARK: - Sections

    /// An appendix's heading, which ends a reference section in text without heading levels.
    static func isAppendixHeading(_ block: String) -> Bool {
        !block.contains("\n") && block.split(separator: " ").count <= 10 && block.firstMatch(of: appendix) != nil
    }

    /// A short line of its own that reads as a title: no closing punctuation, a capital or a number first.
    static func isTitleLine(_ block: String) -> Bool {
        guard !block.contains("\n"), block.count <= 80, block.split(separator: " ").count <= 10,
            let first = block.first, first.isUppercase || first.isNumber, let last = block.last,
            !".,;:!?".contains(last)
        else { return false }
        return !isCitation(block[...])
    }

    /// A paragraph of prose that is no citation: 20 words or more in sentences.
    static func isProse(_ block: String) -> Bool {
        guard !block.hasPrefix("- "), !block.hasPrefix("#"), block.split(separator: " ").count >= 20 else {
            return false
        }
        return (block.contains(". ") || block.hasSuffix(".")) && !isCitation(block[...])
    }

    // MARK: - Cleaning

    /// The body's line without edit links, "(PDF)" marks, identifier parentheses and the
    /// parentheses a removed pronunciation left empty.
    static func cleanedBody(_ line: Substring, isHeading: Bool) -> String {
        var text = String(line)
        guard text.utf8.containsByte(0x5B) || text.utf8.containsByte(0x28) || text.hasPrefix("^")
            || text.hasSuffix("¶")
        else {
            return text
        }
        text = withoutEditLink(text)
        if text.utf8.containsByte(0x28) {
            if mayHavePDFMark(text[...]) { text = text.replacing(pdfMark, with: "") }
            if identifierAsideOpenings.contains(where: { text.utf8.mayContainBytes(of: $0) }) {
                text = text.replacing(identifierAside, with: "")
            }
            if mayHaveEmptyAside(text) { text = text.replacing(emptyAside, with: "").replacing(emptyLead, with: "(") }
        }
        if text.hasPrefix("^ ") { text = String(text.dropFirst(2)) }
        if isHeading { while text.last == "¶" || text.last == " " { text.removeLast() } }
        return text
    }

    /// An apparatus block without Wikipedia's backlinks ("^ a b ", "↑ a et b ") and edit links.
    static func cleanedApparatus(_ text: String) -> String {
        guard text.contains("^") || text.contains("↑") || text.contains("[") else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var line = withoutEditLink(String(line))
            if let match = line.firstMatch(of: backlink) { line.removeSubrange(match.range) }
            return line
        }.joined(separator: "\n")
    }

    /// `text` without MediaWiki's edit links in any of the table's languages ("[edit]", "[modifier |
    /// modifier le code]", "[Bearbeiten | Quelltext bearbeiten]", "[editar]", "[編集]").
    static func withoutEditLink(_ text: String) -> String {
        guard text.utf8.containsByte(0x5B), mayHaveEditLink(text) else { return text }
        return text.replacing(editLink, with: "")
    }

    // MARK: - Patterns

    /// A pattern written in pieces (each piece a line of the source), compiled once.
    private static func expression(_ pieces: String...) -> Regex<AnyRegexOutput> {
        try! Regex(pieces.joined())
    }

    private static func firstWord(of line: Substring) -> Substring {
        let start = withoutListMarker(line)
        // Every first word of the table opens with a capital in ASCII or a character outside it.
        guard let byte = start.utf8.first, (0x41...0x5A).contains(byte) || byte >= 0x80 else { return "" }
        return start.prefix { !$0.isWhitespace && $0 != ":" && $0 != "：" }
    }

    /// The first words of bylines, datelines, share lines and credits.
    private static let firstWords: Set<Substring> = [
        "By", "BY", "Von", "Par", "Por", "Written", "Posted", "Words", "Text", "Reporting", "Story", "Published",
        "Updated", "Last", "First", "Veröffentlicht", "Aktualisiert", "Stand", "Publié", "Mis", "Publicado",
        "Actualizado",
        "Share", "Subscribe", "Sign", "Follow", "Join", "Get", "Newsletter", "Teilen", "Abonnieren", "Folgen",
        "Partager",
        "Suivez-nous", "Abonnez-vous", "S'abonner", "Inscrivez-vous", "Compartir", "Suscríbete", "Suscribirse",
        "Síguenos",
        "Photo", "Photograph", "Photos", "Image", "Images", "Picture", "Illustration", "Graphic", "Credit", "Credits",
        "Source", "Foto", "Fotos", "Bild", "Bildquelle", "Quelle", "Crédit", "Crédits", "Crédito", "Créditos",
        "Fuente",
        "Imagen", "写真", "画像", "公開日", "更新日", "シェア",
    ]

    private static func withoutListMarker(_ line: Substring) -> Substring {
        if line.hasPrefix("- ") || line.hasPrefix("* ") || line.hasPrefix("• ") { return line.dropFirst(2) }
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        if (1...3).contains(digits.count), let mark = line.dropFirst(digits.count).first, mark == "." || mark == ")",
            line.dropFirst(digits.count + 1).first == " "
        {
            return line.dropFirst(digits.count + 2)
        }
        return line
    }

    /// A year from 1500 to 2099 as a word of its own.
    private static func hasYear(_ line: Substring) -> Bool {
        if case .some(.some(let answer)) = line.utf8.withContiguousStorageIfAvailable(hasYearInASCII) { return answer }
        var run = 0
        var digits: [Character] = []
        var previous: Character = " "
        for character in line {
            if character.isASCII && character.isNumber {
                run += 1
                if run <= 4 { digits.append(character) }
            } else {
                if run == 4, !previous.isLetter, isYear(digits) { return true }
                if run == 0 { previous = character }
                run = 0
                digits = []
            }
        }
        return run == 4 && isYear(digits)
    }

    /// ``hasYear(_:)`` read from the bytes of a line in ASCII, step for step; `nil` for a line
    /// with other bytes.
    private static func hasYearInASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        func startsAYear(_ first: UInt8, _ second: UInt8) -> Bool {
            (first == 0x31 && second >= 0x35) || (first == 0x32 && second == 0x30)
        }
        var run = 0
        var (first, second): (UInt8, UInt8) = (0, 0)
        var previous: UInt8 = 0x20
        for byte in bytes {
            if isDigit(byte) {
                run += 1
                if run == 1 { first = byte } else if run == 2 { second = byte }
            } else {
                let letter = (previous | 0x20) >= 0x61 && (previous | 0x20) <= 0x7A
                if run == 4, !letter, startsAYear(first, second) { return true }
                if run == 0 { previous = byte }
                run = 0
            }
        }
        return run == 4 && startsAYear(first, second)
    }

    private static func isYear(_ digits: [Character]) -> Bool {
        guard digits.count == 4 else { return false }
        return (digits[0] == "1" && "56789".contains(digits[1])) || (digits[0] == "2" && digits[1] == "0")
    }

    /// Whether `identifier` can match `line`: every one of its alternatives spells one of
    /// `identifierNames` (ASCII, matched without regard to case) after a colon or a digit is there.
    /// A line with a character outside ASCII that a change of case turns into an ASCII letter (the
    /// long s, the Kelvin sign, the dotless i) always goes to the expression, whose
    /// case-insensitive matching may fold it. (A ligature such as "ﬁ" changes case to two letters,
    /// which no one letter of a name equals.)
    private static func mayHaveIdentifier(_ line: Substring) -> Bool {
        let colonOrDigit = line.utf8.contains { $0 == 0x3A || (0x30...0x39).contains($0) }
        let outsideASCII = line.utf8.contains { $0 >= 0x80 }
        guard colonOrDigit || outsideASCII && line.contains(where: { $0 == ":" || $0.isNumber || $0 == "閲" }) else {
            return false
        }
        let spellsAName = line.utf8.withContiguousStorageIfAvailable(spellsIdentifierName) ?? true
        if spellsAName || !outsideASCII { return spellsAName }
        return line.unicodeScalars.contains { scalar in
            !scalar.isASCII && [
                scalar.properties.lowercaseMapping, scalar.properties.uppercaseMapping,
                scalar.properties.titlecaseMapping, String(Character(scalar)).lowercased(),
            ].contains { $0.unicodeScalars.count == 1 && $0.unicodeScalars.first!.isASCII }
        }
    }

    /// The names `identifier` is written with, lowercased: ISBN, DOI (and doi.org), arXiv, ISSN,
    /// PMID, PMC, OCLC, JSTOR, S2CID, Bibcode, hdl, LCCN.
    private static let identifierNames: [[UInt8]] = [
        "isbn", "doi", "arxiv", "issn", "pmid", "pmc", "oclc", "jstor", "s2cid", "bibcode", "hdl", "lccn",
    ].map { Array($0.utf8) }

    /// Whether the bytes spell one of `identifierNames` in either case, each after a word boundary
    /// (`\b`), except "doi" before ".org/10.".
    private static func spellsIdentifierName(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        func lowered(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
        func spells(_ name: [UInt8], at start: Int) -> Bool {
            guard start + name.count <= bytes.count else { return false }
            for offset in 1..<name.count where lowered(bytes[start + offset]) != name[offset] { return false }
            return true
        }
        let doiSite = Array(".org/10.".utf8)
        for start in bytes.indices where isIdentifierInitial[Int(lowered(bytes[start]))] {
            for name in identifierNames where name[0] == lowered(bytes[start]) && spells(name, at: start) {
                if start == 0 || !isWordByte(lowered(bytes[start - 1])) { return true }
                let after = start + name.count
                if after + doiSite.count <= bytes.count,
                    (0..<doiSite.count).allSatisfy({ lowered(bytes[after + $0]) == doiSite[$0] })
                {
                    return true
                }
            }
        }
        return false
    }

    /// Whether a byte is the first of one of `identifierNames`, by the byte's value.
    private static let isIdentifierInitial: [Bool] = (0..<256).map { value in
        identifierNames.contains { Int($0[0]) == value }
    }

    /// An ASCII letter, digit or underscore: a byte that makes no word boundary before the next
    /// (a byte outside ASCII may, so it counts as none of these).
    private static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F
    }

    /// Whether the line spells a word `access` needs, each looked for in the bytes first.
    private static func hasAccessWord(_ line: Substring) -> Bool {
        accessWords.contains { line.includes($0) }
            || line.utf8.mayContainBytes(of: "onsult")
                && (line.contains("Consulté") || line.contains("Consultado") || line.contains("consulté"))
            || line.utf8.mayContainBytes(of: "閲覧") && line.contains("閲覧")
    }

    private static let accessWords = ["Retrieved", "Archived", "Accessed", "Abgerufen", "Archiviert", "Archivado"]

    // MARK: - Cheap tests before an expression

    private static func namesTheEncyclopedia(_ line: Substring) -> Bool {
        line.utf8.mayContainBytes(of: "Wikip") && (line.contains("Wikipedia") || line.contains("Wikipédia"))
            || line.utf8.mayContainBytes(of: "ウィキペディア") && line.contains("ウィキペディア")
    }

    /// The words a hatnote opens with, as `hatnote` spells them.
    private static let hatnoteOpenings = [
        "This article is about", "This page is about", "For other uses", "For the ", "\"", "“",
        "Not to be confused with", "Main article", "Further information:", "See also:", "For more information, see",
        "Article", "Pour les articles homonymes", "Pour l’article homonyme", "Ne doit pas être confondu",
        "Hauptartikel:", "Siehe auch:", "Dieser Artikel behandelt", "Zu weiteren Bedeutungen", "Artículo principal:",
        "Artículos principales:", "Véase también:", "Para otros usos", "Este artículo trata", "No debe confundirse",
        "詳細は「", "「", "この項目では",
    ]

    /// Words `readingTime` needs, one of them in each of its alternatives.
    private static let readingTimeWords = ["min", "Reading time", "Lesezeit", "Temps de lecture", "Tiempo de lectura"]

    /// Whether `hatnote` can match: the line opens with one of its openings, and a quoted title,
    /// "For the …" and 「…」 go on to the words that close them.
    private static func mayBeHatnote(_ line: Substring) -> Bool {
        guard let opening = hatnoteOpenings.first(where: { line.hasPrefix($0) }) else { return false }
        switch opening {
        case "\"", "“": return line.utf8.mayContainBytes(of: "redirects here")
        case "For the ": return line.utf8.mayContainBytes(of: ", see")
        case "「": return line.utf8.mayContainBytes(of: "はこの項目へ")
        default: return true
        }
    }

    /// The number of words `split(separator: " ")` makes of `line`, without making them.
    private static func wordCount(_ line: Substring) -> Int {
        let ascii = line.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            var (count, inWord) = (0, false)
            for byte in bytes {
                if byte == 0x20 { inWord = false } else if !inWord { (count, inWord) = (count + 1, true) }
            }
            return count
        }
        if case .some(.some(let count)) = ascii { return count }
        var count = 0
        var inWord = false
        for character in line {
            if character == " " { inWord = false } else if !inWord { inWord = true; count += 1 }
        }
        return count
    }

    /// The characters a hatnote (`hatnote`) can open with.
    private static let hatnoteFirsts = Set(hatnoteOpenings.compactMap(\.first))

    /// Whether `agencyCredit` can match: the line (without a closing stop) ends with a parenthesis
    /// or with an agency's name after a slash.
    private static func mayBeAgencyCredit(_ line: Substring) -> Bool {
        let slash = line.utf8.containsByte(0x2F)
        guard slash || line.utf8.containsByte(0x28) else { return false }
        var tail = line
        if tail.last == "." { tail = tail.dropLast() }
        if tail.last == ")" {
            if creditOpenings.contains(where: { line.utf8.mayContainBytes(of: $0) }) { return true }
            tail = tail.dropLast()
        }
        return slash && agencies.contains { tail.hasSuffix($0) }
    }

    private static let creditOpenings = ["(Photo", "(Image", "(Picture", "(Illustration"]

    private static let agencies = [
        "Getty Images", "Reuters", "AFP", "AP", "Associated Press", "Shutterstock", "Alamy", "EPA", "Bloomberg",
        "iStock", "Unsplash", "Wikimedia Commons", "dpa", "picture alliance",
    ]

    /// Whether `pdfMark` can match: "(PDF" or "(pdf" is spelled.
    private static func mayHavePDFMark(_ line: Substring) -> Bool {
        line.utf8.mayContainBytes(of: "(PDF") || line.utf8.mayContainBytes(of: "(pdf")
    }

    /// Whether `editLink` can match: a "[" followed by the first letter of one of its words in
    /// either case, or by a byte outside ASCII.
    private static func mayHaveEditLink(_ text: String) -> Bool {
        var afterBracket = false
        for byte in text.utf8 {
            if afterBracket, byte >= 0x80 || "eEmMbBqQ".utf8.contains(byte) { return true }
            afterBracket = byte == 0x5B
        }
        return false
    }

    /// How `identifierAside` opens.
    private static let identifierAsideOpenings = ["(doi:", "(DOI", "(arXiv:", "(ISBN", "(ISSN", "(PMID"]

    /// Whether `emptyAside` or `emptyLead` can match: an opening parenthesis followed by a space,
    /// a semicolon or a comma.
    private static func mayHaveEmptyAside(_ text: String) -> Bool {
        // Read from the bytes: after "(" a space, a control, ";", "," or a byte outside ASCII (which
        // may begin a wider space or the Greek question mark) — more than the expressions need.
        var afterParenthesis = false
        for byte in text.utf8 {
            if afterParenthesis, byte <= 0x20 || byte == 0x3B || byte == 0x2C || byte >= 0x80 { return true }
            afterParenthesis = byte == 0x28
        }
        return false
    }

    private static func isSocialOnly(_ line: Substring) -> Bool {
        let first = line.drop(while: isSocialSeparator).prefix { !isSocialSeparator($0) }
        guard socialWords.contains(first.lowercased()) else { return false }
        let tokens = line.split { $0 == " " || $0 == "," || $0 == "|" || $0 == "·" || $0 == "•" || $0 == "/" }
        return tokens.count >= 2 && tokens.allSatisfy { socialWords.contains($0.lowercased()) }
    }

    private static func isSocialSeparator(_ character: Character) -> Bool {
        character == " " || character == "," || character == "|" || character == "·" || character == "•"
            || character == "/"
    }

    private static let socialWords: Set<String> = [
        "share", "facebook", "twitter", "x", "linkedin", "whatsapp", "email", "e-mail", "mail", "pinterest", "reddit",
        "telegram", "copy", "link", "print", "mastodon", "bluesky", "threads", "instagram", "youtube", "rss", "tumblr",
        "xing", "flipboard", "pocket", "messenger", "sms", "teilen", "partager", "compartir", "drucken", "imprimer",
    ]

    /// A byline's tail after the names has no running text: a date, a role, a time.
    private static func bylineTail(_ line: Substring) -> Bool {
        if let last = line.last, ".!?".contains(last), !line.contains(where: \.isNumber) { return false }
        let words: [Substring] = line.split(whereSeparator: { !$0.isLetter })
        return words.allSatisfy { word in
            word.count < 4 || !word.first!.isLowercase || bylineWords.contains(word.lowercased())
        }
    }

    private static let bylineWords: Set<String> = [
        "hours", "hour", "minutes", "read", "updated", "published", "staff", "writer", "reporter", "correspondent",
        "editor",
        "contributor", "january", "february", "march", "april", "june", "july", "august", "september", "october",
        "november", "december", "janvier", "février", "mars", "avril", "juin", "juillet", "août", "septembre",
        "octobre",
        "novembre", "décembre", "januar", "februar", "märz", "juni", "juli", "oktober", "dezember", "enero",
        "febrero",
        "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre", "mise",
    ]

    nonisolated(unsafe) private static let identifier = expression(
        #"(?i:\bISBN(?:-1[03])?:?\s*(?:97[89][\s\-]?)?\d[\d\s\-]{7,}[\dX]\b|\bdoi\s*:\s*10\.\d|"#,
        #"doi\.org\/10\.|\barXiv\s*:\s*(?:\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?\/\d{7})|"#,
        #"\bISSN:?\s*\d{4}-\d{3}[\dX]|\bPMID:?\s*\d{5,}|\bPMC\s?\d{5,}|\bOCLC\s*\d{5,}|\bJSTOR\s*\d{4,}|"#,
        #"\bS2CID\s*\d+|\bBibcode:\s*\d{4}|\bhdl:\s*\d|\bLCCN\s*\d)"#)

    nonisolated(unsafe) private static let access = expression(
        #"\bRetrieved(?: on)? (?:\d{1,2} )?(?:January|February|March|April|May|June|July|August|September|"#,
        #"October|November|December|\d{4}-\d{2}-\d{2})|\bRetrieved from\b|\bArchived from the original\b|"#,
        #"\bArchived (?:at|on) |\bAccessed(?: on)? (?:\d{1,2} )?(?:January|February|March|April|May|June|"#,
        #"July|August|September|October|November|December|\d{4}-\d{2}-\d{2})|\bAbgerufen am\b|"#,
        #"\bArchiviert vom Original\b|\bArchiviert (?:am|im) |\b[Cc]onsulté le\b|\bConsultado el\b|"#,
        #"\bArchivado desde el original\b|\d{4}年\d{1,2}月\d{1,2}日(?:に)?閲覧"#)

    nonisolated(unsafe) private static let pdfMark = /\s?\((?:PDF|pdf)(?:,\s*[\d.,]+\s?[KMG]i?B)?\)/
    nonisolated(unsafe) private static let identifierAside = /\s?\((?:doi:|DOI:?|arXiv:|ISBN|ISSN|PMID)[^()]*\)/
    /// What a pronunciation left when its respelling went: "( )", "(; )"; never a call's "()".
    nonisolated(unsafe) private static let emptyAside = /\s\((?:\s*[;,]\s*|\s+)\)/
    /// "(; von altgriechisch …)" once the respelling before the semicolon went.
    nonisolated(unsafe) private static let emptyLead = /\(\s*[;,]\s+(?=\p{L})/
    nonisolated(unsafe) private static let numberedReference = /^\[\d{1,3}\]\s+\S/
    /// "van der Maaten, L.", "Gashi, I.;", "Smith, John".
    nonisolated(unsafe) private static let authorLed = expression(
        #"^(?:(?:van|von|der|de|den|del|la|le|da|du|di|ten|ter)\s)*\p{Lu}[\p{L}'’\-]+(?:\s(?:(?:van|von|"#,
        #"der|de|den)\s)*\p{Lu}?[\p{L}'’\-]+){0,2},\s(?:\p{Lu}\.|\p{Lu}\p{Ll}+)"#)
    nonisolated(unsafe) private static let initials = /,\s(?:\p{Lu}\.\s?){1,3}[\s;,(]/
    nonisolated(unsafe) private static let yearThenStop = /\(\d{4}[a-z]?\)[.,]/
    /// "L. van der Maaten and G. Hinton.", "J. R. Smith, …".
    nonisolated(unsafe) private static let initialsLed = expression(
        #"^(?:\p{Lu}\.\s?){1,3}\s?(?:(?:van|von|der|de|den|del|la|le|da|du|di)\s)*\p{Lu}[\p{L}'’\-]+(?:,|"#,
        #"\s(?:and|&|et|und|y)\s)"#)
    nonisolated(unsafe) private static let venue = expression(
        #"\bpp?\.\s?\d|\b\d+\s?[–\-]\s?\d+\b|\b\d+\s?\(\d+\)|\b[Vv]ol\.|\bIn:? \p{Lu}|Proceedings|Journal|"#,
        #"Press\b|\b[Ee]ds?\.|Verlag|Éditions|University|Conference|\bet al\.|https?:\/\/|Hrsg\.|\béd\.|"#,
        #"["“][^"”]{8,}["”]"#)
    nonisolated(unsafe) private static let byline = expression(
        #"^(?:By|BY|Von|Par|Por|Written by|Posted by|Words by|Text by|Reporting by|Story by|Text:|"#,
        #"Von:)\s+(?:(?:van|von|de|der|del|la|le)\s)*\p{Lu}"#)
    nonisolated(unsafe) private static let dateline = expression(
        #"^(?:Published|Updated|Last updated|Posted(?: on)?|First published|Veröffentlicht(?: am)?|"#,
        #"Aktualisiert(?: am)?|Stand:|Publié le|Mis à jour le|Publicado(?: el)?|Actualizado(?: el)?|公開日|"#,
        #"更新日)\b"#)
    nonisolated(unsafe) private static let readingTime = expression(
        #"^(?:\d+\s?(?:min|mins|minutes?)\.?\s+(?:read|de lecture|Lesezeit|de lectura)|"#,
        #"Reading time:?\s*\d|Lesezeit:?\s*\d|Temps de lecture\s*:?\s*\d|Tiempo de lectura:?\s*\d)"#)
    nonisolated(unsafe) private static let share = expression(
        #"^(?:Share(?: this| on| via|$|:)|Subscribe\b|Sign up\b.*(?i:newsletter|updates|inbox|email|free)|"#,
        #"Follow us\b|Join (?:our|the) .*(?i:newsletter|mailing list)|Get (?:our|the) .*(?i:newsletter)|"#,
        #"Newsletter\b|Teilen\b|Abonnieren\b|Folgen Sie uns|Partager\b|Suivez-nous|Abonnez-vous|S'abonner|"#,
        #"Inscrivez-vous|Compartir\b|Suscríbete|Suscribirse|Síguenos|シェア)"#)
    nonisolated(unsafe) private static let credit = expression(
        #"^(?:Photo|Photograph|Photos|Image|Images|Picture|Illustration|Graphic|Credit|Credits|"#,
        #"Photo credit|Image credit|Image source|Source|Foto|Fotos|Bild|Bildquelle|Quelle|Crédit|Crédits|"#,
        #"Crédit photo|Crédito|Créditos|Fuente|Imagen|写真|画像)\s*(?:credit)?\s*[:：]\s*\S"#)
    nonisolated(unsafe) private static let agencyCredit = expression(
        #"(?:\((?:Photo|Image|Picture|Illustration)(?: by| credit| courtesy of)?:?\s[^)]*\)|"#,
        #"\/\s?(?:Getty Images|Reuters|AFP|AP|Associated Press|Shutterstock|Alamy|EPA|Bloomberg|iStock|"#,
        #"Unsplash|Wikimedia Commons|dpa|picture alliance))\)?\.?$"#)
    nonisolated(unsafe) private static let hatnote = expression(
        #"^(?:This article is about|This page is about|For other uses|For the [\p{L} ]+, see|"#,
        #""[^"]+" redirects here|“[^”]+” redirects here|Not to be confused with|Main articles?:|"#,
        #"Further information:|See also:|For more information, see|Article principal|"#,
        #"Articles? détaillés?\s?:|Pour les articles homonymes|Pour l’article homonyme|"#,
        #"Ne doit pas être confondu|Hauptartikel:|Siehe auch:|Dieser Artikel behandelt|"#,
        #"Zu weiteren Bedeutungen|Artículo principal:|Artículos principales:|Véase también:|"#,
        #"Para otros usos|Este artículo trata|No debe confundirse|"#,
        #"詳細は「|「[^」]+」はこの項目へ|この項目では)"#)
    nonisolated(unsafe) private static let coordinates = expression(
        #"^(?:Coordinates|Koordinaten|Coordonnées|Coordenadas|座標)\s*:|"#,
        #"\d{1,3}°(?:\s?\d{1,2}(?:\.\d+)?[′'])?(?:\s?\d{1,2}(?:\.\d+)?[″"])?\s?[NS]\b[\s,]*\d{1,3}°"#)
    nonisolated(unsafe) private static let encyclopediaLine = expression(
        #"^(?:From Wikipedia, the free encyclopedia|Aus Wikipedia, der freien Enzyklopädie|"#,
        #"Un article de Wikipédia, l'encyclopédie libre|"#,
        #"De Wikipedia, la enciclopedia libre|出典: フリー百科事典)"#)
    nonisolated(unsafe) private static let appendix = expression(
        #"^(?:Appendix|Appendices|APPENDIX|Anhang|Annexe|Apéndice|Anexo|付録|補遺)\b"#)
    nonisolated(unsafe) private static let editLink = expression(
        #"\s*\[(?i:edit|edit source|modifier|modifier le code|modifier \| modifier le code|bearbeiten|"#,
        #"quelltext bearbeiten|bearbeiten \| quelltext bearbeiten|editar|editar código|"#,
        #"editar código fuente|編集|ソースを編集)\]"#)
    nonisolated(unsafe) private static let backlink = expression(
        #"^(?:[-*•] |\d{1,3}\. )?[\^↑]\s*(?:(?:[a-z]|\d{1,2}[.,]\d{1,2}|et)\s+)*"#)
}
