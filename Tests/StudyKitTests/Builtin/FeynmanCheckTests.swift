import Foundation
import Testing
@testable import StudyKit

/// The builtin claim check on a manual-like text (headed sections, concepts named once or
/// twice, facts stated with "only once", "without", "now"): a claim that says the opposite of
/// the material is wrong and its correction quotes the sentence that says otherwise; a right
/// claim whose words are in the concept's section, though not in a sentence naming it, is right.
@Suite("Feynman claim check on a manual")
struct FeynmanCheckTests {
    static let manual = """
        # Functions and packages

        ## Defining functions

        A function is defined with the def keyword, followed by its name and a parenthesized list of parameters. The body of the function starts on the next line and is indented. The keyword return ends the function and hands back a value.

        ## Default parameter values

        The most useful form is to specify a default value for one or more parameters. Such a function can be called with fewer arguments than it declares.

        The default value is evaluated only once, when the function is defined. A mutable object such as a list is therefore shared between subsequent calls. If you do not want the default to be shared between calls, use None as the default and create the list inside the function.

        ## Loops

        The break statement leaves the innermost enclosing loop at once. The continue statement goes on with the next iteration of the loop. A loop may have an else clause, which runs when the loop ends without a break.

        ## Packages

        The purge command removes a package and deletes its configuration files as well. The upgrade command installs newer versions of installed packages without removing any package. The sorting algorithm of the package list is now stable, so entries with equal keys keep the order they were given in.
        """

    private func check(_ concept: String, _ explanation: String) -> FeynmanCheck {
        BuiltinEngine().feynmanCheck(BuiltinAnalysis(text: Self.manual, title: nil), concept: concept, explanation: explanation)
    }

    @Test(arguments: [
        // How often: "every time" where the material says "only once".
        ("default parameter values", "Default values are evaluated every time the function is called.", "only once"),
        // Opposite words: "keeps" where the material deletes.
        ("purge command", "The purge command keeps the configuration files.", "deletes its configuration files"),
        // A word negated on one side only: "removes" / "without removing"; "not stable" / "now stable".
        ("upgrade command", "The upgrade command removes installed packages.", "without removing"),
        ("sorting algorithm", "The sorting algorithm is not stable.", "now stable"),
    ])
    func aClaimThatSaysTheOppositeIsContradicted(concept: String, explanation: String, fact: String) throws {
        let result = check(concept, explanation)
        let claim = try #require(result.wrongClaims.first, "\(result.claims)")
        #expect(claim.finding == .contradicted)
        #expect(claim.evidence?.contains(fact) == true, "\(claim.evidence ?? "nil")")
        let feedback = BuiltinEngine().feynmanFeedback(result, analysis: BuiltinAnalysis(text: Self.manual, title: nil))
        #expect(feedback.gaps.first?.point.contains("the material says otherwise") == true)
        #expect(feedback.gaps.first?.correction.contains(fact) == true)
        #expect(feedback.verdict != .solid)
    }

    /// The section headed "Default parameter values" is about the concept whole: "shared
    /// between subsequent calls" is right though the sentence never names default values, and
    /// "If you do not want the default to be shared" is a condition, not a denial.
    @Test func aRightClaimInTheConceptsSectionIsRight() {
        let result = check(
            "default parameter values",
            "The default value is evaluated only once, when the function is defined, so a list default is shared between subsequent calls.")
        #expect(result.wrongClaims.isEmpty, "\(result.wrongClaims)")
        #expect(!result.supportedClaims.isEmpty)
    }

    /// "goes on with the next iteration" is what the material says of `continue`, beside
    /// `break`: the correction points there, and the break statement itself is never the
    /// contradiction though "without a break" negates its name.
    @Test func aSiblingsFactIsMisplacedToTheSibling() throws {
        let result = check("break", "The break statement goes on with the next iteration of the loop.")
        let claim = try #require(result.wrongClaims.first, "\(result.claims)")
        #expect(claim.finding == .misplaced)
        #expect(claim.evidence?.contains("continue statement") == true, "\(claim.evidence ?? "nil")")
    }

    @Test func aRightClaimIsNotContradictedByTheConceptsOwnNegation() {
        let result = check("break", "The break statement leaves the innermost loop.")
        #expect(result.wrongClaims.isEmpty, "\(result.wrongClaims)")
    }

    /// Terms left out are things of the concept: never a verb ("specify") and never a word said
    /// mostly elsewhere ("keyword", from the section on defining functions).
    @Test func termsLeftOutAreTheConceptsThings() {
        let result = check("default parameter values", "Default values are evaluated only once.")
        let terms = result.missedTerms.map(\.text)
        for term in terms {
            let last = TermNormalizer.words(in: term).last?.lowercased ?? ""
            #expect(!EnglishWordClass.isNeverNoun(last), "\(terms)")
        }
        #expect(!terms.contains("specify"))
        #expect(!terms.contains("keyword"))
    }

    /// "and" starts a claim only when a statement follows, not a second noun.
    @Test(arguments: [
        ("It downloads the Packages and Sources files.", ["It downloads the Packages and Sources files"]),
        ("The DNA gets copied and the cell splits in two.", ["The DNA gets copied", "the cell splits in two"]),
        ("Chromosomes condense and become visible.", ["Chromosomes condense and become visible"]),
    ])
    func clausesSplitAtAStatementNotAPair(text: String, expected: [String]) {
        #expect(ClaimWords.clauses(of: text) == expected)
    }
}
