import PackagePlugin

/// Records the version of the compiler that builds the package (`swiftc --version`, first line) in
/// a generated Swift file of the target it is applied to: `BuildCompiler.version`.
///
/// The runs record which compiler built the binary they measure. The compiler's version is not
/// available to the code it compiles (`#if compiler(>=…)` only tests a bound), so it is read here,
/// at build time, from the toolchain that builds the target.
@main
struct CompilerVersion: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let swiftc = try context.tool(named: "swiftc")
        let tool = try context.tool(named: "CompilerVersionTool")
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildCompiler.swift")
        return [
            .buildCommand(
                displayName: "Recording the compiler's version for \(target.name)",
                executable: tool.url,
                arguments: [swiftc.url.path(), output.path()],
                inputFiles: [swiftc.url],
                outputFiles: [output])
        ]
    }
}
