/// A person's answer about one local day: its proposal confirmed as it was, or with context. The app measures;
/// the person only confirms, and corrects with context, never with a number.
///
/// It holds dates, enums and numbers only, so it can travel between devices as it is: the day, the day's
/// quarter-hours when it was confirmed, the moment, the kinds of context, the worked range, the work hours of
/// the day (as numbers) and the numbers confirmed. Context changes the work/personal split and marks a day;
/// it never changes a measured count.
public struct Confirmation: Sendable, Equatable {
    /// A kind of context. Its bit is how the store and an export keep it.
    public enum Kind: String, CaseIterable, Sendable, Comparable {
        /// I didn't work that day: its work uses and tokens count as personal.
        case noWork = "no-work"
        /// I worked at these hours: the range counts as work that day.
        case worked
        /// My hours changed: the new work hours apply from that day on.
        case hoursChanged = "hours-changed"
        /// I also used AI somewhere nothing here can see: the day is incomplete.
        case elsewhere

        public var bit: Int64 {
            switch self {
            case .noWork: 1
            case .worked: 2
            case .hoursChanged: 4
            case .elsewhere: 8
            }
        }

        public static func kinds(ofBits bits: Int64) -> [Kind] { allCases.filter { bits & $0.bit != 0 } }

        public static func < (a: Kind, b: Kind) -> Bool { a.bit < b.bit }
    }

    /// What the person said about the day, besides "that is right".
    public struct Context: Sendable, Equatable {
        /// In `Kind.allCases` order, no repeats.
        public private(set) var kinds: [Kind] = []
        /// With `.worked`: the range, in local time on the day (past midnight into the next, as work hours).
        public private(set) var worked: WorkHours.Range?
        /// With `.hoursChanged`: the work hours from the day on.
        public private(set) var hours: WorkHours?

        public init() {}

        public static let none = Context()

        public var isEmpty: Bool { kinds.isEmpty }
        public var bits: Int64 { kinds.reduce(0) { $0 | $1.bit } }

        /// Adds a kind that takes no argument, or replaces one of the same kind.
        public mutating func add(_ kind: Kind) {
            precondition(kind == .noWork || kind == .elsewhere, "worked and hours-changed take an argument")
            insert(kind)
        }

        public mutating func add(worked range: WorkHours.Range) {
            insert(.worked)
            worked = range
        }

        public mutating func add(hoursChanged hours: WorkHours) {
            insert(.hoursChanged)
            self.hours = hours
        }

        public mutating func remove(_ kind: Kind) {
            kinds.removeAll { $0 == kind }
            if kind == .worked { worked = nil }
            if kind == .hoursChanged { hours = nil }
        }

        private mutating func insert(_ kind: Kind) {
            if !kinds.contains(kind) { kinds = (kinds + [kind]).sorted() }
        }

        /// Each answer as it is written: `no-work`, `worked 20:00-23:00`, `hours-changed Mon-Fri 10:00-19:00`,
        /// `elsewhere`. A later answer of the same kind replaces an earlier one.
        public static func parse(_ answers: [String]) -> Result<Context, ContextProblem> {
            var context = Context()
            for answer in answers {
                let trimmed = answer.drop { $0 == " " }
                let name = String(trimmed.prefix { $0 != " " })
                let argument = String(trimmed.dropFirst(name.count).drop { $0 == " " })
                guard let kind = Kind(rawValue: name) else {
                    return .failure(ContextProblem(answer: answer, message: "unknown context '\(name)'; expected \(Kind.written)"))
                }
                switch kind {
                case .noWork, .elsewhere:
                    guard argument.isEmpty else {
                        return .failure(ContextProblem(answer: answer, message: "\(kind.rawValue) takes nothing after it"))
                    }
                    context.add(kind)
                case .worked:
                    switch WorkHours.parseRange(argument) {
                    case .success(let range): context.add(worked: range)
                    case .failure(let problem):
                        return .failure(ContextProblem(answer: answer, message: "worked HH:MM-HH:MM: \(problem.message)"))
                    }
                case .hoursChanged:
                    guard !argument.isEmpty else {
                        return .failure(ContextProblem(answer: answer, message: "hours-changed needs the new hours, such as \"Mon-Fri 10:00-19:00\" or none"))
                    }
                    switch WorkHours.parse(argument) {
                    case .success(let hours): context.add(hoursChanged: hours)
                    case .failure(let problem):
                        return .failure(
                            ContextProblem(answer: answer, message: "hours-changed SPEC: column \(problem.offset + 1) of '\(argument)': \(problem.message)"))
                    }
                }
            }
            return .success(context)
        }

        /// The answers that `parse` reads back as this context.
        public var answers: [String] {
            kinds.map { kind in
                switch kind {
                case .worked: "worked " + WorkHours.range(worked!)
                case .hoursChanged: "hours-changed " + hours!.description
                default: kind.rawValue
                }
            }
        }
    }

    /// The day's numbers when it was confirmed, with its context applied.
    public struct Numbers: Sendable, Equatable {
        public var uses = 0
        public var workUses = 0
        public var tokens: Int64 = 0
        public var workTokens: Int64 = 0

        public init(uses: Int = 0, workUses: Int = 0, tokens: Int64 = 0, workTokens: Int64 = 0) {
            self.uses = uses
            self.workUses = workUses
            self.tokens = tokens
            self.workTokens = workTokens
        }

        public init(_ reading: DayReading) {
            self.init(uses: reading.uses, workUses: reading.workUses, tokens: reading.tokens, workTokens: reading.workTokens)
        }
    }

    /// The local day (days since 1970-01-01).
    public let day: Int64
    /// The day's quarter-hours (UTC) in the zone it was confirmed in: what "since" is measured over.
    public let quarters: Range<Int64>
    /// Milliseconds since 1970.
    public let confirmedAt: Int64
    public let context: Context
    /// The work hours of the day: with `hours-changed` the new ones, which apply from this day on; otherwise
    /// those in force when it was confirmed, which it keeps (see `WorkSchedule`).
    public let hours: WorkHours
    public let numbers: Numbers

    public init(day: Int64, quarters: Range<Int64>, confirmedAt: Int64, context: Context, hours: WorkHours, numbers: Numbers) {
        self.day = day
        self.quarters = quarters
        self.confirmedAt = confirmedAt
        self.context = context
        self.hours = hours
        self.numbers = numbers
    }

    public var kinds: [Kind] { context.kinds }
    /// Also used elsewhere: the day's counts are not all of it.
    public var incomplete: Bool { kinds.contains(.elsewhere) }
    public var noWork: Bool { kinds.contains(.noWork) }
    public var changesHours: Bool { kinds.contains(.hoursChanged) }

    /// The same confirmation with other numbers.
    public func with(numbers: Numbers) -> Confirmation {
        Confirmation(day: day, quarters: quarters, confirmedAt: confirmedAt, context: context, hours: hours, numbers: numbers)
    }
}

extension Confirmation.Kind {
    /// `no-work, worked HH:MM-HH:MM, hours-changed SPEC or elsewhere`.
    public static var written: String { "no-work, worked HH:MM-HH:MM, hours-changed SPEC or elsewhere" }
}

/// A context answer that does not parse.
public struct ContextProblem: Error, Sendable, Equatable {
    public let answer: String
    public let message: String
}
