/**
 * Next action and waiting (spec §10): what a participant should do now,
 * and waiting for their turn by following the folder through its store.
 * @module
 */
import * as nodePath from 'node:path';
import { DEFAULT_WAIT_INTERVAL_SECONDS, DEFAULT_WAIT_TIMEOUT_SECONDS } from './constants.ts';
import { conclusionErrors } from './documents.ts';
import { AcpAbortError, AcpError, AcpTimeoutError } from './errors.ts';
import { scanEventLog } from './event-log.ts';
import { documentFiles, participantIds, primaryRef, readProtocol } from './folder.ts';
import type { Host } from './host.ts';
import { pyRepr, pyStr } from './pytext.ts';
import { openStore } from './store.ts';
import type { FolderFollower, Json, NextResult, Registry, Turn, WaitOptions, WaitResult } from './types.ts';
import { sleep } from './util.ts';
import { readEventLogSettled } from './event-log.ts';
import { readReadinessFile, readTextIfExists } from './folder.ts';
import { TurnTracker, appendInFlight, readTurn, staleNote } from './turn.ts';

/** Compute the next action for `participant` (spec §10). */
export async function nextAction(host: Host, folder: string, participant: string, registry?: Registry): Promise<NextResult> {
  const protocol = await readProtocol(host, folder);
  if (!participantIds(protocol).includes(participant)) throw new AcpError(`participant ${pyRepr(participant)} is not listed in protocol.json`, 2, 'unknown_participant');
  const log = await readEventLogSettled(host, folder);
  if (log.errors.length) throw new AcpError(log.errors, 2, 'invalid_log');
  return describeTurn(host, folder, protocol, log.events, participant, await readTurn(host, folder, protocol, log), registry);
}

/** The next action for `participant` on `turn` (spec §10), the `next` hooks' hints included. */
async function describeTurn(host: Host, folder: string, protocol: Json, events: Json[], participant: string, turn: Turn, registry?: Registry): Promise<NextResult> {
  const phase = pyStr(turn.phase);
  const owner = pyStr(turn.proposalOwner);
  const waiting = turn.waitingFor;
  const isWaiting = waiting.includes(participant);
  const latest = (names: string[]): Json | undefined => [...events].reverse().find((e) => names.includes(e.event as string));
  let action: string;
  let exitCode = 0;
  switch (turn.phase) {
    case 'drafting':
      action = isWaiting
        ? 'draft the primary deliverable, append deliverable_drafted, update proposal.md, then append proposal_submitted.'
        : 'wait for the proposal owner to submit the proposal.';
      break;
    case 'reviewing': {
      const proposal = latest(['proposal_submitted']) ?? latest(['proposal_revised']);
      // No proposal event (a hand-edited phase): the Python tools do not ask for a review then.
      if (isWaiting && proposal !== undefined && proposal.from !== participant) action = 'review proposal.md and the primary deliverable, update review.md with Review Scope, then append review_submitted.';
      else if (participant === turn.proposalOwner) action = 'wait for the listed reviewer(s); do not edit proposal.md or deliverables while reviewing unless blocking the collaboration.';
      else action = 'wait for the listed reviewer(s) to submit review_submitted or blocked.';
      break;
    }
    case 'revising': {
      const review = latest(['review_submitted']);
      action =
        isWaiting && review && review.from !== participant
          ? 'revise proposal.md and deliverables as needed, append deliverable_revised if the deliverable changed, then append proposal_revised.'
          : 'wait for the proposal owner to revise.';
      break;
    }
    case 'decision_review':
      action =
        isWaiting && !events.some((e) => e.event === 'decision_accepted' && e.from === participant)
          ? 'review decisions.md and append decision_accepted only if decisions are explicit.'
          : 'wait for remaining participants to accept decisions.';
      break;
    case 'readiness_check': {
      const readiness = await readReadinessFile(host, folder);
      const conclusion = (await readTextIfExists(host, nodePath.join(folder, 'conclusion.md'), 'conclusion.md')) ?? '';
      if (readiness.blocking.length || readiness.unresolved.length || readiness.deferredWithoutReason.length) {
        action = 'classify readiness.md questions and clear blockers before readiness_passed.';
      } else if (!readiness.readyToImplement) action = 'complete the final design checklist in readiness.md.';
      else if (!events.some((e) => e.event === 'readiness_passed')) action = 'run validate_collaboration.py, then append readiness_passed.';
      else if (!events.some((e) => e.event === 'deliverable_frozen' && e.role === 'primary')) {
        action = 'freeze the primary deliverable with deliverable_frozen, run validate_collaboration.py, then append readiness_passed.';
      } else if (conclusionErrors(conclusion, primaryRef(protocol)).length) {
        action = 'write conclusion.md with the final outcome, deliverable receipt, readiness result, and next action.';
      } else action = 'run validate_collaboration.py, then append completed with doc=conclusion.md.';
      break;
    }
    case 'completed':
      action = 'stop; collaboration is complete.';
      break;
    case 'blocked':
      action = 'resolve the blocker or start a new collaboration round.';
      break;
    default:
      action = 'run validate_collaboration.py; current phase is invalid.';
      exitCode = 1;
  }
  const last = events.at(-1);
  const result: NextResult = { phase, proposalOwner: owner, waitingFor: waiting, action, exitCode };
  if (last) result.lastEvent = { seq: last.seq, event: last.event, from: last.from };
  const note = staleNote(turn);
  if (note && !(await appendInFlight(host, folder, turn))) result.note = note;
  if (registry?.hooks.has('next')) {
    const hints: string[] = [];
    await registry.hooks.call('next', { folder, files: documentFiles(host, folder, protocol), participant, result, hints });
    if (hints.length) (result as NextResult & { hints?: string[] }).hints = hints;
  }
  return result;
}

/** Format a {@link NextResult} as the CLI prints it. */
export function formatNext(result: NextResult & { hints?: string[] }): string {
  const lines = [`phase: ${result.phase}`, `proposal owner: ${result.proposalOwner}`, `waiting for: ${result.waitingFor.length ? result.waitingFor.join(', ') : 'none'}`];
  if (result.lastEvent) lines.push(`last event: seq ${pyStr(result.lastEvent.seq)} ${pyStr(result.lastEvent.event)} from ${pyStr(result.lastEvent.from)}`);
  lines.push(`next action: ${result.action}`);
  for (const hint of result.hints ?? []) lines.push(`hint: ${hint}`);
  return lines.join('\n');
}

/**
 * Follow a folder's changes: file-system notifications where the host has
 * them, a poll every `ms` of {@link FolderFollower.next} otherwise. `wait`
 * and `acp log --follow` use it, so an idle follower uses no CPU and a
 * handoff is seen within milliseconds.
 */
export function followFolder(host: Host, folder: string, signal?: AbortSignal): FolderFollower {
  let wake: (() => void) | undefined;
  let pending = false;
  const notify = (): void => {
    pending = true;
    wake?.();
  };
  const stopWatching = host.fs.watch?.(folder, notify) ?? (() => undefined);
  signal?.addEventListener('abort', notify);
  return {
    wake: notify,
    settle: () => void (pending = false),
    next: (ms) =>
      pending || signal?.aborted
        ? Promise.resolve(true)
        : new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => done(false), ms);
            function done(changed: boolean): void {
              clearTimeout(timer);
              wake = undefined;
              resolve(changed);
            }
            wake = () => done(true);
          }),
    close: () => {
      stopWatching();
      signal?.removeEventListener('abort', notify);
      // A wait still pending ends now rather than holding its timer.
      wake?.();
    },
  };
}

/** How long `wait` tolerates a folder caught mid-write by a non-atomic writer. */
const UNREADABLE_GRACE_MS = 2000;

/**
 * Wait until `participant` is listed in waitingFor or the phase is
 * completed/blocked (spec §10). Woken by file-system notifications, with a
 * poll every `intervalSeconds` as the fallback; a store that follows others
 * (git) keeps the folder up to date meanwhile. The turn is every door's
 * (runtime/turn.ts): the log's when protocol.json was left behind by an append.
 */
export async function waitForTurn(host: Host, folder: string, participant: string, options: WaitOptions = {}, registry?: Registry): Promise<WaitResult> {
  // An infinite interval polls never (file-change notifications still wake the wait): a timer past 2^31 - 1 ms would fire at once.
  const intervalMs = Math.min(2 ** 31 - 1, Math.max(0.01, options.intervalSeconds ?? DEFAULT_WAIT_INTERVAL_SECONDS) * 1000);
  const timeoutSeconds = options.timeoutSeconds ?? DEFAULT_WAIT_TIMEOUT_SECONDS;
  // Python's `if args.timeout and elapsed >= args.timeout`: 0 waits forever, a negative timeout is already over.
  const deadline = timeoutSeconds !== 0 ? host.now().getTime() + timeoutSeconds * 1000 : Infinity;
  const follower = followFolder(host, folder, options.signal);
  let failure: AcpError | undefined;
  let stopFollowing = (): void => undefined;
  let lastReport = '';
  try {
    const store = options.store ?? (await openStore(host, folder, registry));
    if (store.follow) {
      const following = store.follow(folder, { signal: options.signal, changed: follower.wake, failed: (error) => ((failure = error), follower.wake()), note: options.onProgress });
      stopFollowing = await untilDeadline(following, deadline - host.now().getTime(), options.signal, `timeout: the ${store.name} store did not bring ${folder} up to date in time`);
    }
    // A store that follows a remote (git) puts each file it brings in place by rename: no read here sees one missing or half-written.
    const read = folderReader(host, folder, participant);
    for (;;) {
      if (options.signal?.aborted) throw new AcpAbortError();
      if (failure) throw failure;
      follower.settle();
      const seen = await read();
      if (!seen) continue;
      const { turn, last } = seen;
      let reason: string | undefined;
      if (turn.waitingFor.includes(participant)) reason = `ready: ${participant} is listed in waitingFor`;
      else if (turn.phase === 'completed' || turn.phase === 'blocked') reason = `ready: phase is ${pyStr(turn.phase)}`;
      if (reason) return { reason, next: await nextAction(host, folder, participant, registry) };
      const report = `waiting for ${turn.waitingFor.length ? turn.waitingFor.join(', ') : 'none'}${last ? ` after seq ${pyStr(last.seq)}` : ''}`;
      if (report !== lastReport) {
        options.onProgress?.(`waiting: ${report}`);
        lastReport = report;
      }
      const remaining = deadline - host.now().getTime();
      if (remaining <= 0) throw new AcpTimeoutError(`timeout: ${report}`);
      await follower.next(Math.min(intervalMs, remaining));
    }
  } finally {
    stopFollowing();
    follower.close();
  }
}

/**
 * The waiter's reads of a folder: protocol.json and the turn. The log is
 * parsed again only when its size, times or inode changed (a long log would
 * cost an idle waiter CPU on every wake-up), following it event by event.
 * Hosts that cannot tell (no inode) re-read each time. Resolves undefined
 * when a folder readable before is caught mid-write by a tool that writes
 * in place (the Python tools rewrite protocol.json with `write_text`: try
 * again), for a grace period.
 */
function folderReader(host: Host, folder: string, participant: string): () => Promise<{ turn: Turn; last: Json | undefined } | undefined> {
  let cache: { key: string; errors: string[]; tracker: TurnTracker; last: Json | undefined } | undefined;
  let everRead = false;
  let unreadableSince: number | undefined;
  return async () => {
    try {
      const protocol = await readProtocol(host, folder);
      const participants = participantIds(protocol);
      if (!participants.includes(participant)) throw new AcpError(`participant ${pyRepr(participant)} is not listed in protocol.json`, 2, 'unknown_participant');
      const st = await host.fs.stat(nodePath.join(folder, 'events.jsonl'));
      const key = !st ? 'missing' : st.ino !== undefined && st.ctimeMs !== undefined ? `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}` : undefined;
      if (key === undefined || cache?.key !== key) {
        const tracker = new TurnTracker(participants);
        let last: Json | undefined;
        const read = await scanEventLog(host, folder, (event) => {
          tracker.add(event);
          last = event;
        });
        cache = { key: key ?? '', errors: read.errors, tracker, last };
      }
      if (cache.errors.length) throw new AcpError(cache.errors, 2, 'invalid_log');
      everRead = true;
      unreadableSince = undefined;
      return { turn: cache.tracker.turn(protocol), last: cache.last };
    } catch (error) {
      if (!(error instanceof AcpError) || !everRead) throw error;
      unreadableSince ??= host.now().getTime();
      if (host.now().getTime() - unreadableSince > UNREADABLE_GRACE_MS) throw error;
      await sleep(25);
      return undefined;
    }
  };
}

/** `promise`, or a timeout error once `ms` ran out (an abort ends it too); a value that arrives late is a stop function, called. */
async function untilDeadline(promise: Promise<() => void>, ms: number, signal: AbortSignal | undefined, message: string): Promise<() => void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let late = false;
  let onAbort = (): void => undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        // Past 2^31 - 1 ms a timer fires at once (Node and Bun clamp it to 1 ms): a deadline that far is no deadline.
        if (Number.isFinite(ms) && ms <= 2 ** 31 - 1) timer = setTimeout(() => reject(new AcpTimeoutError(message)), Math.max(0, ms));
        onAbort = () => reject(new AcpAbortError());
        if (signal?.aborted) onAbort();
        signal?.addEventListener('abort', onAbort);
      }),
    ]);
  } catch (error) {
    late = true;
    throw error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    if (late) void promise.then((stop) => stop(), () => undefined);
  }
}
