@testable import BenchResults
import BenchTestSupport
import Foundation
import Testing

@testable import BenchEngine

/// The profile of a counted parse and the explanation of a change, on small deterministic builds:
/// a C program and a Swift program that each parse 300 "items" in a function named like a counted
/// worker's region, built once as they are and once with a change put at a known place, and run
/// under callgrind as a counted worker is (collection toggled on the region, a dump after each).
@Suite("Profiles: a change explained by the function where it was put")
struct ProfileExplanationTests {
    static let valgrind = InstructionCounter.findExecutable("valgrind")
    static let compiler = InstructionCounter.findExecutable("cc") ?? InstructionCounter.findExecutable("gcc")
    static let swiftc = InstructionCounter.findExecutable("swiftc")

    /// A parse of 300 items: each is copied (one allocation), then its title extracted.
    static let program = """
        #include <stdlib.h>
        #include <string.h>
        static volatile int sink;
        __attribute__((noinline)) int extract_title(const char *p, int n) {
            int s = 0;
            for (int i = 0; i < n; i++) s += p[i];
        #ifdef EXTRA_WORK
            for (int i = 0; i < n / 2; i++) s ^= p[i] * 3;
        #endif
            return s;
        }
        __attribute__((noinline)) int parse_item(const char *p, int n) {
            char *copy = malloc(n + 1);
            memcpy(copy, p, n);
            copy[n] = 0;
            int s = extract_title(copy, n);
        #ifdef EXTRA_ALLOCATION
            /* Through a volatile pointer: the compiler would otherwise drop a malloc freed at once. */
            static char *volatile more;
            more = malloc(16);
            more[0] = (char)s;
            s += more[0];
            free(more);
        #endif
            free(copy);
            return s;
        }
        __attribute__((noinline)) int callgrindParseRegion(const char *doc, int items, int n) {
            int s = 0;
            for (int k = 0; k < items; k++) s += parse_item(doc + k, n);
            return s;
        }
        int main(void) {
            static char doc[4096];
            memset(doc, 'a', sizeof doc);
            for (int round = 0; round < 3; round++) sink = callgrindParseRegion(doc, 300, 64);
            return 0;
        }
        """

    /// The same in Swift: an adapter whose `extractTitle` gets the extra work.
    static let swiftProgram = """
        @inline(never) func extractTitle(_ item: UnsafeBufferPointer<UInt8>) -> Int {
            var s = 0
            for byte in item { s &+= Int(byte) }
            #if EXTRA_WORK
            for byte in item.prefix(item.count / 2) { s ^= Int(byte) &* 3 }
            #endif
            return s
        }
        @inline(never) func parseItem(_ item: UnsafeBufferPointer<UInt8>) -> Int { extractTitle(item) &+ 1 }
        @inline(never)
        func callgrindParseRegion(_ doc: UnsafePointer<UInt8>, _ count: Int) -> Int {
            var s = 0
            for k in 0..<min(300, count - 64) { s &+= parseItem(UnsafeBufferPointer(start: doc + k, count: 64)) }
            return s
        }
        let doc = [UInt8](repeating: 97, count: 4096)
        var total = 0
        for _ in 0..<3 { total &+= doc.withUnsafeBufferPointer { callgrindParseRegion($0.baseAddress!, $0.count) } }
        if total == 42 { print(total) }
        """

    /// Builds `source` with `defines`, runs it under callgrind as a counted worker runs, and returns
    /// the profile of its median counted parse (the second and third of three: one warm-up).
    static func profile(
        _ source: String, language: String, defines: [String], in directory: TemporaryDirectory, name: String
    ) throws -> CellProfile {
        let file = try directory.write("\(name).\(language)", source)
        // Both builds have one name, as two builds of `bench` do: the profiles name the executable's
        // functions by it.
        try FileManager.default.createDirectory(atPath: directory.path(name), withIntermediateDirectories: true)
        let binary = directory.path("\(name)/program")
        let build =
            language == "c"
            ? try runProgram(
                try #require(compiler), ["-O1", "-o", binary, file] + defines.map { "-D\($0)" })
            : try runProgram(
                try #require(swiftc), ["-O", "-o", binary, file] + defines.flatMap { ["-D", $0] })
        try #require(build.status == 0, "\(build.standardError)")
        let prefix = directory.path("\(name).out")
        // The region's name as the object has it (Swift's is mangled), as a counted worker finds it.
        let listed = try runProgram(try #require(InstructionCounter.findExecutable("nm")), [binary])
        let region = try #require(
            listed.standardOutput.split(separator: "\n").compactMap { $0.split(separator: " ").last }
                .first { $0.contains("callgrindParseRegion") })
        let run = try runProgram(
            try #require(valgrind),
            [
                "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=\(InstructionCounter.togglePattern)",
                "--dump-after=\(region)", "--callgrind-out-file=\(prefix)", "--dump-instr=no",
                "--compress-strings=no",
            ] + InstructionCounter.cacheSimulation + [binary])
        try #require(run.status == 0, "\(run.standardError)")
        let dumps = try InstructionCounter.read(
            outputPrefix: prefix, count: 3, measured: 2, executable: binary, executableName: "program")
        // The first measured parse (the two count the same here).
        let (parse, profile) = try #require(dumps.profiles.first)
        var demangled = profile
        let names = SwiftDemangler.demangle(profile.functions.map(\.name)).names
        for index in demangled.functions.indices { demangled.functions[index].name = names[index] }
        return CellProfile(key: key, round: 1, parse: parse, profile: demangled)
    }

    static let key = ComparisonKey(
        parser: "test", scenario: CellScenario(.parse), feed: "items", chunkSize: 0, network: "")

    static func explain(_ baseline: CellProfile, _ current: CellProfile) -> CellExplanation {
        CellExplanation.explain(key, baseline: baseline, current: current, baselineRun: "base", currentRun: "head")
    }

    @Test(.enabled(if: valgrind != nil && compiler != nil, "needs valgrind and a C compiler"))
    func extraWorkInACFunctionIsItsFirstRow() throws {
        let directory = try TemporaryDirectory()
        let base = try Self.profile(Self.program, language: "c", defines: [], in: directory, name: "base")
        let head = try Self.profile(Self.program, language: "c", defines: ["EXTRA_WORK"], in: directory, name: "head")
        let explanation = Self.explain(base, head)
        #expect(explanation.basis == .instructions)
        #expect(explanation.delta > 0)
        #expect(explanation.rows.first?.name == "extract_title")
        #expect(explanation.rows.first?.object == "program")
        #expect(explanation.rows.first?.baseline != nil && explanation.rows.first?.current != nil)
        #expect((explanation.explained(top: 5) ?? 0) >= 0.8)
        // The caller's inclusive cost moved with its callee's; its own hardly (a frame's layout).
        let caller = explanation.rows.first { $0.name == "parse_item" }
        #expect(abs(caller?.delta ?? 0) * 10 < explanation.delta)
        #expect(
            caller.map { ($0.currentInclusive ?? 0) - ($0.baselineInclusive ?? 0) } ?? explanation.delta >= explanation
                .delta * 9 / 10)
        #expect(explanation.allocations.isEmpty)
        #expect(explanation.inCode?.first?.name == "extract_title")
        // The profile's own costs add up to the parse's instructions.
        let selfSum = head.profile.functions.reduce(0) { $0 + ($1.selfCost.first ?? 0) }
        #expect(selfSum == head.profile.instructions)
    }

    @Test(.enabled(if: valgrind != nil && compiler != nil, "needs valgrind and a C compiler"))
    func anExtraAllocationPerItemIsItsCallers() throws {
        let directory = try TemporaryDirectory()
        let base = try Self.profile(Self.program, language: "c", defines: [], in: directory, name: "base")
        let head = try Self.profile(
            Self.program, language: "c", defines: ["EXTRA_ALLOCATION"], in: directory, name: "head")
        let explanation = Self.explain(base, head)
        #expect(explanation.currentAllocations - explanation.baselineAllocations == 300)
        #expect(explanation.allocations.first?.caller == "parse_item")
        #expect(explanation.allocations.first?.delta == 300)
        // The allocator's own functions rank first by self cost; charged to the program's own
        // functions, the change is the caller's, where it was put.
        let charged = try #require(explanation.inCode?.first)
        #expect(charged.name == "parse_item")
        #expect((charged.share ?? 0) >= 0.8)
        #expect((explanation.explained(top: 5) ?? 0) >= 0.8)
    }

    @Test(.enabled(if: valgrind != nil && swiftc != nil, "needs valgrind and swiftc"))
    func extraWorkInASwiftFunctionIsItsFirstRowDemangled() throws {
        let directory = try TemporaryDirectory()
        let base = try Self.profile(Self.swiftProgram, language: "swift", defines: [], in: directory, name: "base")
        let head = try Self.profile(
            Self.swiftProgram, language: "swift", defines: ["EXTRA_WORK"], in: directory, name: "head")
        let explanation = Self.explain(base, head)
        let first = try #require(explanation.rows.first)
        #expect(first.name.hasPrefix("extractTitle("), "\(explanation.rows.prefix(3).map(\.name))")
        #expect(first.object == "program")
        #expect((explanation.explained(top: 5) ?? 0) >= 0.8)
        // Stacks rebuilt from the call graph hold every instruction, under the region.
        let stacks = FoldedStacks(head.profile)
        let total = stacks.stacks.reduce(0) { $0 + $1.cost }
        #expect(abs(total - head.profile.instructions) <= stacks.stacks.count)
        #expect(stacks.stacks.allSatisfy { $0.frames.first?.contains("callgrindParseRegion") == true })
        #expect(stacks.stacks.contains { $0.frames.last?.contains("extractTitle") == true })
    }
}

/// Two sides' parses are matched by their place in the worker: a parse's count can differ from the
/// next one's (libxml2's dictionary grows over parses), and a change of one parse alone is explained
/// from that parse, not from two parses that were never the same work.
@Suite("Profiles: parses matched by their place")
struct ParseMatchingTests {
    static func parse(_ number: Int, _ instructions: Int) -> CellProfile {
        let function = ParseProfile.Function(
            name: "work", object: "bench", selfCost: [instructions], inclusive: instructions, calls: 1)
        return CellProfile(
            key: ProfileExplanationTests.key, round: 1, parse: number,
            profile: ParseProfile(events: ["Ir"], totals: [instructions], functions: [function], calls: []))
    }

    @Test func theParseThatMovedIsExplained() {
        let baseline = [Self.parse(1, 1_000), Self.parse(2, 1_300), Self.parse(3, 1_100), Self.parse(4, 1_000)]
        let current = [Self.parse(1, 1_000), Self.parse(2, 1_050), Self.parse(3, 1_100), Self.parse(4, 1_000)]
        let explanation = CellExplanation.explain(
            ProfileExplanationTests.key, baseline: baseline, current: current, baselineRun: "a", currentRun: "b")
        #expect(explanation.baselineParseNumber == 2 && explanation.currentParseNumber == 2)
        #expect(explanation.delta == -250)
        #expect(explanation.perParse?.map(\.delta) == [0, -250, 0, 0])
        // The lower middle parses (by count) would have compared parse 4 with parse 2: a change of 50
        // that no code made.
        #expect(explanation.note == nil)
    }

    @Test func parsesAtNoCommonPlaceAreSaid() {
        let explanation = CellExplanation.explain(
            ProfileExplanationTests.key, baseline: [Self.parse(4, 1_000)], current: [Self.parse(1, 1_000)],
            baselineRun: "a", currentRun: "b")
        #expect(explanation.note?.contains("no profiled parse at the same place") == true)
    }
}

@Suite("callgrind's dump format read into a profile")
struct CallgrindDumpTests {
    /// Compressed names (`(id) name`, then `(id)`), a call's inclusive cost, objects per function.
    static let dump = """
        # callgrind format
        version: 1
        positions: line
        events: Ir Dr Dw
        summary: 1000 10 5

        ob=(1) /tmp/x/bench-stripped
        fl=(1) ???
        fn=(1) callgrindParseRegion
        0 100 1 1
        cob=(2) /usr/lib/x86_64-linux-gnu/libxml2.so.2.9.14
        cfi=(2) ???
        cfn=(2) xmlParseChunk
        calls=2 0
        0 900 9 4

        ob=(2)
        fl=(2)
        fn=(2)
        +1 500 5 2
        cob=(3) /usr/lib/x86_64-linux-gnu/libc.so.6
        cfn=(3) malloc
        calls=4 0
        0 400 4 2

        ob=(3)
        fn=(3)
        0 400 4 2

        totals: 1000 10 5
        """

    @Test func namesObjectsCallsAndCostsAreRead() throws {
        let profile = try CallgrindDump.profile(Self.dump, executable: "/tmp/x/bench-stripped", executableName: "bench")
        #expect(profile.events == ["Ir", "Dr", "Dw"])
        #expect(profile.instructions == 1000)
        let byName = Dictionary(uniqueKeysWithValues: profile.functions.map { ($0.name, $0) })
        #expect(byName["callgrindParseRegion"]?.object == "bench")
        #expect(byName["xmlParseChunk"]?.object == "libxml2")
        #expect(byName["malloc"]?.object == "libc")
        #expect(byName["xmlParseChunk"]?.selfCost == [500, 5, 2])
        #expect(byName["xmlParseChunk"]?.inclusive == 900)
        #expect(byName["xmlParseChunk"]?.calls == 2)
        #expect(byName["callgrindParseRegion"]?.inclusive == 1000)
        #expect(profile.calls.count == 2)
        #expect(Allocations.byCaller(profile).first?.value == 4)
    }

    @Test func aDumpThatIsNotCallgrindsIsRefused() {
        #expect(throws: CallgrindDump.Malformed.self) { try CallgrindDump.profile("events: Ir\nfn=a\n12 zz\n") }
        #expect(throws: CallgrindDump.Malformed.self) { try CallgrindDump.profile("fn=a\n1 2\n") }
        #expect(throws: CallgrindDump.Malformed.self) {
            try CallgrindDump.profile("events: Ir\nfn=a\ncfn=b\ncalls=1 0\n")
        }
    }

    @Test func anUnnamedFunctionShowsItsAddress() {
        #expect(ObjectName.function("0x0000000000059760") == "0x59760 (no symbol)")
        #expect(ObjectName.function("xmlParseChunk") == "xmlParseChunk")
        #expect(ObjectName.short("/usr/lib/x86_64-linux-gnu/libexpat.so.1.8.10") == "libexpat")
    }
}
