import Foundation

// XML/HTML escaping, shared by Import (MathML), Routing and Output. One-line text is
// ``ProseText/oneLine(_:)``.

/// Text helpers for markup: the renderers in Output/, MathML in Import/ and the chunk reports in
/// Routing/ use them.
enum OutputText {

    /// `text` escaped for XML and HTML: element content and quoted attribute values alike.
    static func markupEscaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t": out += "&#9;"
            case "\n": out += "&#10;"
            default:
                if isXMLCharacter(scalar.value) { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }

    /// XML 1.0's Char production, less what the cases above handle.
    private static func isXMLCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }
}
