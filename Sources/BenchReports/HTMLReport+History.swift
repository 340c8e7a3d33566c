import BenchResults
import Foundation

extension HTMLReport {
    /// Time to the first song per network profile, from the samples (each profile its own group).
    static func firstSongChart(_ samples: [StoredSample]) -> String? {
        let good = samples.filter {
            $0.sample.isClean && $0.sample.firstSongNs != nil && $0.sample.cell.parser != "null"
        }
        let relevant = good.filter { $0.sample.cell.scenario.isParseFromMemory || $0.sample.cell.scenario == .download }
        let order = ["", "loopback", "wifi", "lte", "3g", "edge", "custom", "remote"]
        let networks = Set(relevant.map(\.sample.cell.network)).sorted {
            (order.firstIndex(of: $0) ?? order.count, $0) < (order.firstIndex(of: $1) ?? order.count, $1)
        }
        // Several machines: a group per profile and machine, never one bar over unlike machines.
        let present = Set(relevant.map(\.machine))
        let machines: [Machine?] = present.count > 1 ? present.sorted { ($0?.label ?? "") < ($1?.label ?? "") } : [nil]
        let groups: [SVGChart.Group] = networks.flatMap { network in machines.map { machine in (network, machine) } }
            .compactMap { network, machine in
                let inGroup = relevant.filter {
                    $0.sample.cell.network == network && (machine == nil || $0.machine == machine)
                }
                guard !inGroup.isEmpty else { return nil }
                let parsers = Array(Set(inGroup.map(\.sample.cell.parser))).sorted()
                let bars: [SVGChart.Bar] = parsers.compactMap { parser in
                    let values = inGroup.filter { $0.sample.cell.parser == parser }.compactMap {
                        $0.sample.firstSongNs.map(Double.init)
                    }
                    guard let stats = Statistics(values) else { return nil }
                    return .init(
                        label: parser, value: stats.median / 1e6, low: nil, high: nil,
                        text:
                            "\(Format.ms(stats.median, decimals: stats.median >= 1e8 ? 0 : 2)) ms (n = \(stats.count))",
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

    /// Each parser's median parse time per stored run, on the most measured feed.
    static func historyChart(_ samples: [StoredSample]) -> String? {
        let parse = samples.filter {
            $0.sample.cell.scenario.isParseFromMemory && $0.sample.isClean && $0.sample.wallNs != nil
                && $0.sample.cell.parser != "null"
        }
        let feeds = Dictionary(grouping: parse, by: \.sample.cell.feedSHA256)
        guard let feed = feeds.max(by: { ($0.value.count, $1.key) < ($1.value.count, $0.key) }) else { return nil }
        let runs = Array(Set(feed.value.map { RunKey(id: $0.runID, started: $0.runStartedAt) })).sorted {
            ($0.started, $0.id) < ($1.started, $1.id)
        }
        // One run is one dot a parser: no history yet.
        guard runs.count > 1 else { return nil }
        let index = Dictionary(uniqueKeysWithValues: runs.enumerated().map { ($1.id, $0) })
        let parsers = Array(Set(feed.value.map(\.sample.cell.parser))).sorted()
        let labels = runs.map { run -> String in
            // "2026-11-22T05:31:21Z" → "11-22 05:31"
            let text = run.started
            guard text.count >= 16 else { return text }
            let month = text.dropFirst(5).prefix(5)
            let time = text.dropFirst(11).prefix(5)
            return "\(month) \(time)"
        }
        /// One point per run: the median of its samples.
        func points(_ items: [StoredSample], name: String) -> [(x: Int, y: Double, tip: String)] {
            Dictionary(grouping: items, by: \.runID).compactMap { run, items -> (x: Int, y: Double, tip: String)? in
                guard let position = index[run],
                    let stats = Statistics(items.compactMap { $0.sample.wallNs.map(Double.init) })
                else { return nil }
                return (position, stats.median / 1e6, "\(name), run \(run): \(Format.ms(stats.median)) ms")
            }.sorted { $0.x < $1.x }
        }
        let axis = "stored runs, oldest first (UTC); milliseconds per parse"
        let machines = Set(feed.value.compactMap(\.machine)).sorted()
        let shifts = changePoints(
            samples.filter { $0.sample.cell.scenario.isParseFromMemory && $0.sample.cell.feedSHA256 == feed.key })
        /// The marks of the changes found in `parser`'s series on `host` (any host when `nil`).
        func marks(_ parser: String, host: String?, key: String) -> [SVGChart.Mark] {
            shifts.filter { $0.series.parser == parser && (host == nil || $0.series.host == host) }.compactMap {
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
                .init(name: parser, points: points(feed.value.filter { $0.sample.cell.parser == parser }, name: parser))
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
                        feed.value.filter { $0.sample.cell.parser == parser && $0.machine == machine },
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
    /// size on one feed (``RunSeries``, ``ChangePoints`` with its defaults), per machine.
    static func changePoints(_ samples: [StoredSample]) -> [(series: RunSeries, shift: RunSeries.Shift)] {
        RunSeries.series(samples, metric: .calibratedTime).filter { $0.parser != "null" }.flatMap { series in
            series.findingShifts().shifts.map { (series, $0) }
        }
    }

    struct RunKey: Hashable {
        var id: String
        var started: String
    }
}
