import Foundation
import StudyKit

// The executable stays thin: everything, including argument parsing, lives in the library.
let code = await Runner.production().run(Array(CommandLine.arguments.dropFirst()))
exit(code.rawValue)
