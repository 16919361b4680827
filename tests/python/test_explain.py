"""byoc.explain and byoc.compare, against the byoc command."""

import unittest

from common import byoc, cli, model


class Explain(unittest.TestCase):
    def test_reasons(self):
        path = model("transformer_encoder.relay")
        with byoc.load(path) as g:
            x = byoc.explain(g, "%3")
            rc, out, err = cli("explain", path, "--node", "%3")
            self.assertEqual(rc, 0, err)
            self.assertEqual(x.text, out)
            self.assertEqual(x.placed_on, "cutlass")
            self.assertEqual(x["cutlass"].kind, "placed")
            self.assertEqual(x["tensorrt"].kind, "possible")
            self.assertEqual(x["cudnn"].kind, "no_rule")
            self.assertEqual(x["cutlass"].partition, 2)
            self.assertEqual(x["cutlass"].kernel, "dense_bias")
            self.assertAlmostEqual(x["cutlass"].cost, 9.222e-6, delta=1e-9)
            self.assertEqual(x["tensorrt"].kernel, "nn.dense+add")
            self.assertAlmostEqual(x["tensorrt"].placement_cost, 145.974e-6, delta=1e-9)
            self.assertGreater(x["tensorrt"].placement_cost, x["cutlass"].placement_cost)
            self.assertEqual([r.target for r in x.reasons],
                             ["cutlass", "tensorrt", "cudnn", "cublas", "tvm_cuda"])
            self.assertTrue(x.header.startswith("%3 = add"))
            self.assertEqual(byoc.explain(g, g.find("%3")).text, x.text)
            only = byoc.explain(g, "%3", targets=["tensorrt"])
            self.assertEqual([r.target for r in only.reasons], ["tensorrt"])

    def test_refused(self):
        path = model("resnet_bottleneck.relay")
        with byoc.load(path) as g:
            x = byoc.explain(g, "%0", targets=["cutlass"])
            rc, out, _ = cli("explain", path, "--node", "%0", "-t", "cutlass")
            self.assertEqual(x.text, out)
            self.assertEqual(x["cutlass"].kind, "refused")
            self.assertTrue(x["cutlass"].details)
            self.assertTrue(all("cutlass.byoc:" in d for d in x["cutlass"].details
                                if not d.startswith("...")))

    def test_refused_clause(self):
        path = model("transformer_encoder.relay")
        with byoc.load(path) as g:
            r = byoc.explain(g, "%9")["tensorrt"]
            self.assertEqual(r.kind, "refused")
            self.assertIn("is false", r.details[0])


class Compare(unittest.TestCase):
    def test_rows_match_cli(self):
        path = model("transformer_encoder.relay")
        with byoc.load(path) as g:
            c = byoc.compare(g)
        rc, out, err = cli("compare", path)
        self.assertEqual(rc, 0, err)
        want = []
        for line in out.splitlines()[2:]:
            parts = line.rsplit(None, 3)
            want.append((parts[0].strip(), parts[1], int(parts[3])))
        got = [(n, "%.3f" % (t * 1e6), p) for n, t, p, _ in c.rows]
        self.assertEqual(got, want)
        self.assertLess(c["optimal"], c["greedy"])
        self.assertGreater(c.speedup("optimal"), 1)
        self.assertIn("optimal", repr(c))


if __name__ == "__main__":
    unittest.main()
