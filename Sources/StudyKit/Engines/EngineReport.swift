import Foundation

/// What `studykit engines` shows for one engine. Carries no secret: the key is only `set` or `not set`.
public struct EngineReport: Sendable, Equatable {
    /// Whether counting tokens is exact or estimated on this engine.
    public enum TokenCounting: String, Sendable, Equatable {
        /// The server's tokenizer counts.
        case exact
        /// ``TokenCount/estimate(for:)``.
        case estimate
        /// Could not be determined (the engine is unavailable).
        case unknown
    }

    /// Local, remote or builtin.
    public var kind: EngineKind
    /// The server's URL, if the engine has one.
    public var url: String?
    /// The model name.
    public var model: String
    /// Available, or why not.
    public var availability: Availability
    /// The window and its source, if known.
    public var contextWindow: ContextWindow?
    /// Why the window is unknown, when it is.
    public var contextWindowProblem: String?
    /// Exact or estimated token counts.
    public var tokenCounting: TokenCounting
    /// The server dialect, if known (`llama-cpp-python`, `openai`, …).
    public var dialect: String?
    /// How the engine was built, where it says so (llama.cpp in process: its CPU features).
    public var build: String?
    /// `set`, `not set`, or `nil` where a key makes no sense (local, builtin).
    public var apiKey: String?
    /// For the local engine: which one is in use (a loopback server, llama.cpp in process, or
    /// none) and why, from ``EngineConfiguration/localSelection``; `nil` for the others.
    public var selection: String?
    /// The languages the engine declares (``LanguageModel/languages``).
    public var languages: LanguageSupport = .any
    /// How the answer's shape reaches the server (GBNF `grammar` or `response_format`), and why.
    public var answerShape: String?
    /// Where the server's discovery came from: asked now, or the cache and its age.
    public var discovery: String?
    /// The server's tokenizer endpoints, where it has them.
    public var tokenizer: String?
    /// Requests the server serves at once and how that is known (`1 (serializing server)`).
    public var concurrency: String?
    /// What discovery could not learn, one line a probe.
    public var discoveryNotes: [String] = []

    /// Creates a report.
    public init(
        kind: EngineKind, url: String?, model: String, availability: Availability, contextWindow: ContextWindow?,
        contextWindowProblem: String?, tokenCounting: TokenCounting, dialect: String?, build: String? = nil,
        apiKey: String?, selection: String? = nil
    ) {
        self.kind = kind
        self.url = url
        self.model = model
        self.availability = availability
        self.contextWindow = contextWindow
        self.contextWindowProblem = contextWindowProblem
        self.tokenCounting = tokenCounting
        self.dialect = dialect
        self.build = build
        self.apiKey = apiKey
        self.selection = selection
    }
}

/// Reports on the local and remote engines built from `configuration`, then on `others`
/// (the builtin engine). Engines are asked one after another, so a report makes at most a
/// handful of small requests per server and never generates.
public func engineReports(
    configuration: EngineConfiguration, transport: any HTTPTransport = CurlTransport(),
    discoveryStore: (any DiscoveryStoring)? = nil, others: [any LanguageModel] = []
) async -> [EngineReport] {
    var reports: [EngineReport] = []
    let engines = [
        configuration.localEngine(transport: transport, discoveryStore: discoveryStore),
        configuration.remoteEngine(transport: transport, discoveryStore: discoveryStore),
    ]
    for engine in engines + others {
        reports.append(await engineReport(for: engine, configuration: configuration))
    }
    return reports
}

/// One engine's report: asks for availability, the window and a token count of a short probe text.
public func engineReport(for engine: any LanguageModel, configuration: EngineConfiguration) async -> EngineReport {
    let endpoint: EngineConfiguration.Endpoint? =
        switch engine.kind {
        case .local: configuration.local
        case .remote: configuration.remote
        case .builtin: nil
        }
    let availability = await engine.availability()
    var window: ContextWindow? = nil
    var problem: String? = nil
    var counting = EngineReport.TokenCounting.unknown
    if availability.isAvailable {
        do {
            window = try await engine.contextSize()
        } catch let error as EngineError {
            problem = error.message
        } catch {
            problem = "\(error)"
        }
        if let count = try? await engine.tokenCount(for: "studykit") {
            counting = count.method == .exact ? .exact : .estimate
        }
    } else if case .unavailable(let reason) = availability {
        problem = reason
    }
    let description = await engine.describe()
    var report = EngineReport(
        kind: engine.kind, url: endpoint.map { URLCredentials.display($0.url) }, model: description.model,
        availability: availability,
        contextWindow: window, contextWindowProblem: problem, tokenCounting: counting,
        dialect: availability.isAvailable ? description.dialect : nil, build: description.build,
        apiKey: engine.kind == .remote ? (endpoint?.apiKey == nil ? "not set" : "set") : nil,
        selection: engine.kind == .local ? configuration.localSelection.description : nil)
    report.languages = engine.languages
    if availability.isAvailable {
        report.answerShape = description.answerShape
        report.discovery = description.discovery
        report.tokenizer = description.tokenizer
        report.concurrency = description.concurrency
        report.discoveryNotes = description.discoveryNotes
    }
    return report
}
