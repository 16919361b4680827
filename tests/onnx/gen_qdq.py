# Write a QDQ-quantized model (int8, per-tensor activations, per-channel
# and per-tensor weights) for tests/cli/qdq.sh: a dense layer, a residual
# add, and a 1x1 convolution with a non-zero weight zero point, built with
# the onnx package's helpers.  Usage: gen_qdq.py FILE [nozp | conv]; with
# nozp the first dense's weight zero points have no data (as in models
# whose weights are not shipped); conv writes a CNN instead: a 3x3
# convolution with per-channel weights, a bias and Relu, a max pool, an
# average pool, Flatten and a dense layer.
import sys
import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

def scalar(name, v, dt):
    return helper.make_tensor(name, dt, [], [v])

N = 256
inits = [
    scalar("s_in", 0.05, TensorProto.FLOAT), scalar("z_in", 0, TensorProto.INT8),
    numpy_helper.from_array(np.ones((N, N), np.int8), "w_fc"),
    numpy_helper.from_array(np.full((N,), 0.01, np.float32), "s_fc"),
    numpy_helper.from_array(np.zeros((N,), np.int8), "z_fc"),
    numpy_helper.from_array(np.zeros((N,), np.int32), "b_fc"),
    numpy_helper.from_array(np.full((N,), 0.0005, np.float32), "s_b"),
    scalar("s_h", 0.1, TensorProto.FLOAT), scalar("z_h", 0, TensorProto.INT8),
    scalar("s_o", 0.2, TensorProto.FLOAT), scalar("z_o", 0, TensorProto.INT8),
    numpy_helper.from_array(np.ones((N, N), np.int8), "w_fc2"),
    scalar("s_fc2", 0.01, TensorProto.FLOAT), scalar("z_fc2", 3, TensorProto.INT8),
]
nodes = [
    helper.make_node("QuantizeLinear", ["x", "s_in", "z_in"], ["xq"], name="q_in"),
    helper.make_node("DequantizeLinear", ["xq", "s_in", "z_in"], ["xd"], name="dq_in"),
    helper.make_node("DequantizeLinear", ["w_fc", "s_fc", "z_fc"], ["wd"], name="dq_w", axis=0),
    helper.make_node("DequantizeLinear", ["b_fc", "s_b"], ["bd"], name="dq_b", axis=0),
    helper.make_node("Gemm", ["xd", "wd", "bd"], ["h"], name="fc", transB=1),
    helper.make_node("Relu", ["h"], ["hr"], name="relu"),
    helper.make_node("QuantizeLinear", ["hr", "s_h", "z_h"], ["hq"], name="q_h"),
    helper.make_node("DequantizeLinear", ["hq", "s_h", "z_h"], ["hd"], name="dq_h"),
    helper.make_node("Add", ["hd", "xd"], ["a"], name="residual"),
    helper.make_node("QuantizeLinear", ["a", "s_o", "z_o"], ["aq"], name="q_a"),
    helper.make_node("DequantizeLinear", ["aq", "s_o", "z_o"], ["ad"], name="dq_a"),
    helper.make_node("DequantizeLinear", ["w_fc2", "s_fc2", "z_fc2"], ["w2d"], name="dq_w2"),
    helper.make_node("Gemm", ["ad", "w2d"], ["h2"], name="fc_zp", transB=1),
    helper.make_node("QuantizeLinear", ["h2", "s_o", "z_o"], ["h2q"], name="q_out"),
    helper.make_node("DequantizeLinear", ["h2q", "s_o", "z_o"], ["y"], name="dq_out"),
]
if len(sys.argv) > 2 and sys.argv[2] == "nozp":
    z = next(t for t in inits if t.name == "z_fc")
    z.ClearField("raw_data")
    z.ClearField("int32_data")
g = helper.make_graph(nodes, "qdq", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, N])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, N])], inits)

def conv_model():
    C = 16
    ws = np.linspace(0.01, 0.02, C).astype(np.float32)
    inits = [
        scalar("s", 0.05, TensorProto.FLOAT), scalar("z", 0, TensorProto.INT8),
        numpy_helper.from_array(np.ones((C, C, 3, 3), np.int8), "w"),
        numpy_helper.from_array(ws, "ws"),
        numpy_helper.from_array(np.zeros((C,), np.int8), "wz"),
        numpy_helper.from_array(np.zeros((C,), np.int32), "b"),
        numpy_helper.from_array(ws * np.float32(0.05), "bs"),
        scalar("sh", 0.1, TensorProto.FLOAT),
        numpy_helper.from_array(np.ones((10, C * 16), np.int8), "wf"),
        scalar("wfs", 0.01, TensorProto.FLOAT),
    ]
    def qdq(t, s, z, name):
        return [helper.make_node("QuantizeLinear", [t, s, z], [t + "_q"], name="q_" + name),
                helper.make_node("DequantizeLinear", [t + "_q", s, z], [t + "_d"], name="dq_" + name)]
    nodes = qdq("x", "s", "z", "in") + [
        helper.make_node("DequantizeLinear", ["w", "ws", "wz"], ["wd"], name="dq_w", axis=0),
        helper.make_node("DequantizeLinear", ["b", "bs"], ["bd"], name="dq_b", axis=0),
        helper.make_node("Conv", ["x_d", "wd", "bd"], ["c"], name="conv", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"], name="relu"),
    ] + qdq("r", "sh", "z", "conv") + [
        helper.make_node("MaxPool", ["r_d"], ["m"], name="maxpool", kernel_shape=[2, 2], strides=[2, 2]),
    ] + qdq("m", "sh", "z", "maxpool") + [
        helper.make_node("AveragePool", ["m_d"], ["a"], name="avgpool", kernel_shape=[2, 2], strides=[2, 2]),
    ] + qdq("a", "sh", "z", "avgpool") + [
        helper.make_node("Flatten", ["a_d"], ["f"], name="flatten"),
        helper.make_node("DequantizeLinear", ["wf", "wfs"], ["wfd"], name="dq_wf"),
        helper.make_node("Gemm", ["f", "wfd"], ["y0"], name="fc", transB=1),
    ] + qdq("y0", "sh", "z", "fc")
    nodes[-1].output[0] = "y"
    return helper.make_graph(nodes, "qdq_cnn",
                             [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, C, 16, 16])],
                             [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])], inits)

if len(sys.argv) > 2 and sys.argv[2] == "conv":
    g = conv_model()
save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), sys.argv[1])
