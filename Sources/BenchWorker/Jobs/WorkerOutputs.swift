import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a running worker writes: its result, the end of its standard error and its progress bytes,
/// read together until it closes them, its deadline passes or it stops making progress.
struct WorkerOutputs {
    let worker: WorkerProcess.StartedWorker
    /// When the worker must have finished (monotonic ns), if ever.
    let deadline: UInt64?
    /// How long the worker may write no progress byte, if it is watched.
    let idleNanoseconds: UInt64?
    /// The read ends still open.
    var open: [Int32]
    var result: [UInt8] = []
    /// The end of its standard error (at most twice ``WorkerProcess/standardErrorLimit`` bytes).
    var errorTail: [UInt8] = []
    var progressCount = 0
    var lastProgress: UInt64
    var timedOut = false
    var stalled = false
    /// The resident memory the worker may reach, in bytes, if it is watched.
    let memoryLimit: Int?
    /// Whether the worker's resident memory passed ``memoryLimit``.
    var exceededMemory = false

    init(
        _ worker: WorkerProcess.StartedWorker, started: UInt64, deadline: UInt64?, idleNanoseconds: UInt64?,
        memoryLimit: Int? = nil
    ) {
        self.worker = worker
        self.deadline = deadline
        self.idleNanoseconds = idleNanoseconds
        self.memoryLimit = memoryLimit
        self.open = [worker.result, worker.standardError] + (worker.progress.map { [$0] } ?? [])
        self.lastProgress = started
    }

    /// Reads every pipe until the worker closes them all, or until the deadline or the idle limit
    /// (then ``timedOut`` or ``stalled`` is set).
    mutating func readUntilClosed(progress: ((Int) -> Void)?) {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while !open.isEmpty {
            guard let waitMilliseconds = nextWait() else { break }
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), waitMilliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            for entry in fds where entry.revents != 0 {
                let count = chunk.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    take(chunk[0..<count], from: entry.fd, progress: progress)
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    close(entry.fd)
                    open.removeAll { $0 == entry.fd }
                }
            }
        }
    }

    /// How long the next poll may wait (-1: for ever); `nil` once the deadline, the idle limit or
    /// the memory limit has passed.
    private mutating func nextWait() -> Int32? {
        var waitMilliseconds: Int32 = -1
        if let memoryLimit {
            if let resident = WorkerProcess.residentBytes(of: worker.pid), resident > memoryLimit {
                exceededMemory = true
                return nil
            }
            waitMilliseconds = WorkerProcess.memoryPollMilliseconds
        }
        let now = monotonicNanoseconds()
        if let deadline {
            if now >= deadline {
                timedOut = true
                return nil
            }
            let left = Int32(min(1_000, (deadline - now) / 1_000_000 + 1))
            waitMilliseconds = waitMilliseconds < 0 ? left : min(waitMilliseconds, left)
        }
        if let idleNanoseconds {
            if now >= lastProgress + idleNanoseconds {
                stalled = true
                return nil
            }
            let left = Int32(min(1_000, (lastProgress + idleNanoseconds - now) / 1_000_000 + 1))
            waitMilliseconds = waitMilliseconds < 0 ? left : min(waitMilliseconds, left)
        }
        return waitMilliseconds
    }

    /// Keeps bytes read from `fd`: the result, a progress count, or the end of standard error.
    private mutating func take(_ bytes: ArraySlice<UInt8>, from fd: Int32, progress: ((Int) -> Void)?) {
        if fd == worker.result {
            result.append(contentsOf: bytes)
        } else if fd == worker.progress {
            progressCount += bytes.count
            lastProgress = monotonicNanoseconds()
            progress?(progressCount)
        } else {
            errorTail.append(contentsOf: bytes)
            if errorTail.count > 2 * WorkerProcess.standardErrorLimit {
                errorTail.removeFirst(errorTail.count - WorkerProcess.standardErrorLimit)
            }
        }
    }
}
