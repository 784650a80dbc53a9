import Foundation

/// The descriptors found in one or more directories, each file loaded and checked.
///
/// Every `*.yaml` file is loaded; one that fails is reported with its error and the others still load.
/// Two files declaring the same id are an error on the second.
public struct ReaderCatalog: Sendable {
    public private(set) var descriptors: [Descriptor] = []
    public private(set) var errors: [DescriptorError] = []

    /// With a `cache`, files this program has found valid before, byte for byte, are not checked again: each
    /// descriptor is decoded when first used (`ReaderCatalogCache`). Any other set of files is loaded and checked
    /// whole, and remembered there when it is valid.
    public init(directories: [String], cache: ReaderCatalogCache? = nil) {
        var listed: [(directory: String, path: String?)] = []
        for directory in directories {
            do {
                let names = try FileManager.default.contentsOfDirectory(atPath: directory)
                listed += names.sorted().filter { $0.hasSuffix(".yaml") }.map { (directory, directory + "/" + $0) }
            } catch {
                listed.append((directory, nil))
            }
        }
        // Each file is read once: a descriptor's blocks used by another (`use: OTHER-ID.NAME`) come from these
        // texts too, so what is decoded is exactly what was checked.
        let texts = Dictionary(
            listed.compactMap(\.path).map { path in (path, Result { () throws(DescriptorError) in try DescriptorLoader.readText(path) }) },
            uniquingKeysWith: { first, _ in first })
        let files = DescriptorFiles { path throws(DescriptorError) in try texts[path]?.get() }
        let key = cache.flatMap { $0.key(directories: directories, listed: listed.map(\.path), texts: texts) }
        let paths = listed.compactMap { entry in entry.path.map { (directory: entry.directory, path: $0) } }
        // A descriptor file decoded whole from the text read above, its blocks found as the catalog finds them.
        @Sendable func load(_ directory: String, _ path: String) throws(DescriptorError) -> Descriptor {
            let name = String(path.dropFirst(directory.count + 1).dropLast(".yaml".count))
            guard let text = try files.text(path) else {
                throw DescriptorError(file: path, mark: SourceMark(line: 1, column: 1), message: "no such file")
            }
            return try DescriptorLoader.load(
                text: text, file: path, expectedID: name, directories: [directory] + directories, log: nil, files: files)
        }
        if let cache, let key, let outlines = cache.outlines(key: key, files: paths.map(\.path)) {
            descriptors = zip(paths, outlines).map { file, outline in
                outline.descriptor(file: file.path) {
                    do {
                        let whole = try load(file.directory, file.path)
                        return DescriptorBody.Decoded(inputs: whole.inputs, statusLine: whole.statusLine)
                    } catch {
                        // The same program decoded the same bytes without an error before.
                        preconditionFailure("\(error), in a descriptor this program found valid")
                    }
                }
            }
            return
        }
        // Loaded on every core (each load is independent, and start-up pays for all of them), and the results
        // taken in the listed order, so ids and errors never depend on timing.
        let loaded = Locked([Result<Descriptor, DescriptorError>]())
        OrderedWorkPool.run(
            count: paths.count, threads: ProcessInfo.processInfo.activeProcessorCount, workerState: {},
            job: { _, index in Result { () throws(DescriptorError) in try load(paths[index].directory, paths[index].path) } },
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
        if let cache, let key, errors.isEmpty { cache.remember(descriptors, key: key, files: paths.map(\.path)) }
    }
}
