import UnpromptKit

/// One command of `unprompt-scan`: the words that name it, what follows them, one line saying what it does,
/// the options it takes, examples, and how it runs. The usage text, `COMMAND --help`, README's command list
/// and the man page are all made from these (`Help`), so none of them is kept by hand.
struct Command: Sendable {
    struct Example: Sendable {
        let command: String
        let comment: String
    }

    /// What a command is run with.
    struct Context {
        let arguments: Arguments
        /// The words after the command's own.
        let operands: [String]
        let environment: [String: String]
        /// The descriptors, for commands that take `--readers-dir` (already checked: none is invalid).
        let catalog: ReaderCatalog
    }

    /// The words that name it (`["readers", "list"]`); none for the plain scan or a command named by its flag.
    let words: [String]
    /// The flag that names it instead of words: `--dry-run`, `--version`.
    var flag: Option? = nil
    /// What may follow, as the synopsis writes it: `[PATH...]`, `FILE...`, `work-hours SPEC`; empty for nothing.
    var operands = ""
    let abstract: String
    let options: [Option]
    /// Options of `options` the command cannot run without (`readers new --format`): refused when missing,
    /// shown without brackets.
    var required: [Option] = []
    var examples: [Example] = []
    let run: @Sendable (Context) throws(UsageError) -> ExitCode

    /// How messages name it: `daily`, `readers list`, `unprompt-scan` for the plain scan, `--dry-run`.
    var title: String { flag?.name ?? (words.isEmpty ? "unprompt-scan" : words.joined(separator: " ")) }
    /// How the help lists it: `--dry-run`, `(no command)`, `readers list`.
    var listedName: String { flag?.name ?? (words.isEmpty ? "(no command)" : words.joined(separator: " ")) }
    /// The options shown beside its name: every one but its naming flag.
    var listedOptions: [Option] { options.filter { $0 != flag } }
    /// Commands that read the descriptors take `--readers-dir`; all of them are loaded first, unless the command
    /// finds the few it needs itself (`statusline`, which runs each time a line is drawn).
    var readsDescriptors: Bool { options.contains(.readersDir) && !findsItsDescriptors }
    var findsItsDescriptors = false

    /// `unprompt-scan daily [--since DATE] [--tool ID]... [--json]`, in parts that a line break may come between.
    var synopsisParts: [String] {
        let named = flag.map { [$0.name] } ?? words
        let shown = required.map(\.synopsis)
            + listedOptions.filter { !required.contains($0) }.map { "[" + $0.synopsis + "]" + ($0.repeatable ? "..." : "") }
        // Words a command needs come right after its name; optional ones (`[PATH...]`) after its options.
        if operands.isEmpty { return [(["unprompt-scan"] + named).joined(separator: " ")] + shown }
        if operands.hasPrefix("[") { return [(["unprompt-scan"] + named).joined(separator: " ")] + shown + [operands] }
        return [(["unprompt-scan"] + named + [operands]).joined(separator: " ")] + shown
    }

    var synopsis: String { synopsisParts.joined(separator: " ") }
}

extension Command {
    /// The options every view of the store takes.
    static let view: [Option] = [.tz, .device, .noScan, .costMode, .store, .config, .readersDir, .json]

    /// Every command, in the order the help lists them.
    static let all: [Command] = [
        Command(
            words: [], abstract: "scan every new log line into the store, then show today's usage",
            options: [.tz, .device, .costMode, .store, .config, .readersDir, .json],
            examples: [Example(command: "unprompt-scan", comment: "scan what is new into the store, then show today")],
            run: { c throws(UsageError) in try ScanCommand.run(c.arguments, catalog: c.catalog, environment: c.environment) }),
        Command(
            words: ["daily"], abstract: "scan, then usage per local day, by tool and model, with cost, water, bottle level and uses",
            options: [.since, .until, .last, .tool, .wide, .columns] + view + [.csv],
            examples: [
                Example(command: "unprompt-scan daily --since 2026-03-01 --tz Asia/Kolkata", comment: "per local day, per tool and model"),
                Example(command: "unprompt-scan daily --last 7 --columns total,cost,uses", comment: "the last seven days, three columns"),
                Example(command: "unprompt-scan daily --cost-mode auto", comment: "logged costs where tools wrote them"),
            ],
            run: { c throws(UsageError) in try ReportCommand.run(c.arguments, view: .daily, catalog: c.catalog, environment: c.environment) }),
        Command(
            words: ["weekly"], abstract: "scan, then usage per local week, by tool and model, with cost, water, uses and each day's band",
            options: [.since, .until, .last, .startOfWeek, .tool, .wide, .columns] + view,
            examples: [Example(command: "unprompt-scan weekly --last 4 --start-of-week sun", comment: "the last four weeks, from Sunday")],
            run: { c throws(UsageError) in try ReportCommand.run(c.arguments, view: .weekly, catalog: c.catalog, environment: c.environment) }),
        Command(
            words: ["monthly"], abstract: "scan, then usage per local month, by tool and model, with cost, water and uses",
            options: [.since, .until, .last, .tool, .wide, .columns] + view + [.csv],
            examples: [Example(command: "unprompt-scan monthly --tool ID --json", comment: "one tool's months, as JSON (`readers list` shows the ids)")],
            run: { c throws(UsageError) in try ReportCommand.run(c.arguments, view: .monthly, catalog: c.catalog, environment: c.environment) }),
        Command(
            words: ["today"],
            abstract: "scan, then today: uses (personal, work) beside tokens (live for 3 minutes after a scan), cost and water, the limits close to a reset, each tool",
            options: [.live, .wide, .columns] + view,
            examples: [Example(command: "unprompt-scan today --live", comment: "today on one screen, ticking, rescanned as logs change; q quits")],
            run: { c throws(UsageError) in try TodayCommand.run(c.arguments, catalog: c.catalog, environment: c.environment) }),
        Command(
            words: ["calendar"],
            abstract: "scan, then a month grid: each day's tokens against the mean of the 30 days before it",
            options: [.month, .tz, .device, .noScan, .store, .config, .readersDir, .json],
            examples: [Example(command: "unprompt-scan calendar --month 2026-02", comment: "February's grid; letters with NO_COLOR")],
            run: { c throws(UsageError) in try CalendarCommand.run(c.arguments, catalog: c.catalog, environment: c.environment) }),
        Command(
            words: ["limits"],
            abstract: "scan, then plan limits: used %, window and countdown to the reset, and the windows derived from use",
            options: [.wide, .columns] + view,
            run: { c throws(UsageError) in try LimitsCommand.run(c.arguments, catalog: c.catalog, environment: c.environment) }),
        Command(
            words: ["snapshot"],
            abstract: "scan, then one numbers-only JSON document for widgets (docs/snapshot.schema.json)",
            options: view,
            run: { c throws(UsageError) in try SnapshotCommand.run(c.arguments, catalog: c.catalog, environment: c.environment) }),
        Command(
            words: ["confirm"], operands: "[DATE]",
            abstract: "scan, then the day's proposal (uses personal and at work, tokens, cost): one key confirms it, or gives context instead of a number",
            options: [.yes, .context, .undo] + view,
            examples: [
                Example(command: "unprompt-scan confirm", comment: "today after work hours (18:00 without), else the latest day not confirmed"),
                Example(command: "unprompt-scan confirm yesterday --context no-work", comment: "I didn't work: its work counts as personal"),
                Example(command: "unprompt-scan confirm --yes --json", comment: "for a widget: confirm the proposal, print the day and the streak"),
            ],
            run: { c throws(UsageError) in
                try ConfirmCommand.run(c.arguments, c.operands, catalog: c.catalog, environment: c.environment)
            }),
        Command(
            words: ["report"],
            abstract: "scan, then one self-contained HTML page: today, the month's calendar, the bottle, plan limits, 30 days by tool, models",
            options: [.out, .month, .tz, .noScan, .costMode, .store, .config, .readersDir],
            examples: [Example(command: "unprompt-scan report --out ~/usage.html", comment: "the page, to open in any browser; it loads nothing")],
            run: { c throws(UsageError) in try PageCommand.report(c.arguments, catalog: c.catalog, environment: c.environment) }),
        Command(
            words: ["serve"],
            abstract: "the report's page live on 127.0.0.1, with /snapshot.json and /metrics; read-only, never scans, until Ctrl-C or SIGTERM",
            options: [.port, .host, .tz, .costMode, .store, .config, .readersDir],
            examples: [
                Example(command: "unprompt-scan serve", comment: "then open http://127.0.0.1:8787/"),
                Example(command: "unprompt-scan serve --host 0.0.0.0", comment: "for a phone on the same network: open the printed URL, token included"),
            ],
            run: { c throws(UsageError) in try ServeCommand.run(c.arguments, catalog: c.catalog, environment: c.environment) }),
        Command(
            words: ["metrics"],
            abstract: "scan, then today's tokens, cost and water by tool and model, uses and plan limits in the Prometheus text format",
            options: [.tz, .noScan, .costMode, .store, .config, .readersDir],
            examples: [
                Example(
                    command: "unprompt-scan metrics > DIR/unprompt.prom.tmp && mv DIR/unprompt.prom.tmp DIR/unprompt.prom",
                    comment: "for node_exporter's textfile collector"),
            ],
            run: { c throws(UsageError) in try MetricsCommand.run(c.arguments, catalog: c.catalog, environment: c.environment) }),
        Command(
            words: ["statusline"],
            abstract: "for a tool's status line (Claude Code's statusLine): record the plan limits of its JSON on stdin, then print today's tokens, cost and limits in one line",
            options: [.tool, .tz, .costMode, .store, .readersDir],
            examples: [
                Example(command: "unprompt-scan statusline < payload.json", comment: "as Claude Code runs it, its JSON on standard input"),
            ],
            run: { c throws(UsageError) in try StatusLineCommand.run(c.arguments, environment: c.environment) }, findsItsDescriptors: true),
        Command(
            words: ["prices"],
            abstract: "the price table's source, date and SHA-256, your override, and every model in the store with its price row",
            options: [.wide, .columns, .store, .json, .at],
            examples: [Example(command: "unprompt-scan prices --at 2026-03-01", comment: "the rows in force on a date, for models whose price changed")],
            run: { c throws(UsageError) in try PricesCommand.run(c.arguments, environment: c.environment) }),
        Command(
            words: ["watch"],
            abstract: "scan, then scan again within a second of every change, one line per scan that counted something, until Ctrl-C or SIGTERM",
            options: [.interval, .store, .config, .readersDir, .json],
            run: { c throws(UsageError) in try WatchCommand.run(c.arguments, catalog: c.catalog, environment: c.environment) }),
        Command(
            words: ["sync"],
            abstract: "scan, then write this device's numbers-only export into the sync folder and import every other device's",
            options: [.dir, .noScan, .store, .config, .readersDir, .json],
            examples: [
                Example(command: "unprompt-scan sync --dir ~/Sync/unprompt", comment: "a folder Syncthing, iCloud Drive or Dropbox keeps in step"),
                Example(command: "unprompt-scan config set sync-dir ~/Sync/unprompt", comment: "then every scan and watch syncs"),
            ],
            run: { c throws(UsageError) in try SyncCommand.run(c.arguments, catalog: c.catalog, environment: c.environment) }),
        Command(
            words: ["devices"], abstract: "this device and every device imported from the sync folder: label, id, last export, tokens",
            options: [.store, .config, .json],
            run: { c throws(UsageError) in try DevicesCommand.run(c.arguments, catalog: c.catalog, environment: c.environment) }),
        Command(
            words: ["check"],
            abstract: "SQLite's full check of every page of the store, and of its sums: says what is damaged, changes nothing",
            options: [.store, .json],
            run: { c throws(UsageError) in try CheckCommand.run(c.arguments, environment: c.environment) }),
        Command(
            words: ["share"],
            abstract: "scan, then a share code of today (or this month): your chosen name and your tokens or only your trend, drawn as a QR code",
            options: [.period, .what, .svg, .dir, .tz, .noScan, .store, .config, .readersDir, .json],
            examples: [
                Example(command: "unprompt-scan share --what trend", comment: "only today against your own 30-day average"),
                Example(command: "unprompt-scan share --period month --svg card.svg", comment: "this month, and the share card as an image"),
            ],
            run: { c throws(UsageError) in try ShareCommand.run(c.arguments, catalog: c.catalog, environment: c.environment) }),
        Command(
            words: ["friends"], abstract: "scan, then the friends whose codes you added, ranked with you by tokens or by trend",
            options: [.by, .period, .dir, .tz, .noScan, .store, .config, .readersDir, .json],
            examples: [Example(command: "unprompt-scan friends --by trend --period month", comment: "this month, by each one's trend")],
            run: { c throws(UsageError) in try FriendsCommand.list(c.arguments, catalog: c.catalog, environment: c.environment) }),
        Command(
            words: ["friends", "add"], operands: "CODE", abstract: "add a friend's share code (a newer one from the same friend replaces the older)",
            options: [.store],
            run: { c throws(UsageError) in try FriendsCommand.add(c.arguments, c.operands, environment: c.environment) }),
        Command(
            words: ["friends", "remove"], operands: "NAME", abstract: "remove a friend, by name (or friend id)",
            options: [.store],
            run: { c throws(UsageError) in try FriendsCommand.remove(c.arguments, c.operands, environment: c.environment) }),
        Command(
            words: ["config", "get"], operands: "SETTING", abstract: "show a setting of the settings file: work-hours, sync-dir, device-label or share-name",
            options: [.config, .json],
            run: { c throws(UsageError) in try ConfigCommand.get(c.arguments, c.operands, environment: c.environment) }),
        Command(
            words: ["config", "set"], operands: "SETTING VALUE",
            abstract: "keep a setting: work-hours SPEC (\"Mon-Fri 09:00-12:30 13:30-18:00; Sat 10:00-14:00\", nights \"Sun-Thu 22:00-06:00\"), sync-dir DIR, device-label NAME, share-name NAME; none clears one",
            options: [.config],
            examples: [
                Example(command: "unprompt-scan config set work-hours \"Mon-Fri 09:00-18:00\"", comment: "work hours, in quarter-hours"),
                Example(command: "unprompt-scan config set device-label laptop", comment: "this device's name in the sync folder"),
                Example(command: "unprompt-scan config set share-name Ada", comment: "the name your share codes carry"),
            ],
            run: { c throws(UsageError) in try ConfigCommand.set(c.arguments, c.operands, environment: c.environment) }),
        Command(
            words: [], flag: .dryRun, operands: "[PATH...]",
            abstract: "read every source (or the PATHs, with one --tool) with its descriptor and print what would be counted; writes nothing",
            options: [.dryRun, .tool, .root, .costMode, .wide, .columns, .readersDir, .json],
            examples: [
                Example(command: "unprompt-scan --dry-run", comment: "every reader, its default locations"),
                Example(command: "unprompt-scan --dry-run --tool ID --root DIR", comment: "one reader; DIR replaces each source's root"),
                Example(command: "unprompt-scan --dry-run --tool ID FILE...", comment: "one reader, these files only"),
            ],
            run: { c throws(UsageError) in
                try DryRunCommand.run(c.arguments, paths: c.operands, catalog: c.catalog, environment: c.environment)
            }),
        Command(
            words: [], flag: .version,
            abstract: "the release, the commit it was built from, the price table's date and the water method's version",
            options: [.version, .json],
            run: { c in VersionCommand.run(json: c.arguments.has(Option.json.name), environment: c.environment) }),
        Command(
            words: ["readers", "list"], abstract: "the descriptors found, with their ids, names and formats",
            options: [.readersDir, .json],
            run: { c in ReadersCommand.list(c.catalog, json: c.arguments.has("--json"), environment: c.environment) }),
        Command(
            words: ["readers", "validate"], operands: "FILE...", abstract: "check descriptor files: errors as file:line:col",
            options: [],
            examples: [Example(command: "unprompt-scan readers validate readers/my-tool.yaml", comment: "check a new descriptor")],
            run: { c in
                ReadersCommand.validate(c.operands, blocksFrom: ReaderLocation.directories(flag: nil, environment: c.environment))
            }),
        Command(
            words: ["readers", "test"], operands: "[ID...]",
            abstract: "run fixture cases: each as a dry run, into a temporary store, again (adding nothing), and split at a random byte",
            options: [.fixtures, .seed, .readersDir],
            examples: [
                Example(command: "unprompt-scan readers test", comment: "every case under Fixtures/ here and in your readers folder"),
                Example(command: "unprompt-scan readers test my-tool --fixtures ~/my-fixtures", comment: "one reader's cases"),
            ],
            run: { c throws(UsageError) in
                try ReadersTestCommand.run(c.arguments, ids: c.operands, catalog: c.catalog, environment: c.environment)
            }),
        Command(
            words: ["readers", "new"], operands: "ID",
            abstract: "write a starting descriptor ID.yaml and its first fixture case Fixtures/ID/basic/, one event that the dry run and readers test read as written",
            options: [.format, .dir], required: [.format],
            examples: [
                Example(command: "unprompt-scan readers new my-tool --format jsonl", comment: "into your readers folder, found by every command"),
            ],
            run: { c throws(UsageError) in try ReadersNewCommand.run(c.arguments, c.operands, environment: c.environment) }),
    ]
}
