import Foundation
import Testing

/// The time limit of a test that runs `bench` end to end: long, because it guards against a hang
/// and nothing else. Such tests run side by side (Swift Testing runs tests in parallel), each
/// starting processes that start workers, on machines that may be busy: on 2 cores loaded by two
/// CPU hogs or a build beside them, a test of 2 minutes on a quiet machine took more than 6. A
/// limit that a busy machine can pass would make a slow machine a failing test; the CI job's own
/// limit stops a real hang anyway.
extension Trait where Self == TimeLimitTrait {
    public static var endToEnd: Self { .timeLimit(.minutes(20)) }
}

/// How long a test waits for what a running `bench` should soon do (a worker started, a first cell
/// stored) before it gives up: as long as ``Trait/endToEnd`` allows, for the same reason.
public enum TestWaits {
    public static let condition: TimeInterval = 600
}
