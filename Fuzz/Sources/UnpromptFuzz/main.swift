import CFuzzDriver
import Foundation

@testable import UnpromptKit

// One libFuzzer entry point for the parsers that take a user's files, or another device's, as they are. An input is a first line
// naming what it is for, then the bytes:
// - `yaml`: the rest is a reader descriptor, given to the descriptor loader, then compiled into its read rules;
// - a reader's id (`claude-code`): the rest is a log file, read by each of that reader's file inputs (JSON Lines,
//   text lines, JSON documents: the line reader and the record extractor behind it), whole and then in two
//   appends, the second read resuming from the first one's offset and state as a scan does.
// - `export`: the rest is another device's sync export (a header and a zstd frame: version 4's JSON part and
//   packed days, or an older JSON document), read and checked as a sync reads it; every day it admits must then
//   unpack as the store unpacks it.
// An id no reader has picks one by its bytes, so that a mutated id still reads something. Anything may be
// refused; nothing may trap, hang or read past a buffer. The corpus is seeded from `readers/` and `Fixtures/`.

/// The bundled readers' file inputs (databases need a real file and SQLite's own parser), loaded once.
let readersDirectory = ProcessInfo.processInfo.environment["UNPROMPT_FUZZ_READERS"] ?? "readers"

nonisolated(unsafe) let readers: [(id: String, inputs: [CompiledInput])] = {
    let directory = readersDirectory
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    let loaded = files.filter { $0.hasSuffix(".yaml") }.sorted().compactMap { file -> (String, [CompiledInput])? in
        let descriptor: Descriptor
        do { descriptor = try DescriptorLoader.load(path: directory + "/" + file) } catch { fatalError("\(error)") }
        let inputs = descriptor.inputs.filter { $0.format != .sqlite }.map { CompiledInput($0, descriptor: descriptor) }
        return inputs.isEmpty ? nil : (descriptor.id, inputs)
    }
    guard !loaded.isEmpty else { fatalError("no reader descriptors in \(directory) (set UNPROMPT_FUZZ_READERS)") }
    return loaded
}()

/// One scratch file for every run: written afresh, read through a descriptor as a scan reads a source.
nonisolated(unsafe) let scratch: Int32 = {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("unprompt-fuzz-\(getpid())").path
    let fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0o600)
    guard fd >= 0 else { fatalError("cannot create the scratch file") }
    unlink(path)
    return fd
}()

let utc = TimeZone(identifier: "UTC")!
/// A path that does not exist: a JSON document's siblings are looked for beside it, and none are found.
let scratchPath = "/nonexistent/unprompt-fuzz/session.jsonl"

func loadDescriptor(_ bytes: ArraySlice<UInt8>) {
    // Beside the bundled readers, so that `use: OTHER-ID.NAME` blocks resolve too.
    guard
        let descriptor = try? DescriptorLoader.load(
            text: String(decoding: bytes, as: UTF8.self), file: "fuzz.yaml", directories: [readersDirectory])
    else { return }
    for input in descriptor.inputs { _ = CompiledInput(input, descriptor: descriptor) }
}

func write(_ bytes: ArraySlice<UInt8>, at offset: Int) {
    bytes.withUnsafeBytes { buffer in
        var done = 0
        while done < buffer.count {
            let n = pwrite(scratch, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            precondition(n > 0, "cannot write the scratch file")
            done += n
        }
    }
}

/// Reads `bytes` whole, then as a first part and an append read from where the first read ended.
func readLog(_ bytes: ArraySlice<UInt8>, with inputs: [CompiledInput]) {
    let cut = bytes.isEmpty ? 0 : Int(bytes.reduce(0) { $0 &+ UInt($1) } % UInt(bytes.count))
    for input in inputs {
        let reader = SourceReaders.make(input, timeZone: utc)
        ftruncate(scratch, 0)
        write(bytes, at: 0)
        lseek(scratch, 0, SEEK_SET)
        if let whole = try? reader.read(fd: scratch, path: scratchPath, sourceKey: "fuzz", from: 0, state: SourceState()) {
            precondition(whole.endOffset >= 0 && whole.endOffset <= Int64(bytes.count), "end offset past the file")
        }
        guard reader.resumesAtOffset else { continue }
        ftruncate(scratch, 0)
        write(bytes.prefix(cut), at: 0)
        lseek(scratch, 0, SEEK_SET)
        guard let first = try? reader.read(fd: scratch, path: scratchPath, sourceKey: "fuzz", from: 0, state: SourceState())
        else { continue }
        precondition(first.endOffset <= Int64(cut), "end offset past the first part")
        write(bytes.dropFirst(cut), at: cut)
        lseek(scratch, 0, SEEK_SET)
        _ = try? reader.read(fd: scratch, path: scratchPath, sourceKey: "fuzz", from: first.endOffset, state: first.state)
    }
}

/// Reads `bytes` as an export file; a day it admits unpacks, and its block's index (as the store keeps the days)
/// reads back as written.
func readExport(_ bytes: ArraySlice<UInt8>) {
    guard let packed = try? SyncExport.readPacked(file: Data(bytes)) else { return }
    for day in packed.days {
        precondition((try? DevicePacking.unpackDay(packed.blob(day), day: day.day)) != nil, "a day the export's check admitted does not unpack")
    }
    for row in DayBlocks.rows(packed.days) {
        let entries = try? DayBlocks.entries(index: row.index, block: row.block, chunkBytes: row.range.count)
        precondition(entries?.map(\.day) == packed.days.filter { DayBlocks.block(ofDay: $0.day) == row.block }.map(\.day), "a block's index does not read back")
    }
}

/// One input (also exported under libFuzzer's own name, for a link that uses libFuzzer's main).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))[...]
    let newline = bytes.firstIndex(of: 0x0A) ?? bytes.endIndex
    let head = String(decoding: bytes[..<newline], as: UTF8.self)
    let rest = bytes[min(newline + 1, bytes.endIndex)...]
    if head == "yaml" {
        loadDescriptor(rest)
    } else if head == "export" {
        readExport(rest)
    } else {
        let reader = readers.first { $0.id == head }
            ?? readers[Int(head.utf8.reduce(0) { $0 &+ UInt($1) } % UInt(readers.count))]
        readLog(rest, with: reader.inputs)
    }
    return 0
}

/// The entry point SwiftPM links an executable target with (it is built with `-parse-as-library`, so it has no
/// top-level code): libFuzzer's driver, reading its options and corpus folders from the command line.
@_cdecl("UnpromptFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
}
