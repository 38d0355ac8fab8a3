import Testing
@testable import StudyKit

@Suite struct ProseTextTests {
    @Test(arguments: [
        "This is useful when parameter names have no real meaning.",
        "It must be followed by the function name.",
        "If used, these symbols indicate the kind of parameter.",
        "However, the stroma holds the enzymes.",
        "They scoop up all remaining input arguments.",
    ])
    func sentencesThatLeanOnTheOneBefore(_ sentence: String) {
        #expect(ProseText.leansOnContext(sentence))
    }

    @Test(arguments: [
        "It is also possible to define functions with a variable number of arguments.",
        "It is known that chlorophyll absorbs red and blue light.",
        "The stroma holds the enzymes of the Calvin cycle.",
        "In prophase, the chromosomes condense.",
        "There are three forms, which can be combined.",
    ])
    func sentencesThatStandAlone(_ sentence: String) {
        #expect(!ProseText.leansOnContext(sentence))
    }

    @Test func aUnitThatBreaksOffIsUnfinished() {
        #expect(ProseText.isUnfinished("the following function accumulates the arguments passed to it:"))
        #expect(ProseText.isUnfinished("the values are evaluated in the defining scope, so that"))
        #expect(ProseText.isUnfinished("the called function when it is called; thus,"))
        #expect(!ProseText.isUnfinished("The stroma holds the enzymes of the Calvin cycle."))
        #expect(!ProseText.isUnfinished("Light intensity"))
        #expect(!ProseText.isUnfinished("Which values are allowed here? Those of the type"))
    }

    @Test func aSentenceOpeningOnACodeNameKeepsItsCase() {
        #expect(ProseText.sentence("list.index(x): Return the index of x") == "list.index(x): Return the index of x.")
        #expect(ProseText.sentence("sorted() returns a new list") == "sorted() returns a new list.")
        #expect(ProseText.sentence("the stroma holds the enzymes") == "The stroma holds the enzymes.")
    }
}
