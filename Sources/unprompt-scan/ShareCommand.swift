import Foundation
import UnpromptKit

/// `unprompt-scan share [--period day|month] [--what tokens|trend] [--json] [--svg FILE] [--dir DIR]`: a scan
/// (unless `--no-scan`), then a share code of today or this month (`ShareCode`), drawn as a QR code; `--svg`
/// also writes the share card, `--dir` the share file into a folder shared with friends (`ShareFolder`).
/// The code holds only the name set with `config set share-name`, the period, its date, the number chosen and
/// the store's friend id.
enum ShareCommand {
    static func run(_ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String]) throws(UsageError) -> ExitCode {
        let period = try ShareOptions.period(arguments)
        let measure = try ShareOptions.measure(arguments, Option.what)
        let folder = arguments.single(Option.dir.name).map(FolderOption.absolute)
        let opened: ViewOpener.Opened
        switch try ViewOpener.open(arguments, catalog: catalog, environment: environment) {
        case .success(let success): opened = success
        case .failure(let failure): return failure.status
        }
        let view = opened.view
        guard let name = view.settings.shareName else {
            throw UsageError("share needs the name your friends will see first: `unprompt-scan config set share-name NAME`")
        }
        guard let store = view.queries.store else { return StoreFailure.report(StoreError(message: "no store yet: run a scan first", busy: false)) }
        let figures: ShareFigures
        let friend: String
        do {
            figures = try view.queries.share(period)
            friend = try store.friendID()
        } catch {
            return StoreFailure.report(error)
        }
        guard let code = ShareCode(friend: friend, name: name, figures: figures, measure: measure) else {
            printError(
                "unprompt-scan: share: no trend for \(ShareOptions.date(figures.period, figures.date)): the 30 days before it hold none of your tokens to compare with (share tokens instead)")
            return .sourcesUnreadable
        }
        guard let matrix = QRMatrix(code.text) else { preconditionFailure("a share code always fits a QR code") }
        var status = ExitCode.worst(ScanWarning.status(view.scan), opened.syncStatus)
        let headline = ShareOptions.headline(period: code.period, date: code.date)
        let detail = ShareOptions.value(code.measure, code.value)
        if let svg = arguments.single(Option.svg.name) {
            do {
                try Data(ShareDrawing.card(code, matrix: matrix, headline: headline, detail: detail).utf8)
                    .write(to: URL(fileURLWithPath: svg), options: .atomic)
            } catch {
                printError("unprompt-scan: share: the card cannot be written (\(SyncError.reason(error)))")
                status = .sourcesUnreadable
            }
        }
        if let folder {
            do throws(SyncError) {
                try ShareFolder.write(code, to: folder)
            } catch {
                printError("unprompt-scan: share: \(error.message)")
                status = .sourcesUnreadable
            }
        }
        if arguments.has(Option.json.name) {
            print(JSON.object([("code", .string(code.text)), ("holds", holds(code))]).text)
        } else {
            print("\(code.name), \(headline): \(detail)")
            print(code.text)
            print(ShareDrawing.terminal(matrix))
            print("a friend adds it with: unprompt-scan friends add \(code.text)")
        }
        return status
    }

    /// Everything the code holds: `{"name", "period", "date", "tokens" or "trend", "friend"}`.
    static func holds(_ code: ShareCode) -> JSON {
        .object([
            ("name", .string(code.name)), ("period", .string(code.period == .day ? "day" : "month")),
            ("date", .string(ShareOptions.date(code.period, code.date))), (code.measure.rawValue, .integer(code.value)),
            ("friend", .string(code.friend)),
        ])
    }
}

/// The options and words that `share` and `friends` share.
enum ShareOptions {
    static func period(_ arguments: Arguments) throws(UsageError) -> LocalCalendar.Period {
        switch arguments.single(Option.period.name) ?? "day" {
        case "day": return .day
        case "month": return .month
        case let other: throw UsageError("--period: expected day or month, got '\(other)'")
        }
    }

    static func measure(_ arguments: Arguments, _ option: Option) throws(UsageError) -> ShareMeasure {
        let text = arguments.single(option.name) ?? ShareMeasure.tokens.rawValue
        guard let measure = ShareMeasure(rawValue: text) else {
            throw UsageError("\(option.name): expected tokens or trend, got '\(text)'")
        }
        return measure
    }

    static func date(_ period: LocalCalendar.Period, _ date: Int64) -> String {
        period == .day ? CivilDate.dateString(ofDay: date) : CivilDate.monthString(ofMonth: date)
    }

    static func headline(period: LocalCalendar.Period, date: Int64) -> String {
        (period == .day ? "the day " : "the month ") + self.date(period, date)
    }

    static func value(_ measure: ShareMeasure, _ value: Int64) -> String {
        measure == .tokens
            ? "\(CountsFormat.grouped(Int(value))) tokens" : "\(CountsFormat.grouped(Int(value))) % of own 30-day average"
    }
}
