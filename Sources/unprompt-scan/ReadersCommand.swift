import Foundation
import UnpromptKit

/// `readers list [--json]` and `readers validate FILE…`.
enum ReadersCommand {
    static func list(_ catalog: ReaderCatalog, json: Bool) -> ExitCode {
        if json {
            let readers = catalog.descriptors.map { descriptor -> JSON in
                .object([
                    ("id", .string(descriptor.id)), ("name", .string(descriptor.name)),
                    ("formats", .array(descriptor.inputs.map { .string($0.format.rawValue) })),
                ])
            }
            print(JSON.object([("readers", .array(readers))]).text)
        } else {
            var table = TextTable(header: ["id", "name", "formats"])
            for descriptor in catalog.descriptors {
                table.add([descriptor.id, descriptor.name, descriptor.inputs.map(\.format.rawValue).joined(separator: ", ")])
            }
            print(table.render().joined(separator: "\n"))
        }
        for error in catalog.errors { printError(error.description) }
        return catalog.errors.isEmpty ? .success : .invalidDescriptor
    }

    static func validate(_ files: [String]) throws(UsageError) -> ExitCode {
        if files.isEmpty { throw UsageError("readers validate needs one or more descriptor files") }
        var failed = false
        for file in files {
            do {
                let descriptor = try DescriptorLoader.load(path: file)
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
