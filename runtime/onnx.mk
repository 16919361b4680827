# ONNX import: see runtime/onnx.c.
