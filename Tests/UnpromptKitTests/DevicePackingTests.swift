import Foundation
import Testing
@testable import UnpromptKit

/// How the store packs an imported device's day (`DevicePacking`): every field of a row comes back, and a day
/// packed by a schema 7 store (version 1, before the price dimensions) still unpacks.
struct DevicePackingTests {
    let day: Int64 = 20_458

    @Test func aDayComesBackWithEveryField() throws {
        let quarter = day * LocalCalendar.quartersPerDay + 40
        let rows = [
            BucketRow(
                quarter: quarter, tool: "claude-code", model: "claude-opus-4-8",
                counts: TokenCounts(input: 1, cacheRead: 2, cacheWrite5m: 3, cacheWrite1h: 4, cacheWrite12h: 12, output: 5, reasoning: 6),
                events: 7,
                contextAbove: 200_000, costLogged: true, loggedCostNanos: -8, estimatedEvents: 1,
                dimensions: PriceDimensions(speed: .fast, tier: .priority, region: .us), serverTools: ServerToolCounts(webSearch: 9, webFetch: 10)),
            BucketRow(quarter: quarter + 1, tool: "codex", model: "gpt-5", counts: TokenCounts(input: 11), events: 1, dimensions: PriceDimensions(tier: .flex)),
        ]
        let activity = [ActivityQuarter(quarter: quarter, first: quarter * Bucket.quarterMilliseconds + 5, last: quarter * Bucket.quarterMilliseconds + 9)]
        let unpacked = try DevicePacking.unpackDay(DevicePacking.packDay(day, buckets: rows, activity: activity), day: day)
        #expect(unpacked.buckets == rows)
        #expect(unpacked.activity == activity)
    }

    @Test func aVersionOneDayUnpacksWithNoDimensionRecorded() throws {
        // Version 1; strings "t" and "m"; one row at quarter 4: tool 0, model 1, then band 0, logged 0, input 5,
        // cache read 0, writes 0 and 0, output 3, reasoning 0, events 1, nanos 0, estimated 0 (zigzag: 2n); no activity.
        let bytes: [UInt8] = [1, 2, 1, 116, 1, 109, 1, 4, 0, 1, 0, 0, 10, 0, 0, 0, 6, 0, 2, 0, 0, 0]
        let unpacked = try DevicePacking.unpackDay(Data(bytes), day: day)
        #expect(unpacked.buckets == [
            BucketRow(quarter: day * LocalCalendar.quartersPerDay + 4, tool: "t", model: "m", counts: TokenCounts(input: 5, output: 3), events: 1)
        ])
        #expect(throws: StoreError.self) { try DevicePacking.unpackDay(Data([3] + bytes.dropFirst()), day: day) }
    }
}
