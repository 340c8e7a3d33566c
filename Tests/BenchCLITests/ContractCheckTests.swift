import BenchTestSupport
import Foundation
import Testing

@testable import BenchCLI
@testable import BenchEngine
@testable import FeedParsers

/// A reader that replays expat's events for the document (in this process), each broken reader
/// below changing one thing about them, as an outside parser would get it wrong.
protocol ReplayingReader: XMLEventReader {
    /// The events to report for `document`, from expat's; `nil` when expat rejects it.
    static func events(_ events: [DocumentEvent]?, document: [UInt8]) throws -> [DocumentEvent]
    /// What goes to the handler for a namespace declaration. Default: `namespaceDeclaration`.
    static func declare<Events: XMLEventHandler>(prefix: String, uri: String, into handler: inout Events) throws
    /// What goes to the handler for a start tag. Default: its name as expat reports it.
    static func start<Events: XMLEventHandler>(_ name: DocumentEvent.Name, into handler: inout Events) throws
}

extension ReplayingReader {
    static var summary: String { "a deliberately broken reader (tests of bench verify --contract)" }

    static func events(_ events: [DocumentEvent]?, document: [UInt8]) throws -> [DocumentEvent] {
        guard let events else { throw FeedParseError(parser: name, message: "not well-formed", line: 1, column: 1) }
        return events
    }

    static func declare<Events: XMLEventHandler>(prefix: String, uri: String, into handler: inout Events) throws {
        try handler.namespaceDeclaration(prefix: prefix, namespaceURI: uri)
    }

    static func start<Events: XMLEventHandler>(_ name: DocumentEvent.Name, into handler: inout Events) throws {
        try handler.startElement(namespaceURI: name.uri, localName: name.local, prefix: name.prefix)
    }

    static func read<Events: XMLEventHandler>(_ document: UnsafeRawBufferPointer, into handler: inout Events) throws {
        let bytes = [UInt8](document)
        let expat = try ContractCheckTests.inProcess("expat", bytes)
        for event in try events(expat, document: bytes) {
            switch event {
            case .start(let name, let attributes):
                try start(name, into: &handler)
                for attribute in attributes {
                    if attribute.name.uri == "http://www.w3.org/2000/xmlns/" {
                        let prefix = attribute.name.prefix.isEmpty ? "" : attribute.name.local
                        try declare(prefix: prefix, uri: attribute.value, into: &handler)
                    } else {
                        try handler.attribute(
                            namespaceURI: attribute.name.uri, localName: attribute.name.local,
                            prefix: attribute.name.prefix, value: attribute.value)
                    }
                }
                try handler.startElementEnded()
            case .end: try handler.endElement()
            case .text(let text): try handler.characters(text)
            case .processingInstruction(let target, let data):
                try handler.processingInstruction(target: target, data: data)
            }
        }
    }
}

/// Reports the line ends and spaces after the root element as text.
enum TextOutsideRootReader: ReplayingReader {
    static let name = "broken-outside-root"
    static func events(_ events: [DocumentEvent]?, document: [UInt8]) throws -> [DocumentEvent] {
        guard let events else { throw FeedParseError(parser: name, message: "not well-formed", line: 1, column: 1) }
        let tail = document.reversed().prefix { [0x20, 0x0A, 0x0D, 0x09].contains($0) }
        return tail.isEmpty ? events : events + [.text(String(decoding: tail, as: UTF8.self))]
    }
}

/// Reports namespace declarations as attributes in no namespace (`xmlns:p="…"`).
enum DeclarationsAsAttributesReader: ReplayingReader {
    static let name = "broken-xmlns"
    static func declare<Events: XMLEventHandler>(prefix: String, uri: String, into handler: inout Events) throws {
        try handler.attribute(namespaceURI: "", localName: prefix.isEmpty ? "xmlns" : "xmlns:" + prefix, value: uri)
    }
}

/// Passes an element's qualified name as its local name, in no namespace (no namespace processing).
enum NoNamespacesReader: ReplayingReader {
    static let name = "broken-namespaces"
    static func start<Events: XMLEventHandler>(_ name: DocumentEvent.Name, into handler: inout Events) throws {
        try handler.startElement(namespaceURI: "", localName: name.qualified, prefix: "")
    }
}

/// Keeps a document's carriage returns in its text (the bug the issue's outside parser had).
enum CarriageReturnReader: ReplayingReader {
    static let name = "broken-line-ends"
    static func events(_ events: [DocumentEvent]?, document: [UInt8]) throws -> [DocumentEvent] {
        guard let events else { throw FeedParseError(parser: name, message: "not well-formed", line: 1, column: 1) }
        guard document.contains(0x0D) else { return events }
        return events.map { event in
            guard case .text(let text) = event else { return event }
            return .text(text.replacingOccurrences(of: "\n", with: "\r\n"))
        }
    }
}

/// Returns without an error where the document is malformed: what it read so far, here nothing.
enum AcceptsMalformedReader: ReplayingReader {
    static let name = "broken-malformed"
    static func events(_ events: [DocumentEvent]?, document: [UInt8]) throws -> [DocumentEvent] { events ?? [] }
}

@Suite("bench verify --contract: the handler's contract, rule by rule")
struct ContractCheckTests {
    /// The parsers of these tests, each by its name, in this process.
    static func parser(_ name: String) -> (any DocumentParser.Type)? {
        switch name {
        case TextOutsideRootReader.name: return XMLEventParser<TextOutsideRootReader>.self
        case DeclarationsAsAttributesReader.name: return XMLEventParser<DeclarationsAsAttributesReader>.self
        case NoNamespacesReader.name: return XMLEventParser<NoNamespacesReader>.self
        case CarriageReturnReader.name: return XMLEventParser<CarriageReturnReader>.self
        case AcceptsMalformedReader.name: return XMLEventParser<AcceptsMalformedReader>.self
        default: return ParserRegistry.documentParser(named: name)
        }
    }

    /// `parser`'s events on `document` walked in this process, `nil` when it rejects it.
    static func inProcess(_ parser: String, _ document: [UInt8], chunkSize: Int = 0) throws -> [DocumentEvent]? {
        guard let type = Self.parser(parser) else {
            throw FeedParseError(parser: parser, message: "no such parser in these tests", line: 0, column: 0)
        }
        let sink = try DocumentSink()
        do {
            try type.walk(document, chunkSize: chunkSize == 0 ? nil : chunkSize, into: sink, recording: true)
        } catch is FeedParseError {
            return nil
        }
        return sink.recordedEvents()
    }

    /// The check's runner, in this process (the test readers are not in the `bench` its workers run).
    static let runner: ContractCheck.Runner = { parser, documents, chunkSize in
        documents.map { document in
            do {
                guard let events = try inProcess(parser, document, chunkSize: chunkSize) else {
                    return .rejected("not well-formed")
                }
                return .events(events)
            } catch {
                return .failed("\(error)")
            }
        }
    }

    static func broken(_ parser: String) -> ContractCheck.ParserResult? {
        ContractCheck.check(parsers: [parser], gaps: { _ in [] }, runner: runner).parsers.first
    }

    @Test(
        "A broken reader breaks the rule it was made to break, and the check names it",
        arguments: [
            (TextOutsideRootReader.name, "outside-root"),
            (DeclarationsAsAttributesReader.name, "namespace-declarations"),
            (NoNamespacesReader.name, "prefixed-names"), (NoNamespacesReader.name, "default-namespace"),
            (CarriageReturnReader.name, "line-ends"), (AcceptsMalformedReader.name, "malformed"),
            (AcceptsMalformedReader.name, "no-root"),
        ])
    func brokenReaderNamesTheRule(_ parser: String, _ rule: String) throws {
        let result = try #require(Self.broken(parser))
        #expect(result.broken.map(\.rule.id).contains(rule), "\(parser): \(result.broken.map(\.rule.id))")
        // Rules its fault has nothing to do with still hold.
        #expect(result.held.contains("comments"))
        #expect(result.held.contains("processing-instructions"))
    }

    @Test("The report says the rule in words, the document, the event and both sides, control characters escaped")
    func reportSaysTheRule() throws {
        let report = ContractCheck.check(
            parsers: [TextOutsideRootReader.name, CarriageReturnReader.name], gaps: { _ in [] },
            runner: Self.runner)
        let text = ContractReportText.text(report, width: nil)
        #expect(
            text.contains(
                "BROKEN outside-root: Text outside the root element must not be reported: the line ends and spaces "
                    + "before and after it are not character data."))
        #expect(text.contains(#"document: "<?xml version="1.0"?>\n<!-- before -->\n<r/>\n\n""#))
        #expect(text.contains(#"event 3: broken-outside-root has text "\n\n", expat has no more events"#))
        #expect(text.contains(#"broken-line-ends has "a\r\nb\r\nc", expat has "a\nb\nc""#), "\(text)")
    }

    @Test("A reader that accepts a malformed document is told so")
    func acceptsMalformed() throws {
        let result = try #require(Self.broken(AcceptsMalformedReader.name))
        let malformed = try #require(result.broken.first { $0.rule.id == "malformed" })
        #expect(malformed.detail.contains("accepted the malformed document"))
    }

    @Test("A broken rule is exit status 1, with the parser and its rules named")
    func brokenIsFailure() throws {
        #expect {
            try Verify.checkContract(
                parsers: [TextOutsideRootReader.name], skippedNames: [], runner: Self.runner, gaps: { _ in [] },
                width: nil)
        } throws: { error in
            guard let failure = error as? CommandFailure else { return false }
            return failure.description.contains("broken-outside-root breaks 1 rule (outside-root)")
                && Bench.exitCode(for: failure) == .failure
        }
    }

    @Test("Every built-in parser that reports events holds every rule (in this process, Foundation's aside)")
    func builtInsHold() throws {
        let parsers = ContractCheck.defaultParsers.filter { !$0.hasPrefix("foundation") }
        #expect(parsers.count >= 5)
        let report = ContractCheck.check(parsers: parsers, runner: Self.runner)
        #expect(report.unchecked.isEmpty)
        for result in report.parsers {
            #expect(result.broken.isEmpty, "\(result.parser): \(result.broken.map { "\($0.rule.id): \($0.detail)" })")
        }
        #expect(report.allHold)
    }

    @Test("A parser whose gaps cover every rule checks nothing: an error, not a success")
    func everyRuleSkipped() throws {
        #expect {
            try Verify.checkContract(
                parsers: [TextOutsideRootReader.name], skippedNames: [], runner: Self.runner,
                gaps: { $0 == "expat" ? [] : [.localNamesOnly] }, width: nil)
        } throws: { error in
            (error as? CommandFailure)?.description.contains("nothing checked") == true
        }
    }

    @Test("Naming only parsers that report no events is an error, not a check of nothing")
    func nothingToCheck() throws {
        #expect(throws: (any Error).self) { try Verify.contractParsers(named: ["memchr"]) }
        #expect(try Verify.contractParsers(named: ["memchr", "expat"]) == ["expat"])
    }

    @Test("What --contract would ignore is refused: a feed, a workload, chunk sizes")
    func contractRefusesWhatItIgnores() throws {
        #expect(throws: (any Error).self) { try Bench.parseAsRoot(["verify", "--contract", "feed.xml"]) }
        #expect(throws: (any Error).self) { try Bench.parseAsRoot(["verify", "--contract", "--workload", "document"]) }
        #expect(throws: (any Error).self) { try Bench.parseAsRoot(["verify", "--contract", "--chunk-sizes", "7"]) }
        _ = try Bench.parseAsRoot(["verify", "--contract"])
    }

    @Test("The built bench checks every built-in parser: exit 0; with no parser to check, an error")
    func builtBench() throws {
        let all = try runBench(["verify", "--contract"])
        #expect(all.status == 0, "\(all.standardOutput)\(all.standardError)")
        #expect(all.standardOutput.contains("Every rule checked holds for"))
        // Foundation's skipped rules are said, with their reason.
        #expect(all.standardOutput.contains("skipped empty-processing-instructions: Foundation's XMLParser crashes"))
        let none = try runBench(["verify", "--contract", "--parsers", "memchr"])
        #expect(none.status != 0)
        #expect(none.standardError.contains("nothing would be checked"))
    }

    @Test("Each rule is in the article, with its example, and in the handler's documentation")
    func rulesAreWrittenDown() throws {
        func read(_ path: String) throws -> String {
            try String(contentsOf: TestPaths.packageRoot.appendingPathComponent(path), encoding: .utf8)
        }
        func flat(_ text: String) -> String {
            text.split(separator: "\n").map { line in
                var line = line.drop { $0 == " " }
                if line.hasPrefix("///") { line = line.dropFirst(3) }
                return String(line)
            }.joined(separator: " ").split(separator: " ").joined(separator: " ")
        }
        let article = flat(try read(ArticleExampleTests.article))
        let documentation = flat(try read("Sources/FeedParsers/XMLEventReader.swift"))
        for rule in HandlerContract.rules {
            let statement = flat(rule.statement)
            let listed = article.contains("`\(rule.id)`: \(statement) Example: \(flat(rule.example))")
            #expect(listed, "the article does not list \(rule.id) as HandlerContract states it, with its example")
            let documented = documentation.contains(statement)
            #expect(documented, "XMLEventHandler's documentation does not state \(rule.id) as HandlerContract does")
        }
    }
}
