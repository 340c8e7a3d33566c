/// One event of a document's canonical event stream (see ``DocumentSink``).
package enum DocumentEvent: Hashable, Sendable, Codable {
    /// A name: its namespace URI (empty for none), its local part and its prefix as written.
    package struct Name: Hashable, Sendable, Codable {
        package var uri: String
        package var local: String
        package var prefix: String

        package init(uri: String, local: String, prefix: String) {
            self.uri = uri
            self.local = local
            self.prefix = prefix
        }

        /// The name as written: "prefix:local", or the local part alone.
        package var qualified: String { prefix.isEmpty ? local : prefix + ":" + local }
    }

    /// An attribute or a namespace declaration (in the xmlns namespace: `xmlns`, `xmlns:p`).
    package struct Attribute: Hashable, Sendable, Codable {
        package var name: Name
        package var value: String

        package init(name: Name, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// A start tag, its attributes sorted by name as written.
    case start(Name, [Attribute])
    case end
    /// Character data between two pieces of markup, merged.
    case text(String)
    case processingInstruction(target: String, data: String)

    /// Reads the sink's event log (see `DocumentSink.h`); a log cut short ends the list.
    static func decode(_ log: UnsafeRawBufferPointer) -> [DocumentEvent] {
        var reader = LogReader(bytes: log)
        var events: [DocumentEvent] = []
        while let kind = reader.byte() {
            switch kind {
            case UInt8(ascii: "S"):
                guard let name = reader.name(), let count = reader.count() else { return events }
                var attributes: [Attribute] = []
                for _ in 0..<count {
                    guard let name = reader.name(), let value = reader.string() else { return events }
                    attributes.append(Attribute(name: name, value: value))
                }
                events.append(.start(name, attributes))
            case UInt8(ascii: "E"):
                events.append(.end)
            case UInt8(ascii: "T"):
                guard let text = reader.string() else { return events }
                events.append(.text(text))
            case UInt8(ascii: "P"):
                guard let target = reader.string(), let data = reader.string() else { return events }
                events.append(.processingInstruction(target: target, data: data))
            default:
                return events
            }
        }
        return events
    }

    /// The event in a few words, for a report of where two parsers differ: `<a:b x="1">`, `</…>`,
    /// text in quotes (cut after 80 characters, escaped as ``VisibleText`` escapes it), `<?target data?>`; a
    /// start tag with its namespace URIs.
    package var summary: String {
        switch self {
        case .start(let name, let attributes):
            let uri = name.uri.isEmpty ? "" : " {\(name.uri)}"
            let shown = attributes.map { attribute in
                let uri = attribute.name.uri.isEmpty ? "" : "{\(attribute.name.uri)}"
                return " \(uri)\(attribute.name.qualified)=\"\(Self.cut(attribute.value))\""
            }
            return "start <\(name.qualified)\(shown.joined())>\(uri)"
        case .end: return "end tag"
        case .text(let text): return "text \"\(Self.cut(text))\""
        case .processingInstruction(let target, let data):
            return "processing instruction <?\(target) \(Self.cut(data))?>"
        }
    }

    private static func cut(_ text: String) -> String { VisibleText.escaped(text) }
}

/// Reads the sink's log: bytes, 32-bit little-endian counts, counted strings.
private struct LogReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    mutating func byte() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func count() -> Int? {
        guard offset + 4 <= bytes.count else { return nil }
        var value = 0
        for shift in 0..<4 { value |= Int(bytes[offset + shift]) << (8 * shift) }
        offset += 4
        return value
    }

    mutating func string() -> String? {
        guard let count = count(), offset + count <= bytes.count else { return nil }
        defer { offset += count }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)]), as: UTF8.self)
    }

    mutating func name() -> DocumentEvent.Name? {
        guard let uri = string(), let local = string(), let prefix = string() else { return nil }
        return DocumentEvent.Name(uri: uri, local: local, prefix: prefix)
    }
}
