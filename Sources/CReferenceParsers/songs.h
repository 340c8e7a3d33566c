#ifndef REFERENCE_SONGS_H
#define REFERENCE_SONGS_H

// The song-building state shared by both reference parsers: C's SongAssembler.

#include "ReferenceParsers.h"

/// The elements that matter (as Swift's FeedElement).
enum { REF_OTHER = -1, REF_ITEM = -2 };  // fields are REF_FIELD_…

typedef struct {
    char *text;
    size_t text_count, text_capacity;
    RefField *fields;  // REF_FIELD_COUNT per complete song
    size_t songs, song_capacity;
    long depth, item_depth, field_depth;
    int field;  // REF_FIELD_… being collected, or REF_OTHER
    int long_field;
    size_t field_start;
    RefField current[REF_FIELD_COUNT];
    RefSongEnded song_ended;
    void *context;
} RefSongs;

void ref_songs_init(RefSongs *songs, RefSongEnded song_ended, void *context);
void ref_songs_free(RefSongs *songs);

/// An element starts; `element` is REF_ITEM, a REF_FIELD_… or REF_OTHER.
void ref_songs_start(RefSongs *songs, int element);

/// Character data; returns REF_STATUS_OK, REF_STATUS_FIELD_TOO_LONG or REF_STATUS_OUT_OF_MEMORY.
RefStatus ref_songs_characters(RefSongs *songs, const char *bytes, size_t length);

/// The current element ends; returns REF_STATUS_OK or REF_STATUS_OUT_OF_MEMORY.
RefStatus ref_songs_end(RefSongs *songs);

/// Classifies a local name in no namespace and in the itms namespace (the namespace test is the
/// caller's: only names that can matter are checked).
int ref_classify_plain(const char *local);
int ref_classify_itms_local(const char *local);

extern const char ref_itms_namespace[];
#define REF_ITMS_NAMESPACE_LENGTH 45

#endif
