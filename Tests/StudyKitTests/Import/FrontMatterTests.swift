import Testing
@_spi(Benchmarks) @testable import StudyKit

/// Front matter stays in the text but is never a title, branch, key point or card.
@Suite("Front matter")
struct FrontMatterTests {
    @Test(arguments: [
        "Thomas Leonard tal197 at users.sf.net", "X Desktop Group (http://www.freedesktop.org)", "ada@example.org",
        "Nikos Mavrogiannopoulos (help-libtasn1@gnu.org)", "2 October 2018", "October 2, 2018", "2018-10-02", "March 2019",
        "Version 0.21", "Copyright © 2018 Red Hat", "see www.debian.org for details", "bob [at] example dot com",
        "1999-2021, Software in the Public Interest", "© 2024 The Project", "6 min read", "Reading time: 4 minutes",
    ])
    func isFrontMatter(line: String) {
        #expect(FrontMatter.isFrontMatter(line))
    }

    @Test(arguments: [
        "Shared MIME-info Database", "The Calvin cycle fixes carbon dioxide into sugar.", "Glob patterns",
        "Magic rules have priorities, and the rule with the highest priority wins.", "Photosynthesis at a glance",
        "May the best rule win", "1789 to 1799: the Revolution", "Version control with Git explains branches and merges in depth for teams",
        "1905, Einstein's miracle year", "Read the minutes of the meeting",
    ])
    func isContent(line: String) {
        #expect(!FrontMatter.isFrontMatter(line))
    }

    @Test(arguments: [
        "This manual is free software; you can redistribute it and/or modify it under the terms of the GNU General Public License as published by the Free Software Foundation; either version 2 of the License, or (at your option) any later version.",
        "This is distributed in the hope that it will be useful, but WITHOUT ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.",
        "All rights reserved.", "This work is licensed under a Creative Commons Attribution 4.0 International License.",
        "A copy of the license is included in the section entitled “GNU Free Documentation License”.",
    ])
    func aLicenceNoticeAtAnyLength(sentence: String) {
        #expect(FrontMatter.isLicenceNotice(sentence.lowercased()))
        #expect(FrontMatter.isFrontMatter(sentence))
    }

    @Test(arguments: [
        "The GNU General Public License lets users share the code they change.", "Free software can be studied and changed by anyone.",
        "Creative Commons licences let authors choose what others may do.", "This manual explains the licence of every package.",
    ])
    func aLicenceTheMaterialTeachesIsContent(sentence: String) {
        #expect(!FrontMatter.isLicenceNotice(sentence.lowercased()))
    }

    /// An edition statement is front matter at any length; a version or date the material teaches is not.
    @Test(arguments: [
        ("This is version 0.21 of the Shared MIME-info Database specification, last updated 2 October 2018.", true),
        ("Abstract Syntax Notation One (ASN.1) library for the GNU system for version 4.19.0, 18 August 2022", true),
        ("This edition of the guide was last updated on 2021-03-03.", true),
        ("This manual is for GNU Libtasn1 (version 4.19.0, 18 August 2022), which is a library for ASN.1 and DER manipulation.", true),
        ("Python version 3.0, released in December 2008, broke compatibility with Python 2.", false),
        ("Support for version 2.1 of the protocol was added because clients asked for it.", false),
        ("The treaty was signed in March 1871 and the version 2 text followed.", false),
    ])
    func anEditionStatementIsFrontMatterAtAnyLength(sentence: String, isEdition: Bool) {
        #expect(FrontMatter.isEditionStatement(sentence.lowercased()) == isEdition)
        #expect(FrontMatter.isFrontMatter(sentence) == isEdition)
    }

    @Test func theBuiltinKitNeverOpensWithTheEditionStatement() {
        let text = """
            Kit Encoding

            Abstract Encoding Notation library for the test system for version 2.4.1, 3 March 2021

            The kit encoding library turns records into compact byte strings and reads them back. Each record is a tree of named elements, and every element has a tag that says how its value is encoded.

            Encoders write the tag first and the length second, so a reader can skip an element it does not know.
            """
        let analysis = BuiltinAnalysis(text: text, title: "Kit Encoding")
        #expect(!analysis.units.contains { $0.text.contains("version 2.4.1") })
        #expect(analysis.prose.first?.text.hasPrefix("The kit encoding library") == true)
    }

    /// A manual's appendix that prints a licence ("A.1 GNU Free Documentation License") is
    /// legal through the licence's own numbered sections, which number from 0 or 1 again; the
    /// manual's chapters around it are not.
    @Test func aLicenceAppendixIsLeftOutThroughItsNumberedSections() {
        let text = """
            # Kit Manual

            ## 1. Introduction

            The kit library encodes records as compact byte strings.

            ## 2. Functions

            Every function returns an error code for the caller to check.

            ### A.1 GNU Free Documentation License

            Version 1.3, 3 November 2008

            ## 0. PREAMBLE

            The purpose of this License is to make a manual free in the sense of freedom.

            ## 1. APPLICABILITY AND DEFINITIONS

            This License applies to any manual or other work that contains a notice placed by the copyright holder.

            ## 2. VERBATIM COPYING

            You may copy and distribute the Document in any medium, provided that this License is reproduced in all copies.

            ## Concept Index

            Encoding of records is described in the first chapter.
            """
        let units = SentenceSplitter().split(text)
        let legal = BuiltinAnalysis.legalSections(units)
        #expect(units.indices.filter { !legal.contains($0) }.map { units[$0].text } == [
            "Kit Manual", "1. Introduction", "The kit library encodes records as compact byte strings.", "2. Functions",
            "Every function returns an error code for the caller to check.", "Concept Index",
            "Encoding of records is described in the first chapter.",
        ])
        #expect(FrontMatter.isLegalHeading("A.1 GNU Free Documentation License") && FrontMatter.isLegalHeading("Appendix A Copying Information"))
        #expect(!FrontMatter.isLegalHeading("Choosing a license for your project"))
    }

    @Test func aSectionHeadedCopyrightIsLeftOutUpToTheNextSection() {
        let text = """
            # Contents

            ## 1. Copyright

            1999-2021, Software in the Public Interest

            See the GNU General Public License for more details.

            ### Licence text

            You can also obtain it by writing to the Free Software Foundation, Inc., 51 Franklin St, Boston.

            ## 2. Completing the move to Python 3

            The unversioned python packages were removed after the Debian 11 release.
            """
        let units = SentenceSplitter().split(text)
        let legal = BuiltinAnalysis.legalSections(units)
        #expect(units.indices.filter { !legal.contains($0) }.map { units[$0].text } == [
            "Contents", "2. Completing the move to Python 3", "The unversioned python packages were removed after the Debian 11 release.",
        ])
        #expect(FrontMatter.isLegalHeading("1. Copyright¶") && FrontMatter.isLegalHeading("License") && FrontMatter.isLegalHeading("Legal notice"))
        #expect(!FrontMatter.isLegalHeading("Copyright law in the United States") && !FrontMatter.isLegalHeading("Summary"))
    }

    /// groff's mom manual documents a macro named COPYRIGHT under the heading "COPYRIGHT": the
    /// heading looks legal, its text does not, so the section is content. A "License" heading over
    /// a notice, or over subsections only, is still left out.
    @Test func aLegalLookingHeadingOverContentIsKept() {
        let text = """
            # Document processing

            ## COPYRIGHT

            Macro: COPYRIGHT [COVER | DOC_COVER] "<copyright info>"

            The argument passed to COPYRIGHT is only used on cover or doc cover pages.

            ## License

            This project is licensed under the MIT License.

            ## Copying

            ### Terms

            Anyone may copy the manual.

            ## PAGINATE

            The macro PAGINATE turns page numbering on.
            """
        let units = SentenceSplitter().split(text)
        let legal = BuiltinAnalysis.legalSections(units)
        #expect(units.indices.filter { !legal.contains($0) }.map { units[$0].text } == [
            "Document processing", "COPYRIGHT", "Macro: COPYRIGHT [COVER | DOC_COVER] \"<copyright info>\"",
            "The argument passed to COPYRIGHT is only used on cover or doc cover pages.", "PAGINATE",
            "The macro PAGINATE turns page numbering on.",
        ])
        #expect(FrontMatter.readsAsLegal("© 2020 The Foo Authors") && FrontMatter.readsAsLegal("Copyright 1999 Jane Doe"))
        #expect(!FrontMatter.readsAsLegal("Do not include the copyright symbol in the argument passed to COPYRIGHT."))
    }
}
