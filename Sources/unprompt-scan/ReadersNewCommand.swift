import Foundation
import UnpromptKit

/// `readers new ID --format F [--dir DIR]`: a starting descriptor `DIR/ID.yaml` and its first fixture case
/// `DIR/Fixtures/ID/basic/` (`ReaderTemplate`), in the user's readers folder unless `--dir` names another. It
/// never overwrites, and refuses an id the bundled readers have: the catalog refuses an id declared twice.
enum ReadersNewCommand {
    static func run(_ arguments: Arguments, _ operands: [String], environment: [String: String]) throws(UsageError) -> ExitCode {
        guard operands.count == 1, let id = operands.first else {
            throw UsageError("readers new takes one ID, the new reader's id, and was given \(operands.count)")
        }
        let formats = Format.allCases.map(\.rawValue).joined(separator: ", ")
        // `--format` is required (`Command.required`): it is there.
        let name = arguments.single(Option.format.name) ?? ""
        guard let format = Format(rawValue: name) else { throw UsageError("--format: unknown format '\(name)'; one of \(formats)") }
        try checkID(id)
        if let bundled = ReaderLocation.bundledDirectory(environment), FileManager.default.fileExists(atPath: bundled + "/" + id + ".yaml") {
            throw UsageError(
                "a bundled reader already has the id '\(id)' (`unprompt-scan readers list` shows it): a descriptor of yours with that id would not load beside it (an id is declared once, and every command that loads the readers would stop), so choose another id"
            )
        }
        let personal = ReaderLocation.personalDirectory(environment)
        let directory = arguments.single(Option.dir.name) ?? personal
        let template = ReaderTemplate(format: format, id: id)
        let descriptorPath = directory + "/" + id + ".yaml"
        let casePath = directory + "/Fixtures/" + id + "/basic"
        for path in [descriptorPath, casePath] where FileManager.default.fileExists(atPath: path) {
            throw UsageError("\(path) already exists, and readers new never overwrites: choose another id, or another --dir")
        }
        do {
            _ = try DescriptorLoader.load(text: template.descriptor, file: id + ".yaml", expectedID: id)
        } catch {
            // The templates are tested to load; this is a bug of this version, said rather than written.
            throw UsageError("the \(format.rawValue) template does not load (a bug of this version): \(error.description)")
        }
        var written: [String] = []
        do {
            for file in template.caseFiles {
                written.append(try write(file.text, to: casePath + "/" + file.path))
            }
            written.append(try write(template.descriptor, to: descriptorPath))
        } catch {
            let done = written.isEmpty ? "" : " (written before it: \(written.joined(separator: ", ")))"
            printError("unprompt-scan: readers new: cannot write \(error.path): \(error.reason)\(done)")
            return .unavailable
        }
        let readersDir = directory == personal ? "" : " --readers-dir \(directory)"
        print(written.map { "wrote " + $0 }.joined(separator: "\n"))
        print(
            """
            Edit both (the lines marked EDIT), then:
              unprompt-scan readers validate \(descriptorPath)
              unprompt-scan --dry-run --tool \(id) --root \(casePath)\(readersDir)
              unprompt-scan readers test \(id)\(readersDir)
            """)
        return .success
    }

    /// The id rule is the loader's: the id alone is loaded (quoted, so any text reaches that rule).
    private static func checkID(_ id: String) throws(UsageError) {
        let quoted = JSON.string(id).text
        do {
            _ = try DescriptorLoader.statusLine(text: "schema: 1\nid: \(quoted)\n", file: "ID", expectedID: nil)
        } catch {
            throw UsageError("'\(id)' is not a reader id: \(error.message)")
        }
    }

    struct WriteFailure: Error {
        let path: String
        let reason: String
    }

    /// Writes a new file (its folders created), refusing one that exists; gives back its path.
    private static func write(_ text: String, to path: String) throws(WriteFailure) -> String {
        do {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .withoutOverwriting)
        } catch {
            throw WriteFailure(path: path, reason: error.localizedDescription)
        }
        return path
    }
}
