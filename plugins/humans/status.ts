/**
 * `acp status --folder F [--json]`: the collaboration at a glance for a
 * person — objective, phase and for how long, owner, whose turn and for how
 * long, participants with their last event, the gates, the deliverables
 * (status, frozen hash, whether the file still matches), the last events and
 * what `validate` says now. Colour only when the edge allows it.
 * @module
 */
import type { CommandResult } from '../../runtime/types.ts';
import type { HumansContext } from './context.ts';
import { blockingEvent, elapsed, loadSnapshot, shownDraft, type DeliverableView, type Snapshot } from './snapshot.ts';
import { describeSigning, paint, terminalSafe, type Paint } from './text.ts';

/** How many recent events `status` shows. */
export const RECENT_EVENTS = 5;

/** Run `acp status`: exit 0 once the folder was read (its verdict is part of what is shown). */
export async function runStatus(ctx: HumansContext): Promise<CommandResult> {
  const snapshot = await loadSnapshot(ctx, ctx.folder(), { keep: RECENT_EVENTS });
  // One write for the whole view, not one per line: the same bytes, ~25 fewer system calls.
  if (!ctx.json) ctx.out(formatStatus(snapshot, await paint(ctx.color)).join('\n'));
  return { exitCode: 0, json: statusJson(snapshot) };
}

/** The `--json` form: the snapshot without the documents' text, with the last events only. */
export function statusJson(s: Snapshot): NonNullable<CommandResult['json']> {
  const strip = (d: DeliverableView | undefined) => {
    if (!d) return undefined;
    const { text: _text, ...rest } = d;
    return rest;
  };
  return JSON.parse(JSON.stringify({
    ok: true,
    exitCode: 0,
    folder: s.folder,
    objective: s.objective,
    phase: s.phase,
    phaseSince: s.phaseSince ?? null,
    owner: s.owner,
    waitingFor: s.waitingFor,
    turnSince: s.turnSince ?? null,
    participants: s.participants,
    gates: s.gates,
    readiness: s.readiness,
    primary: strip(s.primary) ?? null,
    supporting: s.supporting.map(strip),
    outcome: s.outcome ?? null,
    events: s.eventCount,
    recentEvents: s.timeline.slice(-RECENT_EVENTS).map((t) => ({ ...t.event, phase: t.phase })),
    logErrors: s.logErrors,
    documentNotes: s.documentNotes,
    validation: s.validation,
  }));
}

/** The status as lines of text. */
export function formatStatus(s: Snapshot, p: Paint): string[] {
  const label = (name: string): string => p.dim(`${name}:`.padEnd(14));
  const ended = s.phase === 'completed' || s.phase === 'blocked';
  const phaseColour = s.phase === 'completed' ? p.green : s.phase === 'blocked' ? p.red : p.cyan;
  const lines = [p.bold(terminalSafe(s.objective))];
  lines.push(`${label('folder')}${terminalSafe(s.folder)}`);
  lines.push(`${label('phase')}${phaseColour(s.phase ?? 'none')}${s.phaseSince ? p.dim(` (for ${elapsed(s, s.phaseSince)})`) : ''}`);
  lines.push(`${label('owner')}${terminalSafe(s.owner ?? 'none')}`);
  const turn = s.waitingFor.length ? p.bold(terminalSafe(s.waitingFor.join(', '))) : ended ? `nobody (collaboration ${s.phase})` : 'nobody';
  lines.push(`${label('turn')}${turn}${s.waitingFor.length && s.turnSince ? p.dim(` (for ${elapsed(s, s.turnSince)})`) : ''}`);
  lines.push(p.dim('participants:'));
  const width = Math.max(...s.participants.map((x) => terminalSafe(x.id).length), 4);
  for (const x of s.participants) {
    const last = x.last ? `last: seq ${terminalSafe(x.last.seq)} ${terminalSafe(x.last.event)}${elapsed(s, x.last.at) ? `, ${elapsed(s, x.last.at)} ago` : ''}` : 'no event yet';
    const mark = s.waitingFor.includes(x.id) ? p.yellow('*') : ' ';
    lines.push(`  ${mark} ${terminalSafe(x.id).padEnd(width)}  ${p.dim(last)}`);
  }
  lines.push(p.dim('gates (readiness.md):'));
  for (const gate of s.gates) lines.push(`  ${gate.checked ? p.green('[x]') : '[ ]'} ${terminalSafe(gate.text)}`);
  lines.push(`  ${s.readiness.readyToImplement ? p.green('[x]') : '[ ]'} Ready to implement`);
  const open = [
    s.readiness.blocking.length ? `${s.readiness.blocking.length} blocking` : '',
    s.readiness.unresolved.length ? `${s.readiness.unresolved.length} unresolved` : '',
    s.readiness.deferredWithoutReason.length ? `${s.readiness.deferredWithoutReason.length} deferred without reason` : '',
  ].filter(Boolean);
  if (open.length) lines.push(`  ${p.yellow(`open items: ${open.join(', ')}`)}`);
  if (s.primary) lines.push(...formatDeliverable(s.primary, p));
  for (const d of s.supporting) lines.push(...formatDeliverable(d, p));
  lines.push(...formatOutcome(s, label, p));
  lines.push(p.dim(`recent events (${s.eventCount} in all):`));
  for (const entry of s.timeline.slice(-RECENT_EVENTS)) lines.push(`  ${formatEvent(entry.event, entry.phase, p)}`);
  for (const error of s.logErrors) lines.push(`  ${p.red(terminalSafe(error))}`);
  for (const note of s.documentNotes) lines.push(`${label('note')}${p.yellow(terminalSafe(note))}`);
  lines.push(...formatVerdict(s, p));
  return lines;
}

/**
 * The outcome line. Before completion conclusion.md holds a draft (init
 * writes `[blocked] … not concluded yet`): an ongoing collaboration says
 * "not concluded yet", and a draft is named only when it does not claim an
 * outcome the collaboration has not had (a draft saying "blocked" would
 * read as blocked); a blocked one gives the reason its `blocked` event stated.
 */
function formatOutcome(s: Snapshot, label: (name: string) => string, p: Paint): string[] {
  const blocked = blockingEvent(s);
  if (blocked) return [`${label('outcome')}${p.red('blocked')}: ${terminalSafe(blocked.summary)}${p.dim(` (${terminalSafe(blocked.from)}, seq ${terminalSafe(blocked.seq)})`)}`];
  if (s.phase === 'completed') return s.outcome ? [`${label('outcome')}${terminalSafe(s.outcome.status)}: ${terminalSafe(s.outcome.text)}`] : [];
  const draft = shownDraft(s);
  return [`${label('outcome')}not concluded yet${draft ? p.dim(` (draft in conclusion.md: ${terminalSafe(draft.status)}: ${terminalSafe(draft.text)})`) : ''}`];
}

function formatDeliverable(d: DeliverableView, p: Paint): string[] {
  const head = `${p.dim(`${d.role} deliverable:`)} ${terminalSafe(d.ref)}${d.type ? p.dim(` (${terminalSafe(d.type)})`) : ''}`;
  if (d.problem) return [head, `  ${p.red(terminalSafe(d.problem))}`];
  if (!d.exists) return [head, `  ${p.red('missing')}`];
  const parts = [`status ${terminalSafe(d.status ?? 'none')}`];
  if (d.frozen) {
    parts.push(`frozen at seq ${terminalSafe(d.frozen.seq)}, sha256 ${terminalSafe(d.frozen.sha256)}`);
    parts.push(d.matches ? p.green('file matches') : p.red(`file changed since the freeze (now ${d.sha256})`));
  } else parts.push(`not frozen (sha256 now ${d.sha256})`);
  return [head, `  ${parts.join('; ')}`];
}

/** One event on one line: time, seq, from, event, phase after it, summary. */
export function formatEvent(event: Record<string, unknown>, phase: string | null, p: Paint): string {
  const at = terminalSafe(event.at);
  const seq = `seq ${terminalSafe(event.seq)}`;
  // Padded to the longest participant id in common use and the longest event and phase names.
  const from = terminalSafe(event.from).padEnd(10);
  const name = terminalSafe(event.event).padEnd(19);
  const after = `→ ${phase ?? 'none'}`.padEnd(17);
  return `${p.dim(at)}  ${p.bold(seq.padEnd(7))}  ${p.magenta(from)}  ${name}  ${p.cyan(after)}  ${terminalSafe(event.summary)}`;
}

function formatVerdict(s: Snapshot, p: Paint): string[] {
  const { errors, warnings } = s.validation;
  const head = p.dim('validate:'.padEnd(14));
  const signing = s.validation.signing ? [`${p.dim('signing:'.padEnd(14))}${describeSigning(s.validation.signing)}`] : [];
  if (errors.length) return [...signing, `${head}${p.red(`failed (${errors.length} error${errors.length === 1 ? '' : 's'})`)}`, ...errors.map((e) => `  ERROR: ${terminalSafe(e)}`), ...warnings.map((w) => `  WARNING: ${terminalSafe(w)}`)];
  if (warnings.length) return [...signing, `${head}${p.yellow('passed with warnings')}`, ...warnings.map((w) => `  WARNING: ${terminalSafe(w)}`)];
  return [...signing, `${head}${p.green('passed')}`];
}
