// Races (issue 5, part 1): many processes append to one folder at once while
// `wait` processes, `next` runs and raw readers watch it. Every successful
// append must be in the log exactly once, seqs must run 1..N, protocol.json
// must equal the replayed state, and no reader may ever see a half-written
// protocol.json or a partial line.
//
// Quick (`npm test`): 4 processes × 10 appends, 2 appends and 3 `next` runs
// by separately spawned `node dist/acp.mjs`; full (ACP_FULL=1, `npm run
// test:all`): 8 × 25, 4 spawned appends, spawned `next` runs for as long as
// the race lasts; long (ACP_LONG=1): 16 × 50 and 30 spawned appends
// (test/scale.ts).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { participantIds, readReadiness, replay } from '../acp.ts';
import { DIST_URL, LONG, cli, makeFolder, racerAppend, readLines, spawnCli, spawnNode, writeWorker } from './reliability/fixture.ts';
import { byScale } from './scale.ts';
import { tmpdirInScratch } from './scratch.ts';

// Its temporary folders in memory where there is room (test/scratch.ts): the appends' fsyncs are disk work otherwise.
tmpdirInScratch();

const PROCESSES = byScale({ quick: 4, full: 8, long: 16 });
const APPENDS = byScale({ quick: 10, full: 25, long: 50 });
/** Appends made by spawning `node dist/acp.mjs append` once per append. */
const SPAWNED_APPENDS = byScale({ quick: 2, full: 4, long: 30 });
/** `node dist/acp.mjs next` runs during the race, one after another (each start costs a node process). */
const SPAWNED_NEXT_RUNS = byScale({ quick: 3, full: Infinity });

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

interface ReaderStats {
  protocolReads: number;
  logReads: number;
  /** Reads of events.jsonl that ended in the middle of a line (a write in progress). */
  transientTails: number;
  /** Such partial lines still there a moment later (a torn line). */
  partialTails: string[];
  badProtocol: string[];
  badLines: string[];
}

/** Read protocol.json and events.jsonl in a tight loop until `stop()` says so. */
async function rawReader(folder: string, stop: () => boolean): Promise<ReaderStats> {
  const stats: ReaderStats = { protocolReads: 0, logReads: 0, transientTails: 0, partialTails: [], badProtocol: [], badLines: [] };
  while (!stop()) {
    const protocolText = readFileSync(join(folder, 'protocol.json'), 'utf8');
    stats.protocolReads++;
    try {
      const value = JSON.parse(protocolText);
      if (typeof value !== 'object' || value === null || !('currentPhase' in value) || !Array.isArray(value.waitingFor)) stats.badProtocol.push(protocolText.slice(0, 200));
    } catch {
      stats.badProtocol.push(protocolText.slice(0, 200));
    }
    const logText = readFileSync(join(folder, 'events.jsonl'), 'utf8');
    stats.logReads++;
    const lines = logText.split('\n');
    const tail = lines.pop()!;
    if (tail !== '') {
      // The OS copies a write page by page, so a read can catch a line that
      // straddles a page boundary half-copied (acp's own readers look again).
      // It must be completed: a torn line must never persist. The writer may
      // be descheduled mid-write on a loaded machine, so look again until
      // the line is complete rather than once after a fixed moment; 30 s is
      // a bound on a hang, not an expected speed.
      stats.transientTails++;
      const deadline = Date.now() + 30_000;
      let completed = false;
      while (!completed && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        const again = readFileSync(join(folder, 'events.jsonl'), 'utf8');
        completed = again.startsWith(logText) && again.indexOf('\n', logText.length - tail.length) !== -1;
      }
      if (!completed) stats.partialTails.push(tail.slice(0, 200));
    }
    for (const line of lines) {
      try {
        JSON.parse(line);
      } catch {
        stats.badLines.push(line.slice(0, 200));
      }
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  return stats;
}

test(`${PROCESSES} processes × ${APPENDS} appends on one folder, with waiters and readers`, async () => {
  const root = mkdtempSync(join(tmpdir(), 'acp-races-'));
  roots.push(root);
  const participants = Array.from({ length: Math.max(PROCESSES, 4) }, (_, i) => `p${i + 1}`);
  const folder = await makeFolder(root, participants);
  const worker = writeWorker(root);

  let stopped = false;
  const stop = (): boolean => stopped;
  // Waiters for participants whose turn never comes during the race: they read
  // the folder after every change and must neither fail nor wake early.
  const waiters = ['p2', 'p3'].map((p) => spawnCli(['wait', '--folder', folder, '--participant', p, '--timeout', '0', '--interval', '0.05'], { timeoutMs: 600_000 }));
  const reader = rawReader(folder, stop);
  const nextFailures: string[] = [];
  let nextRuns = 0;
  const nextLoop = (async () => {
    while (!stopped) {
      const r = await cli(['next', '--folder', folder, '--participant', 'p2']);
      nextRuns++;
      if (r.rc !== 0) nextFailures.push(`in-process next exit ${r.rc}: ${r.stderr}`);
    }
  })();
  let spawnedNextRuns = 0;
  const spawnedNext = (async () => {
    while (!stopped && spawnedNextRuns < SPAWNED_NEXT_RUNS) {
      const r = await spawnCli(['next', '--folder', folder, '--participant', 'p3']);
      spawnedNextRuns++;
      if (r.rc !== 0) nextFailures.push(`spawned next exit ${r.rc}: ${r.stderr}`);
    }
  })();

  const started = Date.now();
  const spawnedAppends = (async () => {
    const results: { summary: string; rc: number | null; stdout: string; stderr: string }[] = [];
    for (let i = 0; i < SPAWNED_APPENDS; i++) {
      const summary = `spawned#${i}`;
      results.push({ summary, ...(await spawnCli(racerAppend(folder, 'p1', summary))) });
    }
    return results;
  })();
  const racers = await Promise.all(participants.slice(0, PROCESSES).map((p) => spawnNode([worker, DIST_URL, folder, p, String(APPENDS)])));
  const spawned = await spawnedAppends;
  const elapsed = Date.now() - started;
  stopped = true;
  const stats = await reader;
  await nextLoop;
  await spawnedNext;

  // Still nobody's turn but p1's: the waiters are still waiting. End the
  // collaboration so they wake up.
  const blocked = await cli(['append', '--folder', folder, '--participant', 'p1', '--event', 'blocked', '--summary', 'end of the race', '--reply-to', '1']);
  expect(blocked.stderr).toBe('');
  const woken = await Promise.all(waiters);

  // Every append succeeded and is in the log exactly once, under the seq it reported.
  const ok = new Map<string, number>();
  for (const racer of racers) {
    expect(racer.rc, racer.stderr).toBe(0);
    const result = JSON.parse(racer.stdout) as { ok: { summary: string; seq: number }[]; failed: unknown[] };
    expect(result.failed).toEqual([]);
    for (const { summary, seq } of result.ok) ok.set(summary, seq);
  }
  for (const r of spawned) {
    expect(r.rc, r.stderr).toBe(0);
    ok.set(r.summary, JSON.parse(r.stdout).event.seq);
  }
  expect(ok.size).toBe(PROCESSES * APPENDS + SPAWNED_APPENDS);
  const events = readLines(folder);
  const total = 1 + ok.size + 1;
  expect(events.map((e) => e.seq)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
  const bySummary = new Map<unknown, number[]>();
  for (const e of events) bySummary.set(e.summary, [...(bySummary.get(e.summary) ?? []), e.seq as number]);
  for (const [summary, seq] of ok) expect(bySummary.get(summary), summary).toEqual([seq]);

  // protocol.json caches exactly the replayed state.
  const protocol = JSON.parse(readFileSync(join(folder, 'protocol.json'), 'utf8'));
  const state = replay(events, participantIds(protocol), readReadiness(readFileSync(join(folder, 'readiness.md'), 'utf8')));
  expect(state.errors).toEqual([]);
  expect({ currentPhase: protocol.currentPhase, proposalOwner: protocol.proposalOwner, waitingFor: protocol.waitingFor, updatedAt: protocol.updatedAt }).toEqual({
    currentPhase: state.phase,
    proposalOwner: state.proposalOwner,
    waitingFor: state.waitingFor,
    updatedAt: events.at(-1)!.at,
  });
  const validation = await cli(['validate', '--folder', folder]);
  expect(validation.stdout.trim()).toBe('ACP validation passed');
  expect(validation.rc).toBe(0);

  // Readers never saw half a file or half a line; waiters woke only at the end.
  expect(stats.badProtocol).toEqual([]);
  expect(stats.badLines).toEqual([]);
  expect(stats.partialTails).toEqual([]);
  expect(nextFailures).toEqual([]);
  for (const w of woken) {
    expect(w.rc, w.stderr).toBe(0);
    expect(w.stdout).toContain('ready: phase is blocked');
  }
  const seconds = elapsed / 1000;
  console.log(
    `races: ${PROCESSES} processes × ${APPENDS} appends + ${SPAWNED_APPENDS} spawned appends = ${ok.size} appends, seqs 1..${total} continuous, ` +
      `${seconds.toFixed(1)} s (${(ok.size / seconds).toFixed(0)} appends/s); readers: ${stats.protocolReads} protocol.json + ${stats.logReads} events.jsonl reads ` +
      `(${stats.transientTails} caught a line mid-write, none left torn), ` +
      `${nextRuns} in-process + ${spawnedNextRuns} spawned next runs, 2 waiters`,
  );
}, LONG ? 1_800_000 : 600_000);
