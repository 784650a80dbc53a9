/// A plan-limit window derived from when the tool was used, for a tool whose logs hold no quota percentages
/// (`derived_window` in its descriptor; Claude's 5-hour window): a window starts at the hour of the first
/// request after the previous one ended and lasts `minutes`. A sample of the limit window `endedBy` (a
/// limit-reached record) ends the window it was logged in at the reset it names, and is about that window:
/// when it names no length of its own, its length is `minutes`.
public struct DerivedWindow: Sendable, Equatable {
    public static let minutesRange = 1...44_640

    public let minutes: Int64
    /// A window name of the descriptor's `limits`.
    public let endedBy: String?

    public init(minutes: Int64, endedBy: String?) {
        self.minutes = minutes
        self.endedBy = endedBy
    }

    public var milliseconds: Int64 { minutes * 60_000 }

    /// `derived_window: { minutes: N, ended_by: NAME }`; `ended_by` must be one of `limitWindows`, the window
    /// names the descriptor's limit rules declare.
    static func decode(_ node: YAMLNode, file: String, limitWindows: [String], log: KeyReadLog?) throws(DescriptorError)
        -> DerivedWindow
    {
        let map = try MappingReader(node, file: file, section: DescriptorKeys.derivedWindow, log: log)
        let minutes = try map.integer(try map.required("minutes"), "minutes", range: minutesRange)
        var endedBy: String?
        if let endedNode = map.optional("ended_by") {
            let name = try map.string(endedNode, "ended_by")
            guard limitWindows.contains(name) else {
                let known = limitWindows.isEmpty ? "it declares no limit windows" : "its windows: " + limitWindows.joined(separator: ", ")
                throw map.error(endedNode, "ended_by '\(name)' is no window of this descriptor's limits; \(known)")
            }
            endedBy = name
        }
        return DerivedWindow(minutes: Int64(minutes), endedBy: endedBy)
    }
}
