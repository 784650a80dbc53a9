import Foundation
import Testing
import UnpromptTestSupport
@testable import UnpromptKit

/// Schema 7's step over a schema 6 store: the device tables and ids are added, and nothing moves. Schema 10's over a
/// schema 9 store: imported days move into blocks, and read the same.
struct DeviceSchemaTests {
    @Test func aSchemaSixStoreGainsTheDeviceTablesAndKeepsEverything() throws {
        let device = try TestDevice()
        try device.add([Moments.event("claude-code", "claude-sonnet-4-5", at: Moments.monday, input: 5, id: 1)])
        let path = device.directory + "/usage.sqlite"
        try Database(path: path, options: [.readWrite]).execute(
            LegacyStore.beforeSchemaNine + """
            DROP TABLE sync_devices; DROP TABLE sync_days; DROP TABLE sync_limits; DROP TABLE friends;
            DELETE FROM settings WHERE key IN ('device_id', 'friend_id');
            PRAGMA user_version = 6;
            """)
        #expect(throws: StoreError.self) { try UsageStore(path: path, readOnly: true) }

        let upgraded = try UsageStore(path: path)
        let id = try upgraded.deviceID()
        let friend = try upgraded.friendID()
        #expect(id.count == 32 && SyncExport.isDeviceID(id))
        #expect(friend.count == 16 && friend.allSatisfy(\.isHexDigit))
        let quarter = Moments.monday / Bucket.quarterMilliseconds
        #expect(try upgraded.buckets(fromQuarter: quarter, toQuarter: quarter + 1).map(\.counts.input) == [5])
        #expect(try upgraded.importedDevices().isEmpty)
        #expect(try upgraded.friendShares().isEmpty)

        // Made once: the ids are the same when the store is opened again.
        let reopened = try UsageStore(path: path, readOnly: true)
        #expect(try reopened.deviceID() == id && reopened.friendID() == friend)
        #expect(
            try Database(path: path, options: [.readOnly]).prepare("PRAGMA user_version").rows().first?.int(0)
                == UsageStore.schemaVersion)
    }

    /// Each imported day of a schema 9 store (a row per day) moves, its bytes unchanged, into its block of 32 days:
    /// the store then holds what importing the same devices into a new store gives, and every view of the
    /// imports reads as the devices' own rows say.
    @Test func aSchemaNineStoresDaysMoveIntoBlocksAndReadTheSame() throws {
        let packing = SyncExportPackingTests()
        let imports = [(seed: 21 as UInt64, days: 75 as Int64), (seed: 22, days: 3)].enumerated().map { index, shape in
            packing.export(packing.history(seed: shape.seed, days: shape.days), device: String(format: "%032x", 0xd0 + index))
        }
        let current = try TestDevice()
        let older = try TestDevice()
        for one in imports {
            try current.store.replaceImport(one, importedAt: Moments.monday)
            try older.store.replaceImport(one, importedAt: Moments.monday)
        }
        // Taken back to schema 9, whose store held each day in a row of its own.
        let path = older.directory + "/usage.sqlite"
        let database = try Database(path: path, options: [.readWrite])
        try database.execute(LegacyStore.beforeSchemaTen + "PRAGMA user_version = 9;")
        let insert = try database.prepare("INSERT INTO sync_days VALUES (?1, ?2, ?3, ?4, ?5)")
        var days = 0
        for one in imports {
            let packed = DevicePacking.pack(one)
            for day in packed.days {
                try insert.run([.text(one.device), .integer(day.day), SQLValue(day.firstQuarter), SQLValue(day.lastActivity), .blob(packed.blob(day))])
                days += 1
            }
        }
        #expect(days > 60)

        let upgraded = try UsageStore(path: path)
        let rows = try packing.storedRows(upgraded)
        #expect(rows.count == 4 + 2, "three blocks of the first device (days 20,400 to 20,474), one of the second, two devices")
        #expect(rows == (try packing.storedRows(current.store)))
        for (index, one) in imports.enumerated() {
            let selection = DeviceSelection.device(one.device)
            #expect(try upgraded.buckets(fromQuarter: Int64.min, toQuarter: Int64.max, devices: selection) == one.history.buckets.sorted(by: DeviceMerge.precedes))
            #expect(try upgraded.activity(fromQuarter: Int64.min, toQuarter: Int64.max, devices: selection) == one.history.activity)
            let quarters = one.history.buckets.map(\.quarter)
            #expect(try upgraded.firstUsageQuarter(devices: selection) == quarters.min(), "device \(index)")
            // The latest record before the middle of days on both sides of a block's first day (20,416).
            for day in [20_400, 20_415, 20_416, 20_417, 20_447, 20_448, 20_474] as [Int64] {
                let quarter = day * LocalCalendar.quartersPerDay + 48
                let expected = one.history.activity.filter { $0.quarter < quarter }.map(\.last).max()
                #expect(try upgraded.lastActivity(beforeQuarter: quarter, devices: selection) == expected, "device \(index), day \(day)")
            }
        }
    }
}
