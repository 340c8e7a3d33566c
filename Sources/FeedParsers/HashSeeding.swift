#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether the parsers seed their hash tables with fixed values instead of random ones.
///
/// Random hash seeds protect a parser from inputs crafted to collide in its hash tables; they also
/// make the work of one parse differ a little from run to run, which an instruction counter sees.
/// The benchmark turns them off only where counts must repeat exactly (`bench run --counter
/// instructions`), with the same switch that fixes Swift's own seed: the environment variable
/// `SWIFT_DETERMINISTIC_HASHING`. Read once, when first asked.
package enum HashSeeding {
    /// `true` when `SWIFT_DETERMINISTIC_HASHING` is set to a non-empty value.
    package static let deterministic: Bool = {
        guard let value = getenv("SWIFT_DETERMINISTIC_HASHING") else { return false }
        return value.pointee != 0
    }()

    /// The fixed salt given to expat when ``deterministic`` is on.
    package static let expatSalt: UInt = 0x5EED_2012
}
