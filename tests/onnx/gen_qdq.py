# Write a QDQ-quantized model (int8, per-tensor activations, per-channel
# and per-tensor weights) for tests/cli/qdq.sh: a dense layer, a residual
# add, and a 1x1 convolution with a non-zero weight zero point, built with
# the onnx package's helpers.  Usage: gen_qdq.py FILE [nozp]; with nozp
# the first dense's weight zero points have no data (as in models whose
# weights are not shipped).
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
save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), sys.argv[1])
