/// What a run measures when its options do not say: `bench run`'s rounds, warm-ups, iterations,
/// chunk size, timeout and stopping rule, and `bench sweep`'s own (``Sweep``).
package enum RunDefaults {
    /// Rounds (workers per parser and cell): many short workers.
    ///
    /// The most a run given no rounds runs: a timed parse or document run stops sooner, once its
    /// ratios are ``precision`` narrow.
    ///
    /// The noise between processes is most of a ratio's noise here, so more workers narrow it more per
    /// second than more parses in each (docs/figures.md, "What narrows a ratio here"): 40 workers of 2
    /// parses after 2 warm-ups moved a ratio between runs about half as much as 20 of 5 after 1, for
    /// 1.7 times the time, and their 95% intervals held the next run's ratios 118 times in 120 on a
    /// quiet machine (20 of 5: 95 and 88).
    package static let rounds = 40

    /// Untimed warm-ups per worker: two, as Foundation's second parse in a process is 27% slower
    /// than the ones after it (a median of 2 parses would take it in; a median of 5 dropped it).
    package static let warmup = 2

    /// Untimed warm-ups per download and practice worker (a warm-up asked for sets both): one, as
    /// the second warm-up is a parse effect, and a download's costs a quarter of a second.
    package static let downloadWarmup = 1

    /// Timed iterations per worker in parse cells, in download cells, and in download and practice
    /// cells of a run that has practices (its download and practice workers share one setting,
    /// `RunSettings.downloadIterations`).
    ///
    /// Practices keep the 3 they were measured with. Download cells alone time 2 (3 until issue 46):
    /// each is a shaped transfer of a quarter of a second, and a worker's figure is its median,
    /// which for 2 is their mean: its variance is 1.11 times a median of 3's for normal noise, so
    /// the next-run interval from 5 workers is about 5% wider in theory. Measured on this 2-core
    /// machine kind (2026-11-27, five download-only runs of each, alternated): each run's parse
    /// medians fell in another's next-run interval 98 times in 140 with 2, 100 in 140 with 3; the
    /// download-only run took 12.1 s instead of 17.5.
    package static let iterations = (parse: 2, download: 2, practice: 3)

    /// Bytes pushed into a parser at a time.
    package static let chunkSize = 16_384

    /// Seconds one timed parse may take.
    package static let timeoutSeconds: Double = 30

    /// Worker processes per parser in download cells, spread evenly over the rounds.
    package static let downloadRounds = 5

    /// Songs per page in the queue scenario (`--queue-page-size`).
    package static let queuePageSize = 25

    /// Download workers of a round that run at once, each fetching over a shaped link of its own
    /// (`RunSettings.downloadsAtOnce`): two.
    ///
    /// Measured on this 2-core machine kind (issue 46; 10 workers a parser, wifi): two at once gave
    /// the download, parse, total and first-song medians of one at a time (each within the other's
    /// next-run interval) in 35 s instead of 60; three raised the parse medians 10–20%, seven up to
    /// 2.5 times (Foundation's), as the HTTP client of a download worker (FoundationNetworking over
    /// libcurl) keeps most of a core busy while it waits on its link.
    package static let downloadsAtOnce = 2

    /// The most rounds of a run with a precision or a time limit and no rounds given.
    package static let stoppingMaxRounds = 100
    /// The time limit of a run with a precision and no time limit given.
    package static let stoppingMaxSeconds: Double = 300
    /// The precision of a timed parse or document run given none of rounds, precision and time
    /// limit: ±2%.
    ///
    /// About the half-width of the ratios' intervals after the 40 rounds such a run always
    /// ran before (the default corpus's table: for example 1.04 (1.02–1.06)). It stops as soon as
    /// every ratio is that precise, after at least ``floorRounds`` and at most ``rounds`` rounds, with
    /// no time limit: on a quiet machine the song table got there in 13–18 rounds (docs/figures.md),
    /// a busy one runs the 40 it always ran.
    package static let precision = 0.02
    /// The fewest rounds of a run stopped by ``precision``: 10 workers give a next-run interval its 95%
    /// coverage (5 give 83%).
    package static let floorRounds = 10
    /// The most rounds of a document-workload run given none of rounds, precision and time limit
    /// (it stops sooner at ``precision``): a round of the default corpus is 72 workers, 5.5 s on this
    /// 2-core machine kind, so that its answer comes in about a minute and a half rather than four
    /// (issue 46), with 95% next-run intervals still (15 workers give them 98.6% coverage) and its
    /// ratios' intervals about 1.6 times as wide as 40 rounds' when the machine is noisy (the run
    /// says which stayed wider than ±2%).
    package static let documentRounds = 15

    /// `bench sweep`'s: fewer, longer workers (a sweep's sizes reach 30,000 songs and 10 MB).
    package enum Sweep {
        package static let rounds = 5
        package static let iterations = 3
        package static let warmup = 1
        package static let chunkSize = RunDefaults.chunkSize
        /// Seconds one timed parse may take (the largest documents take seconds in a debug build).
        package static let timeoutSeconds: Double = 120
        /// The scale sweep's feeds, in songs, and its shaped documents, in bytes.
        package static let songs = [300, 3_000, 30_000]
        package static let bytes = [100_000, 1_000_000, 10_000_000]
        /// The chunk-size sweep's chunk sizes in bytes; 0 is the whole document at once.
        package static let chunkSizes = [64, 512, 4_096, 16_384, 65_536, 0]
        /// The chunk-size sweep's feed, in songs, and its shaped document, in bytes.
        package static let chunkSongs = 300
        package static let chunkBytes = 1_000_000
    }
}
