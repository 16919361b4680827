#!/usr/bin/env node
// Run the kernels of a `byoc kernels -f onnx -o DIR` folder under ONNX
// Runtime's CPU execution provider, each on random inputs of the types
// DIR/kernels.json declares (free dimensions 1), and check that each runs
// and gives every output it declares.
//
// usage: node ort_kernels.js DIR [--every N] [--offset K] [--ort DIR]
//
// --every N runs kernels K, K + N, K + 2N, ... only (default: all), a
// deterministic sample of a big model's kernels.  Inputs: floats uniform in
// [-1, 1), integers 0 or 1 (valid indices), bools either; from a fixed
// generator, so a run is repeatable.  Kernels without a file (no ONNX
// form) are not run.  The sessions run at graph optimization level
// "basic", the level that keeps every kernel's op what byoc wrote.
//
// Exit status: 0 when every kernel run gave its outputs; 1 otherwise (each
// failure printed with the kernel's file and ops); 2 on bad usage or when
// onnxruntime-node cannot be loaded.
'use strict';

const fs = require('fs');
const path = require('path');

function usage(msg) {
  console.error(`ort_kernels: ${msg}\nusage: node ort_kernels.js DIR [--every N] [--offset K] [--ort DIR]`);
  process.exit(2);
}

const args = process.argv.slice(2);
let dir = null, every = 1, offset = 0, ortDir = null;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--every') every = Number(args[++i]);
  else if (args[i] === '--offset') offset = Number(args[++i]);
  else if (args[i] === '--ort') ortDir = args[++i];
  else if (!dir) dir = args[i];
  else usage(`unexpected argument ${args[i]}`);
}
if (!dir || !(every >= 1) || !(offset >= 0)) usage('need DIR, and N >= 1');

let ort;
try {
  const spec = ortDir
    ? (fs.existsSync(path.join(ortDir, 'node_modules', 'onnxruntime-node'))
      ? path.resolve(ortDir, 'node_modules', 'onnxruntime-node') : path.resolve(ortDir))
    : 'onnxruntime-node';
  ort = require(spec);
} catch (e) {
  usage(`cannot load onnxruntime-node: ${String(e.message).split('\n')[0]}`);
}

const ARRAYS = {
  float32: Float32Array, float64: Float64Array, float16: Uint16Array,
  int8: Int8Array, uint8: Uint8Array, int16: Int16Array, uint16: Uint16Array,
  int32: Int32Array, uint32: Uint32Array, int64: BigInt64Array, uint64: BigUint64Array,
  bool: Uint8Array,
};

// A small linear congruential generator: repeatable, enough for inputs.
let state = 12345;
function next() {
  state = (Math.imul(state, 1103515245) + 12345) >>> 0;
  return state;
}

function randomTensor(dtype, shape) {
  const Arr = ARRAYS[dtype];
  if (!Arr) throw new Error(`an input of type ${dtype}, which onnxruntime-node cannot feed`);
  const n = shape.reduce((p, d) => p * d, 1);
  const data = new Arr(n);
  for (let i = 0; i < n; i++) {
    const r = next();
    if (dtype === 'float32' || dtype === 'float64') data[i] = (r / 4294967296) * 2 - 1;
    else if (dtype === 'float16') data[i] = (r >>> 31) ? 0xb800 : 0x3800; // -0.5 or 0.5
    else if (dtype === 'int64' || dtype === 'uint64') data[i] = BigInt(r >>> 31);
    else data[i] = r >>> 31;
  }
  return new ort.Tensor(dtype, data, shape);
}

async function main() {
  const kj = JSON.parse(fs.readFileSync(path.join(dir, 'kernels.json'), 'utf8'));
  let ran = 0, failed = 0;
  for (let i = offset; i < kj.kernels.length; i += every) {
    const k = kj.kernels[i];
    if (!k.file) continue;
    const where = `${k.file} (${k.ops.join(', ')})`;
    try {
      const s = await ort.InferenceSession.create(path.join(dir, k.file), {
        executionProviders: ['cpu'], graphOptimizationLevel: 'basic', logSeverityLevel: 3,
      });
      const feeds = {};
      for (const x of k.inputs) {
        const shape = x.shape.map((d) => (typeof d === 'number' ? d : 1));
        feeds[x.name] = randomTensor(x.dtype, shape);
      }
      const out = await s.run(feeds);
      for (const name of s.outputNames) {
        if (!out[name]) throw new Error(`no output ${name}`);
      }
      if (typeof s.release === 'function') await s.release();
      ran++;
    } catch (e) {
      failed++;
      console.log(`FAIL: ${where}: ${String(e.message).split('\n')[0]}`);
    }
  }
  console.log(`${dir}: ${ran} kernels ran under ONNX Runtime, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(`ort_kernels: ${e.message}`);
  process.exit(1);
});
