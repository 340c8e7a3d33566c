/// The contract between an ``XMLEventReader`` and its ``XMLEventHandler``, as one list of rules: what
/// the article "Measuring your own parser" and the handler's documentation state (a test holds both
/// to this list), and what `bench verify --contract` checks, each rule that a document can show
/// over a small document of its own.
///
/// The rules are about the events a parser reports, so they hold every parser of the document
/// workload alike (a push adapter reports to the same handler protocol); the check compares each
/// parser's events with the reference parser's on each rule's document.
package enum HandlerContract {
    /// One rule of the contract.
    package struct Rule: Sendable {
        /// How the rule is checked.
        package enum Check: Sendable, Equatable {
            /// A well-formed document: a parser's events on it must be the reference parser's.
            case events([UInt8])
            /// A malformed document: a parser must end its read with an error.
            case error([UInt8])
            /// Every other rule's document, pushed whole and one byte at a time: the same events.
            case chunks
            /// No document shows it; why (said beside the rule, never taken as held).
            case stated(String)
        }

        /// A short name, as the check names the rule ("outside-root").
        package var id: String
        /// The rule, one sentence.
        package var statement: String
        /// A one-line example, Markdown (code in backticks).
        package var example: String
        package var check: Check

        /// The rule's document, when it has one.
        package var document: [UInt8]? {
            switch check {
            case .events(let bytes), .error(let bytes): return bytes
            case .chunks, .stated: return nil
            }
        }
    }

    /// Every rule, in the order the article lists them.
    package static let rules: [Rule] = [
        Rule(
            id: "no-namespace",
            statement:
                "An element or attribute in no namespace is reported with an empty namespace URI, and a name without a prefix with an empty prefix.",
            example:
                "`<r a=\"1\"/>` → `startElement(namespaceURI: \"\", localName: \"r\", prefix: \"\")`, `attribute(namespaceURI: \"\", localName: \"a\", prefix: \"\", value: \"1\")`",
            check: .events(Array("<r a=\"1\"/>".utf8))),
        Rule(
            id: "default-namespace",
            statement: "An unprefixed element is in the default namespace in scope, with an empty prefix.",
            example:
                "`<r xmlns=\"urn:d\"><a/></r>` → `startElement(namespaceURI: \"urn:d\", localName: \"a\", prefix: \"\")`",
            check: .events(Array("<r xmlns=\"urn:d\"><a/></r>".utf8))),
        Rule(
            id: "prefixed-names",
            statement:
                "A prefixed element or attribute is reported with its prefix's namespace URI, its local name and its prefix as written.",
            example:
                "`<p:r xmlns:p=\"urn:p\" p:a=\"1\"/>` → `startElement(namespaceURI: \"urn:p\", localName: \"r\", prefix: \"p\")`, `attribute(namespaceURI: \"urn:p\", localName: \"a\", prefix: \"p\", value: \"1\")`",
            check: .events(Array("<p:r xmlns:p=\"urn:p\" p:a=\"1\"/>".utf8))),
        Rule(
            id: "unprefixed-attributes",
            statement: "An unprefixed attribute is in no namespace, even where a default namespace is in scope.",
            example:
                "`<r xmlns=\"urn:d\" a=\"1\"/>` → `attribute(namespaceURI: \"\", localName: \"a\", prefix: \"\", value: \"1\")`",
            check: .events(Array("<r xmlns=\"urn:d\" a=\"1\"/>".utf8))),
        Rule(
            id: "namespace-declarations",
            statement:
                "Each namespace declaration (`xmlns`, `xmlns:p`) is reported once, with `namespaceDeclaration(prefix:namespaceURI:)`, and never as an attribute.",
            example:
                "`<r xmlns=\"urn:d\" xmlns:p=\"urn:p\"/>` → `namespaceDeclaration(prefix: \"\", namespaceURI: \"urn:d\")`, `namespaceDeclaration(prefix: \"p\", namespaceURI: \"urn:p\")`, no `attribute`",
            check: .events(Array("<r xmlns=\"urn:d\" xmlns:p=\"urn:p\"/>".utf8))),
        Rule(
            id: "undeclared-default",
            statement:
                "`xmlns=\"\"` takes the default namespace away: it is reported as a declaration with an empty URI, and its element is in no namespace.",
            example:
                "`<r xmlns=\"urn:d\"><a xmlns=\"\"/></r>` → `namespaceDeclaration(prefix: \"\", namespaceURI: \"\")`, `startElement(namespaceURI: \"\", localName: \"a\", prefix: \"\")`",
            check: .events(Array("<r xmlns=\"urn:d\"><a xmlns=\"\"/></r>".utf8))),
        Rule(
            id: "start-tags",
            statement:
                "A start tag is `startElement`, then its namespace declarations and attributes in any order, then `startElementEnded()`; an end tag is `endElement()`.",
            example:
                "`<r b=\"2\" a=\"1\"></r>` → `startElement`, two `attribute` calls, `startElementEnded()`, `endElement()`",
            check: .events(Array("<r b=\"2\" a=\"1\"></r>".utf8))),
        Rule(
            id: "empty-elements",
            statement: "An empty-element tag is a start tag and an end tag.",
            example: "`<r><a/></r>` → for `a`: `startElement`, `startElementEnded()`, `endElement()`",
            check: .events(Array("<r><a/></r>".utf8))),
        Rule(
            id: "attribute-values",
            statement:
                "An attribute value is normalised: a literal tab, line feed or carriage return is a space, and references are resolved (`&#10;` stays a line feed).",
            example: "`<r a=\"x⇥y\" b=\"x&#10;y&amp;\"/>` → `a` is `\"x y\"`, `b` is `\"x\\ny&\"`",
            check: .events(Array("<r a=\"x\ty\nz\" b=\"x&#10;y&amp;\"/>".utf8))),
        Rule(
            id: "references",
            statement: "Character references and the predefined entity references in text are resolved.",
            example: "`<r>&lt;&#x41;&amp;</r>` → `characters(\"<A&\")`",
            check: .events(Array("<r>&lt;&#x41;&amp;&gt;&quot;&apos;</r>".utf8))),
        Rule(
            id: "internal-entities",
            statement: "An internal entity declared in the DTD is expanded where it is referenced.",
            example: "`<!DOCTYPE r [<!ENTITY e \"x\">]><r>&e;</r>` → `characters(\"x\")`",
            check: .events(Array("<!DOCTYPE r [<!ENTITY e \"x\">]><r>&e;</r>".utf8))),
        Rule(
            id: "cdata",
            statement:
                "A CDATA section's content goes to `characters(_:)` as text, unmarked, and merges with the text around it.",
            example: "`<r>a<![CDATA[<b>]]>c</r>` → `characters(\"a<b>c\")`, in as many calls as you like",
            check: .events(Array("<r>a<![CDATA[<b>&amp;]]>c</r>".utf8))),
        Rule(
            id: "text-in-pieces",
            statement:
                "Text may be handed over in as many `characters(_:)` calls as the parser likes: the text between two pieces of markup is merged.",
            example: "`<r>ab</r>` → `characters(\"a\")`, `characters(\"b\")` is the same as `characters(\"ab\")`",
            check: .stated("a freedom of the reader: every document's text is compared merged")),
        Rule(
            id: "line-ends",
            statement: "A carriage return and line feed, or a carriage return alone, is reported as one line feed.",
            example: "`<r>a␍␊b␍c</r>` → `characters(\"a\\nb\\nc\")`",
            check: .events(Array("<r>a\r\nb\rc</r>".utf8))),
        Rule(
            id: "line-ends-in-cdata",
            statement: "A carriage return in a CDATA section is a line end too.",
            example: "`<r><![CDATA[a␍␊b]]></r>` → `characters(\"a\\nb\")`",
            check: .events(Array("<r><![CDATA[a\r\nb]]></r>".utf8))),
        Rule(
            id: "whitespace-in-root",
            statement: "Whitespace between elements inside the root element is character data, and is reported.",
            example: "`<r>␊␠␠<a/>␊</r>` → `characters(\"\\n  \")` before `a`, `characters(\"\\n\")` after it",
            check: .events(Array("<r>\n  <a/>\n</r>".utf8))),
        Rule(
            id: "outside-root",
            statement:
                "Text outside the root element must not be reported: the line ends and spaces before and after it are not character data.",
            example: "`<?xml version=\"1.0\"?>␊<r/>␊` → no `characters` call",
            check: .events(Array("<?xml version=\"1.0\"?>\n<!-- before -->\n<r/>\n\n".utf8))),
        Rule(
            id: "comments",
            statement: "Comments are not reported, and the text on either side of a comment is one text.",
            example: "`<r>a<!--c-->b</r>` → `characters(\"ab\")`",
            check: .events(Array("<r>a<!--c-->b</r>".utf8))),
        Rule(
            id: "xml-declaration",
            statement: "The XML declaration is not a processing instruction, and is not reported.",
            example: "`<?xml version=\"1.0\"?><r/>` → no `processingInstruction`",
            check: .events(Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?><r/>".utf8))),
        Rule(
            id: "processing-instructions",
            statement:
                "A processing instruction is reported with its target and its data, without the spaces between them.",
            example: "`<r><?p  x y?></r>` → `processingInstruction(target: \"p\", data: \"x y\")`",
            check: .events(Array("<r><?p  x y?></r>".utf8))),
        Rule(
            id: "empty-processing-instructions",
            statement: "A processing instruction without data is reported with empty data.",
            example: "`<r><?p?></r>` → `processingInstruction(target: \"p\", data: \"\")`",
            check: .events(Array("<r><?p?></r>".utf8))),
        Rule(
            id: "instructions-outside-root",
            statement: "A processing instruction outside the root element is reported, in document order.",
            example: "`<?p x?><r/>` → `processingInstruction(target: \"p\", data: \"x\")`, then `startElement`",
            check: .events(Array("<?p x?><r/><?q y?>".utf8))),
        Rule(
            id: "dtd",
            statement:
                "Nothing in the DTD is reported: no declaration, and no processing instruction or comment inside it.",
            example: "`<!DOCTYPE r [<?p x?>]><r/>` → `startElement` first, no `processingInstruction`",
            check: .events(Array("<!DOCTYPE r [<!ELEMENT r ANY><?p x?><!-- c -->]><r/>".utf8))),
        Rule(
            id: "utf8",
            statement: "Names and text are UTF-8, whatever the document's encoding.",
            example:
                "`<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><r>caf\\xE9</r>` → `characters(\"café\")`, bytes `63 61 66 C3 A9`",
            check: .events(Self.latin1Document)),
        Rule(
            id: "malformed",
            statement:
                "A malformed document ends the read with an error: throw any error (a `FeedParseError` with a line and column is shown with its position, any other with its text).",
            example:
                "`<r><a></r>` → `throw FeedParseError(parser: name, message: \"mismatched tag\", line: 1, column: 8)`",
            check: .error(Array("<r><a></r>".utf8))),
        Rule(
            id: "unclosed",
            statement: "A document that ends inside an element is malformed.",
            example: "`<r><a>` → an error",
            check: .error(Array("<r><a>".utf8))),
        Rule(
            id: "no-root",
            statement: "A document without a root element is malformed.",
            example: "`<!-- nothing -->` → an error",
            check: .error(Array("<?xml version=\"1.0\"?>\n<!-- nothing -->\n".utf8))),
        Rule(
            id: "after-root",
            statement:
                "Markup after the root element's end, other than comments and processing instructions, is malformed.",
            example: "`<r/><s/>` → an error",
            check: .error(Array("<r/><s/>".utf8))),
        Rule(
            id: "chunks",
            statement:
                "The events do not depend on how the document's bytes are divided: a push parser is given each document in one piece and one byte at a time.",
            example: "every document above, whole and byte by byte → the same events",
            check: .chunks),
        Rule(
            id: "handler-errors",
            statement: "An error the handler throws ends the read and is thrown again, as it is.",
            example: "`try handler.characters(text)` throws → `read` throws that error",
            check: .stated("the suite's handlers throw only past their limits, a text longer than the sink takes")),
        Rule(
            id: "handler-in-place",
            statement:
                "The handler is the caller's value, given `inout`: report every event to it in place, never to a copy kept or made (a copy's state is not the handler's).",
            example: "`try handler.endElement()`, never `var copy = handler; try copy.endElement()`",
            check: .stated(
                "the suite's own handlers share their sink between copies, so a copy's events are not lost there")),
        Rule(
            id: "borrowed-bytes",
            statement:
                "The bytes given to a handler are valid only during the call: the handler copies what it keeps, and the reader may reuse its buffers after the call.",
            example: "`try handler.characters(buffer)` then `buffer` refilled → allowed",
            check: .stated("a freedom of the reader: the suite's handlers copy what they keep")),
    ]

    /// The rules that have a document of their own, in order.
    package static var documentRules: [Rule] { rules.filter { $0.document != nil } }

    /// The rule named `id`.
    package static func rule(_ id: String) -> Rule? { rules.first { $0.id == id } }

    /// "café" in ISO-8859-1: one byte (0xE9) that is not UTF-8.
    static let latin1Document =
        Array(#"<?xml version="1.0" encoding="ISO-8859-1"?><r>caf"#.utf8) + [0xE9] + Array("</r>".utf8)
}
