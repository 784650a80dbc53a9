import Foundation
import UnpromptKit

/// Picks the command the words name (`Command.all`), refuses what it does not take, and runs it.
func main() -> ExitCode {
    Allocator.tuneForScanning()
    let environment = ProcessInfo.processInfo.environment
    var command: Command?
    do throws(UsageError) {
        let arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
        command = try Dispatch.command(for: arguments)
        guard let command else {
            print(Help.usage)
            return .success
        }
        if arguments.has(Option.help.name) {
            print(Help.help(command))
            return .success
        }
        try arguments.check(against: command)
        let operands = arguments.operands(of: command)
        try Dispatch.checkOperands(operands, of: command)
        var catalog = ReaderCatalog(directories: [])
        if command.readsDescriptors(arguments) {
            let directories = ReaderLocation.directories(flag: arguments.single(Option.readersDir.name), environment: environment)
            if directories.isEmpty { throw UsageError("no readers directory found; give --readers-dir DIR") }
            let cache = ReaderCatalogCache.defaultPath(environment: environment, home: HomeDirectory.path(environment))
            catalog = ReaderCatalog(directories: directories, cache: CacheFile.forThisProgram(path: cache).map(ReaderCatalogCache.init))
            // `readers list` lists what loaded and names the rest itself.
            if command.words != ["readers", "list"], !catalog.errors.isEmpty {
                for error in catalog.errors { printError(error.description) }
                return .invalidDescriptor
            }
        }
        return try command.run(Command.Context(arguments: arguments, operands: operands, environment: environment, catalog: catalog))
    } catch {
        printError("unprompt-scan: \(error.message)\n" + Help.hint(command))
        return .usage
    }
}

enum Dispatch {
    /// The command the words name, or nil for `--help` without one (the whole usage, the plain scan's first).
    /// A flag may name a command (`--dry-run`, `--version`), which then takes no other: `daily --dry-run` is
    /// refused rather than read as a dry run of a file named `daily`.
    static func command(for arguments: Arguments) throws(UsageError) -> Command? {
        let words = arguments.words
        if let named = Command.all.first(where: { $0.flag.map { arguments.has($0.name) } ?? false }), let flag = named.flag {
            if let first = words.first, Command.all.contains(where: { $0.words.first == first }) {
                throw UsageError("\(flag.name) is a command of its own: `unprompt-scan \(flag.name)\(named.operands.isEmpty ? "" : " " + named.operands)`, or `unprompt-scan \(first)` without it")
            }
            return named
        }
        let named = Command.all.filter { $0.flag == nil && !$0.words.isEmpty && words.starts(with: $0.words) }
        if let command = named.max(by: { $0.words.count < $1.words.count }) { return command }
        guard let first = words.first else {
            return arguments.has(Option.help.name) ? nil : Command.all.first { $0.words.isEmpty && $0.flag == nil }
        }
        let group = Command.all.filter { $0.words.first == first }
        if !group.isEmpty {
            let choices = group.map { "'" + ([$0.words[1]] + ($0.operands.isEmpty ? [] : [$0.operands])).joined(separator: " ") + "'" }
            throw UsageError("\(first) takes " + choices.joined(separator: " or "))
        }
        throw UsageError("unknown command '\(first)'")
    }

    /// Positional words, as each command's synopsis says: none, any number (`[PATH...]`), at least one
    /// (`FILE...`), or the command's own (`work-hours SPEC`, checked by the command).
    static func checkOperands(_ operands: [String], of command: Command) throws(UsageError) {
        if command.operands.isEmpty, let extra = operands.first {
            throw UsageError("\(command.title) takes no argument '\(extra)'")
        }
        if command.operands.hasSuffix("..."), !command.operands.hasPrefix("["), operands.isEmpty {
            throw UsageError("\(command.title) needs \(command.operands)")
        }
    }
}

exit(main().rawValue)
