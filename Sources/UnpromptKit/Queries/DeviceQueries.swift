/// A device as `devices` lists it: this one and each one imported from the sync folder.
public struct DeviceEntry: Sendable, Equatable {
    public let device: String
    public let label: String
    public let this: Bool
    /// When it last wrote its export, by its own clock; nil for this device before its first export.
    public let exportedAt: Int64?
    /// When its store was last brought up to date, by its own clock.
    public let measuredAt: Int64?
    /// Every token of its history.
    public let tokens: Int64
}

/// `--device` that names no device.
public enum DeviceChoiceError: Error {
    case store(StoreError)
    case unknown(String)
}

extension UsageQueries {
    /// How long limit samples travel in an export: the longest any view looks back (7 days of derived windows)
    /// and a day more.
    static let exportedLimitDays: Int64 = 8

    /// The neutral label of a device the person has not named: `device-` and its id's first four digits.
    public static func defaultLabel(device: String) -> String { "device-" + device.prefix(4) }

    /// This device's label: the one set (`config set device-label`), else the neutral one.
    public static func label(_ settings: UserConfig, device: String) -> String {
        settings.deviceLabel ?? defaultLabel(device: device)
    }

    /// The devices `text` names: nil or `all` every one, `this` this one, else the one whose id, label or id
    /// prefix (4 digits at least) it is.
    static func choose(device text: String?, store: UsageStore?, settings: UserConfig) throws(DeviceChoiceError) -> DeviceSelection {
        guard let text, text != "all" else { return .all }
        if text == "this" { return .this }
        var known: [(id: String, label: String)] = []
        do {
            if let store {
                let own = try store.deviceID()
                known.append((own, label(settings, device: own)))
                known += try store.importedDevices().map { ($0.device, $0.label) }
            }
        } catch {
            throw .store(error)
        }
        if let exact = known.first(where: { $0.id == text }) { return .device(exact.id) }
        let byLabel = known.filter { $0.label == text }
        let byPrefix = text.count >= 4 ? known.filter { $0.id.hasPrefix(text.lowercased()) } : []
        let matches = byLabel.isEmpty ? byPrefix : byLabel
        guard matches.count == 1 else {
            throw .unknown(
                matches.isEmpty
                    ? "--device: no device '\(text)'; give all, this, or an id or label that `unprompt-scan devices` lists"
                    : "--device: '\(text)' names \(matches.count) devices; give one's id (`unprompt-scan devices` lists them)")
        }
        return .device(matches[0].id)
    }

    /// This device (labelled `label`) first, then every device imported, by label.
    public func devices(label: String) throws(StoreError) -> [DeviceEntry] {
        guard let store else { return [] }
        let own = try store.deviceID()
        let tokens = try store.buckets(fromQuarter: Int64.min, toQuarter: Int64.max, devices: .this)
            .reduce(Int64(0)) { $0 + $1.counts.total }
        let this = DeviceEntry(
            device: own, label: label, this: true, exportedAt: try store.lastExport()?.exportedAt, measuredAt: try store.measuredAt(),
            tokens: tokens)
        let others = try store.importedDevices().map { device in
            DeviceEntry(
                device: device.device, label: device.label, this: false, exportedAt: device.exportedAt,
                measuredAt: device.measuredAt, tokens: device.tokens)
        }
        return [this] + others.sorted { ($0.label, $0.device) < ($1.label, $1.device) }
    }

    /// This device's own history, as its export carries it: every bucket and active quarter-hour, and the limit
    /// samples of the last `exportedLimitDays` days with the latest of each window.
    public func exportHistory() throws(StoreError) -> DeviceHistory {
        guard let store else { return DeviceHistory() }
        return try store.ownHistory(limitsSince: now - Self.exportedLimitDays * 86_400_000)
    }
}
