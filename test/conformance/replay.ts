// Conformance replay harness: replays the recorded ACP scenarios
// (test/conformance/scenarios.jsonl.gz and scenarios-edges.jsonl.gz, see
// /shared/conformance/README.md) against a CLI given as a command prefix, or
// in-process, and reports every mismatch.
//
// Runs under vitest (Node) and under bun (scripts/replay.mjs ->
// test/conformance/replay-cli.ts). Uses only node: built-ins.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { nodeBinary } from '../node-versions.ts';
import type { Host } from '../../runtime/host.ts';

export const HERE = dirname(fileURLToPath(import.meta.url));
export const REPO_DIR = resolve(HERE, '..', '..');
/** The 160 recorded scenarios (seeds 1000–1159). */
export const SCENARIOS_FILE = join(HERE, 'scenarios.jsonl.gz');
/** The 80 edge-case scenarios (issue 12; seeds 1200–1279: path spellings, odd participant ids, role spellings, a missing log, a BOM, attachments). */
export const EDGES_FILE = join(HERE, 'scenarios-edges.jsonl.gz');
/** Every recorded set; the default of `loadScenarios`. */
export const SCENARIO_FILES: readonly string[] = [SCENARIOS_FILE, EDGES_FILE];

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface WriteStep {
  write: Record<string, string | null>;
}
export interface CmdStep {
  cmd: 'init' | 'append' | 'next' | 'validate' | string;
  args: string[];
  step: string;
  rc: number;
  error: string;
  verdict?: string[];
  stdout?: string;
  state?: { protocol: Json; events: Json[] | null };
}
export type Step = WriteStep | CmdStep;
export interface Scenario {
  seed: number;
  steps: Step[];
}

/** A CLI under test: argv prefix before `<subcommand> <args...>`. */
export interface Runtime {
  name: string;
  /** Fixed prefix, or a function of the scenario's ROOT (e.g. deno permission flags). */
  prefix: string[] | ((root: string) => string[]);
  env?: Record<string, string>;
  /** Run in-process instead of spawning (fast iteration); gets `<subcommand> <args...>`. */
  exec?: (argv: string[], cwd: string) => Promise<RunResult>;
}

export type Field = 'rc' | 'error' | 'verdict' | 'stdout' | 'state.protocol' | 'state.events' | 'spawn';

export interface Mismatch {
  seed: number;
  stepIndex: number;
  step: string;
  field: Field;
  expected: unknown;
  actual: unknown;
}

export interface ScenarioResult {
  seed: number;
  /** cmd steps replayed (the README's "checks"). */
  checks: number;
  /** cmd steps whose every recorded field matched. */
  passedChecks: number;
  mismatches: Mismatch[];
  ms: number;
  /** Temp dir kept for inspection (only on failure with ACP_KEEP set). */
  keptRoot?: string;
}

export interface ReplayOptions {
  /** Per-command timeout in ms (default 60 s). */
  timeoutMs?: number;
  /** Keep ROOT on failure (default: env ACP_KEEP set). */
  keep?: boolean;
  /** The directory ROOT is made in (default: the system's temporary directory). */
  tmpRoot?: string;
}

export function isCmd(step: Step): step is CmdStep {
  return 'cmd' in step;
}

/** Loads the scenarios of one recorded file, or of several in order (default: every recorded set). */
export function loadScenarios(files: string | readonly string[] = SCENARIO_FILES): Scenario[] {
  return (typeof files === 'string' ? [files] : files).flatMap((file) =>
    gunzipSync(readFileSync(file))
      .toString('utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Scenario),
  );
}

// ---------------------------------------------------------------- running

export interface RunResult {
  rc: number;
  stdout: string;
  stderr: string;
  spawnError?: string;
}

export function runCommand(
  argv: string[],
  cwd: string,
  env: Record<string, string | undefined>,
  timeoutMs: number,
): Promise<RunResult> {
  return new Promise((done) => {
    const [cmd, ...args] = argv;
    const child = spawn(cmd!, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) => {
      clearTimeout(timer);
      done({ rc: -1, stdout: '', stderr: '', spawnError: `spawn failed: ${e.message}` });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const r: RunResult = {
        rc: code ?? -1,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      };
      if (timedOut) r.spawnError = `timed out after ${timeoutMs} ms`;
      else if (signal) r.spawnError = `killed by ${signal}`;
      done(r);
    });
  });
}

// ---------------------------------------------------------- normalisation

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Builds the README's normaliser: ROOT (every spelling) -> <ROOT>, parser detail -> <detail>. */
/**
 * Spawn a long-running command; `started` resolves once its stdout contains
 * `marker` (for `wait`: its first `waiting: …` line, printed after it
 * subscribed to notifications and read the folder).
 */
export function spawnUntil(env: Record<string, string | undefined>, argv: string[], cwd: string, marker: string): { started: Promise<void>; done: Promise<RunResult> } {
  const child = spawn(argv[0]!, argv.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let markSeen: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (markSeen = resolve));
  child.stdout.on('data', (b: Buffer) => {
    stdout += b.toString('utf8');
    if (stdout.includes(marker)) markSeen();
  });
  child.stderr.on('data', (b: Buffer) => void (stderr += b.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const done = new Promise<RunResult>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      markSeen();
      resolve({ rc: code ?? -1, stdout, stderr });
    }),
  );
  return { started, done };
}

export function makeNormaliser(roots: string[]): (text: string) => string {
  const uniq = [...new Set(roots.filter(Boolean))].sort((a, b) => b.length - a.length);
  const rootRe = uniq.length ? new RegExp(uniq.map(escapeRe).join('|'), 'g') : null;
  return (text) => {
    let t = rootRe ? text.replace(rootRe, '<ROOT>') : text;
    // like Python's re.sub(r'(invalid JSON: |invalid protocol.json: ).*', ...): to end of line
    t = t.replace(/(invalid JSON: |invalid protocol\.json: )[^\n]*/g, '$1<detail>');
    return t;
  };
}

/**
 * `error`: "" for rc 0; else the text after the last `error: ` in stderr
 * (stdout when stderr is empty), trimmed. The recordings show that when the
 * text has no `error: ` at all (validate prints `ERROR: ...` lines to
 * stdout) the recorded value is the last non-blank line of that output.
 */
export function extractError(rc: number, stdout: string, stderr: string): string {
  if (rc === 0) return '';
  const src = stderr.trim() !== '' ? stderr : stdout;
  const i = src.lastIndexOf('error: ');
  if (i >= 0) return src.slice(i + 'error: '.length).trim();
  const lines = src.split('\n').filter((l) => l.trim() !== '');
  return (lines[lines.length - 1] ?? '').trim();
}

/** Python-style string order (by code point, not UTF-16 unit). */
export function cmpCodePoints(a: string, b: string): number {
  const A = [...a];
  const B = [...b];
  for (let i = 0; i < Math.min(A.length, B.length); i++) {
    const x = A[i]!.codePointAt(0)!;
    const y = B[i]!.codePointAt(0)!;
    if (x !== y) return x - y;
  }
  return A.length - B.length;
}

export function extractVerdict(stdout: string, norm: (s: string) => string): string[] {
  return stdout
    .split('\n')
    .map((l) => l.replace(/\r$/, ''))
    .filter((l) => l.startsWith('ERROR: ') || l.startsWith('WARNING: '))
    .map(norm)
    .sort(cmpCodePoints);
}

function parseJson(text: string): { ok: true; value: Json } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as Json };
  } catch {
    return { ok: false };
  }
}

function isObject(v: unknown): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `state` of an init/append step, as the recorder captured it. */
export async function readState(folder: string): Promise<{ protocol: Json; events: Json[] | null }> {
  let protocol: Json;
  try {
    // Synchronous: a few small files, read after every step of 240 scenarios; the thread pool's round trips cost more than the reads.
    const raw = readFileSync(join(folder, 'protocol.json'), 'utf8');
    const p = parseJson(raw);
    if (!p.ok) protocol = 'unreadable: JSONDecodeError';
    else if (isObject(p.value)) {
      const { createdAt: _c, updatedAt: _u, ...rest } = p.value;
      protocol = rest;
    } else protocol = p.value;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    protocol = code === 'ENOENT' ? 'unreadable: FileNotFoundError' : `unreadable: ${code ?? String(e)}`;
  }
  let events: Json[] | null;
  try {
    const raw = readFileSync(join(folder, 'events.jsonl'), 'utf8');
    events = raw
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => {
        const p = parseJson(l);
        if (!p.ok) return '<bad line>';
        if (isObject(p.value)) {
          const { at: _at, ...rest } = p.value;
          return rest;
        }
        return p.value;
      });
  } catch {
    events = null;
  }
  return { protocol, events };
}

/** Deep equality for JSON values; object key order ignored. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** The folder a step works on: its --folder argument (already ROOT-substituted). */
function folderOf(args: string[], root: string): string {
  const i = args.indexOf('--folder');
  const f = i >= 0 ? args[i + 1] : undefined;
  if (f) return isAbsolute(f) ? f : join(root, f);
  const ext = join(root, 'repo', '.acp', 'run');
  return existsSync(ext) ? ext : join(root, 'collab');
}

// ----------------------------------------------------------------- replay

export async function replayScenario(
  scenario: Scenario,
  runtime: Runtime,
  opts: ReplayOptions = {},
): Promise<ScenarioResult> {
  const t0 = Date.now();
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const keep = opts.keep ?? !!process.env.ACP_KEEP;
  const made = await mkdtemp(join(opts.tmpRoot ?? tmpdir(), `acp-replay-${scenario.seed}-`));
  const real = await realpath(made);
  const root = made;
  await mkdir(join(root, 'repo'));
  const norm = makeNormaliser([made, real]);
  const env: Record<string, string | undefined> = {
    ...process.env,
    NO_COLOR: '1',
    FORCE_COLOR: undefined,
    ...runtime.env,
  };
  delete env.FORCE_COLOR;
  // The CLI never uses TLS; an extra CA bundle (set on some machines) costs
  // every Node start ~60 ms of parsing, thousands of times per replay.
  delete env.NODE_EXTRA_CA_CERTS;
  const prefix = typeof runtime.prefix === 'function' ? runtime.prefix(root) : runtime.prefix;

  const mismatches: Mismatch[] = [];
  let checks = 0;
  let passedChecks = 0;
  try {
    for (const [stepIndex, step] of scenario.steps.entries()) {
      if (!isCmd(step)) {
        for (const [rel, text] of Object.entries(step.write)) {
          const p = join(root, rel);
          if (text === null) rmSync(p, { force: true, recursive: true });
          else {
            mkdirSync(dirname(p), { recursive: true });
            writeFileSync(p, text, 'utf8');
          }
        }
        continue;
      }
      checks++;
      const args = step.args.map((a) => a.split('<ROOT>').join(root));
      // ACP_REPLAY_SEED/STEP: for debugging (and the harness's own oracle test); the in-process CLI has no environment of its own.
      const r = runtime.exec
        ? await runtime.exec([step.cmd, ...args], root)
        : await runCommand([...prefix, step.cmd, ...args], root, { ...env, ACP_REPLAY_SEED: String(scenario.seed), ACP_REPLAY_STEP: String(stepIndex) }, timeoutMs);
      const before = mismatches.length;
      const miss = (field: Field, expected: unknown, actual: unknown) =>
        mismatches.push({ seed: scenario.seed, stepIndex, step: step.step, field, expected, actual });
      if (r.spawnError) miss('spawn', 'command finishes', `${r.spawnError}; stderr: ${r.stderr.slice(0, 300)}`);
      if (r.rc !== step.rc) miss('rc', step.rc, r.rc);
      const error = norm(extractError(r.rc, r.stdout, r.stderr));
      if (error !== step.error) miss('error', step.error, error);
      if (step.verdict !== undefined) {
        const verdict = extractVerdict(r.stdout, norm);
        if (!jsonEqual(verdict, step.verdict)) miss('verdict', step.verdict, verdict);
      }
      if (step.stdout !== undefined) {
        const out = norm(r.stdout.trim());
        if (out !== step.stdout) miss('stdout', step.stdout, out);
      }
      if (step.state !== undefined) {
        const st = await readState(folderOf(args, root));
        if (!jsonEqual(st.protocol, step.state.protocol)) miss('state.protocol', step.state.protocol, st.protocol);
        if (!jsonEqual(st.events, step.state.events)) miss('state.events', step.state.events, st.events);
      }
      if (mismatches.length === before) passedChecks++;
    }
  } finally {
    if (mismatches.length > 0 && keep) {
      // keep for inspection
    } else {
      await rm(root, { recursive: true, force: true });
    }
  }
  const result: ScenarioResult = { seed: scenario.seed, checks, passedChecks, mismatches, ms: Date.now() - t0 };
  if (mismatches.length > 0 && keep) result.keptRoot = root;
  return result;
}

/** Runs `fn` over `items` with at most `limit` in flight; results keep input order. */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

export function defaultConcurrency(): number {
  const fromEnv = Number(process.env.ACP_JOBS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return Math.max(2, availableParallelism());
}

export async function replayAll(
  scenarios: Scenario[],
  runtime: Runtime,
  opts: ReplayOptions & { concurrency?: number; onResult?: (r: ScenarioResult) => void } = {},
): Promise<ScenarioResult[]> {
  return mapLimit(scenarios, opts.concurrency ?? defaultConcurrency(), async (s) => {
    const r = await replayScenario(s, runtime, opts);
    opts.onResult?.(r);
    return r;
  });
}

// ------------------------------------------------------------- runtimes

export const LOCAL_BIN = join(REPO_DIR, 'node_modules', '.bin');

export interface RuntimeSpec {
  runtime: Runtime;
  /** Files that must exist for this runtime to run; a missing one skips it. */
  needs: string[];
}

/** node | node<major> | bun | deno | binary | inproc | inproc-dist, as used by the test suite and scripts/replay.mjs. */
export function runtimeSpec(name: string, dir: string = REPO_DIR): RuntimeSpec {
  const acpTs = join(dir, 'acp.ts');
  switch (name) {
    case 'node': {
      const mjs = join(dir, 'dist', 'acp.mjs');
      // Under bun (replay-cli.ts) process.execPath is bun: use node from PATH.
      const node = process.versions.bun ? 'node' : process.execPath;
      return { runtime: { name, prefix: [node, mjs] }, needs: [mjs] };
    }
    case 'bun': {
      const bun = join(LOCAL_BIN, 'bun');
      return { runtime: { name, prefix: [bun, acpTs] }, needs: [bun, acpTs] };
    }
    case 'deno': {
      const deno = join(LOCAL_BIN, 'deno');
      return {
        runtime: {
          name,
          // Least privilege: read and write the scenario ROOT, nothing else
          // (no env, sys, net or run); --no-prompt turns any other access
          // into an error. Loading the program itself (acp.ts, its static
          // and literal dynamic imports, cac from the node_modules next to
          // acp.ts) is module loading, which --allow-read does not gate.
          // --no-config: without read access above ROOT, acp refuses to guess whether a config is there.
          prefix: (root) => [deno, 'run', '--no-prompt', '--quiet', `--allow-read=${root}`, `--allow-write=${root}`, acpTs, '--no-config'],
          env: { DENO_NO_UPDATE_CHECK: '1' },
        },
        needs: [deno, acpTs],
      };
    }
    case 'inproc':
    case 'inproc-dist': {
      // The CLI called in this process (no spawn): inproc loads acp.ts (as
      // Bun and Deno users run it), inproc-dist the bundle dist/lib.mjs (as
      // Node users run it; Node 20 cannot load acp.ts).
      const module = name === 'inproc' ? acpTs : join(dir, 'dist', 'lib.mjs');
      // One host for the whole replay, synchronous as the CLI's own (runtime/process.ts): what a process running acp uses.
      let host: Promise<Host> | undefined;
      const exec = async (argv: string[]): Promise<RunResult> => {
        const { runCli, createNodeHost } = (await import(pathToFileURL(module).href)) as typeof import('../../acp.ts');
        let stdout = '';
        let stderr = '';
        host ??= createNodeHost({ syncFs: true });
        const rc = await runCli({ argv, stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), color: false }, await host);
        return { rc, stdout, stderr };
      };
      return { runtime: { name, prefix: [], exec }, needs: [module] };
    }
    case 'binary': {
      const bin = join(dir, 'dist', 'acp');
      return { runtime: { name, prefix: [bin] }, needs: [bin] };
    }
    default: {
      // node22, node24…: a pinned Node version (test/node-versions.ts) running the bin.
      const major = /^node(\d+)$/.exec(name)?.[1];
      if (major === undefined) throw new Error(`unknown runtime '${name}' (expected node, node<major>, bun, deno, binary, inproc or inproc-dist)`);
      const mjs = join(dir, 'dist', 'acp.mjs');
      const node = nodeBinary(Number(major));
      return { runtime: { name, prefix: [node, mjs] }, needs: [node, mjs] };
    }
  }
}

// ------------------------------------------------------------- reporting

export function clip(value: unknown, max = 400): string {
  const s = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value);
  return s.length > max ? `${s.slice(0, max)}…(${s.length} chars)` : s;
}

/** For long values (state), show where expected and actual first differ. */
export function firstDifference(expected: unknown, actual: unknown, path = ''): string | null {
  if (jsonEqual(expected, actual)) return null;
  if (Array.isArray(expected) && Array.isArray(actual)) {
    for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
      if (i >= expected.length) return `${path}[${i}] unexpected ${clip(actual[i], 200)}`;
      if (i >= actual.length) return `${path}[${i}] missing ${clip(expected[i], 200)}`;
      const d = firstDifference(expected[i], actual[i], `${path}[${i}]`);
      if (d) return d;
    }
  }
  if (isObject(expected) && isObject(actual)) {
    for (const k of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
      if (!Object.hasOwn(actual, k)) return `${path}.${k} missing (expected ${clip(expected[k], 200)})`;
      if (!Object.hasOwn(expected, k)) return `${path}.${k} unexpected ${clip(actual[k], 200)}`;
      const d = firstDifference(expected[k], actual[k], `${path}.${k}`);
      if (d) return d;
    }
  }
  return `${path || '(value)'}: expected ${clip(expected, 200)}, got ${clip(actual, 200)}`;
}

/** All mismatches of one step, as one block: header line then field lines. */
export function formatStepMismatches(ms: Mismatch[], max = 400): string {
  const m0 = ms[0]!;
  const lines = [`seed ${m0.seed} step #${m0.stepIndex}: ${m0.step}`];
  for (const m of ms) {
    lines.push(`  ${m.field}: expected ${clip(m.expected, max)}`);
    lines.push(`  ${' '.repeat(m.field.length)}  actual   ${clip(m.actual, max)}`);
    if (m.field.startsWith('state.') || m.field === 'verdict') {
      const d = firstDifference(m.expected, m.actual);
      if (d && !d.startsWith('(value)')) lines.push(`  ${' '.repeat(m.field.length)}  first difference ${d}`);
    }
  }
  return lines.join('\n');
}

/** Groups mismatches by (seed, step), keeping order. */
export function groupBySteps(ms: Mismatch[]): Mismatch[][] {
  const groups: Mismatch[][] = [];
  for (const m of ms) {
    const last = groups[groups.length - 1];
    if (last && last[0]!.seed === m.seed && last[0]!.stepIndex === m.stepIndex) last.push(m);
    else groups.push([m]);
  }
  return groups;
}

export function formatMismatch(m: Mismatch, max = 400): string {
  const lines = [`seed ${m.seed} step #${m.stepIndex} [${m.field}]  ${m.step}`];
  lines.push(`  expected: ${clip(m.expected, max)}`);
  lines.push(`  actual:   ${clip(m.actual, max)}`);
  if (m.field.startsWith('state.') || m.field === 'verdict') {
    const d = firstDifference(m.expected, m.actual);
    if (d) lines.push(`  first difference: ${d}`);
  }
  return lines.join('\n');
}

/** A failed scenario for a test failure: the counts, the first five mismatches, and where ROOT was kept. */
export function formatResult(r: ScenarioResult): string {
  const head = `seed ${r.seed}: ${r.checks - r.passedChecks} of ${r.checks} checks failed (${r.mismatches.length} mismatches)`;
  const body = r.mismatches.slice(0, 5).map((m) => formatMismatch(m, 600));
  const more = r.mismatches.length > 5 ? [`… ${r.mismatches.length - 5} more`] : [];
  const kept = r.keptRoot ? [`kept ROOT: ${r.keptRoot}`] : [];
  return [head, ...body, ...more, ...kept].join('\n\n');
}
