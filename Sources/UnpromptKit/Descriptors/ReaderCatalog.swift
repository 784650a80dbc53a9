import Foundation

/// The descriptors found in one or more directories, each file loaded and checked.
///
/// Every `*.yaml` file is loaded; one that fails is reported with its error and the others still load.
/// Two files declaring the same id are an error on the second.
public struct ReaderCatalog: Sendable {
    public private(set) var descriptors: [Descriptor] = []
    public private(set) var errors: [DescriptorError] = []

    public init(directories: [String]) {
        // Listed first, in order; the files are then loaded on every core (each load is independent, and start-up
        // pays for all of them), and their results taken in the listed order, so ids and errors never depend on timing.
        var listed: [(directory: String, path: String?)] = []
        for directory in directories {
            do {
                let names = try FileManager.default.contentsOfDirectory(atPath: directory)
                listed += names.sorted().filter { $0.hasSuffix(".yaml") }.map { (directory, directory + "/" + $0) }
            } catch {
                listed.append((directory, nil))
            }
        }
        let paths = listed.compactMap(\.path)
        let loaded = Locked([Result<Descriptor, DescriptorError>]())
        OrderedWorkPool.run(
            count: paths.count, threads: ProcessInfo.processInfo.activeProcessorCount, workerState: {},
            job: { _, index in
                Result { () throws(DescriptorError) in try DescriptorLoader.load(path: paths[index], directories: directories) }
            },
            inOrder: { result in loaded.withLock { $0.append(result) } })
        var results = loaded.withLock { $0 }.makeIterator()
        var seen: [String: String] = [:]
        for (directory, path) in listed {
            guard let path, let result = results.next() else {
                errors.append(DescriptorError(file: directory, mark: SourceMark(line: 1, column: 1), message: "cannot list the readers directory"))
                continue
            }
            switch result {
            case .success(let descriptor):
                if let first = seen[descriptor.id] {
                    errors.append(DescriptorError(file: path, mark: SourceMark(line: 1, column: 1), message: "id '\(descriptor.id)' is already declared in \(first)"))
                    continue
                }
                seen[descriptor.id] = path
                descriptors.append(descriptor)
            case .failure(let error):
                errors.append(error)
            }
        }
    }
}
