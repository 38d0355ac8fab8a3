import Foundation

// MARK: - No empty praise

/// Prose that says nothing about the material: stock praise, talk about the document instead of
/// what it says, and a phrase said again in a loop.
extension ItemRules {
    /// Stock phrases that praise or announce instead of saying something: "a must-read",
    /// "This document covers …", "a short summary of …", "for anyone interested in".
    private static let fillerPatterns: [String] = [
        "must read", "must have", "for anyone interested in", "anyone who wants to", "everything you need to know",
        "a short summary of", "a brief summary of", "a quick summary of", "a short overview of", "a brief overview of",
        "a quick overview of", "a short introduction to", "a brief introduction to", "a comprehensive guide",
        "an essential guide", "essential reading", "json object",
        // The prompts' own words said back (#53): "Supply and demand are the main point in their
        // own terms." and "… a handout for a student's study material, not instructions." (the 0.5B's
        // headlines, RoutingEngine.kitHeadlinePassedOver), from the headline's "the material's main
        // point in its own terms", the shared "a student's study material", "source material, not
        // instructions", "the supplied material", and the summary's "the gist of the material".
        "in its own terms", "in their own terms", "not instructions", "source material", "study material",
        "supplied material", "the material s main point", "gist of the material", "one plain sentence", "quick note",
    ]
    private static let fillerSubjects: Set<String> = [
        "document", "text", "article", "material", "passage", "page", "note", "notes", "summary", "lecture", "study",
        "paper", "content", "overview", "headline", "blurb", "guide", "handout", "sheet", "unit", "chapter", "section",
        "slides", "lesson", "module", "session", "course", "reading",
    ]
    /// The nouns of ``fillerSubjects`` that are always the document, never a thing the material
    /// is about: only these announce it with "is about", "will explain" ("The study is designed
    /// to test …" and "The material is heated …" say something).
    private static let announcingSubjects: Set<String> = [
        "document", "text", "article", "passage", "page", "note", "notes", "handout", "sheet", "slides", "lecture",
        "lesson", "chapter", "section", "unit", "module", "guide", "summary", "overview", "blurb", "headline",
    ]
    /// Words that may stand between "this"/"the" and the document's noun: "this short text",
    /// "the following notes", "these lecture notes".
    private static let documentModifiers: Set<String> = [
        "lecture", "revision", "study", "class", "course", "short", "brief", "following",
    ]
    /// Verbs that make "the document is/are …" about the document: "is about", "are designed to".
    /// Alone, "is" says nothing of the kind ("The material is heated until it melts").
    private static let fillerCopulaNext: Set<String> = [
        "about", "designed", "intended", "meant", "aimed", "written", "organised", "organized", "divided", "structured",
    ]
    /// What a document is when it announces itself: "The text is an introduction to …".
    private static let documentKinds: Set<String> = [
        "introduction", "overview", "summary", "guide", "description", "explanation", "discussion", "review", "outline",
    ]
    /// Openings that talk to the reader instead of saying something: "Learn about the phases of
    /// the Moon, …" (Qwen2.5-Coder-1.5B's blurb on the Moon handout, a calibration verdict of junk).
    private static let readerOpenings: [[String]] = [
        ["learn", "about"], ["learn", "how"], ["learn", "what"], ["learn", "why"], ["discover"], ["find", "out"],
        ["read", "about"], ["explore"], ["get", "to", "know"], ["understand", "how"], ["understand", "the"],
    ]
    private static let fillerModals: Set<String> = ["will", "can", "shall", "should", "would", "may", "aims", "tries"]
    private static let fillerVerbs: Set<String> = [
        "covers", "cover", "describes", "discusses", "explains", "provides", "presents", "contains", "gives",
        "summarizes", "summarises", "introduces", "outlines", "explores", "talks", "looks", "offers", "shows",
        "describe", "discuss", "explain", "provide", "present", "introduce", "outline", "explore", "examines",
        "examine", "reviews", "review", "focuses", "focus", "deals", "addresses", "highlights", "teaches",
    ]
    /// A label the document gives itself, in `words`: a numbered part of a course ("week 7",
    /// "unit 3", "lecture 5", "revision sheet 3"), a kind of document ("lecture notes", "revision
    /// sheet", "club handout"), or notes "on" a subject; `nil` when there is none.
    static func documentLabel(_ words: [String]) -> String? {
        let numbered: Set<String> = [
            "week", "unit", "lecture", "session", "sheet", "lesson", "module", "chapter", "handout", "worksheet",
        ]
        let kinds: Set<String> = ["notes", "sheet", "handout", "slides", "worksheet"]
        let courses: Set<String> = ["lecture", "revision", "study", "class", "course", "club", "seminar", "tutorial"]
        for (index, word) in words.enumerated() {
            let next = words.indices.contains(index + 1) ? words[index + 1] : ""
            if numbered.contains(word), !next.isEmpty, next.allSatisfy(\.isNumber) { return word + " " + next }
            if courses.contains(word), kinds.contains(next) { return word + " " + next }
            if word == "notes", ["on", "about", "for", "covering"].contains(next) { return word + " " + next }
        }
        return nil
    }

    /// Kinds of document a text may open on, with the words that may follow them: "A detailed guide
    /// to the phases of the Moon, …" (the 1.5B's blurb on the Moon handout), "An overview of …".
    /// "introduction" takes only "to" ("An introduction of rabbits to Australia …" is content).
    private static let documentOpeners: [String: Set<String>] = [
        "guide": ["to", "for", "on"], "overview": ["of", "on"], "introduction": ["to"], "summary": ["of", "on"],
        "primer": ["on", "to", "of"], "tutorial": ["on", "to"], "walkthrough": ["of", "on"],
    ]

    /// The opening that names the text as a kind of document instead of saying something: "a/an",
    /// at most two describing words, a kind of ``documentOpeners`` and what it is "to" or "of"
    /// ("a detailed guide to", "a beginner's guide to", "an overview of"); `nil` otherwise.
    private static func documentOpening(_ words: [String]) -> String? {
        guard let first = words.first, ["a", "an"].contains(first) else { return nil }
        for kind in 1...3 where words.indices.contains(kind + 1) {
            guard let next = documentOpeners[words[kind]] else { continue }
            return next.contains(words[kind + 1]) ? words[0...(kind + 1)].joined(separator: " ") : nil
        }
        return nil
    }

    /// Words that name the document itself wherever they stand: "in the notes", "in the handout".
    private static let documentNouns: Set<String> = [
        "notes", "document", "handout", "article", "passage", "slides", "lecture",
    ]
    /// What a writer says they do in the text rather than what the material says: "we discuss",
    /// "we will look at" (#53: the 0.5B's blurb "In the lecture notes, we discuss …").
    private static let discourseVerbs: Set<String> = [
        "discuss", "explore", "examine", "cover", "describe", "introduce", "present", "review", "outline", "explain",
        "consider", "summarize", "summarise", "look", "learn", "study", "focus", "will", "shall", "begin", "start",
    ]

    /// The stock filler phrase in `text`, if any ("must read", "this document covers", "we
    /// discuss", "in these notes"): praise, or talk about the document instead of its material.
    static func stockFiller(in text: String) -> String? {
        let words = text.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
        let joined = " " + words.joined(separator: " ") + " "
        for phrase in fillerPatterns where joined.contains(" " + phrase + " ") { return phrase }
        // "in these notes", "in this text", "in the lecture notes": where, not what. After "the",
        // only a word that is always the document ("in the text" may be a string searched, "in
        // the module" a program's).
        for index in words.indices.dropLast(2)
        where words[index] == "in" && ["this", "these", "the"].contains(words[index + 1]) {
            let noun = words[index + 2]
            let compound = words.indices.contains(index + 3) ? words[index + 3] : ""
            if ["lecture", "revision", "study", "class", "course"].contains(noun), fillerSubjects.contains(compound) {
                return words[index...(index + 3)].joined(separator: " ")
            }
            let named = words[index + 1] == "the" ? documentNouns.contains(noun)
                : fillerSubjects.contains(noun)
                    && !["summary", "study", "content", "overview", "section", "course"].contains(noun)
            if named { return words[index...(index + 2)].joined(separator: " ") }
        }
        // "This document covers …", "The text is about …", "These notes explain …", "This
        // revision sheet covers …", "The following notes will explain …", "The author describes …"
        // anywhere: the document's noun (after at most one modifier), then what it does.
        for index in words.indices.dropLast(2) where ["this", "the", "these"].contains(words[index]) {
            var noun = index + 1
            if documentModifiers.contains(words[noun]), words.indices.contains(noun + 1),
                fillerSubjects.contains(words[noun + 1])
            {
                noun += 1
            }
            guard fillerSubjects.contains(words[noun]), words.indices.contains(noun + 1) else { continue }
            let verb = words[noun + 1]
            let after = words.indices.contains(noun + 2) ? words[noun + 2] : ""
            let third = words.indices.contains(noun + 3) ? words[noun + 3] : ""
            if fillerVerbs.contains(verb) { return words[index...(noun + 1)].joined(separator: " ") }
            // "will explain", "aims to describe": a modal, or "to", before the verb.
            guard announcingSubjects.contains(words[noun]) else { continue }
            if fillerModals.contains(verb), fillerVerbs.contains(after) || discourseVerbs.contains(after)
                || after == "to" && (fillerVerbs.contains(third) || discourseVerbs.contains(third))
            {
                return words[index...(after == "to" ? noun + 3 : noun + 2)].joined(separator: " ")
            }
            // "is about", "are designed to", "is an introduction to".
            if ["is", "are"].contains(verb) {
                if fillerCopulaNext.contains(after) { return words[index...(noun + 2)].joined(separator: " ") }
                if ["a", "an"].contains(after), documentKinds.contains(third) || fillerSubjects.contains(third) {
                    return words[index...(noun + 3)].joined(separator: " ")
                }
            }
        }
        // "Learn about …", "Discover …": the reader addressed, nothing said.
        for opening in readerOpenings where words.starts(with: opening) {
            return opening.joined(separator: " ")
        }
        if let opening = documentOpening(words) { return opening }
        // "…, this is a summary of the study on …", "It is an overview of …": the text announcing
        // itself instead of saying something.
        for index in words.indices.dropLast(3) where ["this", "it", "these", "here"].contains(words[index]) {
            if ["is", "are"].contains(words[index + 1]), ["a", "an", "the", "some"].contains(words[index + 2]),
                fillerSubjects.contains(words[index + 3])
            {
                return words[index...(index + 3)].joined(separator: " ")
            }
        }
        // "Lecture notes, week 7", "Unit 3 notes: how markets set prices", "notes on …": the
        // document's own label (its course, week, sheet), not what it says.
        if let label = documentLabel(words) { return label }
        // "we discuss", "we will look at", "we'll explore": the writer, not the material.
        for index in words.indices.dropLast()
        where words[index] == "we" || words[index] == "let" && words[index + 1] == "us" {
            let letUs = words[index] == "let"
            let next = letUs ? (words.indices.contains(index + 2) ? words[index + 2] : "") : words[index + 1]
            if discourseVerbs.contains(next) || next == "ll" {
                return words[index...min(index + (letUs ? 2 : 1), words.count - 1)].joined(separator: " ")
            }
        }
        return nil
    }

    /// An issue at `path` when `text` is stock filler.
    static func fillerIssue(_ text: String, path: String, what: String) -> ValidationIssue? {
        if let phrase = stockFiller(in: text) {
            return ValidationIssue(
                path: path, message: "uses the stock phrase \"\(phrase)\"; instead state \(what) in plain words")
        }
        if let phrase = repeatedPhrase(in: text) {
            return ValidationIssue(path: path, message: "repeats \"\(phrase)\"; state \(what) once, in plain words")
        }
        return nil
    }

    /// The first run of four words that `text` says again within the next few words ("the law
    /// of inertia: the law of inertia"), or `nil`. Prose that loops is a small model stuck, not a
    /// summary. Two sentences of the material may well share a phrase; a loop repeats it at once.
    static func repeatedPhrase(in text: String) -> String? {
        let words = GroundingWords.normalizedWords(text)
        guard words.count >= 8 else { return nil }
        var last: [String: Int] = [:]
        for start in 0...(words.count - 4) {
            let phrase = words[start..<start + 4].joined(separator: " ")
            // Overlapping runs ("a a a a a") count once they no longer overlap.
            if let previous = last[phrase], (4...Self.loopDistance).contains(start - previous) { return phrase }
            last[phrase] = start
        }
        return nil
    }

    /// Whether `text` is prose a blurb or an overview must not be: stock filler, or a loop.
    static func isEmptyProse(_ text: String) -> Bool {
        stockFiller(in: text) != nil || repeatedPhrase(in: text) != nil
    }

    /// How far apart, in words, a phrase said twice is a loop.
    static let loopDistance = 10
}
