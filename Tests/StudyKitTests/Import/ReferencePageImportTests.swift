import Foundation
import Testing
@testable import StudyKit

/// HTML reference pages the project did not write, in small synthetic form: an API reference in
/// the shape of Node.js's (code examples, version history, stability banners), a DocBook manual
/// (Valgrind's) and a GNU texinfo manual (bc's). What reaches the text is what a student reads.
@Suite("HTML reference pages")
struct ReferencePageImportTests {
    func extract(_ html: String) throws -> HTMLImporter.Extraction { try ImportFixtures.extractHTML(html) }

    func text(_ html: String) throws -> String { try ImportFixtures.htmlText(html) }

    /// Node.js's API page: the module's reference in `#apicontent`, each method with its
    /// metadata block, a history table, a stability banner and a two-form example.
    static let apiPage = """
        <html><head><title>Events | Node.js v20.20.2 Documentation</title></head><body>
        <div id="content"><div role="main" id="apicontent">
        <h2>Events<span><a class="mark" href="#events">#</a></span></h2>
        <p><strong>Source Code:</strong> <a href="https://github.com/nodejs/node/blob/v20.20.2/lib/events.js">lib/events.js</a></p>
        <p>Much of the Node.js core API is built around an idiomatic asynchronous event-driven architecture in which emitters emit named events that cause listeners to be called.</p>
        <p>All objects that emit events are instances of the EventEmitter class, and they expose an on function that attaches listeners to named events.</p>
        <pre class="with-44-chars"><code class="language-js mjs">import { EventEmitter } from 'node:events';
        const myEmitter = new EventEmitter();
        myEmitter.on('event', () => {
          console.log('an event occurred!');
        });</code><code class="language-js cjs">const EventEmitter = require('node:events');
        const myEmitter = new EventEmitter();</code><button class="copy-button">copy</button></pre>
        <section><h3>Class: <code>EventEmitter</code><span><a class="mark" href="#class-eventemitter">#</a></span></h3>
        <div class="api_metadata">
        <details class="changelog"><summary>History</summary>
        <table><tbody><tr><th>Version</th><th>Changes</th></tr>
        <tr><td>v13.4.0, v12.16.0</td><td><p>Added captureRejections option.</p></td></tr>
        <tr><td>v0.1.26</td><td><p><span>Added in: v0.1.26</span></p></td></tr>
        </tbody></table></details></div>
        <p>The EventEmitter class is defined and exposed by the events module, and every emitter of the core API inherits from it.</p>
        <h4>Event: <code>'newListener'</code></h4>
        <div class="api_metadata"><span>Added in: v0.1.26</span></div>
        <p>The EventEmitter instance will emit its own newListener event before a listener is added to its internal array of listeners.</p>
        <div class="api_stability api_stability_1"><a href="documentation.html#stability-index">Stability: 1</a> - Experimental</div>
        <p>Listeners registered for the newListener event are passed the event name and a reference to the listener being added.</p>
        </section></div></div></body></html>
        """

    @Test func codeExamplesAreFencedAndEachFormStartsALine() throws {
        let text = try text(Self.apiPage)
        #expect(text.contains("```\nimport { EventEmitter } from 'node:events';"), "\(text)")
        // The ES-module form and the CommonJS form were glued ("});const EventEmitter").
        #expect(text.contains("});\nconst EventEmitter = require('node:events');"), "\(text)")
        #expect(text.contains("const myEmitter = new EventEmitter();\n```"), "\(text)")
        #expect(!text.contains("copy"), "the copy button is no text: \(text)")
    }

    @Test func versionHistoryAndStabilityBannersAreNotText() throws {
        let text = try text(Self.apiPage)
        for metadata in ["Added in", "History", "Version | Changes", "v13.4.0", "captureRejections option", "Stability: 1", "Experimental"] {
            #expect(!text.contains(metadata), "\(metadata) should be gone: \(text)")
        }
        #expect(text.contains("The EventEmitter class is defined and exposed by the events module"), "\(text)")
        #expect(text.contains("Listeners registered for the newListener event"), "\(text)")
    }

    @Test func aTitleEndingWithTheSiteNameIsThePagesHeading() throws {
        #expect(try extract(Self.apiPage).title == "Events")
        // A title whose front is no heading of the page keeps its whole text.
        let other = try extract("<html><head><title>Cells - Biology 101</title></head><body><h1>Living cells</h1><p>x</p></body></html>")
        #expect(other.title == "Cells - Biology 101")
        let plain = try extract("<html><head><title>zlib Usage Example</title></head><body><h1>zlib</h1><p>x</p></body></html>")
        #expect(plain.title == "zlib Usage Example")
    }

    /// bc's manual as GNU texinfo writes it: a "Top" node heading over a menu, navigation
    /// headers, examples in `pre.example`, a `pre.display` of running text, and the table of
    /// contents after the last chapter.
    static let texinfoPage = """
        <html><head><title>bc Command Manual</title></head><body lang="en">
        <h1 class="settitle">bc Command Manual</h1>
        <span id="Top"></span><div class="header"><p>Next: <a href="#Introduction">Introduction</a>, Previous: <a href="dir.html#Top">(dir)</a></p></div>
        <h1 class="node-heading">Top</h1>
        <table class="menu"><tr><td>&bull; <a href="#Introduction">Introduction</a></td></tr><tr><td>&bull; <a href="#Expressions">Expressions</a></td></tr></table>
        <hr>
        <h2 class="chapter">1 Introduction</h2>
        <p>bc is a language that supports arbitrary precision numbers with interactive execution of statements, much like a calculator that can be programmed.</p>
        <div class="example"><pre class="example">bc [ -hlwsqv ] [long-options] [ file ... ]</pre></div>
        <h2 class="chapter">2 Expressions</h2>
        <p>The numbers are manipulated by expressions and statements, and a simple expression is just a constant converted with the input base.</p>
        <pre class="display">Numbers are arbitrary precision numbers, in the integer part and the fractional part alike.</pre>
        <h2 class="contents-heading">Table of Contents</h2>
        <div class="contents"><ul class="no-bullet"><li><a href="#Introduction">1 Introduction</a></li><li><a href="#Expressions">2 Expressions</a></li></ul></div>
        </body></html>
        """

    @Test func texinfoNodeHeadingsAndTheContentsHeadingAtTheEndGo() throws {
        let text = try text(Self.texinfoPage)
        #expect(!text.contains("# Top"), "\(text)")
        #expect(!text.contains("Table of Contents"), "\(text)")
        #expect(text.contains("## 1 Introduction") && text.contains("## 2 Expressions"), "\(text)")
        #expect(text.contains("```\nbc [ -hlwsqv ] [long-options] [ file ... ]\n```"), "\(text)")
        // Running text set line by line is prose, not code.
        #expect(text.contains("\n\nNumbers are arbitrary precision numbers, in the integer part and the fractional part alike."), "\(text)")
        #expect(!text.contains("```\nNumbers are"), "\(text)")
    }
}

extension ReferencePageImportTests {
    /// Valgrind's monitor commands: each list item explains a command and shows it in use.
    @Test func anExampleInsideAListItemFollowsTheItemFenced() throws {
        let html = """
            <html><body><div class="chapter"><h1>Memcheck</h1>
            <p>Memcheck is a memory error detector, and it can be driven from the debugger with monitor commands while a program runs.</p>
            <div class="itemizedlist"><ul class="itemizedlist">
            <li class="listitem"><p>leak_check performs a leak check, and the arguments choose the kind of report.</p>
            <pre class="programlisting">(gdb) monitor leak_check full
            ==19520== LEAK SUMMARY:
            ==19520==    definitely lost: 32 bytes in 2 blocks</pre>
            <p>Note that the second command uses abbreviated forms.</p></li>
            <li class="listitem"><p>block_list shows the list of blocks belonging to a loss record.</p></li>
            </ul></div></div></body></html>
            """
        let text = try text(html)
        #expect(text.contains("- leak_check performs a leak check, and the arguments choose the kind of report. Note that the second command uses abbreviated forms.\n```\n(gdb) monitor leak_check full\n"), "\(text)")
        #expect(text.contains("definitely lost: 32 bytes in 2 blocks\n```\n- block_list shows"), "\(text)")
    }

    /// Node.js's buffer page: the module's heading, its introduction, then one `section` per
    /// topic, of which "Class: Buffer" is most of the page.
    @Test func theOtherSectionsBesideTheBiggestOneAreKept() throws {
        let method = "<h4>buf.write(string)</h4><p>Writes the string to the buffer at the given offset, according to the character encoding, and returns the number of bytes written.</p>"
        let html = """
            <html><body><div id="content"><div role="main" id="apicontent">
            <h2>Buffer</h2>
            <p></p><div class="api_stability api_stability_2">Stability: 2 - Stable</div><p></p>
            <p>Buffer objects are used to represent a fixed-length sequence of bytes, and many core APIs support them.</p>
            <section><h3>Buffers and character encodings</h3>
            <p>When converting between buffers and strings, a character encoding may be specified, and UTF-8 is the default.</p></section>
            <section><h3>Class: Buffer</h3><p>The Buffer class is a global type for dealing with binary data directly, in many ways.</p>
            \(String(repeating: method, count: 12))</section>
            <section><h3>Class: File</h3><p>A File provides information about files, and extends the Blob class with a name and a date.</p></section>
            </div></div></body></html>
            """
        let text = try text(html)
        for heading in ["## Buffer", "### Buffers and character encodings", "### Class: Buffer", "### Class: File"] {
            #expect(text.contains(heading + "\n"), "\(heading): \(text)")
        }
        #expect(text.contains("a character encoding may be specified") && text.contains("extends the Blob class"), "\(text)")
    }
}
