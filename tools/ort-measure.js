#!/usr/bin/env node
// Time ONNX models under ONNX Runtime: the onnxruntime runner of byoc measure
// (doc/cost-table.md, "Measuring with byoc measure").
//
// usage: node ort-measure.js --model K.onnx [--ep EP] [--warmup N] [--repeat N]
//          [--dim NAME=N]... [--ort DIR]
//        node ort-measure.js --worker [--ep EP]... [--dim NAME=N]... [--ort DIR]
//
// One model: load it in a session on execution provider EP (cpu, cuda,
// dnnl, tensorrt, ... or a full name such as CUDAExecutionProvider; default
// cpu), feed it random inputs of each graph input's declared type and shape
// (a symbolic dimension is its --dim value, else 1), run it --warmup times
// (default 3), then --repeat times (default 10) with process.hrtime around
// each session.run, and print "seconds: X", the median.  That is the runner
// contract byoc measure reads from any command.  Errors go to stderr with
// exit status 1 (2 for usage, or when onnxruntime-node cannot be loaded).
//
// --worker: what byoc measure runs, one per job slot, so that node starts
// and loads onnxruntime-node once rather than once per kernel (about 0.3 s
// each; a model has hundreds of kernels).  The worker checks that every --ep
// is a backend this onnxruntime-node has, prints "ready", then reads one JSON
// request per line on stdin,
//   {"model": "k12_dnnl.onnx", "ep": "cpu", "warmup": 3, "repeat": 10}
// and answers each with one line on stdout: "seconds: X", "error: MESSAGE"
// (this kernel cannot run), or "fatal: MESSAGE" (the provider itself cannot
// be loaded: no kernel can run, and byoc stops).  It exits at the end of its
// input.
//
// Session options: every graph optimization (ONNX Runtime's default, what a
// deployment runs), errors-only logging, ONNX Runtime's default threads,
// intra-op spinning off: a split plan runs several sessions in one process,
// where threads spinning after one session's run take the cores from the
// next (tools/ort-split-run.js), so kernels are timed as plans run them.
// Inputs are deterministic: floats uniform in [-1, 1), integers 0 or 1 (a
// valid index for any axis), bools 0/1.
//
// onnxruntime-node is found with --ort DIR (the folder holding
// node_modules/onnxruntime-node, or the package itself), else by require's
// usual search (NODE_PATH included).
'use strict';

const fs = require('fs');
const path = require('path');
const readline = require('readline');

class UsageError extends Error {}
class FatalError extends Error {}

const SHORT = {
  cpuexecutionprovider: 'cpu', cudaexecutionprovider: 'cuda', tensorrtexecutionprovider: 'tensorrt',
  dnnlexecutionprovider: 'dnnl', openvinoexecutionprovider: 'openvino', dmlexecutionprovider: 'dml',
  coremlexecutionprovider: 'coreml', qnnexecutionprovider: 'qnn', webgpuexecutionprovider: 'webgpu',
  xnnpackexecutionprovider: 'xnnpack', rocmexecutionprovider: 'rocm',
  migraphxexecutionprovider: 'migraphx', nnapiexecutionprovider: 'nnapi', trt: 'tensorrt', onednn: 'dnnl',
};

function epName(ep) {
  const k = String(ep).toLowerCase();
  return SHORT[k] || k;
}

function parseArgs(argv) {
  const a = { model: null, worker: false, eps: [], warmup: 3, repeat: 10, dims: new Map(), ort: null };
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i];
    let val = null;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) {
      val = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    const value = () => {
      if (val !== null) return val;
      if (i + 1 >= argv.length) throw new UsageError(`${arg} needs a value`);
      return argv[++i];
    };
    const count = (min) => {
      const v = value();
      if (!/^\d+$/.test(v) || Number(v) < min) throw new UsageError(`${arg} needs a whole number >= ${min}, not ${v}`);
      return Number(v);
    };
    switch (arg) {
      case '--model': a.model = value(); break;
      case '--worker': a.worker = true; break;
      case '--ep': a.eps.push(epName(value())); break;
      case '--warmup': a.warmup = count(0); break;
      case '--repeat': a.repeat = count(1); break;
      case '--ort': a.ort = value(); break;
      case '--dim': {
        const v = value();
        const m = /^(.+)=(\d+)$/.exec(v);
        if (!m) throw new UsageError(`--dim wants NAME=N, not ${v}`);
        a.dims.set(m[1], Number(m[2]));
        break;
      }
      case '-h': case '--help':
        process.stdout.write('usage: node ort-measure.js --model K.onnx [--ep EP] [--warmup N] [--repeat N]\n' +
          '         [--dim NAME=N]... [--ort DIR]\n' +
          '       node ort-measure.js --worker [--ep EP]... [--dim NAME=N]... [--ort DIR]\n');
        process.exit(0);
        break;
      default:
        throw new UsageError(`unknown argument: ${argv[i]}`);
    }
  }
  if (!a.worker && !a.model) throw new UsageError('--model (or --worker) is required');
  if (a.worker && a.model) throw new UsageError('--model and --worker do not go together');
  if (a.eps.length === 0) a.eps.push('cpu');
  if (!a.worker && a.eps.length > 1) throw new UsageError('one --ep for one model');
  return a;
}

function loadOrt(dir) {
  const tried = [];
  const attempt = (spec) => {
    try {
      return require(spec);
    } catch (e) {
      tried.push(`${spec}: ${String(e.message).split('\n')[0]}`);
      return null;
    }
  };
  let ort = null;
  if (dir) {
    const d = path.resolve(dir);
    ort = attempt(path.join(d, 'node_modules', 'onnxruntime-node'));
    if (!ort && fs.existsSync(path.join(d, 'package.json'))) ort = attempt(d);
  } else {
    ort = attempt('onnxruntime-node');
  }
  if (!ort || typeof ort.InferenceSession !== 'function') {
    throw new UsageError('cannot load onnxruntime-node (' + (tried.join('; ') || 'not a usable package') +
      '); install it with npm install onnxruntime-node and pass --ort DIR or set BYOC_ORT');
  }
  return ort;
}

// The providers named must be backends of this onnxruntime-node.
function checkEps(ort, eps) {
  if (typeof ort.listSupportedBackends !== 'function') return;
  const have = ort.listSupportedBackends().map((b) => b.name);
  for (const ep of eps) {
    if (!have.includes(ep)) {
      throw new UsageError(`execution provider '${ep}' is not in this onnxruntime-node ` +
        `(it has ${have.join(', ')})`);
    }
  }
}

// A failure to load the provider, not to run the model: no kernel can run.
function providerFailure(msg) {
  return /backend not found|no available backend|OrtSessionOptionsAppendExecutionProvider|Failed to load (shared )?library|providers_shared/i.test(msg);
}

// ---- random inputs ---------------------------------------------------------

function makeRng(name) {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  let x = h >>> 0 || 1;
  return () => {
    // xorshift32
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x / 4294967296;
  };
}

function floatToHalf(v) {
  const u = new Uint32Array(new Float32Array([v]).buffer)[0];
  const sign = (u >>> 16) & 0x8000;
  const exp = ((u >>> 23) & 0xff) - 127 + 15;
  if (exp <= 0) return sign;
  if (exp >= 31) return sign | 0x7c00;
  return sign | (exp << 10) | ((u & 0x7fffff) >>> 13);
}

const ARRAYS = {
  float32: Float32Array, float64: Float64Array, float16: Uint16Array,
  int8: Int8Array, uint8: Uint8Array, int16: Int16Array, uint16: Uint16Array,
  int32: Int32Array, uint32: Uint32Array, int64: BigInt64Array, uint64: BigUint64Array,
  bool: Uint8Array,
};

function inputTensor(ort, meta, dims) {
  const Arr = ARRAYS[meta.type];
  if (!Arr || meta.isTensor === false) throw new Error(`input ${meta.name} has type ${meta.type}, which this runner cannot feed`);
  const shape = (meta.shape || []).map((d) => (typeof d === 'number' && d >= 0 ? d : (dims.get(String(d)) ?? 1)));
  const n = shape.reduce((p, d) => p * d, 1);
  const data = new Arr(n);
  const next = makeRng(meta.name);
  for (let i = 0; i < n; i++) {
    if (meta.type === 'float32' || meta.type === 'float64') data[i] = next() * 2 - 1;
    else if (meta.type === 'float16') data[i] = floatToHalf(next() * 2 - 1);
    else if (meta.type === 'int64' || meta.type === 'uint64') data[i] = BigInt(next() < 0.5 ? 0 : 1);
    else data[i] = next() < 0.5 ? 0 : 1;
  }
  return new ort.Tensor(meta.type, data, shape);
}

// ---- timing -------------------------------------------------------------------

async function measure(ort, model, ep, warmup, repeat, dims) {
  let sess;
  try {
    sess = await ort.InferenceSession.create(model, {
      executionProviders: [epName(ep)], logSeverityLevel: 3, graphOptimizationLevel: 'all',
      extra: { session: { intra_op: { allow_spinning: '0' } } },
    });
  } catch (e) {
    const msg = String(e && e.message ? e.message : e).split('\n')[0];
    if (providerFailure(msg)) throw new FatalError(`execution provider '${ep}': ${msg}`);
    throw new Error(msg);
  }
  try {
    const metas = sess.inputMetadata || sess.inputNames.map((name) => ({ name, type: 'float32', shape: [] }));
    const feeds = {};
    for (const m of metas) feeds[m.name] = inputTensor(ort, m, dims);
    for (let i = 0; i < warmup; i++) await sess.run(feeds);
    const times = [];
    for (let i = 0; i < repeat; i++) {
      const t0 = process.hrtime.bigint();
      await sess.run(feeds);
      const t1 = process.hrtime.bigint();
      times.push(Number(t1 - t0) * 1e-9);
    }
    times.sort((a, b) => a - b);
    const h = times.length >> 1;
    return times.length % 2 ? times[h] : (times[h - 1] + times[h]) / 2;
  } finally {
    if (typeof sess.release === 'function') await sess.release();
  }
}

function oneLine(e) {
  return String(e && e.message ? e.message : e).replace(/[\r\n\t]+/g, ' ').slice(0, 400);
}

async function worker(ort, a) {
  process.stdout.write('ready\n');
  const rl = readline.createInterface({ input: process.stdin, terminal: false });
  for await (const line of rl) {
    if (!line.trim()) continue;
    let reply;
    try {
      const q = JSON.parse(line);
      const warmup = Number.isInteger(q.warmup) && q.warmup >= 0 ? q.warmup : a.warmup;
      const repeat = Number.isInteger(q.repeat) && q.repeat >= 1 ? q.repeat : a.repeat;
      const s = await measure(ort, String(q.model), q.ep || 'cpu', warmup, repeat, a.dims);
      reply = `seconds: ${s}`;
    } catch (e) {
      reply = `${e instanceof FatalError ? 'fatal' : 'error'}: ${oneLine(e)}`;
    }
    process.stdout.write(reply + '\n');
  }
}

async function main() {
  let a, ort;
  try {
    a = parseArgs(process.argv.slice(2));
    ort = loadOrt(a.ort);
    checkEps(ort, a.eps);
  } catch (e) {
    process.stderr.write(`ort-measure: ${oneLine(e)}\n`);
    process.exit(2);
  }
  if (a.worker) {
    await worker(ort, a);
    return;
  }
  try {
    const s = await measure(ort, a.model, a.eps[0], a.warmup, a.repeat, a.dims);
    process.stdout.write(`seconds: ${s}\n`);
  } catch (e) {
    process.stderr.write(`ort-measure: ${a.model}: ${oneLine(e)}\n`);
    process.exit(1);
  }
}

main();
