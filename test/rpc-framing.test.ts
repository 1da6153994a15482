// Property tests of the Content-Length framing (plugins/rpc/framing.ts) and of
// the batch rules (plugins/rpc/jsonrpc.ts): random chunk splits, multi-byte
// characters cut at chunk boundaries, many messages per read, oversized and
// malformed headers, and random garbage that must never throw; and ids
// echoed exactly, also numbers a double cannot hold (random lexemes through a
// whole Peer, and the id scanner against JSON.parse).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { FrameDecoder, countUtf8, decodeBody, encodeFrame, frameText, utf8Length, type FrameEvent } from '../plugins/rpc/framing.ts';
import { RpcError, handleMessage, rawIds, scanIdLexemes, type CallInfo, type Handled } from '../plugins/rpc/jsonrpc.ts';
import { Peer, type ByteStream } from '../plugins/rpc/peer.ts';

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

// Strings with lone surrogates, astral characters and every UTF-8 width; JSON.stringify escapes lone surrogates but
// a text handed to the framing need not come from it.
const EDGE_TEXTS = ['', 'ascii only', 'é', '€', '𝄞', '\ud800', '\udc00', 'a\ud800b', '\udc00\ud800', '\ud834\udd1e\ud834', '\u007f\u0080\u07ff\u0800\uffff'];

describe('string frames (socket writes)', () => {
  test('utf8Length, native and portable, counts what TextEncoder writes', () => {
    for (const s of EDGE_TEXTS) {
      expect(utf8Length(s), JSON.stringify(s)).toBe(enc.encode(s).length);
      expect(countUtf8(s), JSON.stringify(s)).toBe(enc.encode(s).length);
    }
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), fc.string({ unit: 'binary-ascii', maxLength: 20 }), (s, t) => {
        const text = s + t;
        expect(utf8Length(text)).toBe(enc.encode(text).length);
        expect(countUtf8(text)).toBe(enc.encode(text).length);
      }),
      runs(300),
    );
  });

  test('frameText is exactly the bytes of encodeFrame for ASCII texts, and declines any other', () => {
    for (const s of [...EDGE_TEXTS, ...fc.sample(body, runs(200).numRuns)]) {
      const text = frameText(s);
      const ascii = [...s].every((c) => c.charCodeAt(0) < 0x80);
      expect(text === undefined, JSON.stringify(s)).toBe(!ascii);
      if (text !== undefined) expect(enc.encode(text)).toEqual(encodeFrame(s));
    }
  });

  test('a Peer writing strings puts the same bytes on the wire as one writing buffers, ASCII or not', () => {
    const wire = (textWrites: boolean, reply: string): Uint8Array => {
      const written: Uint8Array[] = [];
      let receive: (chunk: Uint8Array) => void = () => undefined;
      const stream = {
        // A socket's write: strings are written as UTF-8.
        write: (data: Uint8Array | string) => written.push(typeof data === 'string' ? enc.encode(data) : Uint8Array.from(data)),
        end: () => undefined,
        destroy: () => undefined,
        on: (event: string, listener: (chunk: Uint8Array) => void) => {
          if (event === 'data') receive = listener;
        },
      } as unknown as ByteStream;
      const peer = new Peer(stream, { stallTimeoutMs: 0, textWrites, handler: () => reply });
      receive(encodeFrame('{"jsonrpc":"2.0","id":1,"method":"echo"}'));
      peer.notify('note', { reply });
      peer.destroy();
      return concat(written);
    };
    for (const reply of ['plain', 'café ☕ 𝄞', '\ud800 lone']) expect(wire(true, reply), reply).toEqual(wire(false, reply));
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

// Number lexemes of every shape: integers of any length, fractions, exponents, negative zero, beyond a double's range.
const digitString = (min: number, max: number): fc.Arbitrary<string> => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
const numberLexeme = fc.oneof(
  fc.constantFrom('0', '-0', '-0.0', '1.0', '1e2', '1E+2', '100', '2.5', '12345678901234567890', '9007199254740993', '9007199254740992', '1e400', '-1e400', '1e-400', '123456789012345', '1234567890123456'),
  fc
    .tuple(
      fc.boolean(),
      fc.oneof(fc.constant('0'), fc.tuple(fc.constantFrom(...'123456789'), digitString(0, 30)).map(([a, b]) => a + b)),
      fc.option(digitString(1, 20), { nil: undefined }),
      fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digitString(1, 3)).map((p) => p.join('')), { nil: undefined }),
    )
    .map(([negative, int, fraction, exponent]) => `${negative ? '-' : ''}${int}${fraction === undefined ? '' : `.${fraction}`}${exponent ?? ''}`),
);
const ws = fc.constantFrom('', ' ', '\n', '\t ', '\r\n  ');
// Every spelling of the key "id" (JSON text).
const idKey = fc.constantFrom('"id"', '"\\u0069d"', '"i\\u0064"', '"\\u0069\\u0064"');
// Values holding `id` members (and look-alikes inside strings) that are not the request's id.
const decoy = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
  fc.tuple(idKey, ws, numberLexeme, fc.jsonValue({ maxDepth: 1 })).map(([k, w, n, v]) => `{${k}${w}:${w}${n},"v":${JSON.stringify(v)}}`),
  fc.tuple(idKey, numberLexeme).map(([k, n]) => `[{"a":{${k}:${n}}},${n}]`),
  fc.constantFrom(JSON.stringify('"id":1.0'), JSON.stringify('\\"id\\":-0,\\'), JSON.stringify('{"id":1e400}'), '"\\\\"', '"\\u0069d"'),
);
type Member = { text: string; id?: string };
const member = (key: string, value: string, w: string): Member => ({ text: `${key}${w}:${w}${value}`, ...(JSON.parse(key) === 'id' ? { id: value } : {}) });
const join = (members: Member[], w: string): string => `{${w}${members.map((m) => m.text).join(`${w},${w}`)}${w}}`;
/** The raw value of the last `id` member (the one JSON.parse keeps). */
const lastId = (members: Member[]): string | undefined => members.filter((m) => m.id !== undefined).at(-1)?.id;

/** A Peer on an in-memory stream: feed it one body, get the bodies it wrote. */
function exchange(body: string, onCall: (info: CallInfo) => void): string[] {
  const written: Uint8Array[] = [];
  let receive: (chunk: Uint8Array) => void = () => undefined;
  const stream: ByteStream = {
    write: (bytes) => written.push(Uint8Array.from(bytes)),
    end: () => undefined,
    destroy: () => undefined,
    on: (event: string, listener: (chunk: Uint8Array) => void) => {
      if (event === 'data') receive = listener;
    },
  } as ByteStream;
  const peer = new Peer(stream, {
    stallTimeoutMs: 0,
    handler: (method, _params, info) => {
      onCall(info);
      if (method === 'fail') throw new RpcError(-32000);
      return 'fine';
    },
  });
  receive(encodeFrame(body));
  peer.destroy();
  return decodeAll(written).map((e) => decodeBody((e as { body: Uint8Array }).body));
}

/** The `id` members of a reply's text, in order (replies here hold no nested id). */
const replyIds = (text: string): string[] => [...text.matchAll(/"id":(null|-?[0-9][0-9.eE+-]*|"(?:[^"\\]|\\.)*")/g)].map((m) => m[1]!);

describe('ids echoed exactly', () => {
  // A request, an invalid request or a notification; its id members (maybe a duplicate, maybe escaped) last-wins.
  const request = fc
    .tuple(
      fc.constantFrom('"2.0"', '"2.0"', '"2.0"', '"1.0"'),
      fc.constantFrom('"ok"', '"fail"'),
      fc.option(decoy.map((d) => `{"p":${d}}`), { nil: undefined }),
      fc.array(fc.tuple(idKey, fc.oneof(numberLexeme, numberLexeme, fc.constantFrom('"1.0"', 'null')), fc.nat()), { maxLength: 2 }),
      ws,
    )
    .map(([version, method, params, ids, w]) => {
      const members: Member[] = [member('"jsonrpc"', version, w), member('"method"', method, w), ...(params ? [member('"params"', params, w)] : [])];
      // Id members land anywhere; whichever ends up last is the one that counts.
      for (const [key, value, at] of ids) members.splice(at % (members.length + 1), 0, member(key, value, w));
      return { text: join(members, w), id: lastId(members), valid: version === '"2.0"' };
    });

  test('the reply carries the very id lexeme of each request, single or batched; handlers see the number', () => {
    fc.assert(
      fc.property(fc.array(request, { minLength: 1, maxLength: 6 }), fc.boolean(), (requests, batched) => {
        const messages = batched ? [requests] : requests.map((r) => [r]);
        for (const group of messages) {
          const body = batched ? `[${group.map((r) => r.text).join(',')}]` : group[0]!.text;
          const seen: CallInfo[] = [];
          const replies = exchange(body, (info) => seen.push(info));
          // Notifications (valid, no id) are not answered; everything else is, with its id as sent.
          const answered = group.filter((r) => !(r.valid && r.id === undefined));
          if (!answered.length) {
            expect(replies).toEqual([]);
            continue;
          }
          expect(replies).toHaveLength(1);
          expect(replyIds(replies[0]!), body).toEqual(answered.map((r) => r.id ?? 'null'));
          // Still JSON, and read back it is the same number as the request's.
          const reply: unknown = JSON.parse(replies[0]!);
          expect(batched ? (reply as Array<{ id: unknown }>).map((r) => r.id) : [(reply as { id: unknown }).id]).toEqual(answered.map((r) => JSON.parse(r.id ?? 'null')));
          // Handlers get a plain number id: the double JSON.parse reads from the lexeme.
          const called = group.filter((r) => r.valid);
          expect(seen.map((info) => info.id)).toEqual(called.map((r) => (r.id === undefined ? undefined : JSON.parse(r.id))));
        }
      }),
      runs(300),
    );
  });

  const object = fc
    .tuple(fc.array(fc.oneof(fc.tuple(idKey, fc.oneof(numberLexeme, decoy)), fc.tuple(fc.constantFrom('"x"', '"idx"', '"ID"', '"\\u0069"', '"i d"', '"\\"id"', '"params"'), decoy)), { maxLength: 6 }), ws)
    .map(([pairs, w]) => {
      const members = pairs.map(([key, value]) => ({ text: `${key}${w}:${w}${value}`, ...(JSON.parse(key) === 'id' ? { id: value } : {}) }));
      return { text: join(members, w), id: lastId(members) };
    });

  test('the scanner finds the top-level id JSON.parse keeps, never a nested one; rawIds picks exactly the lexemes a double loses', () => {
    fc.assert(
      fc.property(fc.oneof(object.map((o) => [o]), fc.array(fc.oneof(object, decoy.map((text) => ({ text, id: undefined }))), { maxLength: 6 })), fc.boolean(), (entries, single) => {
        const text = single && entries.length === 1 ? entries[0]!.text : `[${entries.map((e) => e.text).join(',')}]`;
        const value: unknown = JSON.parse(text);
        const parsed = (Array.isArray(value) ? value : [value]) as unknown[];
        const lexemes = scanIdLexemes(text);
        if (typeof value !== 'object' || value === null) {
          // A lone scalar holds no id.
          expect(lexemes).toEqual([]);
          return;
        }
        expect(lexemes).toHaveLength(parsed.length);
        parsed.forEach((entry, k) => {
          const own = typeof entry === 'object' && entry !== null && !Array.isArray(entry) && Object.hasOwn(entry, 'id');
          if (!own) {
            expect(lexemes[k]).toBeUndefined();
            return;
          }
          expect(JSON.parse(lexemes[k]!)).toEqual((entry as { id: unknown }).id);
          // Generated objects know their last id; a decoy entry may hold an id too, checked by the line above.
          if (entries[k]!.id !== undefined) expect(lexemes[k]).toBe(entries[k]!.id);
        });
        const raw = rawIds(text, value);
        const expected = parsed.map((entry, k) => {
          const lexeme = lexemes[k];
          const numeric = typeof (entry as { id?: unknown } | null)?.id === 'number';
          return numeric && lexeme !== undefined && String(Number(lexeme)) !== lexeme ? lexeme : undefined;
        });
        expect(raw ?? parsed.map(() => undefined)).toEqual(expected);
      }),
      runs(400),
    );
  });
});
