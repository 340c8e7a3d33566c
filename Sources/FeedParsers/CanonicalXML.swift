/// James Clark's canonical XML, the form of the W3C conformance suite's expected outputs (the `out/`
/// files beside its valid tests), written from a document's events.
///
/// Start tags with their attributes sorted by name as written (namespace declarations among them,
/// as the form predates namespaces), end tags for every element (an empty one too), character data
/// and attribute values with `&`, `<`, `>`, `"`, tab, line feed and carriage return written as
/// references, processing instructions as `<?target data?>`; no XML declaration, DTD or comment.
/// The events' attributes are already in that order (``DocumentSink`` sorts them).
///
/// ```swift
/// let canonical = CanonicalXML.write(sink.recordedEvents())
/// ```
package enum CanonicalXML {
    /// The canonical form of `events`, as UTF-8 bytes.
    package static func write(_ events: [DocumentEvent]) -> [UInt8] {
        var out: [UInt8] = []
        var open: [String] = []
        for event in events {
            switch event {
            case .start(let name, let attributes):
                out.append(UInt8(ascii: "<"))
                out.append(contentsOf: name.qualified.utf8)
                for attribute in attributes {
                    out.append(UInt8(ascii: " "))
                    out.append(contentsOf: attribute.name.qualified.utf8)
                    out.append(contentsOf: "=\"".utf8)
                    escape(attribute.value, into: &out)
                    out.append(UInt8(ascii: "\""))
                }
                out.append(UInt8(ascii: ">"))
                open.append(name.qualified)
            case .end:
                out.append(contentsOf: "</".utf8)
                out.append(contentsOf: (open.popLast() ?? "").utf8)
                out.append(UInt8(ascii: ">"))
            case .text(let text):
                escape(text, into: &out)
            case .processingInstruction(let target, let data):
                out.append(contentsOf: "<?".utf8)
                out.append(contentsOf: target.utf8)
                out.append(UInt8(ascii: " "))
                out.append(contentsOf: data.utf8)
                out.append(contentsOf: "?>".utf8)
            }
        }
        return out
    }

    private static func escape(_ text: String, into out: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
            case 0x09: out.append(contentsOf: "&#9;".utf8)
            case 0x0A: out.append(contentsOf: "&#10;".utf8)
            case 0x0D: out.append(contentsOf: "&#13;".utf8)
            default: out.append(byte)
            }
        }
    }
}
