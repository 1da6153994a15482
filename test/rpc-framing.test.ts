// Property tests of the Content-Length framing (plugins/rpc/framing.ts) and of
// the batch rules (plugins/rpc/jsonrpc.ts): random chunk splits, multi-byte
// characters cut at chunk boundaries, many messages per read, oversized and
// malformed headers, and random garbage that must never throw.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { FrameDecoder, decodeBody, encodeFrame, type FrameEvent } from '../plugins/rpc/framing.ts';
import { handleMessage, type Handled } from '../plugins/rpc/jsonrpc.ts';

const LONG = process.env.ACP_LONG === '1';
const runs = (n: number): { numRuns: number } => ({ numRuns: LONG ? n * 20 : n });
const enc = new TextEncoder();

/** Cut `bytes` at the given (sorted, deduplicated) offsets. */
function split(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let last = 0;
  for (const p of points) {
    chunks.push(bytes.subarray(last, p));
    last = p;
  }
  chunks.push(bytes.subarray(last));
  return chunks;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function decodeAll(chunks: Uint8Array[], limits?: { maxHeaderBytes?: number; maxBodyBytes?: number }): FrameEvent[] {
  const decoder = new FrameDecoder(limits);
  // Copy each chunk: the decoder may hand out views, and the test reuses nothing.
  return chunks.flatMap((chunk) => decoder.push(Uint8Array.from(chunk)).map((e) => (e.type === 'message' ? { ...e, body: Uint8Array.from(e.body) } : e)));
}

// Strings over the whole of Unicode (1- to 4-byte UTF-8), JSON-encoded as bodies.
const body = fc.string({ unit: 'binary', maxLength: 60 }).map((s) => JSON.stringify({ jsonrpc: '2.0', id: s, method: 'ping', params: [s] }));

describe('framing properties', () => {
  test('random bodies, cut anywhere (headers and multi-byte characters included), decode to the same bodies in order', () => {
    fc.assert(
      fc.property(fc.array(body, { minLength: 1, maxLength: 12 }), fc.array(fc.nat(), { maxLength: 40 }), (bodies, cuts) => {
        const stream = concat(bodies.map((b) => encodeFrame(b)));
        const events = decodeAll(split(stream, cuts));
        expect(events.map((e) => (e.type === 'message' ? decodeBody(e.body) : e))).toEqual(bodies);
      }),
      runs(300),
    );
  });

  test('one byte per read', () => {
    fc.assert(
      fc.property(fc.array(body, { minLength: 1, maxLength: 4 }), (bodies) => {
        const stream = concat(bodies.map((b) => encodeFrame(b)));
        const chunks = [...stream].map((b) => Uint8Array.of(b));
        expect(decodeAll(chunks).map((e) => (e.type === 'message' ? decodeBody(e.body) : e))).toEqual(bodies);
      }),
      runs(60),
    );
  });

  test('a 4-byte character cut at each of its bytes', () => {
    const text = JSON.stringify({ x: '🎉é日' });
    const frame = encodeFrame(text);
    for (let cut = 0; cut <= frame.length; cut++) {
      const events = decodeAll([frame.subarray(0, cut), frame.subarray(cut)]);
      expect(events).toHaveLength(1);
      expect(decodeBody((events[0] as { body: Uint8Array }).body)).toBe(text);
    }
  });

  test('many messages in one read', () => {
    fc.assert(
      fc.property(fc.array(body, { minLength: 20, maxLength: 200 }), (bodies) => {
        const events = decodeAll([concat(bodies.map((b) => encodeFrame(b)))]);
        expect(events).toHaveLength(bodies.length);
        expect(events.every((e) => e.type === 'message')).toBe(true);
      }),
      runs(20),
    );
  });

  test('Content-Length counts bytes, not characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 50 }), (s) => {
        const frame = encodeFrame(s);
        const header = new TextDecoder().decode(frame).split('\r\n\r\n')[0]!;
        expect(Number(/^Content-Length: (\d+)$/.exec(header)![1])).toBe(enc.encode(s).length);
      }),
      runs(200),
    );
  });

  test('a body over the limit: messages before it decode, then exactly one fatal event, wherever the reads are cut', () => {
    fc.assert(
      fc.property(fc.array(body, { maxLength: 5 }), fc.integer({ min: 1001, max: 10 ** 12 }), fc.array(fc.nat(), { maxLength: 10 }), (before, size, cuts) => {
        const stream = concat([...before.map((b) => encodeFrame(b)), enc.encode(`Content-Length: ${size}\r\n\r\n{"jsonrpc":"2.0"}`), encodeFrame('{}')]);
        const events = decodeAll(split(stream, cuts), { maxBodyBytes: 1000 });
        expect(events.slice(0, before.length).every((e) => e.type === 'message')).toBe(true);
        expect(events.slice(before.length)).toEqual([{ type: 'fatal', reason: `message too large: Content-Length ${size} exceeds the limit of 1000 bytes` }]);
      }),
      runs(100),
    );
  });

  test('a header over the limit is fatal even when it trickles in', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 2000 }), fc.array(fc.nat(), { maxLength: 30 }), (pad, cuts) => {
        const stream = enc.encode(`X-Pad: ${'a'.repeat(pad)}\r\nContent-Length: 2\r\n\r\n{}`);
        const events = decodeAll(split(stream, cuts), { maxHeaderBytes: 64 });
        expect(events).toHaveLength(1);
        expect(events[0]).toMatchObject({ type: 'fatal', reason: expect.stringContaining('header too large') });
      }),
      runs(100),
    );
  });

  test('malformed headers are fatal and stop decoding', () => {
    const malformed = fc.oneof(
      fc.constant('Content-Length: abc'),
      fc.constant('Content-Length: 1e3'),
      fc.constant('Content-Length: -1'),
      fc.constant('Content-Length:'),
      fc.constant('Content-Type: application/json'),
      fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 30 }).filter((s) => !s.includes(':') && !/[\r\n]/.test(s) && s.trim() !== ''),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 10 }).filter((s) => /[^\x00-\x7f]/.test(s) && !/[\r\n]/.test(s)).map((s) => `Content-Length: 2\r\nX: ${s}`),
    );
    fc.assert(
      fc.property(malformed, fc.array(fc.nat(), { maxLength: 8 }), (header, cuts) => {
        const stream = concat([enc.encode(`${header}\r\n\r\n{}`), encodeFrame('{"after":1}')]);
        const events = decodeAll(split(stream, cuts));
        expect(events).toHaveLength(1);
        expect(events[0]!.type).toBe('fatal');
      }),
      runs(200),
    );
  });

  test('random bytes never throw; after a fatal event nothing more is decoded', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 20 }), (chunks) => {
        const decoder = new FrameDecoder({ maxBodyBytes: 256, maxHeaderBytes: 128 });
        let dead = false;
        for (const chunk of chunks) {
          const events = decoder.push(chunk);
          if (dead) expect(events).toEqual([]);
          if (events.some((e) => e.type === 'fatal')) {
            expect(events.at(-1)!.type).toBe('fatal');
            dead = true;
          }
        }
        expect(decoder.dead).toBe(dead);
      }),
      runs(300),
    );
  });

  test('blank lines between messages are tolerated; midMessage tracks partial input', () => {
    const decoder = new FrameDecoder();
    expect(decoder.midMessage).toBe(false);
    expect(decoder.push(enc.encode('\r\n\r\n'))).toEqual([]);
    expect(decoder.midMessage).toBe(false);
    expect(decoder.push(enc.encode('Content-Len'))).toEqual([]);
    expect(decoder.midMessage).toBe(true);
    expect(decoder.push(enc.encode('gth: 2\r\n\r\n{'))).toEqual([]);
    expect(decoder.midMessage).toBe(true);
    expect(decoder.push(enc.encode('}\r\n')).map((e) => e.type)).toEqual(['message']);
    expect(decoder.midMessage).toBe(false);
  });

  test('a charset other than utf-8 skips exactly that body and the stream goes on', () => {
    const stream = concat([enc.encode('Content-Type: text/json; charset="latin1"\r\nContent-Length: 4\r\n\r\n\xe9\xe9'), encodeFrame('{"n":1}')]);
    for (let cut = 0; cut <= stream.length; cut++) {
      const events = decodeAll([stream.subarray(0, cut), stream.subarray(cut)]);
      expect(events.map((e) => e.type)).toEqual(['skip', 'message']);
    }
  });
});

describe('batch properties', () => {
  const entry = fc.oneof(
    fc.record({ jsonrpc: fc.constant('2.0'), method: fc.constant('ok'), id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)) }),
    fc.record({ jsonrpc: fc.constant('2.0'), method: fc.constantFrom('ok', 'fail', 'missing') }),
    fc.record({ jsonrpc: fc.constant('2.0'), method: fc.constantFrom('fail', 'missing'), id: fc.integer() }),
    fc.anything(),
  );
  const handler = (method: string): unknown => {
    if (method === 'ok') return 'fine';
    if (method === 'fail') throw new Error('boom');
    throw Object.assign(new Error('x'), { rpc: true });
  };

  test('one answer per request or invalid entry, none for notifications, in order; ids echoed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { minLength: 1, maxLength: 15 }), async (entries) => {
        const handled: Handled = await handleMessage(entries, handler, () => undefined);
        const expected = entries.filter((e) => {
          const valid = typeof e === 'object' && e !== null && !Array.isArray(e) && (e as { jsonrpc?: unknown }).jsonrpc === '2.0' && typeof (e as { method?: unknown }).method === 'string';
          const params = (e as { params?: unknown })?.params;
          const hasParamsOk = !valid || !('params' in (e as object)) || (typeof params === 'object' && params !== null);
          const notification = valid && hasParamsOk && !('id' in (e as object)) && !('result' in (e as object)) && !('error' in (e as object));
          return !notification;
        });
        if (expected.length === 0) expect(handled.reply).toBeUndefined();
        else {
          expect(Array.isArray(handled.reply)).toBe(true);
          const replies = handled.reply as Array<{ id: unknown }>;
          expect(replies).toHaveLength(expected.length);
          replies.forEach((r, i) => {
            const e = expected[i] as { id?: unknown };
            const readable = typeof e === 'object' && e !== null && (typeof e.id === 'string' || typeof e.id === 'number' || e.id === null);
            expect(r.id).toEqual(readable ? e.id : null);
          });
        }
      }),
      runs(300),
    );
  });
});
