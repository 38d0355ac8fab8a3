import Testing
@testable import StudyKit

/// Front matter stays in the text but is never a title, branch, key point or card.
@Suite("Front matter")
struct FrontMatterTests {
    @Test(arguments: [
        "Thomas Leonard tal197 at users.sf.net", "X Desktop Group (http://www.freedesktop.org)", "ada@example.org",
        "Nikos Mavrogiannopoulos (help-libtasn1@gnu.org)", "2 October 2018", "October 2, 2018", "2018-10-02", "March 2019",
        "Version 0.21", "Copyright © 2018 Red Hat", "see www.debian.org for details", "bob [at] example dot com",
        "1999-2021, Software in the Public Interest", "© 2024 The Project", "6 min read", "Reading time: 4 minutes",
    ])
    func isFrontMatter(line: String) {
        #expect(FrontMatter.isFrontMatter(line))
    }

    @Test(arguments: [
        "Shared MIME-info Database", "The Calvin cycle fixes carbon dioxide into sugar.", "Glob patterns",
        "Magic rules have priorities, and the rule with the highest priority wins.", "Photosynthesis at a glance",
        "May the best rule win", "1789 to 1799: the Revolution", "Version control with Git explains branches and merges in depth for teams",
        "1905, Einstein's miracle year", "Read the minutes of the meeting",
    ])
    func isContent(line: String) {
        #expect(!FrontMatter.isFrontMatter(line))
    }
}
