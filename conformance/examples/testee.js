// A first testee for `fury-conformance run` (conformance/PROTOCOL.md), in JavaScript (node):
// decodes and encodes root booleans, integers, float32/float64 and strings; answers
// "skipped" to everything else. See conformance/README.md, "Porting guide".
const KINDS = { 1: 'bool', 2: 'int8', 3: 'int16', 4: 'int32', 5: 'varint32', 6: 'int64', 7: 'varint64',
  9: 'uint8', 10: 'uint16', 11: 'uint32', 12: 'var_uint32', 13: 'uint64', 14: 'var_uint64', 19: 'float32', 20: 'float64', 21: 'string' };
const FIXED = { int8: 1, int16: 2, int32: 4, int64: 8, uint8: 1, uint16: 2, uint32: 4, uint64: 8 };
const ID = Object.fromEntries(Object.entries(KINDS).map(([id, k]) => [k, Number(id)]));
const zig = (k) => k === 'varint32' || k === 'varint64';
function decode(b) {
  if (b[0] !== 0x01 || b[1] !== 0xff) throw new Error('only non-null xlang roots');
  const kind = KINDS[b[2]]; let p = 3;
  if (!kind) return null;
  const uvar = () => { let v = 0n, s = 0n, x; do { x = b[p++]; if (x === undefined) throw new Error('truncated at ' + p);
    v |= BigInt(x & (s === 56n ? 0xff : 0x7f)) << s; s += 7n; } while (x & 0x80 && s < 63n); return v; };
  let node;
  if (kind === 'bool') node = { type: kind, value: b[p++] === 1 };
  else if (kind === 'string') { const h = Number(uvar()), n = h >> 2, enc = ['latin1', 'utf16le', 'utf8'][h & 3];
    node = { type: kind, value: Buffer.from(b.subarray(p, p + n)).toString(enc) }; p += n; }
  else if (kind.startsWith('float')) { const n = kind === 'float32' ? 4 : 8;
    node = { type: kind, bits: Buffer.from(b.subarray(p, p + n)).reverse().toString('hex') }; p += n; }
  else if (FIXED[kind]) { const n = FIXED[kind]; let v = 0n;
    for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[p + i]);
    if (kind.startsWith('int') && v >> BigInt(n * 8 - 1)) v -= 1n << BigInt(n * 8);
    node = { type: kind, value: v.toString() }; p += n; }
  else { let v = uvar(); if (zig(kind)) v = (v >> 1n) ^ -(v & 1n); node = { type: kind, value: v.toString() }; }
  if (p !== b.length) throw new Error(`${b.length - p} bytes left at offset ${p}`);
  return node;
}
function encode(node) {
  const k = node.type, out = [0x01, 0xff, ID[k]];
  if (!ID[k]) return null;
  const uvar = (v) => { for (let i = 0; i < 8 && v > 0x7fn; i++) { out.push(Number(v & 0x7fn) | 0x80); v >>= 7n; } out.push(Number(v)); };
  if (k === 'bool') out.push(node.value ? 1 : 0);
  else if (k === 'string') { const ascii = /^[\x00-\x7f]*$/.test(node.value);
    const bytes = Buffer.from(node.value, ascii ? 'latin1' : 'utf8'); uvar(BigInt(bytes.length * 4 + (ascii ? 0 : 2))); out.push(...bytes); }
  else if (k.startsWith('float')) out.push(...Buffer.from(node.bits, 'hex').reverse());
  else { let v = BigInt(node.value);
    if (FIXED[k]) { for (let i = 0; i < FIXED[k]; i++) { out.push(Number(v & 0xffn)); v >>= 8n; } }
    else { if (zig(k)) v = v < 0n ? (-v << 1n) - 1n : v << 1n; uvar(v); } }
  return Buffer.from(out).toString('hex');
}
function answer(req) {
  try {
    if (req.op === 'encode') { const hex = encode(req.value); return hex ? { hex } : { skipped: `no ${req.value.type} writer` }; }
    const node = decode(Buffer.from(req.hex, 'hex'));
    if (!node) return { skipped: `no reader for type id ${parseInt(req.hex.slice(4, 6), 16)}` };
    return req.op === 'decode' ? { value: node } : { hex: encode(node) };
  } catch (e) { return { error: String(e.message) }; }
}
let buf = Buffer.alloc(0);
process.stdin.on('data', (chunk) => {
  buf = Buffer.concat([buf, chunk]);
  while (buf.length >= 4 && buf.length >= 4 + buf.readUInt32LE(0)) {
    const req = JSON.parse(buf.subarray(4, 4 + buf.readUInt32LE(0)).toString('utf8'));
    buf = buf.subarray(4 + buf.readUInt32LE(0));
    if (req.op === 'shutdown') process.exit(0);
    const body = Buffer.from(JSON.stringify(answer(req)), 'utf8'), head = Buffer.alloc(4);
    head.writeUInt32LE(body.length); process.stdout.write(Buffer.concat([head, body]));
  }
});
