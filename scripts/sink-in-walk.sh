#!/usr/bin/env bash
# What the timed checksum sink adds to a walk, in instructions (issue 46): the C reference walks
# (c-libxml2 and c-expat, Sources/CReferenceParsers) built twice, as a release build builds them
# (clang -O2), once as they are and once with the sink's five inline events (DocumentSink.h:
# start, attribute, start done, end, text) returning at once for the checksum sink; each walks the
# document into the checksum sink under callgrind, and the difference is the sink's part of the
# walk. Beside it, the `sink` baseline's replay of the document's events (doc_sink_replay_whole, as
# `bench run --workload document` times it), which also reads its log: no parser pays that.
#
#   scripts/sink-in-walk.sh [DOCUMENT ...]
#
# DOCUMENT   XML documents (default: the default corpus's well-formed documents under
#            ../shared/data that `bench run --workload document` measures, those present).
#
# The counts are exact and do not depend on the machine's load. A walk with the sink compiled out
# still computes what the sink is given where the compiler keeps it (libxml2's names come with no
# length), so "in the walk" is what reporting the events costs the walk, the sink's own work and
# its arguments. Needs clang (the Swift toolchain's), valgrind, python3, and libxml2's and expat's
# development files (scripts/install-deps.sh). A measurement, not a test: it exits 1 only on an
# error (a tool missing, a document a walk rejects, the walks' checksums differing).
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in clang valgrind python3 pkg-config; do
    command -v "$tool" >/dev/null || { echo "sink-in-walk: $tool is not installed" >&2; exit 1; }
done
if [ $# -eq 0 ]; then
    set --
    for document in ../shared/data/documents/{discogs-artists-50,discogs-labels-56,hamlet,mondial}.xml \
        ../shared/data/feeds/{CRE,FeedBurnerXHTML,itunes_feedburner}.xml \
        ../shared/data/itunes/{newreleases-100-2012-05-15.rss,topalbums-10-2013-06-25.atom}.xml; do
        if [ -f "$document" ]; then set -- "$@" "$document"; fi
    done
    [ $# -gt 0 ] || { echo "sink-in-walk: no document given and none under ../shared/data" >&2; exit 1; }
fi

for document in "$@"; do
    [ -f "$document" ] && [ -r "$document" ] || { echo "sink-in-walk: cannot read $document" >&2; exit 1; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sources=Sources/CReferenceParsers
mkdir -p "$work/with" "$work/without"
cp "$sources"/*.c "$sources"/*.h "$sources"/include/*.h "$work/with/"
cp "$work"/with/* "$work/without/"
# The five inline events return at once for the checksum sink (the canonical sink, which records,
# is untouched); an empty asm keeps the compiler from moving the walk's memory accesses across them.
python3 - "$work/without/DocumentSink.h" <<'PYTHON'
import sys
path = sys.argv[1]
text = open(path).read()
for event in ["doc_sink_start", "doc_sink_attribute", "doc_sink_start_done", "doc_sink_end", "doc_sink_text"]:
    at = text.index("DOC_SINK_INLINE DocStatus " + event + "(")
    body = text.index(") {\n", at) + 4
    text = (text[:body] + "    if ((((DocSinkCore *)sink)->flags & DOC_SINK_CANONICAL) == 0) {\n"
            + '        __asm__ volatile("" ::: "memory");\n        return DOC_STATUS_OK;\n    }\n' + text[body:])
open(path, "w").write(text)
PYTHON
cat >"$work/walk.c" <<'C'
// walk DOCUMENT COUNT MODE: MODE 0 walks it with libxml2, 1 with expat, 2 replays expat's recorded
// events (the `sink` baseline), COUNT times, into the checksum sink; prints the checksum.
#include "ReferenceParsers.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void walk(RefLibrary library, const char *bytes, size_t length, DocSink *sink) {
    RefParser *parser = ref_parser_create_document(library, 1, sink);
    if (parser == NULL) exit(1);
    for (size_t at = 0; at < length; at += 16384) {
        size_t chunk = length - at < 16384 ? length - at : 16384;
        if (ref_parser_push(parser, bytes + at, chunk, 0) != REF_STATUS_OK) exit(1);
    }
    if (ref_parser_push(parser, NULL, 0, 1) != REF_STATUS_OK || doc_sink_finish(sink) != DOC_STATUS_OK) exit(1);
    ref_parser_free(parser);
}

int main(int argc, char **argv) {
    if (argc != 4) return 2;
    FILE *file = fopen(argv[1], "rb");
    if (file == NULL || fseek(file, 0, SEEK_END) != 0) return 1;
    long length = ftell(file);
    char *bytes = malloc((size_t)length);
    rewind(file);
    if (bytes == NULL || fread(bytes, 1, (size_t)length, file) != (size_t)length) return 1;
    fclose(file);
    int count = atoi(argv[2]), mode = atoi(argv[3]);
    DocSink *sink = doc_sink_create();
    unsigned char *log = NULL;
    size_t log_length = 0;
    if (mode == 2) {
        doc_sink_reset(sink, 1);
        walk(REF_LIBRARY_EXPAT, bytes, (size_t)length, sink);
        const unsigned char *recorded = doc_sink_log(sink, &log_length);
        log = malloc(log_length);
        memcpy(log, recorded, log_length);
    }
    for (int index = 0; index < count; index++) {
        doc_sink_reset_checksum(sink);
        if (mode == 2) {
            if (doc_sink_replay_whole(sink, log, log_length) != DOC_STATUS_OK || doc_sink_finish(sink) != DOC_STATUS_OK)
                return 1;
        } else {
            walk(mode == 0 ? REF_LIBRARY_LIBXML2 : REF_LIBRARY_EXPAT, bytes, (size_t)length, sink);
        }
    }
    printf("%016llx\n", (unsigned long long)doc_sink_checksum(sink));
    return 0;
}
C
# shellcheck disable=SC2046 # pkg-config's flags are words
for build in with without; do
    clang -O2 -w -I"$work/$build" $(pkg-config --cflags libxml-2.0 expat) "$work/walk.c" "$work/$build"/*.c \
        $(pkg-config --libs libxml-2.0 expat) -o "$work/walk-$build"
done

walk_failed() {
    echo "sink-in-walk: a walk of $1 failed (not well-formed, or a run of text over the sink's limit?)" >&2
    exit 1
}

# instructions BINARY DOCUMENT MODE: the instructions of one walk (three walks less one, halved:
# the program's start and the document's reading are left out).
instructions() {
    local counts=() count
    for count in 1 3; do
        counts+=("$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" "$2" "$count" "$3" 2>&1 >/dev/null |
            sed -n 's/.*Collected : \([0-9]*\).*/\1/p')")
    done
    [ -n "${counts[0]}" ] && [ -n "${counts[1]}" ] || { echo "sink-in-walk: no count for $2" >&2; exit 1; }
    echo $(((counts[1] - counts[0]) / 2))
}

printf '%-40s %14s %14s %8s %14s %14s %8s %12s %10s\n' document "c-libxml2" "without sink" "in walk" \
    "c-expat" "without sink" "in walk" "sink replay" "÷ c-libxml2"
for document in "$@"; do
    # Every walk ends (a document that is not well-formed, or too long a run of text, makes a walk
    # exit 1), and the two walks and the replay report the same events: the same checksum.
    checksums=()
    for mode in 0 1 2; do
        checksums+=("$("$work/walk-with" "$document" 1 "$mode")") || walk_failed "$document"
    done
    for mode in 0 1; do "$work/walk-without" "$document" 1 "$mode" >/dev/null || walk_failed "$document"; done
    if [ "${checksums[0]}" != "${checksums[1]}" ] || [ "${checksums[0]}" != "${checksums[2]}" ]; then
        echo "sink-in-walk: libxml2's walk, expat's and the replay disagree on $document: ${checksums[*]}" >&2
        exit 1
    fi
    libxml2=$(instructions "$work/walk-with" "$document" 0)
    libxml2_bare=$(instructions "$work/walk-without" "$document" 0)
    expat=$(instructions "$work/walk-with" "$document" 1)
    expat_bare=$(instructions "$work/walk-without" "$document" 1)
    replay=$(instructions "$work/walk-with" "$document" 2)
    python3 -c '
import sys
name, lx, lxb, ex, exb, rp = sys.argv[1], *map(int, sys.argv[2:])
share = lambda part, whole: "%.1f%%" % (100 * part / whole)
print("%-40s %14s %14s %8s %14s %14s %8s %12s %10s" % (name, f"{lx:,}", f"{lxb:,}", share(lx - lxb, lx),
      f"{ex:,}", f"{exb:,}", share(ex - exb, ex), f"{rp:,}", share(rp, lx)))
' "$(basename "$document")" "$libxml2" "$libxml2_bare" "$expat" "$expat_bare" "$replay"
done
