// The cost of signing (issues 30 and 36, docs/signing.md), measured, never
// assumed:
//   - a signed append against an unsigned one, spawned, on Node (dist/acp.mjs)
//     and the binary (dist/acp), small folder, median of APPENDS runs each;
//   - validate of a 100k-event log, signed against unsigned, first run (no
//     validation checkpoint) and re-validate (from the checkpoint).
// Each row gives the median wall time and the median CPU time (user + system
// of the spawned process, every thread of it: what verifying on every core
// costs), and the load average it was measured under.
// Run: `node scripts/build.mjs && bun scripts/bench-signing.ts`
// (SIGNING_BENCH_EVENTS, SIGNING_BENCH_APPENDS, SIGNING_BENCH_VALIDATES change
// the sizes, SIGNING_BENCH_ONLY=append|validate runs one half,
// SIGNING_BENCH_DIST measures another build's dist/). Prints a Markdown
// table; it asserts nothing.
import { createPrivateKey, createHash, sign } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { formatEventLine, formatProtocolJson } from '../acp.ts';

const REPO = join(import.meta.dir, '..');
const EVENTS = Number(process.env.SIGNING_BENCH_EVENTS ?? 100_000);
const APPENDS = Number(process.env.SIGNING_BENCH_APPENDS ?? 21);
const ONLY = process.env.SIGNING_BENCH_ONLY; // 'append' or 'validate'
const VALIDATES = Number(process.env.SIGNING_BENCH_VALIDATES ?? 3);
const root = mkdtempSync(join(tmpdir(), 'acp-bench-sign-'));
const env: Record<string, string | undefined> = { ...process.env, XDG_STATE_HOME: join(root, 'state'), HOME: root };
for (const key of Object.keys(env)) if (key.startsWith('ACP_')) delete env[key];

const DIST = process.env.SIGNING_BENCH_DIST ?? join(REPO, 'dist');
const RUNTIMES: Record<string, string[]> = {
  node: [process.env.NODE ?? 'node', join(DIST, 'acp.mjs')],
  binary: [join(DIST, 'acp')],
};

/** Wall time of a spawned command, and its CPU time (user + system, where Bun reports it): on a loaded machine the CPU time is the steadier figure. */
function acp(runtime: string, args: string[]): { wall: number; cpu: number } {
  const [cmd, ...pre] = RUNTIMES[runtime]!;
  const start = performance.now();
  const bun = (globalThis as { Bun?: { spawnSync(cmd: string[], options: object): { exitCode: number; stderr: Uint8Array; resourceUsage?: { cpuTime: { total: bigint } } } } }).Bun;
  if (bun) {
    const result = bun.spawnSync([cmd!, ...pre, ...args], { env, stdout: 'ignore', stderr: 'pipe' });
    const wall = performance.now() - start;
    if (result.exitCode !== 0 && args[0] !== 'validate') throw new Error(`${runtime} ${args.join(' ')}: ${new TextDecoder().decode(result.stderr)}`);
    return { wall, cpu: Number(result.resourceUsage?.cpuTime.total ?? 0n) / 1000 };
  }
  const result = spawnSync(cmd!, [...pre, ...args], { env, encoding: 'utf8' });
  const wall = performance.now() - start;
  if (result.status !== 0 && args[0] !== 'validate') throw new Error(`${runtime} ${args.join(' ')}: ${result.stderr}`);
  return { wall, cpu: Number.NaN };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function init(runtime: string, folder: string, signed: boolean): void {
  const args = ['init', '--folder', folder, '--participant', 'alice', '--participant', 'bob', '--objective', 'bench', '--completion', 'done', '--primary-deliverable-type', 'adr'];
  acp(runtime, signed ? [...args, '--sign'] : args);
}

/** Median ms of an append (deliverable_drafted, which drafting allows again and again), interleaving signed and unsigned runs. */
function appendCost(runtime: string): Record<'signed' | 'unsigned' | 'signedCpu' | 'unsignedCpu', number> {
  const folders = { signed: join(root, `${runtime}-append-signed`), unsigned: join(root, `${runtime}-append-unsigned`) };
  init(runtime, folders.signed, true);
  init(runtime, folders.unsigned, false);
  const times = { signed: [] as number[], unsigned: [] as number[], signedCpu: [] as number[], unsignedCpu: [] as number[] };
  for (let i = 0; i < APPENDS + 1; i++) {
    for (const kind of ['unsigned', 'signed'] as const) {
      const { wall, cpu } = acp(runtime, ['append', '--folder', folders[kind], '--participant', 'alice', '--event', 'deliverable_drafted', '--summary', `draft ${i}`, '--doc', 'deliverables/adr.md', '--role', 'primary', '--reply-to', String(i + 1)]);
      // The first run warms the file cache.
      if (i > 0) {
        times[kind].push(wall);
        times[`${kind}Cpu`].push(cpu);
      }
    }
  }
  return { signed: median(times.signed), unsigned: median(times.unsigned), signedCpu: median(times.signedCpu), unsignedCpu: median(times.unsignedCpu) };
}

/**
 * A signed folder of EVENTS events (init through the CLI, the rest written
 * here with alice's key, as acp writes them) and the same folder unsigned.
 */
function bigFolders(): { signed: string; unsigned: string } {
  const signed = join(root, 'big-signed');
  const unsigned = join(root, 'big-unsigned');
  init('node', signed, true);
  init('node', unsigned, false);
  const keyDir = join(root, 'state', 'acp', 'keys');
  const jwk = JSON.parse(readFileSync(join(keyDir, readdirSync(keyDir).find((name) => /^alice-[0-9a-f]{12}\.jwk$/.test(name))!), 'utf8'));
  const key = createPrivateKey({ key: jwk, format: 'jwk' });
  const protocol = JSON.parse(readFileSync(join(signed, 'protocol.json'), 'utf8'));
  const id = protocol.signing.id as string;
  const first = readFileSync(join(signed, 'events.jsonl'), 'utf8');
  const signedLines = [first];
  const plainLines = [readFileSync(join(unsigned, 'events.jsonl'), 'utf8')];
  let previous = first.slice(0, -1);
  const at = protocol.createdAt as string;
  for (let seq = 2; seq <= EVENTS; seq++) {
    const event = { seq, from: 'alice', event: 'deliverable_drafted', at, summary: `draft ${seq} of the decision record, with a summary of ordinary length`, doc: 'deliverables/adr.md', reply_to: seq - 1, role: 'primary' };
    plainLines.push(formatEventLine(event));
    const body = formatEventLine({ ...event, prev: createHash('sha256').update(previous).digest('hex') }).slice(0, -1);
    const sig = sign(null, Buffer.from(`acp signed event 1\n${id}\n${body}`), key).toString('base64url');
    previous = `${body.slice(0, -1)},"sig":"${sig}"}`;
    signedLines.push(`${previous}\n`);
  }
  writeFileSync(join(signed, 'events.jsonl'), signedLines.join(''));
  writeFileSync(join(unsigned, 'events.jsonl'), plainLines.join(''));
  const head = { seq: EVENTS, sha256: createHash('sha256').update(previous).digest('hex') };
  writeFileSync(join(signed, 'protocol.json'), formatProtocolJson({ ...protocol, signing: { ...protocol.signing, head } }));
  return { signed, unsigned };
}

/** Median wall and CPU ms of a first validate (no validation checkpoint) and a re-validate (from it). */
function validateCost(runtime: string, folder: string): Record<'first' | 'again' | 'firstCpu' | 'againCpu', number> {
  const times = { first: [] as number[], again: [] as number[], firstCpu: [] as number[], againCpu: [] as number[] };
  for (let i = 0; i < VALIDATES; i++) {
    rmSync(join(root, 'state', 'acp', 'validate'), { recursive: true, force: true });
    for (const run of ['first', 'again'] as const) {
      const { wall, cpu } = acp(runtime, ['validate', '--folder', folder]);
      times[run].push(wall);
      times[`${run}Cpu`].push(cpu);
    }
  }
  return { first: median(times.first), again: median(times.again), firstCpu: median(times.firstCpu), againCpu: median(times.againCpu) };
}

const rows: string[] = [];
/** The load average now (1 / 5 / 15 minutes): each row says under what load it was measured. */
const load = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' / ');
const row = (what: string, runtime: string, signed: number, unsigned: number, goal: string): void => {
  const ratio = signed / unsigned;
  rows.push(`| ${what} | ${runtime} | ${signed.toFixed(1)} ms | ${unsigned.toFixed(1)} ms | ${ratio.toFixed(2)}× | ${goal} | ${load()} |`);
  console.error(rows.at(-1));
};
try {
  for (const runtime of ONLY === 'validate' ? [] : Object.keys(RUNTIMES)) {
    const cost = appendCost(runtime);
    row('append, small folder (median wall time)', runtime, cost.signed, cost.unsigned, '≤ 1.2×');
    row('append, small folder (median CPU time)', runtime, cost.signedCpu, cost.unsignedCpu, '≤ 1.2×');
  }
  const big = ONLY === 'append' ? undefined : bigFolders();
  for (const runtime of big ? Object.keys(RUNTIMES) : []) {
    const signed = validateCost(runtime, big!.signed);
    const unsigned = validateCost(runtime, big!.unsigned);
    row(`validate, ${EVENTS} events, first run (median wall time)`, runtime, signed.first, unsigned.first, '≤ 8×');
    row(`validate, ${EVENTS} events, first run (median CPU time)`, runtime, signed.firstCpu, unsigned.firstCpu, '');
    row(`validate, ${EVENTS} events, re-validate (median wall time)`, runtime, signed.again, unsigned.again, '≤ 2×');
    row(`validate, ${EVENTS} events, re-validate (median CPU time)`, runtime, signed.againCpu, unsigned.againCpu, '≤ 2×');
  }
  console.log(`Signing cost (scripts/bench-signing.ts), ${new Date().toISOString()}, ${cpus().length} cores, load ${load()}\n`);
  console.log('| What | Runtime | Signed | Unsigned | Ratio | Goal | Load (1 / 5 / 15 min) |\n| --- | --- | --- | --- | --- | --- | --- |');
  console.log(rows.join('\n'));
} finally {
  rmSync(root, { recursive: true, force: true });
}
