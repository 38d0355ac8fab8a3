import Foundation
import Testing
@testable import StudyKit

@Suite("EngineConfiguration: environment over config file")
struct EngineConfigurationTests {
    @Test func theEnvironmentWinsOverTheFile() throws {
        let file = """
            # studykit settings
            STUDYKIT_LOCAL_URL=http://127.0.0.1:9000
            STUDYKIT_LOCAL_CONTEXT_SIZE = 1024
            export STUDYKIT_REMOTE_URL="https://api.example.com/v1"
            STUDYKIT_REMOTE_MODEL=file-model
            STUDYKIT_REMOTE_DAILY_QUOTA=50000 tokens
            """
        let configuration = try EngineConfiguration.resolve(
            environment: ["STUDYKIT_REMOTE_MODEL": "env-model", "STUDYKIT_LOCAL_CONTEXT_SIZE": "2048", "UNRELATED": "x"],
            fileText: file)
        #expect(configuration.local?.url.absoluteString == "http://127.0.0.1:9000")
        #expect(configuration.local?.contextSize == 2048)
        #expect(configuration.remote?.url.absoluteString == "https://api.example.com/v1")
        #expect(configuration.remote?.model == "env-model")
        #expect(configuration.remoteDailyQuota == "50000 tokens")
        #expect(configuration.deadline == 120)
    }

    @Test func theRemoteKeyFallsBackToOpenAIKey() throws {
        let base = ["STUDYKIT_REMOTE_URL": "https://api.example.com"]
        let fallback = try EngineConfiguration.resolve(environment: base.merging(["OPENAI_API_KEY": "sk-one"]) { $1 }, fileText: nil)
        #expect(fallback.remote?.apiKey == APIKey("sk-one"))
        #expect(fallback.remote?.apiKeySetting == "OPENAI_API_KEY")
        let both = try EngineConfiguration.resolve(
            environment: base.merging(["OPENAI_API_KEY": "sk-one", "STUDYKIT_REMOTE_API_KEY": "sk-two"]) { $1 }, fileText: nil)
        #expect(both.remote?.apiKey == APIKey("sk-two"))
        #expect(both.remote?.apiKeySetting == "STUDYKIT_REMOTE_API_KEY")
    }

    @Test func nothingConfiguredMeansBothEnginesUnavailableWithAReason() async throws {
        let configuration = try EngineConfiguration.resolve(environment: [:], fileText: nil)
        let transport = ScriptedEngineTransport()
        let remote = await configuration.remoteEngine(transport: transport).availability()
        let local = await configuration.localEngine(transport: transport).availability()
        #expect(remote == .unavailable(reason: "no remote engine configured: set STUDYKIT_REMOTE_URL (and STUDYKIT_REMOTE_API_KEY, STUDYKIT_REMOTE_MODEL) in the environment or in the config file"))
        guard case .unavailable(let reason) = local else { Issue.record("local should be unavailable"); return }
        #expect(reason.contains("STUDYKIT_LOCAL_URL"))
        #expect(transport.requests.isEmpty)
    }

    struct InvalidCase: Sendable, CustomTestStringConvertible {
        var key: String
        var value: String
        var extra: [String: String] = [:]
        var testDescription: String { "\(key)=\(value)" }
    }

    @Test(arguments: [
        InvalidCase(key: "STUDYKIT_LOCAL_CONTEXT_SIZE", value: "big", extra: ["STUDYKIT_LOCAL_URL": "http://127.0.0.1:1"]),
        InvalidCase(key: "STUDYKIT_REMOTE_CONTEXT_SIZE", value: "-5"),
        InvalidCase(key: "STUDYKIT_LOCAL_URL", value: "ftp://127.0.0.1/"),
        InvalidCase(key: "STUDYKIT_REMOTE_URL", value: "api.openai.com"),
        InvalidCase(key: "STUDYKIT_DEADLINE", value: "soon"),
        InvalidCase(key: "STUDYKIT_LOCAL_DIALECT", value: "gpt", extra: ["STUDYKIT_LOCAL_URL": "http://127.0.0.1:1"]),
    ])
    func invalidValuesNameTheKeyAndTheValue(_ invalid: InvalidCase) throws {
        let environment = invalid.extra.merging([invalid.key: invalid.value]) { $1 }
        do {
            _ = try EngineConfiguration.resolve(environment: environment, fileText: nil)
            Issue.record("expected \(invalid.key)=\(invalid.value) to be refused")
        } catch let error as EngineError {
            #expect(error.message.hasPrefix("\(invalid.key)='\(invalid.value)' is not valid"))
            #expect(error.exitCode == .usage)
        }
    }

    @Test func theConfigFileLivesUnderXDGConfigHome() {
        #expect(EngineConfiguration.configFileURL(environment: ["XDG_CONFIG_HOME": "/x/cfg", "HOME": "/home/u"]).path == "/x/cfg/studykit/config")
        #expect(EngineConfiguration.configFileURL(environment: ["HOME": "/home/u"]).path == "/home/u/.config/studykit/config")
    }

    @Test func loadReadsTheFileFromDisk() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("studykit"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "STUDYKIT_REMOTE_URL=http://127.0.0.1:8392\nSTUDYKIT_REMOTE_API_KEY=from-file\n"
            .write(to: directory.appendingPathComponent("studykit/config"), atomically: true, encoding: .utf8)
        let configuration = try EngineConfiguration.load(environment: ["XDG_CONFIG_HOME": directory.path])
        #expect(configuration.remote?.apiKey == APIKey("from-file"))
        #expect(configuration.configFile?.lastPathComponent == "config")
    }

    @Test func anAPIKeyNeverPrints() {
        let key = APIKey("sk-very-secret")
        var dumped = ""
        dump(key, to: &dumped)
        for shown in ["\(key)", String(describing: key), String(reflecting: key), dumped] {
            #expect(!shown.contains("very-secret"))
        }
        let endpoint = EngineConfiguration.Endpoint(
            url: URL(string: "https://api.example.com")!, contextSizeSetting: "STUDYKIT_REMOTE_CONTEXT_SIZE", apiKey: key)
        var endpointDump = ""
        dump(endpoint, to: &endpointDump)
        #expect(!"\(endpoint)".contains("very-secret"))
        #expect(!endpointDump.contains("very-secret"))
    }

    @Test func optionsHaveAStableCanonicalText() {
        #expect(GenerationOptions().canonicalText == "sampling=greedy;maximumResponseTokens=none;seed=none")
        #expect(
            GenerationOptions(sampling: .temperature(0.7), maximumResponseTokens: 256, seed: 3).canonicalText
                == "sampling=temperature=0.7;maximumResponseTokens=256;seed=3")
        #expect(GenerationOptions(sampling: .greedy) != GenerationOptions(sampling: .temperature(0)))
    }

    @Test func theEstimateIsConservative() {
        #expect(TokenCount.estimate(for: "") == TokenCount(count: 0, method: .estimate))
        #expect(TokenCount.estimate(for: "abcd").count == 2)
        #expect(TokenCount.estimate(for: String(repeating: "word ", count: 300)).count == 500)
    }
}
