// The two reference parsers: libxml2's SAX2 push parser and expat, each driven as the Swift
// adapters drive them (same options, same handlers, same checks), fields kept in C buffers.

#include "parser.h"

#include <expat.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#include <libxml/tree.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static RefParser *owner(void *ctx) {
    return (RefParser *)((xmlParserCtxtPtr)ctx)->_private;
}

void ref_fail(RefParser *parser, RefStatus status) {
    if (parser->failure != REF_STATUS_OK) return;
    parser->failure = status;
    if (parser->library == REF_LIBRARY_LIBXML2) {
        xmlStopParser(parser->context);
    } else {
        XML_StopParser(parser->expat, XML_FALSE);
    }
}

// MARK: libxml2

// Every external load refused: libxml2 asks this one loader, for the whole process, for each external
// DTD subset and external entity it decides to read (XML_PARSE_DTDATTR alone makes it read the
// external subset and external parameter entities). NULL is "not loaded": the document goes on
// without the declarations, and an entity it needed from them is "not defined", as without a DTD.
static xmlParserInputPtr lx_refuse_load(const char *url, const char *id, xmlParserCtxtPtr context) {
    (void)url; (void)id; (void)context;
    return NULL;
}

void ref_install_refusing_loader(void) { xmlSetExternalEntityLoader(lx_refuse_load); }

int ref_refusing_loader_installed(void) { return xmlGetExternalEntityLoader() == lx_refuse_load; }

static pthread_once_t lx_loader_once = PTHREAD_ONCE_INIT;

// The Atom category's `term` (no namespace), decoded as the Swift adapter decodes it: references left
// in the value (no entity substitution) through xmlStringLenDecodeEntities.
static void lx_category_term(RefParser *parser, void *ctx, int count, const xmlChar **attributes) {
    const xmlChar *start = NULL, *end = NULL;
    for (int index = 0; index < count; index++) {
        const xmlChar **fields = attributes + 5 * index;
        if (fields[2] == NULL && fields[0] != NULL && strcmp((const char *)fields[0], "term") == 0) {
            start = fields[3];
            end = fields[4];
            break;
        }
    }
    RefStatus status;
    size_t length = start != NULL && end != NULL ? (size_t)(end - start) : 0;
    xmlChar *decoded = NULL;
    if (length > 0 && memchr(start, '&', length) != NULL) {
        decoded = xmlStringLenDecodeEntities((xmlParserCtxtPtr)ctx, start, (int)length, XML_SUBSTITUTE_REF, 0, 0, 0);
    }
    if (decoded != NULL) {
        status = ref_songs_category_term(&parser->songs, (const char *)decoded, strlen((const char *)decoded));
        xmlFree(decoded);
    } else {
        status = ref_songs_category_term(&parser->songs, (const char *)start, length);
    }
    if (status != REF_STATUS_OK) ref_fail(parser, status);
}

static void lx_start(void *ctx, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri, int nb_namespaces,
                     const xmlChar **namespaces, int nb_attributes, int nb_defaulted, const xmlChar **attributes) {
    (void)prefix; (void)nb_namespaces; (void)namespaces; (void)nb_defaulted;
    RefParser *parser = owner(ctx);
    int element;
    if (uri == NULL) {
        element = ref_classify_plain((const char *)local);
    } else {
        element = ref_classify_namespaced((const char *)local, (const char *)uri, REF_NUL_TERMINATED);
    }
    if (ref_songs_start(&parser->songs, element)) lx_category_term(parser, ctx, nb_attributes, attributes);
}

static void lx_end(void *ctx, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri) {
    (void)local; (void)prefix; (void)uri;
    RefParser *parser = owner(ctx);
    RefStatus status = ref_songs_end(&parser->songs);
    if (status != REF_STATUS_OK) ref_fail(parser, status);
}

static void lx_characters(void *ctx, const xmlChar *bytes, int length) {
    RefParser *parser = owner(ctx);
    if (parser->songs.field == REF_OTHER) return;
    RefStatus status = ref_songs_characters(&parser->songs, (const char *)bytes, (size_t)length);
    if (status != REF_STATUS_OK) ref_fail(parser, status);
}

static void lx_error(void *ctx, xmlErrorPtr error) {
    RefParser *parser = owner(ctx);
    if (error == NULL || error->level < XML_ERR_ERROR || parser->failure != REF_STATUS_OK) return;
    snprintf(parser->message, sizeof parser->message, "%s", error->message ? error->message : "libxml2 error");
    parser->error.line = error->line;
    parser->error.column = error->int2;
    parser->error.code = error->code;
    parser->failure = REF_STATUS_PARSE_ERROR;
    parser->context->disableSAX = 1;
}

// A document object only for a document with a DTD: libxml2 keeps the entity declarations there.
static void lx_internal_subset(void *ctx, const xmlChar *name, const xmlChar *external_id, const xmlChar *system_id) {
    xmlParserCtxtPtr context = ctx;
    if (context->myDoc == NULL) {
        context->myDoc = xmlNewDoc(context->version ? context->version : BAD_CAST "1.0");
        if (context->myDoc == NULL) return;
        context->myDoc->dict = context->dict;
        xmlDictReference(context->dict);
    }
    xmlSAX2InternalSubset(ctx, name, external_id, system_id);
}

static int lx_create(RefParser *parser) {
    pthread_once(&lx_loader_once, ref_install_refusing_loader);
    xmlSAXHandler handler;
    memset(&handler, 0, sizeof handler);
    int options = XML_PARSE_NONET;
    handler.initialized = XML_SAX2_MAGIC;
    // The internal DTD's declarations, kept as libxml2's own SAX2 handlers keep them; no handler that
    // loads an external subset (externalSubset, resolveEntity), and the loader refuses the rest.
    handler.internalSubset = lx_internal_subset;
    handler.isStandalone = xmlSAX2IsStandalone;
    handler.hasInternalSubset = xmlSAX2HasInternalSubset;
    handler.hasExternalSubset = xmlSAX2HasExternalSubset;
    handler.getEntity = xmlSAX2GetEntity;
    handler.getParameterEntity = xmlSAX2GetParameterEntity;
    handler.entityDecl = xmlSAX2EntityDecl;
    handler.attributeDecl = xmlSAX2AttributeDecl;
    handler.elementDecl = xmlSAX2ElementDecl;
    handler.notationDecl = xmlSAX2NotationDecl;
    handler.unparsedEntityDecl = xmlSAX2UnparsedEntityDecl;
    handler.setDocumentLocator = xmlSAX2SetDocumentLocator;
    if (parser->sink != NULL) {
        ref_document_libxml2_handler(&handler);
        options |= XML_PARSE_DTDATTR;
    } else {
        handler.startElementNs = lx_start;
        handler.endElementNs = lx_end;
        handler.characters = lx_characters;
        handler.cdataBlock = lx_characters;
        handler.ignorableWhitespace = lx_characters;
    }
    handler.serror = lx_error;
    parser->context = xmlCreatePushParserCtxt(&handler, NULL, NULL, 0, NULL);
    if (parser->context == NULL) return 0;
    xmlCtxtUseOptions(parser->context, options);
    parser->context->_private = parser;
    return 1;
}

static RefStatus lx_push(RefParser *parser, const char *bytes, size_t length, int final) {
    while (length > 0 || final) {
        int piece = length > (size_t)0x7fffffff ? 0x7fffffff : (int)length;
        int last = final && (size_t)piece == length;
        int status = xmlParseChunk(parser->context, bytes, piece, last);
        if (parser->failure != REF_STATUS_OK) return parser->failure;
        if (status != 0) {
            snprintf(parser->message, sizeof parser->message, "xmlParseChunk failed with code %d", status);
            parser->error.line = xmlSAX2GetLineNumber(parser->context);
            parser->error.column = xmlSAX2GetColumnNumber(parser->context);
            parser->error.code = status;
            parser->failure = REF_STATUS_PARSE_ERROR;
            return parser->failure;
        }
        bytes += piece;
        length -= (size_t)piece;
        if (last) {
            if (!parser->context->wellFormed) {
                snprintf(parser->message, sizeof parser->message, "the document is not well-formed");
                parser->error.line = xmlSAX2GetLineNumber(parser->context);
                parser->error.column = xmlSAX2GetColumnNumber(parser->context);
                parser->error.code = status;
                parser->failure = REF_STATUS_NOT_WELL_FORMED;
                return parser->failure;
            }
            if ((parser->sink != NULL ? (long)doc_sink_depth(parser->sink) : parser->songs.depth) != 0) {
                parser->failure = REF_STATUS_UNCLOSED;
                return parser->failure;
            }
            break;
        }
    }
    return REF_STATUS_OK;
}

// MARK: expat

static void ex_start(void *user_data, const XML_Char *name, const XML_Char **attributes) {
    RefParser *parser = user_data;
    const char *cut = strrchr(name, '\x01');
    int element;
    if (cut == NULL) {
        element = ref_classify_plain(name);
    } else {
        element = ref_classify_namespaced(cut + 1, name, (size_t)(cut - name));
    }
    if (!ref_songs_start(&parser->songs, element)) return;
    // The Atom category's `term`: a plain name (no namespace).
    const char *term = NULL;
    for (int index = 0; attributes != NULL && attributes[index] != NULL; index += 2) {
        if (strcmp(attributes[index], "term") == 0) {
            term = attributes[index + 1];
            break;
        }
    }
    RefStatus status = ref_songs_category_term(&parser->songs, term, term != NULL ? strlen(term) : 0);
    if (status != REF_STATUS_OK) ref_fail(parser, status);
}

static void ex_end(void *user_data, const XML_Char *name) {
    (void)name;
    RefParser *parser = user_data;
    RefStatus status = ref_songs_end(&parser->songs);
    if (status != REF_STATUS_OK) ref_fail(parser, status);
}

static void ex_characters(void *user_data, const XML_Char *bytes, int length) {
    RefParser *parser = user_data;
    if (parser->songs.field == REF_OTHER) return;
    RefStatus status = ref_songs_characters(&parser->songs, bytes, (size_t)length);
    if (status != REF_STATUS_OK) ref_fail(parser, status);
}

static int ex_refuse_external(XML_Parser p, const XML_Char *context, const XML_Char *base, const XML_Char *system_id,
                              const XML_Char *public_id) {
    (void)p; (void)context; (void)base; (void)system_id; (void)public_id;
    return XML_STATUS_ERROR;
}

static int ex_create(RefParser *parser, unsigned long salt) {
    parser->expat = XML_ParserCreateNS(NULL, '\x01');
    if (parser->expat == NULL) return 0;
    XML_SetUserData(parser->expat, parser);
    if (salt != 0) XML_SetHashSalt(parser->expat, salt);
    XML_SetParamEntityParsing(parser->expat, XML_PARAM_ENTITY_PARSING_NEVER);
    if (parser->sink != NULL) {
        ref_document_expat_handlers(parser->expat);
    } else {
        XML_SetElementHandler(parser->expat, ex_start, ex_end);
        XML_SetCharacterDataHandler(parser->expat, ex_characters);
    }
    XML_SetExternalEntityRefHandler(parser->expat, ex_refuse_external);
    return 1;
}

static RefStatus ex_push(RefParser *parser, const char *bytes, size_t length, int final) {
    while (length > 0 || final) {
        int piece = length > (size_t)0x7fffffff ? 0x7fffffff : (int)length;
        int last = final && (size_t)piece == length;
        enum XML_Status status = XML_Parse(parser->expat, bytes, piece, last);
        if (parser->failure != REF_STATUS_OK) return parser->failure;
        if (status != XML_STATUS_OK) {
            enum XML_Error code = XML_GetErrorCode(parser->expat);
            const XML_LChar *text = XML_ErrorString(code);
            snprintf(parser->message, sizeof parser->message, "%s", text ? text : "expat error");
            parser->error.line = (long)XML_GetCurrentLineNumber(parser->expat);
            parser->error.column = (long)XML_GetCurrentColumnNumber(parser->expat) + 1;
            parser->error.code = (int)code;
            parser->failure = REF_STATUS_PARSE_ERROR;
            return parser->failure;
        }
        bytes += piece;
        length -= (size_t)piece;
        if (last) break;
    }
    return REF_STATUS_OK;
}

// MARK: The interface

static RefParser *create(RefLibrary library, unsigned long salt, RefSongEnded song_ended, void *context,
                         DocSink *sink) {
    RefParser *parser = calloc(1, sizeof *parser);
    if (parser == NULL) return NULL;
    parser->library = library;
    parser->sink = sink;
    ref_songs_init(&parser->songs, song_ended, context);
    int made = library == REF_LIBRARY_LIBXML2 ? lx_create(parser) : ex_create(parser, salt);
    if (!made) {
        ref_parser_free(parser);
        return NULL;
    }
    return parser;
}

RefParser *ref_parser_create(RefLibrary library, unsigned long salt, RefSongEnded song_ended, void *context) {
    return create(library, salt, song_ended, context, NULL);
}

RefParser *ref_parser_create_document(RefLibrary library, unsigned long salt, DocSink *sink) {
    return sink == NULL ? NULL : create(library, salt, NULL, NULL, sink);
}

RefStatus ref_parser_push(RefParser *parser, const char *bytes, size_t length, int final) {
    if (parser->failure != REF_STATUS_OK) return parser->failure;
    return parser->library == REF_LIBRARY_LIBXML2 ? lx_push(parser, bytes, length, final)
                                                  : ex_push(parser, bytes, length, final);
}

RefError ref_parser_error(const RefParser *parser) {
    RefError error = parser->error;
    error.message = parser->message;
    return error;
}

static void release_library(RefParser *parser) {
    if (parser->context != NULL) {
        if (parser->context->myDoc != NULL) {
            xmlFreeDoc(parser->context->myDoc);
            parser->context->myDoc = NULL;
        }
        xmlFreeParserCtxt(parser->context);
        parser->context = NULL;
    }
    if (parser->expat != NULL) {
        XML_ParserFree(parser->expat);
        parser->expat = NULL;
    }
}

void ref_parser_release_library(RefParser *parser) {
    release_library(parser);
    if (parser->failure == REF_STATUS_OK) {
        snprintf(parser->message, sizeof parser->message, "the document has ended");
        parser->failure = REF_STATUS_PARSE_ERROR;
    }
}

void ref_parser_position(const RefParser *parser, long *line, long *column) {
    *line = 0;
    *column = 0;
    if (parser->context != NULL) {
        *line = xmlSAX2GetLineNumber(parser->context);
        *column = xmlSAX2GetColumnNumber(parser->context);
    } else if (parser->expat != NULL) {
        *line = (long)XML_GetCurrentLineNumber(parser->expat);
        *column = (long)XML_GetCurrentColumnNumber(parser->expat) + 1;
    }
}

int ref_parser_long_field(const RefParser *parser) { return parser->songs.long_field; }

size_t ref_parser_song_count(const RefParser *parser) { return parser->songs.songs; }

const RefField *ref_parser_song_fields(const RefParser *parser, size_t index) {
    return parser->songs.fields + index * REF_FIELD_COUNT;
}

const char *ref_parser_text(const RefParser *parser) { return parser->songs.text; }

void ref_parser_free(RefParser *parser) {
    if (parser == NULL) return;
    release_library(parser);
    ref_songs_free(&parser->songs);
    free(parser);
}
