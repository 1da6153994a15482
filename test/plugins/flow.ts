// A complete collaboration (init → … → completed) driven through any CLI
// runner, for end-to-end plugin tests on every runtime. Two participants:
// alice owns the proposal, bob reviews.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `acp <args…>`. */
export type Runner = (args: string[]) => Promise<RunResult> | RunResult;

export interface FlowOptions {
  /** The collaboration folder (absolute). */
  folder: string;
  /** Primary deliverable type, e.g. `postmortem`. */
  type: string;
  /** Extra arguments for every command (e.g. `--plugin x.mjs`). */
  pluginArgs: string[];
  /** Writes the deliverable's text for a status (`Draft` or `Frozen`). */
  deliverable(status: 'Draft' | 'Frozen'): string;
}

/** Run a command and insist on its exit code. */
export async function expectRun(run: Runner, args: string[], code = 0): Promise<RunResult> {
  const result = await run(args);
  if (result.code !== code) {
    throw new Error(`acp ${args.join(' ')}\nexpected exit ${code}, got ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
  }
  return result;
}

/** The primary deliverable's reference and path after init. */
export function primaryOf(folder: string): { ref: string; path: string; gates: string[]; protocol: Record<string, unknown> } {
  const protocol = JSON.parse(readFileSync(join(folder, 'protocol.json'), 'utf8'));
  const { dir, primary } = protocol.deliverables;
  return {
    ref: `${dir}/${primary.file}`,
    path: join(folder, dir, primary.file),
    gates: protocol.completionGates.map((g: { text: string }) => g.text),
    protocol,
  };
}

/** init, then every step to completed; returns the folder's primary ref. */
export async function runFlow(run: Runner, options: FlowOptions): Promise<{ ref: string }> {
  const { folder, type, pluginArgs } = options;
  const acp = (args: string[], code = 0): Promise<RunResult> => expectRun(run, [...args, ...pluginArgs], code);
  const append = (participant: string, event: string, replyTo: number, extra: string[] = []): Promise<RunResult> =>
    acp(['append', '--folder', folder, '--participant', participant, '--event', event, '--summary', `${event} by ${participant}`, '--reply-to', String(replyTo), ...extra]);

  await acp(['init', '--folder', folder, '--participant', 'alice', '--participant', 'bob', '--objective', 'Learn from the outage', '--completion', 'Lessons recorded', '--primary-deliverable-type', type]);
  const { ref, path, gates } = primaryOf(folder);
  writeFileSync(path, options.deliverable('Draft'));
  await append('alice', 'deliverable_drafted', 1, ['--doc', ref, '--role', 'primary']);
  await append('alice', 'proposal_submitted', 2, ['--doc', 'proposal.md']);
  writeFileSync(
    join(folder, 'review.md'),
    `# Review\n\n## 2026-01-01T00:00:00Z - bob - seq 4\n\nContext:\n- Reviewed primary deliverable: \`${ref}\`\n\nReview Scope:\n- Primary deliverable completeness\n\nPosition:\n- Accept.\n`,
  );
  await append('bob', 'review_submitted', 3, ['--doc', 'review.md']);
  await append('alice', 'proposal_revised', 4, ['--doc', 'proposal.md']);
  writeFileSync(
    join(folder, 'readiness.md'),
    `# Readiness\n\n## Open Question Classification\n\n- [resolved] Nothing open.\n\n## Blocking Issues\n\n- None.\n\n## Gates\n\n${gates.map((g) => `- [x] ${g}`).join('\n')}\n\n## Ready to Implement\n\n- [x] Ready to implement\n`,
  );
  await append('alice', 'question_classified', 5, ['--doc', 'readiness.md']);
  await append('alice', 'decision_accepted', 6, ['--doc', 'decisions.md']);
  await append('bob', 'decision_accepted', 7, ['--doc', 'decisions.md']);
  writeFileSync(path, options.deliverable('Frozen'));
  const sha = createHash('sha256').update(readFileSync(path)).digest('hex');
  await append('alice', 'deliverable_frozen', 8, ['--doc', ref, '--role', 'primary', '--sha256', sha]);
  await append('alice', 'readiness_passed', 9, ['--doc', 'readiness.md']);
  writeFileSync(
    join(folder, 'conclusion.md'),
    `# Conclusion\n\n## Decision Outcome\n\n- [proceed] Apply the lessons.\n\n## Rationale\n\nThe causes are understood.\n\n## Deliverable Receipt\n\n- Primary: \`${ref}\`\n- SHA-256: ${sha}\n\n## Accepted Decisions Summary\n\nSee decisions.md.\n\n## Readiness Result\n\nReady.\n\n## Assumptions\n\nNone.\n\n## Deferred Follow-ups\n\nNone.\n\n## Implementation Blockers\n\nNone.\n\n## Next Action\n\nShip the fixes.\n`,
  );
  await append('alice', 'completed', 10, ['--doc', 'conclusion.md']);
  return { ref };
}

/** A post-mortem deliverable (the fixture type `postmortem`). */
export function postmortemText(status: 'Draft' | 'Frozen', owners = true): string {
  const owner = owners ? ' (owner: bob)' : '';
  return `# Post-mortem\n\nDeliverable type: \`postmortem\`\nStatus: ${status}\n\n## Impact\n\nCheckout failed for 12 minutes.\n\n## Timeline\n\n- 09:00 deploy\n- 09:12 rollback\n\n## Root Cause\n\nA missing index.\n\n## Action Items\n\n- Add the index${owner}\n`;
}

/** An RFC deliverable (the bundled plugin `rfc`). */
export function rfcText(status: 'Draft' | 'Frozen', options: { alternatives?: number; unresolved?: string; discussion?: string; supersedes?: string } = {}): string {
  const { alternatives = 2, unresolved = 'None.', discussion = 'https://example.org/rfcs/7', supersedes = 'RFC-0003' } = options;
  const alts = Array.from({ length: alternatives }, (_, i) => `- Option ${i + 1}: something else.`).join('\n') || 'Nothing else.';
  return `# Request for Comments\n\nDeliverable type: \`rfc\`\nStatus: ${status}\nDiscussion: ${discussion}\nSupersedes: ${supersedes}\n\n## Summary\n\nUse a queue.\n\n## Motivation\n\nSpikes.\n\n## Detailed Design\n\nA durable queue.\n\n## Drawbacks\n\nOne more service.\n\n## Alternatives\n\n${alts}\n\n## Unresolved Questions\n\n${unresolved}\n`;
}
