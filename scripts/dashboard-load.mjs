// What the dashboard costs under load (issues 38 and 39), against the built
// dist/acp.mjs, Linux (/proc):
//
//   latency  the time from an `acp append` process exiting to the dashboard's
//            stream pushing that event's row (median, min, max of --rounds)
//   stalled  a collaboration whose log is --log-mb MB (events with 10 KB
//            summaries), --pages event streams watching it that never read,
//            --updates appends: the server's peak resident memory
//   viewer   the same log, one stream that reads: peak memory and, per
//            append, the time until the stream receives its row
//
//   node scripts/build.mjs && node scripts/dashboard-load.mjs latency [--rounds 21]
//   node scripts/dashboard-load.mjs stalled --log-mb 50 --pages 30 [--updates 5]
//   node scripts/dashboard-load.mjs viewer --log-mb 205 [--updates 5]
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: 'string', default: '21' }, 'log-mb': { type: 'string', default: '50' }, pages: { type: 'string', default: '30' }, updates: { type: 'string', default: '5' } },
});
const mode = positionals[0] ?? 'latency';
const CLI = join(import.meta.dirname, '..', 'dist', 'acp.mjs');
const root = mkdtempSync(join(tmpdir(), 'acp-dashboard-load-'));
const folder = join(root, 'big');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function acp(args) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`acp ${args.join(' ')}: ${r.stderr}`);
  return r;
}

/** A collaboration in `revising` (alice's turn, seq 4) after init, a draft, a proposal and a review. */
function setUp() {
  acp(['init', '--folder', folder, '--participant', 'alice', '--participant', 'bob', '--objective', 'A long collaboration', '--completion', 'Done', '--primary-deliverable-type', 'adr']);
  writeFileSync(join(folder, 'proposal.md'), '# Proposal\n\nText.\n');
  writeFileSync(join(folder, 'review.md'), '# Review\n\nFine.\n');
  acp(['append', '--folder', folder, '--participant', 'alice', '--event', 'deliverable_drafted', '--summary', 'first draft', '--doc', 'deliverables/adr.md', '--role', 'primary', '--reply-to', '1']);
  acp(['append', '--folder', folder, '--participant', 'alice', '--event', 'proposal_submitted', '--summary', 'please review', '--doc', 'proposal.md', '--reply-to', '2']);
  acp(['append', '--folder', folder, '--participant', 'bob', '--event', 'review_submitted', '--summary', 'looks good', '--doc', 'review.md', '--reply-to', '3']);
}

/** Grow the log to `mb` MB with proposal/review rounds carrying 10 KB summaries (as an agent's tools would write them). */
function growLog(mb) {
  const log = join(folder, 'events.jsonl');
  let seq = readFileSync(log, 'utf8').trimEnd().split('\n').length;
  const filler = 'x'.repeat(10_000);
  let chunk = '';
  while (statSync(log).size + chunk.length < mb * 1e6) {
    for (const [from, event, doc] of [['alice', 'proposal_submitted', 'proposal.md'], ['bob', 'review_submitted', 'review.md']]) {
      // seq 5 (odd) is alice's proposal: the rounds keep the parity appendOne follows.
      seq++;
      chunk += `${JSON.stringify({ seq, from, event, at: '2026-01-01T00:00:00Z', summary: `round ${seq} ${filler}`, doc, reply_to: seq - 1 })}\n`;
    }
    if (chunk.length > 8e6) {
      appendFileSync(log, chunk);
      chunk = '';
    }
  }
  appendFileSync(log, chunk);
  // protocol.json is the log's cache: the state after a whole round is the state before it, but for the seq.
  const protocol = JSON.parse(readFileSync(join(folder, 'protocol.json'), 'utf8'));
  writeFileSync(join(folder, 'protocol.json'), `${JSON.stringify({ ...protocol, lastSeq: seq }, null, 2)}\n`);
  return seq;
}

/** The dashboard as a process, its URL, and its resident memory sampled every 50 ms. */
async function startDashboard() {
  const server = spawn(process.execPath, [CLI, 'dashboard', '--root', root], { stdio: ['ignore', 'pipe', 'inherit'] });
  let printed = '';
  server.stdout.setEncoding('utf8').on('data', (t) => (printed += t));
  const started = performance.now();
  while (!/^dashboard: \S+$/m.test(printed)) {
    if (server.exitCode !== null) throw new Error(`dashboard ended: ${printed}`);
    await sleep(50);
  }
  const rssKb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))[1]);
  let peakKb = rssKb();
  const sampler = setInterval(() => (peakKb = Math.max(peakKb, rssKb())), 50);
  return { server, url: new URL(/^dashboard: (\S+)$/m.exec(printed)[1]), startMs: performance.now() - started, rssKb, peak: () => peakKb, stop: () => (clearInterval(sampler), server.kill('SIGTERM')) };
}

/** A raw event stream: `paused` ones never read (a stalled page); others report each row event's seq with its arrival time. */
function openStream(url, paused, onRow) {
  const socket = net.connect(Number(url.port), url.hostname);
  socket.write(`GET /events?token=${url.searchParams.get('token')}&c=big HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/event-stream\r\n\r\n`);
  if (paused) socket.pause();
  else {
    let text = '';
    socket.setEncoding('utf8').on('data', (t) => {
      text += t;
      for (const m of text.matchAll(/event: row\ndata: .*?seq (\d+) /g)) onRow(Number(m[1]), Date.now());
      text = text.slice(-200);
    });
  }
  return socket;
}

/** Append one event by a separate acp process; resolves with the time it exited. */
function appendOne(seq) {
  const [participant, event, doc] = seq % 2 ? ['alice', 'proposal_submitted', 'proposal.md'] : ['bob', 'review_submitted', 'review.md'];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'append', '--folder', folder, '--participant', participant, '--event', event, '--summary', `update ${seq}`, '--doc', doc, '--reply-to', String(seq - 1)], { stdio: 'ignore' });
    child.on('exit', (code) => (code === 0 ? resolve(Date.now()) : reject(new Error(`append exited ${code}`))));
  });
}

/** Append `count` events after `seq`, each waited for on the reading stream; the delays from append exit to row pushed. */
async function appendAndWatch(seq, count, seen) {
  const delays = [];
  for (let i = 1; i <= count; i++) {
    const exited = await appendOne(seq + i);
    for (let waited = 0; !seen.has(seq + i); waited += 5) {
      if (waited > 120_000) throw new Error(`seq ${seq + i} not pushed within 120 s`);
      await sleep(5);
    }
    delays.push(seen.get(seq + i) - exited);
  }
  return delays;
}

try {
  setUp();
  const lastSeq = mode === 'latency' ? 4 : growLog(Number(values['log-mb']));
  const logMb = statSync(join(folder, 'events.jsonl')).size / 1e6;
  const dash = await startDashboard();
  await sleep(1000);
  const idleMb = dash.rssKb() / 1024;
  const seen = new Map();
  const reader = openStream(dash.url, false, (seq, at) => seen.set(seq, at));
  const stalled = mode === 'stalled' ? Array.from({ length: Number(values.pages) }, () => openStream(dash.url, true)) : [];
  await sleep(1000);
  const rounds = mode === 'latency' ? Number(values.rounds) : Number(values.updates);
  const delays = await appendAndWatch(lastSeq, rounds, seen);
  await sleep(1000);
  console.log(JSON.stringify({
    mode,
    logMb: Number(logMb.toFixed(1)),
    stalledPages: stalled.length,
    startS: Number((dash.startMs / 1000).toFixed(1)),
    rssIdleMb: Math.round(idleMb),
    rssPeakMb: Math.round(dash.peak() / 1024),
    rssEndMb: Math.round(dash.rssKb() / 1024),
    pushMs: { median: median(delays), min: Math.min(...delays), max: Math.max(...delays), n: delays.length },
  }));
  for (const socket of [reader, ...stalled]) socket.destroy();
  dash.stop();
} finally {
  rmSync(root, { recursive: true, force: true });
}
