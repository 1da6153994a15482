// The plain-TypeScript SHA-256 and HMAC-SHA256 of the append checkpoint's
// MAC (runtime/sha256.ts) against RFC 4231's vectors and node:crypto.
import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { hmacSha256, sha256, toHex } from '../runtime/sha256.ts';

const hex = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text, 'hex'));
const ascii = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('sha256', () => {
  test('FIPS 180-2 examples, and every padding boundary against node:crypto', () => {
    expect(toHex(sha256(ascii('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(toHex(sha256(ascii('')))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(toHex(sha256(ascii('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')))).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
    for (let n = 0; n <= 200; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 255);
      expect(toHex(sha256(bytes)), `length ${n}`).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
  });

  test('random inputs agree with node:crypto', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 5000 }), (bytes) => toHex(sha256(bytes)) === createHash('sha256').update(bytes).digest('hex')), { numRuns: 200 });
  });
});

describe('hmacSha256', () => {
  test('RFC 4231 test cases 1, 2, 6 and 7 (short, text and over-long keys)', () => {
    expect(toHex(hmacSha256(hex('0b'.repeat(20)), ascii('Hi There')))).toBe('b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7');
    expect(toHex(hmacSha256(ascii('Jefe'), ascii('what do ya want for nothing?')))).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
    expect(toHex(hmacSha256(hex('aa'.repeat(131)), ascii('Test Using Larger Than Block-Size Key - Hash Key First')))).toBe('60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54');
    const long = 'This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.';
    expect(toHex(hmacSha256(hex('aa'.repeat(131)), ascii(long)))).toBe('9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2');
  });

  test('random keys and messages agree with node:crypto', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.uint8Array({ maxLength: 3000 }), (key, data) => toHex(hmacSha256(key, data)) === createHmac('sha256', key).update(data).digest('hex')),
      { numRuns: 200 },
    );
  });
});
