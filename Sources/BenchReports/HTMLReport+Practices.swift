import BenchResults
import Foundation

extension HTMLReport {
    /// A practice's section heading and the question it answers, for every practice.
    static func practiceTitle(_ practice: PracticeID) -> (heading: String, question: String) {
        switch practice {
        case .paging:
            return (
                "Paging",
                "Which page size? Each page costs a round trip; a parser that waits for the whole body shows its first song sooner with small pages, a push parser already streams it."
            )
        case .fields:
            return ("Partial response", "Ask only for the song fields (?fields=)? Fewer bytes to send and to parse.")
        case .compression:
            return ("Compression", "Ask for gzip? Fewer bytes on the wire, some CPU to inflate them.")
        case .queue:
            return (
                "A bounded fetch queue",
                "How many requests at once? The link's bandwidth is shared; only the round trips overlap."
            )
        case .cancel:
            return (
                "Cancel when the user leaves",
                "What still happens after cancel-all, once the first page is in: requests started, bytes delivered, parser time (the goal is none beyond what was in flight)."
            )
        case .store:
            return (
                "Storing the songs",
                "One transaction per song or one for the batch; in the index's order or shuffled (SQLite through GRDB, an app's defaults)."
            )
        case .read:
            return (
                "Reading the stored songs",
                "The songs stored once, then read by an app's screens: one shared connection with a cache of decoded songs or a new one per screen; a screen in one query or by faults (a query per song); SQLite's default page cache or one that holds the table (GRDB DatabaseQueue, read-only)."
            )
        }
    }

    /// A practice's bars, a group per network profile (in the profiles' order) and, when there are
    /// several, per feed, each bar a choice and a parser (a `read` choice by its short name); with
    /// `interval`, the total time's interval as whiskers.
    static func practiceGroups(
        _ figures: [PracticeFigures], _ value: (PracticeFigures) -> Double?, _ text: (PracticeFigures) -> String,
        interval: Bool
    ) -> [SVGChart.Group] {
        let order = ["", "loopback", "wifi", "lte", "3g", "edge", "custom"]
        let networks = Set(figures.map(\.network)).sorted {
            (order.firstIndex(of: $0) ?? order.count, $0) < (order.firstIndex(of: $1) ?? order.count, $1)
        }
        let feeds = Set(figures.map(\.feedPath)).sorted()
        return networks.flatMap { network in
            feeds.compactMap { feed -> SVGChart.Group? in
                let rows = figures.filter { $0.network == network && $0.feedPath == feed }
                    .sorted { ($0.order, $0.parser) < ($1.order, $1.parser) }
                guard !rows.isEmpty else { return nil }
                var title = network.isEmpty ? "on this machine's disk" : "network profile: \(network)"
                if feeds.count > 1 { title += " · \(Format.feedName(feed))" }
                return group(title: title, rows: rows, value, text, interval: interval)
            }
        }
    }

    private static func group(
        title: String, rows: [PracticeFigures], _ value: (PracticeFigures) -> Double?,
        _ text: (PracticeFigures) -> String, interval: Bool
    ) -> SVGChart.Group {
        .init(
            title: title,
            bars: rows.compactMap { f in
                guard let v = value(f) else { return nil }
                let choice = f.practice == .read ? String(f.scenario.dropFirst("read-".count)) : f.choice
                return .init(
                    label: "\(choice) · \(f.parser)", value: v / 1e6,
                    low: interval ? f.totalLowNs.map { $0 / 1e6 } : nil,
                    high: interval ? f.totalHighNs.map { $0 / 1e6 } : nil,
                    text: text(f), key: f.parser)
            })
    }

    /// A `read` bar's text: the time per screen, the pages read, the ratio to its pair.
    static func readText(_ f: PracticeFigures) -> String {
        var text =
            "\(Format.ms(f.totalNs, decimals: 4)) ms a screen · \(Format.number(f.pagesReadPerVisit, decimals: 2)) pages read"
        if let ratio = f.pairRatio, let low = ratio.low, let high = ratio.high {
            text +=
                " · \(Format.number(ratio.ratio, decimals: 2))× \(ratio.reference) (\(Format.number(low, decimals: 2))–\(Format.number(high, decimals: 2)))"
        }
        return text
    }

    /// One section per practice: the choices against the total time (with the next run's interval),
    /// the first song, the bytes on the wire and the requests, a group per network profile.
    ///
    /// `ofStore`: the figures are over stored runs (the store's page), their whiskers the interval of
    /// the median run's figure, not a run's next-run interval.
    static func practiceSections(
        _ figures: [PracticeFigures], ofStore: Bool, figure: (String, String) -> Void,
        text: (String) -> Void
    ) {
        for practice in PracticeFigures.practiceOrder {
            let mine = figures.filter { $0.practice == practice && $0.parser != "null" && $0.totalNs != nil }
            guard !mine.isEmpty else { continue }
            let title = practiceTitle(practice)
            text("<h2>\(e(title.heading))</h2>\n<p>\(e(title.question))</p>\n")
            func groups(_ value: (PracticeFigures) -> Double?, _ text: (PracticeFigures) -> String, interval: Bool)
                -> [SVGChart.Group]
            {
                practiceGroups(mine, value, text, interval: interval)
            }
            func kb(_ bytes: Double?) -> String { bytes.map { Format.number($0 / 1_000, decimals: 0) + " KB" } ?? "" }
            // From fewer than 10 workers the whiskers are no 95% interval (the table says what they cover).
            let whiskers =
                ofStore
                ? "the interval of the median run's figure, over the stored runs"
                : "the next run's "
                    + (mine.contains { $0.totalCoverage != nil } ? "interval" + shortOf95 : "95% interval")
            if practice == .store {
                figure(
                    SVGChart.bars(
                        id: "practice-store", title: "Storing the songs: parse + store time",
                        groups: groups(
                            \.totalNs,
                            { "\(Format.ms($0.totalNs)) ms (store \(Format.ms($0.storeNs)) ms, \($0.songs) songs)" },
                            interval: true),
                        axisLabel: "milliseconds, parse then store (shorter is better)"),
                    "Storing the songs: each way of writing them against the time to parse the feed and write every song (store time in brackets); whiskers: \(whiskers)."
                )
                continue
            }
            if practice == .read {
                figure(
                    SVGChart.bars(
                        id: "practice-read", title: "Reading the stored songs: time per screen",
                        groups: groups(\.totalNs, readText, interval: true),
                        axisLabel: "milliseconds per screen shown (shorter is better)"),
                    "Reading the stored songs: each way of reading against the time per screen (whiskers: \(whiskers)), with the pages SQLite read from the file per screen and, for the first of each pair, its time over the recommended choice's."
                )
                continue
            }
            figure(
                SVGChart.bars(
                    id: "practice-\(practice.rawValue)-total",
                    title: "\(title.heading): total time, bytes and requests",
                    groups: groups(
                        \.totalNs,
                        { f in
                            var text =
                                "\(Format.ms(f.totalNs)) ms · \(kb(f.wireBytes)) · \(Format.number(f.requests, decimals: 0)) req"
                            if practice == .cancel { text += " · \(f.afterCancelBytes ?? 0) B after" }
                            return text
                        }, interval: true),
                    axisLabel: "milliseconds until every kept song is ready (shorter is better)"),
                "\(title.heading): each choice's total time (start to every kept song ready; whiskers: \(whiskers)), with the bytes on the wire and the requests; \(ofStore ? "medians over the stored runs" : "the run's medians"), per network profile."
            )
            figure(
                SVGChart.bars(
                    id: "practice-\(practice.rawValue)-first-song", title: "\(title.heading): time to the first song",
                    groups: groups(\.firstSongNs, { "\(Format.ms($0.firstSongNs)) ms" }, interval: false),
                    axisLabel: "milliseconds to the first song of the first page (shorter is better)"),
                "\(title.heading): time from the first request to the first song the user can see.")
        }
    }
}
