import Foundation
import UnpromptKit

let usage = """
    usage: unprompt-scan [--store PATH] [--tz ZONE] [--json]
           unprompt-scan daily|monthly [--since DATE] [--until DATE] [--tz ZONE] [--tool ID]... [--no-scan]
                         [--cost-mode MODE] [--store PATH] [--json]
           unprompt-scan prices [--store PATH] [--json]
           unprompt-scan today|limits [--tz ZONE] [--no-scan] [--cost-mode MODE] [--store PATH] [--config FILE] [--json]
           unprompt-scan calendar [--month YYYY-MM] [--tz ZONE] [--no-scan] [--store PATH] [--config FILE] [--json]
           unprompt-scan snapshot [--json] [--tz ZONE] [--no-scan] [--cost-mode MODE] [--store PATH] [--config FILE]
           unprompt-scan config set work-hours SPEC | config get work-hours [--json] [--config FILE]
           unprompt-scan watch [--store PATH] [--interval SECONDS] [--json]
           unprompt-scan --dry-run [--reader ID]... [--root DIR] [--cost-mode MODE] [--json] [PATH...]
           unprompt-scan readers list [--json]
           unprompt-scan readers validate FILE...

    options:
      (no command)       scan every new log line into the store, then show today's usage
      daily, monthly     scan as above, then show usage per local day or month, by tool and model
      --since DATE       from this local date, inclusive: YYYY-MM-DD, or YYYY-MM for the month's first day
      --until DATE       through this local date, inclusive: YYYY-MM-DD, or YYYY-MM for the month's last day
      --tz ZONE          the time zone days are counted in: an IANA name (Asia/Kolkata) or UTC
                         (default: $TZ, else the system's zone); a regrouping only, never a rescan
      --tool ID          only this tool's usage (repeatable; `readers list` shows the ids)
      --no-scan          show what the store holds without scanning first (opens it read-only)
      --cost-mode MODE   calculate (default): cost from tokens at API list prices; auto: the tool's logged
                         cost where it logged one, else calculated; logged: logged costs only
      prices             the price table's source, date and SHA-256, whether your override is in force
                         (prices.json in ${XDG_CONFIG_HOME:-~/.config}/unprompt), and every model in the
                         store with its price row, unpriced ones with their tokens; reads the store only
      today              scan, then today: tokens (live for 3 minutes after a scan, then "measured at HH:MM"),
                         uses (runs of activity with gaps of at most 2 hours), work and personal
      calendar           scan, then a month grid: each day's tokens and how they compare with the mean of the
                         30 days before it (zero, less, average, more, much more); letters with NO_COLOR
      --month YYYY-MM    the calendar's month (default: this month)
      limits             scan, then plan limits: used %, window and countdown to the reset; stale readings
                         with their age; Claude's current 5-hour window
      snapshot           scan, then one numbers-only JSON document for widgets (docs/snapshot.schema.json)
      config set work-hours SPEC
                         keep work hours in the settings file: "Mon-Fri 09:00-18:00", several ranges and
                         groups ("Mon-Fri 09:00-12:30 13:30-18:00; Sat 10:00-14:00"), nights
                         ("Sun-Thu 22:00-06:00"), or none; quarter-hours, in the zone of each view
      --config FILE      the settings file (default: ${XDG_CONFIG_HOME:-~/.config}/unprompt/config.yaml)
      watch              scan, then scan again within a second of every change to a source, printing one line
                         per scan that counted something, until Ctrl-C or SIGTERM (exit status 0)
      --interval SECONDS a full rescan this often while watching, for changes no notification reports
                         (default: 60)
      --store PATH       the store file (default: ${XDG_DATA_HOME:-~/.local/share}/unprompt/usage.sqlite)
      --dry-run          read every source with its descriptor and print what would be counted; writes nothing
      --reader ID        only this reader (repeatable)
      --root DIR         use DIR as the tool's home instead of the descriptor's roots
      --readers-dir DIR  load descriptors from DIR instead of the built-in set
      --json             print JSON
      --version          the release, the commit it was built from, the price table's date, the water method
      -h, --help         show this help

    exit status: 0 ok, 1 some sources or folders could not be read, 2 usage error, 3 invalid descriptor, 4 store error,
                 5 invalid price table, price override or water method file, 6 invalid settings file
    """

func main() -> ExitCode {
    let environment = ProcessInfo.processInfo.environment
    do {
        let arguments = try Arguments(
            Array(CommandLine.arguments.dropFirst()), valueFlags: [
                "--reader", "--root", "--readers-dir", "--store", "--since", "--until", "--tz", "--tool", "--interval",
                "--month", "--config", "--cost-mode",
            ],
            boolFlags: ["--dry-run", "--json", "--help", "-h", "--no-scan", "--version"])
        if arguments.has("--help") || arguments.has("-h") {
            print(usage)
            return .success
        }
        if arguments.has("--version") { return VersionCommand.run(json: arguments.has("--json"), environment: environment) }
        if arguments.words.first == "config" { return try ConfigCommand.run(arguments, environment: environment) }
        let directories = ReaderLocation.directories(flag: try arguments.single("--readers-dir"), environment: environment)
        if arguments.words.first == "readers" {
            switch arguments.words.dropFirst().first {
            case "list":
                if directories.isEmpty { throw UsageError("no readers directory found; give --readers-dir DIR") }
                return ReadersCommand.list(ReaderCatalog(directories: directories), json: arguments.has("--json"))
            case "validate": return try ReadersCommand.validate(Array(arguments.words.dropFirst(2)))
            default: throw UsageError("readers takes 'list' or 'validate FILE...'")
            }
        }
        if directories.isEmpty { throw UsageError("no readers directory found; give --readers-dir DIR") }
        let catalog = ReaderCatalog(directories: directories)
        for error in catalog.errors { printError(error.description) }
        if !catalog.errors.isEmpty { return .invalidDescriptor }
        if arguments.has("--dry-run") { return try DryRunCommand.run(arguments, catalog: catalog, environment: environment) }
        switch arguments.words.first {
        case nil: return try ScanCommand.run(arguments, catalog: catalog, environment: environment)
        case "daily", "monthly": return try ReportCommand.run(arguments, catalog: catalog, environment: environment)
        case "watch": return try WatchCommand.run(arguments, catalog: catalog, environment: environment)
        case "prices": return try PricesCommand.run(arguments, environment: environment)
        case "today": return try TodayCommand.run(arguments, catalog: catalog, environment: environment)
        case "calendar": return try CalendarCommand.run(arguments, catalog: catalog, environment: environment)
        case "limits": return try LimitsCommand.run(arguments, catalog: catalog, environment: environment)
        case "snapshot": return try SnapshotCommand.run(arguments, catalog: catalog, environment: environment)
        case let word?: throw UsageError("unknown command '\(word)'")
        }
    } catch {
        printError("unprompt-scan: \((error as? UsageError)?.message ?? "\(error)")\n\n\(usage)")
        return .usage
    }
}

exit(main().rawValue)
