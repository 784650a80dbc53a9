/// Values a `json` source's records read from another document in the same directory: Cline keeps the
/// model of a task in `task_metadata.json` beside the `ui_messages.json` that holds its usage.
///
/// Each selected element (or the document itself) whose `match` holds sets the named values, which records
/// read as `"@name"`. Without `since`, the last element that sets a value gives it to every record. With
/// `since`, an element's values hold from its own time on: a record gets the last value set at or before
/// the record's time, and none when every element is later.
public struct SiblingRule: Sendable {
    /// A file name (no directories) in the source's own directory.
    public let file: String
    public let select: Selection?
    public let match: [Condition]
    public let since: TimeSpec?
    public let set: [(name: String, value: ValueSpec)]
}
