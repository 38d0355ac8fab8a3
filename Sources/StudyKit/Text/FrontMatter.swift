import Foundation

/// Lines that say who wrote a document, where, how to reach them and when — author names with
/// affiliations, e-mail addresses (also the "name at host.org" spelling), URLs and dates. They
/// stay in the text, but they are never a title, a mind-map branch, a key point or a card: a
/// student learns nothing from "Thomas Leonard tal197 at users.sf.net".
enum FrontMatter {
    /// Whether `line` is front matter rather than content.
    static func isFrontMatter(_ line: String) -> Bool {
        let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return false }
        let lower = text.lowercased()
        if containsEmail(lower) || containsURL(lower) { return true }
        if isDate(lower) { return true }
        // A copyright holder: "© 1999-2021, Software in the Public Interest", "2009-2024, The Foo Project".
        if says(lower, "©") || says(lower, "copyright")
            || (startsWithDigit(lower) && matches(copyrightYears, lower))
        {
            return true
        }
        if isLicenceNotice(lower) || isEditionStatement(lower) { return true }
        // A reading time: "6 min read", "Reading time: 4 minutes".
        if (says(lower, "min") && says(lower, "read") && matches(readingTime, lower))
            || lower.hasPrefix("reading time")
        {
            return true
        }
        let words = lower.split(whereSeparator: { $0 == " " || $0 == "," })
        // "Version 0.21", "Revision 3", "Copyright © 2018 …", "Draft", "Last updated …".
        if let first = words.first,
            ["version", "revision", "copyright", "©", "draft", "updated", "last"].contains(String(first)),
            words.count <= 8
        {
            return true
        }
        if words.first.map({ ["by", "author:", "authors:", "editor:", "editors:"].contains(String($0)) }) == true,
            words.count <= 10 {
            return true
        }
        return false
    }

    /// A licence notice at any length: "This manual is free software; you can redistribute it
    /// and/or modify it under the terms of the GNU General Public License …", "All rights
    /// reserved." A licence named in the material's own sentences ("The GPL lets users share
    /// changed code") is content: a notice also speaks to the reader about this very work.
    static func isLicenceNotice(_ lower: String) -> Bool {
        if standalonePhrases.contains(where: { says(lower, $0) }) { return true }
        guard licencePhrases.contains(where: { says(lower, $0) }) else { return false }
        return noticeWording.contains(where: { says(lower, $0) })
    }

    /// The document saying which edition it is, at any length: "This is version 0.21 of the
    /// Shared MIME-info Database specification, last updated 2 October 2018", "… library for the
    /// GNU system for version 4.19.0, 18 August 2022", Texinfo's "This manual is for GNU Libtasn1
    /// (version 4.19.0, 18 August 2022), which is …". A version or a date in the material's own
    /// sentences ("Python 3.0, released in December 2008, broke compatibility") is content: an
    /// edition statement names the version the document is for, and dates it.
    static func isEditionStatement(_ lower: String) -> Bool {
        guard editionWording.contains(where: { says(lower, $0) }), matches(versionNumber, lower)
            || says(lower, "last updated") else {
            return false
        }
        return matches(datedYear, lower)
    }

    /// A heading over a licence or copyright notice: "Copyright", "1. License", "Legal notice".
    static func isLegalHeading(_ heading: String) -> Bool {
        if namesLicence(heading) { return true }
        let words = headingWords(heading).map { $0.lowercased() }
        guard (1...3).contains(words.count) else { return false }
        let named = words.filter { !["and", "the", "of", "notice", "notices", "information", "terms"].contains($0) }
        return !named.isEmpty
            && named.allSatisfy { ["copyright", "license", "licence", "licensing", "legal", "copying",
            "permissions"].contains($0) }
    }

    /// Whether a line under a legal heading reads as a notice too: a licence notice, a copyright
    /// line with its symbol or a year ("© 2020 The Foo Authors", "Copyright 1999 Jane Doe",
    /// "1999-2021, Software in the Public Interest"), or a line that speaks of licences, warranty,
    /// permissions or rights. A macro named COPYRIGHT ("Macro: COPYRIGHT [COVER | DOC_COVER]
    /// "<copyright info>"") is a manual's content under a heading that only looks legal.
    static func readsAsLegal(_ line: String) -> Bool {
        let lower = line.lowercased()
        if isLicenceNotice(lower) || says(lower, "©") || says(lower, "(c)")
            || (startsWithDigit(lower) && matches(copyrightYears, lower))
            || (says(lower, "copyright") && matches(year, lower))
        {
            return true
        }
        return legalWording.contains { says(lower, $0) }
    }

    /// Words a legal notice is made of and a manual's content about a macro is not.
    private static let legalWording = [
        "license", "licence", "licensed", "licensing", "warranty", "warranties", "permission", "rights reserved",
        "trademark", "public domain", "redistribut",
    ]

    /// A heading that is a licence's name, every word capitalised: "GNU Free Documentation
    /// License", "A.1 GNU General Public License", "Apache License". The licence's own numbered
    /// sections follow it.
    static func namesLicence(_ heading: String) -> Bool {
        let words = headingWords(heading)
        guard (2...5).contains(words.count), let last = words.last,
            ["license", "licence"].contains(last.lowercased()) else { return false }
        return words.allSatisfy { $0.first?.isUppercase == true }
    }

    /// A heading's words without its label: "Appendix A Copying Information" → Copying, Information.
    private static func headingWords(_ heading: String) -> [String] {
        var words = heading.split { !($0.isLetter) }.map(String.init)
        if words.first?.lowercased() == "appendix" { words.removeFirst() }
        if let first = words.first, first.count == 1, first.allSatisfy(\.isUppercase) { words.removeFirst() }
        return words
    }

    /// Said only in notices, whatever else the sentence says.
    private static let standalonePhrases = [
        "all rights reserved", "merchantability", "fitness for a particular purpose", "you can redistribute it",
        "you may redistribute it", "permission is granted", "copy of the license is included",
        "copy of the licence is included",
    ]
    private static let licencePhrases = [
        "public license", "documentation license", "creative commons", "licensed under", "without any warranty",
        "without warranty", "in the hope that it will be useful", "mit license", "apache license",
        "terms of the license",
    ]
    private static let noticeWording = [
        "you can redistribute", "you may redistribute", "you can copy", "you may copy", "you may not use",
        "this manual", "this document", "this program", "this work", "this file", "this software", "this book",
        "this page",
        "this library", "this guide", "this article", "this site",
    ]

    private static let editionWording = ["this is version", "for version", "manual is for", "last updated",
        "last modified", "last revised", "this edition"]

    /// `x@y.z`, or the obfuscated `x at y.z` / `x [at] y dot z`.
    static func containsEmail(_ lower: String) -> Bool {
        // Each expression needs a literal the bytes are searched for first: "@", or "[at]", "(at)", " at ".
        (says(lower, "@") && matches(email, lower))
            || ((says(lower, " at ") || says(lower, "[at]") || says(lower, "(at)")) && matches(spelledEmail, lower))
    }

    /// `http://`, `https://`, `www.` or a bare `example.org/path`.
    static func containsURL(_ lower: String) -> Bool {
        says(lower, "http://") || says(lower, "https://") || says(lower, "www.")
            || (domainEndings.contains { says(lower, $0) } && matches(bareDomain, lower))
    }

    /// A line that is only a date: "2 October 2018", "October 2, 2018", "2018-10-02", "10/02/2018", "March 2019".
    static func isDate(_ lower: String) -> Bool {
        // Every form is the whole line, opens with a digit (`\d`, a decimal digit of any script) or
        // a month's first letter, and ends with a digit (or ICU's `$` before a final line break):
        // most lines are ruled out without an expression.
        guard let first = lower.unicodeScalars.first, let last = lower.unicodeScalars.last,
            first.properties.generalCategory == .decimalNumber || "jfmasond".unicodeScalars.contains(first),
            last.properties.generalCategory == .decimalNumber
            || "\n\r\u{0B}\u{0C}\u{85}\u{2028}\u{2029}".unicodeScalars.contains(last)
        else { return false }
        return dates.contains { matches($0, lower) }
    }

    /// `text.contains(phrase)`, read from the bytes first (``Swift/String/includes(_:)``): a line is
    /// checked for some thirty phrases.
    static func says(_ text: String, _ phrase: String) -> Bool { text.includes(phrase) }

    /// Whether `text` opens with a decimal digit of any script (ICU's `\d`).
    private static func startsWithDigit(_ text: String) -> Bool {
        text.unicodeScalars.first?.properties.generalCategory == .decimalNumber
    }

    // MARK: Expressions, compiled once (a line is checked against several of them)

    private static let email = expression(#"[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}"#)
    private static let spelledEmail =
        expression(#"\b[a-z0-9._%+-]+\s*(\[at\]|\(at\)| at )\s*[a-z0-9-]+(\.| dot )[a-z0-9.-]*[a-z]{2,}\b"#)
    private static let domainEndings = [".org", ".com", ".net", ".edu", ".gov", ".io"]
    private static let bareDomain = expression(#"\b[a-z0-9-]+\.(org|com|net|edu|gov|io)(/|\b)"#)
    private static let copyrightYears = expression(#"^\d{4}\s*[-–]\s*\d{4},\s"#)
    private static let versionNumber = expression(#"\bversion v?\d+(\.\d+)+"#)
    private static let datedYear = expression(
        #"\b(january|february|march|april|may|june|july|august|september|october|november|december) "#
            + #"(\d{1,2},? )?\d{4}\b|\b\d{4}-\d{2}-\d{2}\b"#)
    private static let year = expression(#"\b(1[89]|20)\d{2}\b"#)
    private static let readingTime = expression(#"\b\d+\s*(min|mins|minute|minutes)\s+read\b"#)
    private static let dates: [NSRegularExpression] = {
        let months =
            "(january|february|march|april|may|june|july|august|september|october|november|december|"
            + "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\\.?"
        return [
            "^\\d{1,2}(st|nd|rd|th)? \(months),? \\d{4}$", "^\(months) \\d{1,2}(st|nd|rd|th)?,? \\d{4}$",
            "^\(months),? \\d{4}$",
            "^\\d{4}-\\d{2}-\\d{2}$", "^\\d{1,2}[./]\\d{1,2}[./]\\d{2,4}$",
        ].map(expression)
    }()

    private static func expression(_ pattern: String) -> NSRegularExpression {
        try! NSRegularExpression(pattern: pattern)
    }

    private static func matches(_ expression: NSRegularExpression, _ text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}

