#!/usr/bin/python3
"""Scale benchmark: does every reader and writer stay O(n log n) in its input size?

For each format, files with N repeated elements (bench/scale_gen.py makes them from the format's
own facts: flatc, protoc, JSON and XML text, never nnbridge's writer) are timed through the CLI:
`nnbridge info FILE` (read), `nnbridge convert FILE OUT.<same ext>` (read + write) where the format
is writable, and a named baseline decoding the same bytes (flatc --json, protoc --decode or
--encode, python3 json.load, Arm NN 20.08's deserializer, ElementTree). Each command runs in its
own process: wall-clock median of --reps runs and the peak RSS of that child (wait4's ru_maxrss).

The growth exponent log(t2/t1)/log(10) between N=10k and N=100k is ~1.0 for linear time and ~2.0
for quadratic; the table flags one over 1.3, and a peak RSS, less that of an idle nnbridge
process, over 10x a file of 1 MB or more (below that the heap's fixed costs dominate). N=1M runs
where the 100k numbers predict a file under --max-mb and a read + write under --max-s (then with
one run each). Nothing here is a test: no time is asserted.

usage: bench/scale.py BUILD_DIR [--only NAME[,NAME...]] [--sizes 10000,100000] [--reps 3]
"""
import argparse
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scale_gen as g  # noqa: E402

M = ["--message", g.SETTINGS_MESSAGE]


def info(cli, f):
    return [cli, "info", f]


def convert(cli, f, out):
    return [cli, "convert", f, out]


def cfg_check(cli, f):
    return [cli, "config", "check", *M, f]


def cfg_convert(cli, f, out):
    return [cli, "config", "convert", *M, f, out]


def layers_check(cli, f):
    return [cli, "custom-layers", "check", f]


# format, element, generator (scale_gen.GENERATORS), read command, read + write command (None: not
# writable), baseline
CASES = [
    ("armnn", "Activation layers", "armnn", info, convert, "Arm NN 20.08 deserializer"),
    ("armnn-json", "Activation layers", "armnn-json", info, convert, "python3 json.load"),
    ("vkgraph", "OperatorCalls", "vkgraph", info, convert, "flatc --json"),
    ("vkdelegate", "OperatorCalls", "vkdelegate", info, convert, "flatc --json (the VkGraph)"),
    ("pte", "add nodes + named data", "pte", info, convert, "flatc --json (Program + VkGraph)"),
    ("ptd", "named-data entries", "ptd", info, convert, "flatc --json"),
    ("afcm", "objects in 1 program", "afcm-objects", info, convert, "flatc --json"),
    ("afcm", "programs", "afcm-programs", info, convert, "flatc --json"),
    ("json", "nodes", "json-nodes", info, convert, "python3 json.load"),
    ("json", "metadata keys", "json-metadata", info, convert, "python3 json.load"),
    ("settings proto-binary", "settings_to_test", "settings-proto-binary", cfg_check, cfg_convert, "protoc --decode"),
    ("settings proto-text", "settings_to_test", "settings-proto-text", cfg_check, cfg_convert, "protoc --encode"),
    ("settings proto-json", "settings_to_test", "settings-proto-json", cfg_check, cfg_convert, "python3 json.load"),
    ("settings fb", "settings_to_test", "settings-fb", cfg_check, cfg_convert, "flatc --json"),
    ("settings fb-json", "settings_to_test", "settings-fb-json", cfg_check, cfg_convert, "python3 json.load"),
    ("custom-layers xml", "CustomLayer", "custom-layers", layers_check, None, "python3 ElementTree"),
]


GNU_TIME = "/usr/bin/time"


def run_once(argv, stdin_path=None):
    """(wall seconds, peak RSS KiB, exit code) of one child process. The RSS comes from GNU time,
    which forks the command from its own small process: a child forked (or vforked) from this
    Python process would inherit Python's high-water mark in ru_maxrss across exec."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    with tempfile.NamedTemporaryFile() as rss, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        rc = subprocess.call([GNU_TIME, "-q", "-f", "%M", "-o", rss.name, *argv], stdin=stdin,
                             stdout=subprocess.DEVNULL, stderr=err)
        t = time.perf_counter() - t0
        if stdin_path:
            stdin.close()
        if rc != 0:
            err.seek(0)
            sys.stderr.write("  %s: exit %d: %s\n" % (" ".join(argv[:3]), rc, err.read(600).decode(errors="replace")))
        text = rss.read().decode().strip().splitlines()
    return t, int(text[-1]) if text and text[-1].isdigit() else 0, rc


def measure(cmds, reps, stdin_path=None, cleanup=None):
    """Median wall time of `reps` runs of the commands in `cmds` (run one after the other and
    summed), the largest peak RSS, and whether every run exited 0."""
    times, rss, ok = [], 0, True
    for _ in range(reps):
        total = 0.0
        for argv in cmds:
            t, r, rc = run_once(argv, stdin_path)
            total += t
            rss = max(rss, r)
            ok = ok and rc == 0
        if cleanup:
            cleanup()
        times.append(total)
    return statistics.median(times), rss, ok


def out_path(path, d):
    """OUT.<same extension> beside the input, e.g. chain.armnn.json -> out.armnn.json."""
    name = os.path.basename(path)
    return os.path.join(d, "out" + name[name.index("."):])


def one(tools, cli, case, n, reps, d):
    _, _, gen, read, write, _ = case
    os.makedirs(d)
    t0 = time.perf_counter()
    c = g.GENERATORS[gen](tools, n, d)
    gen_s = time.perf_counter() - t0
    mb = os.path.getsize(c.path) / 1e6
    r = {"n": n, "mb": mb, "gen_s": gen_s}
    r["read"], rss_r, ok_r = measure([read(cli, c.path)], reps)
    r["rss"] = r["rss_read"] = rss_r
    r["ok"] = ok_r
    if write:
        out = out_path(c.path, d)

        def rm():
            for f in os.listdir(d):
                if f.startswith("out."):
                    os.remove(os.path.join(d, f))
        r["rw"], rss_w, ok_w = measure([write(cli, c.path, out)], reps, cleanup=rm)
        r["rss_rw"] = rss_w
        r["rss"] = max(rss_r, rss_w)
        r["ok"] = ok_r and ok_w
    if shutil.which(c.baseline[0]) is None:  # nnbridge-bench-load is built only with libarmnn-dev
        r["base"] = "n/a"
    else:
        r["base"], _, ok_b = measure([c.baseline] + c.extra, reps, stdin_path=c.baseline_stdin)
        if not ok_b:
            r["base"] = "failed"
    shutil.rmtree(d)
    return r


def exponent(a, b, key):
    if not a or not b or a.get(key) is None or b.get(key) is None or a[key] <= 0:
        return None
    return math.log(b[key] / a[key]) / math.log(b["n"] / a["n"])


def fmt(x, spec="%.3f"):
    return "-" if x is None else x if isinstance(x, str) else spec % x


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build")
    ap.add_argument("--only", default="", help="comma-separated format names (first column)")
    ap.add_argument("--sizes", default="10000,100000", help="two sizes; a third, 10x the second, may follow")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--max-mb", type=float, default=150.0, help="largest predicted file for the 1M run")
    ap.add_argument("--max-s", type=float, default=60.0, help="longest predicted read + write for the 1M run")
    ap.add_argument("--no-1m", action="store_true")
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    tools = g.Tools(root=root, build=os.path.abspath(a.build))
    cli = os.path.join(tools.build, "bin", "nnbridge")
    for tool in (cli, tools.settings_fbs, GNU_TIME):
        if not os.path.exists(tool):
            sys.exit("bench/scale.py: %s is missing (cmake --build %s; GNU time: scripts/install-deps.sh)" % (tool, a.build))
    sizes = [int(s) for s in a.sizes.split(",")]
    only = set(filter(None, a.only.split(",")))
    _, idle_kib, _ = run_once([cli, "formats"])
    idle = idle_kib / 1024
    print("Scale: wall-clock median of %d runs per command, one child process each; peak RSS of the "
          "read or read+write child (an idle `nnbridge formats` process: %.1f MB)." % (a.reps, idle))
    print("exp = log(t(100k)/t(10k))/log(10), on read+write where writable, else read; exp 1M = the "
          "same from 100k to 1M (1 run). RSS/file = (the larger peak - idle) / file size, flagged over 10x from 1 MB.\n")
    head = ["format", "element", "N", "file MB", "read s", "read+write s", "peak MB read / r+w", "RSS/file", "baseline s",
            "baseline", "exp", "exp 1M", "flags"]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---" for _ in head) + "|")
    tmp = tempfile.mkdtemp(prefix="nnbridge-scale.")
    flagged = []
    try:
        for case in CASES:
            if only and case[0] not in only:
                continue
            rows = []
            for n in sizes:
                rows.append(one(tools, cli, case, n, a.reps, os.path.join(tmp, "d%d" % n)))
            key = "rw" if case[4] else "read"
            if not a.no_1m and len(rows) == 2 and rows[-1]["ok"]:
                # The next size, 10x the last (1M by default), when the last two predict it fits.
                e = max(1.0, exponent(rows[-2], rows[-1], key) or 1.0)
                pred_mb, pred_s = rows[-1]["mb"] * 10, rows[-1][key] * 10 ** e
                if pred_mb <= a.max_mb and pred_s <= a.max_s:
                    rows.append(one(tools, cli, case, rows[-1]["n"] * 10, 1, os.path.join(tmp, "d3")))
            for i, r in enumerate(rows):
                flags = []
                exp = exponent(rows[0], r, key) if i == 1 else None
                exp1m = exponent(rows[1], r, key) if i == 2 else None
                ratio = max(0.0, r["rss"] / 1024 - idle) / r["mb"] if r["mb"] > 0 else None
                if not r["ok"]:
                    flags.append("FAILED")
                for e in (exp, exp1m):
                    if e is not None and e > 1.3:
                        flags.append("exp > 1.3")
                if ratio is not None and ratio > 10 and r["mb"] >= 1:
                    flags.append("RSS > 10x file")
                if flags:
                    flagged.append((case[0], case[1], r["n"], flags))
                cells = [case[0], case[1], "%d" % r["n"], "%.2f" % r["mb"], fmt(r["read"]), fmt(r.get("rw")),
                         "%.0f / %s" % (r["rss_read"] / 1024, fmt(r.get("rss_rw", None) and r["rss_rw"] / 1024, "%.0f")),
                         fmt(ratio, "%.1fx"), fmt(r["base"]), case[5], fmt(exp, "%.2f"),
                         fmt(exp1m, "%.2f"), ", ".join(flags)]
                print("| " + " | ".join(cells) + " |", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print()
    if flagged:
        print("Flagged: " + "; ".join("%s %s N=%d (%s)" % (f, e, n, ", ".join(fl)) for f, e, n, fl in flagged))
    else:
        print("Nothing flagged.")
    return 1 if any("FAILED" in fl for *_, fl in flagged) else 0


if __name__ == "__main__":
    sys.exit(main())
