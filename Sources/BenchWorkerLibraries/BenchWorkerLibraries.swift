// The libraries only the counting workers preload: the WorkerLibraries plugin compiles
// libFrozenClock.so (FrozenClock/, left out of the module) and libMallocInterposerSwift.so as this
// target's resources, which SwiftPM copies into `<package>_BenchWorkerLibraries.resources/` beside
// every executable that depends on it (BenchCLI does) and links into none. BenchEngine's
// WorkerLibrary looks for them there. This file is the module's only source: a target needs one.

/// The resources' module, which holds no code.
package enum BenchWorkerLibraries {}
