// `next` on a long log, in-process (issue 35, "one rule for the turn"):
// what answering whose turn costs when the answer must agree with the log.
// Builds a valid log of N events (scripts/long-log.ts), then times nextAction in three
// folders: the log as generated (no append checkpoint), the same after one
// append through acp (its checkpoint current), and a log whose events share
// one second (the old timestamp heuristic's slow case). Prints the median
// wall and CPU time of each, and the CPU time of the replay alone. Run on
// the source with Bun:
//
//   node_modules/.bin/bun scripts/bench-next.ts [events=100000] [runs=9]
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { append, createNodeHost, createRegistry, nextAction, readEventLog, readProtocol, turnOf } from '../acp.ts';
import { writeLongLog } from './long-log.ts';

const total = Number(process.argv[2] ?? 100_000);
const runs = Number(process.argv[3] ?? 9);
const work = mkdtempSync(join(tmpdir(), 'acp-bench-next-'));
process.env.XDG_STATE_HOME = join(work, 'state');
const host = await createNodeHost();
const registry = await createRegistry();

/** A valid log of `total` events ending with alice to move; `sameSecond` gives every event one `at`. */
async function generate(name: string, sameSecond: boolean): Promise<string> {
  const folder = join(work, name);
  await writeLongLog(host, registry, folder, total, { sameSecond });
  return folder;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function time(label: string, folder: string): Promise<void> {
  const wall: number[] = [];
  const cpu: number[] = [];
  let answer = '';
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const result = await nextAction(host, folder, 'alice', registry);
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    answer = `${result.phase} / ${result.waitingFor.join(',')}${result.note ? ' (note)' : ''}`;
  }
  console.log(`${label.padEnd(44)} wall ${median(wall).toFixed(1).padStart(7)} ms   cpu ${median(cpu).toFixed(1).padStart(7)} ms   ${answer}`);
}

try {
  const plain = await generate('plain', false);
  const appended = join(work, 'appended');
  cpSync(plain, appended, { recursive: true });
  await append(host, appended, { participant: 'alice', event: 'deliverable_revised', summary: 'one more', replyTo: total, role: 'supporting', doc: 'deliverables/test-plan.md' }, registry);
  const sameSecond = await generate('same-second', true);
  console.log(`next on ${total} events, median of ${runs} in-process runs`);
  await time('no append checkpoint', plain);
  await time('after one append (checkpoint current)', appended);
  await time('every event in one second', sameSecond);
  // What deciding the turn adds to a read of the log: the replay alone, over the events next has parsed anyway.
  const events = (await readEventLog(host, plain)).events;
  const protocol = await readProtocol(host, plain);
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    turnOf(protocol, events);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  console.log(`${'turnOf alone (the replay, log already parsed)'.padEnd(44)} cpu ${median(cpu).toFixed(1).padStart(7)} ms`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
