import Foundation
import UnpromptKit

/// HTML text as the page writes it: every string that comes from the store (tool and model ids, window names)
/// or anywhere else is escaped, in text and in attribute values alike, though model ids are already sanitized.
enum HTML {
    static func escaped(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default: output.append(character)
            }
        }
        return output
    }

    /// A shown number: `<data value="RAW" data-key="KEY">TEXT</data>`, so a reader (or a test) has the exact
    /// value beside its formatted text.
    static func number(_ text: String, value: String, key: String, classes: String? = nil) -> String {
        "<data value=\"\(escaped(value))\" data-key=\"\(escaped(key))\"" + (classes.map { " class=\"\($0)\"" } ?? "") + ">"
            + escaped(text) + "</data>"
    }

    /// `'sha256-…'`: a Content-Security-Policy source that allows exactly this inline style or script.
    static func hashSource(_ content: String) -> String {
        let hex = Array(SHA256.hex(Array(content.utf8)).utf8)
        var digest = Data()
        for i in stride(from: 0, to: hex.count, by: 2) { digest.append(UInt8(String(decoding: hex[i..<i + 2], as: UTF8.self), radix: 16)!) }
        return "'sha256-" + digest.base64EncodedString() + "'"
    }
}
