// The canonical event sink (see DocumentSink.h).

#include "DocumentSink.h"

#include <stdlib.h>
#include <string.h>

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
    // Which sink: 1 the canonical one (digest of the encoding, the log), 0 the checksum alone.
    int canonical;
    // The checksum (both sinks): markup events in order, a tag's strings and a run of text summed.
    uint64_t check, check_tag, check_text;
    int in_text;
    // The digest: a stream hash over the events' encoding, 8 bytes at a time.
    uint64_t hash, total;
    unsigned char carry[8];
    size_t carry_count;
    // Character data since the last markup.
    Buffer text;
    // The tag being opened: its strings, its name, its attributes.
    Buffer tag;
    int tag_pending, has_name;
    Piece uri, local, prefix;
    Attribute *attributes;
    size_t attribute_count, attribute_capacity;
    // The event log.
    int record;
    Buffer log;
    size_t events, depth;
    int finished;
};

// MARK: The digest

#define PRIME1 0x9E3779B185EBCA87ULL
#define PRIME2 0xC2B2AE3D27D4EB4FULL
#define PRIME3 0x165667B19E3779F9ULL

static inline uint64_t rotate(uint64_t value, int bits) { return (value << bits) | (value >> (64 - bits)); }

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

/// A string's bytes summed, with its length above them: every split of a run of text sums the same,
/// and the loop is one the compiler turns into vector adds. No copy, no allocation.
static inline uint64_t touch(const char *bytes, size_t length) {
    const unsigned char *at = (const unsigned char *)bytes;
    uint64_t sum = (uint64_t)length << 40;
    for (size_t i = 0; i < length; i++) sum += at[i];
    return sum;
}

/// A name (URI, local name, prefix) as one number.
static inline uint64_t touch_name(const char *uri, size_t uri_length, const char *local, size_t local_length,
                                  const char *prefix, size_t prefix_length) {
    return touch(uri, uri_length) + rotate(touch(local, local_length), 21) + rotate(touch(prefix, prefix_length), 42);
}

/// Folds one markup event into the checksum, in order.
static inline void check_event(DocSink *sink, unsigned char kind, uint64_t value) {
    sink->check = rotate(sink->check, 7) + (value ^ ((uint64_t)kind << 56));
}

/// Before markup: the text since the last markup is an event (both sinks).
static DocStatus end_text(DocSink *sink) {
    if (sink->in_text) {
        check_event(sink, DOC_EVENT_TEXT, sink->check_text);
        sink->check_text = 0;
        sink->in_text = 0;
        sink->events += 1;
    }
    return sink->canonical ? flush_text(sink) : DOC_STATUS_OK;
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
    sink->canonical = 1;
    sink->check = PRIME1;
    sink->check_tag = 0;
    sink->check_text = 0;
    sink->in_text = 0;
    sink->hash = PRIME1;
    sink->total = 0;
    sink->carry_count = 0;
    sink->text.count = 0;
    sink->tag.count = 0;
    sink->tag_pending = 0;
    sink->has_name = 0;
    sink->attribute_count = 0;
    sink->record = record;
    sink->log.count = 0;
    sink->events = 0;
    sink->depth = 0;
    sink->finished = 0;
}

void doc_sink_reset_checksum(DocSink *sink) {
    doc_sink_reset(sink, 0);
    sink->canonical = 0;
}

int doc_sink_is_canonical(const DocSink *sink) { return sink->canonical; }

/// Copies a string into the pending tag's buffer.
static DocStatus keep(DocSink *sink, const char *bytes, size_t length, Piece *piece) {
    if (length > DOC_MAXIMUM_TEXT_BYTES) return DOC_STATUS_TOO_LONG;
    piece->offset = sink->tag.count;
    piece->length = length;
    return append(&sink->tag, bytes, length) ? DOC_STATUS_OK : DOC_STATUS_OUT_OF_MEMORY;
}

/// Before any part of a tag: the text before it is an event of its own.
static DocStatus open_tag(DocSink *sink) {
    if (sink->finished) return DOC_STATUS_MISUSE;
    if (sink->tag_pending) return DOC_STATUS_OK;
    sink->tag_pending = 1;
    sink->check_tag = 0;
    return end_text(sink);
}

DocStatus doc_sink_start(DocSink *sink, const char *uri, size_t uri_length, const char *local, size_t local_length,
                         const char *prefix, size_t prefix_length) {
    DocStatus status = open_tag(sink);
    if (status == DOC_STATUS_OK && sink->has_name) status = DOC_STATUS_MISUSE;
    sink->check_tag += touch_name(uri, uri_length, local, local_length, prefix, prefix_length) * PRIME2;
    sink->has_name = 1;
    if (!sink->canonical) return status;
    if (status == DOC_STATUS_OK) status = keep(sink, uri, uri_length, &sink->uri);
    if (status == DOC_STATUS_OK) status = keep(sink, local, local_length, &sink->local);
    if (status == DOC_STATUS_OK) status = keep(sink, prefix, prefix_length, &sink->prefix);
    return status;
}

DocStatus doc_sink_attribute(DocSink *sink, const char *uri, size_t uri_length, const char *local, size_t local_length,
                             const char *prefix, size_t prefix_length, const char *value, size_t value_length) {
    DocStatus status = open_tag(sink);
    if (status != DOC_STATUS_OK) return status;
    // Summed: the attributes' order, which the canonical sink sorts away, does not matter.
    sink->check_tag +=
        touch_name(uri, uri_length, local, local_length, prefix, prefix_length) ^ rotate(touch(value, value_length), 11);
    if (!sink->canonical) return DOC_STATUS_OK;
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

DocStatus doc_sink_start_done(DocSink *sink) {
    if (!sink->tag_pending || !sink->has_name) return DOC_STATUS_MISUSE;
    check_event(sink, DOC_EVENT_START, sink->check_tag);
    DocStatus status = sink->canonical ? emit_tag(sink) : DOC_STATUS_OK;
    sink->tag_pending = 0;
    sink->has_name = 0;
    sink->depth += 1;
    sink->events += 1;
    return status;
}

DocStatus doc_sink_end(DocSink *sink) {
    if (sink->finished || sink->tag_pending || sink->depth == 0) return DOC_STATUS_MISUSE;
    DocStatus status = end_text(sink);
    check_event(sink, DOC_EVENT_END, 0);
    unsigned char kind = DOC_EVENT_END;
    if (sink->canonical && status == DOC_STATUS_OK) status = emit(sink, &kind, 1);
    sink->depth -= 1;
    sink->events += 1;
    return status;
}

DocStatus doc_sink_text(DocSink *sink, const char *bytes, size_t length) {
    if (sink->finished || sink->tag_pending) return DOC_STATUS_MISUSE;
    if (length == 0) return DOC_STATUS_OK;
    sink->check_text += touch(bytes, length);
    sink->in_text = 1;
    if (!sink->canonical) return DOC_STATUS_OK;
    if (length > DOC_MAXIMUM_TEXT_BYTES - sink->text.count) return DOC_STATUS_TOO_LONG;
    return append(&sink->text, bytes, length) ? DOC_STATUS_OK : DOC_STATUS_OUT_OF_MEMORY;
}

DocStatus doc_sink_pi(DocSink *sink, const char *target, size_t target_length, const char *data, size_t data_length) {
    if (sink->finished || sink->tag_pending) return DOC_STATUS_MISUSE;
    if (target_length > DOC_MAXIMUM_TEXT_BYTES || data_length > DOC_MAXIMUM_TEXT_BYTES) return DOC_STATUS_TOO_LONG;
    DocStatus status = end_text(sink);
    check_event(sink, DOC_EVENT_PI, touch(target, target_length) + rotate(touch(data, data_length), 21));
    sink->events += 1;
    if (!sink->canonical) return status;
    unsigned char kind = DOC_EVENT_PI;
    if (status == DOC_STATUS_OK) status = emit(sink, &kind, 1);
    if (status == DOC_STATUS_OK) status = emit_string(sink, target, target_length);
    if (status == DOC_STATUS_OK) status = emit_string(sink, data, data_length);
    return status;
}

DocStatus doc_sink_finish(DocSink *sink) {
    if (sink->finished || sink->tag_pending) return DOC_STATUS_MISUSE;
    DocStatus status = end_text(sink);
    sink->finished = 1;
    return status;
}

uint64_t doc_sink_checksum(const DocSink *sink) {
    uint64_t hash = sink->check ^ ((uint64_t)sink->events * PRIME3);
    return avalanche(hash);
}

size_t doc_sink_event_count(const DocSink *sink) { return sink->events; }

size_t doc_sink_depth(const DocSink *sink) { return sink->depth; }

const unsigned char *doc_sink_log(const DocSink *sink, size_t *length) {
    *length = sink->log.count;
    return sink->log.bytes;
}

// MARK: Replaying a recorded log

/// Reads a 32-bit little-endian count at *at; 0 when the log ends first.
static int read_count(const unsigned char *log, size_t length, size_t *at, size_t *count) {
    if (length - *at < 4) return 0;
    const unsigned char *bytes = log + *at;
    *count = (size_t)bytes[0] | (size_t)bytes[1] << 8 | (size_t)bytes[2] << 16 | (size_t)bytes[3] << 24;
    *at += 4;
    return 1;
}

/// Reads a string (its count, then its bytes) at *at; 0 when the log ends first.
static int read_string(const unsigned char *log, size_t length, size_t *at, const char **bytes, size_t *count) {
    if (!read_count(log, length, at, count) || length - *at < *count) return 0;
    *bytes = (const char *)log + *at;
    *at += *count;
    return 1;
}

DocStatus doc_sink_replay(DocSink *sink, const unsigned char *log, size_t length) {
    size_t at = 0;
    DocStatus status = DOC_STATUS_OK;
    const char *a, *b, *c, *d;
    size_t na, nb, nc, nd, count;
    while (at < length && status == DOC_STATUS_OK) {
        unsigned char kind = log[at++];
        switch (kind) {
        case DOC_EVENT_START:
            if (!read_string(log, length, &at, &a, &na) || !read_string(log, length, &at, &b, &nb) ||
                !read_string(log, length, &at, &c, &nc) || !read_count(log, length, &at, &count))
                return DOC_STATUS_MISUSE;
            status = doc_sink_start(sink, a, na, b, nb, c, nc);
            for (size_t i = 0; i < count && status == DOC_STATUS_OK; i++) {
                if (!read_string(log, length, &at, &a, &na) || !read_string(log, length, &at, &b, &nb) ||
                    !read_string(log, length, &at, &c, &nc) || !read_string(log, length, &at, &d, &nd))
                    return DOC_STATUS_MISUSE;
                status = doc_sink_attribute(sink, a, na, b, nb, c, nc, d, nd);
            }
            if (status == DOC_STATUS_OK) status = doc_sink_start_done(sink);
            break;
        case DOC_EVENT_END:
            status = doc_sink_end(sink);
            break;
        case DOC_EVENT_TEXT:
            if (!read_string(log, length, &at, &a, &na)) return DOC_STATUS_MISUSE;
            status = doc_sink_text(sink, a, na);
            break;
        case DOC_EVENT_PI:
            if (!read_string(log, length, &at, &a, &na) || !read_string(log, length, &at, &b, &nb))
                return DOC_STATUS_MISUSE;
            status = doc_sink_pi(sink, a, na, b, nb);
            break;
        default:
            return DOC_STATUS_MISUSE;
        }
    }
    return status;
}
