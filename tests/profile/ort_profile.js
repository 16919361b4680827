#!/usr/bin/env node
// Profile an ONNX model under ONNX Runtime, for tests/profile/profile.sh.
//
// usage: node ort_profile.js ORT MODEL OUTDIR RUNS LEVEL...
//
// For each graph optimization level (disabled, basic, extended, all) one
// session with profiling on runs the model RUNS times on the CPU execution
// provider, with deterministic inputs (a symbolic dimension is 1), and its
// profile is written to OUTDIR/LEVEL.json.  ORT is the folder holding
// node_modules/onnxruntime-node, or the package itself.  Exit status 0, or
// 1 with a message.
'use strict';

const fs = require('fs');
const path = require('path');

function loadOrt(dir) {
    const nested = path.join(dir, 'node_modules', 'onnxruntime-node');
    return require(fs.existsSync(nested) ? nested : dir);
}

function filled(ort, meta) {
    const dims = meta.shape.map((d) => (typeof d === 'number' && d >= 0 ? d : 1));
    const n = dims.reduce((a, b) => a * b, 1);
    const Typed = { float32: Float32Array, int64: BigInt64Array, int32: Int32Array }[meta.type];
    if (!Typed)
        throw new Error(`input '${meta.name}': type ${meta.type} is not supported here`);
    const data = new Typed(n);
    for (let i = 0; i < n; i++) {
        const v = ((i * 7919) % 101) / 101 - 0.5;
        data[i] = Typed === BigInt64Array ? BigInt(i % 3) : Typed === Int32Array ? i % 3 : v;
    }
    return new ort.Tensor(meta.type, data, dims);
}

async function main() {
    const [ortDir, model, outDir, runsText, ...levels] = process.argv.slice(2);
    const runs = Number(runsText);
    if (!ortDir || !model || !outDir || !(runs > 0) || levels.length === 0)
        throw new Error('usage: ort_profile.js ORT MODEL OUTDIR RUNS LEVEL...');
    const ort = loadOrt(ortDir);
    for (const level of levels) {
        const dir = fs.mkdtempSync(path.join(outDir, `${level}-`));
        const session = await ort.InferenceSession.create(model, {
            executionProviders: ['cpu'],
            graphOptimizationLevel: level,
            enableProfiling: true,
            profileFilePrefix: path.join(dir, 'profile'),
            intraOpNumThreads: 1,
        });
        const feeds = {};
        for (const meta of session.inputMetadata)
            feeds[meta.name] = filled(ort, meta);
        for (let r = 0; r < runs; r++)
            await session.run(feeds);
        session.endProfiling();
        await session.release();
        const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json'));
        if (files.length !== 1)
            throw new Error(`${level}: expected one profile in ${dir}, found ${files.length}`);
        fs.renameSync(path.join(dir, files[0]), path.join(outDir, `${level}.json`));
        fs.rmdirSync(dir);
    }
}

main().catch((e) => {
    console.error(`ort_profile: ${e.message}`);
    process.exit(1);
});
