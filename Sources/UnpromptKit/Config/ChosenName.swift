/// A name the person chose to be shown by: a device's label (in the sync folder and `devices`) or the name a
/// share code carries to friends. It is theirs to choose, so it is never a host or user name by default, and
/// it is kept short and plain: letters and digits of any script, spaces inside, and `- _ . '`.
public enum ChosenName: Sendable {
    /// Characters at most, and UTF-8 bytes at most (what a share code can carry).
    public static let maxCharacters = 24
    public static let maxBytes = 48

    /// Why `name` cannot be one; nil when it can.
    public static func problem(_ name: String) -> String? {
        if name.isEmpty { return "is empty" }
        if name.count > maxCharacters || name.utf8.count > maxBytes {
            return "is longer than \(maxCharacters) characters (or \(maxBytes) bytes)"
        }
        if name.first == " " || name.last == " " { return "starts or ends with a space" }
        if name.contains("  ") { return "holds two spaces in a row" }
        for scalar in name.unicodeScalars where !allowed(scalar) {
            return "holds '\(scalar.escaped(asASCII: true))': only letters, digits, spaces and - _ . ' are allowed"
        }
        return nil
    }

    private static func allowed(_ scalar: Unicode.Scalar) -> Bool {
        if " -_.'".unicodeScalars.contains(scalar) { return true }
        let properties = scalar.properties
        return properties.isAlphabetic || properties.numericType == .decimal || properties.generalCategory == .nonspacingMark
            || properties.generalCategory == .spacingMark
    }
}
