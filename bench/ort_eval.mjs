// ONNX Runtime peer (bench/peers.c): an external evaluator (docs/exec-protocol.md) that runs
// one GELU operator of ONNX Runtime on binary32 inputs, through the npm package
// onnxruntime-node (its libonnxruntime.so; no C headers ship there, hence Node).
//
//   node bench/ort_eval.mjs [--serve] --npm DIR OP
//     OP: gelu       ai.onnx Gelu (opset 20), approximate="none"
//         gelu-tanh  ai.onnx Gelu (opset 20), approximate="tanh"
//         ms-gelu    com.microsoft Gelu (contrib op)
//         fastgelu   com.microsoft FastGelu (the tanh form, no bias)
//         quickgelu  com.microsoft QuickGelu, alpha 1.702 (x sigma(1.702 x))
//     --npm DIR: the folder holding node_modules/onnxruntime-node (make deps: build/npm)
//     --serve:   requests (a little-endian uint64 byte count, then the inputs) until stdin
//                ends; otherwise the plain protocol: all of stdin, then all the results.
//     --version: prints ONNX Runtime's version and exits.
//
// The one-node model is written here (a few protobuf fields, below): no Python or onnx
// package needed. One intra-op thread, sequential execution, all graph optimisations on (the
// default of an application). Accuracy only: a pipe and Node are in the loop, so its
// throughput means nothing and gelulab does not time it.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const OPS = {
  'gelu': { domain: '', op: 'Gelu', attrs: [['approximate', 'none']] },
  'gelu-tanh': { domain: '', op: 'Gelu', attrs: [['approximate', 'tanh']] },
  'ms-gelu': { domain: 'com.microsoft', op: 'Gelu', attrs: [] },
  'fastgelu': { domain: 'com.microsoft', op: 'FastGelu', attrs: [] },
  'quickgelu': { domain: 'com.microsoft', op: 'QuickGelu', attrs: [['alpha', 1.702]] },
};

function die(msg) {
  process.stderr.write(`ort_eval: ${msg}\n`);
  process.exit(2);
}

// ---- protobuf, the handful of wire types an ONNX model needs ----
function varint(n) {
  const out = [];
  let v = BigInt(n);
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return out;
}
const key = (field, wire) => varint((field << 3) | wire);
const int = (field, v) => [...key(field, 0), ...varint(v)];
const bytes = (field, b) => [...key(field, 2), ...varint(b.length), ...b];
const str = (field, s) => bytes(field, [...Buffer.from(s, 'utf8')]);
function f32(field, v) {
  const b = Buffer.alloc(4);
  b.writeFloatLE(v);
  return [...key(field, 5), ...b];
}

// AttributeProto: name 1, f 2, s 4, type 20 (FLOAT 1, STRING 3)
const attribute = ([name, v]) =>
  typeof v === 'number' ? [...str(1, name), ...f32(2, v), ...int(20, 1)]
                        : [...str(1, name), ...str(4, v), ...int(20, 3)];
// ValueInfoProto: name 1, type 2 { tensor_type 1 { elem_type 1 (FLOAT), shape 2 { dim 1 { dim_param 2 } } } }
const valueInfo = (name) =>
  [...str(1, name), ...bytes(2, bytes(1, [...int(1, 1), ...bytes(2, bytes(1, str(2, 'N')))]))];

function model(spec) {
  // NodeProto: input 1, output 2, name 3, op_type 4, attribute 5, domain 7
  const node = [...str(1, 'X'), ...str(2, 'Y'), ...str(3, 'gelu'), ...str(4, spec.op),
    ...spec.attrs.flatMap((a) => bytes(5, attribute(a))), ...str(7, spec.domain)];
  // GraphProto: node 1, name 2, input 11, output 12
  const graph = [...bytes(1, node), ...str(2, 'g'), ...bytes(11, valueInfo('X')),
    ...bytes(12, valueInfo('Y'))];
  // ModelProto: ir_version 1, producer_name 2, graph 7, opset_import 8 { domain 1, version 2 }
  const opsets = [...bytes(8, [...str(1, ''), ...int(2, 20)]),
    ...bytes(8, [...str(1, 'com.microsoft'), ...int(2, 1)])];
  return Uint8Array.from([...int(1, 9), ...str(2, 'gelulab'), ...bytes(7, graph), ...opsets]);
}

// ---- blocking pipe I/O ----
function readExactly(n, into = null) {
  const buf = into || Buffer.alloc(n);
  let got = 0;
  while (got < n) {
    let r;
    try {
      r = fs.readSync(0, buf, got, n - got, null);
    } catch (e) {
      if (e.code === 'EAGAIN') continue;
      if (e.code === 'EOF') r = 0;
      else throw e;
    }
    if (r === 0) return got ? die(`stdin ended inside a request (${got} of ${n} bytes)`) : null;
    got += r;
  }
  return buf;
}
function readAll() { // into 4 MiB buffers, each filled before the next (a read gives a pipe's worth)
  const parts = [];
  for (let b = Buffer.allocUnsafeSlow(1 << 22), used = 0; ;) {
    let r;
    try {
      r = fs.readSync(0, b, used, b.length - used, null);
    } catch (e) {
      if (e.code === 'EAGAIN') continue;
      if (e.code !== 'EOF') throw e;
      r = 0;
    }
    used += r;
    if (r === 0 || used === b.length) parts.push(b.subarray(0, used));
    if (r === 0) break;
    if (used === b.length) b = Buffer.allocUnsafeSlow(1 << 22), used = 0;
  }
  return Buffer.concat(parts);
}
function writeAll(buf) {
  for (let off = 0; off < buf.length;) {
    try {
      off += fs.writeSync(1, buf, off, buf.length - off);
    } catch (e) {
      if (e.code !== 'EAGAIN') throw e;
    }
  }
}

async function evaluate(ort, session, input) {
  if (input.length % 4) die(`${input.length} bytes of input: not whole binary32 values`);
  const n = input.length / 4;
  if (!n) return Buffer.alloc(0);
  const x = new Float32Array(n);
  Buffer.from(x.buffer).set(input);
  const out = await session.run({ X: new ort.Tensor('float32', x, [n]) });
  const y = out.Y.data;
  return Buffer.from(y.buffer, y.byteOffset, y.byteLength);
}

// Serving: requests read into one input buffer and answered from one output tensor, both kept
// and grown as needed (fresh 4 MiB buffers per request cost page faults: about half the time).
async function serveRequests(ort, session) {
  let cap = 0, inBuf = null, x = null, y = null;
  for (let hdr; (hdr = readExactly(8));) {
    const bytes = Number(hdr.readBigUInt64LE(0));
    if (bytes % 4) die(`a request of ${bytes} bytes: not whole binary32 values`);
    if (bytes > cap) {
      cap = bytes;
      inBuf = Buffer.allocUnsafeSlow(cap);
      x = new Float32Array(inBuf.buffer, inBuf.byteOffset, cap / 4);
      y = new Float32Array(cap / 4);
    }
    if (!bytes) continue;
    if (!readExactly(bytes, inBuf)) die(`stdin ended inside a request (0 of ${bytes} bytes)`);
    const n = bytes / 4;
    const out = await session.run({ X: new ort.Tensor('float32', x.subarray(0, n), [n]) },
      { Y: new ort.Tensor('float32', y.subarray(0, n), [n]) });
    const r = out.Y.data;
    writeAll(Buffer.from(r.buffer, r.byteOffset, r.byteLength));
  }
}

async function main() {
  const args = process.argv.slice(2);
  let serve = false, npm = null, version = false, opName = null;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--serve') serve = true;
    else if (args[i] === '--version') version = true;
    else if (args[i] === '--npm' && i + 1 < args.length) npm = args[++i];
    else if (!opName && OPS[args[i]]) opName = args[i];
    else die(`unknown argument '${args[i]}' (usage: ort_eval.mjs [--serve] --npm DIR OP; OP: ${Object.keys(OPS).join(', ')})`);
  }
  if (!npm) die('--npm DIR is required (the folder holding node_modules/onnxruntime-node)');
  let ort;
  try {
    ort = createRequire(path.join(path.resolve(npm), 'package.json'))('onnxruntime-node');
  } catch (e) {
    die(`cannot load onnxruntime-node from ${npm}: ${e.message.split('\n')[0]}`);
  }
  if (version) {
    process.stdout.write(`${ort.env.versions.common}\n`);
    return;
  }
  if (!opName) die(`which operator? (${Object.keys(OPS).join(', ')})`);
  const session = await ort.InferenceSession.create(model(OPS[opName]), {
    intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  if (!serve) return writeAll(await evaluate(ort, session, readAll()));
  await serveRequests(ort, session);
}

main().catch((e) => die(e.message.split('\n')[0]));
