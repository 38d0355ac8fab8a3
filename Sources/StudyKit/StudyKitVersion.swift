/// The tool's version, shared by `--version` and the User-Agent.
public enum StudyKitVersion {
    /// The semantic version of this build.
    public static let current = "0.1.0"
}
