import Foundation

/// Credentials a URL can carry, and how to show such a URL without them.
///
/// A key configured inside a server URL (`https://user:key@host`, `https://host/v1?api_key=key`,
/// Google's `?key=`) ends up wherever the URL is shown: error lines, fallback reasons, the engine
/// report, the discovery records in the SQLite cache. Every such place shows the URL through
/// ``display(_:)``, and text that may quote one (a server's error message, a configuration value)
/// goes through ``redacted(in:)``.
enum URLCredentials {
    /// What replaces a secret.
    static let mask = "<redacted>"

    /// Query parameters whose value is a secret, compared in lower case with `-` read as `_`.
    static let secretParameters: Set<String> = [
        "key", "api_key", "apikey", "access_token", "token", "auth", "password", "secret", "client_secret",
        "signature", "sig", "x_api_key",
    ]

    /// `userinfo@` right after a scheme's `//`: everything up to the first `@` before the host ends.
    private static let userInfo = try! NSRegularExpression(pattern: "(//)[^/?#@\\s]+@", options: [])
    /// `?name=value` or `&name=value` (also `;`), the value up to the next separator or space.
    private static let parameter = try! NSRegularExpression(
        pattern: "([?&;])([A-Za-z0-9_.-]+)=([^&;#\\s\"'<>]*)", options: [])

    /// `text` with every URL's user information and secret query values replaced by ``mask``.
    static func redacted(in text: String) -> String {
        guard text.contains("@") || text.contains("=") else { return text }
        var result = userInfo.stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "$1\(mask)@")
        let matches = parameter.matches(in: result, range: NSRange(result.startIndex..., in: result))
        for match in matches.reversed() {
            guard let nameRange = Range(match.range(at: 2), in: result), let valueRange = Range(match.range(at: 3), in: result),
                !result[valueRange].isEmpty
            else { continue }
            let name = result[nameRange].lowercased().replacingOccurrences(of: "-", with: "_")
            if secretParameters.contains(name) { result.replaceSubrange(valueRange, with: mask) }
        }
        return result
    }

    /// `url` as text for people and logs, without its credentials.
    static func display(_ url: URL) -> String { redacted(in: url.absoluteString) }
}
