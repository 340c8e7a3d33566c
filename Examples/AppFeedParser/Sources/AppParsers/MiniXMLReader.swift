import FeedParsers

/// A small XML parser of the app's own, as an `XMLEventReader`.
///
/// Written from the article's contract alone; `app-bench verify --contract --parsers mini-xml` holds
/// it to the contract rule by rule. Not in `bench run`'s default set (`inDefaultSet` is `false`):
/// `--parsers mini-xml` times it.
public enum MiniXMLReader: XMLEventReader {
    public static let name = "mini-xml"
    public static let summary =
        "the app's own small XML parser (namespaces, internal entities), over the whole document"
    public static let inDefaultSet = false

    public static func read<Events: XMLEventHandler>(_ document: UnsafeRawBufferPointer, into handler: inout Events)
        throws
    {
        var parser = Parser(bytes: Array(document))
        try parser.document(into: &handler)
    }

    struct Parser {
        var bytes: [UInt8]
        var at = 0
        static let predefined = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'"]
        /// The internal entities the DTD declares, their replacement text not yet resolved.
        var entities: [String: String] = [:]
        /// The namespaces in scope, innermost last, and the open elements' names.
        var scopes: [[String: String]] = [["xml": "http://www.w3.org/XML/1998/namespace"]]
        var open: [String] = []

        init(bytes: [UInt8]) {
            // Line ends are one line feed before anything is read (XML 1.0 §2.11); ISO-8859-1 to UTF-8.
            var text = bytes
            if bytes.starts(with: Array("<?xml".utf8)), let end = bytes.firstIndex(of: UInt8(ascii: ">")),
                String(decoding: bytes[..<end], as: UTF8.self).uppercased().contains("ISO-8859-1")
            {
                text = Array(String(bytes.map { Character(Unicode.Scalar($0)) }).utf8)
            }
            var out: [UInt8] = []
            for (index, byte) in text.enumerated() {
                if byte == 0x0D {
                    if index + 1 < text.count, text[index + 1] == 0x0A { continue }
                    out.append(0x0A)
                } else {
                    out.append(byte)
                }
            }
            self.bytes = out
        }

        func fail(_ message: String) -> FeedParseError {
            let before = bytes[..<min(at, bytes.count)]
            let line = before.count { $0 == 0x0A } + 1
            let column = at - (before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
            return FeedParseError(parser: MiniXMLReader.name, message: message, line: line, column: column)
        }

        func starts(_ text: String) -> Bool { bytes[at...].starts(with: Array(text.utf8)) }

        mutating func skip(past text: String) throws -> String {
            let start = at
            while at < bytes.count, !starts(text) { at += 1 }
            guard at < bytes.count else { throw fail("unterminated markup: no \(text)") }
            at += text.utf8.count
            return String(decoding: bytes[start..<(at - text.utf8.count)], as: UTF8.self)
        }

        mutating func name() throws -> String {
            let start = at
            while at < bytes.count, !" \t\n/>=\"'[?".utf8.contains(bytes[at]) { at += 1 }
            guard at > start else { throw fail("a name is missing") }
            return String(decoding: bytes[start..<at], as: UTF8.self)
        }

        mutating func spaces() { while at < bytes.count, " \t\n".utf8.contains(bytes[at]) { at += 1 } }

        /// Resolves the references of `text`.
        func resolve(_ text: String) throws -> String {
            var out = ""
            var rest = Substring(text)
            while let amp = rest.firstIndex(of: "&") {
                out += rest[..<amp]
                guard let semi = rest[amp...].firstIndex(of: ";") else { throw fail("a reference without ';'") }
                let ref = rest[rest.index(after: amp)..<semi]
                if ref.hasPrefix("#x"), let code = UInt32(ref.dropFirst(2), radix: 16), let s = Unicode.Scalar(code) {
                    out.unicodeScalars.append(s)
                } else if ref.hasPrefix("#"), let code = UInt32(ref.dropFirst()), let s = Unicode.Scalar(code) {
                    out.unicodeScalars.append(s)
                } else if let value = Self.predefined[String(ref)] {
                    out += value
                } else if let value = entities[String(ref)] {
                    out += try resolve(value)
                } else {
                    throw fail("undeclared entity &\(ref);")
                }
                rest = rest[rest.index(after: semi)...]
            }
            return out + rest
        }

        mutating func document<Events: XMLEventHandler>(into handler: inout Events) throws {
            var sawRoot = false
            var text = ""
            while at < bytes.count {
                if starts("<!--") {
                    _ = try skip(past: "-->")
                } else if starts("<![CDATA[") {
                    guard !open.isEmpty else { throw fail("CDATA outside the root element") }
                    at += 9
                    text += try skip(past: "]]>")
                } else if starts("<?") {
                    at += 2
                    let target = try name()
                    let data = try skip(past: "?>").drop { " \t\n".contains($0) }
                    if target.lowercased() != "xml" {
                        try flush(&text, into: &handler)
                        try handler.processingInstruction(target: target, data: String(data))
                    }
                } else if starts("<!DOCTYPE") {
                    guard !sawRoot else { throw fail("a DOCTYPE after the root element") }
                    try doctype()
                } else if starts("</") {
                    at += 2
                    let closing = try name()
                    spaces()
                    guard at < bytes.count, bytes[at] == UInt8(ascii: ">") else { throw fail("'>' expected") }
                    at += 1
                    guard closing == open.last else { throw fail("mismatched tag </\(closing)>") }
                    try flush(&text, into: &handler)
                    try handler.endElement()
                    open.removeLast()
                    scopes.removeLast()
                } else if starts("<") {
                    guard open.isEmpty ? !sawRoot : true else { throw fail("a second root element") }
                    try flush(&text, into: &handler)
                    sawRoot = true
                    try startTag(into: &handler)
                } else {
                    let start = at
                    while at < bytes.count, bytes[at] != UInt8(ascii: "<") { at += 1 }
                    let run = String(decoding: bytes[start..<at], as: UTF8.self)
                    if open.isEmpty {
                        guard run.allSatisfy({ " \t\n".contains($0) }) else { throw fail("text outside the root") }
                    } else {
                        text += try resolve(run)
                    }
                }
            }
            guard sawRoot else { throw fail("no root element") }
            guard open.isEmpty else { throw fail("the document ended inside <\(open.last ?? "")>") }
        }

        mutating func flush<Events: XMLEventHandler>(_ text: inout String, into handler: inout Events) throws {
            guard !text.isEmpty else { return }
            try handler.characters(text)
            text = ""
        }

        mutating func doctype() throws {
            at += 9
            while at < bytes.count, bytes[at] != UInt8(ascii: "["), bytes[at] != UInt8(ascii: ">") { at += 1 }
            guard at < bytes.count else { throw fail("unterminated DOCTYPE") }
            if bytes[at] == UInt8(ascii: "[") {
                at += 1
                while true {
                    spaces()
                    guard at < bytes.count else { throw fail("unterminated DOCTYPE") }
                    if starts("]") { break }
                    if starts("<!--") {
                        _ = try skip(past: "-->")
                    } else if starts("<?") {
                        _ = try skip(past: "?>")
                    } else if starts("<!ENTITY") {
                        at += 8
                        spaces()
                        let entity = try name()
                        spaces()
                        guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'")
                        else { throw fail("only internal entities are read") }
                        let quote = String(UnicodeScalar(bytes[at]))
                        at += 1
                        entities[entity] = try skip(past: quote)
                        _ = try skip(past: ">")
                    } else {
                        _ = try skip(past: ">")
                    }
                }
                at += 1
            }
            _ = try skip(past: ">")
        }

        mutating func startTag<Events: XMLEventHandler>(into handler: inout Events) throws {
            at += 1
            let qualified = try name()
            var attributes: [(String, String)] = []
            var scope = scopes.last ?? [:]
            var declarations: [(String, String)] = []
            while true {
                spaces()
                guard at < bytes.count else { throw fail("unterminated start tag") }
                if starts("/>") || starts(">") { break }
                let attribute = try name()
                spaces()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "=") else { throw fail("'=' expected") }
                at += 1
                spaces()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") else {
                    throw fail("a quoted value expected")
                }
                let quote = String(UnicodeScalar(bytes[at]))
                at += 1
                let raw = try skip(past: quote)
                guard !raw.contains("<") else { throw fail("'<' in an attribute value") }
                let value = try resolve(String(raw.map { $0 == "\t" || $0 == "\n" ? " " : $0 }))
                if attribute == "xmlns" || attribute.hasPrefix("xmlns:") {
                    let prefix = attribute == "xmlns" ? "" : String(attribute.dropFirst(6))
                    scope[prefix] = value
                    declarations.append((prefix, value))
                } else {
                    attributes.append((attribute, value))
                }
            }
            func split(_ name: String, element: Bool) throws -> (uri: String, local: String, prefix: String) {
                guard let colon = name.firstIndex(of: ":") else {
                    return (element ? scope[""] ?? "" : "", name, "")
                }
                let prefix = String(name[..<colon])
                guard let uri = scope[prefix], !uri.isEmpty else { throw fail("undeclared prefix \(prefix)") }
                return (uri, String(name[name.index(after: colon)...]), prefix)
            }
            let element = try split(qualified, element: true)
            try handler.startElement(namespaceURI: element.uri, localName: element.local, prefix: element.prefix)
            for (prefix, uri) in declarations { try handler.namespaceDeclaration(prefix: prefix, namespaceURI: uri) }
            for (name, value) in attributes {
                let attribute = try split(name, element: false)
                try handler.attribute(
                    namespaceURI: attribute.uri, localName: attribute.local, prefix: attribute.prefix, value: value)
            }
            try handler.startElementEnded()
            if starts("/>") {
                at += 2
                try handler.endElement()
            } else {
                at += 1
                open.append(qualified)
                scopes.append(scope)
            }
        }
    }
}
