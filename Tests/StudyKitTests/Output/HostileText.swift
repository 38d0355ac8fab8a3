@testable import StudyKit

/// A model answer written to break out of an HTML page: script tags, an `</script>` inside a
/// string, event-handler attributes, `javascript:` links, attribute breakouts and line
/// separators, in every field the page shows (and in the envelope's notes and model name).
/// Any of them that ran would mark the page with `data-pwned`.
enum HostileText {
    static let closeScript = "</script><script>document.documentElement.setAttribute('data-pwned','script')</script>"
    static let image = "<img src=x onerror=\"alert(1);document.documentElement.setAttribute('data-pwned','img')\">"
    static let link = "[click me](javascript:document.documentElement.setAttribute('data-pwned','link'))"
    static let rawLink = "<a href=\"javascript:alert(1)\">open</a>"
    static let attribute = "\" onmouseover=\"document.documentElement.setAttribute('data-pwned','attr')\" x=\""
    static let svg = "<svg onload=\"document.documentElement.setAttribute('data-pwned','svg')\"></svg>"
    static let separators = "line\u{2028}break\u{2029}para <!-- comment"

    static let kit = StudyKitBundle(
        headline: Headline(title: "Cells " + closeScript, blurb: "How cells work " + image + "."),
        summary: Summary(
            overview: "Cells make ATP. " + rawLink + " They use oxygen " + separators + ".",
            keyPoints: ["Point " + attribute, "Point " + svg, "Point " + link]),
        flashcards: Flashcards(cards: [
            .init(question: "What is " + closeScript + "?", answer: "An answer " + image, quote: "Quote " + link),
            .init(question: "Second " + attribute, answer: "Answer " + svg, quote: "Quote " + separators),
            .init(question: "Third " + rawLink, answer: "Answer " + closeScript, quote: "Quote " + image),
        ]),
        quiz: Quiz(questions: [
            .init(prompt: "First " + closeScript, choices: [image, svg, rawLink, "plain"], answerIndex: 0, explanation: "Because " + link,
                  quote: "Quote " + closeScript),
            .init(prompt: "Second " + image, choices: ["a " + attribute, "b", "c " + closeScript, "d"], answerIndex: 2,
                  explanation: "Because " + separators, quote: "Quote " + image),
            .init(prompt: "Third " + svg, choices: ["one", "two", "three", "four " + image], answerIndex: 3, explanation: closeScript,
                  quote: "Quote " + attribute),
        ]),
        mindMap: MindMap(centralTopic: "Map " + closeScript, branches: [
            .init(label: "Branch " + image, children: [.init(label: "Child " + attribute), .init(label: "Child " + svg)]),
            .init(label: "Branch " + rawLink, children: [.init(label: "Child " + separators)]),
        ]))

    /// A podcast whose every field carries a payload: title, host names (and so speakers),
    /// lines, quotes (one read out in its line, one not) and recap.
    static let podcast = PodcastScript(
        title: "Show " + closeScript,
        hosts: [.init(name: "Maya " + image, role: .curious), .init(name: "Theo " + svg, role: .explainer)],
        turns: [
            .init(speaker: "Maya " + image, line: "What is " + closeScript + "?"),
            .init(speaker: "Theo " + svg, line: "It says: Quote " + attribute + " indeed.", quote: "Quote " + attribute),
            .init(speaker: "Maya " + image, line: "And " + rawLink + "?"),
            .init(speaker: "Theo " + svg, line: "Put another way " + link, quote: "Quote " + closeScript),
        ],
        recap: ["First " + closeScript, "Second " + image, "Third " + separators])

    /// An envelope whose notes and model name carry the payloads too.
    static let envelope: JSONValue = [
        "task": "import", "engine": "remote", "model": .string("evil-model " + closeScript),
        "fitted": ["cut": true, "keptCharacters": 500, "totalCharacters": 1000],
        "cached": false, "fallbacks": [["engine": "local", "reason": .string("refused " + image)]],
        "items": [
            ["path": "cards[0]", "provenance": "rewritten", "note": .string("rephrased by " + closeScript)],
            ["path": "cards[1]", "provenance": "extracted", "note": .string(image)],
        ],
    ]

    static func context() -> RenderContext {
        var context = RenderContext(sourceIdentity: "/tmp/hostile.pdf", title: "Title " + closeScript, digest: OutputFixtures.fnv1a)
        context.envelope = envelope
        return context
    }
}
