#include "songs.h"

#include <stdlib.h>
#include <string.h>

const char ref_itms_namespace[] = "http://phobos.apple.com/rss/1.0/modules/itms/";

void ref_songs_init(RefSongs *songs, RefSongEnded song_ended, void *context) {
    memset(songs, 0, sizeof *songs);
    songs->field = REF_OTHER;
    songs->long_field = REF_OTHER;
    songs->song_ended = song_ended;
    songs->context = context;
}

void ref_songs_free(RefSongs *songs) {
    free(songs->text);
    free(songs->fields);
    songs->text = NULL;
    songs->fields = NULL;
}

int ref_classify_plain(const char *local) {
    switch (local[0]) {
    case 'i': return strcmp(local, "item") == 0 ? REF_ITEM : REF_OTHER;
    case 't': return strcmp(local, "title") == 0 ? REF_FIELD_TITLE : REF_OTHER;
    case 'c': return strcmp(local, "category") == 0 ? REF_FIELD_CATEGORY : REF_OTHER;
    default: return REF_OTHER;
    }
}

int ref_classify_itms_local(const char *local) {
    switch (local[0]) {
    case 'a':
        if (strcmp(local, "artist") == 0) return REF_FIELD_ARTIST;
        return strcmp(local, "album") == 0 ? REF_FIELD_ALBUM : REF_OTHER;
    case 'r': return strcmp(local, "releasedate") == 0 ? REF_FIELD_RELEASE_DATE : REF_OTHER;
    default: return REF_OTHER;
    }
}

void ref_songs_start(RefSongs *songs, int element) {
    songs->depth += 1;
    if (songs->field != REF_OTHER) return;  // nested in a field: its text belongs to the field
    if (songs->item_depth == 0) {
        if (element == REF_ITEM) {
            songs->item_depth = songs->depth;
            for (int f = 0; f < REF_FIELD_COUNT; f++) songs->current[f].length = -1;
        }
    } else if (songs->depth == songs->item_depth + 1 && element >= 0) {
        songs->field = element;
        songs->field_depth = songs->depth;
        songs->field_start = songs->text_count;
    }
}

// Grows a buffer of `count` used units to hold `needed`, doubling: malloc + memcpy + free, as the
// Swift adapters' field buffer grows, so that both sides do the same work (realloc may or may not
// grow a block in place, depending on the heap).
static int grow(void **buffer, size_t *capacity, size_t count, size_t needed, size_t unit) {
    size_t wanted = *capacity ? *capacity : 64;
    while (wanted < needed) wanted *= 2;
    void *grown = malloc(wanted * unit);
    if (grown == NULL) return 0;
    if (*buffer != NULL) memcpy(grown, *buffer, count * unit);
    free(*buffer);
    *buffer = grown;
    *capacity = wanted;
    return 1;
}

RefStatus ref_songs_characters(RefSongs *songs, const char *bytes, size_t length) {
    if (songs->field == REF_OTHER) return REF_STATUS_OK;
    if (songs->text_count - songs->field_start + length > REF_MAXIMUM_FIELD_BYTES) {
        songs->long_field = songs->field;
        return REF_STATUS_FIELD_TOO_LONG;
    }
    size_t needed = songs->text_count + length;
    if (needed > songs->text_capacity
        && !grow((void **)&songs->text, &songs->text_capacity, songs->text_count, needed, 1)) return REF_STATUS_OUT_OF_MEMORY;
    memcpy(songs->text + songs->text_count, bytes, length);
    songs->text_count = needed;
    return REF_STATUS_OK;
}

RefStatus ref_songs_end(RefSongs *songs) {
    long depth = songs->depth;
    songs->depth -= 1;
    if (songs->field != REF_OTHER) {
        if (depth != songs->field_depth) return REF_STATUS_OK;
        songs->current[songs->field].offset = songs->field_start;
        songs->current[songs->field].length = (long)(songs->text_count - songs->field_start);
        songs->field = REF_OTHER;
    } else if (songs->item_depth != 0 && depth == songs->item_depth) {
        size_t needed = (songs->songs + 1) * REF_FIELD_COUNT;
        if (needed > songs->song_capacity
            && !grow((void **)&songs->fields, &songs->song_capacity, songs->songs * REF_FIELD_COUNT, needed, sizeof(RefField))) return REF_STATUS_OUT_OF_MEMORY;
        memcpy(songs->fields + songs->songs * REF_FIELD_COUNT, songs->current, sizeof songs->current);
        songs->songs += 1;
        songs->item_depth = 0;
        if (songs->song_ended) songs->song_ended(songs->context);
    }
    return REF_STATUS_OK;
}
