import Testing
@_spi(Benchmarks) @testable import StudyKit

@Suite struct ClozeBuilderTests {
    private func fixtureItems(limit: Int = 10) throws -> (items: [ClozeItem], keyphrases: [Keyphrase], text: String) {
        let text = try BuiltinFixtures.photosynthesis()
        let units = SentenceSplitter().split(text)
        let ranked = SentenceRanker().rank(units)
        let keyphrases = KeyphraseExtractor().keyphrases(in: units, limit: 30)
        return (ClozeBuilder().items(from: ranked, keyphrases: keyphrases, limit: limit), keyphrases, text)
    }

    @Test func answersComeFromTheSentenceAndAreBlanked() throws {
        let (items, _, text) = try fixtureItems()
        #expect(items.count == 10)
        for item in items {
            #expect(item.sentence.contains(item.answer))
            #expect(!item.clozeText.lowercased().contains(item.answer.lowercased()), "\(item.clozeText)")
            #expect(item.clozeText.contains("_____"))
            #expect(String(text[item.sourceRange]) == item.sentence)
            let start = text.index(text.startIndex, offsetBy: item.answerOffsets.lowerBound)
            let end = text.index(text.startIndex, offsetBy: item.answerOffsets.upperBound)
            #expect(String(text[start..<end]) == item.answer)
            let words = item.sentence.split(separator: " ").count
            #expect((6...40).contains(words))
        }
        #expect(Set(items.map(\.answerKey)).count == items.count)
        #expect(Set(items.map(\.sentence)).count == items.count)
    }

    /// "the binary package _____.Y" asks nothing: a blank never cuts a dotted or hyphenated token.
    @Test func aBlankNeverCutsAJoinedToken() {
        let phrases = [Keyphrase(text: "pythonX", score: 3, occurrences: 3, key: "pythonx"), Keyphrase(text: "package", score: 2, occurrences: 3, key: "packag")]
        let text = "For every Python version the binary pythonX.Y package shall provide a complete distribution of the interpreter."
        let items = ClozeBuilder().items(from: SentenceRanker().rank(SentenceSplitter().split(text)), keyphrases: phrases, limit: 5)
        #expect(items.map(\.answer) == ["package"])
        let chars = Array("light-dependent reactions and pythonX.Y")
        #expect(ClozeBuilder.cutsAToken(chars, 0..<5))  // "light" of light-dependent
        #expect(ClozeBuilder.cutsAToken(chars, 30..<37))  // "pythonX" of pythonX.Y
        #expect(!ClozeBuilder.cutsAToken(chars, 16..<25))  // "reactions"
    }

    /// A reference entry's label ("Returns:") and a number's minus sign are no places for a blank.
    @Test func aBlankIsNeitherAnEntrysLabelNorANumberWithoutItsSign() {
        let phrases = [
            Keyphrase(text: "Returns", score: 4, occurrences: 4, key: "return"), Keyphrase(text: "1", score: 3, occurrences: 3, key: "1"),
            Keyphrase(text: "length value", score: 2, occurrences: 3, key: "length valu"),
        ]
        let text = "Returns: the decoded length value of the field, or -1 on an indefinite length that the reader cannot measure."
        let items = ClozeBuilder().items(from: SentenceRanker().rank(SentenceSplitter().split(text)), keyphrases: phrases, limit: 5)
        #expect(items.map(\.answer) == ["length value"])
        #expect(ClozeBuilder.cutsAToken(Array("or -1 on"), 4..<5))
        #expect(!ClozeBuilder.cutsAToken(Array("in 1953 the"), 3..<7))
    }

    /// "_____ May 1789: the Estates-General opens at Versailles." asks for a day, not the date
    /// (samples/long.pdf's chronology); the year of the same date is a blank.
    @Test func aDayOfADateIsNoBlank() {
        let phrases = [Keyphrase(text: "5", score: 4, occurrences: 2, key: "5"), Keyphrase(text: "1789", score: 3, occurrences: 3, key: "1789")]
        let text = "On 5 May 1789 the Estates-General opened at Versailles with a speech by the king."
        let items = ClozeBuilder().items(from: SentenceRanker().rank(SentenceSplitter().split(text)), keyphrases: phrases, limit: 5)
        #expect(items.map(\.answer) == ["1789"])
    }

    /// A list item's bullet is neither in the question nor in the quote.
    @Test func aListItemsBulletIsNotShown() throws {
        let text = """
            Steps of the transition:

            - The Debian Python maintainer and the module maintainers discuss the readiness for a new default Python version.
            - The release team schedules rebuilds for every package that may need it during the transition.
            """
        let cards = try BuiltinEngine().flashcards(BuiltinAnalysis(text: text, title: nil))
        for card in cards.cards {
            #expect(!card.question.hasPrefix("- ") && !card.quote.hasPrefix("- "), "\(card)")
        }
    }

    /// "list" is common English: a blank where it was teaches nothing, unless the sentence
    /// says what a list is.
    @Test func aCommonWordIsAnAnswerOnlyWhereTheSentenceDefinesIt() {
        let list = [Keyphrase(text: "list", score: 2, occurrences: 2, key: "list")]
        let passing = "The list of entries is read from the directory every morning."
        let defining = "A list is an ordered sequence of entries in a file."
        func answers(_ text: String, screens: Bool) -> [String] {
            let ranked = SentenceRanker().rank(SentenceSplitter().split(text))
            return ClozeBuilder(screensCommonWords: screens).items(from: ranked, keyphrases: list, limit: 5).map(\.sentence)
        }
        #expect(answers(passing, screens: false) == [passing])
        #expect(answers(passing, screens: true).isEmpty)
        #expect(answers(passing + "\n\n" + defining, screens: true) == [defining])
        let rare = [Keyphrase(text: "glob", score: 2, occurrences: 2, key: "glob")]
        let globs = "Each glob is matched against the file name."
        #expect(ClozeBuilder(screensCommonWords: true).items(
            from: SentenceRanker().rank(SentenceSplitter().split(globs)), keyphrases: rare, limit: 5).count == 1)
    }

    @Test func noTermIsBlankedHalfway() throws {
        let (items, _, _) = try fixtureItems()
        // "light" must not be blanked inside "light reactions".
        #expect(!items.contains { $0.clozeText.contains("_____ reactions") })
    }

    @Test func headingsAndShortOrLongSentencesAreSkipped() {
        let long = (["Glucose"] + Array(repeating: "glucose", count: 45)).joined(separator: " ") + "."
        let text = "# Glucose\n\nGlucose is sweet.\n\n\(long)\n\nPlants store glucose as starch in their roots."
        let units = SentenceSplitter().split(text)
        let keyphrases = KeyphraseExtractor().keyphrases(in: units, limit: 10)
        let items = ClozeBuilder().items(from: SentenceRanker().rank(units), keyphrases: keyphrases)
        #expect(items.map(\.sentence).allSatisfy { $0.hasPrefix("Plants store") })
        #expect(items.count == 1)
    }

    /// "The Committee had _____ members" asks for a small number: its options are small numbers,
    /// never the years the text is full of. (A day of a date is no blank: ``aDayOfADateIsNoBlank()``.)
    @Test func aNumbersDistractorsHaveItsMagnitude() throws {
        let sentence = "In 1793 the Committee of Public Safety had 12 members, and the Convention renewed it every month."
        let keyphrases = ["12", "1789", "1792", "1794", "Convention", "terror"].enumerated().map { index, text in
            Keyphrase(text: text, score: Double(10 - index), occurrences: 2, key: text.lowercased())
        }
        let units = SentenceSplitter().split(sentence)
        let item = try #require(ClozeBuilder(minWords: 4).items(from: SentenceRanker().rank(units), keyphrases: keyphrases, limit: 1).first)
        #expect(item.answer == "12")
        let options = ClozeBuilder().distractors(for: item, among: keyphrases, count: 3)
        #expect(options.count == 3)
        #expect(options.allSatisfy { $0.count <= 2 && Int($0) != nil }, "\(options)")
        // A year keeps years as its options.
        #expect(ClozeBuilder.sameMagnitude("1793", "1789") && !ClozeBuilder.sameMagnitude("5", "1789"))
    }

    /// A blank that opens its sentence took the capital ("Functions"); among lower-case options
    /// that capital would give the answer away, so the quiz shows the term as the text writes it.
    @Test func anOpeningBlankIsShownInTheTermsUsualSpelling() throws {
        let sentence = "Functions can also be called using keyword arguments of the form kwarg=value."
        let keyphrases = [Keyphrase(text: "functions", score: 3, occurrences: 5, key: TermNormalizer.stem("functions"))]
        let item = try #require(ClozeBuilder(minWords: 4).items(from: SentenceRanker().rank(SentenceSplitter().split(sentence)),
                                                                  keyphrases: keyphrases, limit: 1).first)
        #expect(item.answer == "Functions")
        #expect(BuiltinEngine.usualSpelling(of: item, among: keyphrases) == "functions")
        let named = [Keyphrase(text: "Robespierre", score: 3, occurrences: 5, key: TermNormalizer.stem("robespierre"))]
        let nameItem = try #require(ClozeBuilder(minWords: 4).items(from: SentenceRanker().rank(SentenceSplitter().split(
            "Robespierre was executed in July 1794 with his allies.")), keyphrases: named, limit: 1).first)
        #expect(BuiltinEngine.usualSpelling(of: nameItem, among: named) == "Robespierre")
    }

    /// The term "loop" matches "looping" by its stem; "When _____ through dictionaries" asks for
    /// a verb, not the term.
    @Test func aTermSaidAsAVerbFormIsNoBlank() {
        let sentence = "When looping through dictionaries, the key and its value can be retrieved at the same time."
        let keyphrases = [Keyphrase(text: "loop", score: 3, occurrences: 4, key: TermNormalizer.stem("loop"))]
        let items = ClozeBuilder(minWords: 4, screensCommonWords: true)
            .items(from: SentenceRanker().rank(SentenceSplitter().split(sentence)), keyphrases: keyphrases, limit: 1)
        #expect(items.isEmpty, "\(items.map(\.clozeText))")
    }

    @Test func sameInputSameItems() throws {
        #expect(try fixtureItems().items == fixtureItems().items)
    }

    @Test func distractorsAreDistinctAndNotTheAnswer() throws {
        let (items, keyphrases, _) = try fixtureItems()
        for item in items {
            let options = ClozeBuilder().distractors(for: item, among: keyphrases, count: 3)
            #expect(options.count == 3)
            let lowered = options.map { $0.lowercased() }
            #expect(Set(lowered).count == 3)
            #expect(!lowered.contains(item.answer.lowercased()))
        }
    }

    /// Keyphrases of three shapes, so every answer has enough of its own kind.
    static let mixedKeyphrases: [Keyphrase] = [
        ("Charles Darwin", "charl darwin"), ("natural selection", "natur selection"), ("1859", "1859"),
        ("Gregor Mendel", "gregor mendel"), ("cell wall", "cell wall"), ("1865", "1865"),
        ("Louis Pasteur", "loui pasteur"), ("light energy", "light energy"), ("1953", "1953"),
        ("Rosalind Franklin", "rosalind franklin"), ("genetic drift", "genet drift"), ("1900", "1900"),
    ].enumerated().map { i, pair in Keyphrase(text: pair.0, score: Double(20 - i), occurrences: 2, key: pair.1) }

    private func item(answer: String, in sentence: String) throws -> ClozeItem {
        let units = SentenceSplitter().split(sentence)
        let key = TermNormalizer.words(in: answer).map(\.stem).joined(separator: " ")
        let phrase = Keyphrase(text: answer, score: 100, occurrences: 1, key: key)
        let items = ClozeBuilder().items(from: SentenceRanker().rank(units), keyphrases: [phrase])
        return try #require(items.first)
    }

    @Test(arguments: [
        ("Charles Darwin", "The theory was published by Charles Darwin after a long voyage.", "name"),
        ("1859", "On the Origin of Species appeared in 1859 and sold out quickly.", "number"),
        ("natural selection", "Evolution works mainly through natural selection acting on variation.", "phrase"),
    ])
    func distractorsHaveTheAnswersShape(_ c: (String, String, String)) throws {
        let cloze = try item(answer: c.0, in: c.1)
        #expect(cloze.answer == c.0)
        let options = ClozeBuilder().distractors(for: cloze, among: Self.mixedKeyphrases, count: 3)
        #expect(options.count == 3)
        for option in options {
            switch c.2 {
            case "name": #expect(option.split(separator: " ").allSatisfy { $0.first?.isUppercase == true }, "\(option)")
            case "number": #expect(Int(option) != nil, "\(option)")
            default: #expect(option == option.lowercased() && Int(option) == nil, "\(option)")
            }
            #expect(option.split(separator: " ").count == c.0.split(separator: " ").count)
        }
    }

    /// samples/long.pdf's quiz offered "September 1792", "October 1793" and "20 June" beside the
    /// Third Estate: a date is a kind of its own, and goes with dates (or years).
    @Test func aDateIsNoOptionForAName() throws {
        let cloze = try item(answer: "Third Estate", in: "On 17 June the Third Estate declared itself the National Assembly.")
        let candidates = [("September 1792", "septemb 1792"), ("October 1793", "octob 1793"), ("20 June", "20 june"),
                          ("National Guard", "nation guard"), ("Estates-General", "estates-gener"), ("Jacobin Club", "jacobin club"),
                          ("Legislative Assembly", "legisl assembl")]
            .enumerated().map { i, pair in Keyphrase(text: pair.0, score: Double(20 - i), occurrences: 2, key: pair.1) }
        let options = ClozeBuilder().distractors(for: cloze, among: candidates, count: 3)
        #expect(Set(options).isDisjoint(with: ["September 1792", "October 1793", "20 June"]), "\(options)")
        let date = try item(answer: "20 June", in: "On 20 June the king and his family fled Paris in disguise.")
        #expect(Set(ClozeBuilder().distractors(for: date, among: candidates, count: 2)) == ["September 1792", "October 1793"])
    }

    @Test func lonelyYearsGetNearbyYears() throws {
        let cloze = try item(answer: "1961", in: "Melvin Calvin received the Nobel Prize in 1961 for this work.")
        let words = Self.mixedKeyphrases.filter { Int($0.text) == nil }
        let options = ClozeBuilder().distractors(for: cloze, among: words, count: 3)
        #expect(options.count == 3)
        #expect(options.allSatisfy { Int($0).map { abs($0 - 1961) <= 30 && $0 != 1961 } ?? false }, "\(options)")
    }

    // MARK: Session 31: blanks a student can answer, options of the answer's kind

    private func items(_ text: String, _ phrases: [String]) -> [ClozeItem] {
        let keyphrases = phrases.enumerated().map { index, phrase in
            Keyphrase(text: phrase, score: Double(20 - index), occurrences: 3,
                      key: TermNormalizer.words(in: phrase).map(\.stem).joined(separator: " "))
        }
        let units = SentenceSplitter().split(text)
        return ClozeBuilder(minWords: 4, screensCommonWords: true).items(from: SentenceRanker().rank(units), keyphrases: keyphrases, limit: 10)
    }

    /// "for the MANUAL and _____, the key field …" (PROCEEDINGS entry types) blanks part of a
    /// coordinated phrase; the sentence's other term is asked instead.
    @Test func aBlankTakesNoPartOfACoordinatedPhrase() {
        let asked = items(
            "For the MANUAL and PROCEEDINGS entry types, the key field takes precedence over the organization field.",
            ["PROCEEDINGS entry types", "organization field"])
        #expect(asked.map(\.answer) == ["organization field"])
        // Alone, the phrase is a fair blank.
        #expect(items("The PROCEEDINGS entry types use the address field for the conference.", ["PROCEEDINGS entry types"])
            .map(\.answer) == ["PROCEEDINGS entry types"])
    }

    /// Blanks no rewrite can ask about (#53): a piece of a formula or of code, a word of an aside,
    /// a word said twice. Each row: the sentence, its key terms best first, the blank chosen (none
    /// when no term of the sentence is a fair blank).
    @Test(arguments: [
        // A piece of a formula: the next term is asked, or none.
        ("Binary search needs about log2(n) + 1 comparisons, so its running time is O(log n).",
         ["log", "comparisons"], "comparisons"),
        ("Binary search uses O(1) extra memory when it is written as a loop.", ["1", "extra memory"], "extra memory"),
        ("The force is F = m·a = 2 kg × 3 m/s² = 6 N for the trolley.", ["2 kg"], nil),
        ("Suppose the town's demand curve reads Qd = 500 - 20P in dollars.", ["500", "demand curve"], "demand curve"),
        ("One newton gives a mass of 1 kg an acceleration of 1 m/s², so 1 N = 1 kg·m/s².", ["1 kg", "acceleration"],
         "acceleration"),
        ("Computing the middle as (low + high) / 2 can overflow for large arrays.", ["low", "overflow"], "overflow"),
        // A word of an aside: relative clause, participle, hedge.
        ("The usual version, written as a loop, keeps two indices that mark the part still searched.",
         ["loop", "indices"], "indices"),
        ("Insert key 20: the remainder is again 4, which is a collision, so the key joins the overflow chain.",
         ["collision", "overflow chain"], "overflow chain"),
        ("An antigen is any molecule, often a protein on a pathogen, that the immune system can recognise.",
         ["pathogen", "antigen"], "antigen"),
        ("Printing spread vernacular languages, the languages spoken by ordinary people, and fixed spelling.",
         ["ordinary people", "spelling"], "spelling"),
        // A word said twice: the one place to ask about is gone.
        ("Linear search checks the elements one by one and needs n comparisons for an array of n elements.",
         ["elements", "linear search"], "Linear search"),
        ("Each bucket holds a small list of the entries whose keys hash to that bucket.", ["bucket", "entries"],
         "entries"),
        // Fair blanks stay: an appositive that names the thing, a defined term said twice, brackets
        // without an operator, a number with its unit, a date's range.
        ("The Ring of Fire, the chain of subduction zones around the Pacific Ocean, has many strong earthquakes.",
         ["subduction zones"], "subduction zones"),
        ("Inertia is the tendency of an object to resist changes in its motion, and mass is a measure of its inertia.",
         ["Inertia"], "Inertia"),
        ("A vaccine may contain a weakened (attenuated) live pathogen that the body learns to fight.",
         ["attenuated"], "attenuated"),
        ("Weight is the force on an object, W = m·g, where g is about 9.8 m/s² near the surface.", ["9.8"], "9.8"),
        ("When the Sun, the Moon and the Earth are in line, at new moon and full moon, their pulls add up.",
         ["new moon"], "new moon"),
        // A sentence's opening verb in "-ing" with its object is no term; a noun in "-ing" is.
        ("Computing the middle as low plus high can overflow when both indices are large integers.",
         ["Computing", "large integers"], "large integers"),
        ("Printing spread quickly across the towns of Europe after 1450.", ["Printing"], "Printing"),
        // A verb after a comma with its object is the sentence's own, no aside.
        ("The king withdrew his troops, recalled Necker and on 17 July visited Paris, where he was cheered.",
         ["Necker"], "Necker"),
        ("The calendar, introduced in 1793, replaced the Christian week with décades, and renamed the months.",
         ["décades"], "décades"),
    ] as [(String, [String], String?)])
    func aBlankIsNoPieceOfAFormulaNoWordOfAnAsideAndNotSaidTwice(sentence: String, terms: [String], blank: String?) {
        #expect(items(sentence, terms).first?.answer == blank, "\(sentence)")
    }

    @Test func aFormulasPlacesAreFound() {
        func inFormula(_ text: String, _ word: String) -> Bool {
            let chars = Array(text)
            let start = text.distance(from: text.startIndex, to: text.range(of: word)!.lowerBound)
            return ClozeBuilder.isInAFormula(chars, start..<(start + word.count))
        }
        #expect(inFormula("its running time is O(log n).", "log"))
        #expect(inFormula("call bisect(a, x) to find", "bisect"))
        #expect(inFormula("so Qd = 500 - 20P here", "500"))
        #expect(!inFormula("the light-dependent reactions", "light"))
        #expect(!inFormula("from 1347–1351 the plague spread", "1347"))
        #expect(!inFormula("a speed of 3 m/s in a line", "3"))
        #expect(!inFormula("it takes O(n) time in the worst case", "time"))
    }

    /// "Optional fields: editor, _____ or number, series, …" could be any field of the list.
    @Test func aBlankIsNoItemOfAList() {
        let list = "Optional fields: editor, volume or number, series, type, chapter, pages, address, edition, month, note."
        #expect(items(list, ["volume", "editor", "series"]).isEmpty)
        #expect(items("Basic macros set the family, font, point size, leading and line length of the type.", ["font"]).isEmpty)
        #expect(ClozeBuilder.isInEnumeration(Array("Optional fields: volume or number, series, type, note."), 17..<23))
        #expect(!ClozeBuilder.isInEnumeration(Array("The volume field, not the number, holds the series."), 4..<10))
    }

    /// "the _____ PEP carboxylase" asks for "enzyme", the kind, where the name is the term; so
    /// does "the asn1_der_decoding() _____" (function). A single capital is a type, not a name:
    /// "helper" in "helper T cells" stays a blank.
    @Test func aWordSaidAsTheKindOfANameIsNoBlank() {
        #expect(items("In their mesophyll cells the enzyme PEP carboxylase fixes CO2 into a four-carbon acid.", ["enzyme", "four-carbon acid"])
            .map(\.answer) == ["four-carbon acid"])
        #expect(items("The gene BRCA1 repairs broken strands of DNA in the cell.", ["gene", "DNA"]).map(\.answer) == ["DNA"])
        #expect(items("It is created by the asn1_der_decoding() function from the encoded bytes.", ["function", "encoded bytes"])
            .map(\.answer) == ["encoded bytes"])
        #expect(items("HIV infects helper T cells, which weakens the whole immune system.", ["helper"]).map(\.answer) == ["helper"])
        // Where it names no neighbour, the same word is a blank.
        #expect(items("Every enzyme speeds up one reaction without being used up itself.", ["enzyme"]).map(\.answer) == ["enzyme"])
    }

    /// "The French _____ is the decade …" asks for half a name (samples/long.pdf, where "French
    /// Revolution" is said too seldom to be a key term of its own); a term after a name that
    /// qualifies it ("default Debian _____", Python version) is a blank.
    @Test func aBlankIsNoPartOfALongerName() {
        let text = "The French Revolution is the decade between the meeting of the Estates-General in May 1789 and the coup."
        #expect(items(text, ["Revolution", "Estates-General"]).map(\.answer) == ["Estates-General"])
        #expect(items("Louis XVI was executed in January 1793 after a trial by the Convention.", ["Louis", "Convention"])
            .map(\.answer) == ["Convention"])
        #expect(items("The maintainers discuss the readiness for a new default Debian Python version in the archive.", ["Python version"])
            .map(\.answer) == ["Python version"])
    }

    /// "a _____ centre" asks for half of "reaction centre", a term the text says three times
    /// though not among its key terms; the analysis hands the builder such repeated compounds.
    @Test func aBlankIsNoPartOfACompoundTheTextRepeats() throws {
        let sentence = "A light-harvesting antenna complex funnels energy to a reaction centre, where the electron is lost."
        let keyphrases = [Keyphrase(text: "reaction", score: 9, occurrences: 4, key: "reaction"),
                          Keyphrase(text: "antenna complex", score: 8, occurrences: 2, key: "antenna complex")]
        let units = SentenceSplitter().split(sentence)
        let builder = ClozeBuilder(minWords: 4, screensCommonWords: true)
        #expect(builder.items(from: SentenceRanker().rank(units), keyphrases: keyphrases).map(\.answer) == ["reaction"])
        #expect(builder.items(from: SentenceRanker().rank(units), keyphrases: keyphrases, compounds: [["reaction", "centr"]])
            .map(\.answer) == ["antenna complex"])
        let text = """
            The reaction centre of photosystem II is called P680. The reaction centre of photosystem I is P700.
            Each reaction centre holds a special pair of chlorophyll molecules.
            """
        let analysis = BuiltinAnalysis(text: text, title: nil)
        let stems = TermNormalizer.words(in: "reaction centre").map(\.stem)
        #expect(analysis.compounds.contains(stems), "\(analysis.compounds)")
    }

    /// A blank holds no quotation mark ("the “_____ follows" for "url” command"), starts after no
    /// TeX backslash ("\citet and \_____"), is no list item's number ("_____. In general, …")
    /// and no verb that opens the sentence ("_____ \bibsection to the sectioning command").
    @Test func aBlankIsAWholeTermAsTheTextWritesIt() {
        #expect(items("The “url” command follows whatever style is currently set for the output.", ["url” command"]).isEmpty)
        #expect(items("The package has two citation commands, \\citet and \\citep for textual citations.", ["citep"]).isEmpty)
        #expect(items("1. In general, sorting is now by author, then year, then title of the entry.", ["1"]).isEmpty)
        #expect(items("Redefine \\bibsection to the desired sectioning command for the references.", ["Redefine"]).isEmpty)
        #expect(ClozeBuilder.cutsAToken(Array("\\citep and"), 1..<6))
        #expect(ClozeBuilder.cutsAToken(Array("kernel@stock"), 7..<12))
        #expect(ClozeBuilder.cutsAToken(Array("\\@spaces 11"), 2..<8))
        #expect(!ClozeBuilder.cutsAToken(Array("the spaces 11"), 4..<10))
    }

    /// For a concept ("optional fields", written "Optional fields:" at the head of list after list)
    /// the options are concepts, not a person ("van Leunen"), a book ("LATEX book"), a quoted title
    /// ("Designing BibTeX Styles") or an example value ("World Gnus Almanac"); plural with plural.
    @Test func distractorsAreOfTheAnswersKind() throws {
        let sentence = "Each entry type lists its optional fields for the bibliography styles."
        let units = SentenceSplitter().split(sentence)
        let answer = Keyphrase(text: "Optional fields", score: 20, occurrences: 9, key: "optional field", lowerCaseText: "optional fields")
        let others = ["van Leunen", "LATEX book", "Designing BibTeX Styles", "World Gnus Almanac", "database files", "cross reference",
                      "bib entries", "label", "citation keys"].enumerated().map { index, text in
            Keyphrase(text: text, score: Double(19 - index), occurrences: 3, key: TermNormalizer.words(in: text).map(\.stem).joined(separator: " "))
        }
        let item = try #require(ClozeBuilder(minWords: 4).items(from: SentenceRanker().rank(units), keyphrases: [answer], limit: 1).first)
        let options = ClozeBuilder().distractors(
            for: item, among: [answer] + others, count: 3, quoted: ["designing bibtex styles", "world gnus almanac"])
        #expect(options == ["database files", "bib entries", "citation keys"], "\(options)")
        // A heading's adjective, shown as the text writes it in lower case, is no option beside a term.
        for word in ["interactive", "optional", "virtual", "rebuild"] { #expect(BuiltinEngine.isPlainlyNoTerm(word, inflectedAsAVerb: { _ in true }), "\(word)") }
        for term in ["database files", "Interactive Mode", "optional fields"] { #expect(!BuiltinEngine.isPlainlyNoTerm(term, inflectedAsAVerb: { _ in true }), "\(term)") }
        // Pieces of clauses the keyphrase extractor took for terms (samples/notes.pdf, the supply
        // and demand and plate tectonics documents, groff's mom): no options beside a term.
        for clause in ["absorbs light", "reduce NADP", "assumes users", "buyers want", "plates move", "vaccines train"] {
            #expect(BuiltinEngine.isPlainlyNoTerm(clause, inflectedAsAVerb: { _ in true }), "\(clause)")
        }
        for term in ["natural selection", "genetic drift", "inner do-loop", "typesetting macros", "C4 plants", "reaction centre"] {
            #expect(!BuiltinEngine.isPlainlyNoTerm(term, inflectedAsAVerb: { _ in true }), "\(term)")
        }
        // A plain form opens a clause only when the text inflects it as a verb: "reduce" (the
        // text says "reduces"), not "new", "civil" or "cheap", which no text writes with "-ed".
        let notes = BuiltinAnalysis(text: "Light energy reduces NADP. The cycle needs to reduce NADP again.", title: nil)
        #expect(BuiltinEngine.isPlainlyNoTerm("reduce NADP", inflectedAsAVerb: notes.inflectsAsAVerb))
        let history = BuiltinAnalysis(text: "A new version came out. The civil war ended. Cheap woodcut images spread fast.", title: nil)
        for term in ["new version", "civil war", "cheap woodcut images"] {
            #expect(!BuiltinEngine.isPlainlyNoTerm(term, inflectedAsAVerb: history.inflectsAsAVerb), "\(term)")
        }
        #expect(ClozeBuilder.isPlural("optional fields") && !ClozeBuilder.isPlural("class") && !ClozeBuilder.isPlural("cross reference"))
    }
}
