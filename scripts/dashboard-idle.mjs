// What idle dashboard pages cost (issue 29): starts `acp dashboard` (built
// dist/acp.mjs, or the command given as arguments) on a root of three
// collaborations, opens N event streams (default 200) as a browser's
// EventSource would, leaves them idle, and prints the server's resident
// memory and CPU time before and after, from /proc (Linux).
//
//   node scripts/build.mjs && node scripts/dashboard-idle.mjs [--streams 200] [--idle 30]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { streams: { type: 'string', default: '200' }, idle: { type: 'string', default: '30' } } });
const STREAMS = Number(values.streams);
const IDLE_S = Number(values.idle);
const CLI = join(import.meta.dirname, '..', 'dist', 'acp.mjs');
const root = mkdtempSync(join(tmpdir(), 'acp-dashboard-idle-'));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

for (const name of ['alpha', 'beta', 'gamma']) {
  const r = spawnSync(process.execPath, [CLI, 'init', '--folder', join(root, name), '--participant', 'alice', '--participant', 'bob', '--objective', `Objective ${name}`, '--completion', 'Done', '--primary-deliverable-type', 'adr'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
}
const server = spawn(process.execPath, [CLI, 'dashboard', '--root', root], { stdio: ['ignore', 'pipe', 'inherit'] });
let printed = '';
server.stdout.setEncoding('utf8').on('data', (t) => (printed += t));
for (let i = 0; !/^dashboard: \S+$/m.test(printed); i++) {
  if (i > 600) throw new Error(`no URL: ${printed}`);
  await sleep(50);
}
const url = new URL(/^dashboard: (\S+)$/m.exec(printed)[1]);

/** Resident memory (kB) and CPU time (clock ticks) of the server, from /proc. */
function usage() {
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))[1]);
  const fields = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { rssKb: rss, cpuTicks: Number(fields[11]) + Number(fields[12]) };
}

await sleep(2000);
const before = usage();
const sockets = [];
let opened = 0;
for (let i = 0; i < STREAMS; i++) {
  await new Promise((resolve, reject) => {
    const req = request(new URL(`/events?token=${url.searchParams.get('token')}&c=alpha`, url), { agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`stream ${i}: HTTP ${res.statusCode}`));
      res.once('data', () => {
        opened++;
        resolve();
      });
    });
    req.on('error', reject);
    req.end();
    sockets.push(req);
  });
}
await sleep(2000);
const open = usage();
await sleep(IDLE_S * 1000);
const idle = usage();
const tick = 100; // USER_HZ on Linux
console.log(`streams open: ${opened}`);
console.log(`server RSS: ${(before.rssKb / 1024).toFixed(1)} MB before, ${(open.rssKb / 1024).toFixed(1)} MB with ${opened} streams (+${((open.rssKb - before.rssKb) / 1024).toFixed(1)} MB), ${(idle.rssKb / 1024).toFixed(1)} MB after ${IDLE_S} s idle`);
console.log(`server CPU while the ${opened} streams sat idle for ${IDLE_S} s: ${((idle.cpuTicks - open.cpuTicks) / tick).toFixed(2)} s (${(((idle.cpuTicks - open.cpuTicks) / tick / IDLE_S) * 100).toFixed(2)} %)`);
for (const req of sockets) req.destroy();
server.kill('SIGTERM');
await new Promise((r) => server.on('close', r));
rmSync(root, { recursive: true, force: true });
