import Testing
@_spi(Benchmarks) @testable import StudyKit

/// A summary and a blurb are read away from the text around their sentences: none may lean on a
/// sentence it lacks ("This is useful when …") or send the reader elsewhere ("Later we will see
/// …", "see the list in sidebar …").
@Suite struct BuiltinStandaloneTests {
    /// A tutorial's section whose most central sentences lean on the one before or point elsewhere.
    static let tutorial = """
        # Function Arguments

        Python functions accept positional arguments and keyword arguments in a function call.

        Keyword arguments name the parameter they set, so the order of keyword arguments in the call does not matter.

        Positional arguments are matched to the parameters of the function by their position in the function call.

        A function can declare positional-only parameters with a slash in its list of parameters and arguments.

        This is useful when parameter names have no real meaning for the positional arguments of the function call.

        They are two kinds of arguments that every function call in Python accepts from its caller.

        Later we will see more functions that take keyword arguments and positional arguments in a call.

        For more details on positional arguments and keyword arguments, see the list in sidebar TIP Function calls.

        Default values of parameters are evaluated once, when the function definition is executed by Python.

        A function call with too few positional arguments for its parameters raises a TypeError at once.

        The default values of parameters are evaluated in the defining scope, so that

        Keyword arguments must follow positional arguments in every function call that uses both kinds.
        """

    static let leaning = ["This is useful", "They are two kinds", "Later we will see", "see the list in sidebar", "so that."]

    @Test func theSummaryHasNoSentenceThatNeedsAnother() throws {
        guard case .summary(let summary) = try BuiltinEngine().generate(.summary, text: Self.tutorial, title: nil)
        else { throw CancellationError() }
        for item in [summary.overview] + summary.keyPoints {
            for phrase in Self.leaning { #expect(!item.contains(phrase), "\(item)") }
        }
        #expect(summary.keyPoints.count >= 3)
    }

    /// The lead sentence sends the reader to a sidebar: the blurb is the next best sentence.
    @Test func theBlurbReadsOnItsOwn() throws {
        let text = Self.tutorial.replacingOccurrences(
            of: "in a function call.\n", with: "in a function call (see the list in sidebar TIP Function calls).\n")
        #expect(text != Self.tutorial)
        guard case .headline(let headline) = try BuiltinEngine().generate(.headline, text: text, title: nil)
        else { throw CancellationError() }
        for phrase in Self.leaning { #expect(!headline.blurb.contains(phrase), "\(headline.blurb)") }
        #expect(!headline.blurb.isEmpty)
    }

    /// A run-on sentence (no period in 60 words) is cut into pieces for the cards; a piece is
    /// no sentence of a summary ("Static version of busybox …, which is even more.").
    @Test func aPieceOfARunOnSentenceIsNoKeyPoint() throws {
        let runOn = "If your system suffered some even more outrageous fortune and even these archive tools do not work "
            + "because the deepest system libraries of the package manager are missing you should try the static version "
            + "of the archive tool provided in the static package which is even more self contained and provides "
            + "subcommands for every archive format the package manager needs to install a package by hand"
        let text = Self.tutorial + "\n\n" + runOn + "\n"
        var pieces: [String] = []
        for unit in BuiltinAnalysis(text: text, title: nil).units {
            let words: String = unit.text
            if words.contains("outrageous") || words.contains("self contained") { pieces.append(words) }
        }
        #expect(pieces.count >= 2, "the run-on is cut: \(pieces)")
        guard case .summary(let summary) = try BuiltinEngine().generate(.summary, text: text, title: nil)
        else { throw CancellationError() }
        for item in [summary.overview] + summary.keyPoints {
            for phrase in ["outrageous fortune", "archive tool", "self contained", "archive format"] {
                #expect(!item.contains(phrase), "\(item)")
            }
        }
    }

    @Test(arguments: [
        ("Now that our virtual machine image is ready, let's start the container.", false),
        ("We will describe a few prerequisites, then go on to the network configuration.", false),
        ("This is useful when parameter names have no real meaning.", false),
        ("They are two examples of sequence data types.", false),
        ("Later we will see more functions that return iterables.", false),
        ("Name the distribution by its codename — see the list in sidebar COMMUNITY Bruce Perens.", false),
        ("A system boots from several media (see NOTE UEFI, a modern replacement to the BIOS) today.", false),
        ("The flow of log event information is illustrated in the following diagram.", false),
        ("More information can be found in the printf-style String Formatting section.", false),
        ("(In Python, the term method is not unique to class instances: other types have methods.", false),
        ("Third, logger objects pass along relevant log messages to all interested handlers.", false),
        ("1. First, the initial list is decorated with new values that control the sort order.", false),
        ("Finally comes the question of the key to use for the Compose key.", false),
        ("It is useful for code that must be executed if the try clause does not raise an exception.", false),
        ("The locale file will then be modified to store this choice.", false),
        ("Usually this is implemented by converting the string into some encoding.", false),
        ("In this example, the echo module is imported in the current namespace.", false),
        ("In this document, we take a tour of the features suitable for a functional style.", true),
        ("This chapter describes some things you have learned about already in more detail.", true),
        ("There are two distinguishable kinds of errors: syntax errors and exceptions.", true),
        ("It is also possible to define functions with a variable number of arguments.", true),
        ("Keyword arguments must follow positional arguments (in any call).", true),
        // Session 31: manuals and guides.
        ("When creating a label, the alpha style uses the author information described above.", false),
        ("In addition to the fields listed above, each entry type also has an optional key field.", false),
        ("The following are the standard entry types, along with their required and optional fields.", false),
        ("Now we do the same thing for decompression in the inf() routine.", false),
        ("For a more detailed description of the natbib package, read the source file natbib.dtx.", false),
        ("The same restrictions apply as above except that the argument may contain unbalanced braces.", false),
        ("The next day the new National Convention met and abolished the monarchy.", false),
        ("and for the PROCEEDINGS entry type it is the editor field.", false),
        ("Please report typos, omissions and unclear explanations to the mailing list.", false),
        ("[This document will be expanded when BibTeX version 1.00 comes out.", false),
        ("This documentation, for BibTeX version 0.99b, is meant for general BibTeX users.", true),
        ("Modules to be byte-compiled should use the same Python version as the package itself.", true),
        ("You don't have to, though, since Memcheck is the default tool.", false),
    ])
    func readsOnItsOwn(_ sentence: String, _ expected: Bool) {
        #expect(StandaloneSentence.readsOnItsOwn(sentence) == expected)
    }

    /// A blurb or an overview opens the material: no "these messages", "this handler" that the
    /// text named before (a key point may, once the rules above let it read on its own).
    @Test(arguments: [
        ("If you don't want these messages printed, attach a do-nothing handler to the logger.", false),
        ("An instance of this handler could be added to the top-level logger of the library.", false),
        ("As part of making such internal changes the team checks for such usage in packages.", false),
        ("Kpathsea supports features such as layered default values in its search paths.", true),
        ("To use Debian, you need to install it on a computer; this task is taken care of by the installer.", true),
        ("This manual documents the Kpathsea library for path searching.", true),
        ("Bibliography-style designers should read this document and then the styles guide.", true),
        ("Classes provide a means of bundling data and functionality together.", true),
    ])
    func opensOnItsOwn(_ sentence: String, _ expected: Bool) {
        #expect(BuiltinEngine.opensOnItsOwn(sentence) == expected)
        #expect(StandaloneSentence.readsOnItsOwn(sentence))
    }

    /// A manual that opens with an editor's bracketed note ("[This document will be expanded …
    /// Please report typos …]") says what it is in the next paragraph; its most central sentences
    /// lean on what came before ("described above") or point forward ("The following are …").
    static let manual = """
        # BibTeXing

        [This document will be expanded when BibTeX version 1.00 comes out. Please report typos, omissions and unclear explanations to the maintainers of the bibliography tools. Suggestions for improvements are wanted and welcome.]

        This documentation, for BibTeX version 0.99b, is meant for general BibTeX users who write bibliography entries.

        The following are the standard entry types, along with their required and optional fields, that the standard bibliography styles use.

        When creating a label, the alpha style uses the author information described above, but the key field of the entry takes precedence over the organization field.

        In addition to the fields listed above, each entry type also has an optional key field, used by the styles for alphabetizing the entry.

        Each entry type of the database has required fields and optional fields that the bibliography styles print.

        BibTeX ignores any field of an entry that is not required or optional, so the database may hold any fields.

        The alpha style forms a label for each entry from the author field and the year field of the entry.

        The plain style sorts the entries of the reference list by author, then by year, then by title.

        A cross-referenced entry in the database gives its missing fields to every entry that cites it.

        Misspelling a field name in a database entry makes BibTeX ignore the field without a warning.

        The abbrv style abbreviates first names, month names and journal names in the reference list.
        """

    @Test func aManualsBlurbAndOverviewSayWhatItIs() throws {
        let engine = BuiltinEngine()
        guard case .headline(let headline) = try engine.generate(.headline, text: Self.manual, title: nil),
            case .summary(let summary) = try engine.generate(.summary, text: Self.manual, title: nil)
        else { throw CancellationError() }
        #expect(headline.blurb.hasPrefix("This documentation, for BibTeX version 0.99b, is meant for general BibTeX users"), "\(headline.blurb)")
        #expect(summary.overview.hasPrefix("This documentation, for BibTeX"), "\(summary.overview)")
        for phrase in ["described above", "listed above", "The following are", "will be expanded", "Please report"] {
            #expect(!headline.blurb.contains(phrase) && !summary.overview.contains(phrase), "\(phrase)")
        }
    }

    /// One card per notion ("entry" is no new card after "entry type"), no blank that takes part
    /// of a coordinated phrase ("required fields and _____"), and no card or key point from the
    /// editor's note ("Please report typos …", "… wanted and welcome.]").
    @Test func aManualsCardsAskOneNotionEach() throws {
        let engine = BuiltinEngine()
        guard case .flashcards(let deck) = try engine.generate(.flashcards, text: Self.manual, title: nil),
            case .summary(let summary) = try engine.generate(.summary, text: Self.manual, title: nil)
        else { throw CancellationError() }
        let keys = deck.cards.map { TermNormalizer.words(in: $0.answer).map(\.stem).joined(separator: " ") }
        for (i, a) in keys.enumerated() {
            for b in keys[(i + 1)...] { #expect(!ClozeBuilder.overlaps(a, b), "\(a) / \(b)") }
        }
        #expect(deck.cards.count >= 3)
        for card in deck.cards {
            #expect(!card.question.contains("and _____") && !card.question.contains("Please"), "\(card.question)")
        }
        for point in summary.keyPoints { #expect(!point.contains("Please") && !point.contains("]"), "\(point)") }
    }

    /// A plain-text page that opens on a title over its subtitle, with no blank line between them.
    static let titledNotes = """
        Glaciers and Ice Ages, 2.6 million years
        Physical geography, handout 7

        A glacier is a mass of ice that moves slowly downhill under its own weight.
        Glaciers form where more snow falls in winter than melts in summer, year after year.
        As a glacier moves, it scrapes the rock beneath it and carries boulders far from where they formed.
        The last ice age ended about 11,700 years ago, when the great ice sheets of the north melted back.
        Sea level was about 120 metres lower at the height of the last ice age than it is today.
        Moraines are ridges of rock and gravel that a glacier pushed or dropped at its edges.
        Ice cores drilled from glaciers hold bubbles of old air that record past climates.
        """

    @Test(arguments: [
        ("Glaciers and Ice Ages, 2.6 million years\nPhysical geography, handout 7", true),
        ("The Black Plague\nLecture 3\nSpring term", true),
        // A wrapped sentence ends as one on its last line.
        ("Glaciers form where more snow falls in winter\nthan melts in summer, year after year.", false),
        // One line is a heading's business, not a block's.
        ("Glaciers and Ice Ages", false),
        // A line too long for a title is prose cut short, judged elsewhere.
        ("A glacier is a mass of ice that moves slowly downhill under its own weight and\nscrapes", false),
    ])
    func aBlockOfShortUnfinishedLinesIsNoSentence(text: String, isBlock: Bool) {
        #expect(BuiltinEngine.isLineBlock(text) == isBlock)
    }

    @Test func aTitleOverItsSubtitleIsNeitherAKeyPointNorTheOverview() throws {
        guard case .summary(let summary) = try BuiltinEngine().generate(.summary, text: Self.titledNotes, title: nil)
        else { Issue.record("not a summary"); return }
        for text in [summary.overview] + summary.keyPoints {
            #expect(!text.contains("handout 7"), "\(text)")
            #expect(!text.contains("2.6 million years"), "\(text)")
        }
    }
}
