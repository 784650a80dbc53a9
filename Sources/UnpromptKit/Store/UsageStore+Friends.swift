/// What one friend shared for one period: the name they chose, the period's date, and their tokens or their
/// trend, never both (each is what they chose to share).
public struct FriendShare: Sendable, Equatable {
    /// Their friend id: 16 lower-case hex digits, the same in every code they make.
    public let friend: String
    public let name: String
    public let period: LocalCalendar.Period
    /// The local day (days since 1970-01-01) of a day, or the month (`year × 12 + month − 1`) of a month.
    public let date: Int64
    public let tokens: Int64?
    /// The period's tokens as a whole percentage of their own average of the 30 days before it.
    public let trend: Int64?

    public init(friend: String, name: String, period: LocalCalendar.Period, date: Int64, tokens: Int64?, trend: Int64?) {
        self.friend = friend
        self.name = name
        self.period = period
        self.date = date
        self.tokens = tokens
        self.trend = trend
    }
}

/// What keeping a friend's share did.
public enum FriendSaving: Sendable, Equatable {
    case added
    /// It replaced that friend's share of the same period (of an earlier or the same date).
    case replaced
    /// The store already holds a share of theirs of a later date: it stays, and this one is not kept.
    case older
}

/// Friends' shares (table `friends`): at most one per friend and period, the latest by date.
extension UsageStore {
    static func createFriendTable(_ database: Database) throws(StoreError) {
        try database.execute(
            """
            CREATE TABLE friends (
                friend TEXT NOT NULL, period TEXT NOT NULL, name TEXT NOT NULL, date INTEGER NOT NULL,
                tokens INTEGER, trend INTEGER,
                PRIMARY KEY (friend, period)
            ) WITHOUT ROWID;
            """)
    }

    /// Every friend's shares, by friend and period.
    public func friendShares() throws(StoreError) -> [FriendShare] {
        try locked { database throws(StoreError) in
            try database.prepare("SELECT friend, period, name, date, tokens, trend FROM friends ORDER BY friend, period").rows()
                .map { row in
                    FriendShare(
                        friend: row.text(0) ?? "", name: row.text(2) ?? "", period: row.text(1) == "month" ? .month : .day,
                        date: row.int(3) ?? 0, tokens: row.int(4), trend: row.int(5))
                }
        }
    }

    /// Keeps `share` unless the friend's share of that period is of a later date; the friend's name becomes the
    /// one in `share` on each of their shares.
    public func save(_ share: FriendShare) throws(StoreError) -> FriendSaving {
        let period = SQLValue.text(share.period == .month ? "month" : "day")
        return try locked { database throws(StoreError) in
            try database.transaction { () throws(StoreError) -> FriendSaving in
                let held = try database.prepare("SELECT date FROM friends WHERE friend = ?1 AND period = ?2")
                    .rows([.text(share.friend), period]).first?.int(0)
                if let held, held > share.date { return .older }
                try database.prepare("INSERT OR REPLACE INTO friends VALUES (?1, ?2, ?3, ?4, ?5, ?6)").run([
                    .text(share.friend), period, .text(share.name), .integer(share.date), SQLValue(share.tokens),
                    SQLValue(share.trend),
                ])
                try database.prepare("UPDATE friends SET name = ?2 WHERE friend = ?1").run([.text(share.friend), .text(share.name)])
                return held == nil ? .added : .replaced
            }
        }
    }

    /// Removes every share of the friend; the number removed.
    public func removeFriend(_ friend: String) throws(StoreError) -> Int {
        try locked { database throws(StoreError) in
            try database.prepare("DELETE FROM friends WHERE friend = ?1").run([.text(friend)])
            return database.changes
        }
    }
}
