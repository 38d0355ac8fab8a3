import Testing
@testable import StudyKit

@Suite("Routing policy")
struct RoutingPolicyTests {
    static let sizes = [0, 1, 1_999, 2_000, 2_001, 100_000]

    /// The whole table, written out: the boundary is a business decision, so every cell is pinned.
    static let expected: [StudyTask: [Backend]] = [
        .headline: [.local, .local, .local, .local, .remote, .remote],
        .feynman: [.local, .local, .local, .local, .remote, .remote],
        .summary: [.remote, .remote, .remote, .remote, .remote, .remote],
        .flashcards: [.remote, .remote, .remote, .remote, .remote, .remote],
        .quiz: [.remote, .remote, .remote, .remote, .remote, .remote],
        .mindmap: [.remote, .remote, .remote, .remote, .remote, .remote],
        .podcast: [.remote, .remote, .remote, .remote, .remote, .remote],
        .studyKit: [.remote, .remote, .remote, .remote, .remote, .remote],
    ]

    @Test(arguments: StudyTask.allCases)
    func policyTable(task: StudyTask) throws {
        let row = try #require(Self.expected[task])
        for (size, backend) in zip(Self.sizes, row) {
            #expect(StudyKit.backend(for: task, characterCount: size) == backend, "\(task) at \(size)")
        }
    }

    @Test func theTableCoversEveryTask() {
        #expect(Set(Self.expected.keys) == Set(StudyTask.allCases))
    }

    @Test(arguments: [
        ("headline", 1_999, "local"), ("headline", 2_000, "local"), ("headline", 2_001, "remote"),
        ("feynman", 2_001, "remote"), ("summary", 0, "remote"), ("import", 5, "remote"),
        ("podcast", 0, "remote"), ("podcast", 2_000, "remote"),
    ])
    func routeCommandPrintsExactlyTheDecision(task: String, chars: Int, expected: String) async {
        let output = CapturingSink()
        let errors = CapturingSink()
        let runner = Runner(environment: [:], standardInput: { .init() }, output: output, errorOutput: errors)
        let code = await runner.run(["route", task, "--chars", String(chars)])
        #expect(code == .ok)
        #expect(output.text == expected + "\n")
        #expect(errors.text.isEmpty)
    }
}
