import Foundation
import Testing

/// The llama.cpp that studykit runs (in process, and behind the model servers) must run on any
/// x86-64 CPU with AVX2, whatever machine built it: a native build on an AMX CPU crashed the
/// README's first command, and one built on an AVX-512 CPU dies with SIGILL elsewhere.
/// `scripts/check-llama-build` reads setup's build record and disassembles every installed
/// library; these tests run it on the project's venv (which must be there: no skipping) and show
/// on planted libraries that it does refuse AMX and AVX-512 code.
@Suite("llama.cpp is a portable build")
struct LlamaBuildTests {
    static let script = TestPaths.packageRoot.appendingPathComponent("scripts/check-llama-build").path

    @Test func theInstalledLlamaCppHasNoAMXOrAVX512AndMatchesItsBuildRecord() throws {
        let venv = ProcessInfo.processInfo.environment["STUDYKIT_VENV"]
            ?? TestPaths.packageRoot.appendingPathComponent(".venv").path
        let run = try Self.check(venv: venv)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("portable (no AMX, no AVX-512)"), "\(run.stderr)")
        let record = try String(contentsOfFile: venv + "/studykit-llama-build", encoding: .utf8)
        let flags = record.split(separator: "\n").first { $0.hasPrefix("cmake_args=") } ?? ""
        #expect(flags.contains("-DGGML_NATIVE=OFF"), "\(flags)")
        for forbidden in ["-DGGML_NATIVE=ON", "-DGGML_AVX512=ON", "-DGGML_AMX_TILE=ON", "-DGGML_AMX_INT8=ON", "-DGGML_AMX_BF16=ON"] {
            #expect(!flags.contains(forbidden), "\(flags)")
        }
        let libraries = record.split(separator: "\n").filter { $0.hasPrefix("lib_sha256 ") }.map { $0.split(separator: " ")[1] }
        #expect(libraries.contains { $0.hasPrefix("libggml-cpu") }, "the CPU backend is recorded: \(libraries)")
        #expect(libraries.contains { $0.hasPrefix("libllama") }, "\(libraries)")
    }

    #if LlamaCpp
    /// `studykit engines` shows what the in-process llama.cpp was compiled for (its system
    /// info), so a user can see what runs: AVX2, and neither AVX-512 nor AMX.
    @Test func enginesShowsTheCPUFeaturesOfTheInProcessBuild() async throws {
        let cache = try ScratchDirectory()
        let run = try await StudykitBinary.run(["engines"], environment: ["STUDYKIT_CACHE_DIR": cache.url.path])
        #expect(run.status == 0, "\(run.stderr)")
        let build = try #require(
            run.stdout.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("build:") },
            "no build line in \(run.stdout)")
        #expect(build.contains("AVX2 = 1"), "\(build)")
        #expect(!build.contains("AVX512") && !build.contains("AMX"), "\(build)")
    }
    #endif

    /// One planted library per kind of forbidden code; each is refused by name, and a plain
    /// AVX2 library with a correct record passes.
    @Test(arguments: [
        ("amx", "tileloadd (%rax,%rcx,1), %tmm0\n tdpbssd %tmm2, %tmm1, %tmm0\n"),
        ("avx512", "vaddps %zmm0, %zmm1, %zmm2\n"),
        ("avx512-mask", "kmovw %k1, %eax\n"),
        ("avx512-high-ymm", "vmovaps %ymm17, %ymm1\n"),
        ("avx2", "vaddps %ymm0, %ymm1, %ymm2\n vfmadd231ps %ymm3, %ymm4, %ymm5\n"),
    ])
    func plantedInstructionsAreRefused(name: String, assembly: String) throws {
        let venv = try Self.fakeVenv(library: "libggml-cpu.so", assembly: assembly)
        defer { try? FileManager.default.removeItem(atPath: venv) }
        let run = try Self.check(venv: venv)
        if name == "avx2" {
            #expect(run.status == 0, "\(run.stderr)")
        } else {
            #expect(run.status == 1)
            #expect(run.stderr.contains("libggml-cpu.so contains AMX or AVX-512 instructions"), "\(run.stderr)")
        }
    }

    @Test func aLibraryThatIsNotTheRecordedOneIsRefused() throws {
        let venv = try Self.fakeVenv(library: "libggml-cpu.so", assembly: "vaddps %ymm0, %ymm1, %ymm2\n")
        defer { try? FileManager.default.removeItem(atPath: venv) }
        let lib = try #require(FileManager.default.enumerator(atPath: venv)?.compactMap { $0 as? String }.first { $0.hasSuffix("libggml-cpu.so") })
        let handle = try #require(FileHandle(forWritingAtPath: venv + "/" + lib))
        handle.seekToEndOfFile()
        handle.write(Data([0]))
        try handle.close()
        let run = try Self.check(venv: venv)
        #expect(run.status == 1)
        #expect(run.stderr.contains("libggml-cpu.so differs from the one setup built"), "\(run.stderr)")
    }

    @Test func aNativeBuildRecordIsRefused() throws {
        let venv = try Self.fakeVenv(library: "libggml-cpu.so", assembly: "vaddps %ymm0, %ymm1, %ymm2\n", flags: "-DGGML_NATIVE=ON")
        defer { try? FileManager.default.removeItem(atPath: venv) }
        let run = try Self.check(venv: venv)
        #expect(run.status == 1)
        #expect(run.stderr.contains("built with '-DGGML_NATIVE=ON', not the portable flags"), "\(run.stderr)")
    }

    // MARK: support

    static func check(venv: String) throws -> ScriptRun.Outcome {
        try ScriptRun.run("/bin/bash", [script], environment: ["STUDYKIT_VENV": venv])
    }

    /// A venv laid out like the real one, holding one shared library assembled from `assembly`
    /// and a build record that names it (with the portable flags unless `flags` says otherwise).
    static func fakeVenv(library: String, assembly: String, flags: String? = nil) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("llama-build-\(UUID().uuidString)")
        let lib = root.appendingPathComponent("lib/python3.11/site-packages/llama_cpp/lib")
        try FileManager.default.createDirectory(at: lib, withIntermediateDirectories: true)
        let source = root.appendingPathComponent("planted.s")
        try (".text\n.globl planted\nplanted:\n " + assembly + " ret\n").write(to: source, atomically: true, encoding: .utf8)
        let output = lib.appendingPathComponent(library)
        let cc = Process()
        cc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        cc.arguments = ["cc", "-shared", "-nostdlib", "-o", output.path, source.path]
        try cc.run()
        cc.waitUntilExit()
        #expect(cc.terminationStatus == 0, "cc could not assemble \(assembly)")
        let portable = try Self.portableFlags()
        let digest = Process()
        digest.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        digest.arguments = ["sha256sum", output.path]
        let pipe = Pipe()
        digest.standardOutput = pipe
        try digest.run()
        let sum = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: " ")[0]
        digest.waitUntilExit()
        try "cmake_args=\(flags ?? portable)\nlib_sha256 \(library) \(sum)\n"
            .write(to: root.appendingPathComponent("studykit-llama-build"), atomically: true, encoding: .utf8)
        return root.path
    }

    static func portableFlags() throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [TestPaths.packageRoot.appendingPathComponent("scripts/llama-build-flags").path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
