// node ort_run.js JOBS.json RESULTS.json: runs each model of JOBS (a map
// from a model's path to its inputs, {name: {dtype, dims, data}}) in ONNX
// Runtime (onnxruntime-node, found at $ORT_NODE) with its graph left as
// written, and writes each one's outputs the same way, or {error}.
// float16 data travel as their bits; infinities and NaN as strings.
'use strict';
const ort = require(process.env.ORT_NODE || 'onnxruntime-node');
const fs = require('fs');
const arrays = {
  float32: Float32Array, float64: Float64Array, float16: Uint16Array, int8: Int8Array,
  uint8: Uint8Array, int16: Int16Array, int32: Int32Array, int64: BigInt64Array, bool: Uint8Array,
};
function plain(v) {
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number' && !isFinite(v)) return String(v);
  return v;
}
(async () => {
  const jobs = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  const results = {};
  for (const [model, inputs] of Object.entries(jobs)) {
    try {
      const session = await ort.InferenceSession.create(model, {
        graphOptimizationLevel: 'disabled', logSeverityLevel: 3,
      });
      const feeds = {};
      for (const [name, t] of Object.entries(inputs)) {
        const A = arrays[t.dtype];
        const data = t.dtype === 'int64' ? A.from(t.data.map(BigInt)) : A.from(t.data);
        feeds[name] = new ort.Tensor(t.dtype, data, t.dims);
      }
      const out = await session.run(feeds);
      results[model] = {};
      for (const [name, t] of Object.entries(out))
        results[model][name] = {dtype: t.type, dims: t.dims, data: Array.from(t.data, plain)};
    } catch (e) {
      results[model] = {error: String(e.message || e).split('\n')[0]};
    }
  }
  fs.writeFileSync(process.argv[3], JSON.stringify(results));
})();
