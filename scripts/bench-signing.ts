// The cost of signing (issues 30 and 36, docs/signing.md), measured, never
// assumed:
//   - a signed append against an unsigned one, spawned, on Node (dist/acp.mjs)
//     and the binary (dist/acp), small folder, median of APPENDS runs each;
//   - validate of a 100k-event log, signed against unsigned, first run (no
//     validation checkpoint) and re-validate (from the checkpoint).
// Each row gives the median wall time and the median CPU time (user + system
// of the spawned process, every thread of it: what verifying on every core
// costs), and the load average it was measured under.
// `npm run bench` measures these rows (scripts/bench-table.ts); alone:
// `node scripts/build.mjs && bun scripts/bench-signing.ts`
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
import { middleRun as median } from './stats.ts';

const REPO = join(import.meta.dir, '..');

/** What one measurement run uses: sizes, the builds, a scratch root and the commands' environment. */
interface Bench {
  events: number;
  appends: number;
  validates: number;
  root: string;
  env: Record<string, string | undefined>;
  runtimes: Record<string, string[]>;
}

/** A run's settings, its scratch root made (the caller removes it). */
function benchOf(sizes: { events: number; appends: number; validates: number }, dist = join(REPO, 'dist')): Bench {
  const root = mkdtempSync(join(tmpdir(), 'acp-bench-sign-'));
  const env: Record<string, string | undefined> = { ...process.env, XDG_STATE_HOME: join(root, 'state'), HOME: root };
  for (const key of Object.keys(env)) if (key.startsWith('ACP_')) delete env[key];
  return { ...sizes, root, env, runtimes: { node: [process.env.NODE ?? 'node', join(dist, 'acp.mjs')], binary: [join(dist, 'acp')] } };
}

/** Wall time of a spawned command, and its CPU time (user + system, where Bun reports it): on a loaded machine the CPU time is the steadier figure. */
function acp(b: Bench, runtime: string, args: string[]): { wall: number; cpu: number } {
  const { env } = b;
  const [cmd, ...pre] = b.runtimes[runtime]!;
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


function init(b: Bench, runtime: string, folder: string, signed: boolean): void {
  const args = ['init', '--folder', folder, '--participant', 'alice', '--participant', 'bob', '--objective', 'bench', '--completion', 'done', '--primary-deliverable-type', 'adr'];
  acp(b, runtime, signed ? [...args, '--sign'] : args);
}

/** Median ms of an append (deliverable_drafted, which drafting allows again and again), interleaving signed and unsigned runs. */
function appendCost(b: Bench, runtime: string): Costs {
  const folders = { signed: join(b.root, `${runtime}-append-signed`), unsigned: join(b.root, `${runtime}-append-unsigned`) };
  init(b, runtime, folders.signed, true);
  init(b, runtime, folders.unsigned, false);
  const times = { signed: [] as number[], unsigned: [] as number[], signedCpu: [] as number[], unsignedCpu: [] as number[] };
  for (let i = 0; i < b.appends + 1; i++) {
    for (const kind of ['unsigned', 'signed'] as const) {
      const { wall, cpu } = acp(b, runtime, ['append', '--folder', folders[kind], '--participant', 'alice', '--event', 'deliverable_drafted', '--summary', `draft ${i}`, '--doc', 'deliverables/adr.md', '--role', 'primary', '--reply-to', String(i + 1)]);
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
function bigFolders(b: Bench): { signed: string; unsigned: string } {
  const signed = join(b.root, 'big-signed');
  const unsigned = join(b.root, 'big-unsigned');
  init(b, 'node', signed, true);
  init(b, 'node', unsigned, false);
  const keyDir = join(b.root, 'state', 'acp', 'keys');
  const jwk = JSON.parse(readFileSync(join(keyDir, readdirSync(keyDir).find((name) => /^alice-[0-9a-f]{12}\.jwk$/.test(name))!), 'utf8'));
  const key = createPrivateKey({ key: jwk, format: 'jwk' });
  const protocol = JSON.parse(readFileSync(join(signed, 'protocol.json'), 'utf8'));
  const id = protocol.signing.id as string;
  const first = readFileSync(join(signed, 'events.jsonl'), 'utf8');
  const signedLines = [first];
  const plainLines = [readFileSync(join(unsigned, 'events.jsonl'), 'utf8')];
  let previous = first.slice(0, -1);
  const at = protocol.createdAt as string;
  for (let seq = 2; seq <= b.events; seq++) {
    const event = { seq, from: 'alice', event: 'deliverable_drafted', at, summary: `draft ${seq} of the decision record, with a summary of ordinary length`, doc: 'deliverables/adr.md', reply_to: seq - 1, role: 'primary' };
    plainLines.push(formatEventLine(event));
    const body = formatEventLine({ ...event, prev: createHash('sha256').update(previous).digest('hex') }).slice(0, -1);
    const sig = sign(null, Buffer.from(`acp signed event 1\n${id}\n${body}`), key).toString('base64url');
    previous = `${body.slice(0, -1)},"sig":"${sig}"}`;
    signedLines.push(`${previous}\n`);
  }
  writeFileSync(join(signed, 'events.jsonl'), signedLines.join(''));
  writeFileSync(join(unsigned, 'events.jsonl'), plainLines.join(''));
  const head = { seq: b.events, sha256: createHash('sha256').update(previous).digest('hex') };
  writeFileSync(join(signed, 'protocol.json'), formatProtocolJson({ ...protocol, signing: { ...protocol.signing, head } }));
  return { signed, unsigned };
}

/** Median wall and CPU ms of a first validate (no validation checkpoint) and a re-validate (from it). */
function validateCost(b: Bench, runtime: string, folder: string): Record<'first' | 'again' | 'firstCpu' | 'againCpu', number> {
  const times = { first: [] as number[], again: [] as number[], firstCpu: [] as number[], againCpu: [] as number[] };
  for (let i = 0; i < b.validates; i++) {
    rmSync(join(b.root, 'state', 'acp', 'validate'), { recursive: true, force: true });
    for (const run of ['first', 'again'] as const) {
      const { wall, cpu } = acp(b, runtime, ['validate', '--folder', folder]);
      times[run].push(wall);
      times[`${run}Cpu`].push(cpu);
    }
  }
  return { first: median(times.first), again: median(times.again), firstCpu: median(times.firstCpu), againCpu: median(times.againCpu) };
}

/** Signed against unsigned medians (wall and CPU, ms). */
type Costs = Record<'signed' | 'unsigned' | 'signedCpu' | 'unsignedCpu', number>;

/** One measured comparison: signed against unsigned, with the load it was measured under. */
export interface SigningFigure {
  what: 'append' | 'first validate' | 're-validate';
  runtime: string;
  signed: { wall: number; cpu: number };
  unsigned: { wall: number; cpu: number };
  load: string;
}

/** The load average now (1 / 5 / 15 minutes): each figure says under what load it was measured. */
const load = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' / ');

/**
 * The signing figures (see the header) on Node and the binary: a signed
 * append against an unsigned one, and validate of an `events`-event log,
 * first run and re-validate. scripts/bench-table.ts puts them in `npm run
 * bench`'s table; run alone, this file prints them as a Markdown table.
 */
export function benchSigning(sizes: { events: number; appends: number; validates: number }, only?: 'append' | 'validate', dist?: string): SigningFigure[] {
  const b = benchOf(sizes, dist);
  const figures: SigningFigure[] = [];
  const add = (what: SigningFigure['what'], runtime: string, signed: [number, number], unsigned: [number, number]) =>
    figures.push({ what, runtime, signed: { wall: signed[0], cpu: signed[1] }, unsigned: { wall: unsigned[0], cpu: unsigned[1] }, load: load() });
  try {
    for (const runtime of only === 'validate' ? [] : Object.keys(b.runtimes)) {
      const cost = appendCost(b, runtime);
      add('append', runtime, [cost.signed, cost.signedCpu], [cost.unsigned, cost.unsignedCpu]);
    }
    const big = only === 'append' ? undefined : bigFolders(b);
    for (const runtime of big ? Object.keys(b.runtimes) : []) {
      const signed = validateCost(b, runtime, big!.signed);
      const unsigned = validateCost(b, runtime, big!.unsigned);
      add('first validate', runtime, [signed.first, signed.firstCpu], [unsigned.first, unsigned.firstCpu]);
      add('re-validate', runtime, [signed.again, signed.againCpu], [unsigned.again, unsigned.againCpu]);
    }
    return figures;
  } finally {
    rmSync(b.root, { recursive: true, force: true });
  }
}

/** The goal of each figure (issues 30 and 36). */
export const SIGNING_GOALS: Record<SigningFigure['what'], number> = { append: 1.2, 'first validate': 8, 're-validate': 2 };

if (import.meta.main) {
  const events = Number(process.env.SIGNING_BENCH_EVENTS ?? 100_000);
  const only = process.env.SIGNING_BENCH_ONLY as 'append' | 'validate' | undefined;
  const figures = benchSigning({ events, appends: Number(process.env.SIGNING_BENCH_APPENDS ?? 21), validates: Number(process.env.SIGNING_BENCH_VALIDATES ?? 3) }, only, process.env.SIGNING_BENCH_DIST);
  const rows = figures.flatMap((f) =>
    (['wall', 'cpu'] as const).map((kind) => {
      const what = f.what === 'append' ? 'append, small folder' : `validate, ${events} events, ${f.what === 'first validate' ? 'first run' : 're-validate'}`;
      return `| ${what} (median ${kind === 'wall' ? 'wall' : 'CPU'} time) | ${f.runtime} | ${f.signed[kind].toFixed(1)} ms | ${f.unsigned[kind].toFixed(1)} ms | ${(f.signed[kind] / f.unsigned[kind]).toFixed(2)}× | ≤ ${SIGNING_GOALS[f.what]}× | ${f.load} |`;
    }),
  );
  console.log(`Signing cost (scripts/bench-signing.ts), ${new Date().toISOString()}, ${cpus().length} cores, load ${load()}\n`);
  console.log('| What | Runtime | Signed | Unsigned | Ratio | Goal | Load (1 / 5 / 15 min) |\n| --- | --- | --- | --- | --- | --- | --- |');
  console.log(rows.join('\n'));
}
