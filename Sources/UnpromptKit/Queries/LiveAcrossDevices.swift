/// Today's live estimate over several devices: the sum of each device's own estimate (`LiveEstimate`), each
/// extrapolated from that device's own `measuredAt`, never from when this device imported it. So two devices
/// holding the same exports show the same number at the same moment, however long ago each of them synced.
struct LiveAcrossDevices: Sendable {
    /// The latest measurement of any device chosen, at or before the clock's moment.
    let measuredAt: Int64?
    /// The sum of the paces of the devices measured by the clock's moment, in tokens per second.
    let pace: Double
    let estimate: LiveEstimate.Reading
}

extension UsageQueries {
    /// Each device chosen counts its tokens of `day` (whose first instant is `dayStart`) and, when it has been
    /// measured by `now`, its pace for at most three minutes after its measurement. A device not yet measured, or
    /// measured after `now` by its own clock (a clock running ahead), counts its tokens as they are, with no
    /// extrapolation.
    func liveAcrossDevices(_ store: UsageStore, day: Int64, dayStart: Int64) throws(StoreError) -> LiveAcrossDevices {
        let bounds = LocalCalendar.quarterBounds(fromDay: day, throughDay: day)
        var tokens: Int64 = 0
        var pace = 0.0
        var live = false
        var latest: Int64?
        for device in try store.measurements(devices: devices) {
            let only = DeviceSelection.device(device.device)
            let rows = try store.buckets(fromQuarter: bounds.lowerBound, toQuarter: bounds.upperBound, devices: only)
            let dayTokens = (calendar.partition(rows, by: .day, fromDay: day, throughDay: day)[day] ?? [])
                .reduce(Int64(0)) { $0.saturatingAdd($1.counts.total) }
            guard let measuredAt = device.measuredAt, measuredAt <= now else {
                tokens = tokens.saturatingAdd(dayTokens)
                continue
            }
            let quarter = Bucket.quarter(of: measuredAt)
            let devicePace = LiveEstimate.pace(
                of: try store.buckets(fromQuarter: quarter - 1, toQuarter: quarter + 1, devices: only), measuredAt: measuredAt)
            // Measured on an earlier day, the count is that day's: the estimate of today does not use it.
            let count = calendar.day(ofMilliseconds: measuredAt) == day ? dayTokens : 0
            let reading = LiveEstimate(count: count, pace: devicePace, measuredAt: measuredAt).reading(now: now, dayStart: dayStart)
            tokens = tokens.saturatingAdd(reading.tokens)
            live = live || reading.live
            pace += devicePace
            latest = max(latest ?? measuredAt, measuredAt)
        }
        return LiveAcrossDevices(measuredAt: latest, pace: pace, estimate: LiveEstimate.Reading(tokens: tokens, live: live))
    }
}
