#!/usr/bin/python3
"""Zoo benchmark (issue 21): nnbridge `cpu` against ONNX Runtime's CPU EP and PyTorch 1.13.

usage: bench/zoo.py BUILD_DIR [--models a,b] [--threads 1,2] [--seconds S] [--min-runs N]
                    [--rounds R] [--dir DIR] [--engines torch,ort,nnbridge] [--baseline PYDIR]
                    [--quantized] [--cpus 0,1]

Exports torchvision 0.14 architectures (random weights, seed 0, eval mode) with
torch.onnx.export (opset 13, batch 1, 3x224x224) and one random input (seed 1), then times,
on the same ONNX file and input, each engine in its own child process (so that one engine's
idle threads never compete with another's):

- nnbridge: `nnbridge.load` and `nnbridge.prepare(graph, "cpu", threads=T)` once, then
  `Plan.run` (the Python module of BUILD_DIR/python; inputs are read in place). The load leaves
  the weights in the file, so the first prepare pages them in: "load + prepare" is what
  compares with ONNX Runtime's session creation (which reads the file);
- ONNX Runtime: npm `onnxruntime-node` (bench/node_modules, installed with
  `npm install --ignore-scripts onnxruntime-node` in bench/) driven by bench/zoo_ort.js:
  intra-op threads T, inter-op 1, sequential, default graph optimizations;
- PyTorch: the torchvision module the file was exported from (same weights), under
  torch.inference_mode(), torch.set_num_threads(T).

Each child is pinned to the same T CPUs for every engine (the last T of the CPUs this process
may use, or --cpus), so that a 1-thread run of each engine uses the same core: on a virtual
machine one vCPU can be much slower than another for minutes at a time (the one taking the
interrupts, or one that shares its core with a neighbour), and an unpinned child lands on either.
Each child runs one untimed inference, then times inferences until S seconds and N runs have
passed; the table gives the median over all runs of R rounds (rounds alternate the engines, so
load from other processes falls on all of them), and the ratio to ONNX Runtime is the median
over rounds of the two engines' medians in the same round (their children run back to back).
With --baseline PYDIR a second nnbridge Python package (an older build's BUILD/python copied
aside) is timed in the same rounds, so a change can be measured against its baseline in one run.
Outputs are compared with ONNX Runtime's: max |y - y_ORT| / max |y_ORT| (random weights shrink
some networks' outputs to 1e-15). Peak RSS is the child's ru_maxrss (includes the interpreter:
Python + NumPy for nnbridge, Node.js for ONNX Runtime). Nothing is asserted: it is a benchmark.

--quantized adds NAME_qlinear for each model: every Conv as QuantizeLinear -> QLinearConv ->
DequantizeLinear (bench/zoo_quantize.py), timed on ONNX Runtime and nnbridge only.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = ["mobilenet_v2", "resnet18", "squeezenet1_1", "shufflenet_v2_x0_5", "mnasnet0_5"]
SHAPE = (1, 3, 224, 224)


def export(name, folder):
    """Writes NAME.onnx, NAME.pt (state dict) and input.npy / input.f32 into folder (once)."""
    import numpy as np
    import torch
    import torchvision
    onnx_path = os.path.join(folder, name + ".onnx")
    if not os.path.exists(os.path.join(folder, "input.npy")):
        x = np.random.default_rng(1).standard_normal(SHAPE, dtype=np.float32)
        np.save(os.path.join(folder, "input.npy"), x)
        x.tofile(os.path.join(folder, "input.f32"))
    if os.path.exists(onnx_path):
        return onnx_path
    torch.manual_seed(0)
    model = getattr(torchvision.models, name)(weights=None).eval()
    torch.save(model.state_dict(), os.path.join(folder, name + ".pt"))
    x = torch.from_numpy(np.load(os.path.join(folder, "input.npy")))
    tmp = onnx_path + ".tmp"
    with torch.no_grad():
        torch.onnx.export(model, x, tmp, opset_version=13, input_names=["input"], output_names=["output"])
    os.replace(tmp, onnx_path)
    return onnx_path


def time_loop(fn, seconds, min_runs):
    times = []
    start = time.perf_counter()
    while len(times) < min_runs or time.perf_counter() - start < seconds:
        a = time.perf_counter()
        fn()
        times.append((time.perf_counter() - a) * 1e3)
    return times


def child(args):
    """One engine, one model, one thread count: prints {prepare_ms, times_ms} as JSON."""
    import numpy as np
    engine, folder, name, threads = args.child, args.dir, args.models, int(args.threads)
    x = np.load(os.path.join(folder, "input.npy"))
    out_path = os.path.join(folder, "%s.%s.%d.npy" % (name, engine, threads))
    if engine.startswith("nnbridge"):
        sys.path.insert(0, args.pydir)
        import nnbridge
        t_load = time.perf_counter()
        graph = nnbridge.load(os.path.join(folder, name + ".onnx"))
        t0 = time.perf_counter()
        load_ms = (t0 - t_load) * 1e3
        plan = nnbridge.prepare(graph, "cpu", threads=threads)
        prepare_ms = (time.perf_counter() - t0) * 1e3
        feeds = {plan.inputs[0][0]: x}
        out_name = plan.outputs[0][0]
        y = plan.run(feeds)[out_name]
        times = time_loop(lambda: plan.run(feeds), args.seconds, args.min_runs)
    else:
        load_ms = 0.0  # in prepare_ms: the module is built and its weights loaded together
        import torch
        import torchvision
        torch.set_num_threads(threads)
        torch.set_num_interop_threads(1)
        t0 = time.perf_counter()
        model = getattr(torchvision.models, name)(weights=None)
        model.load_state_dict(torch.load(os.path.join(folder, name + ".pt")))
        model.eval()
        prepare_ms = (time.perf_counter() - t0) * 1e3
        xt = torch.from_numpy(x)
        with torch.inference_mode():
            y = model(xt).numpy()
            times = time_loop(lambda: model(xt), args.seconds, args.min_runs)
    np.save(out_path, np.asarray(y))
    print(json.dumps({"load_ms": load_ms, "prepare_ms": prepare_ms, "times_ms": times}))


def pinned_cpus(args, threads):
    """The CPUs a child running `threads` threads is pinned to: the last `threads` of --cpus (or
    of this process's affinity set), fewer when there are fewer."""
    allowed = sorted(int(c) for c in args.cpus.split(",")) if args.cpus else sorted(os.sched_getaffinity(0))
    return set(allowed[-threads:])


def spawn_rss(cmd, cpus):
    """Runs cmd on `cpus`; returns the JSON of its last stdout line, with the child's peak RSS (MiB, wait4)."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: os.sched_setaffinity(0, cpus))
    out = p.stdout.read()
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise RuntimeError("%s failed (exit %d): %s" % (" ".join(cmd[:4]), p.returncode, err.strip()[-2000:]))
    lines = [l for l in out.splitlines() if l.startswith("{")]
    result = json.loads(lines[-1])
    result["rss_mib"] = usage.ru_maxrss / 1024.0
    return result


def engine_cmd(engine, args, name, threads, pydir):
    if engine == "ort":
        return ["node", os.path.join(HERE, "zoo_ort.js"), os.path.join(args.dir, name + ".onnx"),
                os.path.join(args.dir, "input.f32"), "x".join(map(str, SHAPE)), str(threads), str(args.seconds),
                str(args.min_runs), os.path.join(args.dir, "%s.ort.%d.f32" % (name, threads))]
    cmd = [sys.executable, os.path.abspath(__file__), "--child", engine, "--dir", args.dir, "--models", name,
           "--threads", str(threads), "--seconds", str(args.seconds), "--min-runs", str(args.min_runs)]
    if pydir:
        cmd += ["--pydir", pydir]
    return cmd


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build", nargs="?", help="the CMake build folder (its python/ holds the nnbridge module)")
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--seconds", type=float, default=1.5, help="timed seconds per child (at least --min-runs runs)")
    ap.add_argument("--min-runs", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--dir", help="keep the exported models here (reused when present); default: a temporary folder")
    ap.add_argument("--engines", default="torch,ort,nnbridge", help="any of torch, ort, nnbridge (comma-separated)")
    ap.add_argument("--baseline", help="another build's python/ folder, timed as 'nnbridge-baseline'")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--pydir", help=argparse.SUPPRESS)
    ap.add_argument("--export", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--json", help="also write the raw results to this file")
    ap.add_argument("--cpus", help="the CPUs children may be pinned to, comma-separated ids (0,1; no ranges); default: this process's")
    ap.add_argument("--quantized", action="store_true", help="also time NAME_qlinear (every Conv as QLinearConv)")
    ap.add_argument("--quantize", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        return child(args)
    if args.export:
        for name in args.models.split(","):
            export(name, args.dir)
        return None
    if args.quantize:
        import zoo_quantize
        for name in args.models.split(","):
            dst = os.path.join(args.dir, name + "_qlinear.onnx")
            if not os.path.exists(dst):
                zoo_quantize.quantize(os.path.join(args.dir, name + ".onnx"), dst, os.path.join(args.dir, "input.npy"), args.pydir)
        return None
    if not args.build:
        ap.error("BUILD_DIR is required")
    if args.cpus:
        try:
            wanted = {int(c) for c in args.cpus.split(",")}
        except ValueError:
            ap.error("--cpus takes comma-separated CPU ids, not %r" % args.cpus)
        if not wanted <= os.sched_getaffinity(0):
            ap.error("--cpus %s: this process may only use CPUs %s" % (args.cpus, ",".join(map(str, sorted(os.sched_getaffinity(0))))))
    most = max(int(t) for t in args.threads.split(","))
    allowed = {int(c) for c in args.cpus.split(",")} if args.cpus else os.sched_getaffinity(0)
    if len(allowed) < most:
        if args.cpus:
            ap.error("--threads %d needs %d CPUs to pin to, and --cpus gives %d" % (most, most, len(allowed)))
        print("bench/zoo.py: warning: %d thread(s) share the %d CPU(s) this process may use" % (most, len(allowed)), file=sys.stderr)
    pydir = os.path.join(os.path.abspath(args.build), "python")
    engines = args.engines.split(",")
    if "ort" in engines and not os.path.isdir(os.path.join(HERE, "node_modules", "onnxruntime-node")):
        sys.exit("bench/zoo.py: ONNX Runtime is not installed: cd bench && npm install --ignore-scripts --no-save onnxruntime-node")
    if args.baseline:
        engines.append("nnbridge-baseline")
    models = args.models.split(",")
    threads = [int(t) for t in args.threads.split(",")]
    tmp = None
    if not args.dir:
        tmp = tempfile.TemporaryDirectory(prefix="nnbridge-zoo.")
        args.dir = tmp.name
    os.makedirs(args.dir, exist_ok=True)
    # Exported in a child: a child forked from a parent that imported torch would report the
    # parent's peak RSS as its own (ru_maxrss survives fork and exec).
    print("exporting %s to %s ..." % (", ".join(models), args.dir), file=sys.stderr, flush=True)
    subprocess.run([sys.executable, os.path.abspath(__file__), "--export", "--dir", args.dir, "--models", ",".join(models)],
                   check=True, stdout=subprocess.DEVNULL)
    if args.quantized:
        print("quantizing %s ..." % ", ".join(models), file=sys.stderr, flush=True)
        subprocess.run([sys.executable, os.path.abspath(__file__), "--quantize", "--dir", args.dir, "--models", ",".join(models),
                        "--pydir", pydir], check=True, stdout=subprocess.DEVNULL)
        models = [m for name in models for m in (name, name + "_qlinear")]
    results = {}  # (model, threads, engine) -> {times_ms, prepare_ms, rss_mib}
    for r in range(args.rounds):
        for name in models:
            for t in threads:
                order = engines if r % 2 == 0 else list(reversed(engines))
                for e in order:
                    if e == "torch" and name.endswith("_qlinear"):
                        continue  # the torchvision module is the float model
                    pd = args.baseline if e == "nnbridge-baseline" else pydir
                    res = spawn_rss(engine_cmd(e, args, name, t, pd), pinned_cpus(args, t))
                    acc = results.setdefault((name, t, e), {"times_ms": [], "load_ms": [], "prepare_ms": [], "rss_mib": 0.0, "round_ms": []})
                    acc["times_ms"] += res["times_ms"]
                    acc["round_ms"].append(statistics.median(res["times_ms"]))
                    acc["load_ms"].append(res.get("load_ms", 0.0))
                    acc["prepare_ms"].append(res["prepare_ms"])
                    acc["rss_mib"] = max(acc["rss_mib"], res["rss_mib"])
                    print("round %d %s %d thread(s) %s: %.2f ms" % (r + 1, name, t, e, statistics.median(res["times_ms"])),
                          file=sys.stderr, flush=True)
    report(args, models, threads, engines, results)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"%s|%d|%s" % k: v for k, v in results.items()}, f)


def report(args, models, threads, engines, results):
    import numpy as np

    def med(m, t, e):
        r = results.get((m, t, e))
        return statistics.median(r["times_ms"]) if r else None

    def ratio(m, t, e):
        """Median over rounds of e's median / ORT's median in the same round: the two children of a
        round run back to back, so a slow phase of the machine falls on both."""
        a, b = results.get((m, t, e)), results.get((m, t, "ort"))
        if not a or not b or len(a["round_ms"]) != len(b["round_ms"]):
            return med(m, t, e) / med(m, t, "ort")
        return statistics.median(x / y for x, y in zip(a["round_ms"], b["round_ms"]))

    def fmt(v):
        return "-" if v is None else ("%.2f ms" % v if v < 10 else "%.1f ms" % v)

    has = {e: e in engines for e in ("torch", "ort", "nnbridge", "nnbridge-baseline")}
    print("\nMedian per inference (batch 1, 3x224x224, random weights; each engine in its own process, pinned to the same CPUs):\n")
    head = ["model", "threads"]
    if has["torch"]:
        head.append("PyTorch 1.13")
    if has["ort"]:
        head.append("ONNX Runtime CPU EP")
    if has["nnbridge-baseline"]:
        head.append("nnbridge cpu (baseline)")
    if has["nnbridge"]:
        head.append("nnbridge cpu")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    ratios = {t: [] for t in threads}
    for m in models:
        for t in threads:
            row = [m, str(t)]
            ort = med(m, t, "ort") if has["ort"] else None
            if has["torch"]:
                row.append(fmt(med(m, t, "torch")))
            if has["ort"]:
                row.append(fmt(ort))
            for e in ("nnbridge-baseline", "nnbridge"):
                if not has[e]:
                    continue
                v = med(m, t, e)
                cell = fmt(v)
                if ort:
                    q = ratio(m, t, e)
                    cell += " (%.2fx ORT)" % q
                    if e == "nnbridge":
                        ratios[t].append((m, q))
                if e == "nnbridge" and has["nnbridge-baseline"]:
                    cell += " [%.2fx faster]" % (med(m, t, "nnbridge-baseline") / v)
                row.append(cell)
            print("| " + " | ".join(row) + " |")
    if has["ort"] and has["nnbridge"]:
        print()
        for t in threads:
            fl = [r for m, r in ratios[t] if not m.endswith("_qlinear")]
            ql = [r for m, r in ratios[t] if m.endswith("_qlinear")]
            if fl:
                print("nnbridge / ORT, %d thread(s): median over models %.2fx, worst %.2fx (targets: median <= 1.0x, worst <= 1.5x)"
                      % (t, statistics.median(fl), max(fl)))
            if ql:
                print("nnbridge / ORT, %d thread(s), QLinearConv models: median %.2fx, worst %.2fx (target <= 1.5x)"
                      % (t, statistics.median(ql), max(ql)))
    # prepare, memory and agreement
    print("\n| model | threads | nnbridge prepare | prepare / inference | nnbridge load + prepare | ORT session create "
          "| peak RSS nnbridge / ORT | max diff nnbridge vs ORT | max diff PyTorch vs ORT |")
    print("|---|---|---|---|---|---|---|---|---|")
    for m in models:
        for t in threads:
            nb, ort = results.get((m, t, "nnbridge")), results.get((m, t, "ort"))
            if not nb:
                continue
            prep = statistics.median(nb["prepare_ms"])
            row = [m, str(t), "%.1f ms" % prep, "%.0f%%" % (100 * prep / med(m, t, "nnbridge"))]
            row.append("%.1f ms" % statistics.median(a + b for a, b in zip(nb.get("load_ms", []), nb["prepare_ms"]))
                       if nb.get("load_ms") else "-")
            row.append("%.1f ms" % statistics.median(ort["prepare_ms"]) if ort else "-")
            row.append("%.0f / %.0f MiB" % (nb["rss_mib"], ort["rss_mib"]) if ort else "%.0f MiB" % nb["rss_mib"])
            ref_path = os.path.join(args.dir, "%s.ort.%d.f32" % (m, t))
            for e in ("nnbridge", "torch"):
                p = os.path.join(args.dir, "%s.%s.%d.npy" % (m, e, t))
                if ort and os.path.exists(p) and os.path.exists(ref_path):
                    y = np.load(p).ravel()
                    ref = np.fromfile(ref_path, dtype=np.float32)
                    if y.size != ref.size:
                        row.append("size differs")
                    else:
                        row.append("%.2g" % (float(np.max(np.abs(y - ref))) / max(float(np.max(np.abs(ref))), 1e-30)))
                else:
                    row.append("-")
            print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
