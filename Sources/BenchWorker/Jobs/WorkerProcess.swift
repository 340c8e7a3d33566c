import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a program as a worker process and collects what it reports and how it ended.
///
/// The benchmark runs every parser in a worker (the worker executable beside `bench`,
/// ``workerExecutable()``, its ``WorkerJob`` on standard input), because a parser can crash the process (Foundation's `XMLParser` does, on
/// some inputs) and because `ru_maxrss` only ever grows within a process. The worker writes its
/// result to file descriptor ``resultDescriptor`` (3), so that nothing a library prints on standard
/// output can corrupt it. Its standard input is its job (or `/dev/null`), its standard output
/// `/dev/null`; the end of its standard error is kept for the report.
///
/// ```swift
/// let job = WorkerJob.verify(VerifyJob(parser: "expat", feed: path, chunkSizes: [0]))
/// let outcome = try WorkerProcess.run(WorkerCommand(executable: WorkerProcess.workerExecutable(), job: job),
///                                     timeout: 60)
/// if case .signaled(let signal) = outcome.termination { print("crashed with \(signalName(signal))") }
/// ```
package enum WorkerProcess {
    /// The descriptor on which a worker writes its result.
    package static let resultDescriptor: Int32 = 3

    /// The descriptor on which a worker may report progress, when its parent asked for it.
    package static let progressDescriptor: Int32 = 4

    /// How many bytes of a worker's standard error are kept (the end of it).
    package static let standardErrorLimit = 16 * 1024

    /// What a worker process did.
    package struct Outcome: Sendable {
        /// How the worker ended.
        package var termination: Termination
        /// Everything the worker wrote to ``WorkerProcess/resultDescriptor``.
        package var result: [UInt8]
        /// The end of the worker's standard error, as text.
        package var standardError: String
        /// `ru_maxrss` from `wait4`, in bytes: an upper bound only.
        ///
        /// On Linux a child spawned with file actions reports the parent's high-water mark too; workers report their own peak instead
        /// (``PeakMemory``).
        package var peakResidentBytes: Int
        /// The wall time from spawn to exit, in nanoseconds.
        package var elapsedNanoseconds: UInt64
        /// `monotonicNanoseconds()` just before the spawn (the machine's clock, which a worker reads too).
        package var startedNanoseconds: UInt64 = 0
    }

    /// How a worker ended.
    package enum Termination: Sendable, Equatable, CustomStringConvertible {
        /// It exited with this status.
        case exited(Int32)
        /// A signal killed it (a crash: SIGSEGV, SIGILL, SIGABRT, SIGTRAP, …).
        case signaled(Int32)
        /// It ran past its time limit and was killed.
        case timedOut(seconds: Double)
        /// It reported no progress for this long and was killed (see `idleTimeout`).
        case stalled(seconds: Double)
        /// Its resident memory passed the limit (``memoryLimitBytes``) and it was killed, or an
        /// allocation failed against it.
        case exceededMemory(limitBytes: Int)

        package var description: String {
            switch self {
            case .exited(let status): return "exited with status \(status)"
            case .signaled(let signal): return "crashed with signal \(signal) (\(signalName(signal)))"
            case .timedOut(let seconds): return "killed after exceeding the \(formatSeconds(seconds)) time limit"
            case .stalled(let seconds): return "killed after \(formatSeconds(seconds)) without progress"
            case .exceededMemory(let limit):
                return "killed after exceeding the \(WorkerProcess.formatBytes(limit)) memory limit"
            }
        }

        /// Whether the worker crashed (a signal it did not get from the harness), as opposed to
        /// being stopped by a limit or ending with a status.
        package var isCrash: Bool {
            if case .signaled = self { return true }
            return false
        }
    }

    /// A worker could not be started.
    package struct SpawnError: Error, CustomStringConvertible, Sendable {
        package var description: String
    }

    /// The running executable, to re-run it as a worker: the very file this process runs.
    ///
    /// On Linux this is `/proc/PID/exe` (this process's id): the kernel's link to the executable's
    /// file as it was when the process started, even after a rebuild has replaced or removed the
    /// file at its path. A worker started from the path instead would run whatever was linked
    /// there since, or fail with "Text file busy" while the linker writes it. Other programs that
    /// read the executable (objcopy for the counted worker) read the same file through it. What
    /// lives beside the executable is found from ``directory(ofExecutable:)``.
    package static func currentExecutable() -> String {
        #if os(Linux)
            let link = "/proc/\(getpid())/exe"
            if access(link, X_OK) == 0 { return link }
        #endif
        return resolvedExecutablePath() ?? CommandLine.arguments.first ?? "bench"
    }

    /// The file name of the worker executable, beside the running one: `bench-worker` for the
    /// suite's `bench`; an outside package names its own (`BenchTool.main(parsers:worker:)`).
    package static var workerName: String {
        get { workerNameValue.withLock { $0 } }
        set { workerNameValue.withLock { $0 = newValue } }
    }

    private static let workerNameValue = LockedValue("bench-worker")

    /// The worker executable every worker is started from: the file named ``workerName`` beside the
    /// running executable, as it was when it was first asked for.
    ///
    /// On Linux the file is opened once and workers start from `/proc/PID/fd/N` (this process's
    /// id), as ``currentExecutable()`` does for its own file: a rebuild that replaces the worker in
    /// the middle of a run cannot give half of its cells another build. Where the file is missing,
    /// its path is returned and starting a worker from it says so (``SpawnError``).
    package static func workerExecutable() -> String {
        opened(workerName, in: openedWorker)
    }

    /// Why the worker executable cannot be started, when it cannot: a command that starts workers
    /// says it before it does anything else (a `bench` copied without its `bench-worker`).
    package static func workerUnavailable() -> String? {
        let path = (directory(ofExecutable: currentExecutable()) as NSString).appendingPathComponent(workerName)
        guard access(path, X_OK) != 0 else { return nil }
        return "cannot start \(path): \(String(cString: strerror(errno)))" + workerHint
    }

    /// What a missing worker executable's error adds: what it is and how a package gets one.
    static let workerHint =
        " (the worker executable, built beside the tool: the suite's `bench` depends on its "
        + "`bench-worker` target; a package that measures its own parsers adds an executable target "
        + "whose main is `WorkerTool.main(parsers: [...])`, makes its tool's target depend on it and "
        + "names it in `BenchTool.main(parsers:worker:)`)"

    /// The file `name` beside the running executable, opened once (Linux) and kept in `cache`: its
    /// `/proc/PID/fd/N` link, or its path when it cannot be opened.
    private static func opened(_ name: String, in cache: LockedValue<(String, String)?>) -> String {
        cache.withLock { opened in
            let path = (directory(ofExecutable: currentExecutable()) as NSString).appendingPathComponent(name)
            if let (known, link) = opened, known == path { return link }
            #if os(Linux)
                let descriptor = open(path, O_RDONLY | O_CLOEXEC)
                if descriptor >= 0 {
                    let link = "/proc/\(getpid())/fd/\(descriptor)"
                    opened = (path, link)
                    return link
                }
            #endif
            return path
        }
    }

    private static let openedWorker = LockedValue<(String, String)?>(nil)

    /// The file name of the network worker beside the running executable, which runs the jobs
    /// that fetch over HTTP (``NetworkWork``): `bench-network-worker` for the suite's `bench`;
    /// `nil` for a tool without one.
    package static var networkWorkerName: String? {
        get { networkWorkerNameValue.withLock { $0 } }
        set { networkWorkerNameValue.withLock { $0 = newValue } }
    }

    private static let networkWorkerNameValue = LockedValue<String?>("bench-network-worker")

    /// A tool without a network worker asked to fetch.
    package struct NoNetworkWorker: Error, CustomStringConvertible, Sendable {
        package var description: String {
            "this tool has no network worker, which the scenarios that fetch over HTTP run in: a package adds an "
                + "executable target whose main is `NetworkWorkerTool.main(parsers: [...])` "
                + "(BenchNetworkWorker) and names it in `BenchTool.main(parsers:worker:networkWorker:)`"
        }
    }

    /// The network worker executable, opened once as ``workerExecutable()`` is.
    ///
    /// - Throws: ``NoNetworkWorker`` for a tool without one (``networkWorkerName`` is `nil`).
    package static func networkWorkerExecutable() throws -> String {
        guard let name = networkWorkerName else { throw NoNetworkWorker() }
        return opened(name, in: openedNetworkWorker)
    }

    private static let openedNetworkWorker = LockedValue<(String, String)?>(nil)

    /// The directory of `executable`, where SwiftPM builds the libraries a worker may preload
    /// (``WorkerLibrary``: the allocation interposer, the frozen clock).
    package static func directory(ofExecutable executable: String) -> String {
        (file(ofExecutable: executable) as NSString).deletingLastPathComponent
    }

    /// The path of `executable`'s file: a `/proc/PID/exe` link is followed to the file's path
    /// (without the " (deleted)" that Linux adds once the file is replaced).
    package static func file(ofExecutable executable: String) -> String {
        var path = executable
        #if os(Linux)
            if executable.hasPrefix("/proc/"), executable.hasSuffix("/exe") || executable.contains("/fd/"),
                let target = readLink(executable)
            {
                path = target
                if path.hasSuffix(" (deleted)") { path.removeLast(" (deleted)".count) }
            }
        #endif
        return path
    }

    /// The path of the running executable's file, when the system says it.
    private static func resolvedExecutablePath() -> String? {
        #if os(Linux)
            return readLink("/proc/self/exe")
        #else
            return nil
        #endif
    }

    /// The target of a symbolic link.
    private static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: Time limits

    /// The longest time limit a command takes for a worker, or for one iteration or document in it,
    /// in seconds: a day (a command's check refuses more; a limit beyond what the clock's
    /// nanoseconds hold would end `bench` by a trap, not the worker).
    package static let longestTimeLimit: Double = 86_400

    /// `seconds` in nanoseconds, or `nil` from 2⁶² ns (146 years) on, infinity included: no limit,
    /// where the clock's reading plus the figure would pass what `UInt64` holds; negative and NaN
    /// count as 0.
    static func nanoseconds(_ seconds: Double) -> UInt64? {
        let nanoseconds = seconds > 0 ? seconds * 1e9 : 0
        guard nanoseconds < 0x1p62 else { return nil }
        return UInt64(nanoseconds)
    }

    /// The monotonic clock `seconds` after `start`; `nil` beyond what it holds (no deadline).
    static func deadline(_ start: UInt64, plus seconds: Double) -> UInt64? {
        guard let nanoseconds = nanoseconds(seconds) else { return nil }
        let (deadline, overflow) = start.addingReportingOverflow(nanoseconds)
        return overflow ? nil : deadline
    }

    // MARK: Memory limit

    /// The memory every worker may use, in bytes, unless a command says otherwise
    /// (``memoryLimitBytes``): 4 GiB, several times what the largest real document's tree takes.
    package static let defaultMemoryLimitBytes = 4 << 30

    /// The memory limit of the workers this process starts from now on, in bytes (`nil`: none).
    ///
    /// A worker whose resident memory passes it is killed and its outcome is
    /// ``Termination/exceededMemory(limitBytes:)``: a parser that expands an entity a hundred
    /// thousand times, or builds a tree of a document too large, is reported as such instead of
    /// taking the machine's memory. The parent reads the worker's resident size every
    /// `memoryPollMilliseconds` (nothing runs in the worker for it), and the worker's data
    /// (`RLIMIT_DATA`, heap and private mappings) is limited to twice the figure, so that an
    /// allocation too large and too quick for the reading fails instead.
    package static var memoryLimitBytes: Int? {
        get { memoryLimit.withLock { $0 } }
        set { memoryLimit.withLock { $0 = newValue } }
    }

    /// How often the parent reads a worker's resident memory against the limit.
    static let memoryPollMilliseconds: Int32 = 50

    private static let memoryLimit = LockedValue<Int?>(defaultMemoryLimitBytes)

    /// `2147483648` → "2 GiB", `1610612736` → "1.5 GiB", `104857600` → "100 MiB".
    package static func formatBytes(_ bytes: Int) -> String {
        let gib = Double(bytes) / Double(1 << 30)
        if gib >= 1 { return gib == gib.rounded() ? "\(Int(gib)) GiB" : String(format: "%.1f GiB", gib) }
        let mib = Double(bytes) / Double(1 << 20)
        return mib == mib.rounded() ? "\(Int(mib)) MiB" : String(format: "%.1f MiB", mib)
    }

    /// Limits the data of process `pid` to `bytes` (Linux's `prlimit`, looked up at run time: the
    /// C library declares it only for GNU sources); `false` where that cannot be done.
    @discardableResult
    static func limitData(of pid: pid_t, toBytes bytes: Int) -> Bool {
        #if os(Linux)
            typealias PRLimit =
                @convention(c) (
                    pid_t, Int32, UnsafePointer<rlimit>?, UnsafeMutablePointer<rlimit>?
                ) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "prlimit") else { return false }
            let prlimit = unsafeBitCast(symbol, to: PRLimit.self)
            var limit = rlimit(rlim_cur: rlim_t(bytes), rlim_max: rlim_t(bytes))
            return prlimit(pid, Int32(RLIMIT_DATA.rawValue), &limit, nil) == 0
        #else
            return false
        #endif
    }

    /// The resident memory of process `pid` in bytes (`/proc/PID/statm`); `nil` where it cannot be read.
    static func residentBytes(of pid: pid_t) -> Int? {
        #if os(Linux)
            let descriptor = open("/proc/\(pid)/statm", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var buffer = [UInt8](repeating: 0, count: 128)
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            let fields = buffer[0..<count].split(separator: UInt8(ascii: " "))
            guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
            return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
            return nil
        #endif
    }

    /// Runs `command` and waits for it to end; see ``run(executable:arguments:input:environment:inheritsEnvironment:timeout:idleTimeout:progress:memoryLimit:)``.
    package static func run(
        _ command: WorkerCommand, timeout: Double? = nil, idleTimeout: Double? = nil, progress: ((Int) -> Void)? = nil
    ) throws -> Outcome {
        try run(
            executable: command.executable, arguments: command.arguments, input: command.input,
            environment: command.environment, inheritsEnvironment: command.inheritsEnvironment, timeout: timeout,
            idleTimeout: idleTimeout, progress: progress)
    }

    /// Runs `executable` with `arguments` and waits for it to end.
    ///
    /// - Parameters:
    ///   - executable: the program's path.
    ///   - arguments: its arguments, without the program name.
    ///   - input: written to its standard input before it starts, which then ends (at most the size
    ///     of a pipe's buffer, 1 MiB on Linux); `nil` gives it `/dev/null`.
    ///   - environment: variables to set on top of this process's environment. Swift's crash
    ///     backtracer is turned off in workers (`SWIFT_BACKTRACE=enable=no`) so that a crash ends
    ///     the worker at once; the allocation interposer is taken out of an inherited `LD_PRELOAD`
    ///     (``AllocationCounter``: a worker that counts sets its own in `environment`).
    ///   - inheritsEnvironment: `false` starts the worker with `environment` and
    ///     `SWIFT_BACKTRACE` only (a counted worker, whose start must not depend on the caller's
    ///     variables).
    ///   - timeout: kill the worker (SIGKILL) when it runs longer; `nil` waits for ever.
    ///   - idleTimeout: kill the worker when it writes nothing on ``progressDescriptor`` for this
    ///     long (a worker that runs many cases writes one byte per case: a hang costs one case).
    ///   - progress: when given, the worker gets a pipe on ``progressDescriptor`` (4) and this is called
    ///     with the number of bytes it has written there so far (a measuring worker writes one byte
    ///     per finished iteration, outside its timed region).
    ///   - memoryLimit: the resident memory at which the worker is killed, in bytes (its data is
    ///     limited to twice that); `nil` for none. Default: ``memoryLimitBytes``.
    /// - Returns: how it ended, its result bytes, the end of its standard error.
    /// - Throws: ``SpawnError`` when it cannot be started.
    ///
    /// Every worker learns its parent's process id (``parentVariable``): a `bench` worker ends as
    /// soon as its parent does (``endWithParent()``).
    package static func run(
        executable: String, arguments: [String], input: [UInt8]? = nil, environment: [String: String] = [:],
        inheritsEnvironment: Bool = true, timeout: Double? = nil, idleTimeout: Double? = nil,
        progress: ((Int) -> Void)? = nil, memoryLimit: Int? = memoryLimitBytes
    ) throws -> Outcome {
        // Interrupted (SIGINT, SIGTERM): no new worker; the command ends with what finished.
        if let signal = interruption { throw SpawnError(description: "interrupted by \(signalName(signal))") }
        let variables = workerEnvironment(environment, inheritsEnvironment: inheritsEnvironment)
        let started = monotonicNanoseconds()
        let worker = try start(
            executable: executable, arguments: arguments, input: input, environment: variables,
            progressPipe: progress != nil || idleTimeout != nil, dataLimit: memoryLimit.map { 2 * $0 })
        var reading = WorkerOutputs(
            worker, started: started, deadline: timeout.flatMap { deadline(started, plus: $0) },
            idleNanoseconds: idleTimeout.flatMap(nanoseconds), memoryLimit: memoryLimit)
        reading.readUntilClosed(progress: progress)
        var ended = reap(
            worker.pid, killing: reading.timedOut || reading.stalled || reading.exceededMemory,
            deadline: reading.deadline)
        ended.timedOut = ended.timedOut || reading.timedOut
        for fd in reading.open { close(fd) }
        noteEnded(worker.pid)
        let errorText = String(decoding: reading.errorTail.suffix(standardErrorLimit), as: UTF8.self)
        let termination: Termination
        if let memoryLimit, reading.exceededMemory || (ended.status != 0 && allocationFailed(errorText)) {
            termination = .exceededMemory(limitBytes: memoryLimit)
        } else if reading.stalled {
            termination = .stalled(seconds: idleTimeout ?? 0)
        } else if ended.timedOut {
            termination = .timedOut(seconds: timeout ?? 0)
        } else if ended.status & 0x7F == 0 {
            termination = .exited((ended.status >> 8) & 0xFF)
        } else {
            termination = .signaled(ended.status & 0x7F)
        }
        #if canImport(Darwin)
            let peak = Int(ended.usage.ru_maxrss)  // bytes on Darwin
        #else
            let peak = Int(ended.usage.ru_maxrss) * 1024  // KiB on Linux
        #endif
        return Outcome(
            termination: termination, result: reading.result,
            standardError: errorText, peakResidentBytes: peak, elapsedNanoseconds: monotonicNanoseconds() - started,
            startedNanoseconds: started)
    }

    /// Whether a worker's standard error says that an allocation failed (the Swift runtime's words
    /// when `malloc` returns nothing, as it does against the data limit; C++'s, a shell's, Python's).
    private static func allocationFailed(_ standardError: String) -> Bool {
        ["Could not allocate memory", "std::bad_alloc", "out of memory", "MemoryError"].contains {
            standardError.contains($0)
        }
    }

    /// The worker's environment: this process's (unless not inherited) without the allocation
    /// interposer, its parent's id, then `extra`.
    private static func workerEnvironment(_ extra: [String: String], inheritsEnvironment: Bool) -> [String: String] {
        var variables = inheritsEnvironment ? environmentVariables() : [:]
        variables["SWIFT_BACKTRACE"] = "enable=no"
        // Ten digits whatever the id: a counted worker's start must not depend on its length.
        let parent = String(getpid())
        variables[parentVariable] = String(repeating: "0", count: max(0, 10 - parent.count)) + parent
        // libc's malloc, not the allocation interposer, though this process was started with it
        // preloaded (see AllocationCounter); a worker that counts allocations, or runs under
        // callgrind, sets its own LD_PRELOAD.
        if let inherited = variables["LD_PRELOAD"] {
            let kept = inherited.split(separator: ":").filter {
                !$0.hasSuffix(WorkerLibrary.allocationInterposer.fileName)
            }
            variables["LD_PRELOAD"] = kept.isEmpty ? nil : kept.joined(separator: ":")
        }
        for (key, value) in extra { variables[key] = value }
        return variables
    }

    /// A started worker: its process id and the read ends of its result, standard error and
    /// (when asked) progress pipes.
    struct StartedWorker {
        var pid: pid_t
        var result: Int32
        var standardError: Int32
        var progress: Int32?
    }

    /// Starts the worker with its pipes; the whole of `input` is in its standard input's pipe first.
    private static func start(
        executable: String, arguments: [String], input: [UInt8]?, environment: [String: String], progressPipe: Bool,
        dataLimit: Int?
    ) throws -> StartedWorker {
        // Pipes are made close-on-exec with pipe() then fcntl(), which is not atomic: the lock keeps
        // a worker started from another thread meanwhile from inheriting this worker's pipe ends
        // (its reader would then wait for that other worker to exit).
        spawnLock.lock()
        defer { spawnLock.unlock() }
        var pipes: [(read: Int32, write: Int32)] = []
        var inputPipe: (read: Int32, write: Int32)?
        do {
            for _ in 0..<(progressPipe ? 3 : 2) { pipes.append(try makePipe()) }
            if let input {
                let pipe = try makePipe()
                inputPipe = pipe
                try fill(pipe.write, with: input)
                close(pipe.write)
            }
            let pid = try spawn(
                executable: executable, arguments: arguments, environment: environment, input: inputPipe?.read,
                descriptors: [(pipes[0].write, resultDescriptor), (pipes[1].write, 2)]
                    + (pipes.count > 2 ? [(pipes[2].write, progressDescriptor)] : []))
            // Before the worker has run any of its own code: it is still being loaded.
            if let dataLimit { limitData(of: pid, toBytes: dataLimit) }
            for pipe in pipes { close(pipe.write) }
            if let inputPipe { close(inputPipe.read) }
            noteRunning(pid)
            // Interrupted between the check below and the spawn: the handler saw no worker to kill.
            if interruptSignal != 0 { kill(pid, SIGKILL) }
            return StartedWorker(
                pid: pid, result: pipes[0].read, standardError: pipes[1].read,
                progress: pipes.count > 2 ? pipes[2].read : nil)
        } catch {
            for pipe in pipes {
                close(pipe.read)
                close(pipe.write)
            }
            if let inputPipe { close(inputPipe.read) }
            throw error
        }
    }

    /// Reaps the worker, killing it first when `killing`, or when it outlives `deadline`.
    private static func reap(
        _ pid: pid_t, killing: Bool, deadline: UInt64?
    ) -> (status: Int32, usage: rusage, timedOut: Bool) {
        var status: Int32 = 0
        var usage = rusage()
        var mustKill = killing
        var timedOut = false
        while true {
            if mustKill {
                kill(pid, SIGKILL)
                while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
                break
            }
            let reaped = wait4(pid, &status, WNOHANG, &usage)
            if reaped == pid { break }
            if reaped < 0 && errno != EINTR { break }
            if let deadline, monotonicNanoseconds() >= deadline {
                timedOut = true
                mustKill = true
                continue
            }
            usleep(1_000)
        }
        return (status, usage, timedOut)
    }

    // MARK: Helpers

    private static let spawnLock = NSLock()

    /// Notes `pid` in a free slot of ``runningWorkers`` (the caller holds `spawnLock`).
    private static func noteRunning(_ pid: pid_t) {
        for slot in 0..<runningWorkerSlots where runningWorkers[slot] == 0 {
            runningWorkers[slot] = pid
            return
        }
    }

    /// Frees `pid`'s slot of ``runningWorkers`` once it is reaped.
    private static func noteEnded(_ pid: pid_t) {
        spawnLock.lock()
        defer { spawnLock.unlock() }
        for slot in 0..<runningWorkerSlots where runningWorkers[slot] == pid { runningWorkers[slot] = 0 }
    }

    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        let status = pipe(&fds)
        if status == 0 {
            _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        }
        guard status == 0 else { throw SpawnError(description: "pipe failed: \(String(cString: strerror(errno)))") }
        return (fds[0], fds[1])
    }

    /// Writes all of `bytes` into a new pipe's buffer, before its reader exists (so no write can
    /// block or meet a reader that is gone); the buffer grows to fit where the system allows it.
    private static func fill(_ descriptor: Int32, with bytes: [UInt8]) throws {
        #if os(Linux)
            let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ (F_LINUX_SPECIFIC_BASE + 7), which Glibc does not export
            if bytes.count > 65_536 { _ = fcntl(descriptor, setPipeSize, Int32(clamping: bytes.count)) }
        #endif
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                throw SpawnError(
                    description:
                        "a worker's input of \(bytes.count) bytes does not fit in a pipe (\(written) written): "
                        + "give it less work at a time")
            }
            written += count
        }
    }

    private static func spawn(
        executable: String, arguments: [String], environment: [String: String], input: Int32?,
        descriptors: [(Int32, Int32)]
    ) throws -> pid_t {
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t? = nil
        #else
            var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        for (source, target) in descriptors { posix_spawn_file_actions_adddup2(&actions, source, target) }
        // Nothing else of this process: a descriptor some thread opened without close-on-exec (a
        // file being written, another worker's pipe end) would stay open in the worker for its whole
        // life — a copied executable that a worker holds open for writing cannot be run ("Text file
        // busy"), a pipe's reader waits for the worker to exit, and a counted worker's start would
        // depend on what else happened to be open.
        #if canImport(Glibc)
            if let closeFrom = closeFromAction {
                _ = closeFrom(&actions, descriptors.reduce(Int32(3)) { max($0, $1.1 + 1) })
            }
        #endif

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        // In a fixed order: a dictionary's order changes from one process to the next, and where each
        // variable lands changes how the worker's start-up allocates, and so, through the alignment of
        // what the parse allocates later, the instructions a counted parse takes.
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard status == 0 else {
            var description = "cannot start \(executable): \(String(cString: strerror(status)))"
            let name = (executable as NSString).lastPathComponent
            if status == ENOENT, name == workerName || name == networkWorkerName {
                description += workerHint
            }
            throw SpawnError(description: description)
        }
        return pid
    }

    #if canImport(Glibc)
        /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), looked up at run time
        /// as `prlimit` is (the C library declares it only for GNU sources); `nil` where it is missing.
        private static let closeFromAction:
            (
                @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
            )? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np").map {
                unsafeBitCast(
                    $0, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32).self)
            }
    #endif

    /// Whether a worker starts with its own descriptors only (0 to 2, the result and the progress
    /// pipes), whatever else this process has open: with glibc 2.34 or later. (Elsewhere a worker
    /// also holds what this process opened without close-on-exec, and one that finds a descriptor
    /// 4 open takes it for its progress pipe.)
    static var closesOtherDescriptors: Bool {
        #if canImport(Glibc)
            return closeFromAction != nil
        #else
            return false
        #endif
    }

    private static func environmentVariables() -> [String: String] {
        var variables: [String: String] = [:]
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            cursor += 1
        }
        return variables
    }
}

/// A value behind a lock.
final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

/// A set of paths behind a lock.
final class LockedPaths: @unchecked Sendable {
    private let lock = NSLock()
    private var paths: Set<String> = []

    func withLock<T>(_ body: (inout Set<String>) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&paths)
    }
}

/// The name of a signal ("SIGSEGV"), or "signal N" for one without a common name.
package func signalName(_ signal: Int32) -> String {
    switch signal {
    case SIGSEGV: return "SIGSEGV"
    case SIGILL: return "SIGILL"
    case SIGABRT: return "SIGABRT"
    case SIGBUS: return "SIGBUS"
    case SIGFPE: return "SIGFPE"
    case SIGTRAP: return "SIGTRAP"
    case SIGKILL: return "SIGKILL"
    case SIGTERM: return "SIGTERM"
    case SIGINT: return "SIGINT"
    default: return "signal \(signal)"
    }
}

/// A monotonic clock reading in nanoseconds (`CLOCK_MONOTONIC`).
package func monotonicNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

package func formatSeconds(_ seconds: Double) -> String {
    seconds == seconds.rounded() && abs(seconds) < 1e15 ? "\(Int(seconds)) s" : "\(seconds) s"
}
