/// A command line that cannot be run. Always exit 64.
enum UsageError: StudyKitError, Equatable {
    /// No command was given.
    case missingCommand
    /// The first word is not a command.
    case unknownCommand(String, suggestion: String?)
    /// An option the command does not know.
    case unknownOption(String, command: String, suggestion: String?)
    /// An option that needs a value got none.
    case missingValue(option: String)
    /// A flag was given a value.
    case unexpectedValue(option: String)
    /// A required argument is absent.
    case missingArgument(String, command: String)
    /// More positional arguments than the command takes.
    case unexpectedArgument(String, command: String)
    /// A value is not one of the allowed ones.
    case invalidValue(option: String, value: String, expected: String)

    /// One line in the style of swift-argument-parser.
    public var message: String {
        switch self {
        case .missingCommand:
            return "Missing command. See 'studykit --help'."
        case .unknownCommand(let word, let suggestion):
            return "Unknown command '\(word)'." + (suggestion.map { " Did you mean '\($0)'?" }
                ?? " See 'studykit --help'.")
        case .unknownOption(let option, let command, let suggestion):
            return "Unknown option '\(option)'."
                + (suggestion.map { " Did you mean '\($0)'?" } ?? " See '\(helpCommand(command))'.")
        case .missingValue(let option):
            return "Missing value for option '\(option)'."
        case .unexpectedValue(let option):
            return "Option '\(option)' does not take a value."
        case .missingArgument(let argument, let command):
            return "Missing expected argument '\(argument)'. See '\(helpCommand(command))'."
        case .unexpectedArgument(let argument, let command):
            return "Unexpected argument '\(argument)'. See '\(helpCommand(command))'."
        case .invalidValue(let option, let value, let expected):
            return "Invalid value '\(value)' for '\(option)': expected \(expected)."
        }
    }

    private func helpCommand(_ command: String) -> String {
        command.isEmpty ? "studykit --help" : "studykit \(command) --help"
    }

    /// Always ``ExitCode/usage``.
    public var exitCode: ExitCode { .usage }
}
