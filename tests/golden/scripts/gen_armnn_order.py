#!/usr/bin/env python3
"""Writes tests/golden/armnn_wild/ (its negative cases in armnn_wild/negative/): Arm NN files as Arm NN's TfLite
parser lays them out, compiled by flatc from hand-written SerializedGraph JSON.

- armnn_wild/tflite_order_names: layers stored in no topological order (a FullyConnected before
  the Reshape that feeds it, an Output layer before the Softmax it reads), two layers sharing
  the name "FullyConnected:0:5", and TensorFlow-scoped output names with '/' ("dense/Softmax",
  "raw_outputs/box_encodings": their files are dense%2FSoftmax.npy, raw_outputs%2Fbox_encodings.npy).
  Expected outputs: NumPy (reshape, x @ W + b as Arm NN's FullyConnected with
  transposeWeightsMatrix false, softmax with beta 1).
- armnn_wild/negative/tflite_order_input_ids_*: inputIds / outputIds naming no Input / Output layer
  under each bindingIdsScheme (Arm NN's deserializer refuses them: SetupInputLayers /
  SetupOutputLayers look ids up by LayerBase.index in scheme 0, by layerBindingId otherwise).

Needs flatc and NumPy: /usr/bin/python3 tests/golden/scripts/gen_armnn_order.py
"""
import copy
import json
import pathlib
import shutil
import struct
import subprocess
import tempfile

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[3]
SCHEMA = ROOT / "schemas" / "armnn" / "ArmnnSchema.fbs"
GOLDEN = ROOT / "tests" / "golden"
COMMAND = "/usr/bin/python3 tests/golden/scripts/gen_armnn_order.py"

rng = np.random.default_rng(15)
X = rng.uniform(-1, 1, (1, 2, 2)).astype(np.float32)
W = rng.uniform(-1, 1, (4, 3)).astype(np.float32)  # [inputSize, outputSize]
B = rng.uniform(-1, 1, (3,)).astype(np.float32)


def ints(a):
    return [struct.unpack("<i", struct.pack("<f", float(v)))[0] for v in a.ravel()]


def info(dims):
    return {"dimensions": dims, "dataType": "Float32"}


def slot(src):
    return {"index": 0, "connection": {"sourceLayerIndex": src, "outputSlotIndex": 0}}


def base(index, name, kind, inputs, out_dims):
    return {"index": index, "layerName": name, "layerType": kind, "inputSlots": [slot(s) for s in inputs],
            "outputSlots": [{"index": 0, "tensorInfo": info(d)} for d in out_dims]}


def graph():
    return {
        "layers": [
            {"layer_type": "InputLayer", "layer": {"base": {"base": base(0, "input", "Input", [], [[1, 2, 2]]),
                                                            "layerBindingId": 0}}},
            {"layer_type": "FullyConnectedLayer", "layer": {
                "base": base(2, "FullyConnected:0:5", "FullyConnected", [1], [[1, 3]]),
                "descriptor": {"biasEnabled": True, "transposeWeightsMatrix": False, "constantWeights": True},
                "weights": {"info": info([4, 3]), "data_type": "IntData", "data": {"data": ints(W)}},
                "biases": {"info": info([3]), "data_type": "IntData", "data": {"data": ints(B)}}}},
            {"layer_type": "ReshapeLayer", "layer": {
                "base": base(1, "FullyConnected:0:5", "Reshape", [0], [[1, 4]]),
                "descriptor": {"targetShape": [1, 4]}}},
            {"layer_type": "OutputLayer", "layer": {"base": {"base": base(5, "dense/Softmax", "Output", [3], []),
                                                             "layerBindingId": 0}}},
            {"layer_type": "SoftmaxLayer", "layer": {
                "base": base(3, "dense/Softmax", "Softmax", [2], [[1, 3]]), "descriptor": {"beta": 1.0}}},
            {"layer_type": "OutputLayer", "layer": {
                "base": {"base": base(4, "raw_outputs/box_encodings", "Output", [2], []), "layerBindingId": 1}}},
        ],
        "inputIds": [0],
        "outputIds": [0, 1],
        "featureVersions": {"bindingIdsScheme": 1},
    }


def compile_to(doc, folder):
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        src = pathlib.Path(tmp) / "model.json"
        src.write_text(json.dumps(doc, indent=1))
        subprocess.run(["flatc", "-b", "-o", tmp, str(SCHEMA), str(src)], check=True, capture_output=True)
        shutil.copy(pathlib.Path(tmp) / "model.armnn", folder / "model.armnn")
    (folder / "source.armnn.txt").write_text(json.dumps(doc, indent=1) + "\n")


def write_case(folder, doc, case):
    if folder.exists():
        shutil.rmtree(folder)
    compile_to(doc, folder)
    (folder / "case.json").write_text(json.dumps(case, indent=2) + "\n")


def main():
    good = GOLDEN / "armnn_wild" / "tflite_order_names"
    write_case(good, graph(), {
        "format": "armnn",
        "model": "model.armnn",
        "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-5}},
        "provenance": {
            "model": "flatc -b schemas/armnn/ArmnnSchema.fbs from source.armnn.txt (hand-written SerializedGraph "
                     "JSON laid out as Arm NN's TfLite parser writes: layers out of topological order, a "
                     "FullyConnected and its Reshape both named FullyConnected:0:5, names with '/')",
            "inputs": "NumPy uniform(-1, 1), seed 15",
            "outputs": "NumPy: y = reshape(x, [1, 4]) @ W + b; dense/Softmax = exp(y - max) / sum",
            "files": "graph output dense/Softmax is outputs/dense%2FSoftmax.npy ('/' written %2F, README)",
            "command": COMMAND,
        },
    })
    (good / "inputs").mkdir()
    (good / "outputs").mkdir()
    np.save(good / "inputs" / "input.npy", X)
    y = (X.reshape(1, 4).astype(np.float64) @ W.astype(np.float64) + B).astype(np.float32)
    e = np.exp(y.astype(np.float64) - y.max())
    np.save(good / "outputs" / "dense%2FSoftmax.npy", (e / e.sum()).astype(np.float32))
    np.save(good / "outputs" / "raw_outputs%2Fbox_encodings.npy", y)

    negative = GOLDEN / "armnn_wild" / "negative"  # not negative/: gen_negative.py rewrites that folder

    def bad(name, edit, code, fragment, stage, why):
        doc = graph()
        edit(doc)
        write_case(negative / name, doc, {
            "format": "armnn",
            "model": "model.armnn",
            "expect_error": {"code": code, "message_contains": fragment, "stage": stage},
            "provenance": {"model": "armnn_wild/tflite_order_names's source.armnn.txt, " + why + " (flatc -b)",
                           "expected_error": "docs/api.md \"Errors\": " + code + ", naming " + fragment,
                           "command": COMMAND},
        })

    bad("tflite_order_input_ids_scheme1", lambda d: d.update(inputIds=[7]), "Invalid", "inputIds[0]", "load",
        "inputIds [7]: no Input layer has layerBindingId 7 (bindingIdsScheme 1)")
    bad("tflite_order_output_ids_scheme1", lambda d: d.update(outputIds=[0, 5]), "Invalid", "outputIds[1]", "load",
        "outputIds [0, 5]: no Output layer has layerBindingId 5 (5 is an Output layer's LayerBase.index)")

    def scheme0(d):
        d["featureVersions"]["bindingIdsScheme"] = 0
        d["inputIds"] = [0]
        d["outputIds"] = [5, 2]  # layer 2 is the FullyConnected, not an Output layer
    bad("tflite_order_output_ids_scheme0", scheme0, "Invalid", "outputIds[1]", "load",
        "bindingIdsScheme 0, outputIds [5, 2]: LayerBase.index 2 is the FullyConnected, no Output layer")


if __name__ == "__main__":
    main()
