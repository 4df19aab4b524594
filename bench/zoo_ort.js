// ONNX Runtime's CPU execution provider (npm onnxruntime-node) on one ONNX file, for bench/zoo.py.
// usage: node zoo_ort.js MODEL INPUT.f32 SHAPE(1x3x224x224) THREADS SECONDS MIN_RUNS OUT.f32
// Reads the float32 input (raw little-endian), creates a session (intra-op threads = THREADS,
// inter-op 1, sequential execution, default graph optimizations), runs it once untimed, then
// times session.run until SECONDS have passed and MIN_RUNS runs are done; prints one JSON line
// {prepare_ms, times_ms: [...], output} and writes the first output as raw float32 to OUT.f32.
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require(path.join(__dirname, 'node_modules', 'onnxruntime-node'));

async function main() {
  const [model, input, shapeText, threadsText, secondsText, minRunsText, outPath] = process.argv.slice(2);
  if (!outPath) throw new Error('usage: node zoo_ort.js MODEL INPUT.f32 SHAPE THREADS SECONDS MIN_RUNS OUT.f32');
  const shape = shapeText.split('x').map(Number);
  const bytes = fs.readFileSync(input);
  const data = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  const t0 = process.hrtime.bigint();
  const session = await ort.InferenceSession.create(model, {
    executionProviders: ['cpu'],
    intraOpNumThreads: Number(threadsText),
    interOpNumThreads: 1,
    executionMode: 'sequential',
  });
  const prepareMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const feeds = {[session.inputNames[0]]: new ort.Tensor('float32', data, shape)};
  let result = await session.run(feeds);
  const times = [];
  const budget = Number(secondsText) * 1e9, minRuns = Number(minRunsText);
  const start = process.hrtime.bigint();
  while (times.length < minRuns || Number(process.hrtime.bigint() - start) < budget) {
    const a = process.hrtime.bigint();
    result = await session.run(feeds);
    times.push(Number(process.hrtime.bigint() - a) / 1e6);
  }
  const out = result[session.outputNames[0]];
  fs.writeFileSync(outPath, Buffer.from(out.data.buffer, out.data.byteOffset, out.data.byteLength));
  console.log(JSON.stringify({prepare_ms: prepareMs, times_ms: times, output: session.outputNames[0]}));
}

main().catch((e) => {
  console.error('zoo_ort.js: ' + (e && e.stack ? e.stack : e));
  process.exit(1);
});
