import Foundation

/// Whether a sentence reads on its own, away from the text around it: the rule a builtin key
/// point, cloze and blurb are chosen by, and a model's key point is judged by (Tasks'
/// ``ModelAnswerRules``, Routing's ``PartJudge``). Text's, so that every layer may ask it.
enum StandaloneSentence {
    /// Whether a sentence reads on its own, away from the text around it: it opens with no word
    /// that points back (``ProseText/leansOnContext(_:)``, which the podcast and the cards use
    /// too: "This is useful when …", "They are two examples …"), it sends the reader nowhere else
    /// (``pointsElsewhere(_:)``), and its brackets close ("(In Python, the term method is not
    /// unique …" lost its close in a split).
    static func readsOnItsOwn(_ unit: String) -> Bool {
        // As the reader sees it: a list item's "1." or "- " is no word of the sentence.
        let text = ProseText.withoutListMarker(ProseText.oneLine(unit))
        let lower = text.lowercased()
        func matches(_ expression: NSRegularExpression) -> Bool { expression.firstMatch(in: lower,
            range: NSRange(lower.startIndex..., in: lower)) != nil }
        let leans = (ProseText.leansOnContext(text) || matches(leaningExpression))
            && !matches(selfContainedExpression)
        // A bracket left open ("[This document will be expanded …" of an editor's note) is a
        // piece of an aside, not a statement.
        return !leans && !pointsElsewhere(text)
            && text.count(where: { $0 == "(" }) == text.count(where: { $0 == ")" })
            && text.count(where: { $0 == "[" }) == text.count(where: { $0 == "]" })
    }

    /// The patterns of a list as one expression, compiled once: it matches where any of them does.
    /// (`range(of:options: .regularExpression)` compiled each pattern anew for every sentence of
    /// a book; one pass of one expression also reads each sentence once.)
    private static func anyOf(_ patterns: [String]) -> NSRegularExpression {
        try! NSRegularExpression(pattern: patterns.map { "(?:\($0))" }.joined(separator: "|"))
    }

    /// ``leaningOpenings`` and ``backReferringPhrases``: what makes a sentence lean on the one before.
    private static let leaningExpression = anyOf(leaningOpenings + backReferringPhrases)
    private static let selfContainedExpression = anyOf(selfContainedOpenings)
    private static let referenceExpression = anyOf(referencePatterns)

    /// Openings that continue an argument begun before: a step of an enumeration ("Third,
    /// logger objects …"), a contrast or an example of something said ("In contrast, …", "For
    /// example, …", "The former …"), or a pointing word within the first words ("Usually this
    /// is …", "In fact, this …", "Note that it …", "With this sources.list file …").
    private static let leaningOpenings = [
        #"^(first|second|third|fourth|finally|lastly|next|then|in contrast|by contrast|for example|"#
            + #"for instance|for one thing|on the other hand|as a result|otherwise|instead|likewise|similarly|"#
            + #"moreover|furthermore|additionally|therefore|thus|hence|actually|in that case|in this case|"#
            + #"in those cases|in either case|in both cases),"#,
        #"^(the former|the latter|in that|in those|in these|first|second|third|fourth|finally|lastly|now that)\b"#,
        #"^([a-z]+,? ){0,2}(this|these|those|it|they)\b"#,
        // A step of a narrative ("Now we do the same thing for decompression …", "The next day
        // the new National Convention met …").
        #"^now,? (we|you|let's|let us|i)\b"#,
        // The rest of a sentence after its conjunction ("and for the PROCEEDINGS entry type it's …").
        #"^(and|but|or|nor|yet)\b"#,
        #"^(on |in )?the (next|following|previous|same) (day|week|month|year|morning|evening|night|time)\b"#,
    ]

    /// A noun phrase that can only mean something said just before ("to store this choice",
    /// "these last two lines", "answers to these three questions", "in this direction").
    private static let backReferringPhrases = [
        #"\b(this|these|those) (last |three |two |four )?(purpose|choice|direction|questions?|lines|approach|"#
            + #"situation|problem|method|step|steps|way)\b"#,
        #"\bthe (above|previous|preceding) (example|section|command|list|code|table)\b"#,
        // What was said before, by the words that say so ("the “author” information described
        // above", "In addition to the fields listed above", "The same restrictions apply as above",
        // "Now we do the same thing for …").
        #"\b(described|listed|mentioned|shown|given|defined|discussed|explained|noted|introduced|"#
            + #"presented) (above|earlier|before|previously)\b"#,
        #"\b(as|from|than) (above|before)\b"#,
        #"\b(just|previously) (introduced|described|mentioned|discussed|shown)\b"#,
        #"\b(do|does|did|doing) the same\b"#,
        // "Some parish priests did so, and …": what they did is in the sentence before.
        #"\b(do|does|did|doing) so\b"#,
        #"\bthe same (thing|things|way|steps?|procedure)\b"#,
        // A verb left out because the sentence before said it ("You don't have to, though, …").
        #"\b(have|has|had|need|needs|want|wants|ought) to(,|\.|$)"#,
    ]

    /// Openings with a pointing word that point at nothing before: the material itself ("This
    /// chapter describes …"), "There are two kinds …", "It is possible to …".
    private static let selfContainedOpenings = [
        #"^(this|these) (chapter|section|article|tutorial|document|documentation|book|guide|howto|how-to|page|"#
            + #"manual|handbook|part)s?\b"#,
        #"^there( is| are| was| were|'s| exist)\b"#,
        #"^it( is|'s| was)( also| often| not| usually| always)? (possible|important|useful|necessary|common|"#
            + #"easy|hard|difficult|recommended|advisable|a good idea) (to|that)\b"#,
        #"^([a-z]+,? ){0,2}(this|these) (chapter|section|article|tutorial|document|documentation|book|guide|"#
            + #"howto|how-to|page|manual|handbook)s?\b"#,
    ]

    /// Whether a sentence refers the reader to another place of the material or to a later
    /// moment ("see the list in sidebar COMMUNITY …", "(see Section 12.3.2, …)", "Later we will
    /// see …", "… is illustrated in the following diagram", "More information can be found in
    /// …"): an instruction to the reader, not a point of the subject.
    static func pointsElsewhere(_ text: String) -> Bool {
        let lower = text.lowercased()
        return referenceExpression.firstMatch(in: lower, range: NSRange(lower.startIndex..., in: lower)) != nil
    }

    private static let referencePatterns = [
        #"(^|[(,;—–-]\s*)see\s"#,
        #"\bsidebar\b"#,
        #"\b(see|in) (section|chapter|appendix) [0-9]"#,
        #"\b(in|by) the following\b"#,
        #"\bthe following (example|diagram|figure|table|section|chapter|list|code)\b"#,
        #"^(later|below|above|next|earlier|previously),? (we|you)\b"#,
        #"\b(we|you)('ll| will| shall) (come back|return) to\b"#,
        #"^(we|i)('ll| will| shall) (now |first |then )?(describe|explain|discuss|cover|show|see|look at|"#
            + #"go on|start|begin)\b"#,
        #"\b(is|are|was|were|will be|be) (explained|discussed|described|covered|shown|seen|presented) (later|"#
            + #"below|above|earlier|previously|in (the )?(next|following|previous))\b"#,
        #"\b(more|further) (information|details) (can|may) be found\b"#,
        #"\bfor (more|further) (information|details)\b"#,
        #"\bfor (a|the) (more|further|fuller|complete|full|detailed) (detailed |complete )?(description|"#
            + #"discussion|explanation|treatment|account|list)\b"#,
        // Forward to a list or block the sentence introduces ("The following are the standard
        // entry types …"), and a request to the reader ("Please report typos …").
        #"^the following (is|are)\b"#,
        #"^please\b"#,
        #"\bdetails\b.*\b(are|is) (available|given|described) in\b"#,
        #"\bin (this|that|the above|the previous|the next) example\b"#,
        #"\bin the examples? (above|below)\b"#,
    ]
}
