/**
 * `doctor --git`: the git state of a git-backed folder — the remote
 * reachable, unpushed event commits, a diverged branch, and an events.jsonl
 * whose history is not append-only (a commit that changed or removed lines).
 * Read-only: `--fix` never touches git.
 * @module
 */
import type { CommandContext, CommandResult } from '../../acp.ts';
import type { Json } from '../../runtime/util.ts';
import type { GitSettings } from './config.ts';
import { ACP_SUBJECT_RE, divergence, fetch, openRepo, type Repo } from './repo.ts';

interface Finding {
  check: 'git';
  status: 'ok' | 'problem' | 'note';
  message: string;
  fixable: false;
}

/** Add the git findings to doctor's result (printed after its report, same line format). */
export async function gitDoctor(ctx: CommandContext, settings: GitSettings, result: CommandResult): Promise<CommandResult> {
  const findings: Finding[] = [];
  const add = (status: Finding['status'], message: string): void => void findings.push({ check: 'git', status, message, fixable: false });
  try {
    const repo = await openRepo(ctx, settings, ctx.folder());
    await gitFindings(repo, add);
  } catch (error) {
    if (!(error instanceof ctx.api.AcpError)) throw error;
    add('problem', error.message.replace(/^git: /, ''));
  }
  if (!ctx.json) {
    for (const f of findings) ctx.out(`${f.status === 'ok' ? 'ok' : f.status === 'note' ? 'note' : 'PROBLEM'}: git: ${f.message}`);
  }
  const problems = findings.filter((f) => f.status === 'problem').length;
  if (!problems) return result;
  if (!ctx.json) ctx.out(`doctor: git: ${problems} problem${problems > 1 ? 's' : ''} need${problems > 1 ? '' : 's'} a person (doctor never rewrites git history)`);
  const json = (result.json ?? {}) as Record<string, Json>;
  const previous = Array.isArray(json.findings) ? json.findings : [];
  const exitCode = Math.max(result.exitCode, 1);
  return { exitCode, json: { ...json, ok: false, healthy: false, exitCode, findings: [...previous, ...(findings as unknown as Json[])] } };
}

async function gitFindings(repo: Repo, add: (status: Finding['status'], message: string) => void): Promise<void> {
  await fetch(repo);
  const { ahead, behind, remoteExists } = await divergence(repo);
  const where = `${repo.settings.remote}/${repo.branch}`;
  if (!remoteExists) add('problem', `the remote has no branch '${repo.branch}' yet (push the folder first)`);
  const events = ahead.filter((c) => ACP_SUBJECT_RE.test(c.subject));
  const foreign = ahead.length - events.length;
  if (ahead.length && behind) add('problem', `diverged from ${where}: ${ahead.length} local commit(s) (${events.length} acp event(s)) and ${behind} remote commit(s)`);
  else if (events.length) add('problem', `${events.length} event commit(s) not pushed to ${where} (${events.map((c) => c.subject.slice(5)).join(', ')}); the next append --git pushes them`);
  if (foreign && !behind) add('note', `${foreign} unpushed commit(s) that are not acp events; append --git refuses until they are pushed or removed`);
  if (remoteExists && !ahead.length && behind) add('note', `${behind} remote commit(s) not merged yet (the next append or wait --git fast-forwards)`);
  if (remoteExists && !ahead.length && !behind) add('ok', `in step with ${where}`);
  const rewrites = await logRewrites(repo, remoteExists);
  const dropped = await droppedFromRemote(repo);
  if (rewrites.length) add('problem', `events.jsonl history is not append-only: ${rewrites.join(', ')} changed or removed lines`);
  if (dropped.length) {
    const events = dropped.filter((c) => ACP_SUBJECT_RE.test(c.subject)).map((c) => c.subject.slice(5));
    add('problem', `${where} was rewritten (force-pushed): ${dropped.length} commit(s) it had are gone from it${events.length ? `, with the events ${events.join(', ')}` : ''}; events.jsonl history is not append-only`);
  }
  if (!rewrites.length && !dropped.length) add('ok', 'events.jsonl history is append-only');
}

/**
 * Commits the remote branch had (as this clone fetched it, in the
 * remote-tracking ref's reflog) that it no longer has: a force-push rewrote
 * its history. Only the last 100 fetches are looked at.
 */
async function droppedFromRemote(repo: Repo): Promise<{ hash: string; subject: string }[]> {
  const reflog = await repo.git(['reflog', 'show', '--format=%H', '-n', '100', repo.remoteRef, '--'], true);
  const previous = [...new Set(reflog.stdout.split('\n').filter(Boolean))];
  if (reflog.code !== 0 || previous.length < 2) return [];
  const gone = await repo.git(['log', '--format=%H %s', ...previous, '--not', repo.remoteRef, '--']);
  return gone.stdout.split('\n').filter(Boolean).map((line) => ({ hash: line.slice(0, 40), subject: line.slice(41) }));
}

/** Commits (short hash) whose change to events.jsonl deleted lines, on the local branch's history and the remote's. */
async function logRewrites(repo: Repo, remoteExists: boolean): Promise<string[]> {
  const heads = ['HEAD', ...(remoteExists ? [repo.remoteRef] : [])];
  const log = await repo.git(['log', '--format=@%h', '--numstat', '--no-renames', ...heads, '--', `:(top,literal)${repo.prefix}events.jsonl`]);
  const bad: string[] = [];
  let commit = '';
  for (const line of log.stdout.split('\n')) {
    if (line.startsWith('@')) commit = line.slice(1);
    else {
      const [, deleted] = line.split('\t');
      if (deleted !== undefined && deleted !== '0') bad.push(commit);
    }
  }
  return bad;
}
