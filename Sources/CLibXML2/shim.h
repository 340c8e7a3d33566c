#ifndef CLIBXML2_SHIM_H
#define CLIBXML2_SHIM_H

// libxml2 for the FeedParsers module only.
//
// libxml2's headers pull in the system ICU when LIBXML_ICU_ENABLED is set, and ICU's UErrorCode
// clashes with the one Foundation imports. The parsers need none of ICU, so the feature macro is
// dropped before the parser headers are read.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#include <libxml/tree.h>
#include <libxml/xmlreader.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

/// The dotted version of the libxml2 headers this was compiled against, e.g. "2.9.14".
static inline const char *CLibXML2_dottedVersion(void) { return LIBXML_DOTTED_VERSION; }

/// The version number of the libxml2 library loaded at run time, e.g. "20914".
static inline const char *CLibXML2_runtimeVersion(void) { return xmlParserVersion; }

/// The magic value that tells libxml2 a handler uses the SAX2 (namespace) callbacks.
static inline unsigned int CLibXML2_sax2Magic(void) { return XML_SAX2_MAGIC; }

/// The XML version a document object gets when its declaration names none.
static inline const xmlChar *CLibXML2_defaultVersion(void) { return (const xmlChar *)"1.0"; }

/// Frees memory that libxml2 allocated (xmlFree is a global function pointer, which Swift 6 will not
/// read from concurrent code).
static inline void CLibXML2_free(void *pointer) { xmlFree(pointer); }

#endif
