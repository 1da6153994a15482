// A valid collaboration folder with a long log, for the in-process
// benchmarks (scripts/bench-validate-log.ts, scripts/bench-next.ts): the
// shape of scripts/bench.ts — after `initialized` and the primary draft,
// rounds of proposal_submitted (alice) / review_submitted (bob), each followed
// by eight supporting-deliverable revisions — ending with alice to move
// (revising), protocol.json caching that turn.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultTemplate, formatEventLine, formatProtocolJson, formatTimestamp, init, type Host, type Registry } from '../acp.ts';

/** Options of {@link writeLongLog}. */
export interface LongLogOptions {
  /** Every event at one second (default: one second apart). */
  sameSecond?: boolean;
  /**
   * One second apart, the last one a second ago (default: from init's time
   * on, into the future): a tool that stamps its events with the clock
   * (the Python tools) appends after them.
   */
  past?: boolean;
  /** The summary of event `seq` (default `{event} #{seq}`). */
  summary?: (event: string, seq: number) => string;
  /**
   * Documents as an honest agent writes them, so that the folder also passes
   * `validate --strict` (strict appends on it succeed): the primary
   * deliverable and proposal.md filled in, each review declaring its scope.
   */
  strict?: boolean;
}

/** Initialise `folder` and give it a valid log of `total` events; returns the log's size in bytes. */
export async function writeLongLog(host: Host, registry: Registry, folder: string, total: number, options: LongLogOptions = {}): Promise<number> {
  await init(host, folder, { participants: ['alice', 'bob'], objective: 'Benchmark the runtime', completion: ['Benchmarks recorded'], primaryType: 'adr' }, registry);
  const protocolPath = join(folder, 'protocol.json');
  const protocol = JSON.parse(readFileSync(protocolPath, 'utf8'));
  protocol.deliverables.supporting = [{ type: 'test-plan', file: 'test-plan.md' }];
  const type = registry.type('test-plan')!;
  writeFileSync(join(folder, 'deliverables', 'test-plan.md'), defaultTemplate({ title: type.title, type: 'test-plan', sections: type.sections([]) }));
  const initialized = JSON.parse(readFileSync(join(folder, 'events.jsonl'), 'utf8'));
  const base = options.past ? Math.floor(Date.now() / 1000) * 1000 - total * 1000 : Date.parse(initialized.at);
  const first = formatEventLine({ ...initialized, at: formatTimestamp(new Date(base)) });
  const summary = options.summary ?? ((event: string, seq: number) => `${event} #${seq}`);
  const lines = [first];
  const reviews: string[] = [];
  let seq = 1;
  const at = (): string => formatTimestamp(new Date(base + (options.sameSecond ? 1000 : seq * 1000)));
  const add = (from: string, event: string, extra: Record<string, unknown>): void => {
    seq++;
    lines.push(formatEventLine({ seq, from, event, at: at(), summary: summary(event, seq), reply_to: seq - 1, ...extra }));
  };
  add('alice', 'deliverable_drafted', { doc: 'deliverables/adr.md', role: 'primary' });
  let phase = 'drafting';
  while (seq < total) {
    if (total - seq >= 2) {
      add('alice', 'proposal_submitted', { doc: 'proposal.md' });
      add('bob', 'review_submitted', { doc: 'review.md' });
      const declarations = options.strict ? 'Context:\n- Reviewed primary deliverable: `deliverables/adr.md`\n\nReview Scope:\n- Primary deliverable completeness\n\n' : '';
      reviews.push(`## ${at()} - bob - seq ${seq}\n\n${declarations}Position:\n- Accept.\n`);
      phase = 'revising';
    }
    for (let i = 0; i < 8 && seq < total; i++) add(i % 2 ? 'bob' : 'alice', 'deliverable_revised', { doc: 'deliverables/test-plan.md', role: 'supporting' });
  }
  const log = lines.join('');
  writeFileSync(join(folder, 'events.jsonl'), log);
  writeFileSync(join(folder, 'review.md'), ['# Review\n', 'Reviewed primary deliverable: `deliverables/adr.md`\n', 'Review Scope:\n- Proposal coherence\n- Primary deliverable completeness\n', ...reviews].join('\n'));
  Object.assign(protocol, { currentPhase: phase, proposalOwner: 'alice', waitingFor: ['alice'], updatedAt: JSON.parse(lines.at(-1)!).at });
  writeFileSync(protocolPath, formatProtocolJson(protocol));
  if (options.strict) writeStrictDocuments(registry, folder);
  return log.length;
}

/** The primary deliverable and proposal.md as written by an agent, not as init left them. */
function writeStrictDocuments(registry: Registry, folder: string): void {
  const sections = registry.type('adr')!.sections([]);
  const adr = `# Architecture decision\n\nStatus: Draft\n\n${sections.map((name) => `## ${name}\n\nWhat the team decided about ${name.toLowerCase()}.\n`).join('\n')}`;
  writeFileSync(join(folder, 'deliverables', 'adr.md'), adr);
  writeFileSync(join(folder, 'proposal.md'), '# Proposal\n\nPrimary deliverable: `deliverables/adr.md`\n\n## Summary\n\nMeasure the runtime on a long log.\n');
}
