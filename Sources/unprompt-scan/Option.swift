/// One option of the command line: its name (and the names it is also known by), the value it takes (nil for
/// a flag), whether it may be given more than once, and one line of help. Each name means one thing in every
/// command that takes it, so it is declared once, here, and the commands list the ones they take.
struct Option: Equatable {
    let name: String
    var aliases: [String] = []
    /// The value's placeholder (`PATH`, `ZONE`); nil for a flag.
    let value: String?
    var repeatable = false
    let help: String

    /// `--tz ZONE`, `--tool ID]...` without the brackets: `--tool ID`.
    var synopsis: String { value.map { name + " " + $0 } ?? name }

    static let store = Option(
        name: "--store", value: "PATH",
        help: "the store file (default: ${XDG_DATA_HOME:-~/.local/share}/unprompt/usage.sqlite)")
    static let tz = Option(
        name: "--tz", value: "ZONE",
        help: "the zone days are counted in: an IANA name (Asia/Kolkata) or UTC (default: $TZ, else the system's); never a rescan")
    static let json = Option(name: "--json", value: nil, help: "print JSON")
    static let csv = Option(
        name: "--csv", value: nil, help: "print CSV (RFC 4180): a header, then one row per period, tool and model")
    static let noScan = Option(
        name: "--no-scan", value: nil, help: "show what the store holds without scanning first (opens it read-only)")
    static let costMode = Option(
        name: "--cost-mode", value: "MODE",
        help: "calculate (default): tokens at API list prices; auto: a tool's logged cost where it logged one; logged: only those")
    static let config = Option(
        name: "--config", value: "FILE",
        help: "the settings file (default: ${XDG_CONFIG_HOME:-~/.config}/unprompt/config.yaml)")
    static let since = Option(
        name: "--since", value: "DATE",
        help: "from this local date, inclusive: YYYY-MM-DD, YYYY-MM (its first day), today, yesterday, or Nd, Nw, Nm (days, weeks, months ago)")
    static let until = Option(
        name: "--until", value: "DATE",
        help: "through this local date, inclusive: YYYY-MM-DD, YYYY-MM (its last day), today, yesterday, or Nd, Nw, Nm")
    static let last = Option(
        name: "--last", value: "N",
        help: "the last N days, weeks or months (the view's), today's included and whole; with --until, the N ending there")
    static let startOfWeek = Option(
        name: "--start-of-week", value: "DAY",
        help: "mon or sun: the day weeks start on (default: the locale's, from LC_ALL, LC_TIME or LANG; else mon)")
    static let wide = Option(name: "--wide", value: nil, help: "every column, whatever the terminal's width")
    static let columns = Option(
        name: "--columns", value: "LIST",
        help: "only these columns after the first, in this order, comma-separated: total,cost,uses (an unknown one is refused with the list)")
    static let live = Option(
        name: "--live", value: nil,
        help: "keep today on one screen, rescanned as logs change and ticking every second, until q or Ctrl-C (on a terminal)")
    static let tool = Option(
        name: "--tool", aliases: ["--reader"], value: "ID", repeatable: true,
        help: "only this tool (repeatable; `unprompt-scan readers list` shows the ids)")
    static let month = Option(name: "--month", value: "YYYY-MM", help: "the month shown (default: this month)")
    static let out = Option(
        name: "--out", value: "FILE", help: "write the page to FILE (default: unprompt-report.html here; - for standard output)")
    static let port = Option(name: "--port", value: "N", help: "the port to listen on (default: 8787; 0: any free one, printed)")
    static let host = Option(
        name: "--host", value: "ADDR",
        help: "listen on this IP address instead of 127.0.0.1 (0.0.0.0: every one); off loopback each request needs the printed token")
    static let interval = Option(
        name: "--interval", value: "SECONDS",
        help: "a full rescan this often, for changes no notification reports (1 to 86400; default: 60)")
    static let root = Option(name: "--root", value: "DIR", help: "use DIR as the tool's home instead of the descriptor's roots")
    static let readersDir = Option(
        name: "--readers-dir", value: "DIR", help: "load descriptors from DIR only, instead of the built-in set and your own")
    static let dryRun = Option(
        name: "--dry-run", value: nil, help: "read every source with its descriptor and print what would be counted; writes nothing")
    static let at = Option(
        name: "--at", value: "DATE", help: "only the price rows in force on this date (UTC), YYYY-MM-DD, for models whose price changed")
    static let version = Option(
        name: "--version", value: nil, help: "the release, the commit it was built from, the price table's date, the water method")
    static let yes = Option(name: "--yes", value: nil, help: "confirm the day's proposal as it is (without a terminal, this or --context)")
    static let context = Option(
        name: "--context", value: "KIND", repeatable: true,
        help: "confirm it with context, never a number: no-work, \"worked HH:MM-HH:MM\", \"hours-changed SPEC\" or elsewhere (repeatable)")
    static let undo = Option(name: "--undo", value: nil, help: "remove the answer given for DATE")
    static let fixtures = Option(
        name: "--fixtures", value: "DIR", help: "the fixture cases, as DIR/ID/CASE/ folders (default: Fixtures in the current directory)")
    static let seed = Option(
        name: "--seed", value: "N", help: "where the split runs cut each case: the seed a run printed, to cut the same way again")
    static let help = Option(name: "--help", aliases: ["-h"], value: nil, help: "show this help")
    static let device = Option(
        name: "--device", value: "WHICH",
        help: "whose usage: all (default: this device and every device imported from the sync folder), this, or a device's id or label (`unprompt-scan devices` lists them)")
    static let dir = Option(
        name: "--dir", value: "DIR",
        help: "the shared folder: for sync, the folder your sync engine keeps in step (default: the settings' sync-dir); for share and friends, a folder of friends' share files")
    static let period = Option(name: "--period", value: "PERIOD", help: "day (default: today) or month (this month)")
    static let what = Option(
        name: "--what", value: "WHAT", help: "tokens (default): the period's tokens; trend: only the period against your own 30-day average")
    static let by = Option(name: "--by", value: "WHAT", help: "rank by tokens (default) or by trend against each one's own 30-day average")
    static let svg = Option(name: "--svg", value: "FILE", help: "also write the share card, a self-contained SVG image, to FILE")

    /// Every option of every command.
    static let all: [Option] = [
        store, tz, json, csv, noScan, costMode, config, since, until, last, startOfWeek, tool, month, wide, columns, live, out,
        port, host, interval, root, readersDir, dryRun, at, version, yes, context, undo, fixtures, seed, help,
        device, dir, period, what, by, svg,
    ]
}
