import Foundation
import UnpromptKit

/// `readers list [--json]`, `readers validate FILE…` and `readers test [ID…]`.
enum ReadersCommand {
    static func list(_ catalog: ReaderCatalog, json: Bool, environment: [String: String]) -> ExitCode {
        if json {
            let readers = catalog.descriptors.map { descriptor -> JSON in
                .object([
                    ("id", .string(descriptor.id)), ("name", .string(descriptor.name)),
                    ("formats", .array(formats(descriptor).map { .string($0) })),
                ])
            }
            print(JSON.object([("readers", .array(readers))]).text)
        } else {
            var table = Table([
                .label("id"), Table.Column("name", "name", .essential(2), alignment: .left, shortens: true),
                Table.Column("formats", "formats", .essential(1), alignment: .left),
            ])
            for descriptor in catalog.descriptors {
                table.add([Table.Cell(descriptor.id), Table.Cell(descriptor.name), Table.Cell(formats(descriptor).joined(separator: ", "))])
            }
            print(table.render(TableLayout(width: Terminal.width(environment))).joined(separator: "\n"))
        }
        for error in catalog.errors { printError(error.description) }
        return catalog.errors.isEmpty ? .success : .invalidDescriptor
    }

    /// The formats of a descriptor's inputs, each once, in the order written.
    static func formats(_ descriptor: Descriptor) -> [String] {
        var seen = Set<String>()
        return descriptor.inputs.map(\.format.rawValue).filter { seen.insert($0).inserted }
    }

    /// Each of `files` (one or more), with a warning (on stderr, not a failure) for each pattern that can take
    /// exponential time (`PatternRisk`). Blocks of other descriptors are looked for beside each file, then in
    /// `directories` (the readers directories).
    static func validate(_ files: [String], blocksFrom directories: [String]) -> ExitCode {
        var failed = false
        for file in files {
            do {
                let descriptor = try DescriptorLoader.load(path: file, directories: directories)
                for pattern in descriptor.patterns where PatternRisk.nestsQuantifiers(pattern.text) {
                    printError(
                        "\(pattern.mark.file ?? file):\(pattern.mark.line):\(pattern.mark.column): warning: '\(pattern.text)' repeats a group that itself repeats, which can take exponential time on a line that almost matches; each line's matching is bounded, and a line that runs out is skipped as pattern-too-slow"
                    )
                }
                print("\(file): ok (\(descriptor.id))")
            } catch {
                printError(error.description)
                failed = true
            }
        }
        return failed ? .invalidDescriptor : .success
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
