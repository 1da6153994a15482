/**
 * `acp log --folder F [--follow] [--since SEQ] [--json]`: the timeline, one
 * line per event (time, seq, from, event, phase after it, summary); `--json`
 * prints the events themselves as JSON lines. `--follow` keeps printing new
 * events as they land, woken by the same follower as `acp wait`
 * (file-system notifications, a poll as fallback), and stops once the
 * collaboration is completed or blocked (exit 0), or on Ctrl-C or SIGTERM
 * (exit 130 or 143).
 * @module
 */
import { join } from 'node:path';
import type { LogOptions } from './options.ts';
import type { HumansContext } from './context.ts';
import { readText } from './snapshot.ts';
import { formatEvent } from './status.ts';
import { paint, terminalSafe } from './text.ts';

type Json = Record<string, unknown>;

/** The follower's fallback poll period (as `wait`'s default). */
const POLL_MS = 2000;

/** Run `acp log`; returns the exit code (1 when the log has unreadable lines). */
export async function runLog(ctx: HumansContext<LogOptions>): Promise<number> {
  const { api, host } = ctx;
  const folder = ctx.folder();
  const since = ctx.options.since;
  const follow = ctx.options.follow === true;
  const p = await paint(ctx.color);
  const protocol = await api.readProtocol(host, folder);
  const participants = api.participantIds(protocol);
  const readiness = api.readReadiness(await readText(ctx, folder, 'readiness.md'));
  const state = api.emptyState();
  let seen = 0;
  let errorsSeen = 0;
  /** Print the events and errors not printed yet; true once the collaboration has ended. */
  const show = (events: Json[], errors: string[]): boolean => {
    if (events.length < seen) {
      ctx.err(`warning: events.jsonl was rewritten (${events.length} events, ${seen} before); following from its end`);
      seen = events.length;
    }
    for (const event of events.slice(seen)) {
      api.applyEvent(state, event, participants, readiness);
      if (since !== undefined && !(typeof event.seq === 'number' && event.seq > since)) continue;
      ctx.out(ctx.json ? JSON.stringify(event) : formatEvent(event, state.phase, p));
    }
    seen = events.length;
    for (const error of errors.slice(errorsSeen)) ctx.err(`warning: ${terminalSafe(error)}`);
    errorsSeen = Math.max(errorsSeen, errors.length);
    return state.phase === 'completed' || state.phase === 'blocked';
  };
  if (!follow) {
    const log = await api.readEventLog(host, folder);
    show(log.events, log.errors);
    return log.errors.length ? 1 : 0;
  }
  const follower = api.followFolder(host, folder, ctx.signal);
  try {
    for (;;) {
      follower.settle();
      const log = await readCompleteLines(ctx, folder);
      if (show(log.events, log.errors)) return errorsSeen ? 1 : 0;
      // Stopped by Ctrl-C or a kill: the abort's exit code (130; 143 for SIGTERM at the process edge), as the README promises.
      if (ctx.signal.aborted) throw new api.AcpAbortError();
      await follower.next(POLL_MS);
    }
  } finally {
    follower.close();
  }
}

/**
 * The events of events.jsonl's complete lines. A follower reads while others
 * append: a line being written is left for the next wake-up instead of being
 * reported as invalid.
 */
async function readCompleteLines(ctx: HumansContext, folder: string): Promise<{ events: Json[]; errors: string[] }> {
  let bytes: Uint8Array;
  try {
    bytes = await ctx.host.fs.readFile(join(folder, 'events.jsonl'));
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return { events: [], errors: [] };
    throw error;
  }
  const end = bytes.lastIndexOf(0x0a) + 1;
  const { events, errors } = ctx.api.parseEventLog(ctx.api.decodeText(bytes.subarray(0, end), 'events.jsonl'));
  return { events, errors };
}
