// How long one hostile frame stalls `acp serve` for everyone else (issue 27,
// item 3). An authenticated client pings the server back to back; meanwhile
// attackers send, each on a fresh TCP connection:
//
//   unauth-deep   before authenticating: `Content-Length: 4194303` and
//                 4 MiB - 1 of `[` (the attack);
//   auth-deep     the same after authenticating with a valid token;
//   auth-wide     after authenticating: a 4 MiB array of 1 000 000 zeros
//                 (valid JSON, shallow: what JSON.parse has to do anyway).
//
// Printed per attack: the slowest ping answered while it ran, against the
// slowest ping of a quiet window before (goal: < 50 ms added), and what the
// attacker got back.
//
//   bun scripts/bench-stall.ts [--runtime node|binary] [--dist DIR] [--rounds 5]
//
// The server runs in its own process (`node DIST/acp.mjs serve` or `DIST/acp serve`).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RpcClient } from '../plugins/rpc/client.ts';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 && argv[at + 1] ? argv[at + 1]! : fallback;
};
const runtime = option('runtime', 'node');
const dist = option('dist', join(repo, 'dist'));
const rounds = Number(option('rounds', '5'));
const TOKEN = 'alice-token-0123456789';

const work = mkdtempSync(join(tmpdir(), 'acp-bench-stall-'));
writeFileSync(join(work, 'server.yaml'), `tokens:\n  ${TOKEN}: alice\n`);
const port = await new Promise<number>((resolve) => {
  const probe = net.createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as net.AddressInfo;
    probe.close(() => resolve(port));
  });
});
const [cmd, pre] = runtime === 'binary' ? [join(dist, 'acp'), []] : ['node', [join(dist, 'acp.mjs')]];
const server = spawn(cmd, [...pre, 'serve', '--config', join(work, 'server.yaml'), '--root', work, '--tcp', `127.0.0.1:${port}`, '--no-config'], { stdio: ['ignore', 'ignore', 'pipe'] });
await new Promise<void>((resolve) => server.stderr!.on('data', (d) => String(d).includes('listening') && resolve()));
const client = await RpcClient.connect(`tcp://127.0.0.1:${port}`, { token: TOKEN, heartbeatMs: 0 });

/** Ping back to back until `until` resolves; the slowest round trip (ms). */
async function slowestPing(until: Promise<unknown>): Promise<number> {
  let done = false;
  void until.finally(() => (done = true));
  let slowest = 0;
  while (!done) {
    const started = performance.now();
    await client.call('ping');
    slowest = Math.max(slowest, performance.now() - started);
  }
  return slowest;
}

/** Send `frame` on a fresh connection (after authenticating when `auth`); resolves with the first answer's text or how it ended. */
function attack(frame: Uint8Array, auth: boolean): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    const frameOf = (text: string): string => `Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`;
    let sent = false;
    socket.on('connect', () => {
      if (!auth) {
        sent = true;
        socket.write(frame);
      } else socket.write(frameOf(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'authenticate', params: { token: TOKEN } })));
    });
    socket.on('data', (d) => {
      answer += d;
      // Authenticated (its answer arrived): now the frame.
      if (!sent) {
        sent = true;
        socket.write(frame);
        return;
      }
      const bodies = answer.split(/Content-Length: \d+\r\n\r\n/).filter(Boolean);
      if (bodies.length >= (auth ? 2 : 1)) {
        socket.destroy();
        resolve(bodies.at(-1)!.slice(0, 120));
      }
    });
    socket.on('close', () => resolve(answer ? answer.slice(0, 120) : 'closed without an answer'));
    socket.on('error', (error) => resolve(`error ${error.message}`));
    setTimeout(() => {
      socket.destroy();
      resolve('no answer within 20 s');
    }, 20_000);
  });
}

const deep = Buffer.concat([Buffer.from('Content-Length: 4194303\r\n\r\n'), Buffer.alloc(4194303, '[')]);
const wideBody = `[${'0,'.repeat(999_999)}0]`;
const wide = Buffer.from(`Content-Length: ${Buffer.byteLength(wideBody)}\r\n\r\n${wideBody}`);
const attacks: [string, Buffer, boolean][] = [
  ['unauth-deep', deep, false],
  ['auth-deep', deep, true],
  ['auth-wide', wide, true],
];
const quiet = await slowestPing(new Promise((r) => setTimeout(r, 1000)));
console.log(`${runtime}: slowest ping in a quiet second ${quiet.toFixed(1)} ms`);
for (const [name, frame, auth] of attacks) {
  const stalls: number[] = [];
  let answer = '';
  for (let i = 0; i < rounds; i++) {
    const attacking = attack(frame, auth);
    // The attack runs until answered; pings continue a little past it.
    const window = attacking.then((a) => new Promise((r) => setTimeout(() => r(a), 100)));
    stalls.push(await slowestPing(window));
    answer = await attacking;
  }
  stalls.sort((a, b) => a - b);
  console.log(`${runtime} ${name}: slowest ping while attacked: median ${stalls[Math.floor(stalls.length / 2)]!.toFixed(1)} ms, max ${stalls.at(-1)!.toFixed(1)} ms over ${rounds} rounds; attacker got ${JSON.stringify(answer.replace(/\s+/g, ' ').slice(0, 100))}`);
}
client.close();
server.kill();
rmSync(work, { recursive: true, force: true });
