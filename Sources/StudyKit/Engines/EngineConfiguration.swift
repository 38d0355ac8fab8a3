import Foundation

// MARK: - Secrets

/// An API key. Its `description` is redacted so that no interpolation, log or dump shows it.
public struct APIKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The key itself; only the engine reads it, to build the `Authorization` header.
    let secret: String

    /// Wraps a key.
    public init(_ secret: String) { self.secret = secret }

    /// Always `<redacted>`.
    public var description: String { "<redacted>" }
    /// Always `APIKey(<redacted>)`.
    public var debugDescription: String { "APIKey(<redacted>)" }
    /// Hides the stored property from `dump` and the debugger's child listing.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

// MARK: - Configuration

/// Where each engine lives and how it is reached: environment variables over a config file.
///
/// The file is `$XDG_CONFIG_HOME/studykit/config` (default `~/.config/studykit/config`), lines of
/// `KEY=value` with the same names as the variables; `#` starts a comment. The environment wins,
/// so a one-off `STUDYKIT_REMOTE_MODEL=… studykit …` overrides the file.
public struct EngineConfiguration: Sendable, Equatable {
    /// One model server, local or remote.
    public struct Endpoint: Sendable, Equatable {
        /// The server's base URL (with or without a trailing `/v1`).
        public var url: URL
        /// The model to ask for; `nil` lets the server choose (or discovery pick the only one).
        public var model: String?
        /// The window from configuration, used when the server does not report one.
        public var contextSize: Int?
        /// The setting that holds ``contextSize``, for messages and reports.
        public var contextSizeSetting: String
        /// The key, sent only as `Authorization: Bearer` to this server.
        public var apiKey: APIKey?
        /// The setting the key came from (`STUDYKIT_REMOTE_API_KEY` or `OPENAI_API_KEY`).
        public var apiKeySetting: String?
        /// The server's dialect when set explicitly; `nil` means discover it.
        public var dialect: ServerDialect?
        /// The languages the server's model supports (`STUDYKIT_LOCAL_LANGUAGES`,
        /// `STUDYKIT_REMOTE_LANGUAGES`); `nil` for the kind's default.
        public var languages: LanguageSupport?

        /// Creates an endpoint.
        public init(
            url: URL, model: String? = nil, contextSize: Int? = nil, contextSizeSetting: String,
            apiKey: APIKey? = nil, apiKeySetting: String? = nil, dialect: ServerDialect? = nil,
            languages: LanguageSupport? = nil
        ) {
            self.languages = languages
            self.url = url
            self.model = model
            self.contextSize = contextSize
            self.contextSizeSetting = contextSizeSetting
            self.apiKey = apiKey
            self.apiKeySetting = apiKeySetting
            self.dialect = dialect
        }
    }

    /// Every setting this type reads, for `--help` text and reports.
    public static let keys = [
        "STUDYKIT_LOCAL_URL", "STUDYKIT_LOCAL_MODEL", "STUDYKIT_LOCAL_CONTEXT_SIZE", "STUDYKIT_LOCAL_DIALECT",
        "STUDYKIT_REMOTE_URL", "STUDYKIT_REMOTE_MODEL", "STUDYKIT_REMOTE_CONTEXT_SIZE", "STUDYKIT_REMOTE_DIALECT",
        "STUDYKIT_REMOTE_API_KEY", "OPENAI_API_KEY", "STUDYKIT_REMOTE_DAILY_QUOTA", "STUDYKIT_CACHE_DIR",
        "STUDYKIT_DEADLINE", "STUDYKIT_LOCAL_THREADS", "STUDYKIT_LOCAL_LANGUAGES", "STUDYKIT_REMOTE_LANGUAGES",
    ]

    /// The loopback model server; `nil` when `STUDYKIT_LOCAL_URL` is not set.
    public var local: Endpoint?
    /// The hosted model; `nil` when `STUDYKIT_REMOTE_URL` is not set.
    public var remote: Endpoint?
    /// `STUDYKIT_REMOTE_DAILY_QUOTA` as written; the usage ledger parses it.
    public var remoteDailyQuota: String?
    /// `STUDYKIT_CACHE_DIR`, if set.
    public var cacheDirectory: String?
    /// Seconds a whole generation may take, retries included (`STUDYKIT_DEADLINE`, default 120).
    public var deadline: TimeInterval
    /// The config file that was read, if it existed.
    public var configFile: URL?
    /// The GGUF file the in-process engine loads when ``local`` is `nil`: `STUDYKIT_LOCAL_MODEL`
    /// when it ends in `.gguf`, else the default model ``load(environment:)`` finds.
    public var localModelFile: String?
    /// `STUDYKIT_LOCAL_MODEL` when it names an installed model (`qwen2.5-coder-1.5b`) rather than
    /// a file or a server's model; ``load(environment:installedModel:)`` finds its file.
    public var localModelName: String?
    /// `STUDYKIT_LOCAL_CONTEXT_SIZE`, if set: the window of a server that does not report one,
    /// or the `n_ctx` of the in-process engine.
    public var localContextSize: Int?
    /// Which local engine is in use and why, for `studykit engines`.
    public var localSelection: LocalEngineSelection
    /// Whether the in-process engine forwards llama.cpp's warnings and errors to stderr (the caller asked for
    /// explanations).
    public var localEngineLogging: Bool
    /// `STUDYKIT_LOCAL_THREADS`: threads for the in-process engine; `nil` means the idle cores, 1 to 4.
    public var localThreads: Int?
    /// `STUDYKIT_LOCAL_LANGUAGES`: what the local engine (server or in process) supports; `nil`
    /// for the default, English only.
    public var localLanguages: LanguageSupport?

    /// Creates a configuration by hand (tests, embedding).
    public init(
        local: Endpoint? = nil, remote: Endpoint? = nil, remoteDailyQuota: String? = nil,
        cacheDirectory: String? = nil, deadline: TimeInterval = 120, configFile: URL? = nil,
        localModelFile: String? = nil, localContextSize: Int? = nil, localSelection: LocalEngineSelection? = nil,
        localEngineLogging: Bool = false
    ) {
        self.local = local
        self.remote = remote
        self.remoteDailyQuota = remoteDailyQuota
        self.cacheDirectory = cacheDirectory
        self.deadline = deadline
        self.configFile = configFile
        self.localModelFile = localModelFile
        self.localContextSize = localContextSize ?? local?.contextSize
        self.localSelection = localSelection
            ?? (local.map { .server(url: $0.url.absoluteString) }
                ?? localModelFile.map { .inProcess(modelFile: $0, reason: .modelSetting) } ?? .none(reason: nil))
        self.localEngineLogging = localEngineLogging
        self.localThreads = nil
    }

    /// Which local engine a configuration selects, and why; shown by `studykit engines`.
    public enum LocalEngineSelection: Sendable, Equatable, CustomStringConvertible {
        /// Why the in-process engine loads the file it loads.
        public enum Reason: Sendable, Equatable {
            /// `STUDYKIT_LOCAL_MODEL` names a `.gguf` file.
            case modelSetting
            /// Nothing is set; the default model that `scripts/setup` installed is used (Qwen2.5-Coder-0.5B-Instruct).
            case installedDefault
        }

        /// A loopback model server: `STUDYKIT_LOCAL_URL` is set (it wins over everything else).
        case server(url: String)
        /// llama.cpp in this process, loading `modelFile`.
        case inProcess(modelFile: String, reason: Reason)
        /// No local engine; `reason` says why when there is more to say than "nothing is set".
        case none(reason: String?)

        /// One line for `studykit engines`.
        public var description: String {
            switch self {
            case .server(let url):
                return "loopback server at \(URLCredentials.redacted(in: url)), because STUDYKIT_LOCAL_URL is set"
            case .inProcess(_, .modelSetting):
                return "in process (llama.cpp), because STUDYKIT_LOCAL_MODEL names a model file and STUDYKIT_LOCAL_URL "
                    + "is not set"
            case .inProcess(_, .installedDefault):
                return "in process (llama.cpp), with the model scripts/setup installed, because neither "
                    + "STUDYKIT_LOCAL_URL nor STUDYKIT_LOCAL_MODEL is set"
            case .none(let reason):
                return "none: " + (reason ?? Self.noLocalEngine)
            }
        }

        /// What to set when there is no local engine at all.
        static var noLocalEngine: String {
            #if LlamaCpp
            return "set STUDYKIT_LOCAL_URL to a loopback model server (scripts/serve-models starts one) or "
                + "STUDYKIT_LOCAL_MODEL to a .gguf file"
            #else
            return "set STUDYKIT_LOCAL_URL to a loopback model server (scripts/serve-models starts one); this build "
                + "has no in-process engine (scripts/setup builds with --traits LlamaCpp)"
            #endif
        }
    }

    /// Reads the environment over the config file. Throws ``EngineError/invalidConfiguration(key:value:reason:)``
    /// naming the first unusable setting; a config file that cannot be read is treated as absent.
    ///
    /// Unlike ``resolve(environment:fileText:file:)`` it also looks on disk for the default
    /// in-process model when neither `STUDYKIT_LOCAL_URL` nor `STUDYKIT_LOCAL_MODEL` is set (see
    /// `LlamaEngine.defaultModelPath`); builds without the `LlamaCpp` trait skip that.
    ///
    /// `installedModel` finds an installed model's file (a seam for tests; by default beside the
    /// libllama this process loaded, see `LlamaEngine.defaultModelPath`).
    public static func load(
        environment: [String: String],
        installedModel: @Sendable (InstalledModel) -> (path: String?, searched: [String]) = Self.findInstalledModel
    ) throws -> EngineConfiguration {
        let file = configFileURL(environment: environment)
        let text = try? String(contentsOf: file, encoding: .utf8)
        var configuration = try resolve(environment: environment, fileText: text, file: text == nil ? nil : file)
        #if LlamaCpp
        let named = configuration.localModelName.flatMap(InstalledModel.init(name:))
        let unset: Bool
        if case .none(nil) = configuration.localSelection { unset = true } else { unset = false }
        if configuration.local == nil, configuration.localModelFile == nil, named != nil || unset {
            let model = named ?? InstalledModel.defaultModel
            let found = installedModel(model)
            if let path = found.path {
                configuration.localModelFile = path
                configuration.localSelection = .inProcess(modelFile: path,
                    reason: named == nil ? .installedDefault : .modelSetting)
            } else {
                configuration.localSelection = .none(reason: missingModel(model, named: named != nil,
                    searched: found.searched))
            }
        }
        #endif
        return configuration
    }

    /// The production way to find an installed model: `LlamaEngine.defaultModelPath` (builds
    /// without the in-process engine have none).
    public static let findInstalledModel: @Sendable (InstalledModel) -> (path: String?, searched: [String]) = { model in
        #if LlamaCpp
        return LlamaEngine.defaultModelPath(models: [model])
        #else
        return (nil, [])
        #endif
    }

    /// Says which model is missing, where it was looked for, what installs it, and what answers meanwhile.
    static func missingModel(_ model: InstalledModel, named: Bool, searched: [String]) -> String {
        let which =
            named ? "the model STUDYKIT_LOCAL_MODEL names, "
                + "\(model.filePrefix)," : "the default local model, \(model.filePrefix),"
        let places = searched.isEmpty ? "" : " (looked in \(searched.joined(separator: ", ")))"
        return "\(which) is not installed\(places): \(model.installCommand); until then local jobs go to the remote "
            + "engine if one is set, else to the builtin engine"
    }

    /// `$XDG_CONFIG_HOME/studykit/config`, or `$HOME/.config/studykit/config`.
    public static func configFileURL(environment: [String: String]) -> URL {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("studykit/config")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".config/studykit/config")
    }

    /// The settings in a config file's text: `KEY=value` lines; blank lines and `#` comments skipped,
    /// an optional `export ` prefix and matching quotes around the value removed.
    public static func parseConfigFile(_ text: String) -> [String: String] {
        var settings: [String: String] = [:]
        for rawLine in text.split(whereSeparator: \.isNewline) {
            var line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("export ") { line = String(line.dropFirst(7)).trimmingCharacters(in: .whitespaces) }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            if !key.isEmpty { settings[key] = value }
        }
        return settings
    }

    /// Merges `environment` over the file's text and validates. Pure, for tests.
    public static func resolve(environment: [String: String], fileText: String?,
        file: URL? = nil) throws -> EngineConfiguration {
        var merged = fileText.map(parseConfigFile) ?? [:]
        for (key, value) in environment where keys.contains(key) { merged[key] = value }
        func value(_ key: String) -> String? {
            guard let raw = merged[key]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
            return raw
        }

        var configuration = EngineConfiguration(configFile: file)
        configuration.remoteDailyQuota = value("STUDYKIT_REMOTE_DAILY_QUOTA")
        configuration.cacheDirectory = value("STUDYKIT_CACHE_DIR")
        if let text = value("STUDYKIT_DEADLINE") {
            guard let seconds = Double(text), seconds.isFinite, seconds > 0 else {
                throw EngineError.invalidConfiguration(
                    key: "STUDYKIT_DEADLINE", value: text, reason: "give a positive number of seconds, e.g. 120")
            }
            configuration.deadline = seconds
        }

        configuration.localContextSize = try contextSize(value("STUDYKIT_LOCAL_CONTEXT_SIZE"),
            key: "STUDYKIT_LOCAL_CONTEXT_SIZE")
        configuration.localLanguages = try languages(value("STUDYKIT_LOCAL_LANGUAGES"), key: "STUDYKIT_LOCAL_LANGUAGES")
        let remoteLanguages = try languages(value("STUDYKIT_REMOTE_LANGUAGES"), key: "STUDYKIT_REMOTE_LANGUAGES")
        if let text = value("STUDYKIT_LOCAL_THREADS") {
            guard let threads = Int(text), (1...256).contains(threads) else {
                throw EngineError.invalidConfiguration(
                    key: "STUDYKIT_LOCAL_THREADS", value: text,
                    reason: "give a whole number of threads from 1 to 256, e.g. 2")
            }
            configuration.localThreads = threads
        }
        if let text = value("STUDYKIT_LOCAL_URL") {
            configuration.local = Endpoint(
                url: try httpURL(text, key: "STUDYKIT_LOCAL_URL"),
                model: value("STUDYKIT_LOCAL_MODEL"),
                contextSize: try contextSize(value("STUDYKIT_LOCAL_CONTEXT_SIZE"), key: "STUDYKIT_LOCAL_CONTEXT_SIZE"),
                contextSizeSetting: "STUDYKIT_LOCAL_CONTEXT_SIZE",
                dialect: try dialect(value("STUDYKIT_LOCAL_DIALECT"), key: "STUDYKIT_LOCAL_DIALECT"),
                languages: configuration.localLanguages)
            configuration.localSelection = .server(url: text)
        } else if let model = value("STUDYKIT_LOCAL_MODEL") {
            // Without a server, the model setting is a file for the in-process engine.
            if model.lowercased().hasSuffix(".gguf") {
                configuration.localModelFile = model
                configuration.localSelection = .inProcess(modelFile: model, reason: .modelSetting)
            } else if let installed = InstalledModel(name: model) {
                // An installed model by name: `load` finds its file (builds with the in-process engine).
                configuration.localModelName = installed.name
                configuration.localSelection = .none(
                    reason: "STUDYKIT_LOCAL_MODEL='\(model)' names a model that runs in process, but this studykit was "
                        + "built without the in-process engine; run scripts/setup (it builds with --traits LlamaCpp) "
                        + "or set STUDYKIT_LOCAL_URL")
            } else {
                configuration.localSelection = .none(
                    reason: "STUDYKIT_LOCAL_MODEL='\(model)' names a server's model but STUDYKIT_LOCAL_URL is not set; "
                        + "set STUDYKIT_LOCAL_URL, or set STUDYKIT_LOCAL_MODEL to the path of a .gguf file "
                        + "(or \(InstalledModel.allCases.map(\.name).joined(separator: ", "))) to run it in process")
            }
        }

        if let text = value("STUDYKIT_REMOTE_URL") {
            let keySetting = value("STUDYKIT_REMOTE_API_KEY") != nil ? "STUDYKIT_REMOTE_API_KEY"
                : value("OPENAI_API_KEY") != nil ? "OPENAI_API_KEY" : nil
            configuration.remote = Endpoint(
                url: try httpURL(text, key: "STUDYKIT_REMOTE_URL"),
                model: value("STUDYKIT_REMOTE_MODEL"),
                contextSize: try contextSize(value("STUDYKIT_REMOTE_CONTEXT_SIZE"),
                    key: "STUDYKIT_REMOTE_CONTEXT_SIZE"),
                contextSizeSetting: "STUDYKIT_REMOTE_CONTEXT_SIZE",
                apiKey: keySetting.flatMap(value).map(APIKey.init),
                apiKeySetting: keySetting,
                dialect: try dialect(value("STUDYKIT_REMOTE_DIALECT"), key: "STUDYKIT_REMOTE_DIALECT"),
                languages: remoteLanguages)
        } else {
            _ = try contextSize(value("STUDYKIT_REMOTE_CONTEXT_SIZE"), key: "STUDYKIT_REMOTE_CONTEXT_SIZE")
        }
        return configuration
    }

    /// The local engine, or a stand-in that reports why there is none.
    ///
    /// A loopback server when `STUDYKIT_LOCAL_URL` is set; otherwise llama.cpp in process on
    /// ``localModelFile`` (builds with the `LlamaCpp` trait).
    /// `discoveryStore` keeps what a server's discovery learnt between runs (the SQLite cache).
    /// `prefixDirectory` is where the in-process engine keeps its instructions' keys and values
    /// between runs (``CacheLocation/prefixDirectory(environment:)``), `nil` for nowhere.
    public func localEngine(
        transport: any HTTPTransport = CurlTransport(), discoveryStore: (any DiscoveryStoring)? = nil,
        prefixDirectory: String? = nil
    ) -> any LanguageModel {
        if let local {
            return OpenAICompatibleEngine(
                kind: .local, endpoint: local, deadline: deadline, transport: transport, discoveryStore: discoveryStore)
        }
        if let localModelFile {
            #if LlamaCpp
            return LlamaEngine(
                settings: LlamaEngine.Settings(
                    modelPath: localModelFile,
                    contextSize: localContextSize ?? LlamaEngine.Settings.defaultContextSize,
                    contextSizeSetting: localContextSize == nil ? nil : "STUDYKIT_LOCAL_CONTEXT_SIZE",
                    threads: localThreads,
                    logging: localEngineLogging,
                    languages: localLanguages ?? .english, prefixDirectory: prefixDirectory))
            #else
            return UnconfiguredEngine(
                kind: .local,
                reason: "STUDYKIT_LOCAL_MODEL names the .gguf file '\(localModelFile)', but this studykit was built "
                    + "without the in-process engine; run scripts/setup (it builds with --traits LlamaCpp) or set "
                    + "STUDYKIT_LOCAL_URL")
            #endif
        }
        let reason: String
        if case .none(let why?) = localSelection { reason = "no local engine: " + why } else {
            reason = "no local engine configured: " + LocalEngineSelection.noLocalEngine
        }
        return UnconfiguredEngine(kind: .local, reason: reason)
    }

    /// The remote engine, or a stand-in that reports why there is none.
    /// `discoveryStore` keeps what the server's discovery learnt between runs (the SQLite cache).
    public func remoteEngine(
        transport: any HTTPTransport = CurlTransport(), discoveryStore: (any DiscoveryStoring)? = nil
    ) -> any LanguageModel {
        guard let remote else {
            return UnconfiguredEngine(
                kind: .remote,
                reason: "no remote engine configured: set STUDYKIT_REMOTE_URL (and STUDYKIT_REMOTE_API_KEY, "
                    + "STUDYKIT_REMOTE_MODEL) in the environment or in the config file")
        }
        return OpenAICompatibleEngine(
            kind: .remote, endpoint: remote, deadline: deadline, transport: transport, discoveryStore: discoveryStore)
    }

    // MARK: validation

    private static func httpURL(_ text: String, key: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else {
            throw EngineError.invalidConfiguration(
                key: key, value: text, reason: "give an http(s) URL such as http://127.0.0.1:8391")
        }
        return url
    }

    private static func contextSize(_ text: String?, key: String) throws -> Int? {
        guard let text else { return nil }
        guard let tokens = Int(text), tokens > 0 else {
            throw EngineError.invalidConfiguration(key: key, value: text,
                reason: "give a positive whole number of tokens, e.g. 2048")
        }
        return tokens
    }

    private static func languages(_ text: String?, key: String) throws -> LanguageSupport? {
        guard let text else { return nil }
        guard let languages = LanguageSupport(setting: text) else {
            throw EngineError.invalidConfiguration(
                key: key, value: text,
                reason: "give language codes separated by commas, e.g. en,fr,ja, or * for any language")
        }
        return languages
    }

    private static func dialect(_ text: String?, key: String) throws -> ServerDialect? {
        guard let text else { return nil }
        guard let dialect = ServerDialect(rawValue: text.lowercased()) else {
            let names = ServerDialect.allCases.map(\.rawValue).joined(separator: ", ")
            throw EngineError.invalidConfiguration(key: key, value: text,
                reason: "use one of \(names), or leave it unset to discover")
        }
        return dialect
    }
}

// MARK: - An engine that is not there

/// Stands in for an engine that is not configured, so callers and reports treat every engine alike.
public struct UnconfiguredEngine: LanguageModel {
    /// Which engine is missing.
    public let kind: EngineKind
    /// Why, and what to set.
    public let reason: String

    /// Creates the stand-in.
    public init(kind: EngineKind, reason: String) {
        self.kind = kind
        self.reason = reason
    }

    /// Always `none`.
    public var modelName: String { "none" }
    /// Always unavailable with ``reason``.
    public func availability() async -> Availability { .unavailable(reason: reason) }
    /// Throws ``EngineError/unavailable(reason:)``.
    public func contextSize() async throws -> ContextWindow { throw EngineError.unavailable(reason: reason) }
    /// Throws ``EngineError/unavailable(reason:)``.
    public func respond(to request: GenerationRequest) async throws -> RawResponse {
        throw EngineError.unavailable(reason: reason)
    }
}
