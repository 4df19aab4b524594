#!/usr/bin/env python3
"""Moves IR JSON documents (nnbridge-ir) from the attribute form of ONNX's opset-13+ operands to
the canonical ops' input form: Slice starts/ends/axes/steps, Pad pads and value, Split split,
Squeeze/Unsqueeze axes, Clip min/max, ReduceSum axes and Resize sizes were attributes (Slice-10,
Pad-2, Split-11, Squeeze-11, Clip-6, ReduceSum-11 and a spatial-only Resize sizes); the canonical
ops take them as inputs as ONNX opset 17 does (docs/api.md, "ONNX opsets and the canonical ops").

The rule is the one docs/api.md and nnbridge/rewrite.h state for readers of formats whose
descriptors hold these values (attributes_as_operands), written out here independently:
- each such attribute becomes a constant value named "<node>.<ONNX input name>" (the first
  output's name for a node without a name; "_<k>" added if taken), appended after the values in
  node order, and the node's input at ONNX's position (an optional input left out before it is
  null);
- int lists are int64 [n]; Pad's value and Clip's bounds a scalar ([]) of X's dtype when X is
  float32 or float64 and holds it exactly, else float32 when float32 holds it, else float64;
- Resize's spatial sizes [H, W] become sizes for every dim, N and C X's (at the channel place
  data_layout gives), as Resize-13 takes them.

Usage: operands_as_inputs.py FILE.json... (rewrites each file in place when it changes; prints
the files changed). The expected IR changes because the canonical form changed; nothing here
comes from nnbridge's output.
"""
import base64
import json
import struct
import sys

OPERANDS = {  # op -> [(input, attribute, kind, ONNX input name)]
    "Slice": [(1, "starts", "ints", "starts"), (2, "ends", "ints", "ends"), (3, "axes", "ints", "axes"),
              (4, "steps", "ints", "steps")],
    "Pad": [(1, "pads", "ints", "pads"), (2, "value", "scalar", "constant_value")],
    "Split": [(1, "split", "ints", "split")],
    "Squeeze": [(1, "axes", "ints", "axes")],
    "Unsqueeze": [(1, "axes", "ints", "axes")],
    "Clip": [(1, "min", "scalar", "min"), (2, "max", "scalar", "max")],
    "ReduceSum": [(1, "axes", "ints", "axes")],
    "Resize": [(3, "sizes", "ints", "sizes")],
}


def b64(data):
    return base64.b64encode(data).decode("ascii")


def attr_value(a):
    (kind, v), = a.items()
    return kind, v


def convert(doc):
    values = doc["values"]
    taken = {v["name"] for v in values}
    changed = False
    for node in doc["nodes"]:
        spec = OPERANDS.get(node["op"])
        attrs = node.get("attrs", {})
        if not spec or not any(s[1] in attrs for s in spec):
            continue
        x = values[node["inputs"][0]] if node["inputs"] and node["inputs"][0] is not None else None
        for pos, name, kind, onnx_name in spec:
            if name not in attrs:
                continue
            akind, v = attr_value(attrs.pop(name))
            if kind == "ints":
                assert akind == "ints", (node, name)
                if node["op"] == "Resize":
                    shape = x["type"]["shape"]
                    if len(v) + 2 == len(shape):  # spatial sizes: N and C from X
                        nhwc = attrs.get("data_layout", {}).get("string") == "NHWC"
                        v = [shape[0]] + v + [shape[-1]] if nhwc else [shape[0], shape[1]] + v
                value = {"name": None, "type": {"dtype": "int64", "shape": [len(v)]},
                         "constant": {"base64": b64(struct.pack("<%dq" % len(v), *v))}}
            else:
                f = float(v)
                xt = x["type"]["dtype"] if x else None
                exact32 = struct.unpack("<f", struct.pack("<f", f))[0] == f or f != f
                dt = "float64" if xt == "float64" or not exact32 else "float32"
                data = struct.pack("<d", f) if dt == "float64" else struct.pack("<f", f)
                value = {"name": None, "type": {"dtype": dt, "shape": []}, "constant": {"base64": b64(data)}}
            base = node.get("name") or values[node["outputs"][0]]["name"]
            vname, k = base + "." + onnx_name, 2
            while vname in taken:
                vname, k = base + "." + onnx_name + "_" + str(k), k + 1
            taken.add(vname)
            value["name"] = vname
            values.append(value)
            while len(node["inputs"]) <= pos:
                node["inputs"].append(None)
            node["inputs"][pos] = len(values) - 1
        if not attrs:
            node.pop("attrs", None)
        changed = True
    return changed


def main(paths):
    for p in paths:
        with open(p) as f:
            text = f.read()
        doc = json.loads(text)
        if doc.get("format") != "nnbridge-ir" or not convert(doc):
            continue
        compact = "\n" not in text.strip()
        with open(p, "w") as f:
            if compact:
                f.write(json.dumps(doc, separators=(",", ":")) + ("\n" if text.endswith("\n") else ""))
            else:
                f.write(json.dumps(doc, indent=1) + "\n")
        print(p)


if __name__ == "__main__":
    main(sys.argv[1:])
