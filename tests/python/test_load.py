"""byoc.load, graphs, targets and options."""

import os
import unittest

from common import BUILDDIR, SRCDIR, byoc, model


class Load(unittest.TestCase):
    def test_relay(self):
        with byoc.load(model("transformer_encoder.relay")) as g:
            info = g.info
            self.assertEqual(len(g), len(g.nodes))
            self.assertEqual(info["calls"], sum(g.ops().values()))
            self.assertGreater(info["calls"], 10)
            self.assertIn("nn.dense", g.ops())
            self.assertGreater(g.flops, 0)
            self.assertEqual(info["flops"], g.flops)
            dense = [n for n in g.nodes if n.op == "nn.dense"][0]
            self.assertEqual(dense.kind, "call")
            self.assertTrue(dense.type.startswith("Tensor["), dense.type)
            self.assertEqual(dense.dtype, "float32")
            self.assertIsInstance(dense.shape, tuple)
            self.assertGreater(dense.flops, 0)
            self.assertGreater(dense.line, 0)
            self.assertEqual(g.find(dense.name), dense.id)
            self.assertEqual(g.find("#%d" % dense.id), dense.id)
            inputs = [n for n in g.nodes if n.kind == "input"]
            self.assertEqual(sorted(info["inputs"]), sorted(n.name for n in inputs))
        self.assertRaises(ValueError, len, g)   # closed

    def test_bytes_relay(self):
        path = model("resnet_bottleneck.relay")
        with open(path, "rb") as f:
            data = f.read()
        with byoc.load(path) as a, byoc.load(data, name="mem.relay") as b:
            self.assertEqual(a.ops(), b.ops())
            self.assertEqual(b.source, "mem.relay")
            self.assertEqual(byoc.partition(a).total, byoc.partition(b).total)

    @unittest.skipUnless(byoc.onnx_available(), "libbyoc built without ONNX")
    def test_onnx_path_and_bytes(self):
        path = os.path.join(SRCDIR, "tests", "plugin", "conv_bn_relu.onnx")
        if not os.path.exists(path):
            self.skipTest("no %s" % path)
        with open(path, "rb") as f:
            data = f.read()
        with byoc.load(path) as a, byoc.load(data) as b:
            self.assertEqual(a.ops(), b.ops())
            self.assertGreater(a.info["calls"], 0)
            self.assertEqual(byoc.partition(a).total, byoc.partition(b).total)

    def test_dims(self):
        src = b"""#[version = "0.0.5"]
def @main(%x: Tensor[(n, 64), float32], %w: Tensor[(32, 64), float32]) {
  nn.dense(%x, %w, units=32)
}
"""
        with byoc.load(src) as g:
            self.assertEqual(g.info["symbols"], {"n": None})
            x = g.nodes[g.find("x")]
            self.assertEqual(x.shape, ("n", 64))
        with byoc.load(src, dims={"n": 8}) as g:
            self.assertEqual(g.info["symbols"], {"n": 8})
            self.assertEqual(g.nodes[g.find("x")].shape, (8, 64))
        with byoc.load(src, input_shapes={"x": [4, 64]}) as g:
            self.assertEqual(g.nodes[g.find("x")].shape, (4, 64))


class Targets(unittest.TestCase):
    def test_bundled(self):
        names = [t.name for t in byoc.targets()]
        for n in ("tensorrt", "cutlass", "cudnn", "cublas", "dnnl", "cmsisnn", "ethosu",
                  "tvm_cuda"):
            self.assertIn(n, names)
        t = byoc.target("tensorrt")
        self.assertEqual(t.device, "cuda")
        self.assertFalse(t.native)
        self.assertTrue(byoc.target("tvm_cuda").native)
        self.assertEqual(byoc.default_registry().default_device, "cuda")

    def test_options(self):
        reg = byoc.Registry()
        try:
            self.assertIs(reg.get_option("tensorrt", "use_fp16"), False)
            self.assertEqual(reg.target("tensorrt").option_types()["use_fp16"], "bool")
            reg.set_option("tensorrt", "use_fp16", True)
            self.assertIs(reg.get_option("tensorrt", "use_fp16"), True)
            self.assertIs(reg.target("tensorrt").options["use_fp16"], True)
            reg.reset_options()
            self.assertIs(reg.get_option("tensorrt", "use_fp16"), False)
        finally:
            reg.close()

    def test_plugin(self):
        # tests/plugin's library (check_LTLIBRARIES: built by make check).
        lib = os.path.join(BUILDDIR, "tests", "plugin", ".libs", "libtestnpu.so")
        if not os.path.exists(lib):
            self.skipTest("no %s" % lib)
        with byoc.Registry() as reg:
            before = {t.name for t in reg.targets()}
            reg.load_plugin(lib)
            added = {t.name for t in reg.targets()} - before
            self.assertTrue(added)
            for name in added:
                self.assertEqual(reg.target(name).name, name)


class Help(unittest.TestCase):
    def test_help(self):
        import pydoc
        text = pydoc.render_doc(byoc, renderer=pydoc.plaintext)
        for name in ("load(", "partition(", "explain(", "compare(", "targets(", "load_plugin(",
                     "set_option(", "write_cost_table(", "class Result", "class Graph",
                     "LoadError", "doc/python.md"):
            self.assertIn(name, text)
        for f in (byoc.load, byoc.partition, byoc.explain, byoc.compare, byoc.Result.to_json,
                  byoc.Result.check, byoc.Graph.info):
            self.assertTrue(f.__doc__, f)


if __name__ == "__main__":
    unittest.main()
