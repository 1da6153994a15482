// validate on a long log, in-process (issue 28: the Python-compatible JSON
// reader must not make validate dramatically slower). Builds a valid log of
// N events (the same shape as scripts/bench.ts: proposal/review rounds and
// supporting revisions), then times `validate` with the validation
// checkpoint dropped before each run, so every run reads and parses the
// whole log. Run on the source with Bun:
//
//   node_modules/.bin/bun scripts/bench-validate-log.ts [events=100000] [runs=7]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNodeHost, createRegistry, defaultTemplate, formatEventLine, formatProtocolJson, formatTimestamp, init, validate } from '../acp.ts';

const total = Number(process.argv[2] ?? 100_000);
const runs = Number(process.argv[3] ?? 7);
const work = mkdtempSync(join(tmpdir(), 'acp-bench-validate-'));
// The validation checkpoint lives under the state directory: a scratch one, dropped before each run.
process.env.XDG_STATE_HOME = join(work, 'state');
const host = await createNodeHost();
const registry = await createRegistry();
try {
  const folder = join(work, 'collab');
  await init(host, folder, { participants: ['alice', 'bob'], objective: 'Benchmark the runtime', completion: ['Benchmarks recorded'], primaryType: 'adr' }, registry);
  const protocolPath = join(folder, 'protocol.json');
  const protocol = JSON.parse(readFileSync(protocolPath, 'utf8'));
  protocol.deliverables.supporting = [{ type: 'test-plan', file: 'test-plan.md' }];
  const type = registry.type('test-plan')!;
  writeFileSync(join(folder, 'deliverables', 'test-plan.md'), defaultTemplate({ title: type.title, type: 'test-plan', sections: type.sections([]) }));
  const first = readFileSync(join(folder, 'events.jsonl'), 'utf8');
  const base = Date.parse(JSON.parse(first).at);
  const lines = [first];
  const reviews: string[] = [];
  let seq = 1;
  const add = (from: string, event: string, extra: Record<string, unknown>): void => {
    seq++;
    lines.push(formatEventLine({ seq, from, event, at: formatTimestamp(new Date(base + seq * 1000)), summary: `${event} #${seq}: a sentence, with punctuation; 1.5 words.`, reply_to: seq - 1, ...extra }));
  };
  add('alice', 'deliverable_drafted', { doc: 'deliverables/adr.md', role: 'primary' });
  let phase = 'drafting';
  while (seq < total) {
    if (total - seq >= 2) {
      add('alice', 'proposal_submitted', { doc: 'proposal.md' });
      add('bob', 'review_submitted', { doc: 'review.md' });
      reviews.push(`## ${formatTimestamp(new Date(base + seq * 1000))} - bob - seq ${seq}\n\nPosition:\n- Accept.\n`);
      phase = 'revising';
    }
    for (let i = 0; i < 8 && seq < total; i++) add(i % 2 ? 'bob' : 'alice', 'deliverable_revised', { doc: 'deliverables/test-plan.md', role: 'supporting' });
  }
  writeFileSync(join(folder, 'events.jsonl'), lines.join(''));
  writeFileSync(join(folder, 'review.md'), ['# Review\n', 'Reviewed primary deliverable: `deliverables/adr.md`\n', 'Review Scope:\n- Proposal coherence\n- Primary deliverable completeness\n', ...reviews].join('\n'));
  Object.assign(protocol, { currentPhase: phase, proposalOwner: 'alice', waitingFor: ['alice'] });
  writeFileSync(protocolPath, formatProtocolJson(protocol));
  const times: number[] = [];
  // CPU time too: on a shared machine the wall time mostly measures the neighbours.
  const cpu: number[] = [];
  let verdict = '';
  for (let i = 0; i < runs; i++) {
    rmSync(join(work, 'state'), { recursive: true, force: true });
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const result = await validate(host, folder, registry);
    const c1 = process.cpuUsage(c0);
    times.push(performance.now() - t0);
    cpu.push((c1.user + c1.system) / 1000);
    verdict = `${result.errors.length} errors, ${result.warnings.length} warnings`;
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  console.log(`validate, ${total} events (${(lines.join('').length / 1e6).toFixed(1)} MB), ${runs} runs: wall median ${times[runs >> 1]!.toFixed(0)} ms, min ${times[0]!.toFixed(0)} ms; CPU median ${cpu[runs >> 1]!.toFixed(0)} ms, min ${cpu[0]!.toFixed(0)} ms (${verdict})`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
