import Foundation

/// Parsed JSON reduced to values that compare exactly: every number as a Double (token counts fit). A fixture
/// case's `expected.json`, and the figures a run gives in the same shape.
public indirect enum FixtureJSON: Sendable, Equatable, CustomStringConvertible {
    case object([String: FixtureJSON])
    case array([FixtureJSON])
    case string(String)
    case number(Double)
    case null

    public init(parsing text: String) throws {
        self.init(try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]))
    }

    public init(contentsOf path: String) throws {
        self.init(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)), options: []))
    }

    public init(_ value: Any) {
        switch value {
        case let object as [String: Any]: self = .object(object.mapValues(FixtureJSON.init))
        case let array as [Any]: self = .array(array.map(FixtureJSON.init))
        case let string as String: self = .string(string)
        case let number as NSNumber: self = .number(number.doubleValue)
        default: self = .null
        }
    }

    public subscript(key: String) -> FixtureJSON? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    public var description: String {
        switch self {
        case .object(let object):
            return "{" + object.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
        case .array(let array): return "[" + array.map(\.description).joined(separator: ",") + "]"
        case .string(let string): return "\"\(string)\""
        case .number(let number): return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .null: return "null"
        }
    }
}
