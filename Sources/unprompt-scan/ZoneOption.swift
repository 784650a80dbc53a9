import UnpromptKit

/// `--tz ZONE`: an IANA zone name (`Asia/Kolkata`, `America/New_York`) or `UTC`. Without it, the `TZ`
/// environment variable, else the system zone (`ViewZone.resolve`).
enum ZoneOption {
    static func resolve(_ flag: String?, environment: [String: String]) throws(UsageError) -> ViewZone {
        guard let zone = ViewZone.resolve(flag, environment: environment) else {
            throw UsageError("--tz: unknown time zone '\(flag ?? "")'; give an IANA name such as Asia/Kolkata, or UTC")
        }
        return zone
    }
}
