import Foundation
import PackagePlugin

/// Compiles the two libraries that only the counting workers preload, as resources of the target it
/// is applied to (`BenchWorkerLibraries`): SwiftPM copies them into that target's resource directory
/// beside every executable that depends on it, and links them into none (`readelf -d` names neither).
///
/// - `libFrozenClock.so`: the target's `FrozenClock/frozen_clock.c` (`time()` frozen for the
///   instruction-counting worker).
/// - `libMallocInterposerSwift.so`: ordo-one/malloc-interposer's C interposer (the package the suite
///   depends on, wherever SwiftPM checked it out), the functions the allocation-counting worker looks
///   up (`malloc_interposer_enable`…, by `dlsym`); its Swift wrapper, which no worker calls, is not
///   compiled.
///
/// A plugin rather than a package of their own: a package depended on by URL and version may not
/// have path dependencies, and a dynamic library product, once a target depends on it, is linked.
/// The compiler is the toolchain's `clang`.
@main
struct WorkerLibraries: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let clang = try context.tool(named: "clang").url
        let output = context.pluginWorkDirectoryURL
        let frozenClock = target.directoryURL.appending(path: "FrozenClock")
        guard
            let interposer = context.package.dependencies.first(where: { $0.package.id == "malloc-interposer" })?
                .package
        else {
            throw WorkerLibrariesError(description: "the package does not depend on ordo-one/malloc-interposer")
        }
        let interposerC = interposer.directoryURL.appending(path: "Sources/MallocInterposerC")
        #if os(macOS)
            let (interposerSource, suffix) = ("src/interposer-darwin.c", "dylib")
        #else
            let (interposerSource, suffix) = ("src/interposer-unix.c", "so")
        #endif
        let libraries: [(name: String, source: URL, include: URL, libraries: [String])] = [
            (
                "libFrozenClock", frozenClock.appending(path: "frozen_clock.c"), frozenClock.appending(path: "include"),
                []
            ),
            (
                "libMallocInterposerSwift", interposerC.appending(path: interposerSource),
                interposerC.appending(path: "include"), ["-ldl"]
            ),
        ]
        return libraries.map { library in
            let file = output.appending(path: "\(library.name).\(suffix)")
            return .buildCommand(
                displayName: "Compiling \(file.lastPathComponent) (preloaded by the counting workers)",
                executable: clang,
                arguments: [
                    "-shared", "-fPIC", "-O2", "-std=gnu11", "-I", library.include.path(), library.source.path(),
                ] + library.libraries + ["-o", file.path()],
                inputFiles: [library.source],
                outputFiles: [file])
        }
    }
}

/// Why the libraries cannot be compiled.
struct WorkerLibrariesError: Error, CustomStringConvertible {
    var description: String
}
