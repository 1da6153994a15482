// The CLI as a real process (node dist/acp.mjs, built by `npm test`):
// init never clobbers, wait wakes on a handoff, --json, usage errors, --help.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { tmpdirInScratch } from './scratch.ts';

// Its temporary folders in memory where there is room (test/scratch.ts): the appends' fsyncs and renames are disk work otherwise.
tmpdirInScratch();

const CLI = join(import.meta.dirname, '..', 'dist', 'acp.mjs');
const dirs: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'acp-cli-'));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function acp(...args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function initArgs(folder: string, ...extra: string[]): string[] {
  return ['init', '--folder', folder, '--participant', 'alice', '--participant', 'bob', '--objective', 'Pick a queue', '--completion', 'Risks listed', '--primary-deliverable-type', 'adr', ...extra];
}

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, prefix: string): void => {
    for (const name of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, name.name);
      if (name.isDirectory()) walk(path, `${prefix}${name.name}/`);
      else out[`${prefix}${name.name}`] = createHash('sha256').update(readFileSync(path)).digest('hex');
    }
  };
  walk(dir, '');
  return out;
}

describe('init never clobbers', () => {
  test('an existing README.md stays byte-equal and nothing is written', () => {
    const folder = join(tempDir(), 'c');
    mkdirSync(folder);
    writeFileSync(join(folder, 'README.md'), 'my notes\n');
    const before = snapshot(folder);
    const r = acp(...initArgs(folder));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: refusing to overwrite existing files in .*: README\.md/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(snapshot(folder)).toEqual(before);
  });

  test('an existing deliverable stays byte-equal and nothing is written', () => {
    const folder = join(tempDir(), 'c');
    mkdirSync(join(folder, 'deliverables'), { recursive: true });
    writeFileSync(join(folder, 'deliverables', 'adr.md'), '# my ADR\n');
    const before = snapshot(folder);
    const r = acp(...initArgs(folder));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('deliverables/adr.md');
    expect(snapshot(folder)).toEqual(before);
  });

  test('protocol.json present: refused without --resume, acknowledged with it', () => {
    const folder = join(tempDir(), 'c');
    expect(acp(...initArgs(folder)).code).toBe(0);
    const before = snapshot(folder);
    const refused = acp(...initArgs(folder));
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toBe('error: collaboration folder already contains protocol.json; use --resume to acknowledge it');
    const resumed = acp(...initArgs(folder, '--resume'));
    expect(resumed.code).toBe(0);
    expect(resumed.stdout.trim()).toBe(`Collaboration folder already exists: ${folder}`);
    expect(snapshot(folder)).toEqual(before);
  });

  test('a fresh folder validates', () => {
    const folder = join(tempDir(), 'c');
    expect(acp(...initArgs(folder)).stdout.trim()).toBe(`Initialized ACP schema v2 collaboration folder: ${folder}`);
    const r = acp('validate', '--folder', folder);
    expect(r.stdout.trim()).toBe('ACP validation passed');
    expect(r.code).toBe(0);
  });
});

describe('usage and output modes', () => {
  test('usage errors are `error: …` with exit 2 and no stack trace', () => {
    for (const args of [[], ['frobnicate'], ['append', '--bogus'], ['append', '--folder', '/nonexistent-acp', '--participant', 'x', '--event', 'blocked', '--summary', 's', '--reply-to', 'abc'], ['next']]) {
      const r = acp(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/^error: \S/);
      expect(r.stderr, args.join(' ')).not.toMatch(/\n\s+at /);
    }
  });

  test('--help on each command exits 0 and lists the options', () => {
    for (const [command, option] of [['init', '--primary-deliverable-type'], ['append', '--reply-to'], ['next', '--participant'], ['wait', '--timeout'], ['validate', '--folder']]) {
      const r = acp(command!, '--help');
      expect(r.code, command).toBe(0);
      expect(r.stdout, command).toContain(option);
    }
  });

  test('--json prints one JSON object per command, same exit codes', () => {
    const folder = join(tempDir(), 'c');
    const init = acp(...initArgs(folder), '--json');
    expect(JSON.parse(init.stdout)).toMatchObject({ ok: true, created: true });
    const appended = acp('append', '--folder', folder, '--participant', 'alice', '--event', 'deliverable_drafted', '--summary', 'd', '--doc', 'deliverables/adr.md', '--reply-to', '1', '--role', 'primary', '--json');
    expect(appended.code).toBe(0);
    expect(JSON.parse(appended.stdout).event).toMatchObject({ seq: 2, from: 'alice', event: 'deliverable_drafted', reply_to: 1 });
    const next = acp('next', '--folder', folder, '--participant', 'bob', '--json');
    expect(JSON.parse(next.stdout)).toMatchObject({ phase: 'drafting', proposalOwner: 'alice', waitingFor: ['alice'], lastEvent: { seq: 2 } });
    const valid = acp('validate', '--folder', folder, '--json');
    expect(JSON.parse(valid.stdout)).toEqual({ ok: true, exitCode: 0, errors: [], warnings: [] });
    const refused = acp('append', '--folder', folder, '--participant', 'mallory', '--event', 'blocked', '--summary', 's', '--reply-to', '1', '--json');
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.stdout)).toMatchObject({ ok: false, error: "participant 'mallory' is not listed in protocol.json" });
  });

  test('summaries that look like numbers are kept as typed', () => {
    const folder = join(tempDir(), 'c');
    acp(...initArgs(folder));
    acp('append', '--folder', folder, '--participant', 'alice', '--event', 'blocked', '--summary', '007', '--reply-to', '1');
    const last = readFileSync(join(folder, 'events.jsonl'), 'utf8').trim().split('\n').at(-1)!;
    expect(JSON.parse(last).summary).toBe('007');
  });
});

describe('wait', () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
  });

  function startWait(folder: string, participant: string, ...extra: string[]): { done: Promise<{ code: number; stdout: string; stderr: string; at: number }>; output: () => string } {
    const child = spawn(process.execPath, [CLI, 'wait', '--folder', folder, '--participant', participant, ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const done = new Promise<{ code: number; stdout: string; stderr: string; at: number }>((resolve) => {
      child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr, at: performance.now() }));
    });
    return { done, output: () => stdout };
  }

  async function until(predicate: () => boolean, ms = 20_000): Promise<void> {
    const end = Date.now() + ms;
    while (!predicate()) {
      if (Date.now() > end) throw new Error('condition not met in time');
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  test('returns promptly when another process hands over the turn', async () => {
    const folder = join(tempDir(), 'c');
    acp(...initArgs(folder));
    // --interval 60: a wake-up can only come from the change notification.
    const waiter = startWait(folder, 'bob', '--interval', '60');
    await until(() => waiter.output().includes('waiting: waiting for alice after seq 1'));
    acp('append', '--folder', folder, '--participant', 'alice', '--event', 'deliverable_drafted', '--summary', 'd', '--doc', 'deliverables/adr.md', '--reply-to', '1', '--role', 'primary');
    const handedOver = performance.now();
    acp('append', '--folder', folder, '--participant', 'alice', '--event', 'proposal_submitted', '--summary', 'p', '--reply-to', '2');
    const appendEnded = performance.now();
    const result = await waiter.done;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('ready: bob is listed in waitingFor');
    expect(result.stdout).toContain('next action: review proposal.md and the primary deliverable');
    // A figure for the closing note, not an assertion: the handoff latency.
    console.log(`wait handoff: ${(result.at - appendEnded).toFixed(1)} ms after the handing-over append exited (${(result.at - handedOver).toFixed(0)} ms incl. that append)`);
  });

  test('returns on blocked and on completed', async () => {
    const folder = join(tempDir(), 'c');
    acp(...initArgs(folder));
    const waiter = startWait(folder, 'bob', '--interval', '60');
    await until(() => waiter.output().includes('waiting:'));
    acp('append', '--folder', folder, '--participant', 'alice', '--event', 'blocked', '--summary', 'stuck', '--reply-to', '1');
    const result = await waiter.done;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('ready: phase is blocked');
    expect(result.stdout).toContain('next action: resolve the blocker or start a new collaboration round.');
    const again = acp('wait', '--folder', folder, '--participant', 'bob', '--timeout', '1');
    expect(again.code).toBe(0);
  });

  test('times out with exit 1 and the reason on stderr', async () => {
    const folder = join(tempDir(), 'c');
    acp(...initArgs(folder));
    const r = acp('wait', '--folder', folder, '--participant', 'bob', '--timeout', '0.3', '--interval', '0.1');
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('timeout: waiting for alice after seq 1');
    expect(r.stdout.trim()).toBe('waiting: waiting for alice after seq 1');
  });

  test('errors exit 2', () => {
    const folder = join(tempDir(), 'c');
    acp(...initArgs(folder));
    const r = acp('wait', '--folder', folder, '--participant', 'mallory', '--timeout', '1');
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe("error: participant 'mallory' is not listed in protocol.json");
    expect(existsSync(join(folder, '.acp.lock'))).toBe(false);
  });
});
