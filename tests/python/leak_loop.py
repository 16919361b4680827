"""Leak check for the Python package (not part of make check: run it under
valgrind or an ASan build, doc/python.md "Memory and threads"):

    valgrind --leak-check=full --errors-for-leak-kinds=definite \\
        --error-exitcode=1 python3 tests/python/leak_loop.py 1000

Each round loads a model, partitions it (with and without a cost
callback), writes the result as JSON, explains a node and frees it all;
graph, result and registry objects are closed explicitly, with context
managers, or left to the garbage collector, in turn.  It prints the
process's peak resident size after the first tenth of the rounds and at
the end: they should be the same."""

import os
import resource
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import byoc, model  # noqa: E402


def peak_kib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def main(rounds):
    path = model("resnet_bottleneck.relay")
    first = None
    for i in range(rounds):
        if i % 3 == 0:
            with byoc.load(path) as g, byoc.partition(g) as r:
                r.to_json()
                r.check()
        elif i % 3 == 1:
            g = byoc.load(path)
            r = byoc.partition(g, cost=lambda k: 1e-6 if k.target == "tensorrt" else None,
                               options={"tensorrt": {"use_fp16": True}})
            r.to_dot()
            byoc.explain(g, "%0")
            r.close()
            g.close()
        else:
            reg = byoc.Registry()
            g = byoc.load(path, registry=reg)
            byoc.partition(g, search="greedy").to_relay()
            del g
            reg.close()
        if i == rounds // 10:
            first = peak_kib()
    last = peak_kib()
    print("%d rounds: peak RSS %d KiB after %d, %d KiB at the end" % (rounds, first,
                                                                    rounds // 10, last))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
