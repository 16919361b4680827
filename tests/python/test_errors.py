"""Errors come back as exceptions carrying the library's located messages."""

import math
import os
import tempfile
import unittest

from common import BUILDDIR, byoc, model


class Errors(unittest.TestCase):
    def test_bad_path(self):
        with self.assertRaises(byoc.LoadError) as c:
            byoc.load("no/such/model.relay")
        self.assertIn("no/such/model.relay", str(c.exception))
        self.assertIn("error", str(c.exception))

    def test_syntax_error_located(self):
        bad = b'#[version = "0.0.5"]\ndef @main(%x: Tensor[(1, 4), float32]) {\n  nn.relu(%x, \n}\n'
        with self.assertRaises(byoc.LoadError) as c:
            byoc.load(bad, name="bad.relay")
        e = c.exception
        self.assertEqual(e.file, "bad.relay")
        self.assertGreaterEqual(e.line, 3)
        self.assertGreater(e.col, 0)
        self.assertTrue(str(e).startswith("bad.relay:%d:%d: error: " % (e.line, e.col)), str(e))

    def test_unknown_op_located(self):
        bad = b'#[version = "0.0.5"]\ndef @main(%x: Tensor[(1, 4), float32]) {\n  nn.relux(%x)\n}\n'
        with self.assertRaises(byoc.LoadError) as c:
            byoc.load(bad, name="op.relay")
        self.assertEqual((c.exception.file, c.exception.line), ("op.relay", 3))
        self.assertIn("nn.relu", str(c.exception))     # the suggestion

    def test_bad_option(self):
        with self.assertRaises(byoc.OptionError) as c:
            byoc.set_option("tensorrt", "use_fp16", "maybe")
        self.assertIn("use_fp16", str(c.exception))
        with self.assertRaises(byoc.OptionError):
            byoc.set_option("tensorrt", "no_such_option", 1)
        with self.assertRaises(byoc.OptionError):
            byoc.get_option("tensorrt", "no_such_option")
        with byoc.load(model("resnet_bottleneck.relay")) as g:
            with self.assertRaises(byoc.OptionError):
                byoc.partition(g, options={"tensorrt": {"use_fp16": "maybe"}})
            with self.assertRaises(byoc.OptionError):
                byoc.partition(g, options={"use_fp16": True})
            with self.assertRaises(byoc.OptionError):
                byoc.partition(g, search="fastest")
        self.assertIs(byoc.get_option("tensorrt", "use_fp16"), False)

    def test_unknown_target(self):
        with byoc.load(model("resnet_bottleneck.relay")) as g:
            with self.assertRaises(byoc.TargetError) as c:
                byoc.partition(g, targets=["tensorrtt"])
            self.assertIn("tensorrt", str(c.exception))
            self.assertIn("did you mean", str(c.exception))
            with self.assertRaises(byoc.TargetError):
                byoc.partition(g, options={"cutlas": {"max_depth": 2}})
        with self.assertRaises(byoc.TargetError):
            byoc.target("nosuch")
        with self.assertRaises(KeyError):     # TargetError is a KeyError too
            byoc.get_option("nosuch", "x")

    def test_callback_raises(self):
        def f(k):
            raise ZeroDivisionError("measured nothing on %s" % k.target)
        with byoc.load(model("resnet_bottleneck.relay")) as g:
            with self.assertRaises(ZeroDivisionError) as c:
                byoc.partition(g, cost=f)
            self.assertIn("measured nothing", str(c.exception))
            with self.assertRaises(ValueError):
                byoc.partition(g, cost=lambda k: -1.0)
            with self.assertRaises(ValueError):
                byoc.partition(g, cost=lambda k: math.nan)
            with self.assertRaises(ZeroDivisionError):
                byoc.explain(g, "%0", cost=f)
            # Still usable afterwards.
            byoc.partition(g).check()

    def test_cost_table_errors(self):
        with byoc.load(model("resnet_bottleneck.relay")) as g:
            with self.assertRaises(byoc.LoadError):
                byoc.partition(g, cost="no/such/table.csv")
            d = tempfile.mkdtemp()
            bad = os.path.join(d, "bad.csv")
            with open(bad, "w") as f:
                f.write("target,signature,seconds\ntensorrt,x,fast\n")
            with self.assertRaises(byoc.LoadError) as c:
                byoc.partition(g, cost=bad)
            self.assertEqual((c.exception.file, c.exception.line), (bad, 2))
            empty = os.path.join(d, "empty.csv")
            with open(empty, "w") as f:
                f.write("target,signature,seconds\n")
            with self.assertRaises(byoc.PartitionError):
                byoc.partition(g, cost=empty, strict=True)
            with self.assertRaises(byoc.OptionError):
                byoc.partition(g, strict=True)
            for p in (bad, empty):
                os.unlink(p)
            os.rmdir(d)

    def test_plugin_errors(self):
        with byoc.Registry() as reg:
            with self.assertRaises(byoc.LoadError):
                reg.load_plugin("no/such/plugin.so")
            lib = os.path.join(BUILDDIR, "tests", "plugin", ".libs", "libnoentry.so")
            if os.path.exists(lib):
                with self.assertRaises(byoc.LoadError) as c:
                    reg.load_plugin(lib)
                self.assertIn("byoc_plugin_register", str(c.exception))

    def test_closed(self):
        g = byoc.load(model("resnet_bottleneck.relay"))
        g.close()
        g.close()
        self.assertRaises(ValueError, byoc.partition, g)
        with byoc.load(model("resnet_bottleneck.relay")) as g2:
            self.assertRaises(KeyError, g2.find, "%999")
        # Closing a registry closes its graphs and their results first.
        reg = byoc.Registry()
        g3 = byoc.load(model("resnet_bottleneck.relay"), registry=reg)
        r = byoc.partition(g3)
        reg.close()
        self.assertRaises(ValueError, r.to_json)
        self.assertRaises(ValueError, len, g3)
        self.assertRaises(ValueError, byoc.load, model("resnet_bottleneck.relay"), registry=reg)


if __name__ == "__main__":
    unittest.main()
