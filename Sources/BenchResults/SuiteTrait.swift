/// An optional part of the suite: a package trait (SwiftPM 6.1, SE-0450), on by default.
///
/// A package that depends on the suite may leave a part out (`traits: []`, or only the traits it
/// names): its build then skips that part's modules and dependencies. What needs a part left out
/// fails with ``SuiteTraitMissing``, which names the trait; a parser left out is not listed.
package enum SuiteTrait: String, CaseIterable, Sendable {
    /// The embedded feed server (FeedServing, SwiftNIO): the scenarios that download the feed from
    /// it, and `bench serve`.
    case feedServer = "FeedServer"
    /// The shared PostgreSQL stats store (`--store postgres://…`, libpq).
    case sharedStore = "SharedStore"
    /// The `xmlcoder` and `swxmlhash` parsers (XMLCoder, SWXMLHash).
    case codableParsers = "CodableParsers"

    /// Whether this build has the part.
    package var isEnabled: Bool {
        switch self {
        case .feedServer:
            #if FeedServer
                return true
            #else
                return false
            #endif
        case .sharedStore:
            #if SharedStore
                return true
            #else
                return false
            #endif
        case .codableParsers:
            #if CodableParsers
                return true
            #else
                return false
            #endif
        }
    }

    /// The traits this build has, in declaration order.
    package static var enabled: [SuiteTrait] { allCases.filter(\.isEnabled) }
}

/// A command or an option that needs a part of the suite this build left out: which, and how to
/// have it (exit status 1).
package struct SuiteTraitMissing: Error, CustomStringConvertible, Sendable {
    /// The trait that brings the part.
    package var trait: SuiteTrait
    /// What needs it, the subject of the sentence ("the download scenario").
    package var needer: String

    package init(_ trait: SuiteTrait, neededBy needer: String) {
        (self.trait, self.needer) = (trait, needer)
    }

    package var description: String {
        "\(needer) needs the suite's trait `\(trait.rawValue)`, which this build leaves out; enable it where your "
            + "package depends on the suite: .package(url: …, from: …, traits: [.defaults]) for every optional part, "
            + "or traits: [\"\(trait.rawValue)\"] (beside the others it keeps), then build again"
    }
}
