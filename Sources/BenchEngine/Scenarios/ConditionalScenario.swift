import BenchResults

/// `conditional`: a download, then a second request with its validators that gets 304.
///
/// Two cells, `conditional-200` and `conditional-304`, measured by one download worker: the 304
/// cell rides with the 200 one.
struct ConditionalScenario: BenchScenario {
    func cells(in plan: RunPlan) -> [CellScenario] { [.conditional200, .conditional304] }

    func startsWorker(_ cell: CellScenario) -> Bool { cell != .conditional304 }

    func measure(_ cell: CellKey, in context: CellContext) -> [CellRun] {
        var revalidation = cell
        revalidation.scenario = .conditional304
        return DownloadScenario.measure(cell, revalidating: revalidation, in: context)
    }
}
