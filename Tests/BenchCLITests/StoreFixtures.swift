import BenchEngine
import BenchResults
import StatsStore

extension StatsStoring {
    /// Summarises the runs a fixture stored without summaries, from their samples, as a command that
    /// writes the store does when it opens it (`bench report` and the other readers never do).
    func summariseStoredRuns() throws {
        try SummaryBackfill {
            RunResult.summarising(
                $0.samples, environment: $0.environment, settings: $0.settings, noise: $0.noise,
                documents: $0.documents, notTimed: $0.notTimed)
        }.summarise(try unsummarisedRuns(), in: self)
    }
}
