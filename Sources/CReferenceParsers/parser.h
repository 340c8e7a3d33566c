#ifndef REFERENCE_PARSER_H
#define REFERENCE_PARSER_H

// The reference parser's state, shared by its song extraction (parsers.c) and its document walk
// (documents.c).

#include "songs.h"

#include <expat.h>
#include <libxml/parser.h>

struct RefParser {
    RefLibrary library;
    RefSongs songs;
    DocSink *sink;             // the document workload's sink; NULL for songs
    int in_doctype;            // expat: inside the DOCTYPE declaration (its PIs are not events)
    xmlParserCtxtPtr context;  // libxml2
    XML_Parser expat;          // expat
    RefStatus failure;         // the first failure, sticky
    RefError error;
    char message[512];
};

/// Records the first failure and stops the library's parser.
void ref_fail(RefParser *parser, RefStatus status);

/// The document walk's libxml2 SAX2 callbacks (element, text, PI), set in `handler`.
void ref_document_libxml2_handler(xmlSAXHandler *handler);

/// The document walk's expat handlers (namespace triplets on), set on `expat`.
void ref_document_expat_handlers(XML_Parser expat);

#endif
