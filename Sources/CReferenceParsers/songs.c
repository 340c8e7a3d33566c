#include "songs.h"

#include <stdlib.h>
#include <string.h>

static const char itms_namespace[] = "http://phobos.apple.com/rss/1.0/modules/itms/";
static const char im_namespace[] = "http://itunes.apple.com/rss";
static const char atom_namespace[] = "http://www.w3.org/2005/Atom";

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

static int uri_is(const char *uri, size_t uri_length, const char *expected, size_t expected_length) {
    if (uri_length == REF_NUL_TERMINATED) return strcmp(uri, expected) == 0;
    return uri_length == expected_length && memcmp(uri, expected, expected_length) == 0;
}

int ref_classify_namespaced(const char *local, const char *uri, size_t uri_length) {
    int element;
    const char *expected;
    size_t expected_length;
    switch (local[0]) {
    case 'a':
        if (strcmp(local, "artist") == 0) {
            // In both the itms and the im namespaces.
            if (uri_is(uri, uri_length, itms_namespace, sizeof itms_namespace - 1)) return REF_FIELD_ARTIST;
            return uri_is(uri, uri_length, im_namespace, sizeof im_namespace - 1) ? REF_IM_ARTIST : REF_OTHER;
        }
        if (strcmp(local, "album") != 0) return REF_OTHER;
        element = REF_FIELD_ALBUM;
        expected = itms_namespace;
        expected_length = sizeof itms_namespace - 1;
        break;
    case 'r':
        if (strcmp(local, "releasedate") == 0) {
            element = REF_FIELD_RELEASE_DATE;
            expected = itms_namespace;
            expected_length = sizeof itms_namespace - 1;
        } else if (strcmp(local, "releaseDate") == 0) {
            element = REF_IM_RELEASE_DATE;
            expected = im_namespace;
            expected_length = sizeof im_namespace - 1;
        } else {
            return REF_OTHER;
        }
        break;
    case 'e':
        if (strcmp(local, "entry") != 0) return REF_OTHER;
        element = REF_ENTRY;
        expected = atom_namespace;
        expected_length = sizeof atom_namespace - 1;
        break;
    case 'c':
        if (strcmp(local, "category") == 0) {
            element = REF_ATOM_CATEGORY;
            expected = atom_namespace;
            expected_length = sizeof atom_namespace - 1;
        } else if (strcmp(local, "collection") == 0) {
            element = REF_IM_COLLECTION;
            expected = im_namespace;
            expected_length = sizeof im_namespace - 1;
        } else {
            return REF_OTHER;
        }
        break;
    case 'n':
        if (strcmp(local, "name") != 0) return REF_OTHER;
        element = REF_IM_NAME;
        expected = im_namespace;
        expected_length = sizeof im_namespace - 1;
        break;
    default:
        return REF_OTHER;
    }
    return uri_is(uri, uri_length, expected, expected_length) ? element : REF_OTHER;
}

int ref_songs_start(RefSongs *songs, int element) {
    songs->depth += 1;
    if (songs->field != REF_OTHER) return 0;  // nested in a field: its text belongs to the field
    if (songs->item_depth == 0) {
        if (element == REF_ITEM || element == REF_ENTRY) {
            songs->item_depth = songs->depth;
            songs->atom = element == REF_ENTRY;
            songs->in_collection = 0;
            for (int f = 0; f < REF_FIELD_COUNT; f++) songs->current[f].length = -1;
        }
        return 0;
    }
    int field;
    if (songs->depth == songs->item_depth + 1) {
        if (!songs->atom) {
            if (element < 0) return 0;
            field = element;
        } else {
            // Known at each direct child's start, so that nothing is checked when elements end.
            songs->in_collection = element == REF_IM_COLLECTION;
            switch (element) {
            case REF_IM_NAME: field = REF_FIELD_TITLE; break;
            case REF_IM_ARTIST: field = REF_FIELD_ARTIST; break;
            case REF_IM_RELEASE_DATE: field = REF_FIELD_RELEASE_DATE; break;
            case REF_ATOM_CATEGORY: return 1;
            default: return 0;
            }
        }
    } else if (element == REF_IM_NAME && songs->in_collection && songs->depth == songs->item_depth + 2) {
        field = REF_FIELD_ALBUM;
    } else {
        return 0;
    }
    songs->field = field;
    songs->field_depth = songs->depth;
    songs->field_start = songs->text_count;
    return 0;
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

RefStatus ref_songs_category_term(RefSongs *songs, const char *bytes, size_t length) {
    if (length > REF_MAXIMUM_FIELD_BYTES) {
        songs->long_field = REF_FIELD_CATEGORY;
        return REF_STATUS_FIELD_TOO_LONG;
    }
    size_t needed = songs->text_count + length;
    if (needed > songs->text_capacity
        && !grow((void **)&songs->text, &songs->text_capacity, songs->text_count, needed, 1)) return REF_STATUS_OUT_OF_MEMORY;
    if (length > 0) memcpy(songs->text + songs->text_count, bytes, length);
    songs->current[REF_FIELD_CATEGORY].offset = songs->text_count;
    songs->current[REF_FIELD_CATEGORY].length = (long)length;
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
