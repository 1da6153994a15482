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
import { optionOf } from './options.ts';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const option = (name: string, fallback: string): string => optionOf(argv, name, fallback);
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

/**
 * The attacker, in its own process (so building and writing its 4 MiB does
 * not slow this process's pings): sends `kind` on a fresh connection, after
 * authenticating first when asked; prints the first answer to it.
 */
const ATTACKER = `const net = require('node:net');
const [port, kind, token] = [Number(process.argv[1]), process.argv[2], process.argv[3]];
const frameOf = (text) => Buffer.concat([Buffer.from('Content-Length: ' + Buffer.byteLength(text) + '\\r\\n\\r\\n'), Buffer.from(text)]);
const frame = kind.endsWith('deep') ? Buffer.concat([Buffer.from('Content-Length: 4194303\\r\\n\\r\\n'), Buffer.alloc(4194303, '[')]) : frameOf('[' + '0,'.repeat(999999) + '0]');
const auth = kind.startsWith('auth');
const socket = net.connect(port, '127.0.0.1');
let answer = '';
let sent = !auth;
const finish = (text) => { process.stdout.write(text.slice(0, 200)); process.exit(0); };
socket.on('connect', () => socket.write(auth ? frameOf(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'authenticate', params: { token } })) : frame));
socket.on('data', (d) => {
  answer += d;
  if (!sent) { sent = true; answer = ''; socket.write(frame); return; }
  const body = answer.split(/Content-Length: \\d+\\r\\n\\r\\n/).filter(Boolean)[0];
  if (body) finish(body);
});
socket.on('close', () => finish(answer || 'closed without an answer'));
socket.on('error', (e) => finish('error ' + e.message));
setTimeout(() => finish('no answer within 20 s'), 20000);`;

function attack(kind: string): Promise<string> {
  const child = spawn('node', ['-e', ATTACKER, String(port), kind, TOKEN], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  return new Promise((resolve) => child.on('exit', () => resolve(out)));
}

const attacks = ['unauth-deep', 'auth-deep', 'auth-wide'];
const quiet = await slowestPing(new Promise((r) => setTimeout(r, 1000)));
console.log(`${runtime}: slowest ping in a quiet second ${quiet.toFixed(1)} ms`);
for (const name of attacks) {
  const stalls: number[] = [];
  let answer = '';
  for (let i = 0; i < rounds; i++) {
    const attacking = attack(name);
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
