/// Confirmations (`Confirmation`), at most one per local day, in two tables of numbers only: the day's answer,
/// and the work hours it holds, one row per range. See docs/CONFIRMATIONS.md.
extension UsageStore {
    /// Schema 5's step: the confirmation tables.
    static func createConfirmationTables(_ database: Database) throws(StoreError) {
        try database.execute(
            """
            CREATE TABLE confirmations (
                day INTEGER PRIMARY KEY, first_quarter INTEGER NOT NULL, end_quarter INTEGER NOT NULL,
                confirmed_at INTEGER NOT NULL, kinds INTEGER NOT NULL, worked_start INTEGER, worked_end INTEGER,
                uses INTEGER NOT NULL, work_uses INTEGER NOT NULL, tokens INTEGER NOT NULL, work_tokens INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE TABLE confirmation_hours (
                day INTEGER NOT NULL, position INTEGER NOT NULL, weekdays INTEGER NOT NULL,
                start_minute INTEGER NOT NULL, end_minute INTEGER NOT NULL,
                PRIMARY KEY (day, position)
            ) WITHOUT ROWID;
            """)
    }

    /// Every confirmation, by day.
    public func confirmations() throws(StoreError) -> [Confirmation] {
        try locked { database throws(StoreError) in try Self.confirmations(database) }
    }

    private static func confirmations(_ database: Database) throws(StoreError) -> [Confirmation] {
        var hours: [Int64: [(weekdays: Int64, range: WorkHours.Range)]] = [:]
        try database.prepare(
            "SELECT day, weekdays, start_minute, end_minute FROM confirmation_hours ORDER BY day, position"
        ).forEachRow { row in
            hours[row.int(0) ?? 0, default: []].append(
                (row.int(1) ?? 0, WorkHours.Range(start: Int(row.int(2) ?? 0), end: Int(row.int(3) ?? 0))))
        }
        return try database.prepare(
            """
            SELECT day, first_quarter, end_quarter, confirmed_at, kinds, worked_start, worked_end, uses, work_uses,
                tokens, work_tokens
            FROM confirmations ORDER BY day
            """
        ).rows().map { row in
            let day = row.int(0) ?? 0
            let dayHours = workHours(hours[day] ?? [])
            var context = Confirmation.Context()
            for kind in Confirmation.Kind.kinds(ofBits: row.int(4) ?? 0) {
                switch kind {
                case .worked:
                    context.add(worked: WorkHours.Range(start: Int(row.int(5) ?? 0), end: Int(row.int(6) ?? 0)))
                case .hoursChanged: context.add(hoursChanged: dayHours)
                default: context.add(kind)
                }
            }
            return Confirmation(
                day: day, quarters: (row.int(1) ?? 0)..<max(row.int(1) ?? 0, row.int(2) ?? 0), confirmedAt: row.int(3) ?? 0,
                context: context, hours: dayHours,
                numbers: Confirmation.Numbers(
                    uses: Int(row.int(7) ?? 0), workUses: Int(row.int(8) ?? 0), tokens: row.int(9) ?? 0,
                    workTokens: row.int(10) ?? 0))
        }
    }

    /// Keeps `confirmation` in place of any earlier one of its day, in one transaction.
    public func save(_ confirmation: Confirmation) throws(StoreError) {
        try locked { database throws(StoreError) in try Self.save(confirmation, database) }
    }

    private static func save(_ confirmation: Confirmation, _ database: Database) throws(StoreError) {
        try database.transaction { () throws(StoreError) in
            try deleteConfirmation(day: confirmation.day, database)
            let numbers = confirmation.numbers
            let worked = confirmation.context.worked
            try database.prepare("INSERT INTO confirmations VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)").run([
                .integer(confirmation.day), .integer(confirmation.quarters.lowerBound),
                .integer(confirmation.quarters.upperBound), .integer(confirmation.confirmedAt),
                .integer(confirmation.context.bits), SQLValue(worked.map { Int64($0.start) }),
                SQLValue(worked.map { Int64($0.end) }), .integer(Int64(numbers.uses)), .integer(Int64(numbers.workUses)),
                .integer(numbers.tokens), .integer(numbers.workTokens),
            ])
            let insert = try database.prepare("INSERT INTO confirmation_hours VALUES (?1, ?2, ?3, ?4, ?5)")
            var position: Int64 = 0
            for group in confirmation.hours.groups {
                let weekdays = group.days.reduce(Int64(0)) { $0 | (1 << Int64($1)) }
                for range in group.ranges {
                    try insert.run([
                        .integer(confirmation.day), .integer(position), .integer(weekdays), .integer(Int64(range.start)),
                        .integer(Int64(range.end)),
                    ])
                    position += 1
                }
            }
        }
    }

    /// Removes the day's confirmation; false when it had none.
    public func removeConfirmation(day: Int64) throws(StoreError) -> Bool {
        try locked { database throws(StoreError) in
            try database.transaction { () throws(StoreError) -> Bool in
                try Self.deleteConfirmation(day: day, database)
                return database.changes > 0
            }
        }
    }

    private static func deleteConfirmation(day: Int64, _ database: Database) throws(StoreError) {
        try database.prepare("DELETE FROM confirmation_hours WHERE day = ?1").run([.integer(day)])
        try database.prepare("DELETE FROM confirmations WHERE day = ?1").run([.integer(day)])
    }

    /// Rows in order back into groups: consecutive ranges of the same weekdays are one group.
    private static func workHours(_ rows: [(weekdays: Int64, range: WorkHours.Range)]) -> WorkHours {
        var groups: [(weekdays: Int64, ranges: [WorkHours.Range])] = []
        for row in rows {
            if groups.last?.weekdays == row.weekdays {
                groups[groups.count - 1].ranges.append(row.range)
            } else {
                groups.append((row.weekdays, [row.range]))
            }
        }
        return WorkHours(groups: groups.map { group in
            WorkHours.Group(days: (0..<7).filter { group.weekdays & (1 << Int64($0)) != 0 }, ranges: group.ranges)
        })
    }
}
