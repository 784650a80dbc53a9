/// Model ids as stored and shown: a strict shape, so nothing else from a log (a path, an e-mail address, a
/// prompt) can ride along in this one free-text field.
///
/// - Spaces around the id are trimmed. An id is one name, or one provider prefix and a name (`anthropic/claude-…`).
///   Each is ASCII letters, digits and `- . _ :`, not only dots, and the whole is at most 64 bytes. No `@`, but
///   for Vertex AI's version suffix, read strictly: `@` and a date of 8 digits (`claude-sonnet-4-5@20250929`)
///   becomes the dated id that Anthropic's API writes and the price table has (`claude-sonnet-4-5-20250929`),
///   and `@latest` or `@default` is dropped. Nothing else after an `@` (an e-mail's domain) is ever kept.
/// - A path names a local model file (it starts with `/`, `~` or `.`, holds `\` or `://`, has two or more `/`,
///   or its last part ends like a model file, `.gguf`): it keeps at most its base name, when that has the shape.
///   A provider path (`openrouter/openai/gpt-5`) keeps its model's name the same way.
/// - Anything else is `unknown`, and is counted under that name, never dropped.
///
/// Pure byte checks: this runs once per record, on every core.
enum ModelID {
    static let unknown = "unknown"
    static let maxLength = 64
    /// The endings of local model files, whose folders are never kept.
    static let fileEndings = [".gguf", ".ggml", ".bin", ".safetensors", ".onnx", ".pt", ".pth", ".llamafile", ".mlmodel"]

    static func sanitize(_ text: String) -> String {
        var bytes = Substring(text).utf8[...]
        while bytes.first == space { bytes = bytes.dropFirst() }
        while bytes.last == space { bytes = bytes.dropLast() }
        let versioned = bytes.contains(at) ? withoutVertexVersion(bytes) : nil
        if let versioned { bytes = Substring(versioned).utf8[...] }
        let slashes = bytes.count(where: { $0 == slash })
        if isPath(bytes, slashes: slashes) {
            let base = bytes.split(separator: slash, omittingEmptySubsequences: false).last!
                .split(separator: backslash, omittingEmptySubsequences: false).last!
            return isName(base) ? String(Substring(base)) : unknown
        }
        guard bytes.count <= maxLength,
            bytes.split(separator: slash, omittingEmptySubsequences: false).allSatisfy(isName)
        else { return unknown }
        return String(Substring(bytes))
    }

    private static let space = UInt8(ascii: " ")
    private static let slash = UInt8(ascii: "/")
    private static let backslash = UInt8(ascii: "\\")
    private static let dot = UInt8(ascii: ".")
    private static let at = UInt8(ascii: "@")
    static let vertexAliases: [Substring.UTF8View.SubSequence] = ["latest", "default"].map { Substring($0).utf8[...] }

    /// The id with a Vertex version suffix (after its last `@`) in Anthropic's spelling, or nil when what follows
    /// the `@` is not exactly a date `20YYMMDD` (a real month and day), `latest` or `default`. The rest of the id
    /// is checked as any id is: another `@` in it still makes it `unknown`.
    private static func withoutVertexVersion(_ bytes: Substring.UTF8View.SubSequence) -> String? {
        guard let sign = bytes.lastIndex(of: at) else { return nil }
        let model = bytes[..<sign]
        let version = bytes[bytes.index(after: sign)...]
        guard !model.isEmpty, model.last != slash else { return nil }
        if vertexAliases.contains(where: { $0.elementsEqual(version) }) { return String(Substring(model)) }
        let digits = version.map { Int($0) - 0x30 }
        guard digits.count == 8, digits.allSatisfy({ (0...9).contains($0) }), digits[0] == 2, digits[1] == 0,
            (1...12).contains(digits[4] * 10 + digits[5]), (1...31).contains(digits[6] * 10 + digits[7])
        else { return nil }
        return String(Substring(model)) + "-" + String(Substring(version))
    }

    private static func isPath(_ bytes: Substring.UTF8View.SubSequence, slashes: Int) -> Bool {
        if slashes >= 2 || bytes.contains(backslash) { return true }
        if let first = bytes.first, first == slash || first == dot || first == UInt8(ascii: "~") { return true }
        let text = Substring(bytes).lowercased()
        return text.contains("://") || (slashes == 1 && fileEndings.contains { text.hasSuffix($0) })
    }

    /// One name: the allowed bytes only, not empty, not only dots, at most `maxLength`.
    private static func isName(_ bytes: Substring.UTF8View.SubSequence) -> Bool {
        guard !bytes.isEmpty, bytes.count <= maxLength, bytes.contains(where: { $0 != dot }) else { return false }
        return bytes.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == dot || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":")
        }
    }
}
