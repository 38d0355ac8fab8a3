import Testing
@_spi(Benchmarks) @testable import StudyKit

@Suite struct KeyphrasesTests {
    @Test func fixtureKeyTermsAreOnTop() throws {
        let phrases = KeyphraseExtractor().keyphrases(in: try BuiltinFixtures.photosynthesis(), limit: 20)
        let top10 = phrases.prefix(10).map { $0.text.lowercased() }
        for term in ["carbon dioxide", "calvin cycle", "light reactions", "photosynthesis"] {
            #expect(top10.contains(term), "\(term) not in top 10: \(top10)")
        }
        let top20 = phrases.map { $0.text.lowercased() }
        for term in ["atp", "nadph", "thylakoid membrane"] {
            #expect(top20.contains(term), "\(term) not in top 20: \(top20)")
        }
    }

    @Test func mostCommonSurfaceFormIsShown() throws {
        let phrases = KeyphraseExtractor().keyphrases(in: try BuiltinFixtures.photosynthesis(), limit: 20)
        let calvin = try #require(phrases.first { $0.key == "calvin cycl" })
        #expect(calvin.text == "Calvin cycle")
        #expect(calvin.wordCount == 2)
    }

    /// "Optional fields:" opens list after list, but the text also says "optional fields" in its
    /// sentences: the term is no name, and a quiz shows it in lower case; a name stays a name.
    @Test func aTermTheTextWritesInLowerCaseIsNoName() throws {
        let text = """
            Optional fields: editor, volume, series.

            Optional fields: month, note, pages.

            Misspelled optional fields are ignored by BibTeX without a warning.

            BibTeX reads the database files and BibTeX writes the reference list.
            """
        let phrases = KeyphraseExtractor(weighsGeneralEnglish: true).keyphrases(in: text, limit: 20)
        let optional = try #require(phrases.first { $0.key == "optional field" })
        #expect(optional.text == "Optional fields")
        #expect(optional.plainText == "optional fields")
        let bibtex = try #require(phrases.first { $0.key == "bibtex" })
        #expect(bibtex.lowerCaseText == nil && bibtex.plainText == "BibTeX")
    }

    /// A name's particle between two capitalised words keeps the name whole ("Champ de Mars"
    /// was two mind-map children, "Champ" and "Mars"); the same word elsewhere still breaks a
    /// run, and is never a term's first or last word.
    @Test func aNamesParticleKeepsTheNameWhole() throws {
        let text = """
            In July 1791 the National Guard fired on a crowd at the Champ de Mars.             The Marquis de Lafayette commanded the Guard.             Crowds gathered at the Champ de Mars again. Revolution de facto ended the monarchy.
            """
        let phrases = KeyphraseExtractor(weighsGeneralEnglish: true).keyphrases(in: text, limit: 30)
        let texts = phrases.map(\.text)
        #expect(texts.contains("Champ de Mars"), "\(texts)")
        #expect(texts.contains("Marquis de Lafayette"), "\(texts)")
        #expect(!texts.contains("Champ") && !texts.contains("Mars"), "\(texts)")
        #expect(!texts.contains { $0.hasPrefix("de ") || $0.hasSuffix(" de") }, "\(texts)")
        // "de facto": the particle before a lower-case word joins nothing.
        #expect(!texts.contains { $0.contains("de facto") || $0.contains("Revolution de") }, "\(texts)")
    }

    @Test func inflectionsMeetUnderOneStem() throws {
        let text = "The Light Reactions come first. A light reaction needs light. Light reactions make ATP."
        let phrases = KeyphraseExtractor().keyphrases(in: text, limit: 10)
        let matches = phrases.filter { $0.key == "light reaction" }
        #expect(matches.count == 1)
        let phrase = try #require(matches.first)
        #expect(phrase.occurrences == 3)
        #expect(phrase.text == "Light Reactions")
        #expect(phrases.first?.key == "light reaction")
    }

    /// A term is a thing: a word that is never a noun ("useful", "occurs", "iterating") is no
    /// term on its own nor closing a phrase ("exception occurs"), and a term the text says both
    /// as a noun and as a verb is shown as the noun ("pass", not the more frequent "passed").
    @Test func termsAreNounsNotVerbsOrAdjectives() {
        let text = """
            The pass statement does nothing. The pass is silently ignored.
            Arguments are passed by position. Keyword arguments are passed by name.
            The arguments passed must match the parameters. Unpacked arguments are passed too.
            This is useful when parameter names are useful. Default values are useful.
            When an exception occurs, the loop stops. An exception occurs rarely. An exception occurs here.
            Iterating over a sequence is common. Iterating twice is allowed. Keep iterating.
            Emits the event to the loop. Emits one more event. Emits a handler to the exception.
            """
        let phrases = KeyphraseExtractor(weighsGeneralEnglish: true).keyphrases(in: text, limit: 40).map(\.text)
        for verbOrAdjective in ["useful", "exception occurs", "occurs", "Iterating", "iterating", "passed", "Emits"] {
            #expect(!phrases.contains(verbOrAdjective), "\(verbOrAdjective) in \(phrases)")
        }
        #expect(phrases.contains("pass"), "\(phrases)")
        #expect(phrases.contains("exception"), "\(phrases)")
    }

    /// A phrase said once that runs from its subject into the verb is no term: the builtin cards
    /// of samples/eval blanked "1455 Fust sued", "Luther wrote short" and "49 survive today", and
    /// the mind map had "wrote short pamphlets"; those of samples/notes.pdf "Protons flow back"
    /// and "Greenhouse growers add". Terms said once that are nouns stay.
    @Test(arguments: [
        ("king dismissed Necker", true), ("1455 Fust sued", true), ("Luther wrote short", true), ("49 survive today", true),
        ("normally slopes", true), ("wrote short pamphlets", true), ("genetically identical daughter", true),
        ("Voltaire attacked religious", true),
        ("dense crust", false), ("metal type", false), ("Calvin cycle", false), ("water-based inks", false),
        ("quantity demanded", true), ("bucket index", false), ("seed bank", false), ("Johannes Gutenberg", false),
        ("sued Gutenberg", true), ("used", false),
        ("Protons flow back", true), ("Greenhouse growers add", true), ("plates move apart", true),
        ("proton gradient", false), ("light-dependent reactions", false), ("double membrane", false), ("status quo", false),
        ("physics teacher", false), ("glass ceiling", false), ("Marxist accounts", false),
        ("Executive power went", true), ("Assembly held", true), ("power station", false),
    ])
    func aPhraseRunningIntoAVerbIsNoTerm(phrase: String, runsIntoAVerb: Bool) {
        #expect(KeyphraseExtractor.runsIntoAVerb(phrase) == runsIntoAVerb)
    }

    /// samples/long.pdf's blanks "1789 French society", "February 1793 France", "23 June Louis".
    @Test(arguments: [
        ("1789 French society", true), ("February 1793 France", true), ("23 June Louis", true), ("May 1789 Louis", true),
        ("1789", false), ("5 May 1789", false), ("June 1794", false), ("2 kg", false), ("100 metres", false),
        ("June Louis XVI", true), ("French society", false), ("May", false), ("Louis XVI", false),
    ])
    func aPhraseThatOpensOnADateAndRunsOnIsNoTerm(phrase: String, opensOnADate: Bool) {
        #expect(KeyphraseExtractor.opensOnADate(phrase) == opensOnADate)
    }

    @Test func aDateAndTheSubjectAfterItAreNoKeyphrase() {
        let text = """
            Before 1789 French society was divided into three estates. In February 1793 France declared war on Britain.
            The estates met at Versailles. France and Britain were at war until 1802.
            """
        let phrases = KeyphraseExtractor(weighsGeneralEnglish: true).keyphrases(in: text, limit: 40).map(\.text)
        #expect(!phrases.contains("1789 French society"), "\(phrases)")
        #expect(!phrases.contains("February 1793 France"), "\(phrases)")
        #expect(phrases.contains("France"), "\(phrases)")
    }

    @Test func aPhraseSaidOnceThatRunsIntoItsVerbIsNoKeyphrase() {
        let text = """
            In 1455 Fust sued Gutenberg to recover his money. Gutenberg printed the Bible in Mainz.
            Luther wrote short pamphlets in German. The pamphlets spread fast, and Gutenberg's press was copied.
            About 180 copies were printed, and roughly 49 survive today.
            """
        let phrases = KeyphraseExtractor(weighsGeneralEnglish: true).keyphrases(in: text, limit: 40).map(\.text)
        // Not caught: a verb's base form opening a phrase ("survive today"), which an adjective
        // opening a term looks like to a word list ("dense crust").
        for verbPhrase in ["1455 Fust sued", "Fust sued", "sued Gutenberg", "Luther wrote short", "wrote short pamphlets", "49 survive today"] {
            #expect(!phrases.contains(verbPhrase), "\(verbPhrase) in \(phrases)")
        }
        #expect(phrases.contains("Gutenberg"), "\(phrases)")
        // An adverb opens no term, however often the text says it.
        let curves = KeyphraseExtractor(weighsGeneralEnglish: true).keyphrases(
            in: "A demand curve normally slopes downwards. A supply curve normally slopes upwards. Prices move along the curve.", limit: 40
        ).map(\.text)
        #expect(!curves.contains("normally slopes"), "\(curves)")
        #expect(phrases.contains("short pamphlets") || phrases.contains("pamphlets"), "\(phrases)")
    }

    /// A heading that only shares a verb's stem ("Comparing Sequences") does not make the verb a
    /// term: "compare" was a quiz option on the Python tutorial's data structures page.
    @Test func aHeadingSharingAVerbsStemNamesNoTerm() {
        let units = SentenceSplitter().split("""
            # Comparing Sequences and Other Types

            Sequence objects may be compared to other objects with the same sequence type.
            The comparison uses lexicographical ordering: first the first two items are compared.
            Objects of different types may be compared provided that the objects have comparison methods.
            Tuples compare item by item, and lists compare the same way as tuples do.
            """)
        let phrases = KeyphraseExtractor(weighsGeneralEnglish: true).keyphrases(in: units, limit: 40).map { $0.text.lowercased() }
        #expect(!phrases.contains("compare") && !phrases.contains("compared"), "\(phrases)")
        #expect(phrases.contains("comparison"), "\(phrases)")
    }

    /// A verb's base form names a thing where a heading or a call writes it: zlib's "deflate()",
    /// Python's "continue" statement.
    @Test func aVerbTheTextWritesAsACallOrAHeadingNamesAThing() {
        let units = SentenceSplitter().split("""
            # Break and continue statements

            Call deflate() until the input is used up. Then deflate() is called with the finish flag.
            A failed deflate() call returns an error code. The loop calls deflate() once per buffer.
            The continue statement skips the rest of the loop. A continue inside a loop body is common.
            """)
        let phrases = KeyphraseExtractor(weighsGeneralEnglish: true).keyphrases(in: units, limit: 40).map { $0.text.lowercased() }
        #expect(phrases.contains("deflate"), "\(phrases)")
        #expect(phrases.contains { $0.hasPrefix("continue") }, "\(phrases)")
    }

    @Test func stopwordsNeverStartOrEndAPhrase() throws {
        let phrases = KeyphraseExtractor().keyphrases(in: try BuiltinFixtures.photosynthesis(), limit: 50)
        #expect(!phrases.isEmpty)
        for phrase in phrases {
            let words = phrase.text.lowercased().split(separator: " ").map(String.init)
            #expect(words.allSatisfy { !Stopwords.contains($0) }, "\(phrase.text)")
            #expect((1...3).contains(words.count))
        }
    }

    @Test func phrasesNeverCrossPunctuation() {
        let phrases = KeyphraseExtractor().keyphrases(in: "Glucose, starch; cellulose. Glucose starch.", limit: 10)
        #expect(phrases.first { $0.key == "glucos starch" }?.occurrences == 1)
        #expect(!phrases.contains { $0.key == "starch cellulos" })
    }

    @Test func deterministicAndBounded() throws {
        let text = try BuiltinFixtures.photosynthesis()
        #expect(KeyphraseExtractor().keyphrases(in: text, limit: 15) == KeyphraseExtractor().keyphrases(in: text, limit: 15))
        #expect(KeyphraseExtractor().keyphrases(in: text, limit: 5).count == 5)
        #expect(KeyphraseExtractor().keyphrases(in: text, limit: 0).isEmpty)
    }

    @Test(arguments: ["", "   ", "!!! ??? ...", "🌱🌱 🚀", "光合作用是植物的过程。植物需要光。", "a b c d e"])
    func oddInputsDoNotCrash(_ text: String) {
        let phrases = KeyphraseExtractor().keyphrases(in: text, limit: 10)
        #expect(phrases.allSatisfy { !$0.text.isEmpty && $0.occurrences > 0 })
    }

    /// The shared-mime-info specification's own words: the terms a student learns ("MIME type",
    /// "glob") outrank words every text uses ("files", "type", "list"), and a past participle is
    /// no term.
    static let specText = """
        # Glob patterns

        A glob is a pattern that matches file names. The list of files is read from the directory.
        Each MIME type has a glob, and a glob that matches the name gives the MIME type of the files.
        The files in the list are released when the type is known. The list is released again.
        The glob weight decides between two MIME type matches. Files of a type share a name pattern.
        """

    @Test func againstGeneralEnglishTheDocumentsOwnTermsComeFirst() {
        let units = SentenceSplitter().split(Self.specText)
        let weighed = KeyphraseExtractor(weighsGeneralEnglish: true).keyphrases(in: units, limit: 3).map(\.text)
        #expect(Array(weighed.prefix(2)) == ["glob", "MIME type"], "defined and in a heading, then a phrase of rare words: \(weighed)")
        let plain = KeyphraseExtractor().keyphrases(in: units, limit: 40).map(\.text)
        let all = KeyphraseExtractor(weighsGeneralEnglish: true).keyphrases(in: units, limit: 40).map(\.text)
        #expect(plain.contains("released"))
        #expect(!all.contains("released"), "a past participle is no term: \(all)")
        let rank = { (term: String) in all.firstIndex(of: term) ?? all.count }
        #expect(rank("MIME type") < rank("files"))
        #expect(rank("glob") < rank("list"))
    }

    @Test(arguments: [
        ("A glob is a pattern that matches names.", "glob"), ("Glob: a pattern that matches names.", "glob"),
        ("The Calvin cycle refers to the dark reactions.", "calvin cycl"), ("DER — the distinguished encoding rules.", "der"),
    ])
    func definitionsNameTheirTerm(_ pair: (String, String)) {
        #expect(KeyphraseExtractor.definedTerm(in: TermNormalizer.words(in: pair.0), text: pair.0) == pair.1)
    }

    /// An API reference's parameter lists: "Type:", "Returns:" and "Default:" open item after
    /// item and were taken for defined terms (mind-map leaves and quiz distractors on Node.js's
    /// pages); a glossary line said once still defines its term.
    @Test func aLabelOpeningManyUnitsIsAFieldNotATerm() {
        let text = """
            # Buffer

            - Type: <integer> The number of bytes in the buffer.
            - Returns: <Buffer> A new buffer of the given size.
            - Type: <string> The encoding of the buffer.
            - Returns: <integer> The number of bytes written to the buffer.
            - Type: <boolean> Whether the buffer is shared by the pool.
            - Returns: <boolean> Whether two buffers hold the same bytes.
            - Default: 'utf8' for the encoding of the buffer.
            - Default: 0 for the offset in the buffer.
            - Default: false for the shared pool of the buffer.

            Glob: a pattern that matches file names in a directory listing.
            """
        let phrases = KeyphraseExtractor(weighsGeneralEnglish: true).keyphrases(in: text, limit: 40).map { $0.text.lowercased() }
        for field in ["type", "returns", "default"] {
            #expect(!phrases.contains(field), "\(field) is a field name: \(phrases)")
        }
        #expect(phrases.contains("glob") && phrases.contains("buffer"), "\(phrases)")
    }

    /// A mind-map branch's terms come from its section alone, where "Type:" is said once: the
    /// document's field names, handed in, still rule it out (it was a leaf of five branches).
    @Test func aPartKnowsTheDocumentsFieldNames() {
        let part = SentenceSplitter().split("""
            ## resource.asyncId

            - Type: <number> The unique asyncId assigned to the resource.
            """)
        let extractor = KeyphraseExtractor(weighsGeneralEnglish: true)
        #expect(extractor.keyphrases(in: part).contains { $0.key == "type" }, "alone, the part cannot tell")
        #expect(!extractor.keyphrases(in: part, fieldNames: ["type"]).contains { $0.key == "type" })
    }

    @Test(arguments: ["The glob, which is a pattern, matches names.", "Read the files first.", "Glob", "It is a glob."])
    func otherSentencesDefineNothing(_ text: String) {
        #expect(KeyphraseExtractor.definedTerm(in: TermNormalizer.words(in: text), text: text) == nil)
    }

    /// A cross-reference is no term: "Chapter 5" and "Section 9.10" were quiz options.
    @Test func aCrossReferenceIsNoTerm() {
        let text = """
            Chapter 5 explains the packaging system. See Chapter 5 and Section 9.10 for backups.
            The packaging system of Chapter 5 builds on dpkg. Section 9.10 covers the backup tools.
            """
        let phrases = KeyphraseExtractor(weighsGeneralEnglish: true).keyphrases(in: text, limit: 20).map(\.text)
        #expect(!phrases.contains { $0.contains("Chapter 5") || $0.contains("Section 9.10") }, "\(phrases)")
        #expect(phrases.contains("packaging system"), "\(phrases)")
    }

    /// A name a point joins is one word and one term: "Node.js", not the terms "Node" and "js";
    /// a number keeps its point, and two sentences a missing space ran together stay two words.
    @Test func aDottedNameIsOneWord() {
        #expect(TermNormalizer.words(in: "Node.js reads /etc/apt/sources.list from debian.org.").map(\.surface)
            == ["Node.js", "reads", "etc", "apt", "sources.list", "from", "debian.org"])
        #expect(TermNormalizer.words(in: "It costs 3.14 now.End of story.").map(\.surface) == ["It", "costs", "3.14", "now", "End", "of", "story"])
        let text = "Node.js runs JavaScript outside a browser. Node.js has an event loop. Every Node.js process has one thread."
        let phrases = KeyphraseExtractor(weighsGeneralEnglish: true).keyphrases(in: text, limit: 10).map(\.text)
        #expect(phrases.contains("Node.js"), "\(phrases)")
        #expect(!phrases.contains("js") && !phrases.contains("Node"), "\(phrases)")
    }

    @Test(arguments: [("released", true), ("files matched", true), ("applied", true), ("stopped", true),
                      ("speed", false), ("hundred", false), ("Released", false), ("glob", false)])
    func pastParticiples(_ pair: (String, Bool)) {
        #expect(KeyphraseExtractor.endsInParticiple(pair.0) == pair.1)
    }

    @Test(arguments: [
        ("reactions", "reaction"), ("studies", "study"), ("processes", "process"), ("running", "run"),
        ("produced", "produc"), ("producing", "produc"), ("plant's", "plant"), ("glass", "glass"),
        ("analysis", "analysis"), ("string", "string"), ("atp", "atp"),
    ])
    func stemmer(_ pair: (String, String)) {
        #expect(TermNormalizer.stem(pair.0) == pair.1)
    }
}
