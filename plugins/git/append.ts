/**
 * `append --git`: an optimistic transaction. Fetch and fast-forward, append
 * (the library's checks, under the folder lock), commit exactly the event
 * and the documents it names, push. A rejected push (another clone pushed
 * first) drops the unpushed commit, keeps the document edits, and runs the
 * whole append again against the new log — so a turn that moved is refused
 * exactly as a local append would refuse it. Never a force-push.
 * @module
 */
import { relative as relativePath } from 'node:path';
import type { AppendRequest, AppendResult, CommandContext, CommandResult } from '../../acp.ts';
import type { Json } from '../../runtime/util.ts';
import type { GitSettings } from './config.ts';
import { backOff, folderChanges, openRepo, push, type Repo, RETRY_BUDGET_MS, syncToRemote } from './repo.ts';
import { recordSlot, waitForTurnInLine } from './order.ts';
import { appendRequest } from '../protocol.ts';

/** Documents an event speaks for besides its `doc` (what a participant edits before appending it). */
const EVENT_DOCUMENTS: Record<string, string[]> = {
  proposal_submitted: ['proposal.md'],
  proposal_revised: ['proposal.md', 'decisions.md'],
  review_submitted: ['review.md'],
  decision_proposed: ['decisions.md'],
  question_classified: ['decisions.md', 'readiness.md'],
  decision_accepted: ['decisions.md', 'readiness.md'],
  readiness_passed: ['readiness.md'],
  completed: ['conclusion.md', 'readiness.md'],
  blocked: ['conclusion.md'],
};



/** Run `append` as a git transaction (see the module comment and docs/git.md). */
export async function gitAppend(ctx: CommandContext, settings: GitSettings): Promise<CommandResult> {
  const folder = ctx.folder();
  const request = appendRequest(ctx);
  const repo = await openRepo(ctx, settings, folder);
  const protocol = await ctx.api.readProtocol(ctx.host, folder);
  const named = namedDocuments(ctx, repo, protocol, request);
  // One git transaction at a time per clone: git's index is not shared safely.
  const { result, attempts } = await ctx.api.withFolderLock(ctx.host, repo.gitDir, () => transaction(repo, request, named), { timeoutMs: 300_000 });
  const { event, state } = result;
  if (!ctx.json) ctx.out(`appended seq ${event.seq}: ${event.event}`);
  return { exitCode: 0, json: { ok: true, exitCode: 0, event: event as unknown as Json, phase: state.phase, waitingFor: state.waitingFor, git: { attempts } } };
}

/** The documents the event names, as paths relative to the work tree's top. */
function namedDocuments(ctx: CommandContext, repo: Repo, protocol: Json, request: AppendRequest): Set<string> {
  const refs = [...(EVENT_DOCUMENTS[request.event] ?? [])];
  const named = new Set(refs.map((ref) => repo.prefix + ref));
  if (request.doc !== undefined && !ctx.api.isUnsafePath(request.doc)) {
    const resolved = ctx.api.resolveDeliverablePath(repo.folder, protocol, request.doc) ?? `${repo.folder}/${request.doc}`;
    named.add(topRelative(repo, resolved));
  }
  return named;
}

function topRelative(repo: Repo, absolute: string): string {
  if (absolute.startsWith(`${repo.folder}/`)) return repo.prefix + absolute.slice(repo.folder.length + 1);
  // A deliverable outside the folder (external mode): relative to the work tree's top.
  return relativePath(repo.top, absolute);
}

async function transaction(repo: Repo, request: AppendRequest, named: Set<string>): Promise<{ result: AppendResult; attempts: number }> {
  const { ctx, settings } = repo;
  const begun = Date.now();
  let waitedAt: string | undefined;
  for (let attempt = 1; ; ) {
    const started = Date.now();
    const { unpushed } = await syncToRemote(repo);
    // acp commits left unpushed by an interrupted run go out first: they are events others have not seen.
    if (unpushed && (await push(repo)) === 'rejected') continue;
    const base = (await repo.git(['rev-parse', 'HEAD'])).stdout.trim();
    // The ordering hint (order.ts), once per remote state: then fetch again, fresh.
    if (base !== waitedAt && Date.now() - begun < RETRY_BUDGET_MS) {
      waitedAt = base;
      if (await waitForTurnInLine(repo, request.participant)) continue;
    }
    const changes = await folderChanges(repo);
    const stray = changes.filter((p) => !named.has(p));
    if (stray.length) throw new ctx.api.AcpError(`git: the folder has changes this event does not name: ${stray.join(', ')} (commit, stash or discard them first)`);
    const edits = await saveEdits(repo, changes);
    const { result, afterFailure } = await appendAndCommit(repo, request, changes);
    const pushed = await push(repo).catch(async (error: unknown) => {
      await undo(repo, base, edits);
      throw error;
    });
    await recordSlot(repo, Date.now() - started);
    if (pushed === 'ok') {
      if (afterFailure) throw afterFailure;
      return { result, attempts: attempt };
    }
    await undo(repo, base, edits);
    if (attempt >= settings.attempts || Date.now() - begun > RETRY_BUDGET_MS) {
      const seconds = Math.round((Date.now() - begun) / 1000);
      throw new ctx.api.AcpError(`git: the push was rejected ${attempt} times in ${seconds} s (other clones kept pushing first); nothing was appended, your document edits are kept; try again`);
    }
    attempt++;
    await backOff(attempt);
  }
}

/** The library's append, then a commit of exactly the event and the changed named documents. */
async function appendAndCommit(repo: Repo, request: AppendRequest, changes: string[]): Promise<{ result: AppendResult; afterFailure: unknown }> {
  const { ctx } = repo;
  let result: AppendResult;
  let afterFailure: unknown;
  try {
    result = await ctx.api.append(ctx.host, repo.folder, request, ctx.registry);
  } catch (error) {
    // A failed append:after hook: the event is written, so it travels; the failure is reported after the push.
    if (!(error instanceof ctx.api.AcpAppendedError)) throw error;
    result = error.appended;
    afterFailure = error;
  }
  const paths = [`${repo.prefix}events.jsonl`, `${repo.prefix}protocol.json`, ...changes];
  await repo.git(['add', '-A', '--', ...paths.map(top)]);
  await repo.git(['commit', '--quiet', '--no-verify', '-m', `acp: seq ${result.event.seq} ${result.event.event} by ${result.event.from}`, '--', ...paths.map(top)]);
  return { result, afterFailure };
}

/** A top-relative pathspec, so git reads it the same whatever the working directory. */
const top = (path: string): string => `:(top,literal)${path}`;


/** The named documents' current contents (null: deleted), to restore after dropping an unpushed commit. */
async function saveEdits(repo: Repo, changes: string[]): Promise<Map<string, Uint8Array | null>> {
  const { host } = repo.ctx;
  const root = repo.top;
  const edits = new Map<string, Uint8Array | null>();
  for (const path of changes) edits.set(`${root}/${path}`, await host.fs.readFile(`${root}/${path}`).catch(() => null));
  return edits;
}

/** Drop the unpushed commit (back to `base`) and put the document edits back in the working tree. */
async function undo(repo: Repo, base: string, edits: Map<string, Uint8Array | null>): Promise<void> {
  await repo.git(['reset', '--hard', '--quiet', base]);
  for (const [path, bytes] of edits) {
    if (bytes === null) await repo.ctx.host.fs.remove(path).catch(() => undefined);
    else await repo.ctx.host.fs.writeFile(path, bytes);
  }
}
