/// SplitMix64 (Steele, Lea and Flood, 2014): a small, fast, seedable generator whose output is the
/// same on every platform and Swift version, unlike the standard library's random sources (also the
/// `store` practice's fixed shuffle).
package struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        // Wrapping arithmetic is the algorithm's definition.
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0); the tiny modulo bias does not matter for test data.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    mutating func chance(percent: Int) -> Bool { below(100) < percent }

    mutating func pick<T>(_ values: [T]) -> T { values[below(values.count)] }
}
