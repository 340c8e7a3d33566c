import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension WorkerProcess {
    /// Makes SIGINT and SIGTERM kill the running worker, remove what was registered with
    /// ``removeOnInterrupt(_:)``, then end this process by the same signal, so that interrupting
    /// `bench` never leaves a worker running on its own, nor a temporary file behind.
    ///
    /// For a command that runs one worker at a time (`bench run`, `bench verify`). The handler only
    /// kills the worker and writes the signal's number to a pipe (both async-signal-safe); a thread
    /// waiting on that pipe does the rest.
    public static func killWorkerOnInterrupt() {
        interruptSetup.lock()
        defer { interruptSetup.unlock() }
        if interruptPipe.write < 0 {
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else { return }
            _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
            interruptPipe = (fds[0], fds[1])
            let reader = fds[0]
            let thread = Thread {
                var byte: UInt8 = 0
                while read(reader, &byte, 1) < 0 && errno == EINTR {}
                for path in pendingRemovals.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
                signal(Int32(byte), SIG_DFL)
                kill(getpid(), Int32(byte))
            }
            thread.start()
        }
        signal(SIGINT, interruptHandler)
        signal(SIGTERM, interruptHandler)
        unblockTerminationSignals()
    }

    /// Removes `path` if the process is interrupted (see ``killWorkerOnInterrupt()``) before
    /// ``forgetOnInterrupt(_:)``.
    public static func removeOnInterrupt(_ path: String) {
        _ = pendingRemovals.withLock { $0.insert(path) }
    }

    /// Undoes ``removeOnInterrupt(_:)`` (once the caller has removed `path` itself).
    public static func forgetOnInterrupt(_ path: String) {
        _ = pendingRemovals.withLock { $0.remove(path) }
    }

    /// Lets SIGINT and SIGTERM through: a process started from a Dispatch worker thread inherits a
    /// mask that blocks every signal, and would then ignore Ctrl-C and `kill`.
    public static func unblockTerminationSignals() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    private static let interruptHandler: @convention(c) (Int32) -> Void = { sig in
        // Only async-signal-safe calls here.
        let pid = WorkerProcess.activeWorker
        if pid > 0 { kill(pid, SIGKILL) }
        var byte = UInt8(truncatingIfNeeded: sig)
        if write(WorkerProcess.interruptPipe.write, &byte, 1) != 1 {
            signal(sig, SIG_DFL)
            raise(sig)
        }
    }

    /// The pipe from the signal handler to the thread that cleans up.
    nonisolated(unsafe) private static var interruptPipe: (read: Int32, write: Int32) = (-1, -1)
    private static let interruptSetup = NSLock()
    private static let pendingRemovals = LockedPaths()

    // MARK: The worker's side

    /// The variable that tells a worker its parent's process id.
    public static let parentVariable = "BENCH_PARENT_PID"

    /// In a worker: ends this process as soon as the parent that started it ends (Linux's
    /// parent-death signal, SIGKILL), so that a killed `bench run` does not leave its worker finishing
    /// a cell for seconds.
    ///
    /// Ends at once if that parent is already gone.
    public static func endWithParent() {
        guard let value = getenv(parentVariable), let parent = pid_t(String(cString: value)) else { return }
        #if os(Linux)
            // prctl(2) is variadic in C, which Swift does not import; its four arguments after the
            // option are integers (`unsigned long`), which the Linux ABIs pass as fixed arguments.
            typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
            let setParentDeathSignal: Int32 = 1  // PR_SET_PDEATHSIG
            if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "prctl") {
                _ = unsafeBitCast(symbol, to: Prctl.self)(setParentDeathSignal, UInt(SIGKILL), 0, 0, 0)
            }
        #endif
        if getppid() != parent { _exit(137) }
    }

    /// The worker being waited for, if any (read by the signal handler; one word, written by the
    /// spawning thread).
    nonisolated(unsafe) static var activeWorker: pid_t = 0
}
