import Foundation

/// Synthetic git histories for `bench bisect`'s tests: a repository whose "package" holds each
/// parser's instruction count in a file, and a stand-in for `swift` whose `build` makes an
/// executable that writes a run file with those counts, as a counted run of the suite does.
public enum SyntheticHistory {
    /// A stand-in for `swift build -c release --package-path P --scratch-path S --product N`: fails
    /// where the package has a file BROKEN, else writes S/release/N, a script whose `run … --output-dir
    /// D` writes D/<run-id>.json with one sample per line of P/counts ("parser count").
    public static let fakeSwift = #"""
        #!/bin/sh
        [ "$1" = build ] || exit 64
        while [ $# -gt 0 ]; do
            case "$1" in
            --package-path) package=$2; shift ;;
            --scratch-path) scratch=$2; shift ;;
            --product) product=$2; shift ;;
            esac
            shift
        done
        if [ -f "$package/BROKEN" ]; then echo "error: this commit does not build" >&2; exit 1; fi
        mkdir -p "$scratch/release"
        cat >"$scratch/release/$product" <<EOF
        #!/bin/sh
        while [ \$# -gt 0 ]; do [ "\$1" = --output-dir ] && out=\$2; shift; done
        mkdir -p "\$out"
        { printf '{"samples":['; sep=''
          while read -r parser count; do
            printf '%s{"cell":{"parser":"%s","scenario":"parse"},"instructions":%s}' "\$sep" "\$parser" "\$count"; sep=','
          done <"$package/counts"; printf ']}'; } >"\$out/20261202T000000Z-abcd.json"
        EOF
        chmod +x "$scratch/release/$product"
        """#

    /// A repository of `counts.count` commits, commit k's file holding `counts[k]` for the parser
    /// `app` (and a `null` baseline that moves freely), with BROKEN in the commits of `broken`.
    public static func repository(_ counts: [Int], broken: Set<Int> = [], in directory: TemporaryDirectory) throws
        -> String
    {
        let root = directory.path("repo")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        func git(_ arguments: String...) throws {
            let result = try runProgram("/usr/bin/git", ["-C", root] + arguments)
            guard result.status == 0 else {
                throw HistoryFailure(description: "git \(arguments): \(result.standardError)")
            }
        }
        try git("init", "-q", "-b", "main")
        try git("config", "user.email", "test@example.invalid")
        try git("config", "user.name", "Test")
        for (index, count) in counts.enumerated() {
            try "app \(count)\nnull \(100 + index)\n".write(
                toFile: root + "/counts", atomically: true, encoding: .utf8)
            let brokenFile = root + "/BROKEN"
            if broken.contains(index) {
                try "".write(toFile: brokenFile, atomically: true, encoding: .utf8)
            } else {
                try? FileManager.default.removeItem(atPath: brokenFile)
            }
            try git("add", "-A")
            try git("commit", "-q", "-m", "commit \(index)")
        }
        try "<rss/>".write(toFile: root + "/feed.xml", atomically: true, encoding: .utf8)
        return root
    }

    public static func counts(_ steps: [(at: Int, percent: Double)], commits: Int = 16, base: Int = 1_000_000) -> [Int]
    {
        (0..<commits).map { index in
            var value = Double(base)
            for step in steps where index >= step.at { value *= 1 + step.percent / 100 }
            // Small moves below the threshold between unrelated commits.
            return Int(value) + index % 3
        }
    }

    /// The stand-in `swift` written into `directory`/bin, executable; its path.
    public static func installFakeSwift(in directory: TemporaryDirectory, slow: Bool = false) throws -> String {
        let bin = directory.path("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let script =
            slow
            ? fakeSwift.replacingOccurrences(
                of: "[ \"$1\" = build ] || exit 64", with: "[ \"$1\" = build ] || exit 64\nsleep 2") : fakeSwift
        try script.write(toFile: bin + "/swift", atomically: true, encoding: .utf8)
        chmod(bin + "/swift", 0o755)
        return bin + "/swift"
    }
}

/// A git command of a synthetic history that failed.
public struct HistoryFailure: Error, CustomStringConvertible {
    public var description: String
}
