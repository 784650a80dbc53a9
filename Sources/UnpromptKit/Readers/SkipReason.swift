/// The reasons a reader or the aggregator skips a record or line, as counted in reports. A descriptor's own
/// `skip` reasons may not reuse these names, so every count means one thing.
public enum SkipReason {
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

    public static let builtIn: Set<String> = [
        malformedJSON, lineTooLong, documentTooLarge, badTime, badValue, noUsage, zeroUsage, unchangedTotal, duplicate,
        unreadableSource, badLimitTime, malformedSibling,
    ]
}
