import BenchResults
import Foundation

extension HTMLReport {
    /// What a page's history figures draw: the practices (per machine when there are several), the
    /// first song per network profile and each parser's history, with the runs they come from.
    ///
    /// Both pages make them from the stored figures of the newest runs (a value a run and cell): a
    /// run's page from those of the host's runs with its own practices, the store's page
    /// (`bench report --format html`) from those of the runs the report chose, practices included.
    struct HistoryFigures {
        /// The practice figures, a list per machine (`nil`: one machine, or not said).
        var practices: [(machine: Machine?, figures: [PracticeFigures])]
        var firstSong: String?
        var history: String?
        /// The runs the figures were drawn from.
        var runs: Int
        /// Whether the figures are the store's page's (its tables are over every run the report
        /// chose) rather than a run's.
        var ofStore: Bool

        /// The figures of stored runs' figures: the first song, each parser's median of its runs'
        /// medians; the history, each run's median; the practices, `practices`.
        init(runs stored: [RunFigures], practices: [(machine: Machine?, figures: [PracticeFigures])], ofStore: Bool) {
            self.practices = practices
            firstSong = HTMLReport.firstSongChart(runs: stored)
            history = HTMLReport.historyChart(runs: stored)
            runs = Set(stored.map(\.runID)).count
            self.ofStore = ofStore
        }

        /// A run's page: its own practices (a run's page shows the practices it measured).
        static func run(_ stored: [RunFigures], practices: [PracticeFigures]) -> HistoryFigures {
            HistoryFigures(runs: stored, practices: [(nil, practices)], ofStore: false)
        }

        /// The store's page: the practices of the same runs, per machine when there are several.
        static func store(_ stored: [RunFigures]) -> HistoryFigures {
            let machines = Set(stored.compactMap(\.machine)).sorted()
            let practices: [(machine: Machine?, figures: [PracticeFigures])] =
                machines.count > 1
                ? machines.map { machine in (machine, PracticeFigures.of(runs: stored.filter { $0.machine == machine }))
                }
                : [(nil, PracticeFigures.of(runs: stored))]
            return HistoryFigures(runs: stored, practices: practices, ofStore: true)
        }
    }

    /// One value of the first-song chart: a run's median time to the first song of a parser on a profile.
    struct FirstSongValue {
        var network: String
        var machine: Machine?
        var parser: String
        var value: Double
    }

    /// Whether a cell's first songs are drawn: the parse scenarios (in memory) and downloads, not
    /// the `null` parser.
    static func drawsFirstSong(_ cell: CellKey) -> Bool {
        cell.parser != "null" && (cell.scenario.isParseFromMemory || cell.scenario == .download)
    }

    /// Time to the first song per network profile, from the runs' stored figures: each bar the
    /// median of the runs' medians (a run one value: the median of its cells' when it has several
    /// of the parser on the profile).
    static func firstSongChart(runs: [RunFigures]) -> String? {
        let values = runs.flatMap { run in
            var medians: [String: (network: String, parser: String, values: [Double])] = [:]
            var order: [String] = []
            for cell in run.cells where drawsFirstSong(cell.cell) {
                guard let figure = cell.figures.first(where: { $0.metric == .firstSongNs }) else { continue }
                let key = cell.cell.network + "\u{0}" + cell.cell.parser
                if medians[key] == nil { order.append(key) }
                medians[key, default: (cell.cell.network, cell.cell.parser, [])].values.append(
                    figure.runFigure(of: cell.cell))
            }
            return order.compactMap { key -> FirstSongValue? in
                guard let group = medians[key], let median = Statistics(group.values)?.median else { return nil }
                return FirstSongValue(network: group.network, machine: run.machine, parser: group.parser, value: median)
            }
        }
        return firstSongChart(values) { "median of \($0) run\($0 == 1 ? "" : "s")" }
    }

    /// The first-song chart of `values`: a group per network profile (and machine, when there are
    /// several), a bar per parser at the median of its values, `count` saying what they are.
    static func firstSongChart(_ values: [FirstSongValue], count: (Int) -> String) -> String? {
        let order = ["", "loopback", "wifi", "lte", "3g", "edge", "custom", "remote"]
        let networks = Set(values.map(\.network)).sorted {
            (order.firstIndex(of: $0) ?? order.count, $0) < (order.firstIndex(of: $1) ?? order.count, $1)
        }
        // Several machines: a group per profile and machine, never one bar over unlike machines.
        let present = Set(values.map(\.machine))
        let machines: [Machine?] = present.count > 1 ? present.sorted { ($0?.label ?? "") < ($1?.label ?? "") } : [nil]
        let groups: [SVGChart.Group] = networks.flatMap { network in machines.map { machine in (network, machine) } }
            .compactMap { network, machine in
                let inGroup = values.filter { $0.network == network && (machine == nil || $0.machine == machine) }
                guard !inGroup.isEmpty else { return nil }
                let parsers = Array(Set(inGroup.map(\.parser))).sorted()
                let bars: [SVGChart.Bar] = parsers.compactMap { parser in
                    guard let stats = Statistics(inGroup.filter { $0.parser == parser }.map(\.value)) else {
                        return nil
                    }
                    return .init(
                        label: parser, value: stats.median / 1e6, low: nil, high: nil,
                        text:
                            "\(Format.ms(stats.median, decimals: stats.median >= 1e8 ? 0 : 2)) ms (\(count(stats.count)))",
                        key: parser)
                }
                let title = network.isEmpty ? "in memory (parse scenario)" : "network profile: \(network)"
                return .init(title: title + (machine.map { " — on \($0.host)" } ?? ""), bars: bars)
            }
        // No figure rather than an empty one (a document run has no songs; a parse-only store no downloads).
        guard !groups.isEmpty else { return nil }
        return SVGChart.bars(
            id: "first-song", title: "Time to the first song per network profile", groups: groups,
            axisLabel: "milliseconds to the first song, median (shorter is better)")
    }

    /// One point of the history chart: a run's median parse time of one parser on one feed.
    struct RunPoint {
        var run: RunKey
        var machine: Machine?
        var parser: String
        var feed: String
        var median: Double
        /// The values behind it (the feed drawn is the one with the most).
        var count: Int
    }

    /// Whether a cell's parse times are drawn in the history: the parse scenarios (in memory), not
    /// the `null` parser.
    static func drawsHistory(_ cell: CellKey) -> Bool {
        cell.scenario.isParseFromMemory && cell.parser != "null"
    }

    /// Each parser's median parse time per stored run, on the most measured feed, from the runs'
    /// stored figures: a run's point is its time (`RunFigures.Figure.runFigure(of:)`: the median of
    /// its workers' medians, as its table gave it), the median of its cells' times when it has several of
    /// the parser on the feed (chunk sizes, parse scenarios).
    static func historyChart(runs: [RunFigures]) -> String? {
        let points = runs.flatMap { run in
            var groups: [String: (point: RunPoint, medians: [Double])] = [:]
            for cell in run.cells where drawsHistory(cell.cell) {
                guard let figure = cell.figures.first(where: { $0.metric == .wallNs }) else { continue }
                let key = cell.cell.parser + "\u{0}" + cell.cell.feedSHA256
                groups[
                    key,
                    default: (
                        RunPoint(
                            run: RunKey(id: run.runID, started: run.startedAt), machine: run.machine,
                            parser: cell.cell.parser, feed: cell.cell.feedSHA256, median: 0, count: 0), []
                    )
                ].medians.append(figure.runFigure(of: cell.cell))
                groups[key]?.point.count += figure.count
            }
            return groups.values.compactMap { group -> RunPoint? in
                guard let median = Statistics(group.medians)?.median else { return nil }
                var point = group.point
                point.median = median
                return point
            }
        }
        return historyChart(points) { feed in
            changePoints(
                runs: runs.map { run in
                    var run = run
                    run.cells = run.cells.filter { $0.cell.scenario.isParseFromMemory && $0.cell.feedSHA256 == feed }
                    return run
                })
        }
    }

    /// The history chart of `all` (a point a run, parser and feed), on the feed with the most
    /// values, with the changes `shifts` finds on that feed (its digest) marked.
    static func historyChart(
        _ all: [RunPoint], shifts: (String) -> [(series: RunSeries, shift: RunSeries.Shift)]
    ) -> String? {
        var weights: [String: Int] = [:]
        for point in all { weights[point.feed, default: 0] += point.count }
        guard let feed = weights.max(by: { ($0.value, $1.key) < ($1.value, $0.key) })?.key else { return nil }
        let onFeed = all.filter { $0.feed == feed }
        let runs = Array(Set(onFeed.map(\.run))).sorted { ($0.started, $0.id) < ($1.started, $1.id) }
        // One run is one dot a parser: no history yet.
        guard runs.count > 1 else { return nil }
        let index = Dictionary(uniqueKeysWithValues: runs.enumerated().map { ($1.id, $0) })
        let parsers = Array(Set(onFeed.map(\.parser))).sorted()
        let labels = runs.map { run -> String in
            // "2026-11-22T05:31:21Z" → "11-22 05:31"
            let text = run.started
            guard text.count >= 16 else { return text }
            let month = text.dropFirst(5).prefix(5)
            let time = text.dropFirst(11).prefix(5)
            return "\(month) \(time)"
        }
        /// One point per run: its median.
        func points(_ items: [RunPoint], name: String) -> [(x: Int, y: Double, tip: String)] {
            items.compactMap { point -> (x: Int, y: Double, tip: String)? in
                guard let position = index[point.run.id] else { return nil }
                return (
                    position, point.median / 1e6, "\(name), run \(point.run.id): \(Format.ms(point.median)) ms"
                )
            }.sorted { $0.x < $1.x }
        }
        let axis = "stored runs, oldest first (UTC); milliseconds per parse"
        let machines = Set(onFeed.compactMap(\.machine)).sorted()
        let found = shifts(feed)
        /// The marks of the changes found in `parser`'s series on `host` (any host when `nil`).
        func marks(_ parser: String, host: String?, key: String) -> [SVGChart.Mark] {
            found.filter { $0.series.parser == parser && (host == nil || $0.series.host == host) }.compactMap {
                guard let position = index[$0.shift.runID] else { return nil }
                let percent = String(format: "%+.1f%%", ($0.shift.ratio - 1) * 100)
                return SVGChart.Mark(
                    x: position, key: key, label: percent,
                    tip: "\(parser): calibrated time \(percent) from run \($0.shift.runID)"
                        + ($0.shift.commit.map { " (commit \($0.prefix(10)))" } ?? "")
                        + String(
                            format: ", 95%% interval %+.1f%% to %+.1f%%", ($0.shift.low - 1) * 100,
                            ($0.shift.high - 1) * 100)
                        + " (bench history)")
            }
        }
        guard machines.count > 1 else {
            let series: [SVGChart.Series] = parsers.map { parser in
                .init(name: parser, points: points(onFeed.filter { $0.parser == parser }, name: parser))
            }
            return SVGChart.lines(
                id: "history", title: "Median parse time per run", labels: labels, series: series, axisLabel: axis,
                marks: parsers.flatMap { marks($0, host: nil, key: $0) })
        }
        // Several machines: a chart per parser, one line per machine (never one line through unlike machines).
        let hosts = Dictionary(grouping: machines, by: \.host)
        func name(_ machine: Machine) -> String {
            (hosts[machine.host]?.count ?? 0) > 1 ? machine.label : machine.host
        }
        return parsers.enumerated().map { number, parser in
            let series: [SVGChart.Series] = machines.map { machine in
                .init(
                    name: name(machine),
                    points: points(
                        onFeed.filter { $0.parser == parser && $0.machine == machine },
                        name: "\(parser) on \(name(machine))"))
            }
            return SVGChart.lines(
                id: "history-\(number)", title: "\(parser): median parse time per run, one line per machine",
                labels: labels,
                series: series, axisLabel: axis,
                marks: machines.flatMap { marks(parser, host: $0.host, key: name($0)) })
        }.joined(separator: "\n")
    }

    /// The changes `bench history` finds in the calibrated time of each parser, scenario and chunk
    /// size on one feed (``RunSeries``, ``ChangePoints`` with its defaults), per machine, from the
    /// runs' stored figures (``RunSeries/series(runs:metric:parsers:)``: a run's time, the median of
    /// its workers' medians, ÷ the median of its workers' calibration medians).
    static func changePoints(runs: [RunFigures]) -> [(series: RunSeries, shift: RunSeries.Shift)] {
        shifts(RunSeries.series(runs: runs, metric: .calibratedTime))
    }

    private static func shifts(_ series: [RunSeries]) -> [(series: RunSeries, shift: RunSeries.Shift)] {
        series.filter { $0.parser != "null" }.flatMap { series in
            series.findingShifts().shifts.map { (series, $0) }
        }
    }

    struct RunKey: Hashable {
        var id: String
        var started: String
    }
}
