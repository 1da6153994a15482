// The request → response vectors of rpc-protocol.test.ts (also run against
// the server under Bun and Deno by rpc-cli.test.ts). A vector whose
// expectation is `null` must get no reply at all.
import { expect } from 'vitest';
import type { RawConn } from './helpers.ts';

type Expect = Record<string, unknown> | Array<Record<string, unknown>> | null;
interface Vector {
  name: string;
  /** JSON text (framed by the test) or raw body bytes. */
  send: string | Uint8Array;
  expect: Expect;
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
  { name: 'a batch mixing ids 1 and "1" keeps both', send: '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":"1","method":"ping"}]', expect: [ok(1), ok('1')] },
];

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

