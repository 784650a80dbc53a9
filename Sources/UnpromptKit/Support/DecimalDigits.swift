/// Integers written as decimal ASCII straight into a byte buffer, without making a `String` of them: identity
/// keys and exports write millions.
enum DecimalDigits {
    static func append(_ magnitude: UInt64, negative: Bool = false, to out: inout [UInt8]) {
        if negative { out.append(UInt8(ascii: "-")) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var rest = magnitude
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            out.append(contentsOf: digits[start...])
        }
    }
}
