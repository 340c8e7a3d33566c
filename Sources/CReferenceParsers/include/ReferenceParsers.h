#ifndef REFERENCE_PARSERS_H
#define REFERENCE_PARSERS_H

// The song extraction of the Swift adapters, written in plain C over the same libraries, so that
// the benchmark can show what the Swift binding costs. Fields are gathered into C buffers during
// the parse; the Swift side turns them into songs after the clock stops.
//
// Only the FeedParsers module imports this header; it names no libxml2 or expat type.

#include <stddef.h>

#include "DocumentSink.h"

/// The song fields, in the order of Swift's `Song.fieldNames`.
enum {
    REF_FIELD_TITLE = 0,
    REF_FIELD_CATEGORY = 1,
    REF_FIELD_ARTIST = 2,
    REF_FIELD_ALBUM = 3,
    REF_FIELD_RELEASE_DATE = 4,
    REF_FIELD_COUNT = 5
};

/// Which library a reference parser drives.
typedef enum { REF_LIBRARY_LIBXML2 = 0, REF_LIBRARY_EXPAT = 1 } RefLibrary;

/// The result of a push.
typedef enum {
    REF_STATUS_OK = 0,
    /// The library reported an error (see ref_parser_error).
    REF_STATUS_PARSE_ERROR = 1,
    /// A song field grew past REF_MAXIMUM_FIELD_BYTES.
    REF_STATUS_FIELD_TOO_LONG = 2,
    /// Memory for the fields could not be had.
    REF_STATUS_OUT_OF_MEMORY = 3,
    /// The document ended before its root element did (libxml2: not well-formed at the end).
    REF_STATUS_NOT_WELL_FORMED = 4,
    /// The document ended inside an element.
    REF_STATUS_UNCLOSED = 5,
    /// The event sink was called out of order (a parser's event stream that is not a document's).
    REF_STATUS_SINK_MISUSE = 6
} RefStatus;

/// The longest text of one field, in bytes (Swift's `SongAssembler.maximumFieldBytes`).
#define REF_MAXIMUM_FIELD_BYTES (1 << 20)

/// Called as each song's item ends.
typedef void (*RefSongEnded)(void *context);

typedef struct RefParser RefParser;

/// A field of a song: `length` bytes at `offset` of the text buffer; `length` < 0 when the item had
/// no such element.
typedef struct {
    size_t offset;
    long length;
} RefField;

/// The error the library reported, when a push returned REF_STATUS_PARSE_ERROR.
typedef struct {
    const char *message;  // the library's own words (may end with a newline); never NULL
    long line;            // from 1; 0 when unknown
    long column;          // from 1; 0 when unknown
    int code;             // the library's error code
} RefError;

/// Makes libxml2's external entity loader, for the whole process, one that refuses every load: no
/// external DTD subset, external parameter entity or external general entity is ever opened
/// (`file:`, `http:` or relative alike), whatever the parser's options. A libxml2 reference parser
/// installs it once (pthread_once) before its first parse; the Swift adapters install it through
/// `ExternalLoads`, after Foundation has set its own (which it does once, for its first XMLParser).
void ref_install_refusing_loader(void);

/// Whether libxml2's external entity loader is the refusing one (1) or another (0).
int ref_refusing_loader_installed(void);

/// Makes a parser for one document. `salt` seeds expat's hash tables (0: expat's own random seed);
/// libxml2 ignores it. NULL when the library cannot make one.
RefParser *ref_parser_create(RefLibrary library, unsigned long salt, RefSongEnded song_ended, void *context);

/// Makes a parser that reports a whole document's events to `sink` (the document workload): the
/// same library options as the song parser's, plus defaulted attributes from the internal DTD
/// (libxml2: XML_PARSE_DTDATTR), namespace prefixes (expat: XML_SetReturnNSTriplet), processing
/// instructions outside the DTD. REF_STATUS_FIELD_TOO_LONG then means a run of text too long for
/// the sink. The songs stay empty.
RefParser *ref_parser_create_document(RefLibrary library, unsigned long salt, DocSink *sink);

/// Pushes bytes; `final` != 0 ends the document (bytes may then be NULL with length 0).
RefStatus ref_parser_push(RefParser *parser, const char *bytes, size_t length, int final);

/// Frees the library's parser once the document has ended (its cost belongs to the parse), keeping
/// the songs; later pushes fail.
void ref_parser_release_library(RefParser *parser);

/// The error of the last push that failed, and where the parser is.
RefError ref_parser_error(const RefParser *parser);

/// Where the parser is now (line from 1, column from 1).
void ref_parser_position(const RefParser *parser, long *line, long *column);

/// The field whose text grew too long (REF_FIELD_…), and the number of songs complete before it.
int ref_parser_long_field(const RefParser *parser);

/// The songs complete so far.
size_t ref_parser_song_count(const RefParser *parser);

/// The fields of song `index` (REF_FIELD_COUNT of them).
const RefField *ref_parser_song_fields(const RefParser *parser, size_t index);

/// The text buffer the fields point into.
const char *ref_parser_text(const RefParser *parser);

void ref_parser_free(RefParser *parser);

#endif
