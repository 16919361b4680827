#!/usr/bin/python3
"""Writes the ONNX reader's regression inputs, NAME.onnx, into this folder.

Each is a small hand-made model that once crashed the reader, overflowed,
hung, or was wrongly read: a size below 0 read as unknown, a TopK whose k
gave a (4, 9223372036854775807) result, window arithmetic that UBSan
reported, an axis taken from past the tensor's rank.  NAME.err beside each
holds the exact standard error of `byoc partition NAME.onnx` run here; an
empty one means the model loads and partitions cleanly.  Uses python3-onnx
only:  cd tests/fuzz/regressions/onnx && /usr/bin/python3 gen.py
"""
import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as H
from onnx import numpy_helper as N

I64_MAX = 2**63 - 1
I64_MIN = -2**63
MODELS = {}


def model(fn):
    MODELS[fn.__name__] = fn
    return fn


def vi(name, elem=T.FLOAT, shape=None):
    return H.make_tensor_value_info(name, elem, shape)


def ints(name, values, shape=None):
    a = np.array(values, dtype=np.int64)
    return N.from_array(a if shape is None else a.reshape(shape), name)


def floats(name, values, shape=None):
    a = np.array(values, dtype=np.float32)
    return N.from_array(a if shape is None else a.reshape(shape), name)


def build(nodes, inputs, outputs, inits=(), opset=17, value_info=(), extra_opsets=()):
    g = H.make_graph(nodes, "g", inputs, outputs, initializer=list(inits),
                     value_info=list(value_info))
    m = onnx.ModelProto()
    m.ir_version = 8
    m.graph.CopyFrom(g)
    for domain, version in [("", opset)] + list(extra_opsets):
        o = m.opset_import.add()
        o.domain = domain
        o.version = version
    return m


def one(op, inputs, inits=(), x=(4, 9), opset=17, outputs=("y",), domain="", **attrs):
    """op on x and the initializers, its outputs declared without a shape."""
    node = H.make_node(op, list(inputs), list(outputs), domain=domain, **attrs)
    extra = [(domain, 1)] if domain else []
    return build([node], [vi("x", T.FLOAT, list(x))], [vi(o) for o in outputs], inits,
                 opset=opset, extra_opsets=extra)


def relu_with_input_dims(dims):
    m = build([H.make_node("Relu", ["x"], ["y"])], [vi("x", T.FLOAT, [1, 2])], [vi("y")])
    d = m.graph.input[0].type.tensor_type.shape.dim
    del d[:]
    for v in dims:
        d.add().dim_value = v
    return m


# ---- declared sizes and element counts (runtime/onnx.c) ----------------------------

@model
def input_dim_negative():
    return relu_with_input_dims([1, -5])


@model
def input_dim_int64_min():
    return relu_with_input_dims([1, I64_MIN])


@model
def output_dim_negative():
    m = build([H.make_node("Relu", ["x"], ["y"])], [vi("x", T.FLOAT, [1, 4])],
              [vi("y", T.FLOAT, [1, 4])])
    m.graph.output[0].type.tensor_type.shape.dim[1].dim_value = -5
    return m


@model
def value_info_dim_negative():
    m = build([H.make_node("Relu", ["x"], ["h"]), H.make_node("Relu", ["h"], ["y"])],
              [vi("x", T.FLOAT, [1, 4])], [vi("y")], value_info=[vi("h", T.FLOAT, [1, 4])])
    m.graph.value_info[0].type.tensor_type.shape.dim[0].dim_value = -1
    return m


@model
def input_elements_overflow():
    return relu_with_input_dims([2**32, 2**32, 2**32])


@model
def initializer_elements_overflow():
    w = onnx.TensorProto()
    w.name = "w"
    w.data_type = T.FLOAT
    w.dims.extend([2**40, 2**40])
    return build([H.make_node("Add", ["x", "w"], ["y"])], [vi("x", T.FLOAT, [2])], [vi("y")], [w])


@model
def initializer_raw_data_short():
    # 2^40 elements claimed, 4 bytes given: an error, not an allocation.
    w = onnx.TensorProto()
    w.name = "w"
    w.data_type = T.FLOAT
    w.dims.extend([2**40])
    w.raw_data = b"\0\0\0\0"
    return build([H.make_node("Add", ["x", "w"], ["y"])], [vi("x", T.FLOAT, [2])], [vi("y")], [w])


@model
def constant_elements_overflow():
    t = onnx.TensorProto()
    t.name = "v"
    t.data_type = T.FLOAT
    t.dims.extend([3037000500, 3037000500])
    return build([H.make_node("Constant", [], ["y"], value=t)], [], [vi("y")])


@model
def sparse_constant_dim_negative():
    values = floats("v", [1.0])
    indices = ints("i", [0])
    sp = H.make_sparse_tensor(values, indices, [-5])
    return build([H.make_node("Constant", [], ["y"], sparse_value=sp)], [], [vi("y")])


@model
def sparse_initializer_elements_overflow():
    sp = H.make_sparse_tensor(floats("s", [1.0]), ints("i", [0]), [2**40, 2**40])
    m = build([H.make_node("Relu", ["x"], ["y"])], [vi("x", T.FLOAT, [2])], [vi("y")])
    m.graph.sparse_initializer.append(sp)
    return m


# ---- opset versions ---------------------------------------------------------------

@model
def opset_negative():
    return build([H.make_node("Relu", ["x"], ["y"])], [vi("x", T.FLOAT, [1, 4])], [vi("y")],
                 opset=-5)


@model
def opset_int64_max():
    return build([H.make_node("Relu", ["x"], ["y"])], [vi("x", T.FLOAT, [1, 4])], [vi("y")],
                 opset=I64_MAX)


@model
def opset_past_newest():
    # Read as the newest byoc knows: loads.
    return build([H.make_node("Relu", ["x"], ["y"])], [vi("x", T.FLOAT, [1, 4])], [vi("y")],
                 opset=30)


# ---- sizes from attributes and constants (runtime/onnx_ops.c) -----------------------

@model
def topk_k_int64_max():
    return one("TopK", ["x", "k"], [ints("k", [I64_MAX])], outputs=("v", "i"), axis=1)


@model
def topk_k_past_axis():
    return one("TopK", ["x", "k"], [ints("k", [10])], outputs=("v", "i"), axis=1)


@model
def topk_k_negative():
    return one("TopK", ["x", "k"], [ints("k", [-3])], outputs=("v", "i"), axis=1)


@model
def reshape_shape_overflow():
    return one("Reshape", ["x", "s"], [ints("s", [2**62, 4, 0])], x=(1, 3, 224, 224))


@model
def maxpool_pads_int64_max():
    return one("MaxPool", ["x"], x=(1, 4, 8, 8), kernel_shape=[2, 2], pads=[I64_MAX, 0, 0, 0])


@model
def maxpool_same_strides_int64_max():
    # A valid stride: one output row.  Its SAME padding overflowed.
    return one("MaxPool", ["x"], x=(1, 4, 8, 8), kernel_shape=[2, 2], strides=[I64_MAX, 1],
               auto_pad="SAME_UPPER")


@model
def avgpool_same_dilated_overflow():
    return one("AveragePool", ["x"], x=(1, 4, 8, 8), kernel_shape=[2**40, 2],
               dilations=[2**40, 1], auto_pad="SAME_LOWER")


@model
def maxpool_window_past_input():
    return one("MaxPool", ["x"], x=(1, 4, 8, 8), kernel_shape=[9, 2])


@model
def lppool_same_dilated_overflow():
    return one("LpPool", ["x"], x=(1, 4, 8, 8), kernel_shape=[2**40, 2], dilations=[2**40, 1],
               auto_pad="SAME_LOWER", opset=18)


@model
def global_lppool_empty_axis():
    # A window of 0 divided by zero; now an opaque call with a note.
    return one("GlobalLpPool", ["x"], x=(1, 4, 0, 6))


W4 = floats("w", np.ones(4 * 4 * 3 * 3), (4, 4, 3, 3))


@model
def conv_group_not_dividing():
    return one("Conv", ["x", "w"], [W4], x=(1, 4, 8, 8), group=3)


@model
def conv_kernel_shape_not_weight():
    return one("Conv", ["x", "w"], [W4], x=(1, 4, 8, 8), kernel_shape=[I64_MAX, 3])


@model
def convtranspose_group_int64_max():
    return one("ConvTranspose", ["x", "w"], [W4], x=(1, 4, 8, 8), group=I64_MAX)


@model
def convtranspose_output_shape_int64_min():
    return one("ConvTranspose", ["x", "w"], [W4], x=(1, 4, 8, 8), output_shape=[I64_MIN, 8])


@model
def convtranspose_pads_leave_nothing():
    return one("ConvTranspose", ["x", "w"], [W4], x=(1, 4, 8, 8), pads=[2**40, 0, 2**40, 0])


@model
def unsqueeze_axis_out_of_range():
    return one("Unsqueeze", ["x", "a"], [ints("a", [-5])])


@model
def unsqueeze_axis_twice():
    return one("Unsqueeze", ["x", "a"], [ints("a", [1, -3])])


@model
def squeeze_axis_out_of_range():
    return one("Squeeze", ["x", "a"], [ints("a", [I64_MIN])])


@model
def concat_axis_int64_max():
    return one("Concat", ["x", "x"], axis=I64_MAX)


@model
def gather_index_past_axis():
    return one("Gather", ["x", "i"], [ints("i", [I64_MAX])], axis=1)


@model
def scatter_elements_axis_out_of_range():
    return one("ScatterElements", ["x", "i", "u"], [ints("i", [[0]]), floats("u", [[1.0]])],
               axis=I64_MAX)


@model
def slice_axes_int64_min():
    return one("Slice", ["x", "s", "e", "a"], [ints("s", [0]), ints("e", [5]),
                                              ints("a", [I64_MIN])])


@model
def split_sizes_negative():
    return one("Split", ["x", "s"], [ints("s", [-5, 14])], outputs=("a", "b"), axis=1)


@model
def pad_crop_past_axis():
    return one("Pad", ["x", "p"], [ints("p", [0, -5, 0, -5])])


@model
def pad_int64_max():
    return one("Pad", ["x", "p"], [ints("p", [0, I64_MAX, 0, 0])])


@model
def tile_repeats_overflow():
    return one("Tile", ["x", "r"], [ints("r", [1, I64_MAX])])


@model
def tile_repeats_negative():
    return one("Tile", ["x", "r"], [ints("r", [1, -5])])


@model
def expand_shape_int64_min():
    return one("Expand", ["x", "s"], [ints("s", [I64_MIN, 4, 9])])


@model
def expand_elements_overflow():
    return one("Expand", ["x", "s"], [ints("s", [I64_MAX, I64_MAX, 4, 9])])


@model
def constant_of_shape_negative():
    return build([H.make_node("ConstantOfShape", ["s"], ["y"])], [], [vi("y")],
                 [ints("s", [-5, 3])])


@model
def constant_of_shape_overflow():
    return build([H.make_node("ConstantOfShape", ["s"], ["y"])], [], [vi("y")],
                 [ints("s", [I64_MAX, 3])])


@model
def depth_to_space_blocksize_int64_max():
    return one("DepthToSpace", ["x"], x=(1, 4, 8, 8), blocksize=I64_MAX)


@model
def resize_sizes_int64_min():
    return one("Resize", ["x", "", "", "z"], [ints("z", [1, 4, I64_MIN, 8])], x=(1, 4, 8, 8))


@model
def upsample_scale_negative():
    return one("Upsample", ["x", "s"], [floats("s", [1, 1, -5, 1])], x=(1, 4, 8, 8), opset=9)


@model
def range_step_zero():
    return build([H.make_node("Range", ["a", "b", "c"], ["y"])], [], [vi("y", T.INT64)],
                 [ints("a", 0), ints("b", 10), ints("c", 0)])


# ---- runtime/onnx_more.c, onnx_contrib.c, onnx_qdq.c ------------------------------

@model
def rnn_hidden_size_negative():
    return build([H.make_node("RNN", ["x", "w", "r"], ["y"], hidden_size=-5)],
                 [vi("x", T.FLOAT, [5, 1, 4]), vi("w", T.FLOAT, [1, 3, 4]),
                  vi("r", T.FLOAT, [1, 3, 3])], [vi("y")])


@model
def center_crop_pad_two_axes():
    # Two axes cropped: strided_slice needs a stride for each (it was left
    # untyped).  Loads.
    return one("CenterCropPad", ["x", "s"], [ints("s", [2, 2])], opset=18)


@model
def nchwc_reorder_channels_overflow():
    return build([H.make_node("ReorderInput", ["x"], ["y"], domain="com.microsoft.nchwc")],
                 [vi("x", T.FLOAT, [1, I64_MAX, 1, 1])], [vi("y")],
                 extra_opsets=[("com.microsoft.nchwc", 1)])


@model
def rotary_num_heads_negative():
    return build([H.make_node("RotaryEmbedding", ["x", "p", "c", "s"], ["y"],
                              domain="com.microsoft", num_heads=-5)],
                 [vi("x", T.FLOAT, [1, 4, 8]), vi("p", T.INT64, [1, 4]),
                  vi("c", T.FLOAT, [4, 4]), vi("s", T.FLOAT, [4, 4])], [vi("y")],
                 extra_opsets=[("com.microsoft", 1)])


@model
def qlinear_concat_axis_int64_max():
    u8 = lambda name, v: N.from_array(np.array(v, dtype=np.uint8), name)
    node = H.make_node("QLinearConcat", ["s", "z", "x", "s", "z", "x", "s", "z"], ["y"],
                       domain="com.microsoft", axis=I64_MAX)
    return build([node], [vi("x", T.UINT8, [1, 4])], [vi("y")], [floats("s", 0.5), u8("z", 0)],
                 extra_opsets=[("com.microsoft", 1)])


@model
def dequantize_block_size_negative():
    node = H.make_node("DequantizeLinear", ["x", "s"], ["y"], axis=1, block_size=-1)
    return build([node], [vi("x", T.INT8, [4, 4])], [vi("y")], [floats("s", [0.1] * 4)],
                 opset=21)


# ---- nesting: refused before protobuf-c recurses ------------------------------------

@model
def deep_if():
    # 200 Ifs, each a graph, a node and an attribute: 600 messages deep.
    leaf = H.make_graph([H.make_node("Identity", ["x"], ["o"])], "leaf", [], [vi("o")])
    g = leaf
    for _ in range(200):
        node = H.make_node("If", ["c"], ["o"], then_branch=g, else_branch=leaf)
        g = H.make_graph([node], "g", [], [vi("o")])
    m = build(list(g.node), [vi("c", T.BOOL, []), vi("x", T.FLOAT, [2])], [vi("o")])
    return m


@model
def deep_sequence_type():
    t = H.make_tensor_type_proto(T.FLOAT, [2])
    for _ in range(200):
        t = H.make_sequence_type_proto(t)
    m = build([H.make_node("Relu", ["x"], ["y"])], [vi("x", T.FLOAT, [2])], [vi("y")])
    m.graph.value_info.append(H.make_value_info("z", t))
    return m


@model
def deep_map_type():
    t = H.make_tensor_type_proto(T.FLOAT, [2])
    for _ in range(200):
        outer = onnx.TypeProto()
        outer.map_type.key_type = T.INT64
        outer.map_type.value_type.CopyFrom(t)
        t = outer
    m = build([H.make_node("Relu", ["x"], ["y"])], [vi("x", T.FLOAT, [2])], [vi("y")])
    m.graph.value_info.append(H.make_value_info("z", t))
    return m


@model
def deep_attribute_type():
    t = H.make_tensor_type_proto(T.FLOAT, [2])
    for _ in range(200):
        t = H.make_sequence_type_proto(t)
    node = H.make_node("Relu", ["x"], ["y"])
    a = node.attribute.add()
    a.name = "t"
    a.type = onnx.AttributeProto.TYPE_PROTO
    a.tp.CopyFrom(t)
    return build([node], [vi("x", T.FLOAT, [2])], [vi("y")])


if __name__ == "__main__":
    for name, fn in MODELS.items():
        with open(name + ".onnx", "wb") as f:
            f.write(fn().SerializeToString())
