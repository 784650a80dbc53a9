/// A share code: exactly what a person chose to show a friend, as text short enough to type, read out or
/// put in a QR code (`UP-` and groups of four Crockford base32 characters).
///
/// It holds the name they chose (`config set share-name`), the period (a day or a month) and its date, one
/// number (their tokens, or only their trend against their own 30-day average: `ShareFigures`), and their
/// friend id (random, made once per store, so a later code replaces an earlier one). Nothing else: no device,
/// no tool, no model, no time of making.
///
/// The bytes: version (1); flags (bit 0: a month, bit 1: the trend); the friend id (8 bytes); the date and the
/// number (unsigned LEB128); the name's length in bytes and the name (UTF-8); and a checksum, the first 4 bytes
/// of the SHA-256 of all the bytes before it. The checksum ends every version's code, so a mistyped or cut code
/// is refused as such before its version is read.
public struct ShareCode: Sendable, Equatable {
    public static let version: UInt8 = 1
    public static let prefix = "UP-"
    static let checksumBytes = 4
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)

    /// 16 lower-case hex digits.
    public let friend: String
    public let name: String
    public let period: LocalCalendar.Period
    public let date: Int64
    public let measure: ShareMeasure
    public let value: Int64

    /// A code of `figures`' `measure`, or nil when the figures do not have that number (no trend without a
    /// 30-day average).
    public init?(friend: String, name: String, figures: ShareFigures, measure: ShareMeasure) {
        guard let value = figures.value(measure) else { return nil }
        self.init(friend: friend, name: name, period: figures.period, date: figures.date, measure: measure, value: value)
    }

    init(friend: String, name: String, period: LocalCalendar.Period, date: Int64, measure: ShareMeasure, value: Int64) {
        self.friend = friend
        self.name = name
        self.period = period
        self.date = date
        self.measure = measure
        self.value = value
    }

    /// The friend's share, as the store keeps it.
    public var share: FriendShare {
        FriendShare(
            friend: friend, name: name, period: period, date: date, tokens: measure == .tokens ? value : nil,
            trend: measure == .trend ? value : nil)
    }

    // MARK: - Writing

    public var text: String {
        var bytes: [UInt8] = [Self.version, (period == .month ? 1 : 0) | (measure == .trend ? 2 : 0)]
        var id = friend.utf8.makeIterator()
        while let high = id.next(), let low = id.next() { bytes.append(Self.nibble(high)! << 4 | Self.nibble(low)!) }
        Self.append(UInt64(max(0, date)), to: &bytes)
        Self.append(UInt64(max(0, value)), to: &bytes)
        bytes.append(UInt8(name.utf8.count))
        bytes += name.utf8
        bytes += Self.checksum(bytes)
        let characters = Self.base32(bytes)
        var groups: [String] = []
        var index = characters.startIndex
        while index < characters.endIndex {
            let end = characters.index(index, offsetBy: 4, limitedBy: characters.endIndex) ?? characters.endIndex
            groups.append(String(characters[index..<end]))
            index = end
        }
        return Self.prefix + groups.joined(separator: "-")
    }

    // MARK: - Reading

    /// Reads a code as a person may type it: any case, with or without the dashes and spaces; `I` and `L` are
    /// read as 1 and `O` as 0.
    public static func decode(_ text: String) throws(ShareCodeProblem) -> ShareCode {
        var characters = Substring(text.uppercased().filter { $0 != "-" && $0 != " " && !$0.isNewline && $0 != "\t" })
        guard characters.hasPrefix("UP") else { throw .notACode }
        characters = characters.dropFirst(2)
        guard let bytes = bytes(base32: characters), bytes.count > checksumBytes else { throw .mistyped }
        let body = Array(bytes.dropLast(checksumBytes))
        guard Array(bytes.suffix(checksumBytes)) == checksum(body) else { throw .mistyped }
        guard body[0] == version else { throw body[0] > version ? .newerVersion(Int(body[0])) : .malformed("its version is 0") }
        var reader = body[1...].makeIterator()
        guard let flags = reader.next(), flags & ~3 == 0 else { throw .malformed("it holds flags this version does not know") }
        var friend = ""
        for _ in 0..<8 {
            guard let byte = reader.next() else { throw .malformed("it ends inside the friend id") }
            friend += String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16)
        }
        guard let date = read(&reader), let value = read(&reader), date < 1 << 40, value < 1 << 62 else {
            throw .malformed("its date or number is cut or out of range")
        }
        guard let length = reader.next() else { throw .malformed("it ends before the name") }
        var name: [UInt8] = []
        for _ in 0..<length {
            guard let byte = reader.next() else { throw .malformed("it ends inside the name") }
            name.append(byte)
        }
        guard reader.next() == nil else { throw .malformed("it holds more than a name, a period and a number") }
        guard let nameText = String(validating: name, as: UTF8.self), ChosenName.problem(nameText) == nil else {
            throw .malformed("its name is not a name")
        }
        return ShareCode(
            friend: friend, name: nameText, period: flags & 1 == 1 ? .month : .day, date: Int64(date),
            measure: flags & 2 == 2 ? .trend : .tokens, value: Int64(value))
    }

    static func checksum(_ bytes: [UInt8]) -> [UInt8] {
        let hex = Array(SHA256.hex(bytes).utf8.prefix(checksumBytes * 2))
        return stride(from: 0, to: hex.count, by: 2).map { nibble(hex[$0])! << 4 | nibble(hex[$0 + 1])! }
    }

    static func nibble(_ ascii: UInt8) -> UInt8? {
        switch ascii {
        case 48...57: ascii - 48
        case 97...102: ascii - 87
        default: nil
        }
    }

    static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    static func read(_ reader: inout IndexingIterator<ArraySlice<UInt8>>) -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while let byte = reader.next(), shift < 63 {
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }

    /// Crockford base32, most significant bit first; the last character is padded with zero bits.
    static func base32(_ bytes: [UInt8]) -> String {
        var characters: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = buffer << 8 | UInt32(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                characters.append(alphabet[Int((buffer >> UInt32(bits)) & 31)])
            }
        }
        if bits > 0 { characters.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return String(decoding: characters, as: UTF8.self)
    }

    /// The bytes of base32 text; nil for a character outside the alphabet, or padding bits that are not zero.
    static func bytes(base32 text: Substring) -> [UInt8]? {
        var bytes: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for character in text.utf8 {
            let symbol: UInt8
            switch character {
            case UInt8(ascii: "I"), UInt8(ascii: "L"): symbol = 1
            case UInt8(ascii: "O"): symbol = 0
            default:
                guard let index = alphabet.firstIndex(of: character) else { return nil }
                symbol = UInt8(index)
            }
            buffer = (buffer << 5 | UInt32(symbol)) & 0xFFFF
            bits += 5
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8((buffer >> UInt32(bits)) & 0xFF))
            }
        }
        guard bits < 5, buffer & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return bytes
    }
}

/// Why a share code was refused. Nothing is added.
public enum ShareCodeProblem: Error, Sendable, Equatable {
    /// It does not start with `UP-`.
    case notACode
    /// Its checksum does not match: a character mistyped, missing or added.
    case mistyped
    /// Made by a newer version of unprompt-scan.
    case newerVersion(Int)
    /// Its checksum matches but its content does not read.
    case malformed(String)

    public var message: String {
        switch self {
        case .notACode: "this is not a share code (a share code starts with UP-)"
        case .mistyped: "this share code is mistyped or incomplete: its checksum does not match"
        case .newerVersion(let version):
            "this share code was made by a newer version of unprompt-scan (code version \(version); this one reads \(ShareCode.version)); update to add it"
        case .malformed(let reason): "this share code does not read: \(reason)"
        }
    }
}
