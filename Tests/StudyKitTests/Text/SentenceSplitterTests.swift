import Foundation
import Testing
@_spi(Benchmarks) @testable import StudyKit

/// One splitter case: input text and the expected units, headings written as `H<level>:title`.
struct SentenceSplitCase: Sendable, CustomTestStringConvertible {
    let name: String
    let text: String
    let expected: [String]
    var testDescription: String { name }
}

@Suite struct SentenceSplitterTests {
    static let cases: [SentenceSplitCase] = [
        SentenceSplitCase(name: "empty", text: "", expected: []),
        SentenceSplitCase(name: "whitespace only", text: " \n\n \t\n", expected: []),
        SentenceSplitCase(
            name: "plain sentences", text: "Plants need light. They also need water! Do they need soil?",
            expected: ["Plants need light.", "They also need water!", "Do they need soil?"]),
        SentenceSplitCase(
            name: "titles", text: "Dr. Smith met Mr. Jones and Prof. Lee. They talked.",
            expected: ["Dr. Smith met Mr. Jones and Prof. Lee.", "They talked."]),
        SentenceSplitCase(
            name: "latin abbreviations",
            text: "Use a pigment, e.g. chlorophyll, i.e. the green one. See Fig. 3 for details.",
            expected: ["Use a pigment, e.g. chlorophyll, i.e. the green one.", "See Fig. 3 for details."]),
        SentenceSplitCase(
            name: "e.g. before a capital", text: "Some cells, e.g. Neurons, are long. Others are not.",
            expected: ["Some cells, e.g. Neurons, are long.", "Others are not."]),
        SentenceSplitCase(
            name: "etc. at a sentence end", text: "Bring pens, paper, etc. Then sit down.",
            expected: ["Bring pens, paper, etc.", "Then sit down."]),
        SentenceSplitCase(
            name: "etc. inside a sentence", text: "Pens, paper, etc. are allowed here.",
            expected: ["Pens, paper, etc. are allowed here."]),
        SentenceSplitCase(
            name: "U.S. inside and at the end",
            text: "The U.S. economy grew. Prices rose in the U.S. Wages did not.",
            expected: ["The U.S. economy grew.", "Prices rose in the U.S.", "Wages did not."]),
        SentenceSplitCase(
            name: "vs.", text: "It was Lakers vs. Celtics. The Celtics won.",
            expected: ["It was Lakers vs. Celtics.", "The Celtics won."]),
        SentenceSplitCase(
            name: "decimals and versions", text: "Pi is about 3.14 and e is 2.718. Version 1.2.3 shipped.",
            expected: ["Pi is about 3.14 and e is 2.718.", "Version 1.2.3 shipped."]),
        SentenceSplitCase(
            name: "initials", text: "J. R. R. Tolkien wrote it. John F. Kennedy read it.",
            expected: ["J. R. R. Tolkien wrote it.", "John F. Kennedy read it."]),
        SentenceSplitCase(
            name: "ellipsis", text: "He waited... Nothing happened. Then… a sound. And so... it went on.",
            expected: ["He waited...", "Nothing happened.", "Then… a sound.", "And so... it went on."]),
        SentenceSplitCase(
            name: "quotes after the point", text: "He said \"Stop.\" Then he left. She asked “Why?” Nobody knew.",
            expected: ["He said \"Stop.\"", "Then he left.", "She asked “Why?”", "Nobody knew."]),
        SentenceSplitCase(
            name: "quote then lower case", text: "\"Stop!\" he said. It worked.",
            expected: ["\"Stop!\" he said.", "It worked."]),
        SentenceSplitCase(
            name: "brackets", text: "The leaf is green (see Fig. 2.) The root is not.",
            expected: ["The leaf is green (see Fig. 2.)", "The root is not."]),
        SentenceSplitCase(
            name: "interrobang runs", text: "Really?! Yes!!! Fine.", expected: ["Really?!", "Yes!!!", "Fine."]),
        SentenceSplitCase(
            name: "number abbreviation", text: "See No. 5 in the list. The answer is no. Try again.",
            expected: ["See No. 5 in the list.", "The answer is no.", "Try again."]),
        SentenceSplitCase(
            name: "paragraph ends a sentence",
            text: "This first paragraph has no full stop at its end but it is long prose\n\nSecond one here.",
            expected: ["This first paragraph has no full stop at its end but it is long prose", "Second one here."]),
        SentenceSplitCase(
            name: "no punctuation at all", text: "this text has no punctuation at all and it just goes on",
            expected: ["this text has no punctuation at all and it just goes on"]),
        SentenceSplitCase(
            name: "markdown headings", text: "# Cells\n\nCells are small. They divide.\n\n## Mitosis\n\nMitosis has phases.",
            expected: ["H1:Cells", "Cells are small.", "They divide.", "H2:Mitosis", "Mitosis has phases."]),
        SentenceSplitCase(
            name: "markdown heading inside a paragraph", text: "Intro text here.\n### Details ###\nMore text follows.",
            expected: ["Intro text here.", "H3:Details", "More text follows."]),
        SentenceSplitCase(
            name: "pdf-like headings",
            text: "Photosynthesis\n\nPlants make sugar. They use light.\n\n2. The Light Reactions\n\nLight splits water.\n\n2.1 Photosystems\n\nThere are two.",
            expected: [
                "H1:Photosynthesis", "Plants make sugar.", "They use light.", "H2:2. The Light Reactions",
                "Light splits water.", "H3:2.1 Photosystems", "There are two.",
            ]),
        SentenceSplitCase(
            name: "short last line is not a heading", text: "Some prose here.\n\nThe End",
            expected: ["Some prose here.", "The End"]),
        SentenceSplitCase(
            name: "lower-case short line is not a heading", text: "and then it stopped\n\nNext paragraph.",
            expected: ["and then it stopped", "Next paragraph."]),
        SentenceSplitCase(
            name: "list items", text: "Steps to follow:\n- Mix the flour\n- Add water. Stir well\n1. Bake it\n2) Eat it",
            expected: ["Steps to follow:", "- Mix the flour", "- Add water.", "Stir well", "1. Bake it", "2) Eat it"]),
        SentenceSplitCase(
            name: "line break inside a sentence", text: "This sentence is\nbroken over lines. Next.",
            expected: ["This sentence is\nbroken over lines.", "Next."]),
        SentenceSplitCase(
            name: "CJK", text: "光合作用是植物的过程。它需要光！为什么？因为能量。",
            expected: ["光合作用是植物的过程。", "它需要光！", "为什么？", "因为能量。"]),
        SentenceSplitCase(
            name: "Japanese without final stop", text: "これはペンです。あれは本", expected: ["これはペンです。", "あれは本"]),
        SentenceSplitCase(
            name: "Japanese quotation inside a sentence", text: "先生は「光が必要だ。」と言った。次に、葉を観察した！本当か？",
            expected: ["先生は「光が必要だ。」と言った。", "次に、葉を観察した！", "本当か？"]),
        SentenceSplitCase(
            name: "Japanese stop closing a quotation", text: "「マグマは上昇する。」それが噴火の始まりである。",
            expected: ["「マグマは上昇する。」", "それが噴火の始まりである。"]),
        SentenceSplitCase(
            name: "full-width and half-width stops", text: "溶岩が流れる．火山灰が降る｡噴火が終わる！？次の段階へ。",
            expected: ["溶岩が流れる．", "火山灰が降る｡", "噴火が終わる！？", "次の段階へ。"]),
        SentenceSplitCase(
            name: "Japanese paragraphs and a heading", text: "## マグマの生成\n\n地下深くでマグマができる。マグマは上昇する。",
            expected: ["H2:マグマの生成", "地下深くでマグマができる。", "マグマは上昇する。"]),
        // Plain-text notes (samples/eval/en-physics-newton.txt): a heading right above its paragraph.
        SentenceSplitCase(
            name: "a heading line above its paragraph", text: "Newton's Laws\n\nIntroduction\nIsaac Newton published his three laws of motion in 1687.\n\nThe end of the notes.",
            expected: ["H1:Newton's Laws", "H2:Introduction", "Isaac Newton published his three laws of motion in 1687.", "The end of the notes."]),
        SentenceSplitCase(
            name: "a wrapped sentence is not a heading", text: "Photosynthesis\nis the process by which plants make sugar from light.\n\nMore text follows here.",
            expected: ["Photosynthesis\nis the process by which plants make sugar from light.", "More text follows here."]),
        SentenceSplitCase(
            name: "a long first line is not a heading", text: "Plants capture the energy of sunlight in chloroplasts\nAnd store it as sugar for later use by the cell.\n\nMore.",
            expected: ["Plants capture the energy of sunlight in chloroplasts\nAnd store it as sugar for later use by the cell.", "More."]),
        SentenceSplitCase(
            name: "accents", text: "L’été est très chaud. Ça va? Où est Zoë.",
            expected: ["L’été est très chaud.", "Ça va?", "Où est Zoë."]),
        SentenceSplitCase(
            name: "emoji", text: "Plants love light 🌱. They grow fast 🚀! 👍 Great.",
            expected: ["Plants love light 🌱.", "They grow fast 🚀!", "👍 Great."]),
    ]

    @Test(arguments: cases)
    func splits(_ c: SentenceSplitCase) {
        let units = SentenceSplitter().split(c.text)
        let rendered = units.map { $0.isHeading ? "H\($0.headingLevel):\($0.text)" : $0.text }
        #expect(rendered == c.expected)
    }

    @Test(arguments: cases)
    func rangesAndOffsetsPointAtTheText(_ c: SentenceSplitCase) {
        let units = SentenceSplitter().split(c.text)
        for (i, unit) in units.enumerated() {
            #expect(unit.index == i)
            let start = c.text.index(c.text.startIndex, offsetBy: unit.offsets.lowerBound)
            let end = c.text.index(c.text.startIndex, offsetBy: unit.offsets.upperBound)
            #expect(start..<end == unit.range)
            if unit.isHeading {
                #expect(c.text[unit.range].contains(unit.text))
            } else {
                #expect(String(c.text[unit.range]) == unit.text)
            }
        }
        // Units are in order and never overlap.
        for (a, b) in zip(units, units.dropFirst()) {
            #expect(a.range.upperBound <= b.range.lowerBound)
        }
    }

    @Test func paragraphsAreNumbered() {
        let units = SentenceSplitter().split("One. Two.\n\nThree.\n\n\n\nFour.")
        #expect(units.map(\.paragraph) == [0, 0, 1, 2])
    }

    @Test func listItemsAreFlagged() {
        let units = SentenceSplitter().split("Intro line:\n- first item\n- second item")
        #expect(units.map(\.isListItem) == [false, true, true])
    }

    @Test func runOnTextIsCutAtWordBoundaries() {
        let word = "photosynthesis "
        let text = String(repeating: word, count: 200).trimmingCharacters(in: .whitespaces)
        let units = SentenceSplitter(maxSentenceLength: 100).split(text)
        #expect(units.count > 25)
        #expect(units.allSatisfy { $0.text.count <= 100 })
        #expect(units.allSatisfy { !$0.text.hasPrefix(" ") && $0.text.hasSuffix("photosynthesis") })
        #expect(units.map(\.text).joined(separator: " ") == text)
    }

    @Test func runOnTextWithoutSpacesIsCutHard() {
        let text = String(repeating: "光", count: 250)
        let units = SentenceSplitter(maxSentenceLength: 100).split(text)
        #expect(units.map(\.text.count) == [100, 100, 50])
    }
}

@Suite("Numbered question headings")
struct NumberedQuestionHeadingTests {
    @Test func aNumberedSectionThatAsksIsAHeading() {
        let text = "Notes on the Revolution\n\n1. Why study the Revolution?\n\nIt changed Europe for ever. Its ideas spread quickly.\n\nWhy does it matter?\n\nThe last words close the notes here."
        let units = SentenceSplitter().split(text)
        #expect(units.first { $0.text.contains("Why study") }?.isHeading == true)
        #expect(units.first { $0.text.contains("Why study") }?.headingLevel == 2)
        // An unnumbered question stays prose.
        #expect(units.first { $0.text.contains("Why does it matter") }?.isHeading == false)
    }
}

/// Text the HTML importer renders from a reference page: code fenced, headings marked with `#`.
@Suite("Code blocks and declared headings")
struct CodeAndDeclaredHeadingTests {
    @Test func aFencedBlockIsOneCodeUnitWhateverItsPointsAndBlankLines() {
        let text = "## Events\n\nEmitters emit named events. Listeners are called.\n\n```\nconst e = new EventEmitter();\n\ne.on('event', () => {\n  console.log('A.');\n});\n```\n\nThe last sentence is prose."
        let units = SentenceSplitter().split(text)
        #expect(units.map(\.text) == [
            "Events", "Emitters emit named events.", "Listeners are called.",
            "const e = new EventEmitter();\n\ne.on('event', () => {\n  console.log('A.');\n});", "The last sentence is prose.",
        ])
        #expect(units.map(\.isCode) == [false, false, false, true, false])
    }

    @Test func anUnclosedFenceRunsToTheEnd() {
        let units = SentenceSplitter().split("Some prose comes first here.\n\n```\nint main(void) {\n  return 0;")
        #expect(units.map(\.isCode) == [false, true])
        #expect(units.last?.text == "int main(void) {\n  return 0;")
    }

    @Test func shortLinesAreParagraphsInTextThatMarksItsHeadings() {
        let marked = "## Events\n\nSource Code: lib/events.js\n\nMuch of the core API is built around events.\n\n### Class: EventEmitter\n\nAdded in: v0.1.26\n\nThe class is defined by the events module."
        let units = SentenceSplitter().split(marked)
        #expect(units.filter(\.isHeading).map(\.text) == ["Events", "Class: EventEmitter"])
        #expect(units.first { $0.text == "Added in: v0.1.26" }?.isHeading == false)
        // Without `#` headings (a PDF's text) a short line is still taken for a heading.
        let unmarked = "Photosynthesis\n\nPlants make sugar from light and water.\n\nThe Calvin Cycle\n\nCarbon is fixed in the stroma."
        #expect(SentenceSplitter().split(unmarked).filter(\.isHeading).map(\.text) == ["Photosynthesis", "The Calvin Cycle"])
    }
}
