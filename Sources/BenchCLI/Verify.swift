import ArgumentParser
import BenchEngine
import BenchReports
import BenchResults
import BenchWorker
import FeedParsers
import Foundation
import SongFeed

/// `bench verify`: checks that all parsers build the same songs.
struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check that every parser builds the same songs from each feed, with several chunk sizes.",
        discussion: """
            Each parser runs in its own worker process (the worker executable beside this one), so a parser \
            that crashes is reported with its signal while the others still run. An answer counts only when \
            a second parser that meets the whole contract on the input gives it too: when fewer than two of \
            the parsers named do, parsers that do are checked beside them; a parser that nobody confirms is \
            UNVERIFIED. Exit status: 0 when every parser agrees on every feed, 1 otherwise.

            With --contract: every parser that reports document events (or those named) over the \
            built-in documents of the event handler's contract, one rule each, compared with expat's \
            events; a difference names the rule broken. Exit status: 0 when every rule holds, 1 when \
            one is broken or could not be checked.
            """
    )

    @Argument(help: "Feeds to check (default: the *.xml files in Data/).", completion: .file(extensions: ["xml"]))
    var feeds: [String] = []

    @OptionGroup var parserOptions: ParserOptions

    @OptionGroup var memory: WorkerMemoryOptions

    @Option(
        name: .customLong("chunk-sizes"),
        help: "Comma-separated chunk sizes in bytes; 0 or 'whole' is the feed in one chunk.",
        transform: ChunkSizeList.parse)
    var chunkSizes: [Int] = FeedVerifier.defaultChunkSizes

    @Option(name: .customLong("dump"), help: "Write the agreed songs as a JSON array to this file.")
    var dump: String?

    @Option(help: "What each parser builds: songs, or document (any XML's canonical events, compared event by event).")
    var workload: Workload = .songs

    @Option(
        help:
            "With --workload document: write each parser's canonical form of each document (James Clark's, as the W3C suite's outputs) into this directory, as NAME.PARSER.canonical.xml."
    )
    var canonical: String?

    @Flag(
        help:
            "Check the event handler's contract instead: each parser over small built-in documents, one rule each, against expat's events."
    )
    var contract = false

    @Option(help: "Seconds one parser's worker may run before it is killed.")
    var timeout: Double = 300

    func validate() throws {
        try TimeLimitArgument.check(timeout, option: "--timeout")
        if contract {
            if !feeds.isEmpty { throw ValidationError("--contract checks its own documents: give no feed with it") }
            if dump != nil || canonical != nil || workload != .songs {
                throw ValidationError("--contract takes none of --dump, --canonical and --workload")
            }
            // Its chunking is its own (each document whole and byte by byte): a size given would be ignored.
            if chunkSizes != FeedVerifier.defaultChunkSizes {
                throw ValidationError(
                    "--contract pushes each document whole and byte by byte: give no --chunk-sizes with it")
            }
            _ = try Self.contractParsers(named: parserOptions.names)
            return
        }
        if canonical != nil, workload != .document {
            throw ValidationError("--canonical writes the document workload's events: add --workload document")
        }
        if dump != nil, workload == .document {
            throw ValidationError("--dump writes songs; the document workload has events (use --canonical DIR)")
        }
        if dump != nil && feeds.count > 1 {
            throw ValidationError("--dump writes the songs of one feed; give exactly one feed with it")
        }
        if let dump {
            // Checked before the parsers run, not after.
            let parent = (dump as NSString).deletingLastPathComponent
            let directory = parent.isEmpty ? "." : parent
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue,
                FileManager.default.isWritableFile(atPath: directory)
            else { throw ValidationError("--dump: cannot write into \(directory)") }
            if FileManager.default.fileExists(atPath: dump, isDirectory: &isDirectory), isDirectory.boolValue {
                throw ValidationError("--dump takes the file to write, and \(dump) is a directory")
            }
        }
        // Only parsers that are not compared (the memchr floor: no songs, no events): nothing to check.
        let names = parserOptions.names(default: ParserRegistry.names)
        if !names.isEmpty, !names.contains(where: { FeedVerifier.notCompared($0, workload: workload) == nil }) {
            throw ValidationError(
                "\(names.joined(separator: ", ")) build\(names.count == 1 ? "s" : "") no \(workload.countedNoun) to "
                    + "compare, so there is nothing to check: name a parser that builds them (bench list)")
        }
    }

    func run() throws {
        WorkerProcess.killWorkerOnInterrupt()
        try memory.apply()
        if let missing = WorkerProcess.workerUnavailable() { throw CommandFailure(description: missing) }
        if contract {
            let parsers = try Self.contractParsers(named: parserOptions.names)
            let work = try ContractCheck.workers(timeout: min(timeout, 60))
            defer { work.directory.remove() }
            try Self.checkContract(
                parsers: parsers,
                skippedNames: parserOptions.names.filter { ContractCheck.notCheckable($0) != nil },
                runner: work.runner, width: Terminal(quiet: false).width)
            return
        }
        let paths: [String]
        if feeds.isEmpty {
            paths = try BenchEngineFeeds.inData()
        } else {
            paths = ListArgument.split(feeds)
        }
        let names = parserOptions.names(default: ParserRegistry.names)
        let sizes = chunkSizes.map(ChunkSize.label).joined(separator: ", ")
        let what = workload.countedNoun
        let subject =
            names.count == 1
            ? "\(names[0]) builds the \(what)" : "\(names.joined(separator: ", ")) build the same \(what)"
        let terminal = Terminal(quiet: false)
        let width = terminal.width
        print(
            Format.wrap(
                "Checking that \(subject) (chunk sizes: \(sizes); one worker process per parser).", width: width))
        if feeds.isEmpty {
            print("This checks correctness only; `bench run` times the parsers.")
        }

        if let canonical {
            do {
                try FileManager.default.createDirectory(atPath: canonical, withIntermediateDirectories: true)
            } catch {
                throw CommandFailure(
                    description: "cannot create \(canonical): \(RunFiles.reason(error, creating: canonical))")
            }
        }
        // What disagreed or failed, and the inputs that could not be checked at all (missing, not a file).
        var failures: [String] = []
        var unchecked: [String] = []
        for path in paths {
            let verification: FeedVerification
            // On a terminal, which parser is at work and for how long (a large document takes minutes).
            let ticker = ProgressTicker(terminal: terminal)
            do {
                verification = try FeedVerifier.verify(
                    feed: path, parsers: names, chunkSizes: chunkSizes, timeout: timeout, workload: workload,
                    canonicalDirectory: canonical, progress: { ticker.show("checking \(path): \($0)") })
                ticker.stop()
            } catch {
                ticker.stop()
                unchecked.append("\(error)")
                print(Format.wrap("\n\(error)", width: width))
                continue
            }
            print(verification.text(width: width))
            if !verification.allAgree {
                failures.append(verification.firstProblem)
            } else if let dump, let songs = verification.referenceSongs {
                try writeDump(songs, to: dump)
                print("Wrote \(songs.count) songs to \(dump)")
            }
        }
        if !failures.isEmpty || !unchecked.isEmpty {
            if dump != nil {
                print(
                    "Nothing written to \(dump ?? ""): "
                        + (failures.isEmpty ? "an input could not be checked." : "the parsers did not agree."))
            }
            throw CommandFailure(
                description: failures.isEmpty
                    ? "not checked: \(unchecked[0])"
                        + (unchecked.count > 1 ? " (and \(unchecked.count - 1) more input(s) not checked)" : "")
                    : "parsers disagree or fail: \(failures[0])"
                        + (unchecked.isEmpty ? "" : " (and \(unchecked.count) input(s) not checked)"))
        }
        let noun = workload.inputNoun
        print("\nAll parsers agree on \(paths.count) \(noun)\(paths.count == 1 ? "" : "s").")
        if let canonical { print("Wrote each parser's canonical form of each document into \(canonical)/.") }
    }

    private func writeDump(_ songs: [Song], to path: String) throws {
        do {
            try Data(try JSONDocument.text(songs).utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure(description: "cannot write \(path): \(RunFiles.reason(error, writing: path))")
        }
    }
}

/// A progress line that counts the seconds of its current step, redrawn every second (on a
/// terminal only: ``Terminal/progress(_:)`` draws nothing elsewhere).
final class ProgressTicker: @unchecked Sendable {
    private let terminal: Terminal
    private let lock = NSLock()
    private var text = ""
    private var since = Date()
    private var timer: DispatchSourceTimer?

    init(terminal: Terminal) {
        self.terminal = terminal
    }

    /// Starts a step: `text`, then its seconds.
    func show(_ text: String) {
        guard terminal.progressEnabled else { return }
        lock.lock()
        self.text = text
        since = Date()
        if timer == nil {
            let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
            timer.schedule(deadline: .now() + 1, repeating: 1)
            timer.setEventHandler { [weak self] in self?.draw() }
            timer.resume()
            self.timer = timer
        }
        lock.unlock()
        draw()
    }

    private func draw() {
        lock.lock()
        defer { lock.unlock() }
        guard timer != nil else { return }
        terminal.progress("\(text), \(Int(Date().timeIntervalSince(since))) s…")
    }

    /// Ends the line.
    func stop() {
        lock.lock()
        timer?.cancel()
        let drawn = timer != nil
        timer = nil
        lock.unlock()
        if drawn { terminal.clearProgress() }
    }
}

extension FeedVerification {
    /// What `bench verify` prints for the feed (BenchReports' ``VerifyReport``), broken at `width`.
    func text(width: Int?) -> String {
        VerifyReport.text(
            path: path, bytes: bytes, sha256: sha256, countedNoun: workload.countedNoun, rows: verdicts.map(\.row),
            confirmers: confirmers.map(\.row), width: width)
    }

    /// The feed's first problem, for the summary of a failed check.
    var firstProblem: String { VerifyReport.firstProblem(path: path, rows: verdicts.map(\.row)) }
}

extension ParserVerdict {
    /// The verdict as the report's words.
    var row: VerifyReport.Row {
        VerifyReport.Row(
            parser: parser, count: songCount, digest: digest, result: status.description, isProblem: status.isProblem)
    }
}

/// Parses "1,7,512,whole", each size once ("0,whole" is the whole document once).
enum ChunkSizeList {
    static func parse(_ text: String) throws -> [Int] {
        let sizes = try text.split(separator: ",").map { part -> Int in
            let item = part.trimmingCharacters(in: .whitespaces)
            if item == "whole" { return 0 }
            guard let size = Int(item), size >= 0 else {
                throw ValidationError("'\(item)' is not a chunk size (a byte count, 0 or 'whole')")
            }
            return size
        }
        guard !sizes.isEmpty else { throw ValidationError("give at least one chunk size") }
        return ListArgument.once(sizes)
    }
}
