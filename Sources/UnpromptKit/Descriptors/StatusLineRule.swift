/// Plan-limit readings a tool hands to a status line command (`status_line` in its descriptor; Claude Code's
/// `statusLine`): each time the line is drawn, the command gets one JSON document on standard input, whose
/// `windows` are read as a limit rule's are. The document carries no time of its own: a reading is taken
/// when it arrives. Nothing else of the document is read.
public struct StatusLineRule: Sendable {
    public let windows: [LimitWindowSpec]

    public init(windows: [LimitWindowSpec]) {
        self.windows = windows
    }

    /// The rule as a limit rule without a time (the caller gives the moment) and without conditions.
    var limitRule: LimitRule { LimitRule(select: nil, match: [], time: nil, windows: windows) }
}

/// A tool's status line, as `StatusLinePayload.readers` finds it.
public struct StatusLineReader: Sendable {
    /// The descriptor's id: the tool its readings are of.
    public let tool: String
    public let rule: StatusLineRule
    public let file: String
}
