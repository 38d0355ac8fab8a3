import Foundation

// What LiteLLM's proxy 1.108.7 exposes (read from a running proxy in front of two
// llama-cpp-python servers, scripts/serve-models --gateway):
// - `GET /v1/models` lists the model names (`study-remote`), with no `x-litellm-*` header;
//   `GET /props`, `/api/version`, `/extras/tokenize/count` are 404; `GET /openapi.json` is 2 MB.
// - `GET /v1/model/info` (also `/model/info`): `{"data": [{"model_name", "litellm_params",
//   "model_info": {"max_input_tokens", "max_tokens", "max_output_tokens", …}}]}`, one entry per
//   deployment (about 8 KB each); the window fields are null unless the configuration or
//   LiteLLM's cost map sets them.
// - A chat completion's answer carries `x-litellm-call-id` (the gateway's request id),
//   `x-litellm-model-api-base` (the backend that answered), `x-litellm-attempted-retries`, and
//   the backend's own `request-id`. Usage is reported, streamed too.
// - A backend's refusal comes back as the gateway's status (llama-cpp-python's 500 on a
//   `json_schema` response format stays a 500, after LiteLLM's own retries); a budget over its
//   limit is 422 with `type: budget_exceeded`; a rate limit is 429 with `Retry-After`.

// MARK: - The gateway's model info

/// The deployments behind one model name in LiteLLM's `GET /v1/model/info`, and the window
/// they share.
struct GatewayModelInfo: Equatable {
    /// The window every deployment of the model holds, and the field it came from.
    struct Window: Equatable {
        var tokens: Int
        var field: String
    }

    /// Deployments serving the model.
    var count: Int
    /// The smallest window among the deployments that report one (the gateway may send a
    /// request to any of them); `nil` when none does.
    var window: Window?
    /// Whether every deployment says it takes OpenAI's `json_schema` (`supports_response_schema`:
    /// LiteLLM's cost map says so for the hosted models it knows; a configuration can say it
    /// for vLLM). An OpenAI-compatible server it knows nothing of may be llama-cpp-python,
    /// which refuses it.
    var takeJSONSchema: Bool

    /// Reads the answer for `model` (all deployments when `nil`); `nil` when the body is not
    /// LiteLLM's model info.
    init?(body: Data, model: String?) {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let data = object["data"] as? [[String: Any]], !data.isEmpty,
            data.allSatisfy({ $0["model_name"] is String && ($0["model_info"] != nil || $0["litellm_params"] != nil) })
        else { return nil }
        let deployments = model.map { name in data.filter { $0["model_name"] as? String == name } } ?? data
        count = deployments.count
        let windows = deployments.compactMap { deployment -> Window? in
            let info = deployment["model_info"] as? [String: Any]
            for field in ["max_input_tokens", "max_tokens"] {
                if let tokens = OpenAIWire.integer(info?[field]),
                    tokens > 0 { return Window(tokens: tokens, field: field) }
            }
            return nil
        }
        window = windows.min { $0.tokens < $1.tokens }
        takeJSONSchema = !deployments.isEmpty && deployments.allSatisfy {
            ($0["model_info"] as? [String: Any])?["supports_response_schema"] as? Bool == true
        }
    }
}

// MARK: - Request ids

/// Who answered one request, from the response headers: the gateway's or provider's request
/// id and, behind a gateway, the backend that served it. `--verbose` shows them, and a failure's
/// message names the id, so a request can be found in the gateway's logs.
struct ResponseTrace: Equatable {
    var requestID: String?
    var servedBy: String?
    var retries: Int?

    /// The headers of `head` that say it: LiteLLM's `x-litellm-call-id`, else OpenAI's
    /// `x-request-id`, else `request-id`; LiteLLM's backend (`x-litellm-model-api-base`, without
    /// credentials) and the retries it made.
    init(_ head: HTTPResponseHead) {
        requestID = ["x-litellm-call-id", "x-request-id", "request-id"].lazy.compactMap { head.header($0) }.first
            .map(Self.shortened)
        servedBy = head.header("x-litellm-model-api-base").map { URLCredentials.redacted(in: Self.shortened($0)) }
        retries = head.header("x-litellm-attempted-retries").flatMap { Int($0) }
        viaGateway = head.header("x-litellm-call-id") != nil || servedBy != nil
    }

    /// Whether a gateway answered (LiteLLM's headers): `--verbose` traces its requests.
    var viaGateway: Bool

    /// ` (request 1cc3e007-…, served by http://127.0.0.1:8424/v1, 1 retry at the gateway)`, or
    /// an empty string.
    var suffix: String {
        var parts: [String] = []
        if let requestID { parts.append("request \(requestID)") }
        if let servedBy { parts.append("served by \(servedBy)") }
        if let retries, retries > 0 { parts.append("\(retries) \(retries == 1 ? "retry" : "retries") at the gateway") }
        return parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")"
    }

    /// A header value on one line, at most 120 characters: a server controls it.
    private static func shortened(_ value: String) -> String {
        let line = value.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces)
        return line.count > 120 ? String(line.prefix(120)) + "…" : line
    }
}
