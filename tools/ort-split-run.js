#!/usr/bin/env node
// Run a partition plan (doc/plan.md) under ONNX Runtime and check it against
// the whole model.
//
// usage: node tools/ort-split-run.js --plan DIR/plan.json --model FILLED.onnx
//          [--dim NAME=N]... [--seed N] [--int-range LO,HI] [--tolerance T]
//          [--opt disabled|basic|extended|all] [--threads N] [--ort DIR] [--json]
//          [--whole-cache FILE] [--time N [--warmup W]] [--spin]
//
// One idea: the plan is right when running its partitions one after another,
// each fed by name from the model's inputs and the outputs of the partitions
// before it, gives the model's outputs.  So the whole model runs once as one
// session on random inputs, then each partition runs as a session of its own
// on the same inputs, and every model output of the plan is compared with the
// whole model's.  On the way the runner checks what the plan claims: that
// each partition reads only tensors already there and writes what it lists,
// that the tensors which actually crossed between partitions are plan.json's
// "tensors" (names, from, to, dtype, fixed dims), and that each output comes
// from the partition its "from" says.
//
// Every session uses ONNX Runtime's CPU execution provider, whatever the
// plan's "runtime" says: this checks the split, not the targets.  And every
// session is optimized at --opt basic by default (constant folding, removing
// redundant nodes, folding BatchNormalization into Conv): the levels above
// fuse in ways that change the numbers and that a partition boundary stops
// (ORT 1.30 at "extended" turns DequantizeLinear of an int8 constant into
// MatMul into MatMulNBits, which differed from the split plan by 3e-3 in a
// float16 output), so the comparison would measure those fusions, not the
// plan.  At basic most plans of the shared models are bit-identical.
//
// --whole-cache FILE keeps the whole model's inputs' metadata and outputs in
// FILE (and FILE.bin), keyed by the model file (and MODEL.data beside it:
// their paths, sizes and times), --seed, --int-range, --dim and --opt: plans
// of one model checked one after another then run the whole model once.
//
// --time N: once the plan checks out, time it: every partition's session is
// created and kept, the chain of partitions runs W (--warmup, default 3)
// times untimed and then N times timed (wall clock around each session.run,
// the tensors handed from one partition to the next as they are), and the
// whole model runs the same way in one session.  The report gets the median
// time of the chain, of each partition and of the whole model ("time" in
// --json; a line "time: plan X ms, whole model Y ms" otherwise).  This is
// what doc/cost-model.md's additivity is measured with.
//
// Every session runs with intra-op spinning off (session.intra_op.
// allow_spinning 0): the plan's sessions share the process, and a session's
// threads that spin after its run take the cores from the next one's, which
// made collage_resnet50's plan 1.6x slower than its partitions alone.
// --spin keeps ONNX Runtime's default.  byoc measure's runner
// (tools/ort-measure.js) times kernels the same way.
//
// Inputs are random and deterministic (xoshiro128** seeded from --seed and
// the input's name): floats in [-1, 1), integers in [LO, HI) (--int-range,
// default 0,10, clamped to the type), bools 0/1; a symbolic dimension is its
// --dim value, else the size plan.json gives it, else 1.
//
// Difference of an output: max_i |a_i - b_i| / max(max_j |b_j|, 1e-30), a the
// plan's, b the whole model's; integer and bool outputs must be equal.
//
// Exit status: 0 every output within the tolerance and every check passed;
// 1 a difference past the tolerance or a failed check (the message names the
// output or the partition); 2 a usage error, or onnxruntime-node cannot be
// loaded.
//
// onnxruntime-node is found with --ort DIR (the folder holding
// node_modules/onnxruntime-node, or the package itself), else by require's
// usual search (NODE_PATH included).  It is the only dependency.
'use strict';

const fs = require('fs');
const path = require('path');

const PROG = 'ort-split-run';

class UsageError extends Error {}
class CheckError extends Error {}

// ---- arguments -------------------------------------------------------------

function parseArgs(argv) {
  const a = {
    plan: null, model: null, dims: new Map(), seed: 0, intLo: 0, intHi: 10,
    tolerance: 1e-4, json: false, ort: null, opt: 'basic', threads: 0, wholeCache: null,
    time: 0, warmup: 3, spin: false,
  };
  const need = (i, flag) => {
    if (i + 1 >= argv.length) throw new UsageError(`${flag} needs a value`);
    return argv[i + 1];
  };
  const num = (s, flag) => {
    if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(s)) throw new UsageError(`${flag}: not a number: ${s}`);
    return Number(s);
  };
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i];
    let val = null;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0 && arg !== '--') {
      val = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    const value = () => {
      if (val !== null) return val;
      const v = need(i, arg);
      i++;
      return v;
    };
    switch (arg) {
      case '--plan': a.plan = value(); break;
      case '--model': a.model = value(); break;
      case '--ort': a.ort = value(); break;
      case '--whole-cache': a.wholeCache = value(); break;
      case '--json': a.json = true; break;
      case '--spin': a.spin = true; break;
      case '--dim': {
        const v = value();
        const m = /^([^=]+)=(\d+)$/.exec(v);
        if (!m) throw new UsageError(`--dim wants NAME=N, not ${v}`);
        a.dims.set(m[1], Number(m[2]));
        break;
      }
      case '--seed': {
        const v = value();
        if (!/^\d+$/.test(v)) throw new UsageError(`--seed wants a non-negative integer, not ${v}`);
        a.seed = Number(v);
        break;
      }
      case '--int-range': {
        const v = value();
        const m = /^(-?\d+),(-?\d+)$/.exec(v);
        if (!m || Number(m[1]) >= Number(m[2])) throw new UsageError(`--int-range wants LO,HI with LO < HI, not ${v}`);
        a.intLo = Number(m[1]);
        a.intHi = Number(m[2]);
        break;
      }
      case '--tolerance': {
        const v = num(value(), '--tolerance');
        if (!(v >= 0)) throw new UsageError('--tolerance must be >= 0');
        a.tolerance = v;
        break;
      }
      case '--opt': {
        const v = value();
        if (!['disabled', 'basic', 'extended', 'all'].includes(v)) throw new UsageError(`--opt: disabled, basic, extended or all, not ${v}`);
        a.opt = v;
        break;
      }
      case '--time': case '--warmup': {
        const v = value();
        if (!/^\d+$/.test(v) || (arg === '--time' && Number(v) < 1)) {
          throw new UsageError(`${arg} wants a count${arg === '--time' ? ' of at least 1' : ''}, not ${v}`);
        }
        a[arg.slice(2)] = Number(v);
        break;
      }
      case '--threads': {
        const v = value();
        if (!/^\d+$/.test(v)) throw new UsageError(`--threads wants a count, not ${v}`);
        a.threads = Number(v);
        break;
      }
      case '-h': case '--help':
        process.stdout.write(usageText());
        process.exit(0);
        break;
      default:
        throw new UsageError(`unknown argument: ${argv[i]}`);
    }
  }
  if (!a.plan) throw new UsageError('--plan is required');
  if (!a.model) throw new UsageError('--model is required');
  return a;
}

function usageText() {
  return `usage: node ${path.basename(__filename)} --plan DIR/plan.json --model FILLED.onnx\n` +
    '         [--dim NAME=N]... [--seed N] [--int-range LO,HI] [--tolerance T]\n' +
    '         [--opt disabled|basic|extended|all] [--threads N] [--ort DIR] [--json]\n' +
    '         [--whole-cache FILE] [--time N [--warmup W]] [--spin]\n';
}

// ---- onnxruntime-node --------------------------------------------------------

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
      '); install it with npm install onnxruntime-node and pass --ort DIR or set NODE_PATH');
  }
  return ort;
}

// ---- random inputs -----------------------------------------------------------

// xoshiro128** (Blackman and Vigna), its state from an FNV-1a hash of the
// seed and the input's name through splitmix32: each input's data depends
// only on the seed and its name.
function makeRng(seed, name) {
  let h = 0x811c9dc5;
  const s = `${seed}:${name}`;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  let x = h >>> 0;
  const split = () => {
    x = (x + 0x9e3779b9) | 0;
    let z = x;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return z ^ (z >>> 16);
  };
  let a = split(), b = split(), c = split(), d = split();
  return () => {
    const t = b << 9;
    let r = Math.imul(b, 5);
    r = Math.imul((r << 7) | (r >>> 25), 9);
    c ^= a; d ^= b; b ^= c; a ^= d; c ^= t;
    d = (d << 11) | (d >>> 21);
    return r >>> 0; // uniform in [0, 2^32)
  };
}

const INT_LIMITS = {
  int8: [-128, 127], uint8: [0, 255], int16: [-32768, 32767], uint16: [0, 65535],
  int32: [-2147483648, 2147483647], uint32: [0, 4294967295],
  int64: [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER], uint64: [0, Number.MAX_SAFE_INTEGER],
};
const ARRAYS = {
  float32: Float32Array, float64: Float64Array, float16: Uint16Array,
  int8: Int8Array, uint8: Uint8Array, int16: Int16Array, uint16: Uint16Array,
  int32: Int32Array, uint32: Uint32Array, int64: BigInt64Array, uint64: BigUint64Array,
  bool: Uint8Array,
};
const FLOAT_TYPES = new Set(['float32', 'float64', 'float16']);

function floatToHalf(v) {
  const f = new Float32Array([v]);
  const u = new Uint32Array(f.buffer)[0];
  const sign = (u >>> 16) & 0x8000;
  const exp = ((u >>> 23) & 0xff) - 127 + 15;
  let mant = u & 0x7fffff;
  if (exp <= 0) {
    if (exp < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - exp;
    let h = mant >>> shift;
    if ((mant >>> (shift - 1)) & 1) h += 1;
    return sign | h;
  }
  if (exp >= 31) return sign | 0x7c00;
  let h = sign | (exp << 10) | (mant >>> 13);
  if (mant & 0x1000) h += 1; // round half up on the dropped bits
  return h;
}

function halfToFloat(h) {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >>> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

function randomTensor(ort, name, dtype, shape, opts) {
  const Arr = ARRAYS[dtype];
  if (!Arr) throw new CheckError(`model input ${name} has type ${dtype}, which onnxruntime-node cannot feed`);
  const n = shape.reduce((p, d) => p * d, 1);
  const data = new Arr(n);
  const next = makeRng(opts.seed, name);
  if (FLOAT_TYPES.has(dtype)) {
    for (let i = 0; i < n; i++) {
      const v = (next() / 4294967296) * 2 - 1;
      data[i] = dtype === 'float16' ? floatToHalf(v) : v;
    }
  } else if (dtype === 'bool') {
    for (let i = 0; i < n; i++) data[i] = next() & 1;
  } else {
    const [tlo, thi] = INT_LIMITS[dtype];
    const lo = Math.max(opts.intLo, tlo);
    const hi = Math.min(opts.intHi - 1, thi); // inclusive
    if (lo > hi) throw new CheckError(`--int-range ${opts.intLo},${opts.intHi} holds no ${dtype} value (model input ${name})`);
    const span = hi - lo + 1;
    const big = dtype === 'int64' || dtype === 'uint64';
    for (let i = 0; i < n; i++) {
      const v = lo + Math.floor((next() / 4294967296) * span);
      data[i] = big ? BigInt(v) : v;
    }
  }
  return new ort.Tensor(dtype, data, shape);
}

// ---- comparing ---------------------------------------------------------------

function values(t) {
  // Numbers of a tensor's data, float16 decoded.
  if (t.type === 'float16') {
    const out = new Float64Array(t.data.length);
    for (let i = 0; i < out.length; i++) out[i] = halfToFloat(t.data[i]);
    return out;
  }
  return t.data;
}

function bytesOf(t) {
  const d = t.data;
  return Buffer.from(d.buffer, d.byteOffset, d.byteLength);
}

function compare(a, b) {
  // a: the plan's tensor, b: the whole model's
  const res = { max_abs_diff: 0, max_rel_diff: 0, max_abs_whole: 0, bit_identical: false,
    mismatches: 0, nonfinite_whole: 0, constant_whole: true };
  res.bit_identical = Buffer.compare(bytesOf(a), bytesOf(b)) === 0;
  const av = values(a), bv = values(b);
  const isInt = !FLOAT_TYPES.has(b.type);
  const first = bv.length ? bv[0] : 0;
  for (let i = 0; i < bv.length; i++) {
    const y = isInt ? Number(bv[i]) : bv[i];
    if (bv[i] !== first) res.constant_whole = false;
    if (!Number.isFinite(y)) { res.nonfinite_whole++; continue; }
    const m = Math.abs(y);
    if (m > res.max_abs_whole) res.max_abs_whole = m;
  }
  let maxd = 0;
  for (let i = 0; i < bv.length; i++) {
    const x = isInt ? Number(av[i]) : av[i];
    const y = isInt ? Number(bv[i]) : bv[i];
    let d;
    if (av[i] === bv[i] || (Number.isNaN(x) && Number.isNaN(y))) d = 0;
    else if (!Number.isFinite(x) || !Number.isFinite(y)) d = Infinity;
    else d = Math.abs(x - y);
    if (d !== 0) res.mismatches++;
    if (d > maxd) maxd = d;
  }
  res.max_abs_diff = maxd;
  res.max_rel_diff = maxd / Math.max(res.max_abs_whole, 1e-30);
  if (bv.length <= 1) res.constant_whole = false;
  return res;
}

// ---- the whole model's outputs, cached ----------------------------------------

function wholeKey(opts) {
  const stat = (f) => {
    try {
      const st = fs.statSync(f);
      return [path.resolve(f), st.size, st.mtimeMs];
    } catch (e) {
      return null;
    }
  };
  return JSON.stringify({
    version: 1, model: stat(opts.model), data: stat(`${opts.model}.data`), seed: opts.seed,
    int_range: [opts.intLo, opts.intHi], opt: opts.opt, dims: [...opts.dims].sort(),
  });
}

function readWholeCache(ort, file, key) {
  let head, bin;
  try {
    head = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (head.key !== key) return null;
    bin = fs.readFileSync(`${file}.bin`);
  } catch (e) {
    return null;
  }
  const outputs = {};
  for (const o of head.outputs) {
    const Arr = ARRAYS[o.type];
    if (!Arr || o.offset + o.length > bin.length) return null;
    const buf = bin.buffer.slice(bin.byteOffset + o.offset, bin.byteOffset + o.offset + o.length);
    outputs[o.name] = new ort.Tensor(o.type, new Arr(buf), o.dims);
  }
  return { inputs: head.inputs, outputNames: head.outputNames, outputs };
}

function writeWholeCache(file, key, inputs, outputNames, outputs) {
  const parts = [];
  const list = [];
  let offset = 0;
  for (const name of outputNames) {
    const t = outputs[name];
    if (!ARRAYS[t.type]) return; // a type this runner cannot read back
    const b = bytesOf(t);
    const pad = (8 - (offset % 8)) % 8;
    if (pad) parts.push(Buffer.alloc(pad));
    offset += pad;
    list.push({ name, type: t.type, dims: Array.from(t.dims), offset, length: b.length });
    parts.push(b);
    offset += b.length;
  }
  const meta = inputs.map((m) => ({ name: m.name, type: m.type, shape: m.shape ? Array.from(m.shape) : [] }));
  try {
    fs.writeFileSync(`${file}.bin.tmp`, Buffer.concat(parts));
    fs.renameSync(`${file}.bin.tmp`, `${file}.bin`);
    fs.writeFileSync(`${file}.tmp`, JSON.stringify({ key, inputs: meta, outputNames, outputs: list }));
    fs.renameSync(`${file}.tmp`, file);
  } catch (e) {
    // A cache that cannot be written is only slower next time.
  }
}

// ---- the plan ----------------------------------------------------------------

function readPlan(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read the plan ${file}: ${e.message}`);
  }
  let plan;
  try {
    plan = JSON.parse(text);
  } catch (e) {
    throw new CheckError(`${file}: not JSON: ${e.message}`);
  }
  const bad = (msg) => { throw new CheckError(`${file}: ${msg}`); };
  if (!plan || typeof plan !== 'object') bad('not a JSON object');
  if (plan.version !== 1) bad(`version ${JSON.stringify(plan.version)}, this runner reads version 1`);
  for (const k of ['inputs', 'outputs', 'partitions', 'tensors']) {
    if (!Array.isArray(plan[k])) bad(`"${k}" is not an array`);
  }
  plan.partitions.forEach((p, i) => {
    if (!p || typeof p.file !== 'string') bad(`partition ${i} has no "file"`);
    for (const k of ['inputs', 'outputs']) {
      if (!Array.isArray(p[k]) || p[k].some((x) => typeof x !== 'string')) bad(`partition ${i}: "${k}" is not an array of names`);
    }
  });
  plan.outputs.forEach((o, i) => {
    if (!o || typeof o.name !== 'string') bad(`output ${i} has no "name"`);
    if (!(o.from === null || Number.isInteger(o.from))) bad(`output ${o.name}: "from" is neither a partition index nor null`);
  });
  plan.tensors.forEach((t, i) => {
    if (!t || typeof t.name !== 'string') bad(`tensor ${i} has no "name"`);
    if (!(t.from === null || Number.isInteger(t.from))) bad(`tensor ${t.name}: "from" is neither a partition index nor null`);
    if (!Array.isArray(t.to) || t.to.some((x) => !Number.isInteger(x))) bad(`tensor ${t.name}: "to" is not an array of partition indices`);
  });
  return plan;
}

const fmtShape = (s) => `[${s.join(',')}]`;
const fmtFrom = (f) => (f === null ? 'model input' : `partition ${f}`);

// A shape of plan.json ([int | "name" | null]) against a tensor's dims.
function shapeMismatch(planShape, dims, bound) {
  if (planShape === null || planShape === undefined) return null;
  if (!Array.isArray(planShape)) return 'shape is not an array';
  if (planShape.length !== dims.length) return `rank ${planShape.length} in plan.json, ${dims.length} at run time`;
  for (let k = 0; k < dims.length; k++) {
    const s = planShape[k];
    if (typeof s === 'number' && s !== dims[k]) return `dim ${k} is ${s} in plan.json, ${dims[k]} at run time`;
    if (typeof s === 'string' && bound.has(s) && bound.get(s) !== dims[k]) {
      return `dim ${k} is ${s} = ${bound.get(s)}, ${dims[k]} at run time`;
    }
  }
  return null;
}

// ---- running -----------------------------------------------------------------

function median(v) {
  const s = v.slice().sort((x, y) => x - y);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

const msSince = (t) => Number(process.hrtime.bigint() - t) / 1e6;

// The plan's chain and the whole model, timed (see --time above).
async function timePlan(ort, plan, planDir, opts, sessionOptions, feeds) {
  const sessions = [];
  try {
    for (const p of plan.partitions) {
      sessions.push(await ort.InferenceSession.create(path.resolve(planDir, p.file), sessionOptions));
    }
    const lastRead = new Map();
    plan.partitions.forEach((p, i) => p.inputs.forEach((x) => lastRead.set(x, i)));
    const per = plan.partitions.map(() => []);
    const chain = [];
    for (let r = 0; r < opts.warmup + opts.time; r++) {
      const avail = new Map(Object.entries(feeds));
      let total = 0;
      for (let i = 0; i < sessions.length; i++) {
        const pf = {};
        for (const x of plan.partitions[i].inputs) pf[x] = avail.get(x);
        const t = process.hrtime.bigint();
        const out = await sessions[i].run(pf);
        const ms = msSince(t);
        total += ms;
        if (r >= opts.warmup) per[i].push(ms);
        for (const x of plan.partitions[i].outputs) {
          if ((lastRead.get(x) ?? -1) > i) avail.set(x, out[x]);
        }
      }
      if (r >= opts.warmup) chain.push(total);
    }
    for (const s of sessions.splice(0)) await s.release();
    const whole = await ort.InferenceSession.create(opts.model, sessionOptions);
    const wt = [];
    try {
      for (let r = 0; r < opts.warmup + opts.time; r++) {
        const t = process.hrtime.bigint();
        await whole.run(feeds);
        if (r >= opts.warmup) wt.push(msSince(t));
      }
    } finally {
      await whole.release();
    }
    return {
      repeat: opts.time, warmup: opts.warmup, plan_ms: median(chain), whole_ms: median(wt),
      partitions_ms: per.map(median),
    };
  } finally {
    for (const s of sessions) await s.release();
  }
}

async function main() {
  const t0 = Date.now();
  const argv = process.argv.slice(2);
  let opts;
  try {
    opts = parseArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`${PROG}: ${e.message}\n${usageText()}`);
      return 2;
    }
    throw e;
  }
  const report = {
    ok: false, plan: opts.plan, model: opts.model, seed: opts.seed,
    int_range: [opts.intLo, opts.intHi], tolerance: opts.tolerance, opt: opts.opt,
    dims: {}, inputs: [], whole: null, partitions: [], tensors: null, outputs: [],
    errors: [], warnings: [], time_ms: null,
  };
  const log = [];
  const say = (s) => { if (!opts.json) log.push(s); };
  const flush = () => {
    if (opts.json) process.stdout.write(JSON.stringify(report, null, 1) + '\n');
    else process.stdout.write(log.map((l) => l + '\n').join(''));
  };

  let ort;
  try {
    ort = loadOrt(opts.ort);
  } catch (e) {
    process.stderr.write(`${PROG}: ${e.message}\n`);
    return 2;
  }
  let plan;
  try {
    plan = readPlan(opts.plan);
    if (!fs.existsSync(opts.model)) throw new UsageError(`no such model: ${opts.model}`);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`${PROG}: ${e.message}\n`);
      return 2;
    }
    report.errors.push(e.message);
    process.stderr.write(`${PROG}: ${e.message}\n`);
    if (opts.json) flush();
    return 1;
  }
  const planDir = path.dirname(path.resolve(opts.plan));
  // ORT's warnings (an Unsqueeze it cannot remove, an unused initializer
  // of an IR 3 model) are not the plan's: errors only.
  const sessionOptions = { executionProviders: ['cpu'], graphOptimizationLevel: opts.opt, logSeverityLevel: 3 };
  // Several sessions live in one process here; an idle session's intra-op
  // threads spin after each run (ORT's default) and steal the cores from the
  // next partition's (collage_resnet50's plan: 77 ms spinning, 48 ms not).
  if (!opts.spin) sessionOptions.extra = { session: { intra_op: { allow_spinning: '0' } } };
  if (opts.threads) sessionOptions.intraOpNumThreads = opts.threads;

  const fail = (msg) => { throw new CheckError(msg); };
  const bound = new Map(opts.dims);
  try {
    // -- the whole model
    let t = Date.now();
    const cacheKey = opts.wholeCache ? wholeKey(opts) : null;
    const cached = cacheKey ? readWholeCache(ort, opts.wholeCache, cacheKey) : null;
    let whole = null;
    let metaIn, outputNames;
    if (cached) {
      metaIn = cached.inputs;
      outputNames = cached.outputNames;
    } else {
      try {
        whole = await ort.InferenceSession.create(opts.model, sessionOptions);
      } catch (e) {
        fail(`onnxruntime cannot load the whole model ${opts.model}: ${e.message}`);
      }
      metaIn = whole.inputMetadata || whole.inputNames.map((name) => ({ name }));
      outputNames = whole.outputNames;
    }
    const loadMs = Date.now() - t;
    const feeds = {};
    const usedDims = new Set();
    const planIn = new Map(plan.inputs.map((i) => [i.name, i]));
    for (const m of metaIn) {
      const pi = planIn.get(m.name);
      if (!pi) fail(`the model reads input ${m.name}, which plan.json's "inputs" does not list`);
      const dtype = m.type || pi.dtype;
      if (m.type && pi.dtype !== m.type) fail(`input ${m.name} is ${m.type} in the model, ${pi.dtype} in plan.json`);
      const declared = m.shape && m.shape.length ? m.shape : pi.shape || [];
      const shape = declared.map((d, k) => {
        if (typeof d === 'number' && d >= 0) return d;
        // A symbolic size: --dim's value, else the plan's (byoc may have
        // bound it), else 1.  A plan that fixes it otherwise than --dim is
        // caught below.
        const ps = pi.shape && pi.shape[k];
        const nm = typeof d === 'string' && d ? d : typeof ps === 'string' ? ps : null;
        if (nm) {
          usedDims.add(nm);
          if (!bound.has(nm)) bound.set(nm, typeof ps === 'number' ? ps : 1);
          return bound.get(nm);
        }
        return typeof ps === 'number' ? ps : 1;
      });
      const mis = shapeMismatch(pi.shape, shape, bound);
      if (mis) fail(`input ${m.name}: ${mis}`);
      feeds[m.name] = randomTensor(ort, m.name, dtype, shape, opts);
      report.inputs.push({ name: m.name, dtype, shape });
    }
    for (const name of planIn.keys()) {
      if (!(name in feeds)) fail(`plan.json's "inputs" lists ${name}, which the model does not read`);
    }
    for (const [k, v] of opts.dims) {
      if (!usedDims.has(k)) report.warnings.push(`--dim ${k}=${v}: no input of the model has a dimension ${k}`);
    }
    for (const k of usedDims) report.dims[k] = bound.get(k);
    t = Date.now();
    let wholeOut = cached ? cached.outputs : null;
    if (!cached) {
      try {
        wholeOut = await whole.run(feeds);
      } catch (e) {
        fail(`onnxruntime cannot run the whole model: ${e.message}`);
      }
      await whole.release();
      if (cacheKey) writeWholeCache(opts.wholeCache, cacheKey, metaIn, outputNames, wholeOut);
    }
    const runMs = Date.now() - t;
    const planOut = new Map(plan.outputs.map((o) => [o.name, o]));
    for (const name of outputNames) {
      if (!planOut.has(name)) fail(`the model writes output ${name}, which plan.json's "outputs" does not list`);
    }
    for (const name of planOut.keys()) {
      if (!(name in wholeOut)) fail(`plan.json's "outputs" lists ${name}, which the model does not write`);
    }
    report.whole = { load_ms: loadMs, run_ms: runMs, cached: !!cached };
    say(`${PROG}: ${opts.plan}: ${plan.partitions.length} partitions, ${plan.tensors.length} crossing tensors`);
    say(`  inputs: ${report.inputs.map((i) => `${i.name} ${i.dtype} ${fmtShape(i.shape)}`).join(', ')}` +
      (Object.keys(report.dims).length ? ` (${Object.entries(report.dims).map(([k, v]) => `${k}=${v}`).join(' ')})` : ''));
    say(cached ? `  whole model: outputs from ${opts.wholeCache}` : `  whole model: load ${loadMs} ms, run ${runMs} ms`);

    // -- the plan, partition by partition
    const planTensors = new Map();
    for (const pt of plan.tensors) {
      if (planTensors.has(pt.name)) fail(`plan.json's "tensors" lists ${pt.name} twice`);
      planTensors.set(pt.name, pt);
    }
    const avail = new Map(); // name -> { tensor, from }
    for (const [name, tensor] of Object.entries(feeds)) avail.set(name, { tensor, from: null });
    const lastRead = new Map();
    plan.partitions.forEach((p, i) => p.inputs.forEach((x) => lastRead.set(x, i)));
    const crossed = new Map(); // name -> { from, to: [] }
    const writer = new Map(); // name -> the partition that wrote it
    const done = new Set();
    const checkTensor = (name, tensor, where) => {
      const pt = planTensors.get(name) || planOut.get(name);
      if (!pt) return;
      if (pt.dtype && pt.dtype !== tensor.type) fail(`${where}: ${name} is ${tensor.type} at run time, ${pt.dtype} in plan.json`);
      const mis = shapeMismatch(pt.shape, tensor.dims, bound);
      if (mis) fail(`${where}: ${name}: ${mis}`);
    };
    const compareOutput = (name, tensor, from) => {
      const po = planOut.get(name);
      const w = wholeOut[name];
      const o = { name, dtype: tensor.type, shape: Array.from(tensor.dims), from };
      report.outputs.push(o);
      done.add(name);
      if (po.from !== from) {
        o.ok = false;
        report.errors.push(`output ${name} comes from ${fmtFrom(from)}, plan.json says ${fmtFrom(po.from)}`);
      }
      if (w.type !== tensor.type || w.dims.length !== tensor.dims.length || w.dims.some((d, k) => d !== tensor.dims[k])) {
        o.ok = false;
        report.errors.push(`output ${name}: the plan gives ${tensor.type} ${fmtShape(tensor.dims)}, the whole model ${w.type} ${fmtShape(w.dims)}`);
        return;
      }
      Object.assign(o, compare(tensor, w));
      const exact = !FLOAT_TYPES.has(w.type);
      const within = exact ? o.mismatches === 0 : o.max_rel_diff <= opts.tolerance;
      if (o.ok === undefined) o.ok = within;
      else o.ok = o.ok && within;
      if (!within) {
        report.errors.push(exact
          ? `output ${name}: ${o.mismatches} of ${tensor.data.length} values differ from the whole model's (${w.type} must be equal)`
          : `output ${name}: max relative difference ${o.max_rel_diff.toExponential(3)} exceeds the tolerance ${opts.tolerance}`);
      }
      if (o.nonfinite_whole) report.warnings.push(`output ${name}: the whole model gives ${o.nonfinite_whole} non-finite values`);
      if (o.constant_whole) report.warnings.push(`output ${name}: the whole model's values are all equal, which says little`);
    };

    for (let i = 0; i < plan.partitions.length; i++) {
      const p = plan.partitions[i];
      const where = `partition ${i} (${p.file})`;
      const file = path.resolve(planDir, p.file);
      const rec = { index: i, file: p.file, target: p.target, inputs: p.inputs.length, outputs: p.outputs.length };
      report.partitions.push(rec);
      const pfeeds = {};
      for (const x of p.inputs) {
        const have = avail.get(x);
        if (!have) {
          const later = plan.partitions.findIndex((q, j) => j > i && q.outputs.includes(x));
          fail(`${where} reads ${x}, which is ` + (later >= 0
            ? `written only later, by partition ${later}: the partitions are not in execution order`
            : 'neither a model input nor an output of an earlier partition'));
        }
        pfeeds[x] = have.tensor;
        const c = crossed.get(x) || { from: have.from, to: [] };
        if (!c.to.includes(i)) c.to.push(i);
        crossed.set(x, c);
      }
      if (!fs.existsSync(file)) fail(`${where}: no such file ${file}`);
      t = Date.now();
      let sess;
      try {
        sess = await ort.InferenceSession.create(file, sessionOptions);
      } catch (e) {
        fail(`${where}: onnxruntime cannot load it: ${e.message}`);
      }
      rec.load_ms = Date.now() - t;
      const needs = sess.inputNames.filter((x) => !p.inputs.includes(x));
      if (needs.length) fail(`${where} reads ${needs.join(', ')}, which its "inputs" in plan.json do not list`);
      const unread = p.inputs.filter((x) => !sess.inputNames.includes(x));
      if (unread.length) fail(`${where}: plan.json lists inputs ${unread.join(', ')}, which the partition's model does not read`);
      const missing = p.outputs.filter((x) => !sess.outputNames.includes(x));
      if (missing.length) {
        fail(`${where} produces fewer outputs than plan.json lists: ${missing.join(', ')} missing` +
          ` (it writes ${sess.outputNames.join(', ') || 'nothing'})`);
      }
      const extra = sess.outputNames.filter((x) => !p.outputs.includes(x));
      if (extra.length) fail(`${where} writes ${extra.join(', ')}, which its "outputs" in plan.json do not list`);
      t = Date.now();
      let out;
      try {
        out = await sess.run(pfeeds);
      } catch (e) {
        fail(`${where}: onnxruntime cannot run it: ${e.message}`);
      }
      rec.run_ms = Date.now() - t;
      await sess.release();
      for (const x of p.outputs) {
        if (x in feeds) fail(`${where} writes ${x}, which is a model input`);
        if (writer.has(x)) fail(`${where} writes ${x}, which partition ${writer.get(x)} wrote already`);
        writer.set(x, i);
        checkTensor(x, out[x], where);
        if (planOut.has(x)) {
          compareOutput(x, out[x], i);
        }
        if ((lastRead.get(x) ?? -1) > i) avail.set(x, { tensor: out[x], from: i });
      }
      // Release what no later partition reads.
      for (const x of p.inputs) {
        if (lastRead.get(x) === i) avail.delete(x);
      }
      say(`  ${where}${p.target ? ` [${p.target}]` : ''}: ${p.inputs.length} in, ${p.outputs.length} out, load ${rec.load_ms} ms, run ${rec.run_ms} ms`);
    }
    // Outputs passed through from the model's inputs.
    for (const [name, po] of planOut) {
      if (done.has(name)) continue;
      if (name in feeds) compareOutput(name, feeds[name], null);
      else report.errors.push(`output ${name} is written by no partition and is no model input`);
    }

    // -- the tensors that crossed, against plan.json's list
    const terr = [];
    for (const [name, c] of crossed) {
      c.to.sort((x, y) => x - y);
      const pt = planTensors.get(name);
      if (!pt) {
        terr.push(`${name} crosses from ${fmtFrom(c.from)} to ${c.to.join(',')}, but plan.json's "tensors" does not list it`);
        continue;
      }
      if (pt.from !== c.from) terr.push(`tensor ${name} comes from ${fmtFrom(c.from)}, plan.json says ${fmtFrom(pt.from)}`);
      const to = pt.to.join(',');
      if (to !== c.to.join(',')) terr.push(`tensor ${name} goes to ${c.to.join(',')}, plan.json says ${to || 'nowhere'}`);
      const fed = c.from === null ? feeds[name] : null;
      if (fed && pt.dtype && pt.dtype !== fed.type) terr.push(`tensor ${name} is ${fed.type}, plan.json says ${pt.dtype}`);
    }
    for (const name of planTensors.keys()) {
      if (!crossed.has(name)) terr.push(`plan.json's "tensors" lists ${name}, which no partition reads`);
    }
    report.tensors = { ok: terr.length === 0, count: crossed.size };
    report.errors.push(...terr);
    if (opts.time && report.errors.length === 0) {
      report.time = await timePlan(ort, plan, planDir, opts, sessionOptions, feeds);
      say(`  time: plan ${report.time.plan_ms.toFixed(3)} ms, whole model ${report.time.whole_ms.toFixed(3)} ms ` +
        `(median of ${opts.time} after ${opts.warmup} warm-up runs)`);
    }
  } catch (e) {
    if (!(e instanceof CheckError)) throw e;
    report.errors.push(e.message);
  }

  const order = new Map(plan.outputs.map((o, k) => [o.name, k]));
  report.outputs.sort((x, y) => order.get(x.name) - order.get(y.name));
  for (const o of report.outputs) {
    if (o.max_rel_diff === undefined) continue;
    say(`  output ${o.name} ${o.dtype} ${fmtShape(o.shape)} from ${fmtFrom(o.from)}: ` +
      (o.bit_identical ? 'bit-identical' : `max rel diff ${o.max_rel_diff.toExponential(3)}, abs ${o.max_abs_diff.toExponential(3)}` +
        ` (${o.mismatches} values differ)`) + `${o.ok ? '' : ' FAIL'}`);
  }
  for (const w of report.warnings) say(`  warning: ${w}`);
  for (const e of report.errors) say(`  error: ${e}`);
  report.ok = report.errors.length === 0 && report.outputs.length > 0 && report.outputs.every((o) => o.ok);
  report.time_ms = Date.now() - t0;
  const n = report.outputs.length;
  const ident = report.outputs.filter((o) => o.bit_identical).length;
  const worst = report.outputs.reduce((m, o) => Math.max(m, o.max_rel_diff || 0), 0);
  say(`${report.ok ? 'ok' : 'FAIL'}: ${n} output${n === 1 ? '' : 's'}, ${ident} bit-identical, ` +
    `max rel diff ${worst.toExponential(3)} (tolerance ${opts.tolerance}), ${report.time_ms} ms`);
  flush();
  if (!report.ok && opts.json) {
    for (const e of report.errors) process.stderr.write(`${PROG}: ${e}\n`);
  }
  return report.ok ? 0 : 1;
}

main().then((code) => { process.exitCode = code; }, (e) => {
  process.stderr.write(`${PROG}: internal error: ${e && e.stack ? e.stack : e}\n`);
  process.exitCode = 1;
});
