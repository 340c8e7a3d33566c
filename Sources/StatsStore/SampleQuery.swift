import BenchResults
import GRDB

/// The query behind ``StatsStoring/samples(matching:)``, in the SQL that SQLite and PostgreSQL
/// share: both stores run the same text, but for how a parameter is written (`?` or `$1`).
struct SampleQuery {
    var sql: String
    var arguments: [DatabaseValue]

    /// Builds the query of `filter`.
    ///
    /// - Parameters:
    ///   - filter: what the samples must match.
    ///   - placeholder: the text of the n-th parameter (1-based).
    init(_ filter: SampleFilter, placeholder: @escaping (Int) -> String) {
        var selection = Conditions(placeholder: placeholder)
        selection.addSampleConditions(filter)
        selection.addRunConditions(filter)
        let conditions = selection.conditions
        let arguments = selection.arguments
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        sql = """
            SELECT \(Self.columns)
            FROM samples s JOIN runs r ON r.run_id = s.run_id
            \(whereClause) ORDER BY r.started_at, s.run_id, s.id
            """
        self.arguments = arguments
    }

    /// A host's parse samples in its newest runs of its usual work (``CalibrationQuery/hostRuns(placeholder:)``)
    /// on some documents, for ``StatsStoring/parseHistory(host:excluding:lastRuns:feeds:)``.
    init(
        parseHistoryOf host: String, excluding runID: String?, lastRuns: Int, feeds: [String],
        placeholder: (Int) -> String
    ) {
        arguments = CalibrationQuery.hostRunsArguments(host: host, excluding: runID, lastRuns: lastRuns)
        let scenarios = CellScenario.historyNames.map { "'\($0)'" }.joined(separator: ", ")
        var feedList: [String] = []
        for feed in feeds {
            arguments.append(feed.databaseValue)
            feedList.append(placeholder(arguments.count))
        }
        sql = """
            SELECT \(Self.columns)
            FROM \(CalibrationQuery.hostRunsThenSamples(placeholder: placeholder))
                JOIN runs r ON r.run_id = s.run_id
            WHERE s.run_id = h.run_id AND s.debug = FALSE AND s.wall_ns IS NOT NULL AND s.scenario IN (\(scenarios))
                AND s.feed_sha256 IN (\(feedList.isEmpty ? "''" : feedList.joined(separator: ", ")))
            ORDER BY h.started_at, s.run_id, s.id
            """
    }

    /// The columns ``stored(_:)`` reads: the sample's, and its run's and machine's.
    static let columns = "s.*, " + runColumns

    /// The columns of a row's run and machine.
    static let runColumns = """
        r.started_at AS run_started_at, r.noisy AS run_noisy, r.complete AS run_complete,
            r.host AS run_host, r.cpu_model AS run_cpu_model, r.cores AS run_cores,
            r.swift_version AS run_swift_version, r.libxml2_version AS run_libxml2_version,
            r.expat_version AS run_expat_version, r.git_commit AS run_git_commit,
            r.retry_preempted AS run_retry_preempted
        """

    /// The query's conditions and their arguments, written with the store's placeholders, on a
    /// table `s` of cells (samples or summaries) joined to `runs r`.
    struct Conditions {
        let placeholder: (Int) -> String
        /// What leaves out debug builds' rows.
        var notDebug = "s.debug = FALSE"
        /// The column of a row's run, which `--last` chooses by.
        var runID = "s.run_id"
        var conditions: [String] = []
        var arguments: [DatabaseValue] = []

        /// A placeholder for `value`, added to the arguments.
        mutating func parameter(_ value: some DatabaseValueConvertible) -> String {
            arguments.append(value.databaseValue)
            return placeholder(arguments.count)
        }

        /// `column IN (values…)`, unless `values` is empty (no condition).
        mutating func addIn(_ column: String, _ values: [String]) {
            guard !values.isEmpty else { return }
            conditions.append("\(column) IN (\(values.map { parameter($0) }.joined(separator: ",")))")
        }

        /// One condition that holds when `clause` holds for any of `values`, unless `values` is empty.
        mutating func addAny(_ values: [String], _ clause: (inout Conditions, String) -> String) {
            guard !values.isEmpty else { return }
            var parts: [String] = []
            for value in values { parts.append(clause(&self, value)) }
            conditions.append("(" + parts.joined(separator: " OR ") + ")")
        }

        /// The parsers, scenarios and feed asked for.
        mutating func addSampleConditions(_ filter: SampleFilter) {
            addIn("s.parser", filter.parsers)
            // "conditional" selects both of its cells, "conditional-200" and "conditional-304".
            addAny(filter.scenarios) {
                "s.scenario = \($0.parameter($1)) OR substr(s.scenario, 1, \($1.count + 1)) = \($0.parameter($1 + "-"))"
            }
            if let feed = filter.feed {
                // The path, the path's end, or the digest; case-sensitive on both stores (LIKE is not:
                // SQLite's ignores ASCII case, PostgreSQL's does not), with nothing in the name special.
                let length = parameter(feed)
                let start = parameter(feed)
                let end = parameter(feed)
                conditions.append(
                    "(s.feed_path = \(parameter(feed)) OR s.feed_sha256 = \(parameter(feed)) "
                        + "OR (length(s.feed_path) >= length(\(length)) "
                        + "AND substr(s.feed_path, length(s.feed_path) - length(\(start)) + 1) = \(end)))")
            }
        }

        /// The machines, dates and kinds of run asked for.
        mutating func addRunConditions(_ filter: SampleFilter) {
            addIn("r.host", filter.hosts)
            // A part of the CPU's model name, in any case ("xeon", "EPYC 7763").
            addAny(filter.cpus) { "LOWER(r.cpu_model) LIKE \($0.parameter("%" + $1.lowercased() + "%"))" }
            if let since = filter.since {
                conditions.append("r.started_at >= \(parameter(since))")
            }
            if !filter.includeDebug {
                conditions.append(notDebug)
            }
            if !filter.includeGateTests {
                conditions.append("COALESCE(r.slowdown_percent, 0) = 0")
            }
            if filter.excludeIncomplete {
                conditions.append("r.complete = TRUE")
            }
            if let last = filter.lastRuns {
                conditions.append(
                    "\(runID) IN (SELECT run_id FROM runs ORDER BY started_at DESC LIMIT \(parameter(last)))")
            }
        }
    }

    /// A row of the query as a sample with its run and machine.
    static func stored(_ row: NamedRow) throws -> StoredSample {
        let record = try SampleRecord(named: row)
        var stored = StoredSample(runID: record.runID, runStartedAt: row["run_started_at"], sample: record.sample)
        stored.runNoisy = row["run_noisy"]
        stored.runComplete = row["run_complete"]
        stored.runGitCommit = row["run_git_commit"]
        stored.runRetriesPreempted = row["run_retry_preempted"]
        stored.machine = machine(row)
        return stored
    }

    /// The machine of a row's run (``runColumns``).
    static func machine(_ row: NamedRow) -> Machine {
        Machine(
            host: row["run_host"], cpuModel: row["run_cpu_model"], cores: row["run_cores"],
            swiftVersion: row["run_swift_version"], libxml2Version: row["run_libxml2_version"],
            expatVersion: row["run_expat_version"])
    }
}
