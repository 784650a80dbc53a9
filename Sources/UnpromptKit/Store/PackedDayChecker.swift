extension DevicePacking {
    /// Why a day packed by another device was refused.
    struct DayProblem: Error {
        let message: String
    }

    /// What checking a packed day found: its first quarter-hour with a bucket, its latest record, its tokens.
    struct CheckedDay {
        let firstQuarter: Int64?
        let lastActivity: Int64?
        let tokens: Int64
    }

    /// Checks days packed by another device (an export's, untrusted) as fully as reading their rows from JSON
    /// would: this packing version, distinct names each one of `tools` or `models` (by their bytes, to their
    /// index), every row within the day with a tool and a model and each field in its range, rows in the order
    /// of their keys (by quarter, the tool's and model's index, then the key fields) and each key once, activity
    /// in quarter order within its quarter-hour, and no byte after it. Tokens are summed without overflow.
    ///
    /// A merge checks a year of a device's rows at once, so a row is read in place: its 20 integers without a
    /// bounds check each while a whole row's most bytes remain (`FastVarints`), and a failure noted and tested
    /// once per row.
    struct DayChecker {
        private let tools: [[UInt8]: Int64]
        private let models: [[UInt8]: Int64]
        /// Per names section (its bytes) checked already: per name its index among the tools and among the
        /// models (-1: not one). A device's days mostly name the same few, in a few orders.
        private var known: [[UInt8]: NameIndex] = [:]
        /// The names section of the day checked last, and what it names: most days name what the day before did.
        private var lastNames: [UInt8] = []
        private var lastIndex: NameIndex?

        private struct NameIndex {
            let tools: [Int64]
            let models: [Int64]
        }

        private static let width = 3 + BucketField.allCases.count
        /// The quarter, tool, model and the key fields: what orders the rows.
        private static let keyWidth = 3 + BucketField.allCases.prefix { $0.isKey }.count
        private static let keyFields = BucketField.allCases.filter(\.isKey)
        private static let events = 3 + BucketField.events.rawValue
        private static let estimated = 3 + BucketField.estimatedEvents.rawValue
        private static let nanos = 3 + BucketField.loggedCostNanos.rawValue
        private static let tokenColumns = BucketField.tokens.map { 3 + $0.rawValue }
        /// The most bytes a row takes: every integer at its longest.
        private static let rowMaxBytes = width * FastVarints.maxLength

        init(tools: [String], models: [String]) {
            self.tools = Dictionary(uniqueKeysWithValues: tools.enumerated().map { (Array($1.utf8), Int64($0)) })
            self.models = Dictionary(uniqueKeysWithValues: models.enumerated().map { (Array($1.utf8), Int64($0)) })
            precondition(BucketField.allCases.prefix { $0.isKey }.count == Self.keyFields.count, "the key fields come first")
        }

        mutating func check(_ bytes: UnsafeRawBufferPointer, day: Int64) throws(DayProblem) -> CheckedDay {
            func refuse(_ what: String) -> DayProblem { DayProblem(message: what + " of " + CivilDate.dateString(ofDay: day)) }
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), !bytes.isEmpty else { throw refuse("the packing version") }
            var reader = Reader(bytes: bytes)
            guard reader.unsigned() == dayVersion else { throw refuse("the packing version") }
            let namesStart = reader.position
            guard let stringCount = reader.count() else { throw refuse("the names") }
            for _ in 0..<stringCount {
                guard let length = reader.count() else { throw refuse("the names") }
                reader.position += length
            }
            guard reader.position <= bytes.count else { throw refuse("the names") }
            let index = try names(UnsafeRawBufferPointer(rebasing: bytes[namesStart..<reader.position]), count: stringCount, refuse)
            guard let rowCount = reader.count() else { throw refuse("the bucket count") }

            var varints = FastVarints(base + reader.position, end: base + bytes.count, tailRoom: Self.rowMaxBytes)
            let rows = try withUnsafeTemporaryAllocation(of: Int64.self, capacity: 2 * Self.width) { buffer throws(DayProblem) in
                buffer.initialize(repeating: 0)
                return try checkRows(rowCount, day: day, names: stringCount, index: index, varints: &varints, buffer: buffer, refuse)
            }
            guard !varints.failed, varints.position <= varints.end else { throw refuse("bucket \(rows.failedAt)") }

            guard let quarterCount = varints.count() else { throw refuse("the activity count") }
            let perDay = UInt64(LocalCalendar.quartersPerDay)
            var lastActivity: Int64?
            var previousQuarter: Int64 = -1
            for row in 0..<quarterCount {
                let offset = varints.unsigned()
                let first = varints.signed()
                let last = varints.signed()
                guard !varints.failed, varints.position <= varints.end, offset < perDay, Int64(offset) > previousQuarter, first >= 0,
                    first <= last, last < Bucket.quarterMilliseconds
                else { throw refuse("activity \(row + 1)") }
                previousQuarter = Int64(offset)
                let end = (day * Int64(perDay) + Int64(offset)) * Bucket.quarterMilliseconds + last
                lastActivity = max(lastActivity ?? end, end)
            }
            guard varints.atEnd, rowCount > 0 || quarterCount > 0 else { throw refuse("the end") }
            return CheckedDay(firstQuarter: rows.firstQuarter, lastActivity: lastActivity, tokens: rows.tokens)
        }

        /// The buckets: each row's 20 integers, then its checks at once. `failedAt` is the row whose integers did
        /// not read (the caller says so when `varints` failed).
        private func checkRows(
            _ rowCount: Int, day: Int64, names: Int, index: NameIndex, varints: inout FastVarints, buffer: UnsafeMutableBufferPointer<Int64>,
            _ refuse: (String) -> DayProblem
        ) throws(DayProblem) -> (firstQuarter: Int64?, tokens: Int64, failedAt: Int) {
            let width = Self.width
            let keyWidth = Self.keyWidth
            let perDay = UInt64(LocalCalendar.quartersPerDay)
            var row = buffer.baseAddress!
            var previous = row + width
            var tokens: Int64 = 0
            var firstQuarter: Int64?
            for number in 0..<rowCount {
                let offset = varints.unsigned()
                let tool = varints.unsigned()
                let model = varints.unsigned()
                // Every count is at least 0 (only the logged cost may be less): their bits ORed keep a sign.
                var signs: Int64 = 0
                for column in 3..<width {
                    let value = varints.signed()
                    row[column] = value
                    if column >= keyWidth, column != Self.nanos { signs |= value }
                }
                guard !varints.failed, varints.position <= varints.end else { return (firstQuarter, tokens, number + 1) }
                guard offset < perDay, tool < UInt64(names), model < UInt64(names), index.tools[Int(tool)] >= 0, index.models[Int(model)] >= 0
                else { throw refuse("bucket \(number + 1)'s quarter, tool or model") }
                row[0] = Int64(offset)
                row[1] = index.tools[Int(tool)]
                row[2] = index.models[Int(model)]
                var admitted = signs >= 0 && row[Self.estimated] <= row[Self.events]
                for (position, field) in Self.keyFields.enumerated() where admitted && (number == 0 || row[3 + position] != previous[3 + position]) {
                    admitted = field.admits(row[3 + position])
                }
                guard admitted else { throw refuse("bucket \(number + 1)'s values") }
                if number > 0 {
                    var column = 0
                    while column < keyWidth, row[column] == previous[column] { column += 1 }
                    guard column < keyWidth, previous[column] < row[column] else { throw refuse("the order of the buckets") }
                } else {
                    firstQuarter = day * Int64(perDay) + row[0]
                }
                for column in Self.tokenColumns {
                    let (sum, overflow) = tokens.addingReportingOverflow(row[column])
                    tokens = overflow ? Int64.max : sum
                }
                swap(&row, &previous)
            }
            return (firstQuarter, tokens, rowCount)
        }

        /// The names section `bytes` (their count, then each): each a distinct tool or model.
        private mutating func names(_ bytes: UnsafeRawBufferPointer, count: Int, _ refuse: (String) -> DayProblem) throws(DayProblem)
            -> NameIndex
        {
            if let lastIndex, bytes.elementsEqual(lastNames) { return lastIndex }
            let key = Array(bytes)
            let index: NameIndex
            if let held = known[key] {
                index = held
            } else {
                index = try lookUp(bytes, count: count, refuse)
                known[key] = index
            }
            lastNames = key
            lastIndex = index
            return index
        }

        private func lookUp(_ bytes: UnsafeRawBufferPointer, count: Int, _ refuse: (String) -> DayProblem) throws(DayProblem) -> NameIndex {
            var reader = Reader(bytes: bytes)
            _ = reader.count()
            var seen: Set<[UInt8]> = []
            var tools: [Int64] = []
            var models: [Int64] = []
            for _ in 0..<count {
                guard let text = reader.name(), seen.insert(text).inserted else { throw refuse("the names") }
                let tool = self.tools[text] ?? -1
                let model = self.models[text] ?? -1
                guard tool >= 0 || model >= 0 else { throw refuse("a name that is neither a tool nor a model") }
                tools.append(tool)
                models.append(model)
            }
            return NameIndex(tools: tools, models: models)
        }
    }
}

/// Variable-length integers (LEB128) read in place, fast: while at least `tailRoom` bytes remain, a value is
/// read without a bounds check per byte; the last bytes are read from a zero-padded copy of them instead. A
/// value longer than 64 bits, or one that runs past the end (found as `position > end` afterwards: the padding
/// ends any value), sets `failed` and reads as 0, so a caller checks once per group of values.
struct FastVarints: ~Copyable {
    static let maxLength = 10

    private(set) var position: UnsafePointer<UInt8>
    private(set) var end: UnsafePointer<UInt8>
    private(set) var failed = false
    private let tailRoom: Int
    private var tail: UnsafeMutablePointer<UInt8>?

    init(_ start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, tailRoom: Int) {
        position = start
        self.end = end
        self.tailRoom = tailRoom
        moveToTailIfNear()
    }

    deinit { tail?.deallocate() }

    var atEnd: Bool { !failed && position == end }

    @inline(__always) mutating func unsigned() -> UInt64 {
        var byte = position.pointee
        position += 1
        if byte < 0x80 {
            if end - position < tailRoom { moveToTailIfNear() }
            return UInt64(byte)
        }
        var value = UInt64(byte & 0x7F)
        var shift: UInt64 = 7
        repeat {
            byte = position.pointee
            position += 1
            // The tenth byte holds the 64th bit only.
            if shift == 63, byte > 1 {
                failed = true
                return 0
            }
            value |= UInt64(byte & 0x7F) << shift
            shift += 7
        } while byte >= 0x80
        if end - position < tailRoom { moveToTailIfNear() }
        return value
    }

    @inline(__always) mutating func signed() -> Int64 {
        let value = unsigned()
        return Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }

    /// A count no larger than the bytes left (each item takes at least one).
    mutating func count() -> Int? {
        let value = unsigned()
        guard !failed, position <= end, value <= UInt64(end - position) else { return nil }
        return Int(value)
    }

    /// Once fewer than `tailRoom` bytes remain, they are copied after which `tailRoom` zero bytes follow, and
    /// read from there: every value read then stays within memory of its own.
    private mutating func moveToTailIfNear() {
        guard tail == nil, end - position < tailRoom, position <= end else { return }
        let left = end - position
        let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: left + tailRoom + Self.maxLength)
        copy.initialize(repeating: 0, count: left + tailRoom + Self.maxLength)
        copy.update(from: position, count: left)
        tail = copy
        position = UnsafePointer(copy)
        end = UnsafePointer(copy + left)
    }
}
