import Foundation
import Testing
@testable import StudyKit

/// Study material published as HTML, in small synthetic form: a DocBook book's chapter page (in
/// the shape of the Debian Administrator's Handbook: an abstract and an introduction in
/// `div.para`s before the first section, sidebars, captioned examples, variable lists) and a
/// Sphinx HOWTO (a field list of author and release, code-block captions, API entries).
@Suite("HTML book chapters and tutorials")
struct BookPageImportTests {
    func extract(_ html: String) throws -> HTMLImporter.Extraction { try ImportFixtures.extractHTML(html) }

    func text(_ html: String) throws -> String { try ImportFixtures.htmlText(html) }

    static let paragraph = """
        <div class="para">The second field gives the base address of the source, and combined with the file names listed \
        in the index files it must give a full and valid address, which can be a mirror or any other archive set up by \
        a third party, reachable over the web, over a file transfer server or from a local directory of the system.</div>
        """

    /// A DocBook chapter page: navigation, the chapter's title page and table of contents, its
    /// abstract (`highlights`) and introduction, then its first section.
    static let chapterPage = """
        <html><head><title>Chapter 6. Maintenance and Updates: The Tools</title></head><body>
        <ul class="docnav top"><li class="previous"><a href="prev.html"><strong>Prev</strong></a></li>\
        <li class="home">The Handbook</li><li class="next"><a href="next.html"><strong>Next</strong></a></li></ul>
        <div class="chapter"><div class="titlepage"><div><div><h1 class="title"><a id="apt"></a>Chapter 6. Maintenance and \
        Updates: The Tools</h1></div></div></div>
        <div class="toc"><dl class="toc"><dt><span class="section"><a href="#s1">6.1. Filling in the sources file</a></span></dt>\
        <dt><span class="section"><a href="next.html">6.2. The commands</a></span></dt></dl></div>
        <div class="highlights"><div class="para">What makes the system so popular with administrators is how easily \
        software can be installed and how easily the whole system can be updated.</div></div>
        <a id="id-1" class="indexterm"></a>
        <div class="para">The tool is the abbreviation for Advanced Packaging Tool, and it considers packages as a whole, \
        producing the best possible combination of packages depending on what is available and compatible.</div>
        <div class="section"><div class="titlepage"><div><div><h2 class="title">6.1. Filling in the sources file</h2></div></div></div>
        <div class="sidebar"><div class="titlepage"><div><div><p class="title"><strong><span class="emphasis"><em>VOCABULARY</em>\
        </span> Package source and source package</strong></p></div></div></div><div class="para">The word source can be \
        ambiguous, and a source package should not be confused with a package source.</div></div>
        \(paragraph)
        <div class="example"><a id="example.format"></a><p class="title"><strong>Example 6.1. Example entry format in \
        <code class="filename">/etc/apt/sources.list</code></strong></p><div class="example-contents">\
        <pre class="programlisting">deb url distribution component1 component2</pre></div></div>
        <div class="para">The first field indicates the source type, and each of its values names a kind of repository:</div>
        <div class="variablelist"><dl class="variablelist"><dt><span class="term"><code class="literal">deb</code></span></dt>\
        <dd><div class="para">package source (repository) of binary packages</div></dd>\
        <dt><span class="term"><code class="literal">deb-src</code></span></dt>\
        <dd><div class="para">package source (repository) of source packages</div></dd></dl></div>
        \(paragraph)
        \(paragraph)
        </div></div>
        <ul class="docnav"><li class="previous"><a href="prev.html"><strong>Prev</strong></a></li></ul>
        </body></html>
        """

    @Test func aChaptersAbstractAndIntroductionComeBeforeItsFirstSection() throws {
        let text = try text(Self.chapterPage)
        let abstract = try #require(text.range(of: "What makes the system so popular with administrators"), "\(text)")
        let introduction = try #require(text.range(of: "The tool is the abbreviation for Advanced Packaging Tool"), "\(text)")
        let section = try #require(text.range(of: "## 6.1. Filling in the sources file"), "\(text)")
        #expect(abstract.lowerBound < introduction.lowerBound && introduction.lowerBound < section.lowerBound)
        #expect(text.hasPrefix("# Chapter 6. Maintenance and Updates: The Tools\n\n"), "\(text)")
        #expect(!text.contains("Prev") && !text.contains("6.2. The commands"), "navigation and contents are no text: \(text)")
    }

    @Test func anExamplesCaptionIsNoSentenceButItsCodeStays() throws {
        let text = try text(Self.chapterPage)
        #expect(!text.contains("Example 6.1"), "\(text)")
        #expect(!text.contains("Example entry format"), "\(text)")
        #expect(text.contains("```\ndeb url distribution component1 component2\n```"), "\(text)")
    }

    @Test func aVariableListsTermJoinsItsDefinition() throws {
        let text = try text(Self.chapterPage)
        #expect(text.contains("deb: package source (repository) of binary packages"), "\(text)")
        #expect(text.contains("deb-src: package source (repository) of source packages"), "\(text)")
        #expect(!text.contains("\n\ndeb\n\n"), "a term alone is no sentence: \(text)")
    }

    /// A DocBook sidebar is the author's text, often the chapter's best definition: kept, as a
    /// paragraph whose sentence opens with the term it defines, and its title is no heading (no
    /// "VOCABULARY" branch in the mind map). A web page's sidebar of links stays chrome.
    @Test func aVocabularySidebarIsAParagraphThatNamesItsTerm() throws {
        let text = try text(Self.chapterPage)
        #expect(text.contains("\n\nPackage source and source package: The word source can be ambiguous, and a source package"), "\(text)")
        #expect(!text.contains("VOCABULARY"), "\(text)")
        #expect(!text.contains("# Package source and source package"), "\(text)")
        let headings = text.split(separator: "\n").filter { $0.hasPrefix("#") }
        #expect(headings == ["# Chapter 6. Maintenance and Updates: The Tools", "## 6.1. Filling in the sources file"], "\(headings)")
    }

    /// A box whose body opens with a list keeps its title as a line ending in a colon, and a
    /// standard DocBook admonition (`div.note` titled "Note" in an `h3`) keeps its text without
    /// a "Note" heading.
    @Test func aBoxOpeningWithAListAndANoteAdmonitionKeepTheirTextWithoutHeadings() throws {
        let page = """
            <html><body><div class="chapter"><h1>Chapter 3. Existing setup</h1>
            \(Self.paragraph)
            <div class="sidebar"><a id="sidebar.sections"></a><div class="titlepage"><p class="title"><strong><span class="emphasis"><em>BACK TO BASICS</em>\
            </span> Man page sections</strong></p></div><div class="itemizedlist"><ul><li>section 1 holds the user commands \
            that anyone can run</li><li>section 5 holds the formats of configuration files</li></ul></div></div>
            <div class="note"><h3 class="title">Note</h3><div class="para">The installer keeps a log of everything it did in \
            the directory of the installed system, for later review.</div></div>
            <div class="sidebar"><p>Popular posts</p><ul><li><a href="/a">One</a></li><li><a href="/b">Two</a></li></ul></div>
            \(Self.paragraph)
            </div></body></html>
            """
        let text = try text(page)
        #expect(text.contains("\n\nMan page sections:\n\n- section 1 holds the user commands that anyone can run"), "\(text)")
        #expect(text.contains("\n\nThe installer keeps a log of everything it did"), "\(text)")
        #expect(!text.contains("Note") && !text.contains("BACK TO BASICS"), "\(text)")
        #expect(!text.contains("Popular posts"), "a web sidebar is chrome: \(text)")
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("#") } == ["# Chapter 3. Existing setup"], "\(text)")
    }

    /// The kit of the chapter says what the chapter is about: its title, its abstract.
    @Test func theChaptersKitOpensWithItsTitleAndAbstract() throws {
        let extraction = try extract(Self.chapterPage)
        let text = SourceNormalizer.normalizeText(extraction.text)
        guard case .headline(let headline) = try BuiltinEngine().generate(.headline, text: text, title: extraction.title)
        else { throw CancellationError() }
        #expect(headline.title == "Maintenance and Updates: The Tools")
        #expect(headline.blurb.hasPrefix("What makes the system so popular with administrators"), "\(headline.blurb)")
    }

    /// A Sphinx HOWTO: the author and release as a field list above the first paragraph, a
    /// captioned code block, and an API entry (a signature term and its description).
    static let howtoPage = """
        <html><head><title>Sorting Techniques &#8212; Python 3.11 documentation</title></head><body>
        <div class="document"><div class="body" role="main">
        <section id="sorting-techniques"><h1>Sorting Techniques<a class="headerlink" href="#sorting-techniques">¶</a></h1>
        <dl class="field-list simple">
        <dt class="field-odd">Author<span class="colon">:</span></dt>
        <dd class="field-odd"><p>Andrew Dalke and Raymond Hettinger</p></dd>
        <dt class="field-even">Release<span class="colon">:</span></dt>
        <dd class="field-even"><p>0.1</p></dd>
        </dl>
        <p>Python lists have a built-in sort method that modifies the list in place, and a sorted function builds a new sorted list from any iterable.</p>
        <p>Both the sort method and the sorted function accept a key parameter that names a function to be called on each element before comparisons.</p>
        <div class="literal-block-wrapper docutils container"><div class="code-block-caption"><span class="caption-text">sorting.py</span></div>
        <div class="highlight-python3"><div class="highlight"><pre><span class="n">sorted</span>([5, 2, 3])</pre></div></div></div>
        <dl class="py method"><dt class="sig sig-object py"><span class="sig-prename">list.</span><span class="sig-name">sort</span>(<em>key</em>)</dt>
        <dd><p>Sort the items of the list in place, using the key function to extract a comparison key from each item.</p></dd></dl>
        <p>The sort is stable, so that two items with the same key keep the order they had in the original list after sorting.</p>
        <p>A key function that returns a tuple sorts on several fields at once, the first field first and the next ones to break ties.</p>
        </section></div></div></body></html>
        """

    @Test func aFieldListIsOneLinePerFieldAndTheAuthorIsNoBlurb() throws {
        let extraction = try extract(Self.howtoPage)
        let text = SourceNormalizer.normalizeText(extraction.text)
        #expect(text.contains("Author: Andrew Dalke and Raymond Hettinger"), "\(text)")
        #expect(text.contains("list.sort(key): Sort the items of the list in place"), "\(text)")
        #expect(!text.contains("sorting.py"), "a code block's caption is no sentence: \(text)")
        guard case .headline(let headline) = try BuiltinEngine().generate(.headline, text: text, title: extraction.title)
        else { throw CancellationError() }
        #expect(headline.blurb.hasPrefix("Python lists have a built-in sort method"), "\(headline.blurb)")
    }
}

extension BookPageImportTests {
    /// A Sphinx manual (the Debian Python policy): a short "Abstract" section, then a "Contents"
    /// section whose toctree holds every chapter. The abstract is the manual's own summary and
    /// stays, before the chapters.
    @Test func aManualsAbstractSectionBesideItsContentsSectionStays() throws {
        let modules = "<p>Packages that ship modules for the interpreter must declare their dependencies on every version they "
            + "were built for, and the tools described in this chapter compute most of them from the files that were installed.</p>"
        let programs = "<p>A package that ships programs must name the interpreter it runs with in the first line of each "
            + "program, so that an upgrade of the default version never leaves a program without the modules it needs.</p>"
        let chapters = (1...7).map { n in
            """
            <span id="document-c\(n)"></span><section id="c\(n)"><h2>\(n). Chapter \(n)</h2>\(modules)\
            <section id="c\(n)a"><h3>\(n).1. Versions</h3>\(modules)\(programs)</section>\
            <section id="c\(n)b"><h3>\(n).2. Names</h3>\(programs)\(modules)</section></section>
            """
        }.joined()
        let page = """
            <html><body><div class="document"><div class="body" role="main">
            <section id="abstract"><h1>Abstract</h1><p>This document describes the packaging of Python within the \
            Debian distribution and the policy requirements for packaged Python programs and modules.</p></section>
            <section id="contents"><h1>Contents</h1><div class="toctree-wrapper compound">\(chapters)</div></section>
            <section id="indices"><h1>Indices and tables</h1><ul><li><a href="genindex.html">Index</a></li>\
            <li><a href="search.html">Search Page</a></li></ul></section>
            </div></div></body></html>
            """
        let text = try text(page)
        #expect(text.hasPrefix("# Abstract\n\nThis document describes the packaging of Python"), "\(text)")
        #expect(text.contains("## 7. Chapter 7"), "\(text)")
        #expect(!text.contains("Search Page"), "\(text)")
    }
}

extension BookPageImportTests {
    /// groff's mom manual: a macro named AUTHOR is a heading like any other (its id is no
    /// byline), and an index block that opens with a paragraph keeps the paragraph while its
    /// list of links goes.
    @Test func aMacroNamedAuthorIsAHeadingAndAnIndexBlocksParagraphStays() throws {
        let page = """
            <html><body><div class="page">
            <h2 id="docprocessing">Document processing</h2>
            \(Self.paragraph)
            <div class="macro-id-overline"><h3 id="author" class="macro-id">AUTHOR</h3></div>
            <p>The author string is printed in the docheader, and the page headers of every later page repeat it, so a \
            document by several authors gives each of them in its own string argument.</p>
            <div class="macro-list-container"><h3 id="index-docheader-control" class="macro-list">Docheader control</h3>
            <p>With the docheader control macros, you can change the family, the font, the size and the colour of every \
            part of the docheader that is printed at the top of the first page.</p>
            <ul class="macro-list"><li><a href="#a">DOCHEADER</a></li><li><a href="#b">DOCHEADER_LEAD</a></li>\
            <li><a href="#c">DOCHEADER_QUAD</a></li><li><a href="#d">TITLE_FAMILY</a></li><li><a href="#e">TITLE_FONT</a></li>\
            <li><a href="#f">TITLE_SIZE</a></li><li><a href="#g">TITLE_COLOR</a></li><li><a href="#h">SUBTITLE_FAMILY</a></li>\
            <li><a href="#i">SUBTITLE_FONT</a></li><li><a href="#j">SUBTITLE_SIZE</a></li><li><a href="#k">AUTHOR_FAMILY</a></li>\
            <li><a href="#l">AUTHOR_FONT</a></li><li><a href="#m">AUTHOR_SIZE</a></li><li><a href="#n">AUTHOR_COLOR</a></li>\
            <li><a href="#o">DOCTYPE_FAMILY</a></li><li><a href="#p">DOCTYPE_FONT</a></li><li><a href="#q">DOCTYPE_SIZE</a></li></ul>
            </div>
            \(Self.paragraph)
            </div></body></html>
            """
        let text = try text(page)
        #expect(text.contains("### AUTHOR\n\nThe author string is printed"), "\(text)")
        #expect(text.contains("With the docheader control macros"), "\(text)")
        #expect(!text.contains("DOCHEADER_LEAD"), "\(text)")
    }
}
