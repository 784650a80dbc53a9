import Foundation
import UnpromptKit

/// `unprompt-scan devices [--store PATH] [--config FILE] [--json]`: this device and every device imported from
/// the sync folder, each with its label, id, last export and tokens, as the store holds them (no scan, no sync).
enum DevicesCommand {
    static func run(_ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String]) throws(UsageError) -> ExitCode {
        let opened: ViewOpener.Opened
        switch try ViewOpener.open(arguments, catalog: catalog, environment: environment, scan: false) {
        case .success(let success): opened = success
        case .failure(let failure): return failure.status
        }
        let view = opened.view
        let devices: [DeviceEntry]
        do {
            let label = try view.queries.store.map { store throws(StoreError) in
                UsageQueries.label(view.settings, device: try store.deviceID())
            }
            devices = try view.queries.devices(label: label ?? "")
        } catch {
            return StoreFailure.report(error)
        }
        print(arguments.has(Option.json.name) ? json(devices).text : text(devices))
        return .success
    }

    /// `{"devices": [{"id", "label", "this", "exportedAt", "measuredAt", "tokens"}]}`: instants as ISO-8601 UTC
    /// or null; this device first.
    static func json(_ devices: [DeviceEntry]) -> JSON {
        .object([
            ("devices", .array(devices.map { device in
                .object([
                    ("id", .string(device.device)), ("label", .string(device.label)), ("this", .bool(device.this)),
                    ("exportedAt", device.exportedAt.map { .string(CountsFormat.instant($0)) } ?? .null),
                    ("measuredAt", device.measuredAt.map { .string(CountsFormat.instant($0)) } ?? .null),
                    ("tokens", .integer(device.tokens)),
                ])
            }))
        ])
    }

    static func text(_ devices: [DeviceEntry]) -> String {
        guard !devices.isEmpty else { return "no store yet: run a scan first" }
        var table = Table([
            .label("device"), Table.Column("id", "id", .essential(2), alignment: .left),
            Table.Column("last-export", "last export (UTC)", .essential(3), alignment: .left),
            Table.Column("tokens", "tokens", .essential(1)),
        ])
        for device in devices {
            table.add([
                device.label + (device.this ? " (this device)" : ""), String(device.device.prefix(8)),
                device.exportedAt.map { String(CountsFormat.instant($0).prefix(16)).replacingOccurrences(of: "T", with: " ") } ?? "never",
                CountsFormat.grouped(Int(device.tokens)),
            ].map { Table.Cell($0) })
        }
        return (table.render(TableLayout(width: nil)) + ["views count every device unless --device says otherwise"]).joined(separator: "\n")
    }
}
