#!/usr/bin/env python3
"""The model zoo: torchvision architectures exported by PyTorch, converted by nnbridge to Arm NN,
the VkGraph delegate payload and back to ONNX, run on nnbridge's backends and compared with
PyTorch.

    PYTHONPATH=build/python /usr/bin/python3 examples/zoo/zoo.py [--models a,b,...] [--opset 13]
        [--backends cpu,opencl] [--build build] [--out DIR] [--runs 3] [--tolerance 1e-4] [--check]

For each model (torchvision 0.14, random weights, `weights=None`):
  1. BatchNorm statistics are gathered in train mode on a few batches of random data (momentum
     None: the running mean and variance become the plain averages over those batches), then the
     model is put in eval mode, so activations are neither zero nor huge;
  2. torch.onnx.export writes `<model>.onnx` (opset 13 by default, 13 to 17 accepted) and
     PyTorch's own output for one random input is the reference;
  3. nnbridge writes `<model>.armnn` and `<model>.vkdelegate` from the ONNX file and
     `<model>.back.onnx` from the `.armnn` file (Arm NN -> ONNX), reads each back, and runs it on
     every backend given;
  4. where the Arm NN 20.08 peer harness is built (`BUILD/bin/nnbridge-armnn-peer`, Debian's
     libarmnn), Arm NN 20.08's CpuRef runs the `.armnn` file too.

Each cell is the error relative to the output's scale, max|out - ref| / max|ref| (ref: PyTorch),
per backend; a file that could not be written shows `no [k]`, footnote k giving nnbridge's
refusal (it names the node and the missing form). The time is the median wall time of one
inference of the `.armnn` file (`--runs` runs after one warm-up), per backend.

`--check` exits 1 when a listed model does not convert to every format, or an error is above
`--tolerance` (default 1e-4: float32 kernels that sum in another order than PyTorch differ by a
few float32 ulps per layer, ~1e-6 of the output's scale over these depths; 1e-4 leaves two orders
of margin and still catches a wrong layout, padding or constant, which give errors of order 1).
Without `--check` the exit status is 0 once the table is printed.

On a terminal, a progress line on stderr says which model runs, how many are done, how many failed
so far, the time elapsed and the time left at the mean pace so far; a log or a pipe gets nothing.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]

# torchvision 0.14 classification models that torch 1.13 exports (the ones the issue lists and a
# few small siblings); (name, input side).
ZOO = [
    ("resnet18", 224), ("resnet50", 224), ("mobilenet_v2", 224), ("mobilenet_v3_small", 224),
    ("mobilenet_v3_large", 224), ("squeezenet1_1", 224), ("shufflenet_v2_x0_5", 224),
    ("shufflenet_v2_x1_0", 224), ("mnasnet0_5", 224), ("mnasnet1_0", 224), ("efficientnet_b0", 224),
    ("regnet_x_400mf", 224), ("regnet_y_400mf", 224), ("googlenet", 224), ("inception_v3", 299),
    ("densenet121", 224), ("alexnet", 224), ("vgg11", 224), ("convnext_tiny", 224),
    ("vit_b_16", 224), ("swin_t", 224),
]
FORMATS = ("armnn", "vkdelegate", "back.onnx")


def build_model(name):
    import torch
    import torchvision
    kwargs = {}
    if name in ("googlenet", "inception_v3"):
        # No auxiliary heads (eval mode drops them anyway); their own weight initialisation.
        kwargs = dict(aux_logits=False, init_weights=True)
    model = torchvision.models.get_model(name, weights=None, **kwargs)
    # ViT's classification head starts at zero (an all-zero output says nothing): random instead.
    for m in model.modules():
        if isinstance(m, torch.nn.Linear) and not m.weight.detach().any():
            torch.nn.init.normal_(m.weight, std=0.02)
    return model


def gather_batchnorm_statistics(model, side, batches=3, batch=4):
    import torch
    norms = [m for m in model.modules() if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
    for m in norms:
        m.reset_running_stats()
        m.momentum = None  # cumulative average over the batches below
    if not norms:
        return
    model.train()
    with torch.no_grad():
        for _ in range(batches):
            model(torch.randn(batch, 3, side, side))


def export(name, side, opset, out, reuse=False):
    """Returns (onnx path, input array, PyTorch's output array)."""
    import torch
    path, saved = out / f"{name}.onnx", out / f"{name}.reference.npz"
    if reuse and path.exists() and saved.exists():
        with np.load(saved) as z:
            if int(z["opset"]) == opset:
                return path, z["x"], z["y"]
    torch.manual_seed(0)
    model = build_model(name)
    gather_batchnorm_statistics(model, side)
    model.eval()
    x = torch.randn(1, 3, side, side)
    with torch.no_grad():
        ref = model(x)
    torch.onnx.export(model, x, str(path), input_names=["x"], output_names=["y"], opset_version=opset)
    np.savez(saved, x=x.numpy(), y=ref.numpy(), opset=opset)
    return path, x.numpy(), ref.numpy()


def rel_error(out, ref):
    scale = float(np.abs(ref).max())
    return float(np.abs(out.astype(np.float64) - ref).max()) / (scale if scale > 0 else 1.0)


def short(message, width=70):
    message = " ".join(str(message).split())
    return message if len(message) <= width else message[: width - 3] + "..."


class Row:
    def __init__(self, name):
        self.name = name
        self.cells = {}   # column -> text
        self.ok = True    # converted everywhere and within tolerance
        self.times = {}   # backend -> ms
        self.note = None  # Notes.add: footnote number of a message


def run_file(nnbridge, path, x, backends, runs, row, column, ref, tolerance, timed):
    graph = nnbridge.load(str(path))
    # A VkGraph keeps no tensor names (inputs read back as input_0, ...): go by position.
    in_name, out_name = graph.inputs[0].name, graph.outputs[0].name
    errors = []
    for backend in backends:
        try:
            plan = nnbridge.prepare(graph, backend)
            out = plan.run({in_name: x})[out_name]
            if timed:
                ms = []
                for _ in range(runs):
                    t = time.perf_counter()
                    plan.run({in_name: x})
                    ms.append((time.perf_counter() - t) * 1e3)
                row.times[backend] = sorted(ms)[len(ms) // 2]
            err = rel_error(out, ref)
            errors.append(f"{err:.1e}")
            if not err <= tolerance:
                row.ok = False
        except Exception as e:  # a run that fails is a result of the row, not the end of the zoo
            errors.append(f"{backend} failed [{row.note(e)}]")
            row.ok = False
    row.cells[column] = " / ".join(errors)
    return graph


# Canonical ops whose Arm NN layer or function is newer than Arm NN 20.08 (its schema lacks them;
# 20.08's deserializer reads an unknown activation function as another one, so the file is not run).
NEWER_THAN_2008 = {
    "Gelu": "Activation Gelu (Arm NN 23.11)",
    "MatMul": "BatchMatMul (after Arm NN 20.08)",
    "ChannelShuffle": "ChannelShuffle (after Arm NN 20.08)",
}


def peer_run(peer, armnn_path, graph, x, ref, tolerance, row, notes):
    """Arm NN 20.08 CpuRef on the .armnn file (bindings named as nnbridge reads them)."""
    newer = sorted({NEWER_THAN_2008[n.op] for n in graph.nodes if n.op in NEWER_THAN_2008})
    if newer:
        row.cells["20.08"] = f"needs [{notes.add('Arm NN 20.08 has no ' + ', no '.join(newer))}]"
        return
    with tempfile.TemporaryDirectory() as tmp:
        ins, outs = Path(tmp, "in"), Path(tmp, "out")
        ins.mkdir()
        np.save(ins / f"{graph.inputs[0].name}.npy", x)
        p = subprocess.run([str(peer), "run", str(armnn_path), str(ins), str(outs)],
                           capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            row.cells["20.08"] = f"no [{notes.add(p.stderr.strip() or 'exit %d' % p.returncode)}]"
            return
        got = np.load(outs / f"{graph.outputs[0].name}.npy")
        err = rel_error(got, ref)
        row.cells["20.08"] = f"{err:.1e}"
        if not err <= tolerance:
            row.ok = False


class Progress:
    """On a terminal, "[3/21] 1 failed, 2m10s elapsed, ETA 5m03s: resnet50" on `stream` (stderr),
    rewritten in place ("\\r" and erase-line) when a model starts and, by a background thread,
    every `period` seconds while it runs; nothing when `stream` is not a terminal. The ETA is the
    models left at the mean time per model so far, shown once one model is done."""

    def __init__(self, total, stream=None, clock=time.monotonic, period=0.5):
        self.total, self.done, self.failed = total, 0, 0
        self.stream = sys.stderr if stream is None else stream
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.clock = clock
        self.start = clock()
        self.label, self.drawn = "", False
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        if self.enabled:
            threading.Thread(target=self._redraw, args=(period,), daemon=True).start()

    @staticmethod
    def duration(seconds):
        s = max(0, int(seconds))
        if s < 60:
            return f"{s}s"
        if s < 3600:
            return f"{s // 60}m{s % 60:02d}s"
        return f"{s // 3600}h{s // 60 % 60:02d}m"

    def text(self, label):
        elapsed = self.clock() - self.start
        s = f"[{self.done}/{self.total}] "
        if self.failed:
            s += f"{self.failed} failed, "
        s += f"{self.duration(elapsed)} elapsed"
        if 0 < self.done < self.total:
            s += f", ETA {self.duration(elapsed / self.done * (self.total - self.done))}"
        return s + (f": {label}" if label else "")

    def _draw(self):
        self.stream.write("\r\033[K" + self.text(self.label))
        self.stream.flush()
        self.drawn = True

    def _redraw(self, period):
        while not self.stopped.wait(period):
            with self.lock:
                if self.drawn:
                    self._draw()

    def show(self, label):
        """Draws the line with `label` (the model that runs now)."""
        if self.enabled:
            with self.lock:
                self.label = label
                self._draw()

    def step(self, failed):
        """One model is done (`failed`: not converted everywhere or above the tolerance)."""
        with self.lock:
            self.done += 1
            self.failed += bool(failed)

    def clear(self):
        """Erases the line until the next show()."""
        if self.enabled:
            with self.lock:
                if self.drawn:
                    self.stream.write("\r\033[K")
                    self.stream.flush()
                    self.drawn = False

    def close(self):
        self.clear()
        self.stopped.set()


class Notes:
    def __init__(self):
        self.items = []

    def add(self, text):
        text = " ".join(str(text).split())
        if text not in self.items:
            self.items.append(text)
        return self.items.index(text) + 1


def zoo_model(nnbridge, name, side, args, out, notes, peer):
    row = Row(name)
    row.note = notes.add
    try:
        onnx_path, x, ref = export(name, side, args.opset, out, args.reuse)
    except Exception as e:
        row.cells["onnx"] = f"no [{notes.add('export: ' + str(e))}]"
        row.ok = False
        return row
    row.cells["scale"] = f"{float(np.abs(ref).max()):.2g}"
    try:
        source = nnbridge.load(str(onnx_path))
        run_file(nnbridge, onnx_path, x, ["cpu"], args.runs, row, "onnx", ref, args.tolerance, False)
    except Exception as e:
        row.cells["onnx"] = f"no [{notes.add(e)}]"
        row.ok = False
        return row
    for fmt in args.formats:
        dest = out / f"{name}.{fmt}"
        try:
            if fmt == "back.onnx":
                if "armnn" not in row.cells or row.cells["armnn"].startswith("no ["):
                    row.cells[fmt] = "-"
                    continue
                nnbridge.convert(str(out / f"{name}.armnn"), str(dest))
            else:
                nnbridge.save(source, str(dest))
        except Exception as e:
            row.cells[fmt] = f"no [{notes.add(e)}]"
            row.ok = False
            continue
        written = run_file(nnbridge, dest, x, args.backends, args.runs, row, fmt, ref, args.tolerance,
                           timed=(fmt == "armnn"))
        if fmt == "armnn" and peer:
            peer_run(peer, dest, written, x, ref, args.tolerance, row, notes)
    return row


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--models", default=",".join(n for n, _ in ZOO),
                   help="comma-separated torchvision model names (default: the whole zoo)")
    p.add_argument("--opset", type=int, default=13, choices=range(13, 18), metavar="13..17")
    p.add_argument("--backends", default="cpu,opencl")
    p.add_argument("--build", default=os.environ.get("NNBRIDGE_BUILD_DIR", str(ROOT / "build")))
    p.add_argument("--out", help="folder for the exported and converted files (default: a temporary one)")
    p.add_argument("--reuse", action="store_true",
                   help="reuse <model>.onnx and <model>.reference.npz in --out from an earlier run (same opset)")
    p.add_argument("--runs", type=int, default=3, help="timed runs per backend (median reported)")
    p.add_argument("--tolerance", type=float, default=1e-4)
    p.add_argument("--check", action="store_true",
                   help="exit 1 unless every model converts to every format within --tolerance")
    p.add_argument("--formats", default=",".join(FORMATS),
                   help="formats written and checked, of " + ",".join(FORMATS) + " (back.onnx: the .armnn file as ONNX)")
    p.add_argument("--no-peer", action="store_true", help="skip Arm NN 20.08 even when its harness is built")
    args = p.parse_args()
    args.backends = [b for b in args.backends.split(",") if b]
    args.formats = [f for f in args.formats.split(",") if f]
    if any(f not in FORMATS for f in args.formats):
        p.error(f"--formats takes {', '.join(FORMATS)}")

    sys.path.insert(0, str(Path(args.build, "python")))
    try:
        import torch
        import torchvision  # noqa: F401
    except ImportError as e:
        print(f"zoo: skipped, PyTorch and torchvision are needed (Debian python3-torch, python3-torchvision): {e}")
        return 77
    import nnbridge
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    sides = dict(ZOO)
    names = [n for n in args.models.split(",") if n]
    unknown = [n for n in names if n not in sides and not hasattr(__import__("torchvision").models, n)]
    if unknown:
        p.error(f"unknown model(s): {', '.join(unknown)}")
    peer = Path(args.build, "bin", "nnbridge-armnn-peer")
    peer = peer if peer.exists() and not args.no_peer else None
    available = nnbridge.backends()
    missing = [b for b in args.backends if b not in available]
    if missing:
        p.error(f"backend(s) not available in this build: {', '.join(missing)} (have {', '.join(available)})")

    notes = Notes()
    rows = []
    tmp = None
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="nnbridge-zoo.")
        out = Path(tmp.name)
    be = "/".join(args.backends)
    columns = ["scale", "onnx"] + args.formats + (["20.08"] if peer and "armnn" in args.formats else [])
    heads = {"scale": "scale", "onnx": "onnx cpu", "armnn": f"armnn {be}",
             "vkdelegate": f"vkdelegate {be}", "back.onnx": f"armnn>onnx {be}", "20.08": "Arm NN 20.08"}
    print(f"# nnbridge zoo: torchvision {__import__('torchvision').__version__}, torch {torch.__version__}, "
          f"opset {args.opset}; error = max|out - ref| / max|ref| per backend ({be}); "
          f"time: median ms per inference of the .armnn file", flush=True)
    widths = {"model": 20, "scale": 9, "onnx": 9, "armnn": 18, "vkdelegate": 18, "back.onnx": 18, "20.08": 12}
    header = "| " + " | ".join([f"{'model':<{widths['model']}}"] + [f"{heads[c]:<{widths[c]}}" for c in columns]
                                + [f"ms {b}" for b in args.backends]) + " |"
    print(header)
    print("|" + "|".join("-" * len(c) for c in header[1:-1].split("|")) + "|", flush=True)
    progress = Progress(len(names))
    for name in names:
        progress.show(name)
        row = zoo_model(nnbridge, name, sides.get(name, 224), args, out, notes, peer)
        rows.append(row)
        progress.step(not row.ok)
        progress.clear()  # the table row starts on a clean line when stdout is the same terminal
        cells = [f"{name:<{widths['model']}}"] + [f"{row.cells.get(c, '-'):<{widths[c]}}" for c in columns]
        cells += [f"{row.times[b]:.0f}" if b in row.times else "-" for b in args.backends]
        print("| " + " | ".join(cells) + " |", flush=True)
    progress.close()
    for k, text in enumerate(notes.items, 1):
        print(f"[{k}] {short(text, 400)}")
    if tmp:
        tmp.cleanup()
    failed = [r.name for r in rows if not r.ok]
    if failed:
        print(f"# not converted everywhere or above {args.tolerance:g}: {', '.join(failed)}")
    return 1 if args.check and failed else 0


if __name__ == "__main__":
    sys.exit(main())
