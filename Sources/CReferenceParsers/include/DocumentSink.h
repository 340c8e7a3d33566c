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
// it reads every byte of every event into a running checksum (a run of text's bytes summed, so that
// how the parser splits it does not matter; names, attribute values and a PI's strings, which come
// whole, hashed with every byte in its place; the markup events folded in order; a tag's attributes
// summed, so that their order does not matter), counts the events and checks their nesting. No copy,
// no sort, no allocation, no call (its events are inline, at the end of this header). The canonical
// sink computes the same checksum besides its digest, so a timed walk is tied to a verified one:
// same checksum, same events (as far as a checksum tells).

#include <stddef.h>
#include <stdint.h>
#include <string.h>

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
static inline DocStatus doc_sink_start(DocSink *sink, const char *uri, size_t uri_length, const char *local,
                                       size_t local_length, const char *prefix, size_t prefix_length);

/// An attribute of the tag being opened; its value as the parser normalised it.
static inline DocStatus doc_sink_attribute(DocSink *sink, const char *uri, size_t uri_length, const char *local,
                                           size_t local_length, const char *prefix, size_t prefix_length,
                                           const char *value, size_t value_length);

/// A namespace declaration of the tag being opened (`xmlns="uri"` for an empty prefix), reported as
/// an attribute in the xmlns namespace, as the W3C's canonical form writes it.
DocStatus doc_sink_namespace(DocSink *sink, const char *prefix, size_t prefix_length, const char *uri,
                             size_t uri_length);

/// Closes the start tag: sorts its attributes by name as written and reports it.
static inline DocStatus doc_sink_start_done(DocSink *sink);

static inline DocStatus doc_sink_end(DocSink *sink);

/// Character data (text, CDATA, whitespace), any piece of it.
static inline DocStatus doc_sink_text(DocSink *sink, const char *bytes, size_t length);

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

/// doc_sink_replay with no length checked against the log's end: only for a log that
/// doc_sink_replay took whole (DOC_STATUS_OK, every event reported, the sink finished cleanly), as
/// the `sink` baseline replays it, so that its time is the sink's more than the reading of its log.
DocStatus doc_sink_replay_whole(DocSink *sink, const unsigned char *log, size_t length);

// MARK: The events, inline
//
// Every event of the checksum sink is a few instructions, and a call and its set-up would cost as
// much again: the events are inline here, so that a parser (C or Swift: Swift inlines a header's
// static inline functions) reports each with no call. What they need of the sink is its first
// member, DocSinkCore. The canonical sink, and every event out of the usual order (an attribute
// before its start tag, an event after the document ended, an end tag with no element open), go
// to the general functions (doc_sink_*_general, in docsink.c), which do everything and check
// everything. Either way the checksum is the same, computed by the same lines.

/// Inline wherever called, however large the caller: an event is a few instructions.
#define DOC_SINK_INLINE __attribute__((always_inline)) static inline

/// The state every event updates, at the start of every DocSink: for the inline functions only.
typedef struct {
    /// The checksum: the markup events folded in order; the tag being opened, its strings hashed
    /// and summed; the text since the last markup, summed (0 when there is none: a run of text sums
    /// to 0 only when it is a multiple of 2^24 NUL bytes, which no XML text has).
    uint64_t check, check_tag, check_text;
    /// The events reported, each element's end tag counted with its start tag (so that an end tag
    /// only closes the element: doc_sink_event_count is `events - depth`), and the elements open.
    size_t events, depth;
    /// DOC_SINK_* flags.
    unsigned flags;
} DocSinkCore;

enum {
    /// The canonical sink: every event takes the general functions.
    DOC_SINK_CANONICAL = 1,
    /// doc_sink_finish was called: every event is a misuse.
    DOC_SINK_FINISHED = 2,
    /// A start tag is open (its name or an attribute came, doc_sink_start_done not yet).
    DOC_SINK_TAG_PENDING = 4,
    /// The open tag has its name.
    DOC_SINK_HAS_NAME = 8
};

DocStatus doc_sink_start_general(DocSink *sink, const char *uri, size_t uri_length, const char *local,
                                 size_t local_length, const char *prefix, size_t prefix_length);
DocStatus doc_sink_attribute_general(DocSink *sink, const char *uri, size_t uri_length, const char *local,
                                     size_t local_length, const char *prefix, size_t prefix_length, const char *value,
                                     size_t value_length);
DocStatus doc_sink_start_done_general(DocSink *sink);
DocStatus doc_sink_end_general(DocSink *sink);
DocStatus doc_sink_text_general(DocSink *sink, const char *bytes, size_t length);

/// The sum of the bytes of a string of 16 bytes or more (docsink.c: vector instructions).
uint64_t doc_sink_sum_long(const unsigned char *bytes, size_t length);

/// doc_sink_hash of a string of more than 16 bytes (docsink.c).
uint64_t doc_sink_hash_long(const unsigned char *bytes, size_t length);

#define DOC_SINK_PRIME1 0x9E3779B185EBCA87ULL
#define DOC_SINK_PRIME2 0xC2B2AE3D27D4EB4FULL
#define DOC_SINK_PRIME3 0x165667B19E3779F9ULL

DOC_SINK_INLINE uint64_t doc_sink_rotate(uint64_t value, int bits) { return (value << bits) | (value >> (64 - bits)); }

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/// A word's 8 bytes added in pairs: four 16-bit lanes, at most 510 each.
DOC_SINK_INLINE uint64_t doc_sink_pairs(uint64_t word) {
    const uint64_t low = 0x00FF00FF00FF00FFULL;
    return (word & low) + ((word >> 8) & low);
}

/// The sum of four 16-bit lanes whose sum is under 65,536: the lanes added into the top one by a
/// multiplication (no lane carries into the next).
DOC_SINK_INLINE uint64_t doc_sink_sum_lanes(uint64_t lanes) { return (lanes * 0x0001000100010001ULL) >> 48; }

/// The sum of a word's 8 bytes.
DOC_SINK_INLINE uint64_t doc_sink_sum_word(uint64_t word) { return doc_sink_sum_lanes(doc_sink_pairs(word)); }

DOC_SINK_INLINE uint64_t doc_sink_load64(const unsigned char *at) {
    uint64_t word;
    memcpy(&word, at, 8);
    return word;
}

DOC_SINK_INLINE uint64_t doc_sink_load32(const unsigned char *at) {
    uint32_t word;
    memcpy(&word, at, 4);
    return word;
}
#endif

/// A string's bytes summed, with its length above them: every split of a run of text sums the same.
/// No loop for a string under 16 bytes (names, most attribute values, the whitespace between
/// tags): one or two loads of the string's own bytes, the bytes read twice masked off.
DOC_SINK_INLINE uint64_t doc_sink_touch(const char *bytes, size_t length) {
    const unsigned char *at = (const unsigned char *)bytes;
    uint64_t sum = (uint64_t)length << 40;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    // The shortest first: the whitespace between two tags is a byte or a few.
    if (length < 4) {
        if (length > 0) {
            sum += at[0];
            if (length > 1) sum += at[length - 1];
            if (length > 2) sum += at[1];
        }
        return sum;
    }
    if (length >= 16) return sum + doc_sink_sum_long(at, length);
    if (length >= 8) {
        // The last 8 bytes, those the first word read too (the low ones) masked off.
        uint64_t last = doc_sink_load64(at + length - 8) & (~0ULL << ((16 - length) * 8 - 1) << 1);
        return sum + doc_sink_sum_lanes(doc_sink_pairs(doc_sink_load64(at)) + doc_sink_pairs(last));
    }
    uint64_t last = doc_sink_load32(at + length - 4) & (0xFFFFFFFFULL << ((8 - length) * 8));
    return sum + doc_sink_sum_word(doc_sink_load32(at) | last << 32);
#else
    if (length >= 16) return sum + doc_sink_sum_long(at, length);
    for (size_t i = 0; i < length; i++) sum += at[i];
    return sum;
#endif
}

/// A whole string (a name, an attribute value, a processing instruction's target or data) as one
/// number: every byte, in order, and the length; 0 for the empty string. Text is summed instead
/// (doc_sink_touch), as a parser may split it anywhere; the other strings come whole, so their
/// bytes' order counts too, and a string under 17 bytes is one or two loads and a multiplication.
DOC_SINK_INLINE uint64_t doc_sink_hash(const char *bytes, size_t length) {
    const unsigned char *at = (const unsigned char *)bytes;
    uint64_t word;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    // 4 to 8 bytes first (most names, and many values): one comparison.
    if (length - 4 <= 4) {
        word = doc_sink_load32(at) | doc_sink_load32(at + length - 4) << 32;
    } else if (length > 16) {
        return doc_sink_hash_long(at, length);
    } else if (length > 8) {
        // Two words, overlapping when under 16 bytes (every byte in one at least).
        word = doc_sink_load64(at) * DOC_SINK_PRIME2 + doc_sink_rotate(doc_sink_load64(at + length - 8), 32);
    } else if (length > 0) {
        // The first, middle and last bytes: all of them.
        word = at[0] | (uint64_t)at[length >> 1] << 8 | (uint64_t)at[length - 1] << 16;
    } else {
        return 0;
    }
#else
    if (length > 16) return doc_sink_hash_long(at, length);
    if (length == 0) return 0;
    word = 0;
    for (size_t i = 0; i < length; i++) word = word * 257 + at[i];
#endif
    return (word * DOC_SINK_PRIME1) ^ length;
}

/// A name (URI, local name, prefix) as one number.
DOC_SINK_INLINE uint64_t doc_sink_touch_name(const char *uri, size_t uri_length, const char *local, size_t local_length,
                                             const char *prefix, size_t prefix_length) {
    uint64_t name = doc_sink_hash(local, local_length);
    // No namespace (most names of most documents): an empty string hashes to 0, and the local name
    // is the name's hash as it is.
    if ((uri_length | prefix_length) == 0) return name;
    return doc_sink_rotate(doc_sink_hash(uri, uri_length), 21) + name +
           doc_sink_rotate(doc_sink_hash(prefix, prefix_length), 42);
}

/// Folds one markup event into the checksum, in order: its kind (the kind's byte in each byte of
/// a 32-bit constant, which an addition takes as it is) and its value.
DOC_SINK_INLINE void doc_sink_check_event(DocSinkCore *core, unsigned char kind, uint64_t value) {
    core->check = doc_sink_rotate(core->check, 7) + value + (uint64_t)kind * 0x01010101U;
}

/// Before markup: the text since the last markup is an event (the checksum's part of it).
DOC_SINK_INLINE void doc_sink_check_text(DocSinkCore *core) {
    if (core->check_text != 0) {
        doc_sink_check_event(core, DOC_EVENT_TEXT, core->check_text);
        core->check_text = 0;
        core->events += 1;
    }
}

DOC_SINK_INLINE DocStatus doc_sink_start(DocSink *sink, const char *uri, size_t uri_length, const char *local,
                                       size_t local_length, const char *prefix, size_t prefix_length) {
    DocSinkCore *core = (DocSinkCore *)sink;
    if (core->flags & (DOC_SINK_CANONICAL | DOC_SINK_FINISHED | DOC_SINK_TAG_PENDING))
        return doc_sink_start_general(sink, uri, uri_length, local, local_length, prefix, prefix_length);
    doc_sink_check_text(core);
    // The tag's name turned half a word, so that it and an attribute's name are two numbers.
    core->check_tag =
        doc_sink_rotate(doc_sink_touch_name(uri, uri_length, local, local_length, prefix, prefix_length), 32);
    core->flags |= DOC_SINK_TAG_PENDING | DOC_SINK_HAS_NAME;
    return DOC_STATUS_OK;
}

DOC_SINK_INLINE DocStatus doc_sink_attribute(DocSink *sink, const char *uri, size_t uri_length, const char *local,
                                           size_t local_length, const char *prefix, size_t prefix_length,
                                           const char *value, size_t value_length) {
    DocSinkCore *core = (DocSinkCore *)sink;
    if ((core->flags & (DOC_SINK_CANONICAL | DOC_SINK_FINISHED | DOC_SINK_TAG_PENDING)) != DOC_SINK_TAG_PENDING)
        return doc_sink_attribute_general(sink, uri, uri_length, local, local_length, prefix, prefix_length, value,
                                          value_length);
    // Summed: the attributes' order, which the canonical sink sorts away, does not matter.
    core->check_tag += doc_sink_touch_name(uri, uri_length, local, local_length, prefix, prefix_length) ^
                       doc_sink_rotate(doc_sink_hash(value, value_length), 11);
    return DOC_STATUS_OK;
}

DOC_SINK_INLINE DocStatus doc_sink_start_done(DocSink *sink) {
    DocSinkCore *core = (DocSinkCore *)sink;
    if ((core->flags & (DOC_SINK_CANONICAL | DOC_SINK_FINISHED | DOC_SINK_TAG_PENDING | DOC_SINK_HAS_NAME)) !=
        (DOC_SINK_TAG_PENDING | DOC_SINK_HAS_NAME))
        return doc_sink_start_done_general(sink);
    doc_sink_check_event(core, DOC_EVENT_START, core->check_tag);
    core->flags &= ~(unsigned)(DOC_SINK_TAG_PENDING | DOC_SINK_HAS_NAME);
    core->depth += 1;
    core->events += 2;
    return DOC_STATUS_OK;
}

DOC_SINK_INLINE DocStatus doc_sink_end(DocSink *sink) {
    DocSinkCore *core = (DocSinkCore *)sink;
    if ((core->flags & (DOC_SINK_CANONICAL | DOC_SINK_FINISHED | DOC_SINK_TAG_PENDING)) || core->depth == 0)
        return doc_sink_end_general(sink);
    doc_sink_check_text(core);
    doc_sink_check_event(core, DOC_EVENT_END, 0);
    core->depth -= 1;
    return DOC_STATUS_OK;
}

DOC_SINK_INLINE DocStatus doc_sink_text(DocSink *sink, const char *bytes, size_t length) {
    DocSinkCore *core = (DocSinkCore *)sink;
    if (core->flags & (DOC_SINK_CANONICAL | DOC_SINK_FINISHED | DOC_SINK_TAG_PENDING))
        return doc_sink_text_general(sink, bytes, length);
    core->check_text += doc_sink_touch(bytes, length);
    return DOC_STATUS_OK;
}

#endif
