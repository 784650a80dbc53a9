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

    static func confirmations(_ database: Database) throws(StoreError) -> [Confirmation] {
        var hours: [Int64: [WorkHours.Row]] = [:]
        try database.prepare(
            "SELECT day, weekdays, start_minute, end_minute FROM confirmation_hours ORDER BY day, position"
        ).forEachRow { row in
            hours[row.int(0) ?? 0, default: []].append(
                WorkHours.Row(weekdays: row.int(1) ?? 0, range: WorkHours.Range(start: Int(row.int(2) ?? 0), end: Int(row.int(3) ?? 0))))
        }
        return try database.prepare(
            """
            SELECT day, first_quarter, end_quarter, confirmed_at, kinds, worked_start, worked_end, uses, work_uses,
                tokens, work_tokens
            FROM confirmations ORDER BY day
            """
        ).rows().map { row in
            let day = row.int(0) ?? 0
            let dayHours = WorkHours(rows: hours[day] ?? [])
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

    /// Keeps `confirmation` in place of any earlier answer or undo of its day, in one transaction, and returns it
    /// as kept: stamped by this device, after the word the day held (`stampAfterHeld`).
    @discardableResult
    public func save(_ confirmation: Confirmation) throws(StoreError) -> Confirmation {
        try locked { database throws(StoreError) in
            try database.transaction { () throws(StoreError) -> Confirmation in
                let at = try Self.stampAfterHeld(day: confirmation.day, at: confirmation.confirmedAt, database)
                let kept = Confirmation(
                    day: confirmation.day, quarters: confirmation.quarters, confirmedAt: at, context: confirmation.context,
                    hours: confirmation.hours, numbers: confirmation.numbers)
                try Self.keep(ConfirmationEntry(answer: kept, origin: try Self.ownOrigin(database)), database)
                return kept
            }
        }
    }

    /// Writes the answer's rows (the day holds none).
    static func insert(_ confirmation: Confirmation, _ database: Database) throws(StoreError) {
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
        for (position, row) in confirmation.hours.rows.enumerated() {
            try insert.run([
                .integer(confirmation.day), .integer(Int64(position)), .integer(row.weekdays), .integer(Int64(row.range.start)),
                .integer(Int64(row.range.end)),
            ])
        }
    }

    /// Removes the day's confirmation, kept as an undo stamped by this device at `at` (or just after the answer,
    /// so the undo travels and wins over it on every device); false when the day had no answer.
    public func removeConfirmation(day: Int64, at: Int64) throws(StoreError) -> Bool {
        try locked { database throws(StoreError) in
            try database.transaction { () throws(StoreError) -> Bool in
                guard let held = try Self.heldStamp(day: day, database), !held.undone else { return false }
                let stamp = try Self.stampAfterHeld(day: day, at: at, database)
                try Self.keep(ConfirmationEntry(undoneDay: day, at: stamp, origin: try Self.ownOrigin(database)), database)
                return true
            }
        }
    }

    static func deleteConfirmation(day: Int64, _ database: Database) throws(StoreError) {
        try database.prepare("DELETE FROM confirmation_hours WHERE day = ?1").run([.integer(day)])
        try database.prepare("DELETE FROM confirmations WHERE day = ?1").run([.integer(day)])
    }
}
