// The request → response vectors, run by rpc-protocol.test.ts over every
// transport against the server on every runtime (in-process, and `acp serve`
// spawned under Node, Bun, Deno and as the binary). A vector whose
// expectation is `null` must get no reply at all. A vector with `rawIds` also
// checks the reply's text: JSON.parse reads `1.0` as 1 and
// `12345678901234567890` as 12345678901234567000, so only the text shows
// whether an id was echoed exactly.
import { expect } from 'vitest';
import type { RawConn } from './helpers.ts';

type Expect = Record<string, unknown> | Array<Record<string, unknown>> | null;
interface Vector {
  name: string;
  /** JSON text (framed by the test) or raw body bytes. */
  send: string | Uint8Array;
  expect: Expect;
  /** The `id` members of the reply's text, in order, spelt exactly so (a string id with its quotes). */
  rawIds?: string[];
}

export const ok = (id: unknown): Record<string, unknown> => ({ jsonrpc: '2.0', id, result: expect.anything() });
export const err = (id: unknown, code: number): Record<string, unknown> => ({ jsonrpc: '2.0', id, error: expect.objectContaining({ code, message: expect.any(String) }) });

export const VECTORS: Vector[] = [
  // Requests and ids
  { name: 'request with a number id is answered with that id', send: '{"jsonrpc":"2.0","id":1,"method":"ping"}', expect: ok(1) },
  { name: 'a string id is echoed as a string ("1" is not 1)', send: '{"jsonrpc":"2.0","id":"1","method":"ping"}', expect: ok('1') },
  { name: 'a fractional id is echoed', send: '{"jsonrpc":"2.0","id":2.5,"method":"ping"}', expect: ok(2.5) },
  { name: 'a multi-byte id is echoed byte for byte', send: '{"jsonrpc":"2.0","id":"日本語-🎉-é","method":"ping"}', expect: ok('日本語-🎉-é') },
  { name: 'a request with "id": null is answered (id null)', send: '{"jsonrpc":"2.0","id":null,"method":"ping"}', expect: ok(null) },
  { name: 'params by name', send: '{"jsonrpc":"2.0","id":3,"method":"task/status","params":{"task":"demo"}}', expect: { jsonrpc: '2.0', id: 3, result: expect.objectContaining({ task: 'demo', phase: 'drafting' }) } },
  { name: 'params by position', send: '{"jsonrpc":"2.0","id":4,"method":"task/status","params":["demo"]}', expect: { jsonrpc: '2.0', id: 4, result: expect.objectContaining({ task: 'demo' }) } },
  { name: 'empty params object is allowed', send: '{"jsonrpc":"2.0","id":5,"method":"ping","params":{}}', expect: ok(5) },
  { name: 'empty params array is allowed', send: '{"jsonrpc":"2.0","id":6,"method":"ping","params":[]}', expect: ok(6) },
  { name: 'unknown members are ignored', send: '{"jsonrpc":"2.0","id":7,"method":"ping","extra":true}', expect: ok(7) },
  // Notifications
  { name: 'a notification is not answered', send: '{"jsonrpc":"2.0","method":"ping"}', expect: null },
  { name: 'a notification of an unknown method is not answered', send: '{"jsonrpc":"2.0","method":"no/such"}', expect: null },
  { name: 'a notification with invalid params is not answered', send: '{"jsonrpc":"2.0","method":"task/status","params":{"task":5}}', expect: null },
  { name: 'a notification that fails (unknown task) is not answered', send: '{"jsonrpc":"2.0","method":"task/status","params":{"task":"nope"}}', expect: null },
  // Errors of valid requests
  { name: 'unknown method → -32601', send: '{"jsonrpc":"2.0","id":10,"method":"no/such"}', expect: err(10, -32601) },
  { name: 'reserved rpc. method → -32601', send: '{"jsonrpc":"2.0","id":11,"method":"rpc.discover"}', expect: err(11, -32601) },
  { name: 'inherited property names are not methods', send: '{"jsonrpc":"2.0","id":12,"method":"constructor"}', expect: err(12, -32601) },
  { name: 'invalid params (wrong type) → -32602', send: '{"jsonrpc":"2.0","id":13,"method":"task/status","params":{"task":5}}', expect: err(13, -32602) },
  { name: 'invalid params (missing member) → -32602', send: '{"jsonrpc":"2.0","id":14,"method":"task/status","params":{}}', expect: err(14, -32602) },
  { name: 'invalid params (unknown member) → -32602', send: '{"jsonrpc":"2.0","id":15,"method":"task/status","params":{"task":"demo","x":1}}', expect: err(15, -32602) },
  { name: 'invalid params (too many positional) → -32602', send: '{"jsonrpc":"2.0","id":16,"method":"task/status","params":["demo",1,2]}', expect: err(16, -32602) },
  { name: 'task not found → -32002', send: '{"jsonrpc":"2.0","id":17,"method":"task/status","params":{"task":"nope"}}', expect: err(17, -32002) },
  { name: 'path escape in a task name → -32602', send: '{"jsonrpc":"2.0","id":18,"method":"task/status","params":{"task":"../x"}}', expect: err(18, -32602) },
  { name: 'task/result before completion → -32003', send: '{"jsonrpc":"2.0","id":19,"method":"task/result","params":{"task":"demo"}}', expect: { jsonrpc: '2.0', id: 19, error: expect.objectContaining({ code: -32003, data: { task: 'demo', phase: 'drafting' } }) } },
  { name: 'unknown agent → -32000', send: '{"jsonrpc":"2.0","id":20,"method":"agent/info","params":{"agent":"zed"}}', expect: err(20, -32000) },
  // Invalid requests
  { name: 'bad version → -32600 (readable id echoed)', send: '{"jsonrpc":"1.0","id":30,"method":"ping"}', expect: err(30, -32600) },
  { name: 'missing jsonrpc → -32600', send: '{"id":31,"method":"ping"}', expect: err(31, -32600) },
  { name: 'jsonrpc as a number → -32600', send: '{"jsonrpc":2.0,"id":32,"method":"ping"}', expect: err(32, -32600) },
  { name: 'method not a string → -32600', send: '{"jsonrpc":"2.0","id":33,"method":1}', expect: err(33, -32600) },
  { name: 'missing method → -32600', send: '{"jsonrpc":"2.0","id":34}', expect: err(34, -32600) },
  { name: 'params a string → -32600', send: '{"jsonrpc":"2.0","id":35,"method":"ping","params":"x"}', expect: err(35, -32600) },
  { name: 'params a number → -32600', send: '{"jsonrpc":"2.0","id":36,"method":"ping","params":3}', expect: err(36, -32600) },
  { name: 'params null → -32600', send: '{"jsonrpc":"2.0","id":37,"method":"ping","params":null}', expect: err(37, -32600) },
  { name: 'id an object → -32600 with id null', send: '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', expect: err(null, -32600) },
  { name: 'id a boolean → -32600 with id null', send: '{"jsonrpc":"2.0","id":true,"method":"ping"}', expect: err(null, -32600) },
  { name: 'a request carrying result → -32600', send: '{"jsonrpc":"2.0","id":38,"method":"ping","result":1}', expect: err(38, -32600) },
  { name: 'an invalid request without id is answered (id null), as in the JSON-RPC examples', send: '{"jsonrpc":"2.0","method":1,"params":"bar"}', expect: err(null, -32600) },
  { name: 'JSON null → -32600', send: 'null', expect: err(null, -32600) },
  { name: 'a JSON number → -32600', send: '42', expect: err(null, -32600) },
  { name: 'a JSON string → -32600', send: '"ping"', expect: err(null, -32600) },
  // Parse errors
  { name: 'invalid JSON → -32700 with id null', send: '{"jsonrpc":"2.0","method":"ping","id":1', expect: err(null, -32700) },
  { name: 'invalid JSON batch → one -32700', send: '[{"jsonrpc":"2.0","method":"ping","id":1},{"jsonrpc":"2.0","method"', expect: err(null, -32700) },
  { name: 'an empty body → -32700', send: '', expect: err(null, -32700) },
  { name: 'invalid UTF-8 → -32700', send: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), expect: err(null, -32700) },
  { name: 'a lone surrogate half in UTF-8 (CESU) → -32700', send: new Uint8Array([0x22, 0xed, 0xa0, 0x80, 0x22]), expect: err(null, -32700) },
  // Batches
  { name: 'an empty batch → one -32600 object, not an array', send: '[]', expect: err(null, -32600) },
  { name: 'a batch of one request → an array of one', send: '[{"jsonrpc":"2.0","id":40,"method":"ping"}]', expect: [ok(40)] },
  { name: 'a batch of invalid entries → one error each', send: '[1,2,3]', expect: [err(null, -32600), err(null, -32600), err(null, -32600)] },
  { name: 'a nested empty batch → one error', send: '[[]]', expect: [err(null, -32600)] },
  { name: 'a batch with null → one error', send: '[null]', expect: [err(null, -32600)] },
  { name: 'a batch of only notifications → no reply at all', send: '[{"jsonrpc":"2.0","method":"ping"},{"jsonrpc":"2.0","method":"no/such"}]', expect: null },
  {
    name: 'a mixed batch: answers in order, notifications left out',
    send: '[{"jsonrpc":"2.0","id":"a","method":"ping"},{"jsonrpc":"2.0","method":"ping"},{"foo":"boo"},{"jsonrpc":"2.0","id":"b","method":"no/such"},{"jsonrpc":"2.0","id":"c","method":"task/status","params":["demo"]}]',
    expect: [ok('a'), err(null, -32600), err('b', -32601), ok('c')],
  },
  { name: 'a batch mixing ids 1 and "1" keeps both', send: '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":"1","method":"ping"}]', expect: [ok(1), ok('1')], rawIds: ['1', '"1"'] },
  // Number ids echoed as written, also where a double cannot hold them (JSON.parse would answer 12345678901234567000, 1, 100, 0 …)
  { name: 'an integer id beyond a double is echoed digit for digit', send: '{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"}', expect: ok(Number('12345678901234567890')), rawIds: ['12345678901234567890'] },
  { name: 'an id of 2^53 + 1 is echoed, not rounded', send: '{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}', expect: ok(9007199254740992), rawIds: ['9007199254740993'] },
  { name: 'an id 1.0 is echoed as 1.0', send: '{"jsonrpc":"2.0","id":1.0,"method":"ping"}', expect: ok(1), rawIds: ['1.0'] },
  { name: 'an id 1e2 is echoed as 1e2', send: '{"jsonrpc":"2.0","id":1e2,"method":"ping"}', expect: ok(100), rawIds: ['1e2'] },
  { name: 'an id -0 is echoed as -0', send: '{"jsonrpc":"2.0","id":-0,"method":"ping"}', expect: ok(-0), rawIds: ['-0'] },
  { name: 'an id beyond a double\'s range (1e400) is a number id, echoed', send: '{"jsonrpc":"2.0","id":1e400,"method":"ping"}', expect: ok(Infinity), rawIds: ['1e400'] },
  { name: 'a raw id on an error answer', send: '{"jsonrpc":"2.0","id":-1.5E+3,"method":"no/such"}', expect: err(-1500, -32601), rawIds: ['-1.5E+3'] },
  { name: 'a raw id on an invalid request', send: '{"jsonrpc":"1.0","id":2.50,"method":"ping"}', expect: err(2.5, -32600), rawIds: ['2.50'] },
  { name: 'whitespace around the id does not matter', send: '{"jsonrpc":"2.0", "id" :\n\t1.50 , "method":"ping"}', expect: ok(1.5), rawIds: ['1.50'] },
  { name: 'a canonical fraction is echoed as it was', send: '{"jsonrpc":"2.0","id":-2.5e-7,"method":"ping"}', expect: ok(-2.5e-7), rawIds: ['-2.5e-7'] },
  { name: 'an escaped key spelling is the id', send: '{"jsonrpc":"2.0","\\u0069d":7.0,"method":"ping"}', expect: ok(7), rawIds: ['7.0'] },
  { name: 'a fully escaped key spelling with a string id', send: '{"jsonrpc":"2.0","\\u0069\\u0064":"esc","method":"ping"}', expect: ok('esc'), rawIds: ['"esc"'] },
  { name: 'duplicate id keys: the last one wins, as in JSON.parse', send: '{"jsonrpc":"2.0","id":1.0,"method":"ping","i\\u0064":2.00}', expect: ok(2), rawIds: ['2.00'] },
  { name: 'duplicate id keys: a last string id wins over a raw number', send: '{"id":1.0,"jsonrpc":"2.0","method":"ping","id":"last"}', expect: ok('last'), rawIds: ['"last"'] },
  { name: 'an id nested in params is not the id', send: '{"jsonrpc":"2.0","params":{"id":6.0,"x":[{"id":7.0}]},"id":5.0,"method":"no/such"}', expect: err(5, -32601), rawIds: ['5.0'] },
  {
    name: 'a batch mixing raw ids with invalid entries and notifications',
    send:
      '[{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"},{"jsonrpc":"2.0","id":1.0,"method":"no/such"},{"jsonrpc":"1.0","id":1e2,"method":"ping"},' +
      '{"jsonrpc":"2.0","method":"ping","params":{"id":1.0}},7,{"jsonrpc":"2.0","id":-0,"method":"ping","result":1},{"jsonrpc":"2.0","id":"1.0","method":"ping"},' +
      '{"jsonrpc":"2.0","id":true,"method":"ping"},{"jsonrpc":"2.0","\\u0069d":9007199254740993,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"ping"}]',
    expect: [ok(Number('12345678901234567890')), err(1, -32601), err(100, -32600), err(null, -32600), err(-0, -32600), ok('1.0'), err(null, -32600), ok(9007199254740992), ok(3)],
    rawIds: ['12345678901234567890', '1.0', '1e2', 'null', '-0', '"1.0"', 'null', '9007199254740993', '3'],
  },
];

/** The `id` members of a reply's text (the vectors' replies hold no nested `id`), spelt as sent. */
function idLexemes(text: string): string[] {
  return [...text.matchAll(/"id":(null|-?[0-9][0-9.eE+-]*|"(?:[^"\\]|\\.)*")/g)].map((m) => m[1]!);
}

function checkShape(reply: unknown): void {
  const all = Array.isArray(reply) ? reply : [reply];
  for (const r of all) {
    const response = r as Record<string, unknown>;
    expect(response.jsonrpc).toBe('2.0');
    // result and error never both, and one of them always.
    expect('result' in response && 'error' in response).toBe(false);
    expect('result' in response || 'error' in response).toBe(true);
  }
}

export async function runVectors(conn: RawConn): Promise<void> {
  for (const vector of VECTORS) {
    conn.send(vector.send);
    if (vector.expect === null) {
      // Nothing may come back: not before a ping barrier, nor a moment after it (handlers may be asynchronous).
      const got = await conn.before();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect([...got, ...conn.drain()], vector.name).toEqual([]);
    } else {
      const reply = await conn.next();
      checkShape(reply);
      expect(reply, vector.name).toEqual(vector.expect);
      if (vector.rawIds) expect(idLexemes(conn.rawOf(reply) ?? ''), vector.name).toEqual(vector.rawIds);
      // Exactly one reply.
      expect(await conn.before(), vector.name).toEqual([]);
    }
  }
}

/** Closing vectors: each needs a fresh connection, the server answers (id null) and closes. */
export const CLOSING: Array<{ name: string; bytes: string }> = [
  { name: 'body over the size limit', bytes: 'Content-Length: 99999999\r\n\r\n{' },
  { name: 'missing Content-Length', bytes: 'Content-Type: application/json\r\n\r\n{}' },
  { name: 'non-numeric Content-Length', bytes: 'Content-Length: 12abc\r\n\r\n' },
  { name: 'negative Content-Length', bytes: 'Content-Length: -5\r\n\r\n' },
  { name: 'header line without a colon', bytes: 'Content-Length 5\r\n\r\n' },
  { name: 'bare LF line ends', bytes: 'Content-Length: 2\n\n{}' },
  { name: 'conflicting Content-Length headers', bytes: 'Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}' },
  { name: 'a header over the limit', bytes: `X-Pad: ${'a'.repeat(9000)}` },
];

