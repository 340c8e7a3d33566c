// The canonical event sink (see DocumentSink.h).

#include "DocumentSink.h"

#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

const char doc_xmlns_namespace[] = "http://www.w3.org/2000/xmlns/";

/// A string of the pending tag: `length` bytes at `offset` of the tag's byte buffer.
typedef struct {
    size_t offset, length;
} Piece;

typedef struct {
    Piece uri, local, prefix, value, name;  // name: the attribute's name as written (prefix:local)
} Attribute;

typedef struct {
    unsigned char *bytes;
    size_t count, capacity;
} Buffer;

struct DocSink {
    // What every event updates (the header's inline events read it): the checksum (both sinks:
    // markup events in order, a tag's strings and a run of text summed), the event count, the depth,
    // and the flags — which sink (DOC_SINK_CANONICAL: the digest of the encoding, the log; else the
    // checksum alone), the document ended, a tag open, text pending. The first member: the header
    // reaches it by converting the sink's pointer.
    DocSinkCore core;
    // The digest: a stream hash over the events' encoding, 8 bytes at a time.
    uint64_t hash, total;
    unsigned char carry[8];
    size_t carry_count;
    // Character data since the last markup.
    Buffer text;
    // The tag being opened: its strings, its name, its attributes.
    Buffer tag;
    Piece uri, local, prefix;
    Attribute *attributes;
    size_t attribute_count, attribute_capacity;
    // The event log.
    int record;
    Buffer log;
};

// MARK: The digest

#define PRIME1 DOC_SINK_PRIME1
#define PRIME2 DOC_SINK_PRIME2
#define PRIME3 DOC_SINK_PRIME3

static inline uint64_t rotate(uint64_t value, int bits) { return doc_sink_rotate(value, bits); }

static inline uint64_t mix(uint64_t hash, uint64_t word) { return rotate(hash ^ (word * PRIME2), 31) * PRIME1; }

/// The last step of a digest: every bit of the input moves every bit of the output.
static inline uint64_t avalanche(uint64_t hash) {
    hash ^= hash >> 33;
    hash *= PRIME2;
    hash ^= hash >> 29;
    hash *= PRIME3;
    hash ^= hash >> 32;
    return hash;
}

static void hash_bytes(DocSink *sink, const unsigned char *bytes, size_t length) {
    sink->total += length;
    if (sink->carry_count > 0) {
        size_t take = 8 - sink->carry_count < length ? 8 - sink->carry_count : length;
        memcpy(sink->carry + sink->carry_count, bytes, take);
        sink->carry_count += take;
        bytes += take;
        length -= take;
        if (sink->carry_count < 8) return;
        uint64_t word;
        memcpy(&word, sink->carry, 8);
        sink->hash = mix(sink->hash, word);
        sink->carry_count = 0;
    }
    while (length >= 8) {
        uint64_t word;
        memcpy(&word, bytes, 8);
        sink->hash = mix(sink->hash, word);
        bytes += 8;
        length -= 8;
    }
    memcpy(sink->carry, bytes, length);
    sink->carry_count = length;
}

uint64_t doc_sink_digest(const DocSink *sink) {
    uint64_t hash = sink->hash;
    if (sink->carry_count > 0) {
        uint64_t word = 0;
        memcpy(&word, sink->carry, sink->carry_count);
        hash = mix(hash, word);
    }
    hash ^= sink->total * PRIME3;
    return avalanche(hash);
}

// MARK: Buffers

static int reserve(Buffer *buffer, size_t more) {
    size_t needed = buffer->count + more;
    if (needed <= buffer->capacity) return 1;
    size_t capacity = buffer->capacity < 256 ? 256 : buffer->capacity;
    while (capacity < needed) capacity *= 2;
    unsigned char *grown = realloc(buffer->bytes, capacity);
    if (grown == NULL) return 0;
    buffer->bytes = grown;
    buffer->capacity = capacity;
    return 1;
}

static int append(Buffer *buffer, const void *bytes, size_t length) {
    if (length == 0) return 1;
    if (!reserve(buffer, length)) return 0;
    memcpy(buffer->bytes + buffer->count, bytes, length);
    buffer->count += length;
    return 1;
}

// MARK: Emitting an event's encoding

static DocStatus emit(DocSink *sink, const void *bytes, size_t length) {
    hash_bytes(sink, bytes, length);
    if (sink->record && !append(&sink->log, bytes, length)) return DOC_STATUS_OUT_OF_MEMORY;
    return DOC_STATUS_OK;
}

static DocStatus emit_count(DocSink *sink, size_t count) {
    unsigned char bytes[4] = {(unsigned char)count, (unsigned char)(count >> 8), (unsigned char)(count >> 16),
                              (unsigned char)(count >> 24)};
    return emit(sink, bytes, 4);
}

static DocStatus emit_string(DocSink *sink, const void *bytes, size_t length) {
    DocStatus status = emit_count(sink, length);
    return status != DOC_STATUS_OK ? status : emit(sink, bytes, length);
}

static DocStatus emit_piece(DocSink *sink, Piece piece) {
    return emit_string(sink, sink->tag.bytes + piece.offset, piece.length);
}

static DocStatus flush_text(DocSink *sink) {
    if (sink->text.count == 0) return DOC_STATUS_OK;
    unsigned char kind = DOC_EVENT_TEXT;
    DocStatus status = emit(sink, &kind, 1);
    if (status == DOC_STATUS_OK) status = emit_string(sink, sink->text.bytes, sink->text.count);
    sink->text.count = 0;
    return status;
}

// MARK: The checksum

uint64_t doc_sink_sum_long(const unsigned char *bytes, size_t length) {
    const unsigned char *at = bytes, *end = bytes + length;
#if defined(__SSE2__)
    // psadbw: 16 bytes summed into two 64-bit lanes by one instruction.
    __m128i zero = _mm_setzero_si128(), first = zero, second = zero;
    for (; end - at >= 32; at += 32) {
        first = _mm_add_epi64(first, _mm_sad_epu8(_mm_loadu_si128((const __m128i *)at), zero));
        second = _mm_add_epi64(second, _mm_sad_epu8(_mm_loadu_si128((const __m128i *)(at + 16)), zero));
    }
    if (end - at >= 16) {
        first = _mm_add_epi64(first, _mm_sad_epu8(_mm_loadu_si128((const __m128i *)at), zero));
        at += 16;
    }
    size_t rest = (size_t)(end - at);
    if (rest > 0) {
        // The string's last 16 bytes (it has at least 16), those already summed masked off: the mask
        // is 16 - rest zero bytes, then rest bytes of ones.
        static const unsigned char masks[32] = {0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
                                                0,    0,    0,    0,    0,    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                                0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
        __m128i last = _mm_loadu_si128((const __m128i *)(end - 16));
        __m128i mask = _mm_loadu_si128((const __m128i *)(masks + rest));
        first = _mm_add_epi64(first, _mm_sad_epu8(_mm_and_si128(last, mask), zero));
    }
    first = _mm_add_epi64(first, second);
    return (uint64_t)_mm_cvtsi128_si64(first) + (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(first, first));
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    // Eight bytes at a time: byte pairs into four 16-bit lanes, each at most 510 a word, so 128
    // words (1 KiB) before the lanes are added into the sum.
    uint64_t sum = 0;
    const uint64_t low = 0x00FF00FF00FF00FFULL;
    while (end - at >= 8) {
        size_t words = (size_t)(end - at) / 8 < 128 ? (size_t)(end - at) / 8 : 128;
        uint64_t lanes = 0;
        for (size_t i = 0; i < words; i++, at += 8) {
            uint64_t word = doc_sink_load64(at);
            lanes += (word & low) + ((word >> 8) & low);
        }
        lanes = (lanes & 0x0000FFFF0000FFFFULL) + ((lanes >> 16) & 0x0000FFFF0000FFFFULL);
        sum += (lanes & 0xFFFFFFFFULL) + (lanes >> 32);
    }
    size_t rest = (size_t)(end - at);
    if (rest > 0) sum += doc_sink_sum_word(doc_sink_load64(end - 8) & (~0ULL << ((8 - rest) * 8)));
    return sum;
#else
    uint64_t sum = 0;
    for (; at < end; at++) sum += *at;
    return sum;
#endif
}

uint64_t doc_sink_hash_long(const unsigned char *bytes, size_t length) {
    uint64_t hash = length * PRIME3;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    // Eight bytes at a time, the last word overlapping the one before (every byte in one at least).
    size_t at = 0;
    for (; length - at > 8; at += 8) hash = rotate(hash ^ (doc_sink_load64(bytes + at) * PRIME2), 31) * PRIME1;
    hash = rotate(hash ^ (doc_sink_load64(bytes + length - 8) * PRIME2), 31) * PRIME1;
#else
    for (size_t at = 0; at < length; at++) hash = (hash ^ bytes[at]) * PRIME1;
#endif
    return hash;
}

static inline uint64_t touch(const char *bytes, size_t length) { return doc_sink_touch(bytes, length); }

static inline uint64_t touch_name(const char *uri, size_t uri_length, const char *local, size_t local_length,
                                  const char *prefix, size_t prefix_length) {
    return doc_sink_touch_name(uri, uri_length, local, local_length, prefix, prefix_length);
}

/// Before markup: the text since the last markup is an event (both sinks).
static DocStatus end_text(DocSink *sink) {
    doc_sink_check_text(&sink->core);
    return (sink->core.flags & DOC_SINK_CANONICAL) ? flush_text(sink) : DOC_STATUS_OK;
}

// MARK: The interface

DocSink *doc_sink_create(void) { return calloc(1, sizeof(DocSink)); }

void doc_sink_free(DocSink *sink) {
    if (sink == NULL) return;
    free(sink->text.bytes);
    free(sink->tag.bytes);
    free(sink->log.bytes);
    free(sink->attributes);
    free(sink);
}

void doc_sink_reset(DocSink *sink, int record) {
    sink->core.flags = DOC_SINK_CANONICAL;
    sink->core.check = PRIME1;
    sink->core.check_tag = 0;
    sink->core.check_text = 0;
    sink->core.events = 0;
    sink->core.depth = 0;
    sink->hash = PRIME1;
    sink->total = 0;
    sink->carry_count = 0;
    sink->text.count = 0;
    sink->tag.count = 0;
    sink->attribute_count = 0;
    sink->record = record;
    sink->log.count = 0;
}

void doc_sink_reset_checksum(DocSink *sink) {
    doc_sink_reset(sink, 0);
    sink->core.flags = 0;
}

int doc_sink_is_canonical(const DocSink *sink) { return (sink->core.flags & DOC_SINK_CANONICAL) != 0; }

/// The canonical sink: everything below, not only the checksum.
static inline int canonical(const DocSink *sink) { return (sink->core.flags & DOC_SINK_CANONICAL) != 0; }

/// Copies a string into the pending tag's buffer.
static DocStatus keep(DocSink *sink, const char *bytes, size_t length, Piece *piece) {
    if (length > DOC_MAXIMUM_TEXT_BYTES) return DOC_STATUS_TOO_LONG;
    piece->offset = sink->tag.count;
    piece->length = length;
    return append(&sink->tag, bytes, length) ? DOC_STATUS_OK : DOC_STATUS_OUT_OF_MEMORY;
}

/// Before any part of a tag: the text before it is an event of its own.
static DocStatus open_tag(DocSink *sink) {
    if (sink->core.flags & DOC_SINK_FINISHED) return DOC_STATUS_MISUSE;
    if (sink->core.flags & DOC_SINK_TAG_PENDING) return DOC_STATUS_OK;
    sink->core.flags |= DOC_SINK_TAG_PENDING;
    sink->core.check_tag = 0;
    return end_text(sink);
}

// The general events: the canonical sink's, and the checksum sink's out of the usual order (the
// header's inline events take the rest). The checksum's lines are the same as theirs.

DocStatus doc_sink_start_general(DocSink *sink, const char *uri, size_t uri_length, const char *local,
                                 size_t local_length, const char *prefix, size_t prefix_length) {
    DocStatus status = open_tag(sink);
    if (status == DOC_STATUS_OK && (sink->core.flags & DOC_SINK_HAS_NAME)) status = DOC_STATUS_MISUSE;
    sink->core.check_tag += rotate(touch_name(uri, uri_length, local, local_length, prefix, prefix_length), 32);
    sink->core.flags |= DOC_SINK_HAS_NAME;
    if (!canonical(sink)) return status;
    if (status == DOC_STATUS_OK) status = keep(sink, uri, uri_length, &sink->uri);
    if (status == DOC_STATUS_OK) status = keep(sink, local, local_length, &sink->local);
    if (status == DOC_STATUS_OK) status = keep(sink, prefix, prefix_length, &sink->prefix);
    return status;
}

DocStatus doc_sink_attribute_general(DocSink *sink, const char *uri, size_t uri_length, const char *local,
                                     size_t local_length, const char *prefix, size_t prefix_length, const char *value,
                                     size_t value_length) {
    DocStatus status = open_tag(sink);
    if (status != DOC_STATUS_OK) return status;
    // Summed: the attributes' order, which the canonical sink sorts away, does not matter.
    sink->core.check_tag += touch_name(uri, uri_length, local, local_length, prefix, prefix_length) ^
                            rotate(doc_sink_hash(value, value_length), 11);
    if (!canonical(sink)) return DOC_STATUS_OK;
    if (sink->attribute_count == sink->attribute_capacity) {
        size_t capacity = sink->attribute_capacity < 8 ? 8 : sink->attribute_capacity * 2;
        Attribute *grown = realloc(sink->attributes, capacity * sizeof(Attribute));
        if (grown == NULL) return DOC_STATUS_OUT_OF_MEMORY;
        sink->attributes = grown;
        sink->attribute_capacity = capacity;
    }
    Attribute *attribute = &sink->attributes[sink->attribute_count];
    if ((status = keep(sink, uri, uri_length, &attribute->uri)) != DOC_STATUS_OK) return status;
    if ((status = keep(sink, local, local_length, &attribute->local)) != DOC_STATUS_OK) return status;
    if ((status = keep(sink, prefix, prefix_length, &attribute->prefix)) != DOC_STATUS_OK) return status;
    if ((status = keep(sink, value, value_length, &attribute->value)) != DOC_STATUS_OK) return status;
    // The name as written: the prefix, a colon and the local name, or the local name alone.
    attribute->name.offset = sink->tag.count;
    attribute->name.length = prefix_length + (prefix_length > 0 ? 1 : 0) + local_length;
    if (prefix_length > 0) {
        if (!append(&sink->tag, prefix, prefix_length) || !append(&sink->tag, ":", 1))
            return DOC_STATUS_OUT_OF_MEMORY;
    }
    if (!append(&sink->tag, local, local_length)) return DOC_STATUS_OUT_OF_MEMORY;
    sink->attribute_count += 1;
    return DOC_STATUS_OK;
}

DocStatus doc_sink_namespace(DocSink *sink, const char *prefix, size_t prefix_length, const char *uri,
                             size_t uri_length) {
    size_t xmlns_length = sizeof doc_xmlns_namespace - 1;
    if (prefix_length == 0) {
        return doc_sink_attribute(sink, doc_xmlns_namespace, xmlns_length, "xmlns", 5, "", 0, uri, uri_length);
    }
    return doc_sink_attribute(sink, doc_xmlns_namespace, xmlns_length, prefix, prefix_length, "xmlns", 5, uri,
                              uri_length);
}

static int compare_names(const unsigned char *bytes, const Attribute *a, const Attribute *b) {
    size_t length = a->name.length < b->name.length ? a->name.length : b->name.length;
    int order = memcmp(bytes + a->name.offset, bytes + b->name.offset, length);
    if (order != 0) return order;
    return a->name.length < b->name.length ? -1 : a->name.length > b->name.length ? 1 : 0;
}

/// Sorts the pending attributes by name as written (byte order of UTF-8 is code point order);
/// insertion sort, as most tags have a handful, and a merge of sorted runs beyond that.
static DocStatus sort_attributes(DocSink *sink) {
    size_t count = sink->attribute_count;
    Attribute *items = sink->attributes;
    const unsigned char *bytes = sink->tag.bytes;
    if (count <= 16) {
        for (size_t i = 1; i < count; i++) {
            Attribute item = items[i];
            size_t j = i;
            while (j > 0 && compare_names(bytes, &items[j - 1], &item) > 0) {
                items[j] = items[j - 1];
                j--;
            }
            items[j] = item;
        }
        return DOC_STATUS_OK;
    }
    Attribute *scratch = malloc(count * sizeof(Attribute));
    if (scratch == NULL) return DOC_STATUS_OUT_OF_MEMORY;
    for (size_t width = 1; width < count; width *= 2) {
        for (size_t start = 0; start < count; start += 2 * width) {
            size_t middle = start + width < count ? start + width : count;
            size_t end = start + 2 * width < count ? start + 2 * width : count;
            size_t left = start, right = middle, out = start;
            while (left < middle && right < end) {
                scratch[out++] = compare_names(bytes, &items[right], &items[left]) < 0 ? items[right++] : items[left++];
            }
            while (left < middle) scratch[out++] = items[left++];
            while (right < end) scratch[out++] = items[right++];
        }
        memcpy(items, scratch, count * sizeof(Attribute));
    }
    free(scratch);
    return DOC_STATUS_OK;
}

/// The canonical sink's part of doc_sink_start_done: the tag's encoding, its attributes sorted.
static DocStatus emit_tag(DocSink *sink) {
    DocStatus status = sort_attributes(sink);
    unsigned char kind = DOC_EVENT_START;
    if (status == DOC_STATUS_OK) status = emit(sink, &kind, 1);
    if (status == DOC_STATUS_OK) status = emit_piece(sink, sink->uri);
    if (status == DOC_STATUS_OK) status = emit_piece(sink, sink->local);
    if (status == DOC_STATUS_OK) status = emit_piece(sink, sink->prefix);
    if (status == DOC_STATUS_OK) status = emit_count(sink, sink->attribute_count);
    for (size_t i = 0; i < sink->attribute_count && status == DOC_STATUS_OK; i++) {
        const Attribute *attribute = &sink->attributes[i];
        status = emit_piece(sink, attribute->uri);
        if (status == DOC_STATUS_OK) status = emit_piece(sink, attribute->local);
        if (status == DOC_STATUS_OK) status = emit_piece(sink, attribute->prefix);
        if (status == DOC_STATUS_OK) status = emit_piece(sink, attribute->value);
    }
    sink->tag.count = 0;
    sink->attribute_count = 0;
    return status;
}

DocStatus doc_sink_start_done_general(DocSink *sink) {
    unsigned flags = sink->core.flags;
    if (!(flags & DOC_SINK_TAG_PENDING) || !(flags & DOC_SINK_HAS_NAME)) return DOC_STATUS_MISUSE;
    doc_sink_check_event(&sink->core, DOC_EVENT_START, sink->core.check_tag);
    DocStatus status = canonical(sink) ? emit_tag(sink) : DOC_STATUS_OK;
    sink->core.flags &= ~(unsigned)(DOC_SINK_TAG_PENDING | DOC_SINK_HAS_NAME);
    sink->core.depth += 1;
    sink->core.events += 2;
    return status;
}

DocStatus doc_sink_end_general(DocSink *sink) {
    if ((sink->core.flags & (DOC_SINK_FINISHED | DOC_SINK_TAG_PENDING)) || sink->core.depth == 0)
        return DOC_STATUS_MISUSE;
    DocStatus status = end_text(sink);
    doc_sink_check_event(&sink->core, DOC_EVENT_END, 0);
    unsigned char kind = DOC_EVENT_END;
    if (canonical(sink) && status == DOC_STATUS_OK) status = emit(sink, &kind, 1);
    sink->core.depth -= 1;
    return status;
}

DocStatus doc_sink_text_general(DocSink *sink, const char *bytes, size_t length) {
    if (sink->core.flags & (DOC_SINK_FINISHED | DOC_SINK_TAG_PENDING)) return DOC_STATUS_MISUSE;
    if (length == 0) return DOC_STATUS_OK;
    sink->core.check_text += touch(bytes, length);
    if (!canonical(sink)) return DOC_STATUS_OK;
    if (length > DOC_MAXIMUM_TEXT_BYTES - sink->text.count) return DOC_STATUS_TOO_LONG;
    return append(&sink->text, bytes, length) ? DOC_STATUS_OK : DOC_STATUS_OUT_OF_MEMORY;
}

DocStatus doc_sink_pi(DocSink *sink, const char *target, size_t target_length, const char *data, size_t data_length) {
    if (sink->core.flags & (DOC_SINK_FINISHED | DOC_SINK_TAG_PENDING)) return DOC_STATUS_MISUSE;
    if (target_length > DOC_MAXIMUM_TEXT_BYTES || data_length > DOC_MAXIMUM_TEXT_BYTES) return DOC_STATUS_TOO_LONG;
    DocStatus status = end_text(sink);
    doc_sink_check_event(&sink->core, DOC_EVENT_PI,
                         doc_sink_hash(target, target_length) + rotate(doc_sink_hash(data, data_length), 21));
    sink->core.events += 1;
    if (!canonical(sink)) return status;
    unsigned char kind = DOC_EVENT_PI;
    if (status == DOC_STATUS_OK) status = emit(sink, &kind, 1);
    if (status == DOC_STATUS_OK) status = emit_string(sink, target, target_length);
    if (status == DOC_STATUS_OK) status = emit_string(sink, data, data_length);
    return status;
}

DocStatus doc_sink_finish(DocSink *sink) {
    if (sink->core.flags & (DOC_SINK_FINISHED | DOC_SINK_TAG_PENDING)) return DOC_STATUS_MISUSE;
    DocStatus status = end_text(sink);
    sink->core.flags |= DOC_SINK_FINISHED;
    return status;
}

uint64_t doc_sink_checksum(const DocSink *sink) {
    uint64_t hash = sink->core.check ^ ((uint64_t)doc_sink_event_count(sink) * PRIME3);
    return avalanche(hash);
}

size_t doc_sink_event_count(const DocSink *sink) { return sink->core.events - sink->core.depth; }

size_t doc_sink_depth(const DocSink *sink) { return sink->core.depth; }

const unsigned char *doc_sink_log(const DocSink *sink, size_t *length) {
    *length = sink->log.count;
    return sink->log.bytes;
}

// MARK: Replaying a recorded log

/// A 32-bit little-endian count of the log.
static inline size_t read_count(const unsigned char *at) {
    uint32_t count;
    memcpy(&count, at, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    count = __builtin_bswap32(count);
#endif
    return count;
}

/// Reads a string of the log (its count, then its bytes) at *at and moves past it; 0 when `checked`
/// and the log ends first.
static inline int read_string(const unsigned char **at, const unsigned char *end, int checked, const char **bytes,
                              size_t *count) {
    const unsigned char *here = *at;
    if (checked && end - here < 4) return 0;
    size_t length = read_count(here);
    here += 4;
    if (checked && (size_t)(end - here) < length) return 0;
    *bytes = (const char *)here;
    *count = length;
    *at = here + length;
    return 1;
}

/// A processing instruction of the log at `at` (its kind read): where the log goes on, or NULL with
/// the status (DOC_STATUS_MISUSE for any other kind). Out of the replay's loop, so that its three
/// usual kinds are three comparisons, and its position stays in a register.
__attribute__((noinline)) static const unsigned char *replay_rare(DocSink *sink, unsigned char kind,
                                                                   const unsigned char *at, const unsigned char *end,
                                                                   int checked, DocStatus *status) {
    const char *a, *b;
    size_t na, nb;
    *status = DOC_STATUS_MISUSE;
    if (kind != DOC_EVENT_PI || !read_string(&at, end, checked, &a, &na) || !read_string(&at, end, checked, &b, &nb))
        return NULL;
    return (*status = doc_sink_pi(sink, a, na, b, nb)) == DOC_STATUS_OK ? at : NULL;
}

/// The replay, with every length checked against the log's end, or none (`checked` 0: a log that
/// the checked replay took whole; inlined into each of the two functions below, so that the
/// unchecked one has no check left).
__attribute__((always_inline)) static inline DocStatus replay(DocSink *sink, const unsigned char *log, size_t length, int checked) {
    const unsigned char *at = log, *end = log + length;
    const char *a, *b, *c, *d;
    size_t na, nb, nc, nd;
    DocStatus status;
    // The kinds by how often they come (text, end, start), each one comparison (a processing
    // instruction out of line: with four kinds the compiler makes a jump table, which costs more
    // than the comparisons), and a status tested only where an event can fail (the inline events'
    // usual path cannot).
    while (at < end) {
        unsigned char kind = *at++;
        if (__builtin_expect(kind == DOC_EVENT_TEXT, 1)) {
            if (!read_string(&at, end, checked, &a, &na)) return DOC_STATUS_MISUSE;
            if ((status = doc_sink_text(sink, a, na)) != DOC_STATUS_OK) return status;
        } else if (__builtin_expect(kind == DOC_EVENT_END, 1)) {
            if ((status = doc_sink_end(sink)) != DOC_STATUS_OK) return status;
        } else if (__builtin_expect(kind == DOC_EVENT_START, 1)) {
            if (!read_string(&at, end, checked, &a, &na) || !read_string(&at, end, checked, &b, &nb) ||
                !read_string(&at, end, checked, &c, &nc))
                return DOC_STATUS_MISUSE;
            if ((status = doc_sink_start(sink, a, na, b, nb, c, nc)) != DOC_STATUS_OK) return status;
            if (checked && end - at < 4) return DOC_STATUS_MISUSE;
            size_t count = read_count(at);
            at += 4;
            for (size_t i = 0; i < count; i++) {
                if (!read_string(&at, end, checked, &a, &na) || !read_string(&at, end, checked, &b, &nb) ||
                    !read_string(&at, end, checked, &c, &nc) || !read_string(&at, end, checked, &d, &nd))
                    return DOC_STATUS_MISUSE;
                if ((status = doc_sink_attribute(sink, a, na, b, nb, c, nc, d, nd)) != DOC_STATUS_OK) return status;
            }
            if ((status = doc_sink_start_done(sink)) != DOC_STATUS_OK) return status;
        } else {
            DocStatus rare;
            if ((at = replay_rare(sink, kind, at, end, checked, &rare)) == NULL) return rare;
        }
    }
    return DOC_STATUS_OK;
}

DocStatus doc_sink_replay(DocSink *sink, const unsigned char *log, size_t length) {
    return replay(sink, log, length, 1);
}

DocStatus doc_sink_replay_whole(DocSink *sink, const unsigned char *log, size_t length) {
    return replay(sink, log, length, 0);
}
