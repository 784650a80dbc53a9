import Foundation
import UnpromptKit

let usage = """
    usage: unprompt-scan [--store PATH] [--json]
           unprompt-scan --dry-run [--reader ID]... [--root DIR] [--json] [PATH...]
           unprompt-scan readers list [--json]
           unprompt-scan readers validate FILE...

    options:
      (no command)       scan every new log line into the store, then show today
      --store PATH       the store file (default: ${XDG_DATA_HOME:-~/.local/share}/unprompt/usage.sqlite)
      --dry-run          read every source with its descriptor and print what would be counted; writes nothing
      --reader ID        only this reader (repeatable)
      --root DIR         use DIR as the tool's home instead of the descriptor's roots
      --readers-dir DIR  load descriptors from DIR instead of the built-in set
      --json             print JSON
      -h, --help         show this help

    exit status: 0 ok, 1 some sources could not be read, 2 usage error, 3 invalid descriptor, 4 store error
    """

func main() -> ExitCode {
    let environment = ProcessInfo.processInfo.environment
    do {
        let arguments = try Arguments(
            Array(CommandLine.arguments.dropFirst()), valueFlags: ["--reader", "--root", "--readers-dir", "--store"],
            boolFlags: ["--dry-run", "--json", "--help", "-h"])
        if arguments.has("--help") || arguments.has("-h") {
            print(usage)
            return .success
        }
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
        guard arguments.words.isEmpty else { throw UsageError("unknown command '\(arguments.words[0])'") }
        return try ScanCommand.run(arguments, catalog: catalog, environment: environment)
    } catch {
        printError("unprompt-scan: \((error as? UsageError)?.message ?? "\(error)")\n\n\(usage)")
        return .usage
    }
}

exit(main().rawValue)
