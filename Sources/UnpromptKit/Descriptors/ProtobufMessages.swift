/// Protobuf messages a descriptor declares (`messages:`), by field number, so a `sqlite` column holding protobuf
/// bytes (`protobuf:` in a query) becomes JSON fields the normal paths read. Only declared fields are ever
/// decoded: a tool's undeclared text (prompts, paths) is skipped as bytes and never becomes a value.
public struct ProtobufMessage: Sendable, Equatable {
    /// In the order declared, which is the order of the JSON fields.
    public let fields: [ProtobufField]

    func field(number: UInt64) -> ProtobufField? { fields.first { UInt64($0.number) == number } }
}

public struct ProtobufField: Sendable, Equatable {
    public let name: String
    public let number: Int
    public let type: ProtobufFieldType
    /// Every occurrence kept, as a JSON array in wire order (scalars packed or not).
    public let repeated: Bool
}

public enum ProtobufFieldType: Sendable, Equatable {
    case scalar(ProtobufScalar)
    /// Length-delimited UTF-8 text.
    case string
    /// `google.protobuf.Timestamp` (seconds, nanos), as epoch milliseconds (read with `as: epoch_ms`).
    case timestamp
    /// Another declared message, by name.
    case message(String)
}

/// Protobuf's scalar types, by their wire encoding.
public enum ProtobufScalar: String, Sendable, CaseIterable {
    case uint64, int64, uint32, int32, bool, `enum`, sint32, sint64
    case fixed64, sfixed64, double, fixed32, sfixed32, float

    /// The wire type a single value is written with: 0 varint, 1 eight bytes, 5 four bytes.
    var wireType: UInt64 {
        switch self {
        case .uint64, .int64, .uint32, .int32, .bool, .enum, .sint32, .sint64: 0
        case .fixed64, .sfixed64, .double: 1
        case .fixed32, .sfixed32, .float: 5
        }
    }
}

/// The protobuf columns of one query: each column's root message, and every message the descriptor declares.
public struct ProtobufColumns: Sendable {
    public let roots: [String: String]
    public let messages: [String: ProtobufMessage]
}
