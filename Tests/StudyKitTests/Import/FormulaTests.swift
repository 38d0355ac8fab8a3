import Foundation
import Testing

@testable import StudyKit

/// Issue 52: formulas survive. A page's MathML becomes TeX in the text (`$…$`, `$$…$$`) and
/// keeps its MathML beside it; grounding reads a formula as one token; kit.html writes the
/// page's MathML back, Anki gets `\(…\)`, Markdown keeps the TeX.
@Suite("Formulas: MathML to TeX and back")
struct FormulaTests {
    // MARK: - Spans

    @Test(arguments: [
        ("Given $N$ objects", ["$N$"]),
        ("so $$\\Delta S = \\frac{Q}{T}$$ holds", ["$$\\Delta S = \\frac{Q}{T}$$"]),
        ("It costs $5 and $10 today.", []),
        ("Prices: $5, $6 and $7.", []),
        ("escaped \\$x$ is none", []),
        ("two $a$ and $b_{i}$ here", ["$a$", "$b_{i}$"]),
        ("a line\n$x\ny$ breaks", []),
    ])
    func spansFollowPandocsRule(_ text: String, _ expected: [String]) {
        #expect(FormulaText.spans(in: text).map { String(text[$0]) } == expected)
    }

    @Test func displaysGoOnLinesOfTheirOwn() {
        #expect(
            FormulaText.displaysOnOwnLines("as follows: $$x = 1$$ where x is one")
                == "as follows:\n$$x = 1$$\nwhere x is one")
        #expect(FormulaText.displaysOnOwnLines("$$x = 1$$") == "$$x = 1$$")
        #expect(FormulaText.isOnlyFormula("$$KL(P||Q)=\\sum p$$"))
        #expect(!FormulaText.isOnlyFormula("the sum $p$ of all"))
    }

    // MARK: - MathML

    static func importHTML(_ body: String) throws -> Document {
        let prose = String(
            repeating: "A formula relates quantities that a student should learn to read aloud and to use. ", count: 3)
        return try ImportFixtures.articleDocument(title: "Formulas", prose: "<p>" + prose + "</p>", inner: body)
    }

    struct MathCase: Sendable, CustomTestStringConvertible {
        let name: String
        let html: String
        let text: String
        var testDescription: String { name }
    }

    static let math: [MathCase] = [
        MathCase(
            name: "MediaWiki's hidden MathML with alttext, inline",
            html:
                #"<p>Given a set of <span class="mwe-math-element"><span "#
                        + #"class="mwe-math-mathml-inline mwe-math-mathml-a11y" style="display: none;"><math "#
                        + #"alttext="{\displaystyle N}"><semantics><mi>N</mi><annotation "#
                        + #"encoding="application/x-tex">{\displaystyle N}</annotation></semantics></math>"#
                        + #"</span><img class="mwe-math-fallback-image-inline" aria-hidden="true" alt="N">"#
                        + #"</span> objects, it works.</p>"#,
            text: "Given a set of $N$ objects, it works."),
        MathCase(
            name: "MediaWiki's formula alone in a dd is displayed",
            html:
                #"<dl><dd><span class="mwe-math-element"><span style="display: none;"><math "#
                        + #"alttext="{\displaystyle p_{ij}={\frac {a}{b}}}"><mi>p</mi></math></span></span>"#
                        + #"</dd></dl>"#,
            text: "$$p_{ij}={\\frac {a}{b}}$$"),
        MathCase(
            name: "a TeX annotation without alttext",
            html:
                #"<p>The energy <math><semantics><mrow><mi>E</mi></mrow><annotation "#
                        + #"encoding="application/x-tex">E=mc^2</annotation></semantics></math> is "#
                        + #"conserved.</p>"#,
            text: "The energy $E=mc^2$ is conserved."),
        MathCase(
            name: "presentation MathML alone",
            html:
                #"<p>The rate is <math><mi>v</mi><mo>=</mo><mfrac><mrow><msub><mi>V</mi><mi>"#
                        + #"max</mi></msub><mi>S</mi></mrow><mrow><msub><mi>K</mi><mi>m</mi></msub><mo>+</mo>"#
                        + #"<mi>S</mi></mrow></mfrac></math> at first.</p>"#,
            text: "The rate is $v=\\frac{V_\\max S}{K_m+S}$ at first."),
        MathCase(
            name: "a displayed root with Greek letters",
            html:
                #"<div><math display="block"><msqrt><msup><mi>σ</mi><mn>2</mn></msup><mo>+</mo>"#
                        + #"<msup><mi>μ</mi><mn>2</mn></msup></msqrt></math></div>"#,
            text: "$$\\sqrt{\\sigma^2+\\mu^2}$$"),
        MathCase(
            name: "MathJax 2's script and its rendered copy",
            html:
                #"<p>Area <span class="MathJax_Preview">πr²</span><span class="MathJax">π r "#
                        + #"2</span><script type="math/tex">\pi r^2</script> of a disc.</p>"#,
            text: "Area $\\pi r^2$ of a disc."),
        MathCase(
            name: "KaTeX's copy of the TeX",
            html:
                #"<p>Then <span class="katex"><span class="katex-mathml"><math><semantics><mrow>"#
                        + #"<mi>x</mi></mrow><annotation encoding="application/x-tex">x^2</annotation>"#
                        + #"</semantics></math></span><span class="katex-html" aria-hidden="true">x2</span>"#
                        + #"</span> grows.</p>"#,
            text: "Then $x^2$ grows."),
    ]

    @Test(arguments: math)
    func mathMLBecomesTeX(_ test: MathCase) throws {
        let document = try Self.importHTML(test.html)
        #expect(document.text.contains(test.text), "\(test.name): \(document.text)")
        #expect(!document.formulas.isEmpty)
    }

    @Test func theMathMLIsKeptCleanBesideItsTeX() throws {
        let html =
            #"<p>Then <math alttext="x^{2}" onclick="steal()"><msup><mi mathvariant="italic" "#
                    + #"style="color:red">x</mi><mn>2</mn></msup><annotation-xml encoding="text/html"><a "#
                    + #"href="http://x">x</a></annotation-xml></math> grows.</p>"#
        let document = try Self.importHTML(html)
        let formula = try #require(document.formulas.first)
        #expect(formula.tex == "x^{2}" && !formula.isDisplay && formula.span == "$x^{2}$")
        let markup = try #require(formula.mathML)
        #expect(markup.hasPrefix("<math xmlns=\"http://www.w3.org/1998/Math/MathML\">"))
        #expect(markup.contains("<msup><mi mathvariant=\"italic\">x</mi><mn>2</mn></msup>"))
        for unsafe in ["onclick", "style", "annotation-xml", "href", "steal"] {
            #expect(!markup.contains(unsafe), "\(unsafe)")
        }
    }

    @Test func theCorpusPageCarriesItsFormulasAsTeX() async throws {
        let document = try await Importer().load(.file(ImportFixtures.sample("realpages/wikipedia-t-sne.html")))
        #expect(document.text.contains("Given a set of $N$ high-dimensional objects"))
        #expect(document.text.contains("$$KL(P||Q)=\\sum _{i\\neq j}p_{ij}\\log {\\frac {p_{ij}}{q_{ij}}}$$"))
        #expect(document.formulas.count >= 20 && document.formulas.allSatisfy { $0.mathML?.hasPrefix("<math") == true })
        #expect(!document.text.contains("displaystyle"))
    }

    // MARK: - Grounding

    @Test func aFormulaIsOneTokenThatMustStandVerbatim() {
        #expect(GroundingWords.normalizedWords("The set $x_{i}$ grows") == ["the", "set", "$x_{i}$", "grows"])
        let source =
            "Since the Gaussian kernel uses the Euclidean distance $\\lVert "
                    + "x_{i}-x_{j}\\rVert$, it is affected by the curse of dimensionality."
        let exact = Flashcards(cards: [
            Flashcards.Card(question: "What does the kernel use?", answer: "the Euclidean distance", quote: source)
        ])
        #expect(Grounding.issues(in: .flashcards(exact), source: source).isEmpty)
        let edited = source.replacingOccurrences(of: "x_{j}", with: "x_{k}")
        let changed = Flashcards(cards: [
            Flashcards.Card(question: "What does the kernel use?", answer: "the Euclidean distance", quote: edited)
        ])
        #expect(
            !Grounding.issues(in: .flashcards(changed), source: source).isEmpty,
            "a changed formula is not the material's")
    }

    @Test func theBuiltinEngineMakesNoWordsOfTeX() {
        let words = TermNormalizer.words(in: "The divergence $KL(P||Q)=\\sum p_{ij}\\log {\\frac {p}{q}}$ is minimised.")
            .map(\.lowercased)
        #expect(words == ["the", "divergence", "is", "minimised"])
    }

    // MARK: - Renderers

    static let card = Flashcards(cards: [
        Flashcards.Card(
            question: "What is $p_{ij}$ proportional to?", answer: "the similarity of $x_{i}$ and $x_{j}$",
            quote: "The $p_{ij}$ are proportional to the similarity.")
    ])

    static func context(formulas: [String: String]) -> RenderContext {
        var context = RenderContext(sourceIdentity: "/tmp/f.html", title: "Formulas", digest: { $0 })
        context.formulas = formulas
        return context
    }

    @Test func kitHTMLWritesThePagesMathMLAndLeavesAModelsTeX() {
        let mathML =
            "<math xmlns=\"http://www.w3.org/1998/Math/MathML\"><msub><mi>p</mi><mrow><mi>"
                    + "i</mi><mi>j</mi></mrow></msub></math>"
        let page = HTMLRenderer.render(.flashcards(Self.card), context: Self.context(formulas: ["$p_{ij}$": mathML]))
        #expect(page.contains("What is " + mathML + " proportional to?"))
        #expect(page.contains("the similarity of $x_{i}$ and $x_{j}$"), "a formula the material did not have stays TeX")
        #expect(!page.contains("<title><math"))
    }

    @Test func ankiGetsMathJaxDelimitersAndMarkdownKeepsTheTeX() {
        let tsv = AnkiRenderer.render(Self.card, context: Self.context(formulas: [:]))
        #expect(tsv.contains("What is \\(p_{ij}\\) proportional to?"))
        #expect(!tsv.contains("$p_{ij}$"))
        #expect(AnkiNote.withMathJax("so $$S = k_B \\ln W$$ holds") == "so \\[S = k_B \\ln W\\] holds")
        let markdown = MarkdownRenderer.render(Self.card, context: Self.context(formulas: [:]))
        #expect(markdown.contains("$p_{ij}$"))
    }
}
