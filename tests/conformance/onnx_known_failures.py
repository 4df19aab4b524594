#!/usr/bin/python3
"""Writes tests/conformance/onnx-known-failures.txt: every case of ONNX 1.12's backend test data
(Debian libonnx-testdata) that nnbridge's cpu backend does not pass, with a one-line reason.

Usage: onnx_known_failures.py NNBRIDGE_CLI OUT [DATA]

Runs `nnbridge conformance DATA/{node,pytorch-converted,pytorch-operator,simple} --backends cpu
--json` (DATA: /usr/share/libonnx-testdata/data) and turns each failure message into the cause a
reviewer can check (an op without a kernel, a type the IR has no form for, ...). A message no rule
below explains stops the script: every entry must say why. The file is what
`nnbridge conformance --known-failures` reads (a JSON object {"<case>": "<reason>"}).
"""
import json
import re
import subprocess
import sys

CLI, OUT = sys.argv[1], sys.argv[2]
DATA = sys.argv[3] if len(sys.argv) > 3 else "/usr/share/libonnx-testdata/data"
FOLDERS = ["node", "pytorch-converted", "pytorch-operator", "simple"]

TRAINING = {"Adagrad", "Adam", "Momentum", "Gradient"}
RANDOM = {"Bernoulli", "RandomUniformLike", "RandomNormalLike", "RandomUniform", "RandomNormal", "Multinomial"}
SEQUENCE = {"SequenceEmpty", "SequenceConstruct", "SequenceInsert", "SequenceAt", "SequenceErase", "SequenceLength",
            "SplitToSequence", "ConcatFromSequence"}
# Nodes of an operator the table maps, read as native because of a form the canonical op lacks.
NATIVE_FORM = {
    "Max": "Max with other than two inputs (the canonical Max is binary)",
    "Min": "Min with other than two inputs (the canonical Min is binary)",
    "Shape": "Shape-15 with start / end (the canonical Shape is the whole shape)",
    "ReduceSum": "ReduceSum with noop_with_empty_axes = 1 (no canonical form)",
    "Resize": "Resize tf_crop_and_resize (reads roi; no canonical form)",
    "BatchNormalization": "BatchNormalization training_mode = 1 (the canonical op is inference only)",
    "Cast": "Cast to a dtype nnbridge has none for",
    "MaxPool": "MaxPool with storage_order = 1 (column-major Indices: no canonical form)",
}


def reason(name, r):
    m = re.search(r"no kernel for op onnx\.(\w+)", r)
    if m:
        op = m.group(1)
        if op in TRAINING:
            return "training op %s (ai.onnx.preview.training)" % op
        if op in RANDOM:
            return "random op %s: not implemented" % op
        if op in SEQUENCE:
            return "sequence op %s: the IR has no sequence type" % op
        if op in NATIVE_FORM:
            return NATIVE_FORM[op]
        return "op %s not implemented (no canonical op, no cpu kernel)" % op
    m = re.search(r"no kernel for op (\w+)", r)
    if m:
        return "canonical op %s has no cpu kernel" % m.group(1)
    m = re.search(r"(\w+)(?: '[^']*')?: input (\d+) \('([^']*)'\) is not a constant; nnbridge's \w+ takes it as the attribute `(\w+)`", r)
    if m:
        return "opset-13+ input %s of %s is not a constant (the canonical op takes `%s` as an attribute)" % (
            m.group(3), m.group(1), m.group(4))
    for pat, text in [
        (r"sequence types", "sequence type"),
        (r"optional types", "optional type"),
        (r"map types", "map type"),
        (r"string tensors", "string tensor"),
        (r"graph-valued attributes", "control flow with a subgraph (If / Loop / Scan body)"),
        (r"elem_type (UINT\d+)|data_type (UINT\d+)", None),
        (r"cannot resolve the type of output \d+ of node \d+ \"[^\"]*\" \((\w+)\)", None),
        (r"has an unknown dimension or dtype", "a graph input with a symbolic dimension: the backends need static input shapes"),
        (r"PRelu: cannot broadcast", "opset-6 PRelu slope per channel: the version converter keeps the [C] slope, which PRelu-7+ broadcasts from the last dim"),
        (r"adapt_softmax_12_13", "the version converter cannot convert this Softmax (input shape unknown)"),
    ]:
        mm = re.search(pat, r)
        if not mm:
            continue
        if text:
            return text
        if "UINT" in pat:
            return "dtype %s: nnbridge has no unsigned dtype but uint8" % (mm.group(1) or mm.group(2)).lower()
        return "%s output shape computed at run time (the cpu backend plans shapes before running)" % mm.group(1)
    m = re.search(r"\((\w+)\): (.*)$", r)
    if m and r.startswith("Unsupported: nodes["):
        return "cpu %s: %s" % (m.group(1), m.group(2).split(" (the tensor types")[0])
    if "values differ" in r and "float64" in FLOAT64.get(name, ""):
        return "float64 computed in float32: values past the float32 range become inf"
    return None


FLOAT64 = {}
known = {}
unexplained = []
for folder in FOLDERS:
    p = subprocess.run([CLI, "conformance", "%s/%s" % (DATA, folder), "--backends", "cpu", "--json", "--jobs", "2"],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=False)
    report = json.loads(p.stdout)
    for c in report["cases"]:
        if c["status"] == "PASS":
            continue
        if "values differ" in c["reason"]:
            info = subprocess.run([CLI, "info", "%s/%s/model.onnx" % (DATA, c["name"])], stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, check=False)
            FLOAT64[c["name"]] = info.stdout.decode()
        r = reason(c["name"], c["reason"])
        if r is None:
            unexplained.append("%s: %s" % (c["name"], c["reason"]))
        else:
            known[c["name"]] = r
if unexplained:
    sys.exit("no rule explains these failures:\n" + "\n".join(unexplained))
with open(OUT, "w") as f:
    json.dump(dict(sorted(known.items())), f, indent=1)
    f.write("\n")
print("%d known failures" % len(known))
