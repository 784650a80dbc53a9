import Foundation

/// The descriptors found in one or more directories, each file loaded and checked.
///
/// Every `*.yaml` file is loaded; one that fails is reported with its error and the others still load.
/// Two files declaring the same id are an error on the second.
public struct ReaderCatalog: Sendable {
    public private(set) var descriptors: [Descriptor] = []
    public private(set) var errors: [DescriptorError] = []

    public init(directories: [String]) {
        var seen: [String: String] = [:]
        for directory in directories {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: directory)
            } catch {
                errors.append(DescriptorError(file: directory, mark: SourceMark(line: 1, column: 1), message: "cannot list the readers directory"))
                continue
            }
            for name in names.sorted() where name.hasSuffix(".yaml") {
                let path = directory + "/" + name
                do {
                    let descriptor = try DescriptorLoader.load(path: path, directories: directories)
                    if let first = seen[descriptor.id] {
                        errors.append(DescriptorError(file: path, mark: SourceMark(line: 1, column: 1), message: "id '\(descriptor.id)' is already declared in \(first)"))
                        continue
                    }
                    seen[descriptor.id] = path
                    descriptors.append(descriptor)
                } catch {
                    errors.append(error)
                }
            }
        }
    }
}
