#!/usr/bin/python3
"""ONNX models for nnbridge's onnx format tests, built with Debian's python3-onnx (onnx.helper).

Usage: make_models.py OUT

  OUT/lossless/<name>.onnx   opset-17 models that read -> write must give back field by field
                             (compared with MessageToDict by compare.py)
  OUT/run/<name>/            ONNX test layout: model.onnx + test_data_set_0/input_<i>.pb,
                             output_<j>.pb; expected outputs by NumPy from the ONNX operator
                             definitions (a formula per case, written out below), never by nnbridge
  OUT/refused/<name>.onnx    models nnbridge must refuse; OUT/refused.json says the error
                             ({"<name>": {"id", "where", "contains"}}: the identifier of
                             docs/errors.md, the place, and a name from the model or null)
  OUT/to_armnn/<name>/       models with what Arm NN files must state explicitly (default perm, auto_pad,
                             shape and repeats inputs, no value_info) or ops Arm NN has no layer for
                             (Identity, global pools, Flatten/Squeeze/Unsqueeze): model.onnx, x.npy, y.npy
                             (y by NumPy from the operator's definition)
  OUT/to_armnn_refused.json  {"<name>.onnx": "<words the refusal names>"}, the models beside it in
                             OUT/to_armnn_refused/: attributes Arm NN's layers cannot hold
  OUT/checked/<name>.onnx    models that load (their operator stays native: onnx.<op_type>) but that
                             onnx.checker refuses, which nnbridge.check must report; OUT/checked.json
                             says the finding ({"<name>": {"id", "where", "contains"}})
  OUT/external/              a model whose weights live in weights.bin (onnx.save_model's
                             external data), with its input and expected output as .npy;
                             OUT/external13/ the same at opset 13 (w.bin)

Every model meant to be valid passes onnx.checker.check_model(full_check=True) here first.
Deterministic: fixed seeds, no timestamps.
"""
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = sys.argv[1]
RNG = np.random.default_rng(19)
F = TensorProto.FLOAT


def save(model, path, check=True):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if check:
        onnx.checker.check_model(model, full_check=True)
    with open(path, "wb") as f:
        f.write(model.SerializeToString())


def checker_refuses(m, says):
    """Asserts that onnx.checker refuses model m with the words `says` (the oracle of a refusal)."""
    try:
        onnx.checker.check_model(m)
    except onnx.checker.ValidationError as e:
        assert says in str(e), e
        return
    raise AssertionError("onnx.checker accepted a model it should refuse (" + says + ")")


def model(nodes, inputs, outputs, initializers=(), opset=17, **kw):
    g = helper.make_graph(nodes, kw.pop("graph_name", "g"), inputs, outputs, list(initializers),
                          doc_string=kw.pop("graph_doc", None), value_info=kw.pop("value_info", []))
    return helper.make_model(g, opset_imports=kw.pop("opsets", [helper.make_opsetid("", opset)]), **kw)


def vi(name, shape, elem=F, doc=""):
    return helper.make_tensor_value_info(name, elem, shape, doc_string=doc)


def const(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


# ---------------------------------------------------------------- lossless
def lossless():
    d = os.path.join(OUT, "lossless")
    # Model and graph fields, doc strings, metadata, value_info with dim_param and denotations.
    x = vi("x", ["N", 3], doc="the input")
    x.type.denotation = "TENSOR"
    x.type.tensor_type.shape.dim[0].denotation = "DATA_BATCH"
    y = vi("y", ["N", 3], doc="the output")
    w = const("w", RNG.standard_normal((3,)).astype(np.float32))
    w.doc_string = "weights"
    nodes = [helper.make_node("Add", ["x", "w"], ["s"], name="add", doc_string="x + w"),
             helper.make_node("Relu", ["s"], ["y"])]
    m = model(nodes, [x], [y], [w], graph_doc="graph doc", graph_name="fields",
              value_info=[vi("s", ["N", None], doc="sum")],
              producer_name="make_models.py", producer_version="1", domain="org.nnbridge.test",
              model_version=7, doc_string="model doc")
    helper.set_model_props(m, {"author": "nnbridge tests", "license": "none"})
    save(m, os.path.join(d, "fields.onnx"))

    # Initializers in every storage field, one also listed as a graph input (a default value).
    inits = [helper.make_tensor("f", F, [2], [1.5, -2.0]),                          # float_data
             helper.make_tensor("i32", TensorProto.INT32, [2], [3, -4]),           # int32_data
             helper.make_tensor("i64", TensorProto.INT64, [1], [2]),              # int64_data
             helper.make_tensor("d", TensorProto.DOUBLE, [2], [0.25, 8.0]),        # double_data
             helper.make_tensor("h", TensorProto.FLOAT16, [2], [1.0, 2.0]),        # int32_data bits
             helper.make_tensor("b", TensorProto.BOOL, [2], [True, False]),        # int32_data
             helper.make_tensor("u8", TensorProto.UINT8, [2], [7, 250]),
             const("raw", np.arange(4, dtype=np.float32)),                         # raw_data
             helper.make_tensor("empty", F, [0], [])]                              # no data at all
    nodes = [helper.make_node("Add", ["x", "f"], ["a"]),
             helper.make_node("Cast", ["i32"], ["c32"], to=TensorProto.INT64),
             helper.make_node("Add", ["c32", "i64"], ["k"]),
             helper.make_node("Cast", ["d"], ["dc"], to=F),
             helper.make_node("Cast", ["h"], ["hc"], to=F),
             helper.make_node("Cast", ["u8"], ["uc"], to=F),
             helper.make_node("Not", ["b"], ["nb"]),
             helper.make_node("Add", ["a", "dc"], ["a2"]),
             helper.make_node("Add", ["a2", "hc"], ["a3"]),
             helper.make_node("Add", ["a3", "uc"], ["y"])]
    m = model(nodes, [vi("x", [2]), vi("f", [2])], [vi("y", [2]), vi("k", [2], TensorProto.INT64),
                                                   vi("nb", [2], TensorProto.BOOL)], inits)
    save(m, os.path.join(d, "storage.onnx"))

    # Constant nodes of every kind, an attribute order that is not by name, names absent and set
    # to "", absent optional inputs and outputs.
    nodes = [helper.make_node("Constant", [], ["c_t"], name="ct",
                              value=helper.make_tensor("tv", F, [3], [1, 2, 3])),
             helper.make_node("Constant", [], ["c_f"], value_float=0.5),
             helper.make_node("Constant", [], ["c_fs"], value_floats=[1.0, 2.0, 3.0]),
             helper.make_node("Constant", [], ["c_i"], value_int=1),
             helper.make_node("Constant", [], ["c_is"], value_ints=[0]),
             helper.make_node("Add", ["x", "c_t"], ["a"], name=""),
             helper.make_node("Mul", ["a", "c_f"], ["m"]),
             helper.make_node("Add", ["m", "c_fs"], ["p"]),
             helper.make_node("Unsqueeze", ["p", "c_is"], ["u"]),
             helper.make_node("Clip", ["u", "", "c_max"], ["cl"]),
             helper.make_node("Gemm", ["cl", "gw", ""], ["gm"], transB=1, alpha=2.0, beta=1.0),
             helper.make_node("Dropout", ["gm"], ["y", ""])]
    gemm = nodes[10]
    gemm.attribute.sort(key=lambda a: a.name, reverse=True)  # transB, beta, alpha: not by name
    m = model(nodes, [vi("x", [3])], [vi("y", [1, 2])],
              [const("c_max", np.float32(4.0)), const("gw", np.ones((2, 3), np.float32))])
    save(m, os.path.join(d, "constants.onnx"))

    # Inputs that later opsets made out of attributes, held in initializers and Constant nodes.
    x4 = vi("x", [1, 2, 4, 4])
    nodes = [helper.make_node("Squeeze", ["x", "ax0"], ["sq"]),
             helper.make_node("Unsqueeze", ["sq", "ax0"], ["us"]),
             helper.make_node("Slice", ["us", "st", "en", "sax", "ssteps"], ["sl"]),
             helper.make_node("Pad", ["sl", "pads", "pv"], ["pd"], mode="constant"),
             helper.make_node("ReduceSum", ["pd", "rax"], ["rs"], keepdims=1),
             helper.make_node("Split", ["rs", "split"], ["s0", "s1"], axis=3),
             helper.make_node("Resize", ["x", "", "scales"], ["rz"], mode="nearest"),
             helper.make_node("Resize", ["x", "", "", "sizes"], ["rz2"], coordinate_transformation_mode="asymmetric",
                              nearest_mode="floor"),
             helper.make_node("Cast", ["rz2"], ["cs"], to=TensorProto.DOUBLE),
             helper.make_node("ConstantOfShape", ["cshape"], ["co"], value=helper.make_tensor("value", TensorProto.INT32, [1], [6]))]
    inits = [const("ax0", np.array([0], np.int64)), const("st", np.array([1], np.int32)),  # Slice: int32 indices
             const("en", np.array([3], np.int32)), const("sax", np.array([2], np.int32)),
             const("ssteps", np.array([1], np.int32)), const("pads", np.array([0, 0, 1, 1, 0, 0, 1, 1], np.int64)),
             const("pv", np.float32(0.5)), const("rax", np.array([1], np.int64)), const("split", np.array([1, 5], np.int64)),
             const("scales", np.array([1, 1, 2, 2], np.float32)), const("sizes", np.array([1, 2, 8, 8], np.int64)),
             const("cshape", np.array([2, 2], np.int64))]
    outs = [vi("s0", [1, 1, 4, 1]), vi("s1", [1, 1, 4, 5]), vi("rz", [1, 2, 8, 8]), vi("cs", [1, 2, 8, 8], TensorProto.DOUBLE),
            vi("co", [2, 2], TensorProto.INT32)]
    save(model(nodes, [x4], outs, inits), os.path.join(d, "operands.onnx"))

    # Native nodes: another domain (a TENSOR attribute); beside them the variadic Max-13 / Mean-13,
    # which are canonical.
    nodes = [helper.make_node("Scale", ["x"], ["s"], domain="org.nnbridge.custom", factor=2.0,
                              table=helper.make_tensor("t", F, [2], [0.5, 1.5]), tags=["a", "b"]),
             helper.make_node("Max", ["x", "s", "x"], ["mx"]),
             helper.make_node("Mean", ["mx", "x"], ["y"])]
    m = model(nodes, [vi("x", [2])], [vi("y", [2])],
              opsets=[helper.make_opsetid("", 17), helper.make_opsetid("org.nnbridge.custom", 3)])
    save(m, os.path.join(d, "native.onnx"), check=False)  # the checker knows no org.nnbridge.custom
    m.ir_version = 8

    # An initializer listed in graph.input (ONNX's overridable default), as IR 3 files list all.
    nodes = [helper.make_node("Add", ["x", "bias"], ["y"])]
    m = model(nodes, [vi("x", [2]), vi("bias", [2])], [vi("y", [2])], [const("bias", np.array([1, 2], np.float32))])
    save(m, os.path.join(d, "initializer_input.onnx"))


# ---------------------------------------------------------------- run
def pb(path, array):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(np.asarray(array)).SerializeToString())


def case(name, m, inputs, outputs):
    d = os.path.join(OUT, "run", name)
    save(m, os.path.join(d, "model.onnx"))
    for i, a in enumerate(inputs):
        pb(os.path.join(d, "test_data_set_0", "input_%d.pb" % i), a)
    for j, a in enumerate(outputs):
        pb(os.path.join(d, "test_data_set_0", "output_%d.pb" % j), a)


def run_cases():
    x = RNG.standard_normal((1, 2, 4, 4)).astype(np.float32)
    # Squeeze-13 / Unsqueeze-13 axes from an initializer: shapes only.
    nodes = [helper.make_node("Squeeze", ["x", "ax"], ["s"]), helper.make_node("Unsqueeze", ["s", "ax2"], ["y"])]
    m = model(nodes, [vi("x", [1, 2, 4, 4])], [vi("y", [1, 2, 1, 4, 4])],
              [const("ax", np.array([0], np.int64)), const("ax2", np.array([0, 2], np.int64))])
    case("squeeze_unsqueeze_axes_input", m, [x], [x.reshape(1, 2, 1, 4, 4)])
    # Slice-13: x[:, :, 1:3, ::2] through starts/ends/axes/steps inputs (a Constant node holds ends).
    nodes = [helper.make_node("Constant", [], ["en"], value=const("", np.array([3, 4], np.int64))),
             helper.make_node("Slice", ["x", "st", "en", "axes", "steps"], ["y"])]
    m = model(nodes, [vi("x", [1, 2, 4, 4])], [vi("y", [1, 2, 2, 2])],
              [const("st", np.array([1, 0], np.int64)), const("axes", np.array([2, 3], np.int64)),
               const("steps", np.array([1, 2], np.int64))])
    case("slice_inputs", m, [x], [x[:, :, 1:3, 0:4:2]])
    # Pad-13 constant 0.5 on H and W, numpy.pad's constant mode.
    nodes = [helper.make_node("Pad", ["x", "pads", "v"], ["y"], mode="constant")]
    m = model(nodes, [vi("x", [1, 2, 4, 4])], [vi("y", [1, 2, 6, 7])],
              [const("pads", np.array([0, 0, 1, 2, 0, 0, 1, 1], np.int64)), const("v", np.float32(0.5))])
    case("pad_inputs", m, [x], [np.pad(x, ((0, 0), (0, 0), (1, 1), (2, 1)), constant_values=0.5)])
    # Clip-13 with min and max from initializers: numpy.clip.
    nodes = [helper.make_node("Clip", ["x", "lo", "hi"], ["y"])]
    m = model(nodes, [vi("x", [1, 2, 4, 4])], [vi("y", [1, 2, 4, 4])], [const("lo", np.float32(-0.5)), const("hi", np.float32(0.25))])
    case("clip_inputs", m, [x], [np.clip(x, -0.5, 0.25)])
    # ReduceSum-13 over axes [1, 3] from an input, keepdims 0.
    nodes = [helper.make_node("ReduceSum", ["x", "axes"], ["y"], keepdims=0)]
    m = model(nodes, [vi("x", [1, 2, 4, 4])], [vi("y", [1, 4])], [const("axes", np.array([1, 3], np.int64))])
    case("reduce_sum_axes_input", m, [x], [x.sum(axis=(1, 3))])
    # Split-13 along H into 1 and 3 rows.
    nodes = [helper.make_node("Split", ["x", "split"], ["a", "b"], axis=2)]
    m = model(nodes, [vi("x", [1, 2, 4, 4])], [vi("a", [1, 2, 1, 4]), vi("b", [1, 2, 3, 4])],
              [const("split", np.array([1, 3], np.int64))])
    case("split_input", m, [x], [x[:, :, :1], x[:, :, 1:]])
    # Resize-13 nearest, asymmetric, floor, scales 2: out[i] = in[floor(i / 2)] (numpy.repeat).
    nodes = [helper.make_node("Resize", ["x", "", "scales"], ["y"], mode="nearest",
                              coordinate_transformation_mode="asymmetric", nearest_mode="floor")]
    m = model(nodes, [vi("x", [1, 2, 4, 4])], [vi("y", [1, 2, 8, 8])], [const("scales", np.array([1, 1, 2, 2], np.float32))])
    case("resize_scales_nearest", m, [x], [x.repeat(2, axis=2).repeat(2, axis=3)])
    # ConstantOfShape-9 with an int32 value: numpy.full.
    nodes = [helper.make_node("ConstantOfShape", ["shape"], ["y"], value=helper.make_tensor("value", TensorProto.INT32, [1], [6]))]
    m = model(nodes, [], [vi("y", [2, 3], TensorProto.INT32)], [const("shape", np.array([2, 3], np.int64))])
    os.makedirs(os.path.join(OUT, "run", "constant_of_shape_int32"), exist_ok=True)
    case("constant_of_shape_int32", m, [], [np.full((2, 3), 6, np.int32)])
    # Cast-13 float -> int32 truncates toward zero (ONNX Cast; numpy astype does the same).
    v = np.array([[1.7, -1.7, 2.5, -0.2]], np.float32)
    nodes = [helper.make_node("Cast", ["x"], ["y"], to=TensorProto.INT32)]
    case("cast_to_int32", model(nodes, [vi("x", [1, 4])], [vi("y", [1, 4], TensorProto.INT32)]), [v], [v.astype(np.int32)])
    # Gemm-13: alpha * A @ B^T + beta * C, attributes in an unsorted order.
    a = RNG.standard_normal((2, 3)).astype(np.float32)
    b = RNG.standard_normal((4, 3)).astype(np.float32)
    c = RNG.standard_normal((4,)).astype(np.float32)
    node = helper.make_node("Gemm", ["a", "b", "c"], ["y"], transB=1, alpha=0.5, beta=2.0)
    node.attribute.sort(key=lambda t: t.name, reverse=True)
    m = model([node], [vi("a", [2, 3])], [vi("y", [2, 4])], [const("b", b), const("c", c)])
    case("gemm_transb", m, [a], [0.5 * a @ b.T + 2.0 * c])
    # Conv-11 3x3, pads 1, stride 2, with bias: the sum over the window written out.
    w = RNG.standard_normal((3, 2, 3, 3)).astype(np.float32)
    bias = RNG.standard_normal((3,)).astype(np.float32)
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    y = np.zeros((1, 3, 2, 2), np.float32)
    for o in range(3):
        for i in range(2):
            for j in range(2):
                y[0, o, i, j] = (xp[0, :, 2 * i:2 * i + 3, 2 * j:2 * j + 3] * w[o]).sum() + bias[o]
    nodes = [helper.make_node("Conv", ["x", "w", "bias"], ["y"], kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2])]
    case("conv_stride2_pad1", model(nodes, [vi("x", [1, 2, 4, 4])], [vi("y", [1, 3, 2, 2])], [const("w", w), const("bias", bias)]),
         [x], [y])
    # An opset-13 model (Softmax-13, Unsqueeze-13, ReduceSum-13): read through ONNX's version converter.
    nodes = [helper.make_node("Softmax", ["x"], ["s"], axis=1),
             helper.make_node("ReduceSum", ["s", "axes"], ["y"], keepdims=1)]
    m = model(nodes, [vi("x", [2, 5])], [vi("y", [2, 1])], [const("axes", np.array([1], np.int64))], opset=13)
    xs = RNG.standard_normal((2, 5)).astype(np.float32)
    e = np.exp(xs - xs.max(axis=1, keepdims=True))
    case("opset13_softmax_reduce_sum", m, [xs], [(e / e.sum(axis=1, keepdims=True)).sum(axis=1, keepdims=True)])
    # Squeeze-13 whose axes is a graph input, not a constant: bound when the model runs.
    nodes = [helper.make_node("Squeeze", ["x", "axes"], ["y"])]
    m = model(nodes, [vi("x", [1, 2, 4, 4]), vi("axes", [1], TensorProto.INT64)], [vi("y", [2, 4, 4])])
    case("squeeze_axes_graph_input", m, [x, np.array([0], np.int64)], [x[0]])
    # Resize-13 by a scale whose product is not whole: floor(3 * 1.5) = 4 rows and columns, nearest
    # asymmetric floor reads in[floor(i / 1.5)] = rows 0, 0, 1, 2.
    x3 = RNG.standard_normal((1, 1, 3, 3)).astype(np.float32)
    nodes = [helper.make_node("Resize", ["x", "", "scales"], ["y"], mode="nearest",
                              coordinate_transformation_mode="asymmetric", nearest_mode="floor")]
    m = model(nodes, [vi("x", [1, 1, 3, 3])], [vi("y", [1, 1, 4, 4])], [const("scales", np.array([1, 1, 1.5, 1.5], np.float32))])
    rows = [0, 0, 1, 2]
    case("resize_fractional_scale", m, [x3], [x3[:, :, rows][:, :, :, rows]])
    # An opset-11 model: Squeeze-11 / Unsqueeze-11 / ReduceSum-11 take axes as attributes; the
    # converter makes them inputs (opset 13), as the canonical ops take them.
    nodes = [helper.make_node("Squeeze", ["x"], ["s"], axes=[0]),
             helper.make_node("ReduceSum", ["s"], ["r"], axes=[2], keepdims=0),
             helper.make_node("Unsqueeze", ["r"], ["y"], axes=[1])]
    m = model(nodes, [vi("x", [1, 2, 4, 4])], [vi("y", [2, 1, 4])], opset=11)
    case("opset11_axes_attributes", m, [x], [x[0].sum(axis=2)[:, None, :]])
    # An opset-11 model with large initializers (over the 4 KiB the reader holds aside while ONNX's
    # converter runs, convert.cc): W in raw_data, the bias in float_data; the Reshape's shape is
    # small and stays for shape inference; Unsqueeze-11's axes attribute becomes an input.
    w = RNG.standard_normal((64, 1024)).astype(np.float32)
    bias = RNG.standard_normal((1024,)).astype(np.float32)
    xl = RNG.standard_normal((2, 64)).astype(np.float32)
    nodes = [helper.make_node("MatMul", ["x", "w"], ["m"]), helper.make_node("Add", ["m", "bias"], ["a"]),
             helper.make_node("Reshape", ["a", "shape"], ["r"]), helper.make_node("Unsqueeze", ["r"], ["y"], axes=[0])]
    m = model(nodes, [vi("x", [2, 64])], [vi("y", [1, 2, 32, 32])],
              [const("w", w), helper.make_tensor("bias", TensorProto.FLOAT, [1024], bias.tolist()),
               const("shape", np.array([2, 32, 32], np.int64))], opset=11)
    assert len(m.graph.initializer[1].float_data) == 1024
    case("opset11_large_initializers", m, [xl], [((xl.astype(np.float64) @ w + bias).astype(np.float32)).reshape(1, 2, 32, 32)])
    # An initializer listed as a graph input (its default value is used): y = x + bias.
    nodes = [helper.make_node("Add", ["x", "bias"], ["y"])]
    m = model(nodes, [vi("x", [2]), vi("bias", [2])], [vi("y", [2])], [const("bias", np.array([1, 2], np.float32))])
    xv = np.array([0.5, -1.0], np.float32)
    case("initializer_as_input", m, [xv], [xv + np.array([1, 2], np.float32)])


# ---------------------------------------------------------------- refused
def refused():
    d = os.path.join(OUT, "refused")
    want = {}

    # The identifiers (docs/errors.md) say what is wrong with each model: a part of ONNX nnbridge does
    # not implement (unsupported.306), a data type it has no dtype for (.303), an opset it cannot
    # convert (.304), an operator outside every schema (.307), a name that refers to nothing
    # (invalid.401), an operator the imported opset does not have yet (invalid.400).
    feature, dtype, version, unknown_op = ("nnbridge.unsupported." + n for n in ("306", "303", "304", "307"))

    def refuse(name, m, id, where, contains=None):
        save(m, os.path.join(d, name + ".onnx"), check=False)
        want[name] = {"id": id, "where": where, "contains": contains}

    ident = [helper.make_node("Identity", ["x"], ["y"])]
    base = lambda: model(list(ident), [vi("x", [2])], [vi("y", [2])])
    m = base()
    m.functions.append(helper.make_function("org.test", "F", ["a"], ["b"], [helper.make_node("Identity", ["a"], ["b"])],
                                            [helper.make_opsetid("", 17)]))
    m.opset_import.append(helper.make_opsetid("org.test", 1))
    refuse("functions", m, feature, "functions")
    m = base()
    m.training_info.add()
    refuse("training_info", m, feature, "training_info")
    seq = helper.make_tensor_sequence_value_info("x", F, [2])
    refuse("sequence_input", model([helper.make_node("Identity", ["x"], ["y"])], [seq], [seq]),
           feature, "graph.input[0].type.sequence_type")
    mp = onnx.ValueInfoProto(name="x")
    mp.type.map_type.key_type = TensorProto.INT64
    mp.type.map_type.value_type.CopyFrom(helper.make_tensor_type_proto(F, [1]))
    refuse("map_input", model(list(ident), [mp], [vi("y", [2])]), feature, "graph.input[0].type.map_type")
    opt = helper.make_value_info("x", helper.make_optional_type_proto(helper.make_tensor_type_proto(F, [2])))
    refuse("optional_input", model([helper.make_node("Identity", ["x"], ["y"])], [opt], [opt]),
           feature, "graph.input[0].type.optional_type")
    sp = helper.make_value_info("x", helper.make_sparse_tensor_type_proto(F, [2]))
    refuse("sparse_input", model(list(ident), [sp], [vi("y", [2])]), feature, "graph.input[0].type.sparse_tensor_type")
    branch = lambda v: helper.make_graph([helper.make_node("Constant", [], ["o"], value=const("", np.array([v], np.float32)))],
                                         "b", [], [vi("o", [1])])
    nodes = [helper.make_node("If", ["c"], ["y"], then_branch=branch(1.0), else_branch=branch(0.0))]
    refuse("if_subgraph", model(nodes, [vi("c", [], TensorProto.BOOL)], [vi("y", [1])]), feature,
           "graph.node[0].attribute[0].g")
    m = base()
    m.graph.sparse_initializer.append(helper.make_sparse_tensor(const("v", np.array([1.0], np.float32)),
                                                                const("i", np.array([0], np.int64)), [2]))
    refuse("sparse_initializer", m, feature, "graph.sparse_initializer")
    m = base()
    m.graph.quantization_annotation.add().tensor_name = "x"
    refuse("quantization_annotation", m, feature, "graph.quantization_annotation")
    m = model([helper.make_node("Identity", ["s"], ["y"])], [], [vi("y", [1], TensorProto.STRING)],
              [helper.make_tensor("s", TensorProto.STRING, [1], [b"text"])])
    refuse("string_initializer", m, dtype, "graph.initializer[0].data_type")
    refuse("string_constant", model([helper.make_node("Constant", [], ["y"], value_string="text")], [],
                                    [vi("y", [], TensorProto.STRING)]), dtype, "graph.node[0].attribute[0]")
    # ONNX 1.12's version converter has adapters for ai.onnx only: an opset-13 model with a node of
    # another domain cannot be brought to opset 17 (it threw a bare std::out_of_range).
    refuse("custom_domain_opset13", model([helper.make_node("Scale", ["x"], ["y"], domain="org.example")],
                                          [vi("x", [2])], [vi("y", [2])],
                                          opsets=[helper.make_opsetid("", 13), helper.make_opsetid("org.example", 1)]),
           version, "opset_import", "org.example")
    # An operator ONNX does not define, left in the default domain of an opset-13 model: onnx::checker
    # calls the model invalid, but for nnbridge it is an operator it cannot convert or run, as the
    # same operator is in an opset-17 model: Unsupported (an unknown operator), naming the node.
    refuse("unknown_op_opset13", model([helper.make_node("NoSuchOp", ["x"], ["y"], name="n0")], [vi("x", [2])], [vi("y", [2])],
                                       opset=13),
           unknown_op, "graph.node[0]", "NoSuchOp")
    # An operator from a later opset than the model imports (Celu is opset 12's): the model
    # contradicts itself, Invalid.
    refuse("later_op_opset11", model([helper.make_node("Celu", ["x"], ["y"])], [vi("x", [2])], [vi("y", [2])], opset=11),
           "nnbridge.invalid.400", "graph.node[0]", "Celu")
    refuse("complex64_input", model(list(ident), [vi("x", [2], TensorProto.COMPLEX64)], [vi("y", [2], TensorProto.COMPLEX64)]),
           dtype, "graph.input[0].type.tensor_type.elem_type", "COMPLEX64")
    # From IR version 3 on a model imports the operator sets its nodes come from (ONNX's IR.md);
    # onnx.checker refuses one without opset_import, and so does nnbridge, naming the field.
    m = base()
    del m.opset_import[:]
    assert m.ir_version >= 3
    checker_refuses(m, "must specify opset_import")
    refuse("no_opset_import", m, "nnbridge.invalid.400", "opset_import", "opset_import")
    # Every model states its IR version (onnx.checker: "does not have an ir_version set properly").
    m = base()
    m.ClearField("ir_version")
    checker_refuses(m, "ir_version")
    refuse("no_ir_version", m, "nnbridge.invalid.400", "ir_version", "IR version")
    # Before IR version 3 a model imports no opset and its operators are opset 1's (IR.md; the
    # checker assumes opset 1): Celu (opset 12) is then an operator the model's opset lacks, as in
    # later_op_opset11 above, not an opset-17 Celu.
    m = model([helper.make_node("Celu", ["x"], ["y"])], [vi("x", [2])], [vi("y", [2])])
    m.ir_version = 2
    del m.opset_import[:]
    checker_refuses(m, "domain_version of 1")
    refuse("ir2_no_opset_import_celu", m, "nnbridge.invalid.400", "graph.node[0]", "Celu")
    m = base()
    m.graph.node[0].input[0] = "nowhere"
    refuse("dangling_input", m, "nnbridge.invalid.401", "graph.node[0].input[0]", "nowhere")
    # onnx::checker lets a graph output no node produces pass, and ONNX's version converter then
    # crashes: nnbridge refuses it before converting.
    m = model(list(ident), [vi("x", [2])], [vi("y", [2])], opset=13)
    m.graph.output[0].name = "nothing"
    refuse("dangling_output_opset13", m, "nnbridge.invalid.401", "graph.output[0]", "nothing")
    with open(os.path.join(OUT, "refused.json"), "w") as f:
        json.dump(want, f, indent=1, sort_keys=True)


# ---------------------------------------------------------------- external data
def checked():
    d = os.path.join(OUT, "checked")
    want = {}

    def finding(name, m, says, id, where, contains):
        checker_refuses(m, says)
        save(m, os.path.join(d, name + ".onnx"), check=False)
        want[name] = {"id": id, "where": where, "contains": contains}

    # An Add with three inputs has no canonical form (Add takes two): read as onnx.Add, it is an
    # arity error (docs/errors.md: Arity, invalid.402), as onnx.checker says.
    finding("add_three_inputs", model([helper.make_node("Add", ["a", "b", "c"], ["y"])], [vi(k, [2]) for k in "abc"],
                                      [vi("y", [2])]),
            "input size 3 not in range [min=2, max=2]", "nnbridge.invalid.402", "nodes[0].inputs", "Add takes 2 inputs")
    # A Relu with two outputs.
    finding("relu_two_outputs", model([helper.make_node("Relu", ["x"], ["y", "z"])], [vi("x", [2])], [vi("y", [2]), vi("z", [2])]),
            "output size 2 not in range [min=1, max=1]", "nnbridge.invalid.402", "nodes[0].outputs", "Relu takes 1 output (")
    with open(os.path.join(OUT, "checked.json"), "w") as f:
        json.dump(want, f, indent=1, sort_keys=True)


def external():
    d = os.path.join(OUT, "external")
    os.makedirs(d, exist_ok=True)
    w = RNG.standard_normal((64, 32)).astype(np.float32)
    b = RNG.standard_normal((64,)).astype(np.float32)
    nodes = [helper.make_node("Gemm", ["x", "w", "b"], ["y"], transB=1)]
    m = model(nodes, [vi("x", [2, 32])], [vi("y", [2, 64])], [const("w", w), const("b", b)])
    onnx.checker.check_model(m, full_check=True)
    onnx.save_model(m, os.path.join(d, "model.onnx"), save_as_external_data=True, all_tensors_to_one_file=True,
                    location="weights.bin", size_threshold=0)
    x = RNG.standard_normal((2, 32)).astype(np.float32)
    np.save(os.path.join(d, "x.npy"), x)
    np.save(os.path.join(d, "y.npy"), x @ w.T + b)
    # The same at opset 13: read through ONNX's version converter, whose IR drops external references.
    d13 = os.path.join(OUT, "external13")
    os.makedirs(d13, exist_ok=True)
    m = model([helper.make_node("MatMul", ["x", "w"], ["y"])], [vi("x", [2, 64])], [vi("y", [2, 32])],
              [const("w", w)], opset=13)
    onnx.save_model(m, os.path.join(d13, "model.onnx"), save_as_external_data=True, location="w.bin", size_threshold=0)
    x13 = RNG.standard_normal((2, 64)).astype(np.float32)
    np.save(os.path.join(d13, "x.npy"), x13)
    np.save(os.path.join(d13, "y.npy"), x13 @ w)


# ---------------------------------------------------------------- to Arm NN
def to_armnn():
    def arm(name, nodes, x, y, inits=(), value_info=()):
        d = os.path.join(OUT, "to_armnn", name)
        # No value_info for intermediates unless given: as PyTorch's exporter writes them.
        m = model(nodes, [vi("x", list(x.shape))], [vi("y", list(y.shape))], inits, value_info=list(value_info))
        save(m, os.path.join(d, "model.onnx"))
        np.save(os.path.join(d, "x.npy"), x)
        np.save(os.path.join(d, "y.npy"), np.ascontiguousarray(y, np.float32))

    x3 = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    # Transpose-13 without perm reverses the dims (numpy.transpose's default too).
    arm("transpose_default_perm", [helper.make_node("Transpose", ["x"], ["y"])], x3, x3.transpose())
    arm("reshape_shape_input", [helper.make_node("Reshape", ["x", "s"], ["y"])], x3, x3.reshape(6, 4),
        [const("s", np.array([-1, 4], np.int64))])
    x2 = RNG.standard_normal((2, 3)).astype(np.float32)
    arm("tile_repeats_input", [helper.make_node("Tile", ["x", "r"], ["y"])], x2, np.tile(x2, (2, 1)),
        [const("r", np.array([2, 1], np.int64))])
    # MaxPool-12 2x2, stride 1, SAME_UPPER on 5x5: pad one row and column at the end (-inf).
    xp = RNG.standard_normal((1, 1, 5, 5)).astype(np.float32)
    padded = np.pad(xp, ((0, 0), (0, 0), (0, 1), (0, 1)), constant_values=-np.inf)
    pooled = np.array([[padded[0, 0, i:i + 2, j:j + 2].max() for j in range(5)] for i in range(5)], np.float32)
    arm("maxpool_same_upper", [helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[2, 2], auto_pad="SAME_UPPER")],
        xp, pooled.reshape(1, 1, 5, 5))
    # Relu then Sigmoid; the intermediate has no value_info.
    xr = RNG.standard_normal((1, 4)).astype(np.float32)
    arm("no_value_info", [helper.make_node("Relu", ["x"], ["t"]), helper.make_node("Sigmoid", ["t"], ["y"])], xr,
        1 / (1 + np.exp(-np.maximum(xr, 0))))
    # Conv group 2: each half of the channels with its own 3x3 filters, summed over the window.
    xc = RNG.standard_normal((1, 2, 5, 5)).astype(np.float32)
    w = RNG.standard_normal((4, 1, 3, 3)).astype(np.float32)
    yc = np.zeros((1, 4, 3, 3), np.float32)
    for o in range(4):
        for i in range(3):
            for j in range(3):
                yc[0, o, i, j] = (xc[0, o // 2, i:i + 3, j:j + 3] * w[o, 0]).sum()
    arm("conv_group2", [helper.make_node("Conv", ["x", "w"], ["y"], group=2)], xc, yc, [const("w", w)])
    # DepthToSpace DCR (ONNX's formula: reshape to [b, bs, bs, c / bs^2, h, w], transpose 0,3,4,1,5,2).
    xd = RNG.standard_normal((1, 8, 2, 2)).astype(np.float32)
    yd = xd.reshape(1, 2, 2, 2, 2, 2).transpose(0, 3, 4, 1, 5, 2).reshape(1, 2, 4, 4)
    arm("depth_to_space_dcr", [helper.make_node("DepthToSpace", ["x"], ["y"], blocksize=2, mode="DCR")], xd, yd)
    # Identity-16 in the middle and in front of the output: the values pass unchanged.
    arm("identity_chain", [helper.make_node("Identity", ["x"], ["a"]), helper.make_node("Relu", ["a"], ["b"]),
                           helper.make_node("Identity", ["b"], ["y"])], xr, np.maximum(xr, 0))
    # GlobalAveragePool-1: the mean over H and W; GlobalMaxPool-1 the max.
    xg = RNG.standard_normal((1, 3, 4, 5)).astype(np.float32)
    arm("global_average_pool", [helper.make_node("GlobalAveragePool", ["x"], ["y"])], xg, xg.mean(axis=(2, 3), keepdims=True))
    arm("global_max_pool", [helper.make_node("GlobalMaxPool", ["x"], ["y"])], xg, xg.max(axis=(2, 3), keepdims=True))
    # Flatten-13 axis 1, then Unsqueeze-13 and Squeeze-13 with axes inputs: numpy's reshapes.
    arm("flatten_unsqueeze_squeeze", [helper.make_node("Flatten", ["x"], ["f"], axis=1),
                                      helper.make_node("Unsqueeze", ["f", "ax"], ["u"]),
                                      helper.make_node("Squeeze", ["u", "ax"], ["y"])],
        xg, xg.reshape(1, 60), [const("ax", np.array([0], np.int64))])
    # ConvTranspose-11, W [C_in, C_out, kH, kW] (Arm NN's TransposeConvolution2d takes [O, I, H, W]):
    # each input element scatters x * W[c, o] into the full (H - 1) * s + k output, then the pads
    # are cropped; plus B.
    xt = RNG.standard_normal((1, 3, 3, 3)).astype(np.float32)
    wt = RNG.standard_normal((3, 2, 3, 3)).astype(np.float32)
    bt = RNG.standard_normal(2).astype(np.float32)
    full = np.zeros((1, 2, 7, 7), np.float64)
    for c in range(3):
        for i in range(3):
            for j in range(3):
                full[0, :, 2 * i:2 * i + 3, 2 * j:2 * j + 3] += xt[0, c, i, j] * wt[c].astype(np.float64)
    yt = full[:, :, 1:6, 1:6] + bt.reshape(1, 2, 1, 1)
    arm("conv_transpose_stride2_pad1", [helper.make_node("ConvTranspose", ["x", "w", "b"], ["y"], strides=[2, 2], pads=[1, 1, 1, 1])],
        xt, yt, [const("w", wt), const("b", bt)])

    d = os.path.join(OUT, "to_armnn_refused")
    want = {}

    def refuse(name, nodes, xshape, yshape, contains, inits=()):
        save(model(nodes, [vi("x", xshape)], [vi("y", yshape)], inits), os.path.join(d, name + ".onnx"))
        want[name + ".onnx"] = contains

    # Arm NN's DepthToSpace is DCR only (DepthToSpaceDescriptor has a block size and a layout).
    refuse("depth_to_space_crd", [helper.make_node("DepthToSpace", ["x"], ["y"], blocksize=2, mode="CRD")],
           [1, 8, 2, 2], [1, 2, 4, 4], "mode")
    # GatherNd has no batch dims in Arm NN (GatherNdLayer has no descriptor).
    refuse("gathernd_batch_dims", [helper.make_node("GatherND", ["x", "i"], ["y"], batch_dims=1)], [2, 3, 4], [2, 4],
           "batch_dims", [const("i", np.array([[1], [2]], np.int64))])
    # TransposeConvolution2dDescriptor has no groups.
    refuse("conv_transpose_group2", [helper.make_node("ConvTranspose", ["x", "w"], ["y"], group=2)], [1, 4, 3, 3],
           [1, 2, 5, 5], "group", [const("w", RNG.standard_normal((4, 1, 3, 3)).astype(np.float32))])
    with open(os.path.join(OUT, "to_armnn_refused.json"), "w") as f:
        json.dump(want, f, indent=1, sort_keys=True)


lossless()
run_cases()
to_armnn()
refused()
checked()
external()
