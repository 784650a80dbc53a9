/// One day's latest word, as it travels between devices: an answer (`Confirmation`) or the undo of one, when
/// it was given and by which device. Of two words about the same day, the later one wins (`supersedes`); an
/// undo is a word too, so a merge cannot bring back an answer that was undone.
public struct ConfirmationEntry: Sendable, Equatable {
    public let day: Int64
    /// Milliseconds since 1970 by the answering device's clock: the answer's `confirmedAt`, or when it was undone.
    public let at: Int64
    /// The answering device: the first 15 hex digits of its id, as a number (it only breaks ties).
    public let origin: Int64
    /// Nil: the day's answer was undone.
    public let answer: Confirmation?

    public init(answer: Confirmation, origin: Int64) {
        self.day = answer.day
        self.at = answer.confirmedAt
        self.origin = origin
        self.answer = answer
    }

    public init(undoneDay day: Int64, at: Int64, origin: Int64) {
        self.day = day
        self.at = at
        self.origin = origin
        self.answer = nil
    }

    public var stamp: ConfirmationStamp { ConfirmationStamp(at: at, origin: origin, undone: answer == nil) }

    /// The origin of the device `id` (32 hex digits).
    public static func origin(ofDevice id: String) -> Int64 { Int64(id.prefix(15), radix: 16) ?? 0 }
}

/// When a word about a day was given, by which device, and whether it is an undo: all that decides between
/// two words about the same day.
public struct ConfirmationStamp: Sendable, Equatable {
    public let at: Int64
    public let origin: Int64
    public let undone: Bool

    /// Whether this word replaces `other`: the later one wins; at the same millisecond the lower origin, then
    /// an undo. A total order, so every device keeps the same word whatever order the words come in.
    public func supersedes(_ other: ConfirmationStamp) -> Bool {
        if at != other.at { return at > other.at }
        if origin != other.origin { return origin < other.origin }
        return undone && !other.undone
    }
}

/// How confirmations travel between devices (docs/CONFIRMATIONS.md, "Between devices"): every answer and undo
/// keeps a stamp (table `confirmation_stamps`: the day, when, by which device, whether it is an undo), every
/// export carries all of them, and an import keeps, for each day, the word that supersedes the other. The
/// merge is idempotent, commutative and associative, so every device that has seen the same words holds the
/// same answers, and the same split.
extension UsageStore {
    /// The schema step that adds the stamps, one for every answer already kept (given on this device).
    static func createConfirmationStamps(_ database: Database) throws(StoreError) {
        try database.execute(
            """
            CREATE TABLE IF NOT EXISTS confirmation_stamps (
                day INTEGER PRIMARY KEY, at INTEGER NOT NULL, origin INTEGER NOT NULL, undone INTEGER NOT NULL
            ) WITHOUT ROWID;
            """)
        try database.prepare("INSERT OR IGNORE INTO confirmation_stamps SELECT day, confirmed_at, ?1, 0 FROM confirmations")
            .run([.integer(try ownOrigin(database))])
    }

    /// Every answer and undo, by day: what an export carries.
    public func confirmationEntries() throws(StoreError) -> [ConfirmationEntry] {
        try locked { database throws(StoreError) in
            let own = try Self.ownOrigin(database)
            var stamps: [Int64: (at: Int64, origin: Int64, undone: Bool)] = [:]
            try database.prepare("SELECT day, at, origin, undone FROM confirmation_stamps").forEachRow { row in
                stamps[row.int(0) ?? 0] = (row.int(1) ?? 0, row.int(2) ?? 0, row.int(3) == 1)
            }
            var entries = try Self.confirmations(database).map { answer in
                ConfirmationEntry(answer: answer, origin: stamps[answer.day].map { $0.undone ? own : $0.origin } ?? own)
            }
            let answered = Set(entries.map(\.day))
            for (day, stamp) in stamps where stamp.undone && !answered.contains(day) {
                entries.append(ConfirmationEntry(undoneDay: day, at: stamp.at, origin: stamp.origin))
            }
            return entries.sorted { $0.day < $1.day }
        }
    }

    /// Keeps each of `entries` that supersedes the day's word held now, in one transaction; returns how many.
    @discardableResult
    public func merge(confirmations entries: [ConfirmationEntry]) throws(StoreError) -> Int {
        try locked { database throws(StoreError) in
            try database.transaction { () throws(StoreError) -> Int in try Self.merge(entries, database) }
        }
    }

    /// `merge(confirmations:)` inside the caller's transaction.
    static func merge(_ entries: [ConfirmationEntry], _ database: Database) throws(StoreError) -> Int {
        var kept = 0
        for entry in entries {
            if let held = try heldStamp(day: entry.day, database), !entry.stamp.supersedes(held) { continue }
            try keep(entry, database)
            kept += 1
        }
        return kept
    }

    /// The stamp of the word the day holds now (its answer or its undo), if any.
    static func heldStamp(day: Int64, _ database: Database) throws(StoreError) -> ConfirmationStamp? {
        let confirmedAt = try database.prepare("SELECT confirmed_at FROM confirmations WHERE day = ?1").rows([.integer(day)]).first?.int(0)
        guard let stamp = try database.prepare("SELECT at, origin, undone FROM confirmation_stamps WHERE day = ?1")
            .rows([.integer(day)]).first
        else {
            // An answer without a stamp (none is written so): this device's, at its own time.
            return try confirmedAt.map { at throws(StoreError) in ConfirmationStamp(at: at, origin: try ownOrigin(database), undone: false) }
        }
        return ConfirmationStamp(at: stamp.int(0) ?? 0, origin: stamp.int(1) ?? 0, undone: confirmedAt == nil && stamp.int(2) == 1)
    }

    /// Writes `entry` as the day's word, in place of whatever the day held.
    static func keep(_ entry: ConfirmationEntry, _ database: Database) throws(StoreError) {
        try deleteConfirmation(day: entry.day, database)
        if let answer = entry.answer { try insert(answer, database) }
        try database.prepare("INSERT OR REPLACE INTO confirmation_stamps VALUES (?1, ?2, ?3, ?4)").run([
            .integer(entry.day), .integer(entry.at), .integer(entry.origin), .integer(entry.answer == nil ? 1 : 0),
        ])
    }

    /// A new word of this device about `day`, stamped after the word the day holds (so an answer given after
    /// seeing another device's always wins over it, whatever the two clocks say): the moment it is kept at.
    static func stampAfterHeld(day: Int64, at: Int64, _ database: Database) throws(StoreError) -> Int64 {
        guard let held = try heldStamp(day: day, database) else { return at }
        return max(at, held.at == Int64.max ? held.at : held.at + 1)
    }

    static func ownOrigin(_ database: Database) throws(StoreError) -> Int64 {
        let id = try database.prepare("SELECT value FROM settings WHERE key = 'device_id'").rows().first?.text(0)
        guard let id else { throw StoreError(message: "the store holds no device_id; it is damaged", busy: false) }
        return ConfirmationEntry.origin(ofDevice: id)
    }
}
