import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension WorkerProcess {
    /// Makes SIGINT and SIGTERM kill the running workers, remove what was registered with
    /// ``removeOnInterrupt(_:)``, then end this process by the same signal, so that interrupting
    /// `bench` never leaves a worker running on its own, nor a temporary file behind.
    ///
    /// For a command whose workers hold nothing to keep (`bench verify`, `sweep`, `conformance`,
    /// `hostile`). The handler only kills the workers and writes the signal's number to a pipe
    /// (both async-signal-safe); a thread waiting on that pipe does the rest.
    package static func killWorkerOnInterrupt() {
        installInterruptHandler(grace: nil)
    }

    /// Makes SIGINT and SIGTERM kill the running workers and start no other, and leaves the
    /// process to end itself: the caller sees ``interruption`` (its workers end at once, and
    /// ``run(executable:arguments:input:environment:inheritsEnvironment:timeout:idleTimeout:progress:memoryLimit:)``
    /// refuses to start another), keeps what finished, and exits with the signal's code.
    ///
    /// For `bench run`, which writes the cells that finished and says what the store holds. A
    /// second signal, or `grace` seconds without the process ending, ends it as
    /// ``killWorkerOnInterrupt()`` does (removing what was registered, by the same signal).
    ///
    /// - Parameters:
    ///   - grace: seconds the process has to end itself after the first signal: long, as writing
    ///     what finished takes a busy machine many times what it takes a quiet one (a second
    ///     signal ends it at once).
    ///   - notice: printed on standard error when the first signal arrives.
    package static func finishOnInterrupt(grace: Double = 180, notice: String = "") {
        interruptNotice.set(notice)
        installInterruptHandler(grace: grace)
    }

    /// The signal that interrupted this process (SIGINT, SIGTERM), once one did; `nil` before.
    package static var interruption: Int32? {
        let signal = interruptSignal
        return signal == 0 ? nil : signal
    }

    private static func installInterruptHandler(grace: Double?) {
        interruptSetup.lock()
        defer { interruptSetup.unlock() }
        // Made here, not in the handler: its first use allocates.
        _ = runningWorkers
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
                if let grace {
                    let notice = interruptNotice.get()
                    // Over the progress line, when standard error is a terminal.
                    let clear = isatty(STDERR_FILENO) == 1 ? "\r\u{1B}[2K" : ""
                    if !notice.isEmpty { FileHandle.standardError.write(Data((clear + notice + "\n").utf8)) }
                    // The caller ends the process; a second signal, or the grace run out, ends it here.
                    var poller = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
                    let deadline = Date().addingTimeInterval(grace)
                    while Date() < deadline {
                        let left = Int32(max(1, min(1000, deadline.timeIntervalSinceNow * 1000)))
                        if poll(&poller, 1, left) > 0 {
                            _ = read(reader, &byte, 1)
                            break
                        }
                    }
                }
                for path in pendingRemovals.withLock({ $0 }) { removeWhileWritten(path) }
                signal(Int32(byte), SIG_DFL)
                kill(getpid(), Int32(byte))
            }
            thread.start()
        }
        if grace == nil { endsOnInterrupt = true }
        signal(SIGINT, interruptHandler)
        signal(SIGTERM, interruptHandler)
        unblockTerminationSignals()
    }

    /// Removes `path` while the process may still be writing into it.
    ///
    /// The interrupted command's thread goes on until the signal ends the process: `path` is moved
    /// aside first, so that what it writes
    /// next fails instead of landing in the tree being removed, then removed, again while a file
    /// written meanwhile keeps the directory from going (a `bench hostile` interrupted while it
    /// wrote its corpus kept a third of it). Left half-removed after 20 tries, it keeps its owner's
    /// process id in its name (`ScratchDirectory` clears it later).
    private static func removeWhileWritten(_ path: String) {
        let files = FileManager.default
        let aside = path + ".removing"
        let target = rename(path, aside) == 0 ? aside : path
        for _ in 0..<20 {
            if (try? files.removeItem(atPath: target)) != nil || !files.fileExists(atPath: target) { return }
            usleep(10_000)
        }
    }

    /// Waits for the end of this process when a signal has come and the handler of
    /// ``killWorkerOnInterrupt()`` is ending it; returns at once otherwise.
    ///
    /// For the way out of a command: what failed once the signal had come (a worker killed, a file
    /// removed under its writer) is the interruption's doing, and the process ends by the signal,
    /// not with an error of its own, once what was registered is removed.
    package static func awaitInterruptedEnd() {
        guard interruption != nil, endsOnInterrupt else { return }
        while true { pause() }
    }

    /// Removes `path` if the process is interrupted (see ``killWorkerOnInterrupt()``) before
    /// ``forgetOnInterrupt(_:)``.
    package static func removeOnInterrupt(_ path: String) {
        _ = pendingRemovals.withLock { $0.insert(path) }
    }

    /// Undoes ``removeOnInterrupt(_:)`` (once the caller has removed `path` itself).
    package static func forgetOnInterrupt(_ path: String) {
        _ = pendingRemovals.withLock { $0.remove(path) }
    }

    /// Lets SIGINT and SIGTERM through: a process started from a Dispatch worker thread inherits a
    /// mask that blocks every signal, and would then ignore Ctrl-C and `kill`.
    package static func unblockTerminationSignals() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    private static let interruptHandler: @convention(c) (Int32) -> Void = { sig in
        // Only async-signal-safe calls here. The signal first: a worker started from now on is
        // killed by its starter (see `start`), every one started before by this handler.
        if WorkerProcess.interruptSignal == 0 { WorkerProcess.interruptSignal = sig }
        for slot in 0..<WorkerProcess.runningWorkerSlots {
            let pid = WorkerProcess.runningWorkers[slot]
            if pid > 0 { kill(pid, SIGKILL) }
        }
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
    private static let interruptNotice = LockedText()
    /// Whether the handler ends the process on a signal (``killWorkerOnInterrupt()``), rather than
    /// leave it to the command (``finishOnInterrupt(grace:notice:)``).
    nonisolated(unsafe) private static var endsOnInterrupt = false
    /// The first termination signal received, 0 before (one word, written by the signal handler).
    nonisolated(unsafe) static var interruptSignal: Int32 = 0

    // MARK: The worker's side

    /// The variable that tells a worker its parent's process id.
    package static let parentVariable = "BENCH_PARENT_PID"

    /// In a worker: ends this process as soon as the parent that started it ends (Linux's
    /// parent-death signal, SIGKILL), so that a killed `bench run` does not leave its worker finishing
    /// a cell for seconds.
    ///
    /// Ends at once if that parent is already gone.
    package static func endWithParent() {
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

    /// How many workers ``runningWorkers`` holds at most.
    ///
    /// More than ever run at once (a counted run's lanes, the download scenario's links). One
    /// beyond would still end with this process (``endWithParent()``), not with the signal.
    static let runningWorkerSlots = 64

    /// The workers being waited for, one process id a slot, 0 in a free one.
    ///
    /// Every one is killed by the signal handler. Workers run side by side (a counted run's two
    /// lanes): with one slot, Ctrl-C killed the worker started last and the run waited for the
    /// other to finish (a counted libxml2 worker of 50 parses: 68 s). Written under the spawning
    /// lock by the threads that start and reap them; made before the handler is installed.
    nonisolated(unsafe) static let runningWorkers: UnsafeMutablePointer<pid_t> = {
        let slots = UnsafeMutablePointer<pid_t>.allocate(capacity: runningWorkerSlots)
        slots.initialize(repeating: 0, count: runningWorkerSlots)
        return slots
    }()
}

/// A string shared between threads.
final class LockedText: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""

    func set(_ value: String) {
        lock.lock()
        defer { lock.unlock() }
        text = value
    }

    func get() -> String {
        lock.lock()
        defer { lock.unlock() }
        return text
    }
}
