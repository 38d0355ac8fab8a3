/// Where a job should run, before any engine is asked.
public enum Backend: String, Sendable, Codable, CaseIterable, Hashable {
    /// The on-device or loopback model: free, private, offline, small window.
    case local
    /// The hosted model: large window, costs money, has a quota.
    case remote
}

/// The largest normalized character count that a headline or Feynman job keeps local.
///
/// A business decision, pinned by tests at 1,999 / 2,000 / 2,001: keep it in one place.
public let localCharacterLimit = 2_000

/// The routing policy: a pure function of the task and the normalized character count.
///
/// Headline and Feynman are small, bounded jobs and stay local up to and including
/// ``localCharacterLimit`` characters; everything that reads a whole document goes remote.
/// - Parameters:
///   - task: the job.
///   - characterCount: `String.count` of the normalized text.
public func backend(for task: StudyTask, characterCount: Int) -> Backend {
    switch task {
    case .headline, .feynman:
        return characterCount <= localCharacterLimit ? .local : .remote
    case .summary, .flashcards, .quiz, .mindmap, .podcast, .studyKit:
        return .remote
    }
}
