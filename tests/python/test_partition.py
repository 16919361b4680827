"""byoc.partition and Result: the same placements, to the last digit, as
`byoc partition -f json` on the example models and the shared ones."""

import ctypes
import glob
import json
import os
import shutil
import tempfile
import threading
import unittest

from common import EXAMPLES, SHARED, byoc, cli, cli_json, model


def placement(d):
    return [(p["target"], p["nodes"]) for p in d["partitions"]]


class SameAsCli(unittest.TestCase):
    def agree(self, path, *args, **kw):
        want = cli_json(path, *args)
        with byoc.load(path, **kw.pop("load", {})) as g:
            r = byoc.partition(g, **kw)
            self.assertEqual(r.total, want["cost"], path)        # exact, not approximate
            self.assertEqual(r.transfer_cost, want["transfer_cost"], path)
            self.assertEqual([(p.target, p.nodes) for p in r.partitions], placement(want), path)
            self.assertEqual(r.optimal, want["optimal"])
            self.assertEqual(r.targets, [t["name"] for t in want["targets"]])
            got = json.loads(r.to_json())
            self.assertEqual(placement(got), placement(want))
            r.check()

    def test_examples(self):
        for m in EXAMPLES:
            with self.subTest(model=os.path.basename(m)):
                self.agree(m)

    def test_strategies_and_targets(self):
        m = model("transformer_encoder.relay")
        self.agree(m, "--search", "greedy", search="greedy")
        self.agree(m, "--search", "single:cutlass", search="single:cutlass")
        self.agree(m, "-t", "cublas,cudnn", targets=["cublas", "cudnn"])
        self.agree(m, "-t", "dnnl", targets="dnnl")

    def test_options_per_call(self):
        m = model("resnet_bottleneck.relay")
        self.agree(m, "--option", "tensorrt:use_fp16=true",
                   options={"tensorrt": {"use_fp16": True}})
        self.agree(m, "--option", "tensorrt:max_nodes=3", options={"tensorrt:max_nodes": 3})
        # Taken back after the call.
        self.assertIs(byoc.get_option("tensorrt", "use_fp16"), False)
        self.agree(m)

    def test_shared_relay(self):
        ms = [os.path.join(SHARED, "relay", n) for n in (
            "mnist.relay", "mobilenet.relay", "resnext50_32x4d.relay", "gpt2_extract.relay",
            "batch_norm_extract.relay")]
        ms = [m for m in ms if os.path.exists(m)]
        if not ms:
            self.skipTest("no shared models at %s" % SHARED)
        for m in ms:
            with self.subTest(model=os.path.basename(m)):
                self.agree(m)

    @unittest.skipUnless(byoc.onnx_available(), "libbyoc built without ONNX")
    def test_shared_onnx(self):
        ms = [os.path.join(SHARED, "onnx", n) for n in (
            "collage_mnist.graph.onnx", "onnxzoo_squeezenet.graph.onnx",
            "collage_resnext50_32x4d_block.graph.onnx")]
        ms = [m for m in ms if os.path.exists(m)]
        if not ms:
            self.skipTest("no shared ONNX models at %s" % SHARED)
        for m in ms:
            with self.subTest(model=os.path.basename(m)):
                self.agree(m)


class ResultApi(unittest.TestCase):
    def setUp(self):
        self.path = model("transformer_encoder.relay")
        self.g = byoc.load(self.path)
        self.r = byoc.partition(self.g)

    def tearDown(self):
        self.g.close()

    def test_fields(self):
        r, g = self.r, self.g
        self.assertTrue(r.optimal)
        self.assertEqual(r.gap, 0)
        self.assertEqual(r.optimality, "optimal")
        self.assertEqual(r.lower_bound, r.total)
        self.assertFalse(r.budget_hit)
        self.assertAlmostEqual(sum(p.cost for p in r.partitions) + r.transfer_cost, r.total,
                               places=15)
        placed = sorted(n for p in r.partitions for n in p.nodes)
        self.assertEqual(len(placed), len(set(placed)))
        for n in g.nodes:
            if n.kind == "call":
                self.assertIn(n.id, placed)
                self.assertEqual(r.partitions[r.node_partition[n.id]].target,
                                 [p.target for p in r.partitions if n.id in p.nodes][0])
        p = r.partitions[0]
        self.assertEqual(p.names, [g.nodes[i].name for i in p.nodes])
        self.assertEqual(p.cost_source, "analytic")
        self.assertEqual(p.device, "cuda")
        self.assertTrue(any(q.composites for q in r.partitions))
        for q in r.partitions:
            for name, nodes in q.composites:
                self.assertTrue(set(nodes) <= set(q.nodes))
        self.assertEqual(r.stats["from_callback"], 0)

    def test_writers_match_cli(self):
        for fmt, fn in (("json", self.r.to_json), ("dot", self.r.to_dot),
                        ("relay", self.r.to_relay), ("text", self.r.to_text)):
            rc, out, err = cli("partition", "-f", fmt, self.path)
            self.assertEqual(rc, 0, err)
            self.assertEqual(fn(), out, fmt)

    def test_views(self):
        html = self.r._repr_html_()
        self.assertIn("<table>", html)
        self.assertIn("cutlass", html)
        svg = self.r._repr_svg_()
        if shutil.which("dot"):
            self.assertIn("<svg", svg)
        else:
            self.assertIsNone(svg)

    @unittest.skipUnless(byoc.onnx_available(), "libbyoc built without ONNX")
    def test_write_onnx(self):
        d = tempfile.mkdtemp()
        try:
            out = os.path.join(d, "split")
            self.r.write_onnx(out)
            with open(os.path.join(out, "plan.json")) as f:
                plan = json.load(f)
            self.assertTrue(plan)
            self.assertEqual(len(glob.glob(os.path.join(out, "*.onnx"))),
                             len(self.r.partitions))
        finally:
            shutil.rmtree(d)

    def test_close(self):
        r = byoc.partition(self.g)
        r.close()
        r.close()
        self.assertEqual(r.total, self.r.total)    # the Python fields stay
        self.assertRaises(ValueError, r.to_json)
        with byoc.partition(self.g) as r2:
            r2.check()
        self.assertRaises(ValueError, r2.check)


class Threads(unittest.TestCase):
    def test_gil_released(self):
        # ctypes releases the GIL around calls through a CDLL (not PyDLL):
        # the search runs without it.
        self.assertIsInstance(byoc._C, ctypes.CDLL)
        self.assertNotIsInstance(byoc._C, ctypes.PyDLL)
        self.assertFalse(byoc._C.byoc_partition_graph._flags_ & ctypes._FUNCFLAG_PYTHONAPI)

    def test_threads_agree(self):
        want = {m: cli_json(m)["cost"] for m in EXAMPLES}
        got = {}

        def run(m):
            with byoc.Registry() as reg, byoc.load(m, registry=reg) as g:
                got[m] = byoc.partition(g).total
        ts = [threading.Thread(target=run, args=(m,)) for m in EXAMPLES]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        self.assertEqual(got, want)


if __name__ == "__main__":
    unittest.main()
