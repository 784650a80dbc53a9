/// The reasons a reader, the deduplicator or the scanner skips a record, a line or a saved state, as counted
/// in reports. A descriptor's own `skip` reasons may not reuse these names, so every count means one thing.
public enum SkipReason: Sendable {
    public static let malformedJSON = "malformed-json"
    public static let lineTooLong = "line-too-long"
    public static let documentTooLarge = "document-too-large"
    public static let badTime = "bad-time"
    public static let badValue = "bad-value"
    public static let noUsage = "no-usage"
    public static let zeroUsage = "zero-usage"
    public static let unchangedTotal = "unchanged-total"
    public static let duplicate = "duplicate"
    public static let unreadableSource = "unreadable-source"
    public static let badLimitTime = "bad-limit-time"
    public static let malformedSibling = "malformed-sibling"
    /// A value declared compressed (`decompress`) that does not decompress to text.
    public static let badCompressedData = "bad-compressed-data"
    /// A value declared protobuf (`protobuf`) that is not the declared message's encoding, or not a BLOB.
    public static let badProtobuf = "bad-protobuf"
    /// A `decode` field of a record that holds a string which is not JSON: the record is not read.
    public static let malformedEmbeddedJSON = "malformed-embedded-json"
    /// A source's saved reader state that does not decode: the source is read again from the start, where
    /// identities keep what was counted before from counting again.
    public static let damagedState = "damaged-state"
    /// A running total of a document or database read again after its saved state was damaged: it only sets
    /// the running total, since the part of it counted before is not known.
    public static let lostRunningTotal = "lost-running-total"
    /// A descriptor's regular expression used up its matching work on a line or a value (a catastrophic
    /// pattern): the line or record is not read, rather than read as if the pattern had not matched.
    public static let patternTooSlow = "pattern-too-slow"
    /// A name a source's glob matches that is no file: a FIFO, socket or device (never opened, so a scan cannot
    /// wait on it), or a symbolic link that loops or leads nowhere. Counted once per name, per scan.
    public static let notAFile = "not-a-file"

    /// A patch journal's line before its first snapshot: there is no document to apply it to.
    public static let journalNoSnapshot = "journal-no-snapshot"
    /// A patch journal's line whose path leads nowhere its operation can change.
    public static let journalBadPath = "journal-bad-path"
    /// A patch journal's line whose path, value or cut index is not what its operation takes.
    public static let journalBadValue = "journal-bad-value"
    /// A patch journal's line whose operation code the descriptor does not name.
    public static let journalUnknownOperation = "journal-unknown-op"
    /// A record of a patch journal's document that holds, or lies inside, a place a skipped line would have
    /// changed: not read, rather than read as if the line were not there.
    public static let journalDamaged = "journal-damaged"

    public static let builtIn: Set<String> = [
        malformedJSON, lineTooLong, documentTooLarge, badTime, badValue, noUsage, zeroUsage, unchangedTotal, duplicate,
        unreadableSource, badLimitTime, malformedSibling, badCompressedData, badProtobuf, malformedEmbeddedJSON, damagedState,
        lostRunningTotal, patternTooSlow, notAFile, journalNoSnapshot, journalBadPath, journalBadValue,
        journalUnknownOperation, journalDamaged,
    ]
}
