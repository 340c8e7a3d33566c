#!/usr/bin/env python3
"""How often a run's intervals held the other runs' figures: the next-run coverage of issue 46.

    scripts/next-run-coverage.py DIR [--last N]

DIR is a `bench run --scenario parse --output-dir DIR` directory holding several runs' JSON files
(`<run-id>.json`; `latest.json` and the practices' files are skipped), made one after the other on
one machine with the same settings and one store, so that each run's intervals are widened by the
noise between the runs before it. The newest N runs (default 6) are compared in every ordered
pair: for each parse cell, whether run A's interval holds run B's figure, for the time (*next run
95%*), × fastest (the ratio to the table's reference) and vs C (the binding tax). With 6 runs each
figure is held against 30 pairs; a 95% interval should hold about 28.5 of them.

Prints one line per parser and figure (held / pairs), the total, and each run's rounds and seconds
of measuring.
"""
import argparse
import glob
import json
import os
import sys


def runs(directory, last):
    paths = sorted(
        path
        for path in glob.glob(os.path.join(directory, "*.json"))
        if os.path.basename(path)[0].isdigit() and "practices" not in os.path.basename(path)
    )
    loaded = []
    for path in paths[-last:]:
        with open(path, encoding="utf-8") as file:
            loaded.append((os.path.basename(path)[:-5], json.load(file)))
    return loaded


def figures(run):
    """(parser, figure) -> (value, low, high) of the run's parse cells."""
    out = {}
    for cell in run.get("cells", []):
        if cell.get("cell", {}).get("scenario") != "parse":
            continue
        parser = cell["cell"]["parser"]
        estimate = cell.get("estimate")
        if estimate and "value" in estimate:
            out[(parser, "time")] = (estimate["value"], estimate.get("low"), estimate.get("high"))
        for key, name in (("relative", "× fastest"), ("bindingTax", "vs C")):
            ratio = cell.get(key)
            if ratio and "ratio" in ratio and ratio.get("low") is not None:
                out[(parser, name)] = (ratio["ratio"], ratio["low"], ratio["high"])
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory")
    parser.add_argument("--last", type=int, default=6)
    arguments = parser.parse_args()
    loaded = runs(arguments.directory, arguments.last)
    if len(loaded) < 2:
        sys.exit(f"{arguments.directory}: {len(loaded)} run JSON file(s); at least 2 are needed")
    for run_id, run in loaded:
        stopped = run.get("stopped") or {}
        rounds = stopped.get("rounds", run.get("settings", {}).get("rounds"))
        seconds = stopped.get("seconds")
        noisy = (run.get("noise") or {}).get("noisy")
        earlier = (run.get("runToRun") or {}).get("earlierRuns")
        print(
            f"{run_id}: {rounds} rounds"
            + (f", {seconds:.1f} s of measuring" if seconds is not None else "")
            + f", {earlier} earlier runs, {'noisy' if noisy else 'quiet'}"
        )
    tables = [figures(run) for _, run in loaded]
    keys = sorted({key for table in tables for key in table})
    held_all = pairs_all = 0
    for key in keys:
        held = pairs = 0
        for a, table_a in enumerate(tables):
            for b, table_b in enumerate(tables):
                if a == b or key not in table_a or key not in table_b:
                    continue
                _, low, high = table_a[key]
                value = table_b[key][0]
                if low is None or high is None:
                    continue
                pairs += 1
                held += low <= value <= high
        if pairs:
            held_all += held
            pairs_all += pairs
            print(f"{key[0]:>12} {key[1]:<10} {held:>3}/{pairs}")
    print(f"{'all':>12} {'':<10} {held_all:>3}/{pairs_all}")


if __name__ == "__main__":
    main()
