#!/bin/sh
# The JSON output of the fixture parses (RFC 8259, as python3 reads it), and
# its partitions hold every call exactly once, agreeing with nodes[].
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
"$top_builddir/tests/report/report_dump" json > "$out" || exit 1
python3 - "$out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
nodes = d["nodes"]
calls = sorted(n["id"] for n in nodes if n["kind"] == "call")
placed = sorted(i for p in d["partitions"] for i in p["nodes"] if nodes[i]["kind"] == "call")
assert placed == calls, "calls %s, placed %s" % (calls, placed)
for p in d["partitions"]:
    assert len(p["names"]) == len(p["nodes"]) == len(p["ops"]), p
    for i in p["nodes"]:
        assert nodes[i]["partition"] == p["index"], (i, p["index"])
    for c in p["composites"]:
        assert set(c["nodes"]) <= set(p["nodes"]), c
names = [t["name"] for t in d["targets"]]
assert all(p["target"] in names for p in d["partitions"])
print("ok: %d calls in %d partitions" % (len(calls), len(d["partitions"])))
PY
