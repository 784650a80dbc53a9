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
    /// would: the packing version the export's version says (3 from export version 5, 2 in version 4; in version 3
    /// each present field not 0 and no unknown field present), distinct names each one of `tools` or `models` (by their bytes, to their
    /// index), every row within the day with a tool and a model and each field in its range, rows in the order
    /// of their keys (by quarter, the tool's and model's index, then the key fields) and each key once, activity
    /// in quarter order within its quarter-hour, and no byte after it. Tokens are summed without overflow.
    ///
    /// A merge checks a year of a device's rows at once, so a row is read in place: its 20 integers without a
    /// bounds check each while a whole row's most bytes remain (`FastVarints`), and a failure noted and tested
    /// once per row.
    struct DayChecker {
        private let packing: UInt64
        private let tools: [NameBytes: Int64]
        private let models: [NameBytes: Int64]
        /// Per names section (its bytes) checked already: per name its index among the tools and among the
        /// models (-1: not one). A device's days mostly name the same few, in a few orders.
        private var known: [NameBytes: NameIndex] = [:]
        /// The names section of the day checked last, and what it names: most days name what the day before did.
        private var lastNames: [UInt8] = []
        private var lastIndex: NameIndex?

        private struct NameIndex {
            let tools: [Int64]
            let models: [Int64]
        }

        /// A name's or a names section's bytes, hashed at once (an array of bytes hashes byte by byte).
        private struct NameBytes: Hashable {
            let bytes: [UInt8]

            func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
        }

        private static let width = 3 + BucketField.allCases.count
        /// The quarter, tool, model and the key fields: what orders the rows.
        private static let keyWidth = 3 + BucketField.allCases.prefix { $0.isKey }.count
        private static let keyFields = BucketField.allCases.filter(\.isKey)
        private static let events = 3 + BucketField.events.rawValue
        private static let estimated = 3 + BucketField.estimatedEvents.rawValue
        private static let nanos = 3 + BucketField.loggedCostNanos.rawValue
        private static let tokenColumnsTuple: (Int, Int, Int, Int, Int, Int) = {
            let columns = BucketField.tokens.map { 3 + $0.rawValue }
            precondition(columns.count == 6, "a row's tokens are the sum of six fields")
            return (columns[0], columns[1], columns[2], columns[3], columns[4], columns[5])
        }()
        /// The most bytes a row takes: every integer at its longest (and version 3's presence).
        private static let rowMaxBytes = (width + 1) * FastVarints.maxLength

        /// `packing`: the version every day must be packed in.
        init(tools: [String], models: [String], packing: UInt64) {
            self.packing = packing
            self.tools = Dictionary(uniqueKeysWithValues: tools.enumerated().map { (NameBytes(bytes: Array($1.utf8)), Int64($0)) })
            self.models = Dictionary(uniqueKeysWithValues: models.enumerated().map { (NameBytes(bytes: Array($1.utf8)), Int64($0)) })
            precondition(BucketField.allCases.prefix { $0.isKey }.count == Self.keyFields.count, "the key fields come first")
        }

        mutating func check(_ bytes: UnsafeRawBufferPointer, day: Int64) throws(DayProblem) -> CheckedDay {
            func refuse(_ what: String) -> DayProblem { DayProblem(message: what + " of " + CivilDate.dateString(ofDay: day)) }
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), !bytes.isEmpty else { throw refuse("the packing version") }
            var reader = Reader(bytes: bytes)
            guard reader.unsigned() == packing else { throw refuse("the packing version") }
            let namesStart = reader.position
            guard let stringCount = reader.count() else { throw refuse("the names") }
            for _ in 0..<stringCount {
                guard let length = reader.count() else { throw refuse("the names") }
                reader.position += length
            }
            guard reader.position <= bytes.count else { throw refuse("the names") }
            let index = try names(UnsafeRawBufferPointer(rebasing: bytes[namesStart..<reader.position]), count: stringCount, refuse)
            guard let rowCount = reader.count() else { throw refuse("the bucket count") }
            let rest = base + reader.position
            let end = base + bytes.count
            // Room for the last bytes, zero-padded by a row's most bytes (`VarintCursor.makeRoom`).
            return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * Self.rowMaxBytes + FastVarints.maxLength) {
                scratch throws(DayProblem) in
                try withUnsafeTemporaryAllocation(of: Int64.self, capacity: 2 * Self.width) { rows throws(DayProblem) in
                    rows.initialize(repeating: 0)
                    var cursor = VarintCursor(position: rest, end: end, scratch: scratch)
                    let checked = try checkRows(rowCount, day: day, names: stringCount, index: index, cursor: &cursor, rows: rows, refuse)
                    return try checkActivity(day: day, rowCount: rowCount, cursor: &cursor, checked, refuse)
                }
            }
        }

        /// The buckets: each row's 20 integers read at once, then its checks.
        private func checkRows(
            _ rowCount: Int, day: Int64, names: Int, index: NameIndex, cursor: inout VarintCursor, rows: UnsafeMutableBufferPointer<Int64>,
            _ refuse: (String) -> DayProblem
        ) throws(DayProblem) -> (firstQuarter: Int64?, tokens: Int64) {
            let width = Self.width
            let keyWidth = Self.keyWidth
            let (events, estimated, nanos) = (Self.events, Self.estimated, Self.nanos)
            let (t0, t1, t2, t3, t4, t5) = Self.tokenColumnsTuple
            let perDay = UInt64(LocalCalendar.quartersPerDay)
            let keyFields = Self.keyFields
            let rowMaxBytes = Self.rowMaxBytes
            var row = rows.baseAddress!
            var previous = row + width
            var tokens: Int64 = 0
            var firstQuarter: Int64?
            let everyField = packing == everyFieldVersion
            let signedBits = PackedRow.signedBits
            let columns = PackedRow.rawValues.map { 3 + $0 }
            for number in 0..<rowCount {
                cursor.makeRoom(rowMaxBytes)
                var p = cursor.position
                var bad = false
                let offset = FastVarints.unsigned(&p, &bad)
                let tool = FastVarints.unsigned(&p, &bad)
                let model = FastVarints.unsigned(&p, &bad)
                // Whether every count is at least 0 (only the logged cost may be less).
                var inRange: Bool
                if everyField {
                    // A negative value is odd as written (zigzag), so the written bits ORed end in 0.
                    var odd: UInt64 = 0
                    for column in 3..<width {
                        let written = FastVarints.unsigned(&p, &bad)
                        row[column] = ZigZag.decode(written)
                        if column >= keyWidth, column != nanos { odd |= written }
                    }
                    inRange = odd & 1 == 0
                } else {
                    // The fields present, each not 0; a count written unsigned is at most Int64.max.
                    let present = FastVarints.unsigned(&p, &bad)
                    for column in 3..<width { row[column] = 0 }
                    var bits = present & PackedRow.allPresent
                    var high: UInt64 = 0
                    var zero = false
                    while bits != 0 {
                        let bit = bits.trailingZeroBitCount
                        bits &= bits &- 1
                        let written = FastVarints.unsigned(&p, &bad)
                        zero = zero || written == 0
                        if signedBits & 1 << UInt64(bit) != 0 {
                            row[columns[bit]] = ZigZag.decode(written)
                        } else {
                            row[columns[bit]] = Int64(bitPattern: written)
                            high |= written
                        }
                    }
                    inRange = present <= PackedRow.allPresent && !zero && high >> 63 == 0
                }
                cursor.position = p
                guard !bad, p <= cursor.end else { throw refuse("bucket \(number + 1)") }
                guard offset < perDay, tool < UInt64(names), model < UInt64(names), index.tools[Int(tool)] >= 0, index.models[Int(model)] >= 0
                else { throw refuse("bucket \(number + 1)'s quarter, tool or model") }
                row[0] = Int64(offset)
                row[1] = index.tools[Int(tool)]
                row[2] = index.models[Int(model)]
                var admitted = inRange && row[estimated] <= row[events]
                for position in keyFields.indices where admitted && (number == 0 || row[3 + position] != previous[3 + position]) {
                    admitted = keyFields[position].admits(row[3 + position])
                }
                guard admitted else { throw refuse("bucket \(number + 1)'s values") }
                if number > 0 {
                    var column = 0
                    while column < keyWidth, row[column] == previous[column] { column += 1 }
                    guard column < keyWidth, previous[column] < row[column] else { throw refuse("the order of the buckets") }
                } else {
                    firstQuarter = day * Int64(perDay) + row[0]
                }
                // Counts below 2^60 (all but absurd ones) sum without overflow: six of them stay below 2^63.
                let (a, b, c, d, e, f) = (row[t0], row[t1], row[t2], row[t3], row[t4], row[t5])
                if (a | b | c | d | e | f) < 1 << 60 {
                    let (sum, overflow) = tokens.addingReportingOverflow(a + b + c + d + e + f)
                    tokens = overflow ? Int64.max : sum
                } else {
                    for value in [a, b, c, d, e, f] { tokens = tokens.saturatingAdd(value) }
                }
                swap(&row, &previous)
            }
            return (firstQuarter, tokens)
        }

        /// The active quarter-hours, after the buckets, and the end of the day.
        private func checkActivity(
            day: Int64, rowCount: Int, cursor: inout VarintCursor, _ rows: (firstQuarter: Int64?, tokens: Int64),
            _ refuse: (String) -> DayProblem
        ) throws(DayProblem) -> CheckedDay {
            cursor.makeRoom(Self.rowMaxBytes)
            guard let quarterCount = cursor.count() else { throw refuse("the activity count") }
            let perDay = UInt64(LocalCalendar.quartersPerDay)
            var lastActivity: Int64?
            var previousQuarter: Int64 = -1
            for row in 0..<quarterCount {
                cursor.makeRoom(Self.rowMaxBytes)
                var p = cursor.position
                var bad = false
                let offset = FastVarints.unsigned(&p, &bad)
                let first = FastVarints.signed(&p, &bad)
                let last = FastVarints.signed(&p, &bad)
                cursor.position = p
                guard !bad, p <= cursor.end, offset < perDay, Int64(offset) > previousQuarter, first >= 0, first <= last,
                    last < Bucket.quarterMilliseconds
                else { throw refuse("activity \(row + 1)") }
                previousQuarter = Int64(offset)
                let end = (day * Int64(perDay) + Int64(offset)) * Bucket.quarterMilliseconds + last
                lastActivity = max(lastActivity ?? end, end)
            }
            guard cursor.position == cursor.end, rowCount > 0 || quarterCount > 0 else { throw refuse("the end") }
            return CheckedDay(firstQuarter: rows.firstQuarter, lastActivity: lastActivity, tokens: rows.tokens)
        }

        /// The names section `bytes` (their count, then each): each a distinct tool or model.
        private mutating func names(_ bytes: UnsafeRawBufferPointer, count: Int, _ refuse: (String) -> DayProblem) throws(DayProblem)
            -> NameIndex
        {
            if let lastIndex, bytes.elementsEqual(lastNames) { return lastIndex }
            let key = NameBytes(bytes: Array(bytes))
            let index: NameIndex
            if let held = known[key] {
                index = held
            } else {
                index = try lookUp(bytes, count: count, refuse)
                known[key] = index
            }
            lastNames = key.bytes
            lastIndex = index
            return index
        }

        private func lookUp(_ bytes: UnsafeRawBufferPointer, count: Int, _ refuse: (String) -> DayProblem) throws(DayProblem) -> NameIndex {
            var reader = Reader(bytes: bytes)
            _ = reader.count()
            var seen: Set<NameBytes> = []
            var tools: [Int64] = []
            var models: [Int64] = []
            for _ in 0..<count {
                guard let bytes = reader.name(), case let text = NameBytes(bytes: bytes), seen.insert(text).inserted else {
                    throw refuse("the names")
                }
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

/// Variable-length integers (LEB128) read in place without a bounds check per byte: the caller makes sure that a
/// group's most bytes can be read (`VarintCursor.makeRoom`), reads the group through a local pointer, and tests once
/// after it whether a value was longer than 64 bits (`bad`) or ran past the end.
enum FastVarints {
    static let maxLength = DevicePacking.Writer.maxLength

    @inline(__always) static func unsigned(_ p: inout UnsafePointer<UInt8>, _ bad: inout Bool) -> UInt64 {
        var byte = p.pointee
        p += 1
        if byte < 0x80 { return UInt64(byte) }
        var value = UInt64(byte & 0x7F)
        var shift: UInt64 = 7
        repeat {
            byte = p.pointee
            p += 1
            // The tenth byte holds the 64th bit only.
            if shift == 63, byte > 1 {
                bad = true
                return 0
            }
            // (Masking shifts and additions: `shift` stays below 64, and Swift's checked forms cost a test each.)
            value |= UInt64(byte & 0x7F) &<< shift
            shift &+= 7
        } while byte >= 0x80
        return value
    }

    @inline(__always) static func signed(_ p: inout UnsafePointer<UInt8>, _ bad: inout Bool) -> Int64 {
        ZigZag.decode(unsigned(&p, &bad))
    }
}

/// Where `FastVarints` read, and up to where. Once fewer bytes remain than a group may take, they are copied into
/// `scratch`, zero bytes after them (which end any value), and read from there: no read leaves memory it owns.
struct VarintCursor {
    var position: UnsafePointer<UInt8>
    private(set) var end: UnsafePointer<UInt8>
    private let scratch: UnsafeMutableBufferPointer<UInt8>
    private var inScratch = false

    init(position: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, scratch: UnsafeMutableBufferPointer<UInt8>) {
        self.position = position
        self.end = end
        self.scratch = scratch
    }

    /// Makes the next `room` bytes readable. `scratch` holds at least twice `room` and a value's most bytes.
    @inline(__always) mutating func makeRoom(_ room: Int) {
        guard !inScratch, end - position < room else { return }
        moveToScratch()
    }

    private mutating func moveToScratch() {
        inScratch = true
        let left = max(0, end - position)
        let base = scratch.baseAddress!
        base.initialize(repeating: 0, count: scratch.count)
        base.update(from: position, count: left)
        position = UnsafePointer(base)
        end = UnsafePointer(base + left)
    }

    /// A count no larger than the bytes left (each item takes at least one).
    mutating func count() -> Int? {
        var bad = false
        let value = FastVarints.unsigned(&position, &bad)
        guard !bad, position <= end, value <= UInt64(end - position) else { return nil }
        return Int(value)
    }
}
