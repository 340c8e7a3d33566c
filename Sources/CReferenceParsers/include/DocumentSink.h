#ifndef REFERENCE_DOCUMENT_SINK_H
#define REFERENCE_DOCUMENT_SINK_H

// The canonical event sink of the document workload: every parser, Swift or C, reports a document's
// events here, so that the work after the parser is the same for all of them.
//
// Events: a start tag (namespace URI, local name and prefix; its attributes and namespace
// declarations, sorted by their names as written), an end tag, character data (everything between
// two pieces of markup, merged, whatever pieces the parser hands over) and a processing
// instruction (target, data). Comments, the DTD and the XML declaration are not events.
//
// The sink folds each event, as a byte encoding, into a 64-bit digest (the same for every parser
// that reports the same events) and, when asked, keeps the encoding: the event log that Swift reads
// back to write the canonical form or to find the first event two parsers disagree on. All text is
// UTF-8; every string is given with its length (names need no NUL).
//
// Two sinks in one: the canonical sink above, and the checksum sink (doc_sink_reset_checksum), the
// one the document workload times. The checksum sink does only what any consumer of the events must:
// it reads every byte of every event into a running checksum (bytes summed; the markup events folded
// in order; a tag's attributes and a run of text summed, so that neither their order nor how the
// parser splits the text matters), counts the events and checks their nesting. No copy, no sort, no
// allocation. The canonical sink computes the same checksum besides its digest, so a timed walk is
// tied to a verified one: same checksum, same events (as far as a checksum tells).

#include <stddef.h>
#include <stdint.h>

typedef struct DocSink DocSink;

typedef enum {
    DOC_STATUS_OK = 0,
    /// A run of character data, an attribute value or a name grew past DOC_MAXIMUM_TEXT_BYTES.
    DOC_STATUS_TOO_LONG = 1,
    DOC_STATUS_OUT_OF_MEMORY = 2,
    /// An end tag with no open element, or events after the document ended.
    DOC_STATUS_MISUSE = 3
} DocStatus;

/// The longest run of character data (or attribute value, or name) the sink takes, in bytes.
#define DOC_MAXIMUM_TEXT_BYTES (64 << 20)

/// The event kinds of the log: one byte each, then the event's strings (a 32-bit little-endian
/// length and the bytes) — start: URI, local name, prefix, the attribute count (32-bit), and per
/// attribute URI, local name, prefix, value; end: nothing; text: the text; PI: target, data.
enum { DOC_EVENT_START = 'S', DOC_EVENT_END = 'E', DOC_EVENT_TEXT = 'T', DOC_EVENT_PI = 'P' };

/// The namespace URI of namespace declarations reported as attributes (`xmlns`, `xmlns:p`).
extern const char doc_xmlns_namespace[];

DocSink *doc_sink_create(void);
void doc_sink_free(DocSink *sink);

/// Starts a new document in the canonical sink (buffers kept); `record` != 0 keeps the event log.
void doc_sink_reset(DocSink *sink, int record);

/// Starts a new document in the checksum sink: no digest, no log, no buffer (doc_sink_checksum).
void doc_sink_reset_checksum(DocSink *sink);

/// 1 for the canonical sink, 0 for the checksum sink.
int doc_sink_is_canonical(const DocSink *sink);

/// Opens a start tag. Attributes and namespace declarations may come before it (expat reports the
/// declarations first) or after it; doc_sink_start_done closes the tag.
DocStatus doc_sink_start(DocSink *sink, const char *uri, size_t uri_length, const char *local, size_t local_length,
                         const char *prefix, size_t prefix_length);

/// An attribute of the tag being opened; its value as the parser normalised it.
DocStatus doc_sink_attribute(DocSink *sink, const char *uri, size_t uri_length, const char *local, size_t local_length,
                             const char *prefix, size_t prefix_length, const char *value, size_t value_length);

/// A namespace declaration of the tag being opened (`xmlns="uri"` for an empty prefix), reported as
/// an attribute in the xmlns namespace, as the W3C's canonical form writes it.
DocStatus doc_sink_namespace(DocSink *sink, const char *prefix, size_t prefix_length, const char *uri,
                             size_t uri_length);

/// Closes the start tag: sorts its attributes by name as written and reports it.
DocStatus doc_sink_start_done(DocSink *sink);

DocStatus doc_sink_end(DocSink *sink);

/// Character data (text, CDATA, whitespace), any piece of it.
DocStatus doc_sink_text(DocSink *sink, const char *bytes, size_t length);

DocStatus doc_sink_pi(DocSink *sink, const char *target, size_t target_length, const char *data, size_t data_length);

/// Ends the document: reports the pending character data.
DocStatus doc_sink_finish(DocSink *sink);

/// The digest of the events so far (final once doc_sink_finish has returned); the canonical sink's only.
uint64_t doc_sink_digest(const DocSink *sink);

/// The checksum of the events so far (final once doc_sink_finish has returned), both sinks: the same
/// for the same events whatever the parser (the attributes' order and the text's pieces left out).
uint64_t doc_sink_checksum(const DocSink *sink);

/// The number of events reported.
size_t doc_sink_event_count(const DocSink *sink);

/// The elements open now.
size_t doc_sink_depth(const DocSink *sink);

/// The event log (empty unless recording).
const unsigned char *doc_sink_log(const DocSink *sink, size_t *length);

/// Reports the events of a recorded log (doc_sink_log's bytes) again, as a parser would: what the
/// sink alone costs (the document workload's `sink` baseline). DOC_STATUS_MISUSE for a log cut short
/// or not a log.
DocStatus doc_sink_replay(DocSink *sink, const unsigned char *log, size_t length);

#endif
