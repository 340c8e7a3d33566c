#!/usr/bin/env bash
# Writes the reference part of docs/commands.md from the tool itself: every command's `--help`,
# at 100 columns, after the line that marks it. The tests check that the page holds exactly this
# (BenchCommandTests), so the page cannot drift from the tool.
#
#   scripts/commands-doc.sh [BENCH]      (BENCH defaults to .build/debug/bench, built first)
set -euo pipefail
cd "$(dirname "$0")/.."
bench=${1:-}
if [ -z "$bench" ]; then
    swift build --product bench >/dev/null
    bench=.build/debug/bench
fi
page=docs/commands.md
# shellcheck disable=SC2016 # backquotes are Markdown here
marker='<!-- Everything below is written by scripts/commands-doc.sh from `bench <command> --help`: do not edit. -->'
grep -qF -- "$marker" "$page" || { echo "$page has no marker line: $marker" >&2; exit 1; }
{
    awk -v marker="$marker" '{ print } $0 == marker { exit }' "$page"
    for command in $(COLUMNS=100 "$bench" --help | sed -n '/^SUBCOMMANDS:/,/^$/p' | awk '/^  [a-z]/ { print $1 }'); do
        for sub in "" $(COLUMNS=100 "$bench" "$command" --help | sed -n '/^SUBCOMMANDS:/,/^$/p' | awk '/^  [a-z]/ { print $1 }'); do
            name="bench $command${sub:+ $sub}"
            # shellcheck disable=SC2016
            printf '\n### `%s`\n\n```text\n' "$name"
            # shellcheck disable=SC2086
            COLUMNS=100 "$bench" $command $sub --help
            printf '```\n'
        done
    done
} > "$page.new"
mv "$page.new" "$page"
echo "wrote $page"
