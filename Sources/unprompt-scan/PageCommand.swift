import Foundation
import UnpromptKit

/// `unprompt-scan report [--out FILE] [--month YYYY-MM] [--tz ZONE] [--no-scan] …`: a scan (unless `--no-scan`),
/// then the page (`DashboardPage`) written to one self-contained HTML file, `unprompt-report.html` in the current
/// directory unless `--out` names another (`-` for standard output). The file is written whole and renamed into
/// place, so it is never seen half written.
enum PageCommand {
    static let defaultFile = "unprompt-report.html"

    static func report(_ arguments: Arguments, catalog: ReaderCatalog, environment: [String: String]) throws(UsageError) -> ExitCode {
        let month = try CalendarCommand.month(arguments.single(Option.month.name))
        let out = arguments.single(Option.out.name) ?? defaultFile
        let opened: ViewOpener.Opened
        switch try ViewOpener.open(arguments, catalog: catalog, environment: environment) {
        case .success(let success): opened = success
        case .failure(let failure): return failure.status
        }
        let view = opened.view
        let status = ExitCode.worst(ScanWarning.status(view.scan), opened.syncStatus)
        let html: String
        do {
            html = DashboardPage(report: try view.queries.dashboard(month: month), queries: view.queries, live: false).render().html
        } catch {
            return StoreFailure.report(error)
        }
        if out == "-" {
            print(html, terminator: "")
            return status
        }
        do {
            try Data(html.utf8).write(to: URL(fileURLWithPath: out), options: .atomic)
        } catch {
            printError("unprompt-scan: report: cannot write \(out): \(error.localizedDescription)")
            return .unavailable
        }
        print("wrote \(out) (open it in a browser; it loads nothing from anywhere)")
        return status
    }
}
