import BenchResults
import Foundation

/// A column of the terminal's parse table, with its header, its value for a cell and its line of
/// the legend.
///
/// The terminal shows ``defaults`` (at most 120 characters a row with the usual parsers); `--columns
/// all` or a list names others. The CSV, JSON, Markdown and HTML always hold every figure.
public enum ParseColumn: String, CaseIterable, Sendable {
    case kind
    case fastest = "x-fastest"
    case interval = "ci"
    case floor = "x-floor"
    case versusC = "vs-c"
    case time
    case nextRun = "next-run"
    case workers
    case spread
    case mean
    case cpu
    case throughput = "mbps"
    case firstSong = "first-song"
    case parseMiB = "parse-mib"
    case workerMiB = "worker-mib"
    case allocations = "allocs"
    case allocatedMiB = "alloc-mib"
    case keptMiB = "kept-mib"
    case lostCPU = "lost-cpu"
    case failed

    /// What the terminal shows unless asked: which parser, how fast against the others and the next
    /// run, and what it asks of memory.
    public static let defaults: [ParseColumn] = [
        .kind, .fastest, .interval, .time, .nextRun, .throughput, .parseMiB, .allocations,
    ]

    /// Reads `--columns`: `all`, `default`, or names from `allCases` (in the table's order,
    /// whatever order they were given in).
    ///
    /// - Parameter names: the names, already split at commas.
    /// - Returns: the columns, or the first name it does not know.
    public static func parse(_ names: [String]) -> Result<[ParseColumn], UnknownColumn> {
        if names == ["all"] { return .success(allCases) }
        if names == ["default"] { return .success(defaults) }
        var chosen: Set<ParseColumn> = []
        for name in names {
            guard let column = ParseColumn(rawValue: name.lowercased()) else {
                return .failure(UnknownColumn(name: name))
            }
            chosen.insert(column)
        }
        return .success(allCases.filter(chosen.contains))
    }

    /// A name `--columns` does not know.
    public struct UnknownColumn: Error, CustomStringConvertible {
        public var name: String
        public var description: String {
            "--columns: unknown column '\(name)'; known: all, default, "
                + ParseColumn.allCases.map(\.rawValue).joined(separator: ", ")
        }
    }

    /// The column's header; `reference` names the parser the ratios are against, if one was asked.
    func header(reference: String?) -> String {
        switch self {
        case .kind: "kind"
        case .fastest: reference.map { "× \($0)" } ?? "× fastest"
        case .interval: "95% CI"
        case .floor: "× floor"
        case .versusC: "vs C"
        case .time: "time"
        case .nextRun: "next run 95%"
        case .workers: "workers"
        case .spread: "spread"
        case .mean: "mean"
        case .cpu: "CPU"
        case .throughput: "MB/s"
        case .firstSong: "1st song"
        case .parseMiB: "parse MiB"
        case .workerMiB: "worker MiB"
        case .allocations: "allocs"
        case .allocatedMiB: "alloc MiB"
        case .keptMiB: "kept MiB"
        case .lostCPU: "lost CPU"
        case .failed: "failed"
        }
    }

    /// The column's value for `cell`.
    func value(_ cell: CellSummary) -> String {
        let relative = cell.relative
        switch self {
        case .kind: return cell.kind ?? ""
        case .fastest: return relative.map { RunReport.ratio($0.ratio) } ?? ""
        case .interval:
            return relative.flatMap(RunReport.interval).map { $0.range + ($0.level.map { " (\($0))" } ?? "") } ?? ""
        case .floor: return RunReport.ratioWithInterval(cell.floorMultiple)
        case .versusC: return RunReport.ratioWithInterval(cell.bindingTax)
        case .time: return Format.ms(cell.time)
        case .nextRun: return cell.estimate.map { "\(Format.ms($0.low))–\(Format.ms($0.high))" } ?? ""
        case .workers: return cell.estimate.map { String($0.workers) } ?? "0"
        case .spread:
            return cell.cell.parser == "null"
                ? "" : cell.workerSpread.map { Format.number($0 * 100, decimals: 0) + "%" } ?? ""
        case .mean: return Format.ms(cell.wall?.mean)
        case .cpu: return Format.ms(cell.cpuMedianNs)
        case .throughput: return cell.kind == "baseline" ? "" : Format.number(cell.megabytesPerSecond)
        case .firstSong: return Format.ms(cell.firstSongMedianNs)
        case .parseMiB: return Format.mib(cell.parsePeakBytes.map(Double.init))
        case .workerMiB: return Format.mib(cell.peakResidentBytes.map(Double.init))
        case .allocations: return RunReport.allocationCount(cell.allocations)
        case .allocatedMiB: return Format.mib(cell.allocatedBytes, decimals: 2)
        case .keptMiB: return Format.mib(cell.keptBytes, decimals: 2)
        case .lostCPU: return cell.preempted.map { "\($0)/\(($0) + (cell.wall?.count ?? 0))" } ?? ""
        case .failed: return String(cell.failed)
        }
    }

    /// The column's sentence of the legend, the ratios against `reference` when the run has one
    /// (`nil`: the fastest of each table); `nil` for one another column's sentence explains.
    func legend(reference: String?) -> String? {
        let against = ParseColumn.fastest.header(reference: reference)
        switch self {
        case .kind:
            return "kind: push/event, pull, tree, Codable, reference (the same extraction in plain C), floor (memchr "
                + "over the bytes, no parsing), baseline (null: no parse, what the harness costs; in a document run "
                + "also sink: the timed sink alone, what every parser's time includes)."
        case .fastest:
            return "\(against): time ÷ "
                + (reference.map { "\($0)'s (the run's reference parser)" } ?? "the fastest parser's")
                + ", estimated from the workers that ran in the same round (Hodges–Lehmann), with a 95% Wilcoxon "
                + "interval (95% CI; from fewer than 6 pairs of workers no interval is a 95% one, and its level "
                + "follows it, as \"(50%)\"): stable when the whole machine speeds up or slows down."
        case .interval: return nil
        case .floor: return "× floor: time ÷ the memchr floor's, paired by round as \(against)."
        case .versusC:
            return "vs C: the Swift adapter's time ÷ its C reference's (c-libxml2, c-expat), paired by round: what "
                + "the binding costs; intervals 95% (a lower level, from fewer pairs, is said after the interval)."
        case .time: return "time: the median of the workers' median times."
        case .nextRun:
            return "next run 95%: the interval the next run's time should fall in — order statistics of the worker "
                + "medians, chosen so that a next run whose workers behave like these lands inside with at least 95% "
                + "probability (exact; with 40 workers the 11th to the 30th); it includes the noise between processes "
                + "that one worker's iterations cannot show; once the store holds 5 earlier runs of this host, it and "
                + "the \(against) and vs C intervals are widened by the noise between runs (the lines above the table "
                + "say which)."
        default: return sentence
        }
    }

    /// The legend's sentence of the columns that do not depend on the reference.
    private var sentence: String? {
        switch self {
        case .kind, .fastest, .interval, .floor, .versusC, .time, .nextRun: nil
        case .workers: "workers: the worker processes measured."
        case .spread: "spread: how much the workers disagree (sd of the logarithms of their medians)."
        case .mean: "mean: of every parse."
        case .cpu: "CPU: median CPU time of the worker process (every thread)."
        case .throughput: "MB/s: feed bytes / time (10^6 bytes; none for a baseline, which reads no feed)."
        case .firstSong: "1st song: median time to the first song."
        case .parseMiB:
            "parse MiB: the parse's own peak, how far the worker's resident set rose above its level just before "
                + "its first parse (songs and parser state; median over the workers)."
        case .workerMiB:
            "worker MiB: the worker process's peak over its whole life, loading the feed included."
        case .allocations:
            "allocs: malloc-family calls of one parse, Swift's and the C library's alike (counted in one more "
                + "worker with the allocation interposer loaded, after a warm-up; exact)."
        case .allocatedMiB: "alloc MiB: the bytes those calls asked for."
        case .keptMiB: "kept MiB: what the parse allocated and had not freed when it returned: its songs."
        case .lostCPU:
            "lost CPU: parses descheduled for other work (wall time more than 3% above CPU time), measured again "
                + "and left out, of all parses."
        case .failed: "failed: iterations that failed."
        }
    }

    /// The default columns a narrow terminal goes without, first to last, until the parse tables
    /// fit (the legend names them; the files have them).
    public static let narrowDropOrder: [ParseColumn] = [.throughput, .kind, .allocations]

    /// The column's words in the short key (``key(_:download:reference:)``), the ratios against
    /// `reference` when the run has one; `nil` for one that needs none.
    func keyPhrase(reference: String?) -> String? {
        switch self {
        case .kind, .interval: nil
        case .fastest:
            "\(header(reference: reference)): time ÷ \(reference.map { "\($0)'s" } ?? "the fastest's"), from workers of "
                + "the same round, with its 95% CI"
        case .floor: "× floor: ÷ one memchr pass"
        case .versusC: "vs C: ÷ the same extraction in C"
        case .time: "time: median of the workers' medians"
        case .nextRun: "next run 95%: where the next run's time should fall"
        case .workers: "workers: processes measured"
        case .spread: "spread: how much the workers disagree"
        case .mean: "mean: of every parse"
        case .cpu: "CPU: CPU time"
        case .throughput: "MB/s: bytes ÷ time"
        case .firstSong: "1st song: time to the first song"
        case .parseMiB: "parse MiB: the parse's own peak memory"
        case .workerMiB: "worker MiB: the worker's whole peak"
        case .allocations: "allocs: malloc calls a parse"
        case .allocatedMiB: "alloc MiB: bytes they asked for"
        case .keptMiB: "kept MiB: bytes the parse kept"
        case .lostCPU: "lost CPU: parses that lost the CPU, of all"
        case .failed: "failed: iterations that failed"
        }
    }

    /// The terminal's short key of the parse table (and the download table's, when `download`):
    /// what each shown column is, in a few words (the ratios against `reference` when the run has
    /// one), which columns are hidden, and where the whole legend is.
    static func key(
        _ columns: [ParseColumn], download: Bool, reference: String? = nil, metrics: [Metric] = [],
        hiddenMetrics: [Metric] = []
    ) -> String {
        var text =
            "Key: times in ms, from parses that kept the CPU, each parser in many worker processes; "
            + (columns.compactMap { $0.keyPhrase(reference: reference) } + metrics.compactMap(\.traits.key))
            .joined(separator: "; ") + "."
        if download { text += " " + RunReport.downloadKey }
        // The default columns a narrow terminal left out are named; the others are one option away.
        let dropped =
            defaults.filter { !columns.contains($0) }.map { $0.header(reference: nil) }
            + hiddenMetrics.map { $0.traits.heading ?? $0.name }
        if !dropped.isEmpty {
            text +=
                " Not shown at this width: " + dropped.joined(separator: ", ") + "."
        }
        return text + " More columns: --columns all; every column explained: --legend, and in the HTML and Markdown."
    }

    /// The parse table's legend for `columns`: what every table shares, each shown column's
    /// sentence (the ratios against `reference` when the run has one), and where the hidden ones are.
    static func legend(_ columns: [ParseColumn], reference: String? = nil) -> String {
        var text =
            "Times in ms (wall clock, monotonic), from parses that kept the CPU. Each parser runs in several worker "
            + "processes (one per round, side by side with the other parsers' workers, the order turned each round). "
        text += columns.compactMap { $0.legend(reference: reference) }.joined(separator: " ")
        text += " Failed iterations are left out of every figure."
        text +=
            " Worker harness (above the tables): what each worker costs beside its job, in no figure: a worker with "
            + "nothing to do, started at the start of each round as every worker is, from its spawn to its job's "
            + "first instruction (start: exec, the libraries' loading, the runtime's start, reading the job) and "
            + "from the job's last instruction to its end (end: the report, exit, teardown); the median, and the "
            + "fastest and slowest."
        let hidden = allCases.filter { !columns.contains($0) }
        if !hidden.isEmpty {
            text +=
                " Not shown: " + hidden.map { $0.header(reference: nil) }.joined(separator: ", ")
                + " (--columns all, or a list such as --columns vs-c,lost-cpu; every figure is in the run's CSV and JSON)."
        }
        return text
    }
}
