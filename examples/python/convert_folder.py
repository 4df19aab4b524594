#!/usr/bin/env python3
"""Converts every graph file in a folder (recursively) into another format, with a plain-text
progress bar on a terminal (none when stdout is a file or a pipe); files that cannot be converted
are listed with the reason on stderr at the end, and leave no output folder behind.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/convert_folder.py tests/golden/armnn /tmp/json --to json
"""

import argparse
import sys
from pathlib import Path

import nnbridge


def progress(done: int, total: int, label: str, width: int = 30) -> None:
    if not sys.stdout.isatty():
        return  # a log or a pipe gets the summary only
    filled = width * done // max(total, 1)
    sys.stdout.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {label[-40:]:<40}")
    sys.stdout.flush()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("src", type=Path)
    parser.add_argument("dst", type=Path)
    parser.add_argument("--to", required=True, help="the output format (see nnbridge.formats())")
    args = parser.parse_args()
    fmt = next((f for f in nnbridge.formats() if f.name == args.to), None)
    if fmt is None or not fmt.can_write:
        print(f"error: no writable format named {args.to!r}", file=sys.stderr)
        return 2
    readable = {ext for f in nnbridge.formats() if f.can_read for ext in f.extensions}
    # case.json files are conformance manifests (docs/conformance.md), not graphs.
    files = sorted(p for p in args.src.rglob("*")
                   if p.is_file() and p.suffix.lstrip(".") in readable and p.name != "case.json")
    failed = []
    for i, path in enumerate(files):
        progress(i, len(files), str(path.relative_to(args.src)))
        out = args.dst / path.relative_to(args.src).with_suffix("." + fmt.extensions[0])
        out.parent.mkdir(parents=True, exist_ok=True)
        try:
            nnbridge.convert(path, out, to=args.to)
        except nnbridge.Error as e:
            failed.append((path, e))
            # No empty folders left for files that were not converted (up to, not including, dst).
            d = out.parent
            while d != args.dst and d.is_dir() and not any(d.iterdir()):
                d.rmdir()
                d = d.parent
    progress(len(files), len(files), "done")
    if sys.stdout.isatty():
        print()
    for path, e in failed:
        where = "" if str(path) in str(e) else f"{path}: "  # most errors name the file already
        print(f"  not converted: {where}{type(e).__name__}: {e}", file=sys.stderr)
    print(f"{len(files) - len(failed)} of {len(files)} converted to {args.to} in {args.dst}")
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
