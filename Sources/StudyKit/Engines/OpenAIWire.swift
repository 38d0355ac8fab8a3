import Foundation

// MARK: - Requests and answers as JSON

/// The JSON studykit sends and the fields it reads back, kept in one place (internal only so tests can check the body).
enum OpenAIWire {
    static func encode(_ object: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    static func tokenizeBody(_ text: String, model: String?) throws -> Data {
        var body: [String: Any] = ["input": text]
        if let model { body["model"] = model }
        return try encode(body)
    }

    /// A chat completion request: system = instructions, user = prompt, and the answer's shape:
    /// studykit's own GBNF as `grammar` when given (llama.cpp servers; the same grammar the
    /// in-process engine decodes under, so the same word and length limits hold), else the
    /// schema as the `response_format` the dialect accepts (llama-cpp-python rejects
    /// `json_schema` with a 500). `jsonObjectSchema` sends llama.cpp's `json_object` + `schema`
    /// whatever the dialect: the server refused `json_schema` (a gateway in front of llama-cpp-python).
    static func chatBody(
        _ request: GenerationRequest, model: String?, dialect: ServerDialect, grammar: String? = nil, stream: Bool,
        jsonObjectSchema: Bool = false
    ) throws -> Data {
        // Built as an ordered JSONValue, not a [String: Any]: a schema's property order is the
        // order the model writes the fields in (llama.cpp's grammar follows it), so it must
        // survive encoding exactly as the Generable type declares it.
        var messages: [JSONValue] = []
        if !request.instructions.isEmpty { messages.append(["role": "system",
            "content": .string(request.instructions)]) }
        messages.append(["role": "user", "content": .string(request.prompt)])
        var body = JSONObject()
        if let model { body["model"] = .string(model) }
        body["messages"] = .array(messages)
        body["stream"] = .bool(stream)
        switch request.options.sampling {
        case .greedy: body["temperature"] = .integer(0)
        case .temperature(let value): body["temperature"] = .number(value)
        }
        if let seed = request.options.seed { body["seed"] = .integer(seed) }
        if dialect.isLlamaCpp {
            // llama-cpp-python's server applies a repeat penalty of 1.1 unless told otherwise;
            // the in-process engine applies none. With it, greedy decoding picks other words
            // (on samples/paste.txt SmolLM2 then writes a stock "A short summary of…" blurb,
            // under the server's schema grammar and under ours alike). Same sampling as in
            // process, so the same prompt gives the same answer on both paths.
            body["repeat_penalty"] = .integer(1)
        }
        // max_tokens rather than max_completion_tokens: every compatible server still accepts it.
        if let maximum = request.options.maximumResponseTokens { body["max_tokens"] = .integer(maximum) }
        if stream { body["stream_options"] = ["include_usage": true] }
        if let grammar {
            // Never beside `response_format`: llama-server refuses a grammar and a schema together.
            body["grammar"] = .string(grammar)
        } else if !request.jsonSchema.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            let schema = try schemaObject(request.jsonSchema, name: request.schemaName)
            let name = JSONValue.string(schemaName(request.schemaName))
            switch dialect {
            case _ where jsonObjectSchema, .llamaCppPython, .llamaServer:
                body["response_format"] = ["type": "json_object", "schema": schema]
            case .ollama:
                body["response_format"] = ["type": "json_schema", "json_schema": ["name": name, "schema": schema]]
            case .openAI, .liteLLM:
                if let strictText = request.strictJSONSchema {
                    let strict = try schemaObject(strictText, name: request.schemaName)
                    body["response_format"] = ["type": "json_schema",
                        "json_schema": ["name": name, "schema": strict, "strict": true]]
                } else {
                    body["response_format"] = ["type": "json_schema",
                        "json_schema": ["name": name, "schema": schema, "strict": false]]
                }
            }
        }
        return Data(JSONValue.object(body).compactText.utf8)
    }

    private static func schemaObject(_ text: String, name: String) throws -> JSONValue {
        guard let object = try? JSONValue.parse(text), case .object = object else {
            throw EngineError.invalidOutput(["the JSON schema for '\(name)' is not a JSON object; fix the schema text"])
        }
        return object
    }

    /// OpenAI allows `[a-zA-Z0-9_-]{1,64}` as a schema name.
    private static func schemaName(_ name: String) -> String {
        let allowed = name.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) && $0.isASCII || $0 == "_"
            || $0 == "-" }
        let cleaned = String(String.UnicodeScalarView(allowed).prefix(64))
        return cleaned.isEmpty ? "response" : cleaned
    }

    static func object(_ data: Data, endpoint: String) throws -> [String: Any] {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw EngineError.invalidOutput(["the answer to \(endpoint) is not JSON: '\(preview(data))'"])
        }
        return object
    }

    static func integer(_ value: Any?) -> Int? {
        if let number = value as? Int { return number }
        if let number = value as? Double, number == number.rounded(), abs(number) < 1e15 { return Int(number) }
        return nil
    }

    /// `[1, 2]`, or llama-server's `[{"id": 1, "piece": "…"}]` when pieces were asked for.
    static func tokenList(_ value: Any?) -> [Int]? {
        guard let items = value as? [Any] else { return nil }
        var tokens: [Int] = []
        for item in items {
            if let id = integer(item)
                ?? integer((item as? [String: Any])?["id"]) { tokens.append(id) } else { return nil }
        }
        return tokens
    }

    struct Completion {
        var text: String?
        var refusal: String?
        var finishReason: String?
        var usage: Usage?
        var model: String?
    }

    static func completion(_ data: Data, endpoint: String) throws -> Completion {
        let object = try Self.object(data, endpoint: endpoint)
        guard let choices = object["choices"] as? [[String: Any]], let first = choices.first else {
            throw EngineError.invalidOutput(["the answer to \(endpoint) has no choices: '\(preview(data))'"])
        }
        let message = first["message"] as? [String: Any]
        return Completion(
            text: message?["content"] as? String, refusal: message?["refusal"] as? String,
            finishReason: first["finish_reason"] as? String, usage: usage(object["usage"]),
            model: object["model"] as? String)
    }

    static func usage(_ value: Any?) -> Usage? {
        guard let usage = value as? [String: Any], let prompt = integer(usage["prompt_tokens"]),
            let completion = integer(usage["completion_tokens"])
        else { return nil }
        return Usage(promptTokens: prompt, completionTokens: completion, method: .reported)
    }

    /// The first 120 characters of a body, on one line, for messages.
    static func preview(_ data: Data) -> String {
        let text = String(decoding: data.prefix(400), as: UTF8.self)
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces)
        return line.count > 120 ? String(line.prefix(120)) + "…" : line
    }

    /// OpenAI's `{"error": {"message", "type", "code"}}`, FastAPI's `{"detail": …}`, or the text itself.
    static func errorDetail(_ data: Data) -> (message: String, code: String?, type: String?) {
        if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            if let error = object["error"] as? [String: Any] {
                let message = (error["message"] as? String) ?? preview(data)
                return (oneLine(message), error["code"] as? String, error["type"] as? String)
            }
            if let error = object["error"] as? String { return (oneLine(error), nil, nil) }
            if let detail = object["detail"] as? String { return (oneLine(detail), nil, nil) }
        }
        return (preview(data).isEmpty ? "no details" : preview(data), nil, nil)
    }

    private static func oneLine(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
        return line.count > 300 ? String(line.prefix(300)) + "…" : line
    }

    /// "maximum context length is 2048 tokens. However, you requested 3000 tokens" → (3000, 2048).
    static func contextNumbers(_ message: String) -> (tokens: Int, window: Int)? {
        let numbers = message.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard numbers.count >= 2 else { return nil }
        return (numbers[1], numbers[0])
    }
}

// MARK: - Streamed answers

/// Accumulates chat completion chunks into the answer so far.
struct ChunkReader {
    var text = ""
    var finishReason: String?
    var usage: Usage?
    var model: String?
    var sawDone = false
    /// Events that carried answer text: one per token from llama.cpp's servers, which is how a
    /// stream without `usage` is metered.
    var contentEvents = 0
    /// Whether any event arrived at all.
    var sawEvent = false

    /// Returns the new snapshot when the chunk added text.
    mutating func read(_ payload: String, endpoint: String, redactor: Redactor) throws -> String? {
        sawEvent = true
        if payload.trimmingCharacters(in: .whitespaces) == "[DONE]" {
            sawDone = true
            return nil
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any] else {
            throw EngineError.invalidOutput(["the stream from \(endpoint) carried an event that is not JSON: "
                + "'\(OpenAIWire.preview(Data(payload.utf8)))'"])
        }
        if object["error"] != nil {
            let detail = OpenAIWire.errorDetail(Data(payload.utf8))
            throw EngineError.http(status: 200, message: redactor.clean(detail.message))
        }
        if let name = object["model"] as? String { model = name }
        if let reported = OpenAIWire.usage(object["usage"]) { usage = reported }
        guard let choice = (object["choices"] as? [[String: Any]])?.first else { return nil }
        if let reason = choice["finish_reason"] as? String { finishReason = reason }
        guard let delta = (choice["delta"] as? [String: Any])?["content"] as? String, !delta.isEmpty else { return nil }
        text += delta
        contentEvents += 1
        return text
    }
}
