#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Student's t distribution: its distribution function and quantiles, for any positive degrees of
/// freedom (not only whole ones).
///
/// The distribution function is written through the regularised incomplete beta function,
/// evaluated by its continued fraction (modified Lentz); the quantile inverts it by bisection.
public enum StudentT {
    /// P(T ≤ t) for `degrees` degrees of freedom.
    public static func cdf(_ t: Double, degrees: Double) -> Double {
        precondition(degrees > 0, "degrees of freedom must be positive")
        let tail = 0.5 * regularizedBeta(degrees / (degrees + t * t), degrees / 2, 0.5)
        return t >= 0 ? 1 - tail : tail
    }

    /// The t with P(T ≤ t) = `p`, for `degrees` degrees of freedom.
    public static func quantile(_ p: Double, degrees: Double) -> Double {
        precondition(p > 0 && p < 1, "p must lie strictly between 0 and 1")
        if p < 0.5 { return -quantile(1 - p, degrees: degrees) }
        var low = 0.0
        var high = 1.0
        while cdf(high, degrees: degrees) < p { high *= 2 }
        for _ in 0..<200 {
            let middle = (low + high) / 2
            if cdf(middle, degrees: degrees) < p { low = middle } else { high = middle }
            if high - low < 1e-12 * max(1, high) { break }
        }
        return (low + high) / 2
    }

    /// I_x(a, b), the regularised incomplete beta function.
    static func regularizedBeta(_ x: Double, _ a: Double, _ b: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        // Typed steps: as one expression, the overloads of lgamma, log and exp took seconds to type-check.
        let logGammas: Double = lgamma(a + b) - lgamma(a) - lgamma(b)
        let logPowers: Double = a * log(x) + b * log(1 - x)
        let front: Double = exp(logGammas + logPowers)
        // The continued fraction converges fast below the distribution's mean; above it, use the symmetry.
        if x < (a + 1) / (a + b + 2) { return front * continuedFraction(x, a, b) / a }
        return 1 - front * continuedFraction(1 - x, b, a) / b
    }

    /// The continued fraction of I_x(a, b), by the modified Lentz method.
    private static func continuedFraction(_ x: Double, _ a: Double, _ b: Double) -> Double {
        let tiny = 1e-300
        func guarded(_ value: Double) -> Double { abs(value) < tiny ? tiny : value }
        var c = 1.0
        var d = 1 / guarded(1 - (a + b) * x / (a + 1))
        var result = d
        for step in 1...500 {
            let m = Double(step)
            // The even step, then the odd one.
            let even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
            d = 1 / guarded(1 + even * d)
            c = guarded(1 + even / c)
            result *= d * c
            let odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
            d = 1 / guarded(1 + odd * d)
            c = guarded(1 + odd / c)
            let factor = d * c
            result *= factor
            if abs(factor - 1) < 1e-15 { break }
        }
        return result
    }
}
