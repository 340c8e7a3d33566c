import BenchResults
import Testing

/// Where an interrupted run says it stopped: in the round of the last worker it started (which the
/// signal may have killed before it finished), or after its rounds, while counting.
@Suite("An interrupted run's rounds")
struct RunInterruptionTests {
    @Test func theRoundIsTheLastWorkerStartedNotTheLastFinished() {
        // The signal killed round 7's first worker: 6 rounds finished, the 7th begun.
        let seventh = RunInterruption(
            signal: "SIGINT", lastStartedRound: 7, finishedRounds: [1, 2, 3, 4, 5, 6], roundsAsked: 40,
            workersFinished: 42, workersPlanned: 322)
        #expect(seventh.rounds == 7 && seventh.duringRounds)
        #expect(seventh.phrase == "interrupted by SIGINT in round 7 of 40")
        #expect(seventh.workersPerCell == "up to 7 workers")
        // The first worker of the run: nothing finished, round 1 begun.
        let first = RunInterruption(
            signal: "SIGTERM", lastStartedRound: 1, finishedRounds: [], roundsAsked: 40, workersFinished: 0,
            workersPlanned: 322)
        #expect(first.rounds == 1 && first.phrase == "interrupted by SIGTERM in round 1 of 40")
        // Counting allocations after 15 rounds the stopping rule ended: the rounds are over.
        let counting = RunInterruption(
            signal: "SIGINT", lastStartedRound: 0, finishedRounds: [0, 15, 14, 0], roundsAsked: 40,
            workersFinished: 107, workersPlanned: 112)
        #expect(counting.rounds == 15 && !counting.duringRounds)
        #expect(counting.phrase == "interrupted by SIGINT after its 15 rounds, while counting")
        #expect(counting.workersPerCell == "15 workers")
        // Before any worker was started.
        let none = RunInterruption(
            signal: "SIGINT", lastStartedRound: nil, finishedRounds: [], roundsAsked: 40, workersFinished: 0,
            workersPlanned: 0)
        #expect(none.rounds == 0 && none.phrase == "interrupted by SIGINT before its first worker finished")
    }
}
