// The baseline of the server benchmark (scripts/bench-rpc.ts): a bare Node
// JSON-RPC server over TCP with the same Content-Length framing as `acp
// serve`, and nothing else. It JSON.parses every message and answers with a
// fixed result (the real task/status result, so the bytes on the wire are
// the same), echoing the request's id. No params check, no auth, no limits:
// what is left is the floor a Node server of this protocol cannot go under
// (socket reads and writes, framing, one JSON.parse per call).
//
//   node scripts/bench-echo.mjs <file holding the result JSON text>
//
// Listens on 127.0.0.1 (an ephemeral port) and says so on stderr exactly as
// `acp serve` does: `listening on tcp://127.0.0.1:<port>`.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

const result = readFileSync(process.argv[2], 'utf8');
const SEPARATOR = Buffer.from('\r\n\r\n');

/** One message: the reply a minimal server builds (string templates, one write per reply). */
function answer(socket, text) {
  const message = JSON.parse(text);
  if (message.id === undefined) return;
  const body = `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${result}}`;
  socket.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

const server = createServer((socket) => {
  socket.setNoDelay(true);
  let pending = Buffer.alloc(0);
  socket.on('data', (chunk) => {
    let buf = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    for (;;) {
      const end = buf.indexOf(SEPARATOR);
      if (end < 0) break;
      const length = Number(/content-length:\s*(\d+)/i.exec(buf.latin1Slice(0, end))?.[1]);
      const start = end + 4;
      if (buf.length < start + length) break;
      answer(socket, buf.toString('utf8', start, start + length));
      buf = buf.subarray(start + length);
    }
    pending = buf;
  });
  socket.on('error', () => undefined);
});
server.listen(0, '127.0.0.1', () => process.stderr.write(`listening on tcp://127.0.0.1:${server.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));
