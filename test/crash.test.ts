// Crashes (issue 5, part 2): appenders are killed with SIGKILL at random
// moments. After every kill: the log's complete lines are intact with
// continuous seqs; a torn last line is reported by append (refused, the file
// untouched), validate and doctor, never accepted nor dropped, until
// `doctor --fix` cuts it after keeping a full copy; protocol.json is exactly
// the old or the new version; a lock left by the dead process is judged
// abandoned at once and the next writer recovers it.
//
// No test hook in the runtime: the test watches the folder from outside and
// aims its kills. Trials rotate three ways to kill: at a random moment; as
// soon as events.jsonl starts growing (lines of 2–12 MB of multi-byte text
// take long enough to write that the kill often cuts a line, sometimes
// inside a character); as soon as protocol.json's temporary file appears
// (between its write and the rename). Each trial starts from a fresh copy of
// the same folder. Quick (`npm test`): 6 trials, each outcome seen at least
// once; full (ACP_FULL=1, `npm run test:all`): 21 trials and the minimums
// below; long (ACP_LONG=1): 201 trials (test/scale.ts).
//
// The checks on a torn line or a dead writer's lock run only when a kill
// produced one, so the test also requires a minimum of each outcome (as
// fastpath.test.ts does): when the trials fall short (a loaded machine
// shifts where kills land) more trials run, up to MAX_TRIALS, and the test
// fails if the minimums are still not met.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { type ChildProcess, spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { createNodeHost, formatProtocolJson, inspectFolderLock, participantIds, readReadiness, replay, withFolderLock } from '../acp.ts';
import { DIST_URL, LONG, cli } from './reliability/fixture.ts';
import { byScale } from './scale.ts';
import { tmpdirInScratch } from './scratch.ts';

// Its temporary folders in memory where there is room (test/scratch.ts): the appends' fsyncs are disk work otherwise.
tmpdirInScratch();

const TRIALS = byScale({ quick: 6, full: 21, long: 201 });
/**
 * Trials run past TRIALS only while an outcome is still below its minimum:
 * up to four times TRIALS, and never fewer than 84 (four times full's 21),
 * since a loaded machine shifts where kills land and a short run can miss
 * an outcome (a line cut inside a character) in two dozen trials.
 */
const MAX_TRIALS = Math.max(TRIALS * 4, 84);
/**
 * Outcomes the checks need to have seen, at least, to mean something: in
 * quick, every branch of the checks once; in full and long, several times.
 */
const MINIMUM = byScale({
  quick: { torn: 1, tornCutCharacter: 1, untorn: 1, staleLocks: 1, oldProtocol: 1, newProtocol: 1 },
  full: { torn: 3, tornCutCharacter: 1, untorn: 3, staleLocks: 3, oldProtocol: 2, newProtocol: 2 },
});

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/**
 * The appender: owner `a` appends decision_proposed / question_classified
 * forever (both are valid from decision_review in any order, and each flips
 * waitingFor between [a] and [a, b], so "old" and "new" protocol.json
 * differ). It prints `ready` once loaded, then `seq N` per append.
 */
function writeAppender(dir: string): string {
  const path = join(dir, 'appender.mjs');
  writeFileSync(
    path,
    `const [dist, folder, seed, firstBig] = process.argv.slice(2);
const { runCli } = await import(dist);
let state = Number(seed) || 1;
const random = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
process.stdout.write('ready\\n');
// Loaded ahead of its trial; starts on "go".
await new Promise((resolve) => process.stdin.once('data', resolve));
for (let i = 0; ; i++) {
  const event = random() < 0.5 ? 'decision_proposed' : 'question_classified';
  // Big lines take long enough to write that a kill can land inside the
  // write: 2–12 MB of multi-byte text first when the kill aims at the
  // write, else one line in ten of 0.5–2 MB.
  const aimed = i === 0 && firstBig === '1';
  const pairs = aimed ? 400_000 + random() * 2_000_000 : random() < 0.1 ? 100_000 + random() * 300_000 : 0;
  const summary = pairs ? 'é漢'.repeat(Math.floor(pairs)) + ' end' : 'step ' + i;
  let out = '';
  let err = '';
  const argv = ['append', '--folder', folder, '--participant', 'a', '--event', event, '--summary', summary, '--reply-to', '1', '--json'];
  const rc = await runCli({ argv, stdout: (t) => (out += t), stderr: (t) => (err += t), color: false });
  process.stdout.write(rc === 0 ? 'seq ' + JSON.parse(out).event.seq + '\\n' : 'refused ' + rc + ' ' + err.split('\\n')[0].slice(0, 300) + '\\n');
  if (rc !== 0) await new Promise((r) => setTimeout(r, 20));
}
`,
  );
  return path;
}

/** A folder in decision_review, whose owner can append for ever. */
async function makeCrashFolder(root: string): Promise<string> {
  const folder = join(root, 'collab');
  const run = async (argv: string[]): Promise<void> => {
    const r = await cli(argv);
    if (r.rc !== 0) throw new Error(`${argv.join(' ')}: ${r.stderr}`);
  };
  await run(['init', '--folder', folder, '--participant', 'a', '--participant', 'b', '--objective', 'Survive kill -9', '--completion', 'Nothing lost', '--primary-deliverable-type', 'adr']);
  const protocolPath = join(folder, 'protocol.json');
  const protocol = JSON.parse(readFileSync(protocolPath, 'utf8'));
  protocol.padding = "x".repeat(256 * 1024);
  writeFileSync(protocolPath, formatProtocolJson(protocol));
  const append = (participant: string, event: string, ...extra: string[]): Promise<void> =>
    run(['append', '--folder', folder, '--participant', participant, '--event', event, '--summary', event, ...extra]);
  await append('a', 'deliverable_drafted', '--reply-to', '1', '--role', 'primary', '--doc', 'deliverables/adr.md');
  await append('a', 'proposal_submitted', '--reply-to', '2');
  writeFileSync(join(folder, 'review.md'), `${readFileSync(join(folder, 'review.md'), 'utf8')}\n## 2026-01-01T00:00:00Z - b - seq 4\n\nLooks right.\n`);
  await append('b', 'review_submitted', '--reply-to', '3');
  await append('a', 'decision_proposed', '--reply-to', '4');
  return folder;
}

/** protocol.json as an append that ended with `events` would have written it. */
function expectedProtocol(protocol: Record<string, unknown>, events: Record<string, unknown>[], readiness: string): string {
  const state = replay(events, participantIds(protocol), readReadiness(readiness));
  return formatProtocolJson({ ...protocol, currentPhase: state.phase, proposalOwner: state.proposalOwner, waitingFor: state.waitingFor, updatedAt: events.at(-1)!.at });
}

interface Outcome {
  torn: number;
  /** Trials whose log ended on a complete line (the next writer appended normally). */
  untorn: number;
  tornCutCharacter: number;
  oldProtocol: number;
  newProtocol: number;
  staleLocks: number;
  staleTemps: number;
  recoveryMs: number[];
  /** Taking a free lock, for comparison. */
  baselineMs: number[];
  appendsBeforeKill: number;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** When to kill: at a random moment, when the log starts growing, or when protocol.json's temporary file appears. */
type Aim = 'random' | 'log-grows' | 'temp-appears';
const AIMS: Aim[] = ['random', 'log-grows', 'temp-appears'];

/** Busy-watch the folder (blocking this process; the appender runs on) until `seen()` or `ms` passed. */
function watchUntil(seen: () => boolean, ms: number): boolean {
  const deadline = performance.now() + ms;
  while (performance.now() < deadline) if (seen()) return true;
  return false;
}

interface Appender {
  child: ChildProcess;
  output(): string;
  exited: Promise<void>;
}

/** Spawn an appender for `folder` and wait until it is loaded (it starts on "go"). */
async function prepareAppender(appender: string, folder: string, seed: number, aim: Aim): Promise<Appender> {
  const child = spawn(process.execPath, [appender, DIST_URL, folder, String(seed), aim === 'log-grows' ? '1' : '0'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (t: string) => void (stderr += t));
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (t: string) => {
      out += t;
      if (out.startsWith('ready\n')) resolve();
    });
    child.on('close', () => reject(new Error(`appender exited early: ${stderr}`)));
  });
  return { child, output: () => out, exited };
}

/** Let a loaded appender go, aim, then SIGKILL it. */
async function killAppender(a: Appender, folder: string, aim: Aim, delayMs: number): Promise<{ pid: number; lines: string[]; hit: boolean }> {
  const log = join(folder, 'events.jsonl');
  const size = statSync(log).size;
  a.child.stdin!.write('go\n');
  let hit = true;
  if (aim === 'random') await sleep(delayMs);
  else if (aim === 'log-grows') hit = watchUntil(() => statSync(log).size !== size, 5000);
  else hit = watchUntil(() => readdirSync(folder).some((name) => name.endsWith('.tmp')), 5000);
  a.child.kill('SIGKILL');
  await a.exited;
  return { pid: a.child.pid!, lines: a.output().split('\n').filter(Boolean).slice(1), hit };
}

test(`${TRIALS}+ appenders killed with SIGKILL at random and aimed moments`, async () => {
  const root = mkdtempSync(join(tmpdir(), 'acp-crash-'));
  roots.push(root);
  const base = await makeCrashFolder(root);
  const appender = writeAppender(root);
  const host = await createNodeHost();
  const readiness = readFileSync(join(base, 'readiness.md'), 'utf8');
  const outcome: Outcome = { torn: 0, untorn: 0, tornCutCharacter: 0, oldProtocol: 0, newProtocol: 0, staleLocks: 0, staleTemps: 0, recoveryMs: [], baselineMs: [], appendsBeforeKill: 0 };
  const misses: Record<Aim, number> = { random: 0, 'log-grows': 0, 'temp-appears': 0 };
  let seed = 7;
  const random = (): number => ((seed = (seed * 16807) % 2147483647) / 2147483647);

  const folderOf = (trial: number): string => join(root, `trial-${trial}`);
  // The next trial's appender loads (node start-up) while this trial is checked.
  let ready: Promise<Appender> | undefined = prepareAppender(appender, folderOf(0), 1, AIMS[0]!);
  const short = (): string[] => Object.entries(MINIMUM).filter(([key, min]) => outcome[key as keyof typeof MINIMUM] < min).map(([key]) => key);
  let trial = 0;
  for (; trial < TRIALS || (short().length > 0 && trial < MAX_TRIALS); trial++) {
    const folder = folderOf(trial);
    cpSync(base, folder, { recursive: true });
    const eventsPath = join(folder, 'events.jsonl');
    const protocolPath = join(folder, 'protocol.json');
    const aim = AIMS[trial % AIMS.length]!;
    const current = await ready!;
    const { pid, lines, hit } = await killAppender(current, folder, aim, Math.floor(random() * 150));
    ready = trial + 1 < MAX_TRIALS ? prepareAppender(appender, folderOf(trial + 1), trial + 2, AIMS[(trial + 1) % AIMS.length]!) : undefined;
    if (!hit) misses[aim]++;
    outcome.appendsBeforeKill += lines.filter((l) => l.startsWith('seq ')).length;
    // Nothing the appender did was refused (a refusal would mean a bad state).
    expect(lines.filter((l) => l.startsWith('refused')), `trial ${trial}`).toEqual([]);

    // 1. The complete lines are intact, seqs continuous.
    const bytes = readFileSync(eventsPath);
    const end = bytes.lastIndexOf(0x0a) + 1;
    const complete = bytes.subarray(0, end).toString('utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
    expect(complete.map((e) => e.seq), `trial ${trial}`).toEqual(complete.map((_, i) => i + 1));
    for (const l of lines) if (l.startsWith('seq ')) expect(complete[Number(l.slice(4)) - 1]?.seq).toBe(Number(l.slice(4)));

    // 2. protocol.json is exactly the old or the new version.
    const protocolText = readFileSync(protocolPath, 'utf8');
    const protocol = JSON.parse(protocolText);
    const newer = expectedProtocol(protocol, complete, readiness);
    const older = expectedProtocol(protocol, complete.slice(0, -1), readiness);
    expect([newer, older], `trial ${trial}: protocol.json is neither old nor new`).toContain(protocolText);
    if (protocolText === newer) outcome.newProtocol++;
    else outcome.oldProtocol++;

    // 3. A lock left by the dead process is judged abandoned at once.
    const lock = await inspectFolderLock(host, folder);
    if (lock.status !== 'free') {
      outcome.staleLocks++;
      expect(lock.pid, `trial ${trial}`).toBe(pid);
      expect(lock.status, `trial ${trial}: lock of a dead pid not judged abandoned`).toBe('abandoned');
    }
    // How long taking the lock takes with the dead holder's lock in place
    // (then put back for the next writer) and, for comparison, when free.
    const lockPath = join(folder, '.acp.lock');
    const started = performance.now();
    await withFolderLock(host, folder, async () => undefined);
    (lock.status !== 'free' ? outcome.recoveryMs : outcome.baselineMs).push(performance.now() - started);
    if (lock.status !== 'free') writeFileSync(lockPath, lock.raw!);
    const temps = readdirSync(folder).filter((name) => name.endsWith('.tmp'));
    outcome.staleTemps += temps.length;

    // 4. A torn last line is reported, never accepted nor dropped.
    const torn = bytes.length > end;
    if (torn) {
      outcome.torn++;
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(end));
      } catch {
        outcome.tornCutCharacter++;
      }
      const refused = await cli(['append', '--folder', folder, '--participant', 'a', '--event', 'decision_proposed', '--summary', 'after the crash', '--reply-to', '1']);
      expect(refused.rc, `trial ${trial}`).toBe(2);
      expect(refused.stderr).toMatch(/^error: events\.jsonl .*the last line is incomplete: a writer was interrupted; `acp doctor --fix` repairs it/);
      expect(readFileSync(eventsPath).equals(bytes), `trial ${trial}: a refused append changed the log`).toBe(true);
      // It took the dead holder's lock to look, and released it.
      expect(existsSync(join(folder, '.acp.lock'))).toBe(false);
      const validation = await cli(['validate', '--folder', folder]);
      expect(validation.rc).toBe(2);
      expect(validation.stdout).toContain('the last line is incomplete');
      const diagnosis = await cli(['doctor', '--folder', folder]);
      expect(diagnosis.rc).toBe(1);
      expect(diagnosis.stdout).toMatch(/PROBLEM: events\.jsonl: the last line is incomplete/);

    } else {
      outcome.untorn++;
      // 4b. The next writer appends normally: it takes over a dead holder's
      // lock, and derives the state from the log, so protocol.json is right
      // again even when the kill left the old version.
      const next = await cli(['append', '--folder', folder, '--participant', 'a', '--event', 'decision_proposed', '--summary', 'recovered', '--reply-to', '1']);
      expect(next.rc, next.stderr).toBe(0);
      expect(existsSync(join(folder, '.acp.lock'))).toBe(false);
      const now = readFileSync(eventsPath, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
      expect(readFileSync(protocolPath, 'utf8'), `trial ${trial}`).toBe(expectedProtocol(protocol, now, readiness));
    }

    // 5. doctor --fix repairs whatever the kill left; then everything is healthy.
    const before = readdirSync(folder);
    const fixed = await cli(['doctor', '--folder', folder, '--fix']);
    expect(fixed.rc, `trial ${trial}: ${fixed.stdout}${fixed.stderr}`).toBe(0);
    if (torn) {
      const backups = readdirSync(folder).filter((name) => name.startsWith('events.jsonl.torn-') && !before.includes(name));
      expect(backups).toHaveLength(1);
      expect(readFileSync(join(folder, backups[0]!)).equals(bytes)).toBe(true);
      expect(readFileSync(eventsPath).equals(bytes.subarray(0, end))).toBe(true);
      rmSync(join(folder, backups[0]!));
    }
    expect(readdirSync(folder).filter((name) => name.endsWith('.tmp') || name.startsWith('.acp.lock'))).toEqual([]);
    const validation = await cli(['validate', '--folder', folder]);
    expect(validation.stdout.trim(), `trial ${trial}`).toBe('ACP validation passed');
    rmSync(folder, { recursive: true, force: true });
  }

  // The appender loaded for a trial that did not run.
  if (ready) {
    const unused = await ready;
    unused.child.kill('SIGKILL');
    await unused.exited;
  }

  const figure = (ms: number[]): string => (ms.length ? `${Math.max(...ms).toFixed(0)} ms max, ${(ms.reduce((a, b) => a + b, 0) / ms.length).toFixed(0)} ms mean (${ms.length})` : 'n/a');
  const recovery = `${figure(outcome.recoveryMs)}; a free lock: ${figure(outcome.baselineMs)}`;
  console.log(
    `crash: ${trial} SIGKILL trials, ${outcome.appendsBeforeKill} appends completed before the kills; torn last lines ${outcome.torn} (${outcome.tornCutCharacter} cut inside a character), ` +
      `protocol.json new ${outcome.newProtocol} / old ${outcome.oldProtocol} (never partial), stale locks ${outcome.staleLocks} (all judged abandoned at once), ` +
      `leftover temp files ${outcome.staleTemps}; taking the lock with a dead holder's lock in place: ${recovery}; ` +
      `aims that timed out: ${JSON.stringify(misses)}`,
  );
  // Each branch of the checks above ran often enough to mean something.
  for (const [key, min] of Object.entries(MINIMUM)) {
    expect(outcome[key as keyof typeof MINIMUM], `${key} after ${trial} trials (minimum ${min})`).toBeGreaterThanOrEqual(min);
  }
}, LONG ? 7_200_000 : 1_800_000);
