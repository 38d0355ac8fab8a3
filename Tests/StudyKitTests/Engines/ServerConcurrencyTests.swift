import Foundation
import Testing
@testable import StudyKit

/// What a server serves at once, from its discovery, and the `--jobs` a run picks from it.
@Suite("Server concurrency and the default --jobs")
struct ServerConcurrencyTests {
    struct ChoiceCase: Sendable, CustomTestStringConvertible {
        var explicit: Int?
        var concurrency: ServerConcurrency?
        var kind: EngineKind
        var expected: JobsChoice
        var testDescription: String { "\(explicit.map { "--jobs \($0)" } ?? "no --jobs"), \(String(describing: concurrency)), \(kind)" }
    }

    @Test(arguments: [
        // The server's slots, at most four.
        ChoiceCase(concurrency: .init(requests: 2, source: .serverSlots), kind: .remote, expected: .init(jobs: 2, source: .serverSlots)),
        ChoiceCase(concurrency: .init(requests: 16, source: .serverSlots), kind: .remote, expected: .init(jobs: 4, source: .serverSlots)),
        ChoiceCase(concurrency: .init(requests: 1, source: .serverSlots), kind: .local, expected: .init(jobs: 1, source: .serverSlots)),
        ChoiceCase(concurrency: .init(requests: 3, source: .serverSlots), kind: .local, expected: .init(jobs: 3, source: .serverSlots)),
        // llama-cpp-python, local or remote: one at a time.
        ChoiceCase(concurrency: .init(requests: 1, source: .serializingServer), kind: .remote, expected: .init(jobs: 1, source: .serializingServer)),
        ChoiceCase(concurrency: .init(requests: 1, source: .serializingServer), kind: .local, expected: .init(jobs: 1, source: .serializingServer)),
        // A server that says nothing (vLLM, TGI, a hosted API): four, local or remote.
        ChoiceCase(concurrency: .init(requests: nil, source: .unreported), kind: .remote, expected: .init(jobs: 4, source: .assumed)),
        ChoiceCase(concurrency: .init(requests: nil, source: .unreported), kind: .local, expected: .init(jobs: 1, source: .assumed)),  // Ollama on this machine
        // No server: llama.cpp in process is one at a time; a remote without a server record, four.
        ChoiceCase(concurrency: nil, kind: .local, expected: .init(jobs: 1, source: .inProcess)),
        ChoiceCase(concurrency: nil, kind: .remote, expected: .init(jobs: 4, source: .assumed)),
        // --jobs always wins, above the server's slots and above the cap too.
        ChoiceCase(explicit: 4, concurrency: .init(requests: 1, source: .serializingServer), kind: .remote, expected: .init(jobs: 4, source: .option)),
        ChoiceCase(explicit: 1, concurrency: .init(requests: 8, source: .serverSlots), kind: .remote, expected: .init(jobs: 1, source: .option)),
        ChoiceCase(explicit: 12, concurrency: nil, kind: .local, expected: .init(jobs: 12, source: .option)),
    ])
    func theDefaultIsWhatTheServerServesAtOnceAtMostFour(_ row: ChoiceCase) {
        #expect(JobsChoice.choose(explicit: row.explicit, concurrency: row.concurrency, kind: row.kind) == row.expected)
    }

    @Test func eachDialectSaysWhatItServesAtOnce() {
        #expect(ServerConcurrency.of(dialect: .llamaServer, slots: 2) == .init(requests: 2, source: .serverSlots))
        // Slots reported by any server win over what its dialect would suggest.
        #expect(ServerConcurrency.of(dialect: .llamaCppPython, slots: 3) == .init(requests: 3, source: .serverSlots))
        #expect(ServerConcurrency.of(dialect: .llamaCppPython, slots: nil) == .init(requests: 1, source: .serializingServer))
        #expect(ServerConcurrency.of(dialect: .llamaServer, slots: nil) == .init(requests: nil, source: .unreported))
        #expect(ServerConcurrency.of(dialect: .llamaServer, slots: 0) == .init(requests: nil, source: .unreported))
        #expect(ServerConcurrency.of(dialect: .ollama, slots: nil) == .init(requests: nil, source: .unreported))
        #expect(ServerConcurrency.of(dialect: .openAI, slots: nil) == .init(requests: nil, source: .unreported))
    }

    // MARK: discovery

    static let models = ScriptedReply.json(#"{"object":"list","data":[{"id":"m","object":"model"}]}"#)

    @Test func llamaServerReportsItsSlotsInProps() async throws {
        let transport = ScriptedEngineTransport(routes: [
            "/v1/models": Self.models,
            "/props": .json(#"{"default_generation_settings":{"n_ctx":4096},"total_slots":2}"#),
        ])
        let engine = EngineDiscoveryTests.engine(transport)
        #expect(await engine.concurrency() == ServerConcurrency(requests: 2, source: .serverSlots))
        #expect(await engine.describe().concurrency == "2 (server slots)")
        // Part of the one discovery: no request of its own.
        #expect(transport.calls(to: "/slots") == 0)
        #expect(transport.calls(to: "/props") == 1)
    }

    @Test func anOlderLlamaServerIsCountedFromSlots() async throws {
        let transport = ScriptedEngineTransport(routes: [
            "/v1/models": Self.models,
            "/props": .json(#"{"default_generation_settings":{"n_ctx":4096}}"#),
            "/slots": .json(#"[{"id":0,"n_ctx":1024},{"id":1,"n_ctx":1024},{"id":2,"n_ctx":1024}]"#),
        ])
        #expect(await EngineDiscoveryTests.engine(transport).concurrency() == ServerConcurrency(requests: 3, source: .serverSlots))
    }

    @Test func aLlamaServerWithItsSlotsEndpointOffSaysNothing() async throws {
        let transport = ScriptedEngineTransport(routes: [
            "/v1/models": Self.models,
            "/props": .json(#"{"default_generation_settings":{"n_ctx":4096}}"#),
            "/slots": .json(501, #"{"error":{"code":501,"message":"This server does not support slots endpoint.","type":"not_supported_error"}}"#),
        ])
        let engine = EngineDiscoveryTests.engine(transport)
        #expect(await engine.concurrency() == ServerConcurrency(requests: nil, source: .unreported))
        #expect(try await engine.dialect() == .llamaServer)
    }

    @Test func llamaCppPythonSerializes() async throws {
        let transport = ScriptedEngineTransport(routes: ScriptedEngineTransport.llamaCppPythonRoutes)
        #expect(await EngineDiscoveryTests.engine(transport, contextSize: 2048).concurrency() == ServerConcurrency(requests: 1, source: .serializingServer))
    }

    @Test func theSlotsAreKeptWithTheDiscoveryAndAnOlderRecordIsAskedAgain() async throws {
        let scratch = try ScratchDirectory("concurrency")
        let store = try DiscoveryRecords(path: scratch.url.appendingPathComponent("studykit.sqlite3").path)
        let routes: [String: ScriptedReply] = [
            "/v1/models": Self.models, "/props": .json(#"{"default_generation_settings":{"n_ctx":4096},"total_slots":2}"#),
        ]
        let first = ScriptedEngineTransport(routes: routes)
        #expect(await ServerPathTests.engine(first, store: store).concurrency()?.requests == 2)
        // The next run reads it from the cache: not a request.
        let second = ScriptedEngineTransport()
        #expect(await ServerPathTests.engine(second, store: store).concurrency() == ServerConcurrency(requests: 2, source: .serverSlots))
        #expect(second.requests.isEmpty)
        // A record written before the slots were asked for (no "slots") is rediscovered.
        let engine = ServerPathTests.engine(second, store: store)
        store.save(
            engine.discoveryKey,
            StoredDiscovery(
                payload: #"{"dialect":"llama-server","models":["m"],"window":4096,"windowEndpoint":"GET /props","grammar":{"accepted":true,"note":"n"}}"#,
                discoveredAt: ServerPathTests.start))
        let third = ScriptedEngineTransport(routes: routes)
        #expect(await ServerPathTests.engine(third, store: store).concurrency()?.requests == 2)
        #expect(third.calls(to: "/props") == 1)
        // `cache clear` forgets it with the rest.
        #expect(try store.forgetAll() == 1)
        #expect(store.load(engine.discoveryKey) == nil)
    }
}
