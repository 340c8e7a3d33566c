#ifndef REFERENCE_SONGS_H
#define REFERENCE_SONGS_H

// The song-building state shared by both reference parsers: C's SongAssembler.

#include "ReferenceParsers.h"

/// The elements that matter (as Swift's FeedElement): an RSS item's fields are REF_FIELD_…; an
/// Atom entry's are the im elements and Atom's category (whose `term` is the category).
enum {
    REF_OTHER = -1,
    REF_ITEM = -2,
    REF_ENTRY = -3,
    REF_ATOM_CATEGORY = -4,
    REF_IM_NAME = -5,
    REF_IM_ARTIST = -6,
    REF_IM_COLLECTION = -7,
    REF_IM_RELEASE_DATE = -8,
};

typedef struct {
    char *text;
    size_t text_count, text_capacity;
    RefField *fields;  // REF_FIELD_COUNT per complete song
    size_t songs, song_capacity;
    long depth, item_depth, field_depth;
    int in_collection;  // the entry's current direct child is its im:collection
    int atom;  // the item is an Atom entry
    int field;  // REF_FIELD_… being collected, or REF_OTHER
    int long_field;
    size_t field_start;
    RefField current[REF_FIELD_COUNT];
    RefSongEnded song_ended;
    void *context;
} RefSongs;

void ref_songs_init(RefSongs *songs, RefSongEnded song_ended, void *context);
void ref_songs_free(RefSongs *songs);

/// An element starts; `element` is one of the constants above or a REF_FIELD_…. Returns 1 when it
/// is an entry's Atom category: the caller then passes its `term` to ref_songs_category_term.
int ref_songs_start(RefSongs *songs, int element);

/// The `term` of the Atom category ref_songs_start asked for (length 0 when it has none); returns
/// REF_STATUS_OK, REF_STATUS_FIELD_TOO_LONG or REF_STATUS_OUT_OF_MEMORY.
RefStatus ref_songs_category_term(RefSongs *songs, const char *bytes, size_t length);

/// Character data; returns REF_STATUS_OK, REF_STATUS_FIELD_TOO_LONG or REF_STATUS_OUT_OF_MEMORY.
RefStatus ref_songs_characters(RefSongs *songs, const char *bytes, size_t length);

/// The current element ends; returns REF_STATUS_OK or REF_STATUS_OUT_OF_MEMORY.
RefStatus ref_songs_end(RefSongs *songs);

/// Classifies a local name in no namespace.
int ref_classify_plain(const char *local);

/// Classifies a local name and its namespace URI (`uri_length` bytes, or REF_NUL_TERMINATED): the
/// itms module's, Atom's and im's elements. The URI is compared only for a local name that can matter.
int ref_classify_namespaced(const char *local, const char *uri, size_t uri_length);
#define REF_NUL_TERMINATED ((size_t)-1)

#endif
