#!/usr/bin/python3
"""compare.py A.onnx B.onnx: exit 0 when python3-onnx decodes both to the same ModelProto
(google.protobuf.json_format.MessageToDict of each, external data not loaded), else print the
first differing path and exit 1. Also runs onnx.checker.check_model(B, full_check=True)."""
import sys

import onnx
from google.protobuf.json_format import MessageToDict


def first_difference(a, b, path=""):
    if type(a) != type(b):
        return path or "/"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return path + "/" + k
            d = first_difference(a[k], b[k], path + "/" + k)
            if d:
                return d
        return None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, "%s/%d" % (path, i))
            if d:
                return d
        return None if len(a) == len(b) else "%s (length %d vs %d)" % (path, len(a), len(b))
    return None if a == b else "%s: %r vs %r" % (path, a, b)


a = MessageToDict(onnx.load(sys.argv[1], load_external_data=False))
b = MessageToDict(onnx.load(sys.argv[2], load_external_data=False))
onnx.checker.check_model(sys.argv[2], full_check=True)
d = first_difference(a, b)
if d:
    print("differs at", d)
    sys.exit(1)
