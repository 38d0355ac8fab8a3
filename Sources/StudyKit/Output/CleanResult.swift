/// Copies of the typed results with every model string cleaned by ``TerminalSafety``.
///
/// Renderers call these first, so escaping and layout only ever see safe text and no renderer
/// can forget a field.
enum CleanResult {
    static func headline(_ value: Headline) -> Headline {
        Headline(title: text(value.title), blurb: text(value.blurb))
    }

    static func feynman(_ value: FeynmanFeedback) -> FeynmanFeedback {
        FeynmanFeedback(
            verdict: value.verdict, score: value.score, whatWasRight: value.whatWasRight.map(text),
            gaps: value.gaps.map { .init(point: text($0.point), correction: text($0.correction),
                quote: text($0.quote)) },
            followUpQuestion: text(value.followUpQuestion))
    }

    static func summary(_ value: Summary) -> Summary {
        Summary(
            overview: text(value.overview), keyPoints: value.keyPoints.map(text),
            sections: value.sections.map { .init(section: text($0.section), keyPoints: $0.keyPoints.map(text)) })
    }

    static func flashcards(_ value: Flashcards) -> Flashcards {
        Flashcards(cards: value.cards.map {
            .init(question: text($0.question), answer: text($0.answer), quote: text($0.quote), kind: $0.kind,
                  hint: $0.hint.map(text))
        })
    }

    static func quiz(_ value: Quiz) -> Quiz {
        Quiz(questions: value.questions.map {
            .init(prompt: text($0.prompt), choices: $0.choices.map(text), answerIndex: $0.answerIndex,
                  explanation: text($0.explanation), quote: text($0.quote))
        })
    }

    static func mindMap(_ value: MindMap) -> MindMap {
        MindMap(centralTopic: text(value.centralTopic), branches: value.branches.map(node))
    }

    static func podcast(_ value: PodcastScript) -> PodcastScript {
        PodcastScript(
            title: text(value.title), hosts: value.hosts.map { .init(name: text($0.name), role: $0.role) },
            turns: value.turns.map { .init(speaker: text($0.speaker), line: text($0.line), quote: text($0.quote)) },
            recap: value.recap.map(text))
    }

    static func kit(_ value: StudyKitBundle) -> StudyKitBundle {
        StudyKitBundle(
            headline: headline(value.headline), summary: summary(value.summary),
            flashcards: flashcards(value.flashcards),
            quiz: quiz(value.quiz), mindMap: mindMap(value.mindMap))
    }

    private static func node(_ value: MindMap.Node) -> MindMap.Node {
        MindMap.Node(label: text(value.label), children: value.children.map(node))
    }

    private static func text(_ value: String) -> String { TerminalSafety.clean(value) }
}
