// The document walk of the two reference parsers: each event of the library reported to the
// canonical event sink, as the Swift adapters (LibXML2DocumentParser, ExpatDocumentParser) do.

#include "parser.h"

#include <libxml/parserInternals.h>
#include <string.h>

static void check(RefParser *parser, DocStatus status) {
    switch (status) {
    case DOC_STATUS_OK: return;
    case DOC_STATUS_TOO_LONG: ref_fail(parser, REF_STATUS_FIELD_TOO_LONG); return;
    case DOC_STATUS_OUT_OF_MEMORY: ref_fail(parser, REF_STATUS_OUT_OF_MEMORY); return;
    case DOC_STATUS_MISUSE: ref_fail(parser, REF_STATUS_SINK_MISUSE); return;
    }
}

static size_t length_of(const xmlChar *text) { return text == NULL ? 0 : strlen((const char *)text); }

static const char *text_of(const xmlChar *text) { return text == NULL ? "" : (const char *)text; }

// MARK: libxml2

static RefParser *owner(void *ctx) { return (RefParser *)((xmlParserCtxtPtr)ctx)->_private; }

static void lx_start(void *ctx, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri, int nb_namespaces,
                     const xmlChar **namespaces, int nb_attributes, int nb_defaulted, const xmlChar **attributes) {
    (void)nb_defaulted;
    RefParser *parser = owner(ctx);
    DocSink *sink = parser->sink;
    DocStatus status = doc_sink_start(sink, text_of(uri), length_of(uri), text_of(local), length_of(local),
                                      text_of(prefix), length_of(prefix));
    for (int i = 0; i < nb_namespaces && status == DOC_STATUS_OK; i++) {
        const xmlChar *declared = namespaces[2 * i], *target = namespaces[2 * i + 1];
        status = doc_sink_namespace(sink, text_of(declared), length_of(declared), text_of(target), length_of(target));
    }
    for (int i = 0; i < nb_attributes && status == DOC_STATUS_OK; i++) {
        const xmlChar **attribute = attributes + 5 * i;
        const char *value = (const char *)attribute[3];
        size_t value_length = (size_t)(attribute[4] - attribute[3]);
        // Without entity substitution libxml2 leaves references in attribute values ("&#38;", "&e;")
        // for its tree builder to decode; decode them as it does.
        xmlChar *decoded = NULL;
        if (memchr(value, '&', value_length) != NULL) {
            decoded = xmlStringLenDecodeEntities(ctx, attribute[3], (int)value_length, XML_SUBSTITUTE_REF, 0, 0, 0);
            if (decoded != NULL) {
                value = (const char *)decoded;
                value_length = strlen(value);
            }
        }
        status = doc_sink_attribute(sink, text_of(attribute[2]), length_of(attribute[2]), text_of(attribute[0]),
                                    length_of(attribute[0]), text_of(attribute[1]), length_of(attribute[1]), value,
                                    value_length);
        if (decoded != NULL) xmlFree(decoded);
    }
    if (status == DOC_STATUS_OK) status = doc_sink_start_done(sink);
    check(parser, status);
}

static void lx_end(void *ctx, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri) {
    (void)local; (void)prefix; (void)uri;
    RefParser *parser = owner(ctx);
    check(parser, doc_sink_end(parser->sink));
}

static void lx_characters(void *ctx, const xmlChar *bytes, int length) {
    RefParser *parser = owner(ctx);
    check(parser, doc_sink_text(parser->sink, (const char *)bytes, (size_t)length));
}

static void lx_pi(void *ctx, const xmlChar *target, const xmlChar *data) {
    // A PI inside the DTD is not an event.
    if (((xmlParserCtxtPtr)ctx)->inSubset != 0) return;
    RefParser *parser = owner(ctx);
    check(parser, doc_sink_pi(parser->sink, text_of(target), length_of(target), text_of(data), length_of(data)));
}

void ref_document_libxml2_handler(xmlSAXHandler *handler) {
    handler->startElementNs = lx_start;
    handler->endElementNs = lx_end;
    handler->characters = lx_characters;
    handler->cdataBlock = lx_characters;
    handler->ignorableWhitespace = lx_characters;
    handler->processingInstruction = lx_pi;
}

// MARK: expat

/// Splits expat's "URI \1 local \1 prefix" (or "URI \1 local", or "local").
static void split(const XML_Char *name, const char **uri, size_t *uri_length, const char **local,
                  size_t *local_length, const char **prefix, size_t *prefix_length) {
    const char *first = strchr(name, '\x01');
    if (first == NULL) {
        *uri = "";
        *uri_length = 0;
        *local = name;
        *local_length = strlen(name);
        *prefix = "";
        *prefix_length = 0;
        return;
    }
    *uri = name;
    *uri_length = (size_t)(first - name);
    *local = first + 1;
    const char *second = strchr(*local, '\x01');
    if (second == NULL) {
        *local_length = strlen(*local);
        *prefix = "";
        *prefix_length = 0;
    } else {
        *local_length = (size_t)(second - *local);
        *prefix = second + 1;
        *prefix_length = strlen(*prefix);
    }
}

static void ex_start(void *user_data, const XML_Char *name, const XML_Char **attributes) {
    RefParser *parser = user_data;
    DocSink *sink = parser->sink;
    const char *uri, *local, *prefix;
    size_t uri_length, local_length, prefix_length;
    split(name, &uri, &uri_length, &local, &local_length, &prefix, &prefix_length);
    DocStatus status = doc_sink_start(sink, uri, uri_length, local, local_length, prefix, prefix_length);
    for (size_t i = 0; attributes[i] != NULL && status == DOC_STATUS_OK; i += 2) {
        split(attributes[i], &uri, &uri_length, &local, &local_length, &prefix, &prefix_length);
        status = doc_sink_attribute(sink, uri, uri_length, local, local_length, prefix, prefix_length,
                                    attributes[i + 1], strlen(attributes[i + 1]));
    }
    if (status == DOC_STATUS_OK) status = doc_sink_start_done(sink);
    check(parser, status);
}

static void ex_end(void *user_data, const XML_Char *name) {
    (void)name;
    RefParser *parser = user_data;
    check(parser, doc_sink_end(parser->sink));
}

static void ex_characters(void *user_data, const XML_Char *bytes, int length) {
    RefParser *parser = user_data;
    check(parser, doc_sink_text(parser->sink, bytes, (size_t)length));
}

static void ex_namespace(void *user_data, const XML_Char *prefix, const XML_Char *uri) {
    RefParser *parser = user_data;
    check(parser, doc_sink_namespace(parser->sink, prefix ? prefix : "", prefix ? strlen(prefix) : 0, uri ? uri : "",
                                     uri ? strlen(uri) : 0));
}

static void ex_pi(void *user_data, const XML_Char *target, const XML_Char *data) {
    RefParser *parser = user_data;
    if (parser->in_doctype) return;
    check(parser, doc_sink_pi(parser->sink, target, strlen(target), data ? data : "", data ? strlen(data) : 0));
}

static void ex_doctype_start(void *user_data, const XML_Char *name, const XML_Char *system_id,
                             const XML_Char *public_id, int has_internal_subset) {
    (void)name; (void)system_id; (void)public_id; (void)has_internal_subset;
    ((RefParser *)user_data)->in_doctype = 1;
}

static void ex_doctype_end(void *user_data) { ((RefParser *)user_data)->in_doctype = 0; }

void ref_document_expat_handlers(XML_Parser expat) {
    XML_SetReturnNSTriplet(expat, 1);
    XML_SetElementHandler(expat, ex_start, ex_end);
    XML_SetCharacterDataHandler(expat, ex_characters);
    XML_SetStartNamespaceDeclHandler(expat, ex_namespace);
    XML_SetProcessingInstructionHandler(expat, ex_pi);
    XML_SetDoctypeDeclHandler(expat, ex_doctype_start, ex_doctype_end);
}
