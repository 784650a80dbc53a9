import Foundation

/// Where a source stopped being read, and how to recognise it next time: its (device, inode), size and
/// modification time (a rescan with nothing new only compares these), a hash of its first bytes, and a
/// hash of the bytes just before `offset` (together they catch truncation, replacement and copy-truncate).
public struct Checkpoint: Sendable, Equatable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var modifiedNanoseconds: Int64
    /// The end of the last complete line read.
    public var offset: Int64
    public var headLength: Int64
    public var headHash: String
    public var tailHash: String
    /// The reader's state at `offset`, as stored (decoded only when a read resumes from here).
    public var stateData: Data

    public init(
        device: UInt64, inode: UInt64, size: Int64, modifiedNanoseconds: Int64, offset: Int64, headLength: Int64,
        headHash: String, tailHash: String, state: SourceState
    ) throws(SourceReadError) {
        let data: Data
        do {
            data = state.isEmpty ? Self.emptyStateData : try JSONEncoder().encode(state)
        } catch {
            // A value JSON cannot hold (an infinite watermark read from a database): the read cannot be
            // resumed from, so it is not committed, and the cause is said.
            throw SourceReadError(operation: "saving the reader's state", detail: "\(error)")
        }
        self.init(
            device: device, inode: inode, size: size, modifiedNanoseconds: modifiedNanoseconds, offset: offset,
            headLength: headLength, headHash: headHash, tailHash: tailHash, stateData: data)
    }

    init(
        device: UInt64, inode: UInt64, size: Int64, modifiedNanoseconds: Int64, offset: Int64, headLength: Int64,
        headHash: String, tailHash: String, stateData: Data
    ) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
        self.offset = offset
        self.headLength = headLength
        self.headHash = headHash
        self.tailHash = tailHash
        self.stateData = stateData
    }

    /// A state holding nothing, as `JSONEncoder` encodes it: what most sources (those without running totals or
    /// variables) save, encoded once instead of once per source.
    private static let emptyStateData = (try? JSONEncoder().encode(SourceState())) ?? Data()

    /// The reader state to resume with. A state that does not decode is refused, never replaced by an
    /// empty one at the checkpoint's offset: the scanner reads the source from the start instead, and
    /// reports it (`SkipReason.damagedState`).
    public func state() throws(SourceReadError) -> SourceState {
        do {
            return try JSONDecoder().decode(SourceState.self, from: stateData)
        } catch {
            throw SourceReadError(operation: "resuming from the saved reader state", detail: "\(error)")
        }
    }
}

/// The part of a checkpoint a rescan compares a source's stat with (`SourceFingerprint.unchanged`).
public struct CheckpointStamp: Sendable, Equatable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var modifiedNanoseconds: Int64
}

extension Checkpoint {
    var stamp: CheckpointStamp {
        CheckpointStamp(device: device, inode: inode, size: size, modifiedNanoseconds: modifiedNanoseconds)
    }
}

extension SourceState {
    /// Nothing saved: no variable, no running total, no watermark.
    var isEmpty: Bool { variables.isEmpty && baselines.isEmpty && watermark == nil }
}

extension Checkpoint {
    /// What must not have changed under a read for its result to apply: where it started and what it read.
    var offsetAndIdentity: [String] {
        ["\(device)", "\(inode)", "\(offset)", headHash, tailHash]
    }
}
