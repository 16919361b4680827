"""Small ONNX models with weights for the ONNX-out tests, written into DIR:

convnet.onnx  Conv (with bias), BatchNormalization, Relu, MaxPool, Gemm,
              Softmax, at opset 13, weights as external data (convnet.data)
multi.onnx    a multi-output model: Split into three branches, two returned
              directly, one through MatMul and Add, plus a Concat of two
qdq.onnx      a QDQ-quantized convnet: QuantizeLinear/DequantizeLinear around
              Conv, Relu, Add and Gemm, with int8 weights, at opset 13

Usage: make_models.py DIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(7)


def f32(*shape, scale=0.3):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def save(model, path, external=False):
    onnx.checker.check_model(model)
    if external:
        onnx.save(model, path, save_as_external_data=True, all_tensors_to_one_file=True,
                  location=os.path.basename(path).replace(".onnx", ".data"), size_threshold=0)
    else:
        onnx.save(model, path)


def convnet(d):
    inits = [
        numpy_helper.from_array(f32(8, 3, 3, 3), "w1"),
        numpy_helper.from_array(f32(8), "b1"),
        numpy_helper.from_array(np.abs(f32(8)) + 0.5, "bn_scale"),
        numpy_helper.from_array(f32(8), "bn_bias"),
        numpy_helper.from_array(f32(8), "bn_mean"),
        numpy_helper.from_array(np.abs(f32(8)) + 0.5, "bn_var"),
        numpy_helper.from_array(f32(10, 8 * 8 * 8, scale=0.05), "fc_w"),
        numpy_helper.from_array(f32(10), "fc_b"),
        numpy_helper.from_array(np.array([1, -1], dtype=np.int64), "flat"),
    ]
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization", ["c1", "bn_scale", "bn_bias", "bn_mean", "bn_var"],
                         ["bn"]),
        helper.make_node("Relu", ["bn"], ["r1"]),
        helper.make_node("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Reshape", ["p1", "flat"], ["f1"]),
        helper.make_node("Gemm", ["f1", "fc_w", "fc_b"], ["g1"], transB=1),
        helper.make_node("Softmax", ["g1"], ["y"], axis=1),
    ]
    g = helper.make_graph(nodes, "convnet",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 7
    save(m, os.path.join(d, "convnet.onnx"), external=True)


def multi(d):
    inits = [
        numpy_helper.from_array(f32(4, 6), "wm"),
        numpy_helper.from_array(f32(6), "bm"),
        numpy_helper.from_array(np.array([4, 4, 4], dtype=np.int64), "sizes"),
    ]
    nodes = [
        helper.make_node("Split", ["x", "sizes"], ["s0", "s1", "s2"], axis=1),
        helper.make_node("Tanh", ["s0"], ["t0"]),
        helper.make_node("Sigmoid", ["s1"], ["t1"]),
        helper.make_node("MatMul", ["s2", "wm"], ["mm"]),
        helper.make_node("Add", ["mm", "bm"], ["y2"]),
        helper.make_node("Concat", ["t0", "t1"], ["y3"], axis=1),
    ]
    g = helper.make_graph(nodes, "multi",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 12])],
                          [helper.make_tensor_value_info("t0", TensorProto.FLOAT, [2, 4]),
                           helper.make_tensor_value_info("y2", TensorProto.FLOAT, [2, 6]),
                           helper.make_tensor_value_info("y3", TensorProto.FLOAT, [2, 8]),
                           helper.make_tensor_value_info("t1", TensorProto.FLOAT, [2, 4])],
                          inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 7
    save(m, os.path.join(d, "multi.onnx"))


def qdq(d):
    def q8(*shape):
        return rng.integers(-100, 100, shape).astype(np.int8)
    s = lambda v: numpy_helper.from_array(np.array(v, dtype=np.float32))
    z = lambda: numpy_helper.from_array(np.array(0, dtype=np.int8))
    inits = []

    def add(name, t):
        t.name = name
        inits.append(t)
        return name
    add("s_in", s(0.02)); add("z", z())
    add("w1q", numpy_helper.from_array(q8(8, 3, 3, 3))); add("s_w1", s(0.01))
    add("b1", numpy_helper.from_array(rng.integers(-50, 50, (8,)).astype(np.int32)))
    add("s_b1", s(0.0002)); add("zb", numpy_helper.from_array(np.array(0, dtype=np.int32)))
    add("s_c1", s(0.05))
    add("w2q", numpy_helper.from_array(q8(8, 8, 3, 3))); add("s_w2", s(0.01))
    add("s_c2", s(0.05)); add("s_add", s(0.08))
    add("fcq", numpy_helper.from_array(q8(10, 8 * 8 * 8))); add("s_fc", s(0.005))
    add("fcb", numpy_helper.from_array(f32(10))); add("s_out", s(0.1))
    add("flat", numpy_helper.from_array(np.array([1, -1], dtype=np.int64)))
    n = helper.make_node
    nodes = [
        n("QuantizeLinear", ["x", "s_in", "z"], ["xq"]),
        n("DequantizeLinear", ["xq", "s_in", "z"], ["xd"]),
        n("DequantizeLinear", ["w1q", "s_w1", "z"], ["w1"]),
        n("DequantizeLinear", ["b1", "s_b1", "zb"], ["b1d"]),
        n("Conv", ["xd", "w1", "b1d"], ["c1"], pads=[1, 1, 1, 1]),
        n("Relu", ["c1"], ["r1"]),
        n("QuantizeLinear", ["r1", "s_c1", "z"], ["r1q"]),
        n("DequantizeLinear", ["r1q", "s_c1", "z"], ["r1d"]),
        n("DequantizeLinear", ["w2q", "s_w2", "z"], ["w2"]),
        n("Conv", ["r1d", "w2"], ["c2"], pads=[1, 1, 1, 1]),
        n("QuantizeLinear", ["c2", "s_c2", "z"], ["c2q"]),
        n("DequantizeLinear", ["c2q", "s_c2", "z"], ["c2d"]),
        n("Add", ["c2d", "r1d"], ["a1"]),
        n("QuantizeLinear", ["a1", "s_add", "z"], ["a1q"]),
        n("DequantizeLinear", ["a1q", "s_add", "z"], ["a1d"]),
        n("MaxPool", ["a1d"], ["p1"], kernel_shape=[2, 2], strides=[2, 2]),
        n("Reshape", ["p1", "flat"], ["f1"]),
        n("DequantizeLinear", ["fcq", "s_fc", "z"], ["fcw"]),
        n("Gemm", ["f1", "fcw", "fcb"], ["g1"], transB=1),
        n("QuantizeLinear", ["g1", "s_out", "z"], ["yq"]),
        n("DequantizeLinear", ["yq", "s_out", "z"], ["y"]),
    ]
    g = helper.make_graph(nodes, "qdq",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 7
    save(m, os.path.join(d, "qdq.onnx"))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    convnet(sys.argv[1])
    multi(sys.argv[1])
    qdq(sys.argv[1])
