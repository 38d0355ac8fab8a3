/// Which engines a job may use: the policy's plan with its fallbacks, or one engine alone.
///
/// Raw values are the names users and configuration give the choices.
public enum EngineChoice: String, Sendable, Equatable, CaseIterable {
    /// Follow the policy and fall back silently.
    case auto
    /// Only the local engine, no fallback.
    case local
    /// Only the remote engine, no fallback.
    case remote
    /// Only the builtin extractive engine.
    case builtin
}
