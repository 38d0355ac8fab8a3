import Foundation
import Testing
@_spi(Benchmarks) @testable import StudyKit

@Suite struct ContentFitterTests {
    private static func wordCost(_ text: String) -> (Range<String.Index>) -> Int {
        { text[$0].split(whereSeparator: \.isWhitespace).count }
    }

    /// Recomputes a selection's cost from scratch, the way the fitter documents it.
    private static func recomputedCost(_ s: FittedSelection, _ units: [FitUnit], separator: Int, marker: Int) -> Int {
        guard let first = s.keptUnits.first, let last = s.keptUnits.last else { return 0 }
        var cost = s.keptUnits.reduce(0) { $0 + units[$1].cost } + (s.keptUnits.count - 1) * separator
        if first > 0 { cost += marker }
        if last < units.count - 1 { cost += marker }
        for (a, b) in zip(s.keptUnits, s.keptUnits.dropFirst()) where b > a + 1 { cost += marker }
        return cost
    }

    /// Whether the kept pieces appear in the output in document order.
    private static func inDocumentOrder(_ s: FittedSelection, _ text: String) -> Bool {
        var cursor = s.text.startIndex
        for range in s.keptRanges {
            guard let found = s.text.range(of: text[range], range: cursor..<s.text.endIndex) else { return false }
            cursor = found.upperBound
        }
        return zip(s.keptUnits, s.keptUnits.dropFirst()).allSatisfy { $0 < $1 }
    }

    @Test(arguments: [0, 3, 10, 25, 50, 100, 200, 400, 599, 1_000])
    func tokenBudgetIsNeverExceeded(_ budget: Int) throws {
        let text = try BuiltinFixtures.photosynthesis()
        let outline = DocumentOutline(text: text)
        let units = ContentFitter.units(of: outline, cost: Self.wordCost(text))
        let fitter = ContentFitter(separatorCost: 1, markerCost: 2)
        let s = fitter.select(units, from: text, budget: budget)
        #expect(s.cost <= budget)
        #expect(Self.recomputedCost(s, units, separator: 1, marker: 2) == s.cost)
        #expect(Self.inDocumentOrder(s, text))
        if units[0].cost <= budget - 2 {
            #expect(s.keptUnits.first == 0)
        }
    }

    @Test(arguments: [0, 20, 150, 300, 600, 900, 1_500, 2_500, 3_600])
    func characterBudgetIsNeverExceeded(_ budget: Int) throws {
        let text = try BuiltinFixtures.photosynthesis()
        let s = ContentFitter.fitCharacters(text, budget: budget)
        #expect(s.text.count <= budget)
        #expect(s.cost <= budget)
        #expect(Self.inDocumentOrder(s, text))
        let outline = DocumentOutline(text: text)
        if budget >= outline.units[0].text.count + 2 + 5 {
            #expect(s.keptUnits.first == 0)
        }
        if budget >= 600 {
            // Every heading, and prose from the last section.
            let headings = outline.units.filter(\.isHeading).map(\.index)
            #expect(Set(headings).isSubset(of: Set(s.keptUnits)))
            let last = try #require(outline.sections.last)
            #expect(last.sentences.contains { s.keptUnits.contains($0.index) })
            #expect(s.sectionCoverage == 1)
        }
        if !s.isComplete && !s.keptUnits.isEmpty {
            #expect(s.text.contains(ContentFitter.marker))
        }
    }

    @Test func budgetAboveTotalKeepsEverythingUnchanged() throws {
        let text = try BuiltinFixtures.photosynthesis()
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let byCharacters = ContentFitter.fitCharacters(text, budget: trimmed.count)
        #expect(byCharacters.text == trimmed)
        #expect(byCharacters.isComplete)
        #expect(byCharacters.keptCharacters == byCharacters.totalCharacters)

        let units = ContentFitter.units(of: DocumentOutline(text: text), cost: Self.wordCost(text))
        let total = units.reduce(0) { $0 + $1.cost } + (units.count - 1)
        let byTokens = ContentFitter(separatorCost: 1, markerCost: 2).select(units, from: text, budget: total)
        #expect(byTokens.text == trimmed)
        #expect(byTokens.keptUnits == Array(units.indices))
        #expect(byTokens.sectionCoverage == 1)
        let short = ContentFitter(separatorCost: 1, markerCost: 2).select(units, from: text, budget: total - 1)
        #expect(!short.isComplete)
    }

    @Test func openingIsKeptBeforeTheRest() throws {
        let text = try BuiltinFixtures.photosynthesis()
        let s = ContentFitter.fitCharacters(text, budget: 900)
        #expect(s.text.hasPrefix("# Photosynthesis\n\nPhotosynthesis is the process"))
    }

    @Test func titleAndFirstSentenceComeFirstOnATightBudget() throws {
        let text = try BuiltinFixtures.photosynthesis()
        let s = ContentFitter.fitCharacters(text, budget: 150)
        #expect(s.keptUnits.prefix(2) == [0, 1])
        #expect(s.text.hasPrefix("# Photosynthesis\n\nPhotosynthesis is the process"))
        #expect(s.text.count <= 150)
    }

    /// A PDF's title block ("The French Revolution,", "History 210") is not what a text is about:
    /// the opening runs on to its first real sentence, under the first heading, and a tight
    /// budget keeps that sentence rather than the sections' headings and best sentences.
    @Test func theOpeningRunsPastATitleBlockToTheFirstRealSentence() {
        var parts = [
            "The French Revolution,", "1789–1799: Revision Notes", "History 210", "1. Why study the Revolution?",
            "The French Revolution is the decade between the meeting of the Estates-General in May 1789 and Napoleon's seizure of power in 1799.",
        ]
        for n in 2...9 {
            parts.append("\(n). Part number \(n) of the course")
            parts.append("The assembly met again in year \(n) and voted on the new taxes of the kingdom, which the nobles refused to pay.")
        }
        let text = parts.joined(separator: "\n\n")
        let units = ContentFitter.units(of: DocumentOutline(text: text), cost: Self.wordCost(text))
        #expect(ContentFitter.openingUnit(units, in: text) == 4)
        let s = ContentFitter().select(units, from: text, budget: 60)
        #expect(s.text.hasPrefix("The French Revolution,\n\n1789–1799: Revision Notes\n\nHistory 210\n\n1. Why study the Revolution?\n\nThe French Revolution is the decade"))
        // A long run of short lines is not searched through: the first of them opens the text, as before.
        let contents = (1...20).map { "Read chapter \($0) first." }.joined(separator: "\n\n") + "\n\n" + parts[4]
        let contentsUnits = ContentFitter.units(of: DocumentOutline(text: contents), cost: Self.wordCost(contents))
        #expect(ContentFitter.openingUnit(contentsUnits, in: contents) == 0)
    }

    @Test func lastSectionIsRepresentedEvenWhenItRanksLow() {
        // Four on-topic sections and a last one about something else, so its sentences rank last.
        var parts: [String] = []
        for n in 1...4 {
            parts.append("## Leaves \(n)")
            parts.append(
                "Leaves catch light for sugar \(n). Leaves make sugar from light \(n). Light and sugar fill the leaves \(n).")
        }
        parts.append("## Closing")
        parts.append("Remember to revise every chapter before the exam next week. Good luck with all of your exams tomorrow.")
        let text = parts.joined(separator: "\n\n")
        let units = ContentFitter.units(of: DocumentOutline(text: text), cost: Self.wordCost(text))
        let budget = 30
        let s = ContentFitter().select(units, from: text, budget: budget)
        #expect(s.cost <= budget)
        #expect(s.text.contains("Remember to revise") || s.text.contains("Good luck with"))
        #expect(s.sectionCoverage == 1)
    }

    @Test func overflowingHeadingsDropTheDeepestAndLastFirst() {
        let text = "# A\n\n## B\n\n### C\n\n## D\n\n# E"
        let outline = DocumentOutline(text: text)
        #expect(outline.units.allSatisfy { $0.isHeading })
        let units = ContentFitter.units(of: outline) { _ in 10 }
        let s = ContentFitter(headingShare: 1).select(units, from: text, budget: 30)
        #expect(s.keptUnits == [0, 1, 4])
        #expect(s.text == "# A\n\n## B\n\n[…]\n\n# E")
    }

    /// Many short sections: headings alone could fill the budget and send no content at all.
    @Test func headingsCannotCrowdOutTheText() {
        var parts: [String] = ["Opening words of the notes come first here."]
        for n in 1...60 {
            parts.append("## Topic \(n)")
            parts.append("Topic \(n) explains one idea about cells in several plain words.")
        }
        let text = parts.joined(separator: "\n\n")
        let units = ContentFitter.units(of: DocumentOutline(text: text), cost: Self.wordCost(text))
        let budget = 200
        let s = ContentFitter().select(units, from: text, budget: budget)
        #expect(s.cost <= budget)
        let keptProse = s.keptUnits.filter { !units[$0].isHeading }.count
        let keptHeadings = s.keptUnits.filter { units[$0].isHeading }.count
        #expect(keptProse >= 10, "kept \(keptProse) sentences and \(keptHeadings) headings")
        // Every kept sentence past the opening comes with its heading.
        for u in s.keptUnits where !units[u].isHeading && units[u].section > 0 {
            #expect(s.keptUnits.contains { units[$0].isHeading && units[$0].section == units[u].section })
        }
    }

    @Test func tinyBudgetsGiveEmptySelections() throws {
        let text = try BuiltinFixtures.photosynthesis()
        let s = ContentFitter.fitCharacters(text, budget: 5)
        #expect(s.text.isEmpty)
        #expect(s.keptUnits.isEmpty)
        #expect(s.sectionCoverage == 0)
        let empty = ContentFitter.fitCharacters("", budget: 100)
        #expect(empty.text.isEmpty)
        #expect(empty.isComplete)
    }

    @Test func sameInputSameSelection() throws {
        let text = try BuiltinFixtures.photosynthesis()
        #expect(ContentFitter.fitCharacters(text, budget: 700) == ContentFitter.fitCharacters(text, budget: 700))
    }
}
