import Foundation
import Testing
@_spi(Benchmarks) @testable import StudyKit

/// `pre` that holds code is fenced, as Markdown marks it, so it is one code unit and never a
/// card or key point; a page set in `pre` as prose stays prose.
@Suite("HTML extraction: code in pre")
struct HTMLPreformattedCodeTests {
    static let prose = "<p>An emitter calls each registered listener when an event is emitted, in the order the listeners were added.</p>"

    @Test(arguments: [
        "<pre><code class=\"language-js\">const a = new EventEmitter();\na.on('x', () => {});</code></pre>",
        "<pre class=\"highlight\">x = 1\nprint(x)</pre>",
        "<pre>const a = new EventEmitter();\na.on('x', () => {});\na.emit('x');</pre>",
    ])
    func codeInPreIsFencedAndNoProse(pre: String) throws {
        let html = "<html><body><article><h1>Events</h1>\(Self.prose)\(pre)\(Self.prose)</article></body></html>"
        let text = try HTMLImporter.extract(Data(html.utf8), encoding: nil, source: "t.html").text
        #expect(text.contains("```\n"), "\(text)")
        let units = SentenceSplitter().split(SourceNormalizer.normalizeText(text))
        #expect(units.count { $0.isCode } == 1, "\(units.map(\.text))")
        #expect(!units.contains { !$0.isCode && ($0.text.contains("=") || $0.text.contains("print(")) })
    }

    @Test func preformattedProseStaysProse() throws {
        let pre = "<pre>The listeners of an event run one after another.\nEach one finishes before the next one starts.</pre>"
        let html = "<html><body><article><h1>Events</h1>\(Self.prose)\(pre)</article></body></html>"
        let text = try HTMLImporter.extract(Data(html.utf8), encoding: nil, source: "t.html").text
        #expect(!text.contains("```"))
        #expect(text.contains("Each one finishes before the next one starts."))
    }

    @Test func twoExamplesInOnePreStayApartAndKeepTheirIndentation() throws {
        let pre = "<pre><code class=\"language-js mjs\">import x from 'y';\nif (x) {\n  run(x);\n}</code><code class=\"language-js cjs\">const x = require('y');</code></pre>"
        let html = "<html><body><article><h1>Events</h1>\(Self.prose)\(pre)\(Self.prose)</article></body></html>"
        let text = SourceNormalizer.normalizeText(try HTMLImporter.extract(Data(html.utf8), encoding: nil, source: "t.html").text)
        #expect(text.contains("if (x) {\n  run(x);\n}\nconst x = require('y');"), "\(text)")
    }
}
