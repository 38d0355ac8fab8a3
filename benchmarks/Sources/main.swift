import Foundation
import StudyKit

// studykit-bench: the measurements behind scripts/bench-fit and scripts/bench-cache.
//
//   studykit-bench fit [--source PATH] [--task TASK] [--chars N] [--runs N] [--write]
//       fitting a long document to the local window: exact budgets vs the padded estimate vs a re-count loop
//   studykit-bench web [--runs N] [--write]
//       web extraction: word F1 on the fixtures and time per page of a 200 KB page (issue 13)
//   studykit-bench write-section HEADING-PREFIX
//       replaces (or appends) one section of benchmarks/RESULTS.md with stdin (used by scripts/bench-cache)
//
// Configuration comes from the environment, as for studykit (STUDYKIT_LOCAL_URL, …).

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func describe(_ error: any Error) -> String {
    (error as? any StudyKitError)?.message ?? String(describing: error)
}

let resultsPath = "benchmarks/RESULTS.md"

func fit(_ arguments: [String]) async throws {
    var source = "samples/long.pdf"
    var task = StudyTask.summary
    var minimumCharacters = 100_000
    var runs = 7
    var write = false
    var rest = arguments[...]
    while let argument = rest.popFirst() {
        func value() throws -> String {
            guard let value = rest.popFirst() else { throw BenchmarkError("\(argument) needs a value") }
            return value
        }
        switch argument {
        case "--source": source = try value()
        case "--task":
            let name = try value()
            guard let named = StudyTask(rawValue: name) else { throw BenchmarkError("unknown task '\(name)'") }
            task = named
        case "--chars":
            guard let count = Int(try value()), count > 0 else { throw BenchmarkError("--chars needs a positive number") }
            minimumCharacters = count
        case "--runs":
            guard let count = Int(try value()), count > 0 else { throw BenchmarkError("--runs needs a positive number") }
            runs = count
        case "--write": write = true
        default: throw BenchmarkError("unknown argument '\(argument)' for fit")
        }
    }

    let configuration = try EngineConfiguration.load(environment: ProcessInfo.processInfo.environment)
    let engine = configuration.localEngine()
    if case .unavailable(let reason) = await engine.availability() {
        throw BenchmarkError("the local model server is needed: \(reason)")
    }
    let imported = try await Importer().load(.file(source))
    let (document, copies) = FitBenchmark.repeated(imported, toAtLeast: minimumCharacters)
    let benchmark = FitBenchmark(engine: engine, task: task, document: document, runs: runs)
    let (ours, before, reference, budget, documentTokens, overhead) = try await benchmark.run()
    let report = FitBenchmark.report(
        ours: ours, before: before, reference: reference, budget: budget, overhead: overhead,
        window: try await engine.contextSize().tokens, task: task,
        source: source, copies: copies, document: document,
        documentTokens: documentTokens, model: engine.modelName, runs: runs)
    print(report)
    if write {
        try ResultsFile(path: resultsPath).replaceSection(startingWith: "## Fitting:", with: report)
        print("wrote \(resultsPath)")
    }
}

func writeSection(_ arguments: [String]) throws {
    guard arguments.count == 1, arguments[0].hasPrefix("## ") else {
        throw BenchmarkError("write-section needs one heading prefix such as '## Cache:'")
    }
    let section = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
    guard section.hasPrefix(arguments[0]) else { throw BenchmarkError("the section on stdin must start with '\(arguments[0])'") }
    try ResultsFile(path: resultsPath).replaceSection(startingWith: arguments[0], with: section)
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "fit": try await fit(Array(arguments.dropFirst()))
    case "web": try await web(Array(arguments.dropFirst()))
    case "write-section": try writeSection(Array(arguments.dropFirst()))
    default: throw BenchmarkError("usage: studykit-bench fit [--source PATH] [--task TASK] [--chars N] [--runs N] [--write] | web [--runs N] [--write] | write-section '## Heading:'")
    }
} catch {
    FileHandle.standardError.write(Data("studykit-bench: \(describe(error))\n".utf8))
    exit(1)
}
