import Foundation

/// One claim of a student's explanation of a concept (Feynman feedback) and what the material
/// says about it, as the builtin check finds it: the claims a model's correction is asked for.
struct ExplanationClaim: Sendable, Equatable {
    /// How the claim compares with the material.
    enum Finding: String, Sendable, Equatable {
        /// The concept's sentences hold the claim's distinctive words.
        case supported
        /// The material says it, but about something else; `evidence` is where.
        case misplaced
        /// The material says the opposite ("evaluated every time" where it says "evaluated only
        /// once"; "keeps its configuration files" where it deletes them); `evidence` is where.
        case contradicted
        /// The material says nothing like it.
        case unsupported
    }

    /// The claim as the student wrote it (one clause, one line).
    let text: String
    let finding: Finding
    /// Some of the claim's words are in the concept's sentences (a wrong claim that is partly right).
    var partlySupported = false
    /// The material's sentence that supports the claim, that states its fact elsewhere, that
    /// says the opposite, or (unsupported) the concept's main sentence.
    let evidence: String?
    /// For a contradicted claim, where the material puts what the claim describes, if it does
    /// ("makes four haploid cells": meiosis does).
    var elsewhere: String? = nil
}
