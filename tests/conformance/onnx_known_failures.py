#!/usr/bin/python3
"""Writes tests/conformance/onnx-known-failures.txt: every case of ONNX 1.12's backend test data
(Debian libonnx-testdata) that nnbridge's cpu backend does not pass, with a one-line reason.

Usage: onnx_known_failures.py NNBRIDGE_CLI OUT [DATA] [--backend opencl]

Runs `nnbridge conformance DATA/{node,pytorch-converted,pytorch-operator,simple} --backends cpu
--json` (DATA: /usr/share/libonnx-testdata/data; --backend opencl: the opencl backend without
fallback, for onnx-known-failures-opencl.txt) and turns each failure message into the cause a
reviewer can check (an op without a kernel, a type the IR has no form for, ...). A message no rule
below explains stops the script: every entry must say why. The file is what
`nnbridge conformance --known-failures` reads (a JSON object {"<case>": "<reason>"}).
"""
import json
import re
import subprocess
import sys

ARGS = sys.argv[1:]
BACKEND = "cpu"
if "--backend" in ARGS:
    k = ARGS.index("--backend")
    BACKEND = ARGS[k + 1]
    del ARGS[k:k + 2]
CLI, OUT = ARGS[0], ARGS[1]
DATA = ARGS[2] if len(ARGS) > 2 else "/usr/share/libonnx-testdata/data"
FOLDERS = ["node", "pytorch-converted", "pytorch-operator", "simple"]

TRAINING = {"Adagrad", "Adam", "Momentum", "Gradient"}
RANDOM = {"Bernoulli", "RandomUniformLike", "RandomNormalLike", "RandomUniform", "RandomNormal", "Multinomial"}
SEQUENCE = {"SequenceEmpty", "SequenceConstruct", "SequenceInsert", "SequenceAt", "SequenceErase", "SequenceLength",
            "SplitToSequence", "ConcatFromSequence"}
# Nodes of an operator the table maps, read as native because of a form the canonical op lacks.
NATIVE_FORM = {
    "Shape": "Shape-15 with start / end (the canonical Shape is the whole shape)",
    "ReduceSum": "ReduceSum with noop_with_empty_axes = 1 (no canonical form)",
    "Resize": "Resize tf_crop_and_resize (reads roi; no canonical form)",
    "BatchNormalization": "BatchNormalization training_mode = 1 (the canonical op is inference only)",
    "Cast": "Cast to a dtype nnbridge has none for",
    "MaxPool": "MaxPool with storage_order = 1 (column-major Indices: no canonical form)",
}


# Cases whose expected data, not nnbridge, is at fault, each checked by hand: (case-name pattern,
# failure message pattern, reason).
FAULTY_DATA = [
    (r"test_cast(like)?_FLOAT_to_BFLOAT16", r"values differ",
     "ONNX 1.12's expected bfloat16 is the float32 bits truncated; nnbridge rounds to nearest even "
     "(Eigen::bfloat16, the rounding ONNX Cast-19 specifies)"),
    (r"test_castlike_", r"has the wrong shape",
     "ONNX 1.12's case declares input 'like' with the output's shape [3, 4] but gives data of shape [1]"),
    (r"window(_symmetric)?_expanded$", r"values differ",
     "ONNX 1.12's expected window is up to 7e-5 off the float64 formula (hann: 0.3454739 for "
     "0.5 - 0.5 cos(2 pi 2/10) = 0.3454915); nnbridge's is within 1e-7 of it"),
]


def reason(name, r):
    for case, msg, text in FAULTY_DATA:
        if re.search(case, name) and re.search(msg, r):
            return text
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
        return "op %s not implemented (no canonical op, no %s kernel)" % (op, BACKEND)
    m = re.search(r"no kernel for op (\w+)", r)
    if m:
        return "canonical op %s has no %s kernel" % (m.group(1), BACKEND)
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
        (r"has an unknown dimension or dtype", "a graph input of unknown rank or dtype"),
        (r"PRelu: cannot broadcast", "opset-6 PRelu slope per channel: the version converter keeps the [C] slope, which PRelu-7+ broadcasts from the last dim"),
        (r"adapt_softmax_12_13", "the version converter cannot convert this Softmax (input shape unknown)"),
    ]:
        mm = re.search(pat, r)
        if not mm:
            continue
        if text:
            return text
        if "UINT" in pat:
            return "dtype %s: no nnbridge dtype" % (mm.group(1) or mm.group(2)).lower()
        return "%s output type cannot be resolved even with the inputs bound" % mm.group(1)
    m = re.search(r"\((\w+)\): (.*)$", r)
    if m and r.startswith("Unsupported: nodes["):
        return "%s %s: %s" % (BACKEND, m.group(1), m.group(2).split(" (the tensor types")[0].split(" (opencl.fallback")[0])
    if "values differ" in r and "float64" in FLOAT64.get(name, ""):
        return "float64 computed in float32: values past the float32 range become inf"
    return None


FLOAT64 = {}
known = {}
unexplained = []
for folder in FOLDERS:
    p = subprocess.run([CLI, "conformance", "%s/%s" % (DATA, folder), "--backends", BACKEND, "--json", "--jobs", "2"],
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
