"""Cost callbacks and cost tables: Collage's measure-by-running from Python."""

import math
import os
import tempfile
import unittest

from common import byoc, cli, model


class Cost(unittest.TestCase):
    def setUp(self):
        self.path = model("transformer_encoder.relay")
        self.g = byoc.load(self.path)
        self.base = byoc.partition(self.g)

    def tearDown(self):
        self.g.close()

    def test_kernel_fields(self):
        seen = []
        relay = {}

        def f(k):
            seen.append(k)
            relay[k.signature] = k.to_relay()
            return None
        r = byoc.partition(self.g, cost=f)
        self.assertEqual(r.total, self.base.total)    # None: the analytic model answers
        self.assertEqual(r.stats["from_callback"], 0)
        self.assertTrue(seen)
        targets = {k.target for k in seen}
        self.assertTrue({"tensorrt", "cutlass", "tvm_cuda"} <= targets, targets)
        for k in seen:
            self.assertEqual(k.device, "cuda")
            self.assertTrue(k.signature)
            self.assertTrue(k.ops)
            self.assertEqual(len(k.names), len(k.nodes))
            self.assertEqual(k.nodes, sorted(k.nodes))
        self.assertTrue(any(k.pattern for k in seen))
        for k in seen:
            text = relay[k.signature]
            self.assertTrue(text.startswith("def @kernel("), text)
            for op in k.ops:
                self.assertIn(op, text)
        # Outside the call, no Relay: the C kernel is gone.
        self.assertRaises(ValueError, seen[0].to_relay)
        # A kernel's function reads back as a model of its own.
        k0 = []
        byoc.partition(self.g, cost=lambda k: k0.append(k.to_relay("main")) if not k0 else None)
        with byoc.load(('#[version = "0.0.5"]\n' + k0[0]).encode()) as back:
            self.assertGreater(back.info["calls"], 0)

    @unittest.skipUnless(byoc.onnx_available(), "byoc built without ONNX")
    def test_kernel_onnx(self):
        # Each kernel as the standalone ONNX model `byoc kernels -f onnx`
        # writes, with its external data beside it; not after the call.
        tmp = tempfile.mkdtemp()
        got = {}
        kept = []

        def f(k):
            if k.target in ("tensorrt", "cudnn") and len(got) < 6:
                d = os.path.join(tmp, "k%d" % len(got))
                path = k.write_onnx(d)
                self.assertTrue(path.startswith(d + os.sep) and path.endswith(".onnx"), path)
                got[(k.target, k.signature)] = path
            kept.append(k)
            return None
        try:
            r = byoc.partition(self.g, cost=f)
            self.assertEqual(r.total, self.base.total)
            self.assertTrue(got)
            for path in got.values():
                with open(path, "rb") as fh:
                    data = fh.read()
                self.assertEqual(data[0], 0x08, path)     # field 1 (ir_version), varint
                self.assertIn(b"byoc", data)              # producer_name
                self.assertEqual(os.listdir(os.path.dirname(path)).count("kernels.json"), 1)
            with self.assertRaises(ValueError):
                kept[0].write_onnx(os.path.join(tmp, "late"))
            try:
                import onnx
            except ImportError:
                return
            for path in got.values():
                onnx.checker.check_model(path)            # a path: external data resolved
                self.assertTrue(len(onnx.load(path).graph.node) >= 1, path)
        finally:
            import shutil
            shutil.rmtree(tmp)

    def test_seconds_and_inf(self):
        # Every kernel 1 us: the fewest kernels win; tensorrt cannot run.
        def f(k):
            return math.inf if k.target == "tensorrt" else 1e-6
        r = byoc.partition(self.g, cost=f)
        self.assertNotIn("tensorrt", {p.target for p in r.partitions})
        self.assertTrue(all(p.cost_source == "callback" for p in r.partitions))
        self.assertEqual(r.stats["from_callback"], len(r.partitions))
        self.assertAlmostEqual(r.total, 1e-6 * len(r.partitions), places=15)
        r.check()

    def test_write_cost_table(self):
        d = tempfile.mkdtemp()
        path = os.path.join(d, "costs.csv")
        try:
            def timing(k):      # a made-up "measurement": 2 us per op
                return 2e-6 * len(k.ops)
            n = byoc.write_cost_table(self.g, path, timing)
            self.assertGreater(n, 0)
            with open(path) as f:
                self.assertEqual(len(f.read().splitlines()), n + 1)
            via_fn = byoc.partition(self.g, cost=timing)
            via_table = byoc.partition(self.g, cost=path, strict=True)
            self.assertEqual(via_table.total, via_fn.total)
            self.assertTrue(all(p.cost_source == "table" for p in via_table.partitions))
            rc, out, err = cli("partition", "-f", "json", "--cost", "table:" + path, "--strict",
                               self.path)
            self.assertEqual(rc, 0, err)
            self.assertEqual(out, via_table.to_json())
        finally:
            if os.path.exists(path):
                os.unlink(path)
            os.rmdir(d)


if __name__ == "__main__":
    unittest.main()
