/// A fixed reference workload that tells how fast the machine runs at a given moment.
///
/// On a shared host the whole machine can run 1.5× slower or faster for seconds at a time (every
/// parser at once). Timing this workload right before each parse, in the same thread, measures the
/// machine's speed at that moment; the parse's time divided by it (`Sample.calibratedTime`) no
/// longer moves with the machine, only with the parser. It runs no parser code, so a change to a
/// parser never changes it: a byte scan of a feed prefix with a tag-like state machine, a rolling
/// hash and small array appends, the mix of branches, loads and allocation that parsing is made of.
package enum Calibration {
    /// The bytes of the feed it scans (about 1 ms here).
    package static let bytes = 64 * 1024

    /// Times the workload once, ns (wall clock, outside any parse's timed region).
    package static func time(_ feed: UnsafeRawBufferPointer) -> Int {
        let start = monotonicNanoseconds()
        let result = work(UnsafeRawBufferPointer(rebasing: feed.prefix(bytes)))
        let end = monotonicNanoseconds()
        blackHole(result)
        return Int(end - start)
    }

    /// The workload: never inlined, so that it stays the same code whatever calls it.
    @inline(never)
    package static func work(_ bytes: UnsafeRawBufferPointer) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var depth = 0
        var names: [UInt64] = []
        names.reserveCapacity(64)
        var inTag = false
        var name: UInt64 = 0
        for pass in 0..<4 {
            for byte in bytes {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
                switch byte {
                case UInt8(ascii: "<"):
                    inTag = true
                    name = UInt64(pass)
                case UInt8(ascii: ">"):
                    inTag = false
                    // A short-lived allocation, as a parser makes for each name or text.
                    let text = [UInt8](repeating: byte, count: 24 + Int(name & 7))
                    depth += text.count
                    if names.count == 64 { names.removeAll(keepingCapacity: true) }
                    names.append(name)
                case UInt8(ascii: " "), UInt8(ascii: "/"):
                    if inTag { name = name &* 31 &+ hash & 0xff }
                default:
                    if inTag { name = name &* 131 &+ UInt64(byte) }
                }
            }
        }
        return Int(truncatingIfNeeded: hash) &+ depth &+ names.count
    }
}
