import Foundation
import Testing
@testable import StudyKit

/// Markdown import reads as the rendered page does: structure kept, markup gone, code fenced.
@Suite struct MarkdownTextTests {
    @Test(arguments: [
        ("See the [`net.Server`][] class and [streams](stream.md#streams \"Streams\").", "See the net.Server class and streams."),
        ("An ![diagram of the cycle](cycle.png) shows it.", "An diagram of the cycle shows it."),
        ("Listeners run **synchronously** and _in order_; ~~never~~ *always*.", "Listeners run synchronously and in order; never always."),
        ("Call `emitter.on()` with a `snake_case_name` or `a * b`.", "Call emitter.on() with a snake_case_name or a * b."),
        ("Keep snake_case_name and 2 * 3 * 4 as written.", "Keep snake_case_name and 2 * 3 * 4 as written."),
        ("Visit <https://nodejs.org/api> or write to us.", "Visit https://nodejs.org/api or write to us."),
        ("<a id=\"x\"></a>Text with a<sup>2</sup> &amp; more \\*stars\\*.", "Text with a2 & more *stars*."),
        ("Is a < b and c > d?", "Is a < b and c > d?"),
        ("(OPTIONAL) **Add `pyenv virtualenv-init` to your shell** to enable it.", "(OPTIONAL) Add pyenv virtualenv-init to your shell to enable it."),
        ("Use `**kwargs` and `_private` names.", "Use **kwargs and _private names."),
        ("See [[Photosynthesis]] and [[Calvin cycle|the Calvin cycle]].![[diagram.png]]", "See Photosynthesis and the Calvin cycle."),
        ("[!note] ==Chlorophyll== absorbs red and blue light.", "Chlorophyll absorbs red and blue light."),
        ("Keep a == b and x = 1 as written.", "Keep a == b and x = 1 as written."),
    ])
    func inlineMarkupIsUnwrapped(markdown: String, readable: String) {
        #expect(MarkdownText.inlineText(markdown) == readable)
    }

    @Test func blocksKeepTheirStructureAndLoseTheirMarkup() {
        let markdown = """
            ---
            title: Events
            layout: api
            ---
            Events
            ======

            <!--introduced_in=v0.10.0-->

            > Stability: 2 - Stable

            <!-- YAML
            added: v0.1.26
            -->

            Much of the core API is built around events.

            Passing arguments
            -----------------

            * first item
            continued in the item

            | Name | Meaning |
            |------|:-------:|
            | on | adds a listener |

                const a = 1;
                console.log(a);

            ```cjs
            const b = 2;
            ```

            ***

            [`net.Server`]: net.md#class-netserver
            ## Closing {#closing}
            """
        #expect(SourceNormalizer.normalizeText(MarkdownText.readable(markdown)) == """
            # Events

            Stability: 2 - Stable

            Much of the core API is built around events.

            ## Passing arguments

            * first item
            continued in the item

            Name | Meaning
            on | adds a listener

            ```
            const a = 1;
            console.log(a);
            ```

            ```
            const b = 2;
            ```

            ## Closing
            """)
    }

    @Test func aMarkdownFileWithCodeGivesAKitWithoutCode() async throws {
        let directory = try TestPaths.temporaryDirectory("markdown-code")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("events.md")
        try Data(Self.events.utf8).write(to: file)
        let document = try await Importer().load(.file(file.path))
        #expect(document.kind == .markdown)
        #expect(document.title == "Events")
        #expect(!document.text.contains("<!--") && !document.text.contains("]("))
        let kit = try BuiltinEngine().generate(.studyKit, text: document.text, title: document.title)
        let items = "\(kit.value.jsonValue)"
        for code in ["const ", "=>", "console.log", "myEmitter", "require("] {
            #expect(!items.contains(code), "\(code) in \(items)")
        }
    }

    static let events = """
        # Events

        <!--introduced_in=v0.10.0-->

        Much of the core API is built around an asynchronous event-driven architecture in which \
        certain kinds of objects, called [emitters](#emitters), emit named events that cause \
        functions, called listeners, to be called.

        ```js
        const myEmitter = new MyEmitter();
        myEmitter.on('event', () => { console.log('an event occurred!'); });
        ```

        ## Passing arguments to listeners

        The `emit()` method allows an arbitrary set of arguments to be passed to the listener functions.
        When an ordinary listener function is called, the standard `this` keyword is set to the emitter.

        ```cjs
        const EventEmitter = require('node:events');
        myEmitter.emit('event', 'a', 'b');
        ```

        ## Asynchronous and synchronous listeners

        The emitter calls all listeners synchronously in the order in which they were registered.
        This ensures the proper sequencing of events and helps avoid race conditions and logic errors.
        Listener functions can switch to an asynchronous mode of operation with the setImmediate method.

        ## Handling events only once

        A listener registered with the once method is unregistered and then called when the event is emitted.
        Using the once method, it is possible to register a listener that is called at most one time.

        ## Error events

        When an error occurs within an emitter instance, the typical action is for an error event to be emitted.
        If an emitter does not have a listener registered for the error event, the error is thrown and the process exits.
        As a best practice, listeners should always be added for the error events of every emitter.
        """

    @Test func aCommentInACodeBlockIsNoTitle() async throws {
        let markdown = "Install it like this:\n\n```sh\n# fetch the sources\ngit clone x\n```\n\n# Installing pyenv\n\nPyenv lets you switch between Python versions."
        let directory = try TestPaths.temporaryDirectory("markdown-title")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("install.md")
        try Data(markdown.utf8).write(to: file)
        let document = try await Importer().load(.file(file.path))
        #expect(document.kind == .markdown)
        #expect(document.title == "Installing pyenv")
    }
}
