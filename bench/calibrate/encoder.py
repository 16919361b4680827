#!/usr/bin/env python3
"""Write a BERT-style transformer encoder as TVM Relay text (no weights).

For doc/cost-model.md's comparisons with published latencies: the same
pre-norm layer as examples/models/transformer_encoder.relay (layer norm, Q/K/V
dense, scaled dot-product attention, output dense, residual; layer norm,
feed-forward with GELU or ReLU, residual), repeated --layers times, at batch 1.

  encoder.py --hidden 768 --layers 12 --heads 12 --seq 128 --dtype float16 > bert_base_16.relay
"""
import argparse
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hidden", type=int, default=768)
    ap.add_argument("--layers", type=int, default=12)
    ap.add_argument("--heads", type=int, default=12)
    ap.add_argument("--seq", type=int, default=128)
    ap.add_argument("--ffn", type=int, default=0, help="feed-forward width (default 4 x hidden)")
    ap.add_argument("--act", choices=["gelu", "relu"], default="gelu")
    ap.add_argument("--dtype", choices=["float32", "float16"], default="float32")
    a = ap.parse_args()
    h, s, nh, dt = a.hidden, a.seq, a.heads, a.dtype
    ffn = a.ffn or 4 * h
    if h % nh:
        sys.exit("encoder.py: --hidden must be a multiple of --heads")
    d = h // nh
    suffix = "f16" if dt == "float16" else "f"
    out = []
    consts = [0]

    def const(shape):
        i = consts[0]
        consts[0] += 1
        dims = ", ".join(str(x) for x in shape) + ("," if len(shape) == 1 else "")
        return f"meta[relay.Constant][{i}] /* ty=Tensor[({dims}), {dt}] */"

    n = [0]

    def let(expr):
        out.append(f"  %{n[0]} = {expr};")
        n[0] += 1
        return f"%{n[0] - 1}"

    def lit(v):
        return f"{v}{suffix}"

    out.append('#[version = "0.0.5"]')
    out.append(f"// A BERT-style encoder: hidden {h}, {a.layers} layers, {nh} heads, sequence {s}, "
               f"feed-forward {ffn} ({a.act}), {dt}; written by bench/calibrate/encoder.py.")
    out.append(f"def @main(%x: Tensor[(1, {s}, {h}), {dt}]) -> Tensor[(1, {s}, {h}), {dt}] {{")
    x = "%x"
    body = []
    for _ in range(a.layers):
        ln = let(f"nn.layer_norm({x}, {const([h])}, {const([h])})")
        flat = let(f"reshape({ln}, newshape=[{s}, {h}])")
        qkv = []
        for _k in range(3):
            dn = let(f"nn.dense({flat}, {const([h, h])}, units={h})")
            qkv.append(let(f"add({dn}, {const([h])})"))
        heads = []
        for t in qkv:
            r = let(f"reshape({t}, newshape=[{s}, {nh}, {d}])")
            heads.append(let(f"transpose({r}, axes=[1, 0, 2])"))
        sc = let(f"nn.batch_matmul({heads[0]}, {heads[1]}, transpose_b=True)")
        sc = let(f"multiply({sc}, {lit(1 / d ** 0.5)})")
        sm = let(f"nn.softmax({sc}, axis=-1)")
        ctx = let(f"nn.batch_matmul({sm}, {heads[2]})")
        ctx = let(f"transpose({ctx}, axes=[1, 0, 2])")
        ctx = let(f"reshape({ctx}, newshape=[{s}, {h}])")
        o = let(f"nn.dense({ctx}, {const([h, h])}, units={h})")
        o = let(f"add({o}, {const([h])})")
        o = let(f"reshape({o}, newshape=[1, {s}, {h}])")
        res = let(f"add({x}, {o})")
        ln2 = let(f"nn.layer_norm({res}, {const([h])}, {const([h])})")
        f2 = let(f"reshape({ln2}, newshape=[{s}, {h}])")
        up = let(f"nn.dense({f2}, {const([ffn, h])}, units={ffn})")
        up = let(f"add({up}, {const([ffn])})")
        if a.act == "gelu":
            g = let(f"multiply({up}, {lit(0.707107)})")
            g = let(f"erf({g})")
            g = let(f"multiply({g}, {lit(0.5)})")
            g = let(f"add({g}, {lit(0.5)})")
            act = let(f"multiply({up}, {g})")
        else:
            act = let(f"nn.relu({up})")
        dn = let(f"nn.dense({act}, {const([h, ffn])}, units={h})")
        dn = let(f"add({dn}, {const([h])})")
        dn = let(f"reshape({dn}, newshape=[1, {s}, {h}])")
        x = let(f"add({res}, {dn})")
    last = out.pop()   # the final add is the result
    out.append("  " + last.split(" = ", 1)[1].rstrip(";"))
    out.append("}")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
