#!/usr/bin/env node
// Write the graph ONNX Runtime's own optimizer makes of a model: what an
// execution provider is actually handed.  ORT writes it when a session is
// created with optimizedModelFilePath set; at level 'extended' or 'all' the
// graph has the com.microsoft contrib ops (FusedConv, FusedMatMul,
// SkipLayerNormalization, Gelu, BiasGelu, Attention...).  'all' also adds
// the CPU layout transforms (com.microsoft.nchwc), so 'extended' is the
// default.
//
//   node bench/ort_optimize.js INPUT.onnx OUTPUT.onnx [disabled|basic|extended|all]
//
// Needs the npm package onnxruntime-node, installed outside the repository
// and found through NODE_PATH or ORT_NODE (its directory), e.g.
//
//   mkdir -p /tmp/ort && cd /tmp/ort && \
//     ONNXRUNTIME_NODE_INSTALL=skip npm install onnxruntime-node
//   ORT_NODE=/tmp/ort/node_modules/onnxruntime-node node bench/ort_optimize.js ...
//
// (ONNXRUNTIME_NODE_INSTALL=skip: the CPU binaries are in the package; the
// install script only fetches the CUDA ones, from nuget.org.)  INPUT must
// carry its weights: ORT loads them, so a graph-only copy cannot be
// optimized.  Not a test: bench/export_models.py --ort runs it.

'use strict';

const path = require('path');

function loadOrt() {
  const where = process.env.ORT_NODE || 'onnxruntime-node';
  try {
    return require(where);
  } catch (e) {
    process.stderr.write(`ort_optimize: cannot load ${where} (set ORT_NODE or NODE_PATH): ${e.message}\n`);
    process.exit(1);
  }
}

async function main() {
  const args = process.argv.slice(2);
  if (args.length < 2 || args.length > 3 || args[0] === '-h' || args[0] === '--help') {
    process.stderr.write('usage: ort_optimize.js INPUT.onnx OUTPUT.onnx [disabled|basic|extended|all]\n');
    process.exit(args[0] === '-h' || args[0] === '--help' ? 0 : 2);
  }
  const [input, output] = args;
  const level = args[2] || 'extended';
  if (!['disabled', 'basic', 'extended', 'all'].includes(level)) {
    process.stderr.write(`ort_optimize: unknown level '${level}'\n`);
    process.exit(2);
  }
  const ort = loadOrt();
  const session = await ort.InferenceSession.create(input, {
    executionProviders: ['cpu'],
    graphOptimizationLevel: level,
    optimizedModelFilePath: path.resolve(output),
    logSeverityLevel: 3, // errors only
  });
  // The file is written while the session is created; nothing is run.
  if (session.release) await session.release();
  process.stderr.write(`ort_optimize: ${input} -> ${output} (level ${level})\n`);
}

main().catch((e) => {
  process.stderr.write(`ort_optimize: ${e.message || e}\n`);
  process.exit(1);
});
