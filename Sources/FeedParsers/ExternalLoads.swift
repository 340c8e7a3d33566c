import CReferenceParsers
import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// No parser of the suite opens a file or a connection that a document names: libxml2's external
/// entity loader refuses every load, for the whole process.
///
/// libxml2 asks one loader per process (`xmlSetExternalEntityLoader`) for every external DTD subset,
/// external parameter entity and external general entity it decides to read, whatever the parser:
/// `XML_PARSE_DTDATTR` (the document walks report the attributes the internal subset defaults) makes
/// it read the external subset and external parameter entities, and Foundation's `XMLParser`
/// substitutes entities (`XML_PARSE_NOENT`). The refusing loader (C, `ref_install_refusing_loader`)
/// returns no input: `file:`, `http:` and relative identifiers alike stay unopened (libxml2 still
/// `stat`s a local path before it asks the loader), and the document goes on without what they
/// declare; an entity it needed from them is "not defined", as in a document without its DTD.
///
/// Foundation on Linux sets a loader of its own (swift-corelibs-foundation's `_CFSetupXMLInterface`)
/// once per process, when its first `XMLParser` is made, and would replace this one if that came
/// later: ``refuse()`` makes an `XMLParser` first, then installs the refusing loader. Every adapter
/// calls ``refuse()`` before it parses with libxml2, directly or through `XMLParser`; the C reference
/// installs the same loader once itself.
///
/// expat needs no loader: it reads nothing unless an external entity handler says so, and every use
/// of expat in the suite parses no parameter entity (`XML_PARAM_ENTITY_PARSING_NEVER`) and refuses
/// every external entity reference in its handler.
package enum ExternalLoads {
    /// Installs the refusing loader, once per process; later calls return at once.
    package static func refuse() {
        _ = installed
    }

    /// Whether libxml2's loader is the refusing one (nothing has put another in its place).
    package static var areRefused: Bool {
        ref_refusing_loader_installed() != 0
    }

    private static let installed: Void = {
        // Foundation's one-time setup of libxml2, which sets Foundation's own loader, runs now.
        _ = XMLParser(data: Data())
        ref_install_refusing_loader()
    }()
}
