import Foundation
import Testing
@testable import UnpromptKit

/// Share codes: exactly what the person chose, read back exactly; a mistyped, cut, newer or malformed code is
/// refused.
struct ShareCodeTests {
    let friend = "0123456789abcdef"

    func code(_ name: String = "Ada", period: LocalCalendar.Period = .day, date: Int64 = 20_457, tokens: Int64 = 1_234_567)
        -> ShareCode
    {
        ShareCode(friend: friend, name: name, figures: ShareFigures(period: period, date: date, tokens: tokens, trend: 137), measure: .tokens)!
    }

    /// The code's bytes, from its text, by a decoder written here (Crockford base32 without the dashes).
    func bytes(_ text: String) -> [UInt8] {
        let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
        var bits: [Bool] = []
        for character in text.dropFirst(3) where character != "-" {
            let value = alphabet.firstIndex(of: character)!
            bits += (0..<5).map { value >> (4 - $0) & 1 == 1 }
        }
        return stride(from: 0, to: bits.count - 7, by: 8).map { start in
            (0..<8).reduce(UInt8(0)) { $0 << 1 | (bits[start + $1] ? 1 : 0) }
        }
    }

    @Test func aCodeHoldsExactlyWhatWasChosenAndNothingElse() throws {
        let code = code()
        #expect(code.text.hasPrefix("UP-"))
        let payload = bytes(code.text)
        // version, flags (a day, tokens), the friend id, the day 20457 and 1,234,567 in LEB128, "Ada", 4 checksum bytes.
        let expected: [UInt8] = [1, 0, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0xe9, 0x9f, 0x01, 0x87, 0xad, 0x4b, 3]
            + Array("Ada".utf8)
        #expect(Array(payload.prefix(expected.count)) == expected)
        #expect(payload.count == expected.count + 4, "nothing after the name but the checksum")
        let decoded = try ShareCode.decode(code.text)
        #expect(decoded == code)
        #expect(decoded.share == FriendShare(friend: friend, name: "Ada", period: .day, date: 20_457, tokens: 1_234_567, trend: nil))

        let trend = ShareCode(friend: friend, name: "Ada", figures: ShareFigures(period: .month, date: 24_314, tokens: 9, trend: 137), measure: .trend)!
        #expect(try ShareCode.decode(trend.text).share == FriendShare(friend: friend, name: "Ada", period: .month, date: 24_314, tokens: nil, trend: 137))
        #expect(ShareCode(friend: friend, name: "Ada", figures: ShareFigures(period: .day, date: 1, tokens: 9, trend: nil), measure: .trend) == nil)
    }

    @Test func aCodeIsReadAsAPersonTypesIt() throws {
        let code = code("Zoë d'Arc")
        #expect(try ShareCode.decode(code.text.lowercased()) == code)
        #expect(try ShareCode.decode(code.text.replacingOccurrences(of: "-", with: " ")) == code)
        #expect(try ShareCode.decode(" " + code.text.replacingOccurrences(of: "1", with: "l").replacingOccurrences(of: "0", with: "O") + "\n") == code)
    }

    func problem(_ text: String) -> ShareCodeProblem? {
        do {
            _ = try ShareCode.decode(text)
            return nil
        } catch {
            return error
        }
    }

    /// `payload` with a valid checksum, as text.
    func text(_ payload: [UInt8]) -> String { ShareCode.prefix + ShareCode.base32(payload + ShareCode.checksum(payload)) }

    @Test func aMistypedCutNewerOrMalformedCodeIsRefused() {
        let good = code().text
        var characters = Array(good)
        let last = characters.count - 1
        characters[last] = characters[last] == "A" ? "B" : "A"
        #expect(problem(String(characters)) == .mistyped)
        #expect(problem(String(good.dropLast(5))) == .mistyped)
        #expect(problem("UP-") == .mistyped)
        #expect(problem("UP-U000") == .mistyped, "U is no base32 character")
        #expect(problem("hello") == .notACode)

        var payload = bytes(good).dropLast(4).map { $0 }
        payload[0] = 2
        #expect(problem(text(payload)) == .newerVersion(2))
        payload[0] = 1
        #expect(problem(text(payload + [0])) == .malformed("it holds more than a name, a period and a number"))
        #expect(problem(text(Array(payload.dropLast(2)))) == .malformed("it ends inside the name"))
        var flags = payload
        flags[1] = 4
        #expect(problem(text(flags)) == .malformed("it holds flags this version does not know"))
        var name = payload
        name[name.count - 1] = 0x0A
        #expect(problem(text(name)) == .malformed("its name is not a name"))
    }

    @Test func aChosenNameIsShortAndPlain() {
        for name in ["Ada", "Zoë", "Jean-Luc O'Neil", "佐藤", "dev_42"] { #expect(ChosenName.problem(name) == nil, "\(name)") }
        for name in ["", " Ada", "Ada ", "A  B", "a\u{7}b", "a/b", "<script>", String(repeating: "x", count: 25)] {
            #expect(ChosenName.problem(name) != nil, "\(name)")
        }
    }

    @Test func aQRCodeIsMadeOfTheCode() throws {
        let matrix = try #require(QRMatrix(code().text))
        #expect(matrix.size >= 21 && (matrix.size - 17) % 4 == 0)
        // The three finder patterns: a dark 7×7 ring with a dark 3×3 centre, at three corners.
        for (x, y) in [(0, 0), (matrix.size - 7, 0), (0, matrix.size - 7)] {
            #expect(matrix[x, y] && matrix[x + 6, y + 6] && !matrix[x + 1, y + 1] && matrix[x + 3, y + 3])
        }
    }
}
