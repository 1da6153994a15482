// `acp log` (issue 15): the timeline, --since, --json, and --follow woken by
// the same follower as `wait` while other writers append.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import * as lib from '../acp.ts';
import { REPO_DIR } from './conformance/replay.ts';
import { acp } from './humans/context.ts';
import { cleanup, happyFolder, pythonFolder, STEPS } from './humans/folders.ts';

afterAll(cleanup);

/** The built CLI (node scripts/build.mjs). */
const CLI = join(REPO_DIR, 'dist', 'acp.mjs');

const LINE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ {2}seq \d+ {2,}\S+ +\S+ +→ \S+ +.*$/;

/** Resolve once `text` has been written to stdout (bounded by the test's own timeout). */
function seen(chunks: string[], text: string, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = setInterval(() => {
      if (chunks.join('').includes(text)) done(resolve);
      else if (signal.aborted) done(() => reject(new Error(`never printed: ${text}\n${chunks.join('')}`)));
    }, 5);
    const done = (fn: () => void) => {
      clearInterval(check);
      fn();
    };
  });
}

describe('acp log', () => {
  test('one line per event: time, seq, from, event, phase after it, summary', async () => {
    const folder = await happyFolder(STEPS.length);
    const r = await acp(['log', '--folder', folder]);
    expect(r.rc).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(STEPS.length + 1);
    for (const line of lines) expect(line).toMatch(LINE);
    expect(lines[0]).toMatch(/ {2}seq 1 {4}alice +initialized +→ drafting +Initialized ACP schema v2 collaboration workspace\.$/);
    expect(lines[3]).toMatch(/ {2}seq 4 {4}bob +review_submitted +→ revising +looks good$/);
    expect(lines.at(-1)).toMatch(/ {2}seq 11 {3}alice +completed +→ completed +done$/);
  });

  test('--since SEQ: only the events after it; --json: the events themselves as JSON lines', async () => {
    const folder = await happyFolder(6);
    const since = await acp(['log', '--folder', folder, '--since', '4']);
    expect(since.stdout.trimEnd().split('\n').map((l) => /seq (\d+)/.exec(l)![1])).toEqual(['5', '6', '7']);
    const json = await acp(['log', '--folder', folder, '--since', '5', '--json']);
    expect(json.rc).toBe(0);
    const events = json.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    const log = await lib.readEventLog(await lib.createNodeHost(), folder);
    expect(events).toEqual(log.events.slice(5));
    expect((await acp(['log', '--folder', folder, '--since', 'five'])).stderr).toBe("error: argument --since: invalid int value: 'five'\n");
  });

  test('--since is an int option (defineCommand): Python int() on the command line, a number from an embedder or RPC', async () => {
    const folder = await happyFolder(6);
    const seqs = (stdout: string): string[] => stdout.trimEnd().split('\n').map((l) => /seq (\d+)/.exec(l)![1]!);
    expect(seqs((await acp(['log', '--folder', folder, '--since', '0_5'])).stdout)).toEqual(['6', '7']);
    const host = await lib.createNodeHost();
    const registry = await lib.createRegistry({ builtIns: true });
    const out: string[] = [];
    await lib.runCommand(registry, 'log', { options: { folder, since: 5 } }, { host, out: (t) => void out.push(t) });
    await registry.cleanup();
    expect(seqs(out.join('\n'))).toEqual(['6', '7']);
  });

  test('bad lines: the readable events, a warning per bad line, exit 1', async () => {
    const folder = await happyFolder(1);
    appendFileSync(join(folder, 'events.jsonl'), '{"seq": 3, oops\n');
    const r = await acp(['log', '--folder', folder]);
    expect(r.rc).toBe(1);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(2);
    expect(r.stderr).toMatch(/^warning: events\.jsonl line 3: invalid JSON: .+\n$/);
  });

  test('summaries cannot drive the terminal', async () => {
    const folder = await happyFolder(0);
    const host = await lib.createNodeHost();
    await lib.append(host, folder, { participant: 'alice', event: 'blocked', summary: 'stop\u001b]0;pwned\u0007\u001b[2J', replyTo: 1 });
    const r = await acp(['log', '--folder', folder]);
    expect(r.stdout).toContain('stop\\u001b]0;pwned\\u0007\\u001b[2J');
    expect(r.stdout).not.toContain('\u001b');
  });

  test('--follow prints each event as another writer appends it, and stops when the collaboration ends', async () => {
    const folder = await happyFolder(STEPS.length - 2);
    const chunks: string[] = [];
    const stop = AbortSignal.timeout(30_000);
    const following = acp(['log', '--folder', folder, '--follow', '--since', '8'], { signal: stop, onStdout: (t) => void chunks.push(t) });
    await seen(chunks, 'seq 9 ', stop);
    const host = await lib.createNodeHost();
    const registry = await lib.createRegistry();
    for (const step of STEPS.slice(-2)) {
      for (const [name, text] of Object.entries(step.files)) writeFileSync(join(folder, name), text);
      await lib.append(host, folder, step.event, registry);
      await seen(chunks, `seq ${step.event.replyTo! + 1} `, stop);
    }
    const r = await following;
    expect(stop.aborted).toBe(false);
    expect(r.rc).toBe(0);
    expect(r.stdout.trimEnd().split('\n').map((l) => /seq (\d+)/.exec(l)![1])).toEqual(['9', '10', '11']);
    expect(r.stdout).toMatch(/seq 11 +alice +completed +→ completed/);
  });

  test('--follow stops when asked to (SIGINT aborts the signal): exit 130, as every aborted command', async () => {
    const folder = await happyFolder(2);
    const controller = new AbortController();
    const chunks: string[] = [];
    const following = acp(['log', '--folder', folder, '--follow', '--json'], { signal: controller.signal, onStdout: (t) => void chunks.push(t) });
    await seen(chunks, '"seq":3', AbortSignal.timeout(30_000));
    controller.abort();
    const r = await following;
    expect(r.rc).toBe(130);
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.seq)).toEqual([1, 2, 3, undefined]);
    expect(lines.at(-1)).toEqual({ ok: false, error: 'aborted', exitCode: 130, code: 'aborted' });
  });

  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    test(`--follow as a process: ${signal} exits ${code}, as the README promises (issue 29)`, async () => {
      expect(existsSync(CLI), `${CLI} missing (node scripts/build.mjs)`).toBe(true);
      const folder = await happyFolder(2);
      const child = spawn(process.execPath, [CLI, 'log', '--folder', folder, '--follow'], { stdio: ['ignore', 'pipe', 'pipe'] });
      const chunks: string[] = [];
      child.stdout.setEncoding('utf8').on('data', (t: string) => void chunks.push(t));
      const closed = new Promise<number | null>((resolve) => child.on('close', (rc) => resolve(rc)));
      try {
        await seen(chunks, 'seq 3 ', AbortSignal.timeout(30_000));
        child.kill(signal);
        expect(await closed).toBe(code);
      } finally {
        child.kill('SIGKILL');
      }
    });
  }

  test('a folder written by the Python tools (recorded scenario 1042, external deliverables)', async () => {
    const { folder, events } = await pythonFolder(1042);
    const r = await acp(['log', '--folder', folder]);
    expect(r.rc).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(events.length);
    expect(lines.map((l) => /seq (\d+)/.exec(l)![1])).toEqual(events.map((e) => String(e.seq)));
    expect(lines.at(-1)).toMatch(/completed +→ completed/);
  });
});
