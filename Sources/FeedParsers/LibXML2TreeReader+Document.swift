import CLibXML2
import CReferenceParsers
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The document workload over libxml2's tree: the whole `xmlDoc` built (with attributes the internal
/// DTD defaults, `XML_PARSE_DTDATTR`; the external subset it would read is refused, see
/// ``ExternalLoads``), then walked in document order into the sink.
///
/// The walk keeps its own stack (a deep document cannot overflow the thread's), reports elements
/// with their namespace declarations (`nsDef`) and attributes, text and CDATA nodes, and processing
/// instructions outside the DTD; an entity reference node (entities are not substituted, so nothing
/// external is loaded) is walked into: its content is the entity's parsed children.
extension LibXML2TreeReader: WholeDocumentWalker {
    package static func walk(_ bytes: Data, into sink: DocumentSink) throws {
        guard bytes.count <= Int(Int32.max) else { throw failure("documents over 2 GiB are not supported") }
        guard let context = xmlNewParserCtxt() else { throw failure("xmlNewParserCtxt failed") }
        defer { xmlFreeParserCtxt(context) }
        let document = try tree(of: bytes, context, defaultAttributes: true)
        defer { xmlFreeDoc(document) }
        try TreeWalk(document: document, sink: sink).run()
    }
}

/// One walk of a tree.
private struct TreeWalk {
    let document: xmlDocPtr
    let sink: DocumentSink

    /// A list of sibling nodes still to visit, and whether its end closes an element.
    private struct Frame {
        var next: xmlNodePtr?
        var closesElement: Bool
    }

    func run() throws {
        var stack = [Frame(next: document.pointee.children, closesElement: false)]
        while let top = stack.last {
            guard let node = top.next else {
                stack.removeLast()
                if top.closesElement { try check(sink.end()) }
                continue
            }
            stack[stack.count - 1].next = node.pointee.next
            switch node.pointee.type {
            case XML_ELEMENT_NODE:
                try start(node)
                stack.append(Frame(next: node.pointee.children, closesElement: true))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                let content = node.pointee.content
                try check(sink.text(cString(content), length(content)))
            case XML_ENTITY_REF_NODE:
                // The reference's child is the entity's declaration; its children are the content.
                if let declaration = node.pointee.children, declaration.pointee.type == XML_ENTITY_DECL {
                    stack.append(Frame(next: declaration.pointee.children, closesElement: false))
                }
            case XML_PI_NODE:
                let target = node.pointee.name
                let data = node.pointee.content
                try check(
                    sink.processingInstruction(
                        target: cString(target), length(target), data: cString(data), length(data)))
            default:
                break  // the DTD, comments
            }
        }
    }

    private func start(_ node: xmlNodePtr) throws {
        let namespace = node.pointee.ns
        let uri = namespace?.pointee.href
        let prefix = namespace?.pointee.prefix
        let name = node.pointee.name
        try check(
            sink.start(
                uri: cString(uri), length(uri), local: cString(name), length(name), prefix: cString(prefix),
                length(prefix)))
        var declaration = node.pointee.nsDef
        while let current = declaration {
            let declared = current.pointee.prefix
            let target = current.pointee.href
            try check(sink.namespace(prefix: cString(declared), length(declared), uri: cString(target), length(target)))
            declaration = current.pointee.next
        }
        var property = node.pointee.properties
        while let attribute = property {
            try report(attribute)
            property = attribute.pointee.next
        }
        try check(sink.startDone())
    }

    /// Reports an attribute; its value is its text child, or the text of its children with entity
    /// references replaced (`xmlNodeListGetString`).
    private func report(_ attribute: xmlAttrPtr) throws {
        let namespace = attribute.pointee.ns
        let uri = namespace?.pointee.href
        let prefix = namespace?.pointee.prefix
        let name = attribute.pointee.name
        let children = attribute.pointee.children
        var value: UnsafePointer<xmlChar>?
        var owned: UnsafeMutablePointer<xmlChar>?
        if let child = children, child.pointee.type == XML_TEXT_NODE, child.pointee.next == nil {
            value = UnsafePointer(child.pointee.content)
        } else if children != nil {
            owned = xmlNodeListGetString(document, children, 1)
            value = owned.map { UnsafePointer($0) }
        }
        defer { if let owned { CLibXML2_free(owned) } }
        try check(
            sink.attribute(
                uri: cString(uri), length(uri), local: cString(name), length(name), prefix: cString(prefix),
                length(prefix), value: cString(value), length(value)))
    }

    private func check(_ status: DocStatus) throws {
        try sink.check(status, parser: LibXML2TreeReader.name, line: 0, column: 0)
    }
}
