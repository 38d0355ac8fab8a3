import Foundation
import Testing
@_spi(Benchmarks) @testable import StudyKit

/// The mind map of chapters and manuals as a student reads them (session 30): the document's
/// sections as branches, at their depth, from its start, and no line of code as a label.
@Suite struct BuiltinMindMapTests {
    private func map(_ text: String, title: String? = nil) throws -> MindMap {
        guard case .mindMap(let map) = try BuiltinEngine().generate(.mindmap, text: text, title: title) else {
            throw CancellationError()
        }
        return map
    }

    /// A sentence of about a dozen words about `topic`, `count` times over.
    private func body(_ topic: String, sentences count: Int = 2) -> String {
        (1...count).map { "The \(topic) rule number \($0) explains how students apply the \(topic) method in practice." }
            .joined(separator: " ")
    }

    /// samples/notes.pdf and the supply-and-demand notes of samples/eval: the keyphrase extractor
    /// took "absorbs light", "reduce NADP" (the text says "reduces" too) and "buyers want" for
    /// terms of their sections. Pieces of clauses are no branch's terms while there are terms
    /// enough; "civil war" or "new version", whose first words the text never inflects, are terms.
    @Test(arguments: [
        ("samples/notes.pdf", ["absorbs light", "reduce NADP"]),
        ("samples/eval/en-economics-supply-demand.txt", ["buyers want"]),
    ])
    func aSectionsTermsAreNoPiecesOfClauses(sample: String, pieces: [String]) async throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(sample).path
        let document = try await Importer().load(.file(path))
        let map = try map(document.text, title: document.title)
        let terms = map.branches.flatMap(\.children).map(\.label)
        #expect(terms.count >= 20, "\(terms)")
        for piece in pieces { #expect(!terms.contains(piece), "\(terms)") }
    }

    /// A tutorial chapter whose subsection has subsections ("4.8.3.1" under "4.8.3"): the
    /// sub-subsections are the subsection's children, not its siblings.
    /// A word with an adjective's ending that a section writes only before another content word
    /// qualifies a term ("royal family", "constitutional monarchy") and is no child of its own;
    /// one it also writes alone, and any plural before its verb ("riots broke out"), stays.
    @Test func aWordOnlyWrittenBeforeAnotherIsNoChildOfItsOwn() {
        let units = SentenceSplitter().split("""
            The royal family fled to Varennes, and the royal veto angered Paris.             Riots broke out over a constitutional monarchy. Everyone was equal before the law,             and equal rights were promised. The oceanic crust sinks; the crust is oceanic.
            """)
        let modifiers = BuiltinEngine.onlyModifiers(in: units.map { TermNormalizer.words(in: $0.text) })
        #expect(modifiers == ["royal", "constitutional"], "\(modifiers)")
    }

    @Test func aSubsectionsSubsectionsAreItsChildrenNotItsSiblings() throws {
        let text = """
            # 4. More Control Flow Tools

            ## 4.1. Conditional branching

            \(body("branching"))

            ## 4.2. Defining functions

            \(body("function"))

            ### 4.2.1. Default argument values

            \(body("default value"))

            ### 4.2.2. Special parameters

            \(body("special parameter"))

            #### 4.2.2.1. Positional arguments

            \(body("positional argument"))

            #### 4.2.2.2. Keyword arguments

            \(body("keyword argument"))
            """
        let map = try map(text)
        #expect(map.branches.map(\.label) == ["Conditional branching", "Defining functions"])
        let functions = map.branches[1]
        #expect(functions.children.map(\.label) == ["Default argument values", "Special parameters"])
        #expect(functions.children[1].children.map(\.label) == ["Positional arguments", "Keyword arguments"])
    }

    /// A handbook's chapter page holds one section ("6.1") with its subsections: the subsections
    /// are the branches (a map of key-term clusters was the fallback) and the centre is the
    /// chapter's title without its number, though it is longer than a headline's.
    @Test func aChapterPageOfOneSectionHasItsSubsectionsAsBranches() throws {
        let text = """
            # Chapter 6. Maintenance and Updates: The APT Tools

            ## 6.1. Filling in the sources.list File

            ### 6.1.1. Syntax

            \(body("source line"))

            ### 6.1.2. Repositories for Stable Users

            \(body("stable repository"))

            #### 6.1.2.1. Security Updates

            \(body("security update"))

            #### 6.1.2.2. Stable Backports

            \(body("backport"))

            ### 6.1.3. Using Alternate Mirrors

            \(body("mirror"))
            """
        let map = try map(text, title: "Chapter 6. Maintenance and Updates: The APT Tools")
        #expect(map.centralTopic == "Maintenance and Updates: The APT Tools")
        #expect(map.branches.map(\.label) == ["Syntax", "Repositories for Stable Users", "Using Alternate Mirrors"])
        #expect(map.branches[1].children.map(\.label) == ["Security Updates", "Stable Backports"])
    }

    /// More sections than branches (Node's `events.html`: 19): none is dropped. The lightest
    /// neighbours are grouped: the first of them is the branch, the others fold into it as its
    /// children; the full sections stay branches of their own, and the map keeps document order.
    @Test func moreSectionsThanBranchesAreGroupedNotDropped() throws {
        let topics = ["passing arguments", "ordering", "handling once", "error events", "rejections", "emitter class",
                      "default limits", "monitoring", "listener lists", "abort signals"]
        let sizes = [1, 1, 2, 4, 3, 6, 4, 3, 5, 4]
        let sections = zip(topics, sizes).map { topic, size in "## \(topic.capitalized)\n\n\(body(topic, sentences: size))" }
        let text = "# Events\n\n\(body("event"))\n\n" + sections.joined(separator: "\n\n")
        let map = try map(text)
        #expect(map.branches.map(\.label) == ["Passing Arguments", "Error Events", "Rejections", "Emitter Class", "Default Limits",
                                              "Monitoring", "Listener Lists", "Abort Signals"])
        #expect(map.branches[0].children.map(\.label) == ["Ordering", "Handling Once"])
    }

    /// A class with more methods than a branch has children: the methods are grouped too (six
    /// children, every method on the map).
    @Test func moreSubsectionsThanChildrenAreGroupedNotDropped() throws {
        let methods = ["addListener", "emit", "eventNames", "getMaxListeners", "listenerCount", "listeners", "off", "on", "once"]
        let text = "# Events\n\n## Class: EventEmitter\n\n\(body("emitter"))\n\n"
            + methods.map { "### emitter.\($0)()\n\n\(body("\($0) method")) The emitter keeps every listener." }.joined(separator: "\n\n")
            + "\n\n## Class: EventTarget\n\n\(body("target", sentences: 4))"
        let emitter = try map(text).branches[0]
        #expect(emitter.label == "Class: EventEmitter")
        #expect(emitter.children.count == 6)
        let shown = emitter.children.flatMap { [$0.label] + $0.children.map(\.label) }
        #expect(methods.allSatisfy { shown.contains("emitter.\($0)()") }, "\(shown)")
    }

    @Test func groupingJoinsTheLightestNeighbours() {
        #expect(BuiltinEngine.grouped([5, 1, 1, 5, 5], weight: { $0 }, limit: 4, members: 3) == [[5], [1, 1], [5], [5]])
        #expect(BuiltinEngine.grouped([1, 2, 3], weight: { $0 }, limit: 3, members: 3) == [[1], [2], [3]])
        // A section with subsections is folded into its neighbour only as a last resort.
        #expect(BuiltinEngine.grouped([3, 1, 2, 9], weight: { $0 }, limit: 3, members: 3) == [[3], [1, 2], [9]])
        #expect(BuiltinEngine.grouped([3, 1, 2, 9], weight: { $0 }, limit: 3, members: 3, hasSubsections: { $0 == 2 }) == [[3, 1], [2], [9]])
        // A group is never larger than `members`.
        #expect(BuiltinEngine.grouped([1, 1, 1, 1, 9], weight: { $0 }, limit: 2, members: 3) == [[1, 1], [1, 1, 9]])
        // Past limit × members, the first and the heaviest are grouped, the rest left out.
        #expect(BuiltinEngine.grouped([1, 2, 3, 4, 5], weight: { $0 }, limit: 2, members: 2) == [[1, 3], [4, 5]])
    }

    @Test func choosingKeepsTheFirstAndTheHeaviestInOrder() {
        #expect(BuiltinEngine.chosen([1, 9, 2, 8, 3], weight: { $0 }, limit: 3) == [1, 9, 8])
        #expect(BuiltinEngine.chosen([1, 2, 3], weight: { $0 }, limit: 3) == [1, 2, 3])
    }

    /// A manual's PDF: short lines of code or syntax look like headings to the splitter. Under a
    /// numbered chapter with numbered subsections they are no subsections, and in any document
    /// a line of code is no label.
    @Test func linesOfCodeAreNoLabels() throws {
        let manual = """
            Libkit manual

            1 Introduction

            \(body("library"))

            2 Structure handling

            \(body("structure"))

            2.1 Syntax

            \(body("syntax"))

            DEFINITIONS <EXPLICIT or IMPLICIT> TAGS ::=

            \(body("definition"))

            BEGIN

            \(body("declaration"))

            2.2 Naming

            \(body("naming"))

            3 Utilities

            \(body("utility"))

            Usage: kitParser [OPTION] FILE

            \(body("option"))

            3.1 Invoking the parser

            \(body("parser"))

            LEN = strlen(VALUE)+1

            \(body("length"))

            3.2 Invoking the coder

            \(body("coder"))
            """
        let map = try map(manual)
        #expect(map.branches.map(\.label) == ["Introduction", "Structure handling", "Utilities"])
        #expect(map.branches[1].children.map(\.label) == ["Syntax", "Naming"])
        #expect(map.branches[2].children.map(\.label) == ["Invoking the parser", "Invoking the coder"])

        for code in ["DEFINITIONS <EXPLICIT or IMPLICIT> TAGS ::=", "LEN = strlen(VALUE)+1", "\\Urlslashmuskip=2mu plus2mu minus2mu",
                     "\\DeclareUrlCommand{\\cmd}", "Usage: kitParser [OPTION] FILE", "-- INCORRECT"] {
            #expect(BuiltinEngine.readsAsCode(code), "\(code)")
        }
        for topic in ["emitter.emit(eventName[, ...args])", "Event: 'newListener'", "4.8.3.1. Positional-or-Keyword Arguments",
                      "C4 and CAM plants", "Comparisons with == and is"] {
            #expect(!BuiltinEngine.readsAsCode(topic), "\(topic)")
        }
    }

    /// In a document without numbered chapters a line of code is no branch either.
    @Test func aLineOfCodeIsNoBranch() throws {
        let text = """
            The url package

            Usage conditions

            \(body("argument"))

            \\Urlslashmuskip=2mu plus2mu minus2mu

            \(body("spacing"))

            Defining styles

            \(body("style"))

            Changing line breaks

            \(body("line break"))
            """
        let labels = try map(text).branches.map(\.label)
        #expect(labels == ["Usage conditions", "Defining styles", "Changing line breaks"])
    }

    /// A printed guide whose fifth chapter's title starts lower-case ("5 tlmgr: …" is no heading
    /// line): it is a chapter all the same, and the chapters after it are not subsections of the fourth.
    @Test func aChapterThatIsNoHeadingLineDoesNotEndTheChapters() throws {
        let titles = ["1 Introduction", "2 Overview of the collection", "3 Installation", "4 Specialized installations",
                      "4.1 Shared installations", "5 tlmgr: Managing your installation", "5.1 Graphical interfaces for the manager",
                      "6 Notes on Windows", "7 A guide to the path library"]
        let text = "The Guide\n\n" + titles.enumerated().map { index, title in
            "\(title)\n\n\(body("chapter \(index + 1)", sentences: 2))"
        }.joined(separator: "\n\n")
        let labels = try map(text).branches.map(\.label)
        #expect(labels == ["Introduction", "Overview of the collection", "Installation", "Specialized installations",
                           "tlmgr: Managing your installation", "Notes on Windows", "A guide to the path library"])
        // "5.1" is the fifth chapter's, not a subsection of the fourth.
        let branches = try map(text).branches
        #expect(branches[3].children.map(\.label) == ["Shared installations"])
        #expect(branches[4].children.map(\.label) == ["Graphical interfaces for the manager"])
    }

    /// A chapter whose title the splitter took for text ("3. 1789: the year of revolutions"
    /// starts lower-case after its number): it is a branch all the same, with its own sections,
    /// which are not the chapter's before.
    @Test func aChapterTakenForTextIsABranchWithItsSections() throws {
        let text = """
            1. Why study the Revolution?

            \(body("history"))

            2. The Old Regime and its problems

            \(body("regime"))

            3. Of course the regime also had its defenders:

            Society of orders

            \(body("order"))

            3. 1789: the year of revolutions

            \(body("revolution"))

            The fall of the Bastille

            \(body("fortress"))

            4. The constitutional monarchy

            \(body("monarchy"))
            """
        let map = try map(text, title: "Revision Notes")
        #expect(map.branches.map(\.label) == ["Why study the Revolution?", "The Old Regime and its problems",
                                              "1789: the year of revolutions", "The constitutional monarchy"])
        #expect(map.branches[1].children.map(\.label) == ["Society of orders"])
        #expect(map.branches[2].children.map(\.label) == ["The fall of the Bastille"])
    }

    /// A printed manual (BibTeX's): every label loses its section number, and one whose words
    /// alone are no label ("Overview", "Fields": names of the reply's format) is named with its
    /// parent; example values on a line of their own ("\"Brinch Hansen, Per\"") and an aside in
    /// parentheses are no topics; the bibliography after the last chapter is a branch of its own.
    @Test func aManualsLabelsAreItsTopicsWithoutNumbers() throws {
        let text = """
            Designing Entries

            (Describing version 0.99b from 1988)

            1 Overview

            \(body("database"))

            2 Changes

            \(body("feature"))

            3 The Entries

            \(body("entry"))

            3.1 Entry Types

            \(body("entry type"))

            3.2 Fields

            \(body("field value"))

            4 Helpful Hints

            \(body("hint"))

            "Brinch Hansen, Per"

            \(body("name token"))

            "First von Last"

            \(body("name part"))

            References

            \(body("citation"))
            """
        let map = try map(text, title: "Designing Entries")
        #expect(map.branches.map(\.label) == ["Overview of Designing Entries", "Changes", "The Entries", "Helpful Hints", "References"])
        #expect(map.branches[2].children.map(\.label) == ["Entry Types", "Fields of the Entries"])
        #expect(!map.branches[3].children.contains { $0.label.contains("Brinch") || $0.label.contains("von") })
    }

    /// A tutorial page: the centre loses its chapter number as the branches do, and a comment
    /// line of a code sample taken for a top heading ("# exc must be exception instance or
    /// None.") neither is a branch nor hides the sections after it.
    @Test func aCommentLineTakenForAHeadingHidesNoSection() throws {
        let text = """
            # 8. Errors and Exceptions

            ## 8.1. Syntax Errors

            \(body("syntax error"))

            ## 8.2. Exceptions

            \(body("exception"))

            ## 8.3. Exception Chaining

            \(body("chain"))

            # exc must be exception instance or None.

            \(body("cause"))

            ## 8.4. User-defined Exceptions

            \(body("custom class"))
            """
        let map = try map(text, title: "8. Errors and Exceptions")
        #expect(map.centralTopic == "Errors and Exceptions")
        #expect(map.branches.map(\.label) == ["Syntax Errors", "Exceptions", "Exception Chaining", "User-defined Exceptions"])
    }

    /// A numbered list of headings inside a section ("1. HY" … "5. HY DEFAULT" under
    /// "Typographic refinements") is no run of chapters: the page's sections stay the branches.
    @Test func aNumberedRunInsideASectionIsNoChapters() throws {
        let text = """
            # The typesetting macros

            ## Introduction

            \(body("macro"))

            ## Page setup

            \(body("margin"))

            ## Typographic refinements

            \(body("kerning"))

            ### 1. HY

            \(body("hyphenation"))

            ### 2. HY LINES

            \(body("hyphenated line"))

            ### 3. HY MARGIN

            \(body("hyphenation margin"))

            ## Multiple columns

            \(body("column"))
            """
        let map = try map(text)
        #expect(map.branches.map(\.label) == ["Introduction", "Page setup", "Typographic refinements", "Multiple columns"])
        #expect(map.branches[2].children.map(\.label) == ["HY", "HY LINES", "HY MARGIN"])
    }

    /// Without their numbers, "4.1. if Statements" and "4.2. for Statements" read as copies of
    /// each other ("if" and "for" are no content words): the second keeps its number rather
    /// than leave the map, and so does "4.8. More on Defining Functions" beside "4.7.".
    @Test func aLabelThatWouldCopyASiblingKeepsItsNumber() throws {
        let text = """
            # 4. More Control Flow Tools

            ## 4.1. if Statements

            \(body("condition"))

            ## 4.2. for Statements

            \(body("loop"))

            ## 4.7. Defining Functions

            \(body("function"))

            ## 4.8. More on Defining Functions

            \(body("default argument"))
            """
        let map = try map(text, title: "4. More Control Flow Tools")
        #expect(map.centralTopic == "More Control Flow Tools")
        #expect(map.branches.map(\.label) == ["if Statements", "4.2. for Statements", "Defining Functions", "4.8. More on Defining Functions"])
    }

    /// A policy manual whose chapter 1 is its copyright (front matter, no section of the text)
    /// and whose appendix numbers its sections again from 1: the chapters from 2 on are the
    /// branches (the appendix's sections were the only ones), then the appendix's.
    @Test func chaptersAfterACopyrightChapterAreTheBranches() throws {
        let text = """
            # Contents

            ## 1. Copyright

            Copyright 1999-2024, Software in the Public Interest.

            ## 2. Completing the move

            \(body("migration"))

            ## 3. Python Packaging

            \(body("package"))

            ## 4. Packaged Modules

            \(body("module"))

            ## 1. Build Dependencies

            \(body("dependency"))

            ## 2. Packaging Tools

            \(body("tool"))

            ## 3. Upgrade Procedure

            \(body("upgrade"))
            """
        let labels = try map(text, title: "Python Policy").branches.map(\.label)
        #expect(labels == ["Completing the move", "Python Packaging", "Packaged Modules", "Build Dependencies", "Packaging Tools",
                           "Upgrade Procedure"])
    }
}
