#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A least-squares straight line `y = intercept + slope · x`, with how well it fits.
public struct LinearFit: Codable, Sendable, Equatable {
    public var slope: Double
    public var intercept: Double
    /// The coefficient of determination: 1 for points on the line, 0 for a line no better than the
    /// mean; `nil` when every y is the same (nothing to explain) or with two points (a line through
    /// two points always fits: it says nothing).
    public var rSquared: Double?
    /// Points fitted.
    public var points: Int

    /// Fits `y` against `x`; `nil` with fewer than two distinct x values.
    public init?(x: [Double], y: [Double]) {
        let pairs = zip(x, y).filter { $0.0.isFinite && $0.1.isFinite }
        guard pairs.count >= 2, Set(pairs.map(\.0)).count >= 2 else { return nil }
        let n = Double(pairs.count)
        let meanX = pairs.reduce(0) { $0 + $1.0 } / n
        let meanY = pairs.reduce(0) { $0 + $1.1 } / n
        let sxx = pairs.reduce(0) { $0 + ($1.0 - meanX) * ($1.0 - meanX) }
        let sxy = pairs.reduce(0) { $0 + ($1.0 - meanX) * ($1.1 - meanY) }
        let syy = pairs.reduce(0) { $0 + ($1.1 - meanY) * ($1.1 - meanY) }
        let b = sxy / sxx
        let a = meanY - b * meanX
        let residual = pairs.reduce(0.0) { total, pair in
            let error = pair.1 - (a + b * pair.0)
            return total + error * error
        }
        slope = b
        intercept = a
        rSquared = syy > 0 && pairs.count >= 3 ? 1 - residual / syy : nil
        points = pairs.count
    }

    /// The exponent `b` of `y ∝ x^b` (a straight line on log–log axes): 1 when the cost grows in
    /// proportion, 2 when it grows with the square.
    ///
    /// `nil` unless every x and y is positive.
    public static func exponent(x: [Double], y: [Double]) -> LinearFit? {
        guard x.allSatisfy({ $0 > 0 }), y.allSatisfy({ $0 > 0 }) else { return nil }
        return LinearFit(x: x.map { log($0) }, y: y.map { log($0) })
    }
}
