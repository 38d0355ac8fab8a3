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

    /// `userinfo@` right after a scheme's `//`: the user, and the password after a `:`.
    private static let userInfo = try! NSRegularExpression(pattern: "//([^/?#@:\\s]*)(:[^/?#@\\s]*)?@", options: [])
    /// `?name=value` or `&name=value` (also `;`), the value up to the next separator or space.
    private static let parameter = try! NSRegularExpression(
        pattern: "([?&;])([A-Za-z0-9_.-]+)=([^&;#\\s\"'<>]*)", options: [])

    /// `text` with every URL's user information and secret query values replaced by ``mask``.
    static func redacted(in text: String) -> String {
        guard text.contains("@") || text.contains("=") else { return text }
        var result = text
        // A password always goes; a user name only when it looks like a token (`sk-…`, or long
        // and random), so `http://127.0.0.1@evil.com` still shows how it deceives.
        for match in userInfo.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
            guard let userRange = Range(match.range(at: 1), in: result) else { continue }
            if let passwordRange = Range(match.range(at: 2), in: result) {
                result.replaceSubrange(passwordRange, with: ":" + mask)
            }
            if looksLikeToken(result[userRange]) { result.replaceSubrange(userRange, with: mask) }
        }
        let matches = parameter.matches(in: result, range: NSRange(result.startIndex..., in: result))
        for match in matches.reversed() {
            guard let nameRange = Range(match.range(at: 2), in: result),
                let valueRange = Range(match.range(at: 3), in: result),
                !result[valueRange].isEmpty
            else { continue }
            let name = result[nameRange].lowercased().replacingOccurrences(of: "-", with: "_")
            if secretParameters.contains(name) { result.replaceSubrange(valueRange, with: mask) }
        }
        return result
    }

    /// A user name that is a key in disguise: an `sk-` key, or 16 characters or more mixing
    /// letters and digits with no dot (not a host name, not an e-mail's local part).
    private static func looksLikeToken(_ user: Substring) -> Bool {
        if user.lowercased().hasPrefix("sk-") { return true }
        return user.count >= 16 && !user.contains(".") && user.contains(where: \.isNumber)
            && user.contains(where: \.isLetter)
    }

    /// `url` as text for people and logs, without its credentials.
    static func display(_ url: URL) -> String { redacted(in: url.absoluteString) }
}
