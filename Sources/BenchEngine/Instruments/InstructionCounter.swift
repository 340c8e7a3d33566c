import BenchWorker
import BenchResults
import CCallgrind
import Foundation

/// Counts the instructions of each parse with valgrind's callgrind, for `bench run --counter
/// instructions`: a figure that repeats exactly, where wall time on a shared machine moves by 15%.
///
/// Its cache simulation (`cacheSimulation`) gives each parse's estimated cycles beside
/// (``estimatedCycles(_:)``), as exact.
///
/// A measuring worker runs under callgrind with collection off at the start and toggled on and off
/// around `MeasureWorker` 's parse function (`--toggle-collect`), and a dump after each call of it
/// (`--dump-after`), so that dump *k* holds exactly the instructions of the *k*-th parse: the
/// harness, the feed's reading and the worker's start are not counted. To make two runs count the
/// same, the worker gets:
/// - `SWIFT_DETERMINISTIC_HASHING=1` (Swift's hash seed; the parsers fix theirs too: expat's salt,
///   see `HashSeeding`);
/// - a frozen `time()`: libxml2 2.9 seeds its dictionaries' hashes from `time(NULL)` and has no other
///   switch. The package builds `libFrozenClock.so` beside `bench`
///   (`Sources/BenchWorkerLibraries/FrozenClock`, a `WorkerLibrary`: no process links it); the
///   counted worker preloads it with `BENCH_FROZEN_TIME` set, and every other process keeps the real
///   time (the monotonic clock and `clock_gettime` are never touched). Without it beside the
///   executable, ``prepare(executable:)`` says which file is missing, where it looked and how to get
///   it;
/// - no address randomisation (`setarch -R`).
///
/// valgrind 3.19 cannot read the debug information of Swift 6.3 binaries ("Possibly corrupted
/// debuginfo file"), so the worker is a copy of the executable made with `objcopy --strip-debug`
/// (symbols kept), and `nm` finds the parse function's mangled name in it (callgrind's
/// `--dump-after` takes no wildcard).
package struct InstructionCounter: Sendable {
    /// `valgrind`.
    package var valgrind: String
    /// `setarch`, to turn address randomisation off, when there is one.
    package var setarch: String?
    /// The frozen clock's library, copied into ``directory``.
    package var frozenClockLibrary: String
    /// The stripped copy of the executable the workers run.
    package var executable: String
    /// The name of the tool whose worker the copy was made of (`bench`, or an outside package's own).
    ///
    /// It is its functions' object in the profiles: the worker executable is the tool's part that
    /// parses, and profiles made before it was apart named the tool, so their functions compare.
    package var executableName: String = "bench"
    /// Whether each counted cell keeps the profile of one counted parse (`CellProfile`): `true`
    /// unless `--no-profiles`.
    package var keepsProfiles = true
    /// The mangled name of the parse function.
    package var symbol: String
    /// The mangled names of the functions a parser runs on a thread of its own (`callgrindThreadRegion`).
    package var threadSymbols: [String] = []
    /// Where the copy and the dumps go (removed by ``remove()``).
    package var directory: String

    /// The part of the worker's name that callgrind counts.
    static let regionName = "callgrindParseRegion"

    /// The part of the name of a function that a parser runs on a thread of its own (the parse of
    /// `foundation-stream`): callgrind's collection is per thread, so it is toggled there too, and the
    /// parse's dump holds both threads' instructions.
    static let threadRegionName = "callgrindThreadRegion"

    /// The pattern `--toggle-collect` is given, for the parse function and the thread functions.
    ///
    /// It matches nothing else (checked in ``prepare(executable:)``). valgrind 3.19 does not
    /// honour two `--toggle-collect` options (the first is ignored); one pattern works.
    static let togglePattern = "*callgrind*Region*"

    /// What the names above and every name the pattern matches have in them: nm's lines without it
    /// are not read.
    static let symbolWord = "callgrind"

    /// What instruction counting needs and could not find.
    package struct Unavailable: Error, CustomStringConvertible, Sendable {
        package var description: String
    }

    /// Finds the tools, makes the stripped copy of `executable` in a new temporary directory and finds
    /// the parse function in it.
    ///
    /// - Throws: ``Unavailable`` naming what is missing and how to install it.
    package static func prepare(executable: String) throws -> InstructionCounter {
        let install = "(Debian: apt-get install valgrind binutils)"
        guard let valgrind = findExecutable("valgrind") else {
            throw Unavailable(description: "instruction counts need valgrind, which is not installed \(install)")
        }
        guard let objcopy = findExecutable("objcopy"), let nm = findExecutable("nm") else {
            throw Unavailable(description: "instruction counts need objcopy and nm from binutils \(install)")
        }
        let clock = frozenClockLibrary(besideExecutable: executable)
        if let missing = WorkerLibrary.frozenClock.missing(besideExecutable: executable) {
            throw Unavailable(description: missing)
        }
        // A name of fixed length: the worker's path is in its arguments, and their length moves
        // what the process allocates before the parse, hence the alignment its copies meet (a 9-digit
        // random number instead of a 10-digit one changed expat's count by ~2,000 instructions).
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("bench-callgrind-" + Self.hex16(UInt64.random(in: 0...UInt64.max))).path
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            // Ctrl-C must not leave a 30 MB copy behind (see WorkerProcess.killWorkerOnInterrupt()).
            WorkerProcess.removeOnInterrupt(directory)
        } catch {
            throw Unavailable(description: "cannot create \(directory): \(error.localizedDescription)")
        }
        let copy = (directory as NSString).appendingPathComponent("bench-stripped")
        let stripped = try tool(objcopy, ["--strip-debug", executable, copy])
        guard stripped.status == 0 else {
            try? FileManager.default.removeItem(atPath: directory)
            throw Unavailable(description: "objcopy --strip-debug \(executable) failed: \(stripped.error)")
        }
        // The frozen clock is preloaded by a path of fixed length, in the directory: the path is in
        // the worker's environment, whose length moves the count (a clone elsewhere must count the same).
        let frozenClock = (directory as NSString).appendingPathComponent(frozenClockName)
        do {
            try FileManager.default.copyItem(atPath: clock, toPath: frozenClock)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw Unavailable(description: "cannot copy \(clock) to \(directory): \(error.localizedDescription)")
        }
        let listed = try tool(nm, [copy])
        let names = lines(of: listed.output, containing: symbolWord).compactMap {
            $0.split(separator: " ").last.map(String.init)
        }
        let symbols = names.filter { $0.contains(regionName) }
        let threadSymbols = names.filter { $0.contains(threadRegionName) }
        guard symbols.count == 1, let symbol = symbols.first else {
            try? FileManager.default.removeItem(atPath: directory)
            throw Unavailable(
                description: "expected one function named like \(regionName) in \(executable), found \(symbols.count)")
        }
        let toggled = names.filter { fnmatch(togglePattern, $0, 0) == 0 }
        guard Set(toggled) == Set([symbol] + threadSymbols) else {
            try? FileManager.default.removeItem(atPath: directory)
            throw Unavailable(
                description: "the pattern \(togglePattern) matches other functions than the parse's in \(executable): "
                    + toggled.filter { $0 != symbol && !threadSymbols.contains($0) }.prefix(3).joined(separator: ", "))
        }
        return InstructionCounter(
            valgrind: valgrind, setarch: findExecutable("setarch"), frozenClockLibrary: frozenClock, executable: copy,
            executableName: Self.name(ofExecutable: WorkerProcess.currentExecutable()), symbol: symbol,
            threadSymbols: threadSymbols,
            directory: directory)
    }

    /// What to spawn to run the measuring `job` under callgrind, dumping to `outputPrefix`.1, .2 and on.
    ///
    /// Everything the worker's start-up copies is the same from one run to the next: its environment
    /// is exactly the variables below (nothing inherited: a longer `PWD` or user name would move
    /// the heap), its path has a fixed length, and it reads the feed through a link of fixed length
    /// in ``directory``, named in a job whose bytes are then the same every time.
    ///
    /// - Throws: ``Unavailable`` when the feed's link cannot be made.
    package func command(_ job: MeasureJob, outputPrefix: String) throws -> WorkerCommand {
        var job = job
        job.feed = try feedLink(job.feed)
        let callgrind =
            [
                valgrind, "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=\(Self.togglePattern)",
                "--dump-after=\(symbol)",
            ] + (Self.startsInstrumenting ? ["--instr-atstart=no"] : []) + Self.cacheSimulation + [
                "--callgrind-out-file=\(outputPrefix)", "--dump-instr=no", "--compress-strings=no", executable,
                WorkerCommand.workerArgument,
            ]
        let environment = [
            "SWIFT_DETERMINISTIC_HASHING": "1",
            "LD_PRELOAD": frozenClockLibrary,
            Self.frozenTimeVariable: Self.frozenTime, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
        ]
        let input = WorkerJob.measure(job).encoded()
        if let setarch {
            return WorkerCommand(
                executable: setarch, arguments: ["-R"] + callgrind, input: input, environment: environment,
                inheritsEnvironment: false)
        }
        return WorkerCommand(
            executable: valgrind, arguments: Array(callgrind.dropFirst()), input: input, environment: environment,
            inheritsEnvironment: false)
    }

    /// A link of fixed length in ``directory`` to `feed` (made once per feed).
    ///
    /// Cells run in parallel and ask for the same feed's link at once. Each makes its own link under
    /// a fresh name and renames it into place (`rename(2)` replaces atomically), so none finds the
    /// link missing or half made. (Removing and re-creating the link raced: the loser got an error,
    /// and its worker read the feed by its own path, a different length that moved the count.)
    ///
    /// - Throws: ``Unavailable`` when the link cannot be made.
    func feedLink(_ feed: String) throws -> String {
        let absolute = feed.hasPrefix("/") ? feed : FileManager.default.currentDirectoryPath + "/" + feed
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in absolute.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let link = (directory as NSString).appendingPathComponent("feed-" + Self.hex16(hash))
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == absolute { return link }
        let fresh = link + "-" + Self.hex16(UInt64.random(in: 0...UInt64.max))
        guard symlink(absolute, fresh) == 0, rename(fresh, link) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(fresh)
            throw Unavailable(description: "cannot link the feed \(absolute) at \(link): \(reason)")
        }
        return link
    }

    /// `value` as 16 hexadecimal digits.
    static func hex16(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Whether the worker starts callgrind's instrumentation itself, just before its first parse
    /// (`--instr-atstart=no`; `MeasureWorker` asks for it through valgrind's client request): its
    /// start-up (the dynamic linker's work on some 60 libraries, the runtime's, the job's reading)
    /// then runs at valgrind's lightest rather than through the cache simulation: a debug build's
    /// counted run of four document cells took 10.5–10.9 s of CPU, against 13.5–16.8 s (2026-11-28).
    ///
    /// No instruction count changes: the counted region is the same. The cache simulation starts
    /// with empty caches that the warm-up parse fills (estimated cycles moved by 0.003%). A build
    /// made where valgrind's header was missing cannot ask, and its workers are instrumented from
    /// the start.
    static let startsInstrumenting = bench_callgrind_requests_built() != 0

    /// callgrind's cache simulation, with the caches' geometry fixed rather than read from the host's
    /// CPU: the I1 and D1 caches 32 KiB, 8-way, the last level 8 MiB, 16-way, lines of 64 bytes (the
    /// geometry CodSpeed's simulation uses), so that two machines count the same misses.
    ///
    /// The simulation adds events (``ParseCounts``) and changes no instruction count (`Ir`).
    static let cacheSimulation = [
        "--cache-sim=yes", "--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64",
    ]

    /// How many times a timed worker's time limit a counted worker gets: the cache simulation makes
    /// callgrind about 1.5 times slower (a release run of expat: 18.5 s of CPU with it, 12.8 s
    /// without), and a debug build's counted libxml2 worker overran 120 s on a busy machine.
    static let timeLimitFactor = 2.0

    /// What callgrind counted in one parse: its instructions and its estimated cycles.
    package struct ParseCounts: Sendable, Equatable {
        package var instructions: Int
        /// ``estimatedCycles(_:)`` of the parse's events; `nil` when the dump has no cache events.
        package var estimatedCycles: Int?
    }

    /// The instructions and estimated cycles of each parse, in order, from the dumps
    /// `outputPrefix`.1 to `outputPrefix`.`count`.
    ///
    /// The dumps are removed once read.
    package static func counts(outputPrefix: String, count: Int) throws -> [ParseCounts] {
        try read(outputPrefix: outputPrefix, count: count, measured: 0).counts
    }

    /// What a counted worker's dumps hold: each parse's counts, and the profiles of its measured parses.
    struct Dumps {
        var counts: [ParseCounts]
        /// The profiles of the first ``profiledParses`` measured parses, each with its number among
        /// them (from 1): a parse's count can differ from the next one's by its place in the
        /// worker (libxml2's dictionary grows over parses), so two sides are compared parse by parse.
        var profiles: [(parse: Int, profile: ParseProfile)] = []
        /// Why a measured parse has no profile, when its dump's counts were read but its functions
        /// could not be.
        var profileProblem: String?
    }

    /// The measured parses whose profiles a worker keeps, at most.
    static let profiledParses = 2

    /// The counts of the dumps `outputPrefix`.1 to `outputPrefix`.`count`, the last `measured` of
    /// them the measured parses, and the profiles of the first ``profiledParses`` of those (``Dumps``).
    ///
    /// The dumps are removed once read.
    func dumps(outputPrefix: String, count: Int, measured: Int) throws -> Dumps {
        try Self.read(
            outputPrefix: outputPrefix, count: count, measured: keepsProfiles ? measured : 0, executable: executable,
            executableName: executableName)
    }

    static func read(
        outputPrefix: String, count: Int, measured: Int, executable: String? = nil,
        executableName: String = "executable"
    ) throws -> Dumps {
        var texts: [String] = []
        defer {
            for index in 1...max(1, count) { try? FileManager.default.removeItem(atPath: "\(outputPrefix).\(index)") }
        }
        let counts = try (1...max(1, count)).map { index in
            let path = "\(outputPrefix).\(index)"
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw Unavailable(description: "callgrind wrote no dump \(index) of \(count) (\(path))")
            }
            guard let counts = parseCounts(dump: text) else {
                throw Unavailable(description: "callgrind's dump \(path) has no totals line")
            }
            texts.append(text)
            return counts
        }
        var dumps = Dumps(counts: counts)
        let measuredOffsets = Array(counts.indices.suffix(min(measured, counts.count)))
        for (number, offset) in measuredOffsets.prefix(profiledParses).enumerated() {
            do {
                let profile = try CallgrindDump.profile(
                    texts[offset], executable: executable, executableName: executableName)
                dumps.profiles.append((number + 1, profile))
            } catch {
                dumps.profileProblem = "callgrind's dump \(outputPrefix).\(offset + 1): \(error)"
            }
        }
        return dumps
    }

    /// One dump's counts, from its `events:` line (the events' names) and its `totals:` line (their
    /// values, in that order; callgrind leaves out trailing zeros); `nil` without a count of `Ir`.
    static func parseCounts(dump text: String) -> ParseCounts? {
        let lines = text.split(separator: "\n")
        func fields(_ prefix: String) -> [Substring]? {
            lines.first { $0.hasPrefix(prefix) }.map { Array($0.split(separator: " ").dropFirst()) }
        }
        guard let totals = fields("totals:")?.map({ Int($0) }), !totals.contains(nil) else { return nil }
        let names = fields("events:") ?? ["Ir"]
        var events: [String: Int] = [:]
        for (offset, name) in names.enumerated() { events[String(name)] = offset < totals.count ? totals[offset] : 0 }
        guard let instructions = events["Ir"] else { return nil }
        return ParseCounts(instructions: instructions, estimatedCycles: estimatedCycles(events))
    }

    /// The cycles a parse would take by Itamar Turner-Trauring's model of a CPU with two levels of cache.
    ///
    /// An access that hits L1 costs 1 cycle, one that hits the last level 5, one that goes to RAM 35
    /// ("CI for performance: Reliable benchmarking in noisy environments",
    /// https://pythonspeed.com/articles/consistent-benchmarking-in-ci/). It is the "estimated cycles"
    /// of iai-callgrind (now Gungraun) and of the `calliper` crate, and the figure CodSpeed's CPU
    /// simulation reports.
    ///
    /// From callgrind's cache events: accesses = Ir + Dr + Dw; L1 misses = I1mr + D1mr + D1mw; RAM
    /// hits (last-level misses) = ILmr + DLmr + DLmw; L1 hits = accesses − L1 misses; last-level
    /// hits = L1 misses − RAM hits; cycles = L1 hits + 5 × last-level hits + 35 × RAM hits.
    /// `nil` when an event is missing (callgrind ran without `--cache-sim=yes`).
    package static func estimatedCycles(_ events: [String: Int]) -> Int? {
        let names = ["Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw"]
        let values = names.compactMap { events[$0] }
        guard values.count == names.count else { return nil }
        let accesses = values[0] + values[1] + values[2]
        let l1Misses = values[3] + values[4] + values[5]
        let ramHits = values[6] + values[7] + values[8]
        let l1Hits = accesses - l1Misses
        let lastLevelHits = l1Misses - ramHits
        return l1Hits + 5 * lastLevelHits + 35 * ramHits
    }

    /// The file name of `executable`, through any link (`/proc/self/exe` names `bench`).
    static func name(ofExecutable executable: String) -> String {
        guard let resolved = realpath(executable, nil) else { return (executable as NSString).lastPathComponent }
        defer { free(resolved) }
        return (String(cString: resolved) as NSString).lastPathComponent
    }

    /// Removes the copy and any dump left.
    package func remove() {
        try? FileManager.default.removeItem(atPath: directory)
        WorkerProcess.forgetOnInterrupt(directory)
    }

    package static func findExecutable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// The file name of the frozen clock's library (`Sources/BenchWorkerLibraries/FrozenClock`,
    /// compiled by the WorkerLibraries plugin).
    package static let frozenClockName = WorkerLibrary.frozenClock.fileName

    /// The variable that freezes `time()` in a process that has the frozen clock loaded first.
    static let frozenTimeVariable = "BENCH_FROZEN_TIME"

    /// The second `time()` returns in a counted worker: 2012-05-15 00:00:00 UTC.
    static let frozenTime = "1337040000"

    /// Where SwiftPM puts the frozen clock's library: beside `executable`.
    static func frozenClockLibrary(besideExecutable executable: String) -> String {
        WorkerLibrary.frozenClock.path(besideExecutable: executable)
    }

    /// The lines of `text` that contain `word`, found by Foundation's search: nm lists ~100,000
    /// symbols of a debug build, and splitting them all into lines and words cost a debug `bench`
    /// a second before each counted run, for the five that have the word.
    static func lines(of text: String, containing word: String) -> [Substring] {
        var found: [Substring] = []
        var start = text.startIndex
        while let match = text.range(of: word, range: start..<text.endIndex) {
            let lineStart =
                text[..<match.lowerBound].lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
            let lineEnd = text[match.upperBound...].firstIndex(of: "\n") ?? text.endIndex
            found.append(text[lineStart..<lineEnd])
            start = lineEnd
        }
        return found
    }

    /// Runs a tool to its end and returns its status and output.
    private static func tool(_ path: String, _ arguments: [String]) throws -> (
        status: Int32, output: String, error: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        do {
            try process.run()
        } catch {
            throw Unavailable(description: "cannot run \(path): \(error.localizedDescription)")
        }
        // Standard error is read on another thread meanwhile: a tool that fills its pipe while this
        // one waits for the end of standard output would otherwise wait for ever.
        let errorReader = PipeDrain(error.fileHandleForReading)
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errorReader.wait()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: outData, as: UTF8.self),
            String(decoding: errData, as: UTF8.self)
        )
    }
}

/// Reads a pipe to its end on a thread of its own, handing each line on as it comes when asked.
final class PipeDrain: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    init(_ handle: FileHandle, line: (@Sendable (String) -> Void)? = nil) {
        let thread = Thread { [self] in
            guard let line else {
                data = handle.readDataToEndOfFile()
                done.signal()
                return
            }
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                data.append(chunk)
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    line(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...newline)
                }
            }
            done.signal()
        }
        thread.start()
    }

    /// Everything read, once the pipe has ended.
    func wait() -> Data {
        done.wait()
        return data
    }
}
