import BenchResults
import BenchWorker
import Foundation

/// Measures what the harness costs a worker beside its job (`WorkerHarness`): a worker with
/// nothing to do (`WorkerJob/harness(_:)`), started as every worker of the run is, at the start
/// of each timed round.
///
/// One worker a round: its figure follows the machine through the run, as the cells' do, at a
/// cost that does not grow with the cells. A harness worker that fails is left out (its failure is
/// no cell's); a run whose harness workers all failed says nothing of the harness.
package final class WorkerHarnessProbe: @unchecked Sendable {
    private let executable: String
    private let lock = NSLock()
    private var measured: [(startNs: Int, endNs: Int)] = []

    /// A probe of the workers `executable` starts.
    package init(executable: String) {
        self.executable = executable
    }

    /// Starts one harness worker and keeps its start and end.
    package func measureOne() {
        guard
            let outcome = try? WorkerProcess.run(
                WorkerCommand(executable: executable, job: .harness(HarnessJob())), timeout: 60),
            outcome.termination == .exited(0),
            let report = try? JSONDecoder().decode(HarnessReport.self, from: Data(outcome.result)),
            report.jobNanoseconds >= outcome.startedNanoseconds,
            report.jobNanoseconds <= outcome.startedNanoseconds + outcome.elapsedNanoseconds
        else { return }
        let start = Int(report.jobNanoseconds - outcome.startedNanoseconds)
        let end = Int(outcome.startedNanoseconds + outcome.elapsedNanoseconds - report.jobNanoseconds)
        lock.lock()
        measured.append((start, end))
        lock.unlock()
    }

    /// What the workers measured so far say.
    package func finish() -> WorkerHarness? {
        lock.lock()
        defer { lock.unlock() }
        return WorkerHarness.of(measured)
    }
}
