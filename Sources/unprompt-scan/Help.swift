import Foundation
/// Every text that describes the command line, made from the command and option tables (`Command.all`,
/// `Option`): the usage, each command's `--help`, README's command list and the man page. A test compares
/// README.md and docs/unprompt-scan.1 with what these make.
enum Help {
    static let width = 112

    /// A command's synopsis wrapped at `width`, continuation lines indented under its first option.
    static func wrapped(_ command: Command, first prefix: String) -> [String] {
        let parts = command.synopsisParts
        let indent = String(repeating: " ", count: prefix.count + "unprompt-scan ".count)
        var lines: [String] = []
        var line = prefix + parts[0]
        for part in parts.dropFirst() {
            if line.count + 1 + part.count > width {
                lines.append(line)
                line = indent + part
            } else {
                line += " " + part
            }
        }
        return lines + [line]
    }

    static func optionLines(_ options: [Option]) -> [String] {
        // Short names first (`-h, --help`), long aliases after (`--tool ID, --reader ID`).
        let named = options.map { option -> (String, String) in
            let short = option.aliases.filter { $0.count == 2 }
            let long = option.aliases.filter { $0.count > 2 }.map { alias in option.value.map { "\(alias) \($0)" } ?? alias }
            return ((short + [option.synopsis] + long).joined(separator: ", "), option.help)
        }
        let column = (named.map(\.0.count).max() ?? 0) + 2
        return named.map { "  " + $0.0 + String(repeating: " ", count: column - $0.0.count) + $0.1 }
    }

    /// `unprompt-scan --help`: every command's synopsis and what it does, every option once, the exit statuses.
    static var usage: String {
        var lines: [String] = []
        for (index, command) in Command.all.enumerated() {
            lines += wrapped(command, first: index == 0 ? "usage: " : "       ")
        }
        lines += ["", "commands:"]
        let names = Command.all.map(\.listedName)
        let column = (names.map(\.count).max() ?? 0) + 2
        for (name, command) in zip(names, Command.all) {
            lines.append("  " + name + String(repeating: " ", count: column - name.count) + command.abstract)
        }
        lines += ["", "options:"] + optionLines(Option.all)
        lines += ["", "`unprompt-scan COMMAND --help` shows what one command takes.", "", "exit status:"]
        lines += ExitCode.allCases.map { "  \($0.rawValue)  \($0.meaning)" }
        return lines.joined(separator: "\n")
    }

    /// `unprompt-scan COMMAND --help`.
    static func help(_ command: Command) -> String {
        var lines = wrapped(command, first: "usage: ")
        lines += ["", command.abstract, "", "options:"] + optionLines(command.listedOptions + [.help])
        if !command.examples.isEmpty {
            lines += ["", "examples:"]
            let column = (command.examples.map(\.command.count).max() ?? 0) + 2
            lines += command.examples.map { "  " + $0.command + String(repeating: " ", count: column - $0.command.count) + "# " + $0.comment }
        }
        return lines.joined(separator: "\n")
    }

    /// The hint under a usage error: the command's synopsis and where its options are listed.
    static func hint(_ command: Command?) -> String {
        guard let command else { return "`unprompt-scan --help` lists the commands and their options" }
        let help = (["unprompt-scan"] + (command.flag.map { [$0.name] } ?? command.words) + ["--help"]).joined(separator: " ")
        return "`\(help)` lists what \(command.title) takes"
    }

    // MARK: README and the man page

    static let readmeStart = "<!-- commands: made from Sources/unprompt-scan/Command.swift; `UNPROMPT_UPDATE_DOCS=1 swift test --filter CommandDocsTests` rewrites this list -->"
    static let readmeEnd = "<!-- end of commands -->"

    /// README's command list: every synopsis with what it does, the examples, and the exit statuses.
    static var readme: String {
        var lines = [readmeStart, "", "```sh"]
        for command in Command.all {
            lines += wrapped(command, first: "")
            lines.append("    # " + command.abstract)
        }
        lines += ["```", "", "For example:", "", "```sh"]
        let examples = Command.all.flatMap(\.examples)
        let column = (examples.map(\.command.count).max() ?? 0) + 2
        lines += examples.map { $0.command + String(repeating: " ", count: column - $0.command.count) + "# " + $0.comment }
        lines += ["```", "", "Options (`unprompt-scan COMMAND --help` lists what one command takes):", ""]
        lines += Option.all.map { option in
            let aliases = option.aliases.isEmpty ? "" : " (" + option.aliases.map { "`\($0)`" }.joined(separator: ", ") + ")"
            return "- `\(option.synopsis)`\(aliases): \(option.help)"
        }
        lines += ["", "Exit status:", "", "| code | meaning |", "|---|---|"]
        lines += ExitCode.allCases.map { "| \($0.rawValue) | \($0.meaning) |" }
        lines += ["", readmeEnd]
        return lines.joined(separator: "\n")
    }

    /// roff: `-` as `\-`, a backslash as `\e`, `"` as `\(dq`, and a line never starting with `.` or `'`.
    static func roff(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
            .replacingOccurrences(of: "\"", with: "\\(dq")
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }

    /// `docs/unprompt-scan.1`.
    static var manPage: String {
        var lines = [
            #".\" Made from Sources/unprompt-scan/Command.swift and Option.swift: UNPROMPT_UPDATE_DOCS=1 swift test --filter CommandDocsTests"#,
            #".TH UNPROMPT\-SCAN 1 "" "unprompt-scan" "User Commands""#,
            ".SH NAME", #"unprompt\-scan \- a local AI\-usage meter: measured, never judged"#,
            ".SH SYNOPSIS",
        ]
        for command in Command.all {
            lines += [".PP", roff(command.synopsis)]
        }
        lines += [
            ".SH DESCRIPTION",
            roff("Reads the logs that AI coding tools write on this disk, one YAML descriptor per tool, and keeps only numbers in one SQLite store: tokens by tool, model and day, their cost at API list prices, estimated water, uses, the work and personal split, and plan-limit windows. It never writes, locks or touches a tool's files, and no prompt, path, project or file name is ever stored or printed."),
            ".SH COMMANDS",
        ]
        for command in Command.all {
            let name = command.listedName
            lines += [".TP", ".B " + roff(name + (command.operands.isEmpty ? "" : " " + command.operands)), roff(command.abstract)]
            let options = command.listedOptions.map(\.name)
            if !options.isEmpty { lines += [".br", roff("Options: " + options.joined(separator: ", ") + ".")] }
        }
        lines.append(".SH OPTIONS")
        for option in Option.all {
            let aliases = option.aliases.isEmpty ? "" : " Also " + option.aliases.joined(separator: ", ") + "."
            lines += [".TP", ".B " + roff(option.synopsis), roff(option.help + "." + aliases)]
        }
        lines.append(".SH EXIT STATUS")
        for code in ExitCode.allCases { lines += [".TP", ".B \(code.rawValue)", roff(code.meaning)] }
        lines.append(".SH EXAMPLES")
        for example in Command.all.flatMap(\.examples) { lines += [".TP", ".B " + roff(example.command), roff(example.comment)] }
        lines += [".SH SEE ALSO", roff("README.md, CONTRIBUTING.md (the descriptor language), docs/METHOD.md (cost and water), docs/VIEWS.md.")]
        return lines.joined(separator: "\n") + "\n"
    }
}
