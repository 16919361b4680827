"""Shared by the tests of tests/python: where the sources, the byoc command
and the shared models are.  make check sets top_srcdir, BYOC and
BYOC_SHARED_MODELS (tests/local.mk); run by hand from the source tree, the
defaults below find them when the build is in the tree."""

import json
import os
import subprocess
import sys

__all__ = ["byoc", "SRCDIR", "BUILDDIR", "BYOC", "SHARED", "EXAMPLES", "model", "cli_json", "cli"]

HERE = os.path.dirname(os.path.abspath(__file__))
SRCDIR = os.environ.get("top_srcdir") or os.path.dirname(os.path.dirname(HERE))
BUILDDIR = os.environ.get("top_builddir") or SRCDIR
BYOC = os.environ.get("BYOC") or os.path.join(BUILDDIR, "cli", "byoc")
SHARED = os.environ.get("BYOC_SHARED_MODELS") or os.path.join(SRCDIR, "..", "shared", "models")

sys.path.insert(0, HERE)
import byoc  # noqa: E402  (PYTHONPATH names the build tree's package)

EXAMPLES = [os.path.join(SRCDIR, "examples", "models", m) for m in (
    "transformer_encoder.relay", "resnet_bottleneck.relay", "mobilenet_v2_block.relay")]


def model(name):
    return os.path.join(SRCDIR, "examples", "models", name)


def _env():
    """The environment for the byoc command: without the sanitizer runtime
    unittest.sh preloads into Python (byoc links its own)."""
    env = dict(os.environ)
    if env.get("BYOC_SAN_PRELOAD"):
        env.pop("LD_PRELOAD", None)
    return env


def cli_json(path, *args):
    """`byoc partition -f json PATH ARGS...`, parsed."""
    out = subprocess.run([BYOC, "partition", "-f", "json"] + list(args) + [path],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True, env=_env())
    return json.loads(out.stdout.decode())


def cli(*args):
    """The byoc command's standard output and status."""
    p = subprocess.run([BYOC] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=_env())
    return p.returncode, p.stdout.decode(), p.stderr.decode()
