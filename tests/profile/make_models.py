"""Small ONNX models for the profile tests (tests/profile/profile.sh), into DIR:

convnet.onnx  Conv (with bias) and Relu twice (named conv1, relu1, conv2,
              relu2; the two Relus have one signature), an Identity (no call
              in byoc), MaxPool, Reshape, Gemm, MatMul and Add, Softmax, at
              opset 13, weights inline; the last Conv+Relu are unnamed
              (ONNX Runtime profiles them as Conv_N and Relu_N)
other.onnx    a different model (Tanh, Sigmoid), whose profile names nodes
              convnet.onnx does not have

Usage: make_models.py DIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(11)


def f32(*shape, scale=0.3):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def save(model, path):
    onnx.checker.check_model(model)
    onnx.save(model, path)


def convnet(d):
    inits = [
        numpy_helper.from_array(f32(8, 3, 3, 3), "w1"),
        numpy_helper.from_array(f32(8), "b1"),
        numpy_helper.from_array(f32(8, 8, 3, 3), "w2"),
        numpy_helper.from_array(f32(8), "b2"),
        numpy_helper.from_array(f32(8, 8, 3, 3), "w3"),
        numpy_helper.from_array(f32(10, 8 * 8 * 8, scale=0.05), "fc_w"),
        numpy_helper.from_array(f32(10), "fc_b"),
        numpy_helper.from_array(f32(10, 6), "mm_w"),
        numpy_helper.from_array(f32(6), "mm_b"),
        numpy_helper.from_array(np.array([1, -1], dtype=np.int64), "flat"),
    ]
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1], name="conv1"),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], pads=[1, 1, 1, 1], name="conv2"),
        helper.make_node("Relu", ["c2"], ["r2"], name="relu2"),
        helper.make_node("Identity", ["r2"], ["i2"], name="ident"),
        helper.make_node("Conv", ["i2", "w3"], ["c3"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c3"], ["r3"]),
        helper.make_node("MaxPool", ["r3"], ["p1"], kernel_shape=[2, 2], strides=[2, 2],
                         name="pool"),
        helper.make_node("Reshape", ["p1", "flat"], ["f1"], name="flatten"),
        helper.make_node("Gemm", ["f1", "fc_w", "fc_b"], ["g1"], transB=1, name="fc"),
        helper.make_node("MatMul", ["g1", "mm_w"], ["m1"], name="mm"),
        helper.make_node("Add", ["m1", "mm_b"], ["a1"], name="mm_add"),
        helper.make_node("Softmax", ["a1"], ["y"], axis=1, name="softmax"),
    ]
    g = helper.make_graph(nodes, "convnet",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 6])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 7
    save(m, os.path.join(d, "convnet.onnx"))


def other(d):
    nodes = [
        helper.make_node("Tanh", ["x"], ["t"], name="other_tanh"),
        helper.make_node("Sigmoid", ["t"], ["y"], name="other_sigmoid"),
    ]
    g = helper.make_graph(nodes, "other",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 5])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 5])])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 7
    save(m, os.path.join(d, "other.onnx"))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    convnet(sys.argv[1])
    other(sys.argv[1])
