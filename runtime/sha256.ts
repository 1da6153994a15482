/**
 * SHA-256 and HMAC-SHA256 (FIPS 180-4, RFC 2104) in plain TypeScript, for
 * small inputs: the append checkpoint's MAC (a few hundred bytes, once per
 * append) and digests of small deliverables (pytext.ts sha256Hex). Why not
 * the runtime's: loading WebCrypto or node:crypto costs Node 4–5 ms per
 * process (a tenth of an append), while this MAC takes ~0.5 ms in a cold
 * process. Cold code runs in V8's interpreter, so large inputs still go to
 * the native digest. Both agree byte for byte (test/sha256.test.ts: FIPS
 * and RFC 4231 vectors, random inputs against node:crypto).
 * @module
 */

// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
  0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
  0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
  0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** The SHA-256 digest of `bytes` (32 bytes). */
export function sha256(bytes: Uint8Array): Uint8Array {
  // Message plus 0x80, zero padding and the 64-bit bit length, in 64-byte blocks.
  const blocks = Math.ceil((bytes.length + 9) / 64);
  const padded = new Uint8Array(blocks * 64);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const bits = bytes.length * 8;
  for (let i = 1, rest = bits; i <= 8; i++, rest = Math.floor(rest / 256)) padded[padded.length - i] = rest % 256;
  const h = new Int32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Int32Array(64);
  for (let at = 0; at < padded.length; at += 64) compress(h, w, padded, at);
  const out = new Uint8Array(32);
  for (let i = 0; i < 8; i++) {
    out[i * 4] = h[i]! >>> 24;
    out[i * 4 + 1] = h[i]! >>> 16;
    out[i * 4 + 2] = h[i]! >>> 8;
    out[i * 4 + 3] = h[i]!;
  }
  return out;
}

/**
 * One 64-byte block at `at`: the message schedule, then 64 rounds added into
 * the state `h`. Written for V8's interpreter (a command's code runs cold):
 * int32 arithmetic, no views or destructuring.
 */
function compress(h: Int32Array, w: Int32Array, m: Uint8Array, at: number): void {
  for (let i = 0; i < 16; i++) {
    const j = at + i * 4;
    w[i] = (m[j]! << 24) | (m[j + 1]! << 16) | (m[j + 2]! << 8) | m[j + 3]!;
  }
  for (let i = 16; i < 64; i++) {
    const x = w[i - 15]!;
    const y = w[i - 2]!;
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
  }
  let a = h[0]!;
  let b = h[1]!;
  let c = h[2]!;
  let d = h[3]!;
  let e = h[4]!;
  let f = h[5]!;
  let g = h[6]!;
  let k = h[7]!;
  for (let i = 0; i < 64; i++) {
    const t1 = (k + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
    const t2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    k = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  h[0] = (h[0]! + a) | 0;
  h[1] = (h[1]! + b) | 0;
  h[2] = (h[2]! + c) | 0;
  h[3] = (h[3]! + d) | 0;
  h[4] = (h[4]! + e) | 0;
  h[5] = (h[5]! + f) | 0;
  h[6] = (h[6]! + g) | 0;
  h[7] = (h[7]! + k) | 0;
}

/** HMAC-SHA256 of `data` under `key` (RFC 2104; a key longer than a block is hashed first). */
export function hmacSha256(key: Uint8Array, data: Uint8Array): Uint8Array {
  const block = new Uint8Array(64);
  block.set(key.length > 64 ? sha256(key) : key);
  const inner = new Uint8Array(64 + data.length);
  const outer = new Uint8Array(64 + 32);
  for (let i = 0; i < 64; i++) {
    inner[i] = block[i]! ^ 0x36;
    outer[i] = block[i]! ^ 0x5c;
  }
  inner.set(data, 64);
  outer.set(sha256(inner), 64);
  return sha256(outer);
}

/** Lower-case hex of `bytes`. */
export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += (byte < 16 ? '0' : '') + byte.toString(16);
  return hex;
}

/** Bun's native SHA-256 / HMAC-SHA256 hasher class (`Bun.CryptoHasher`). */
export type BunCryptoHasher = new (algorithm: 'sha256', hmacKey?: Uint8Array) => { update(data: string | Uint8Array): { digest(encoding: 'hex'): string } };

/**
 * Bun's native hasher (the `Bun.CryptoHasher` global: nothing to load, unlike
 * node:crypto or WebCrypto in Node), `undefined` elsewhere. Why: the
 * TypeScript digest above runs cold, in the interpreter of a short command
 * (~45 µs per 64-byte block in the compiled binary).
 */
export function bunCryptoHasher(): BunCryptoHasher | undefined {
  const Hasher = (globalThis as { Bun?: { CryptoHasher?: BunCryptoHasher } }).Bun?.CryptoHasher;
  return typeof Hasher === 'function' ? Hasher : undefined;
}
