/**
 * `doctor --git`: the git state of a git-backed folder — the remote
 * reachable, a push whose outcome an earlier run could not confirm, log
 * lines on no remote (an append cut short before its push), a remote that
 * was force-pushed under the folder, the clone's own commits, and an
 * events.jsonl whose history is not append-only. Each problem names the
 * command that repairs it; `--fix` repairs what loses nothing (a pending
 * push settled by asking the remote; unpublished log lines or a rewritten
 * remote's old history kept under .git before the folder follows the
 * remote). It never rewrites a branch or pushes.
 * @module
 */
import type { AcpError, CommandContext, CommandResult } from '../../runtime/types.ts';
import type { Json } from '../../runtime/util.ts';
import type { GitSettings } from './config.ts';
import { bringFolderTo, folderBase, folderDiff, recordSynced, top, worktreeState, writeFromCommit } from './folder.ts';
import { ACP_SUBJECT_RE, fetch, isAncestor, openRepo, readRefs, type Refs, type Repo } from './repo.ts';
import { checkCheckout } from './checkout.ts';
import { logFiles, settlePending, tornTail } from './store.ts';

interface Finding {
  check: 'git';
  status: 'ok' | 'problem' | 'note';
  message: string;
  fixable: boolean;
}

type Add = (status: Finding['status'], message: string, fixable?: boolean) => void;

/** Add the git findings to doctor's result (printed after its report, same line format); with `--fix`, repair first. */
export async function gitDoctor(ctx: CommandContext, settings: GitSettings, result: CommandResult): Promise<CommandResult> {
  const fix = ctx.options.fix === true;
  const findings: Finding[] = [];
  const changes: string[] = [];
  const add: Add = (status, message, fixable = false) => void findings.push({ check: 'git', status, message, fixable });
  try {
    // The command's host is the guarded one: a repair's files are written by git in place.
    const repo = await openRepo(ctx, settings, ctx.folder(), false);
    if (fix) await ctx.api.withFolderLock(ctx.host, repo.gitDir, () => ctx.api.withFolderLock(ctx.host, repo.folder, () => repair(repo, changes)), { timeoutMs: 60_000 });
    await gitFindings(repo, add);
  } catch (error) {
    if (!(error instanceof ctx.api.AcpError)) throw error;
    add('problem', error.message.replace(/^git: /, ''));
  }
  if (!ctx.json) {
    for (const f of findings) ctx.out(`${f.status === 'ok' ? 'ok' : f.status === 'note' ? 'note' : 'PROBLEM'}: git: ${f.message}${f.fixable && !fix && f.status === 'problem' ? ' [--fix repairs this]' : ''}`);
    for (const c of changes) ctx.out(`fixed: git: ${c}`);
  }
  const problems = findings.filter((f) => f.status === 'problem');
  const json = (result.json ?? {}) as Record<string, Json>;
  const previous = Array.isArray(json.findings) ? json.findings : [];
  const previousChanges = Array.isArray(json.changes) ? json.changes : [];
  if (!problems.length) return changes.length ? { ...result, json: { ...json, changes: [...previousChanges, ...changes.map((c) => `git: ${c}`)] } } : result;
  if (!ctx.json) {
    const fixable = problems.filter((f) => f.fixable).length;
    ctx.out(`doctor: git: ${problems.length} problem${problems.length > 1 ? 's' : ''}${!fix && fixable ? `; acp doctor --git --fix repairs ${fixable} of them` : '; each names its repair'}`);
  }
  const exitCode = Math.max(result.exitCode, 1);
  return { exitCode, json: { ...json, ok: false, healthy: false, exitCode, findings: [...previous, ...(findings as unknown as Json[])], changes: [...previousChanges, ...changes.map((c) => `git: ${c}`)] } };
}

async function gitFindings(repo: Repo, add: Add): Promise<void> {
  await fetch(repo);
  const refs = await readRefs(repo);
  const { remote } = refs;
  const where = `${repo.settings.remote}/${repo.branch}`;
  if (!remote) {
    add('problem', `the remote has no branch '${repo.branch}' yet (push the folder first: acp init --git)`);
    return;
  }
  const { pending, synced } = refs;
  if (pending) {
    const subject = (await repo.git(['log', '-1', '--format=%s', pending])).stdout.trim().slice(5);
    const landed = await isAncestor(repo, pending, remote);
    add('problem', `the push of ${subject} was never confirmed (an interrupted run, or the network failed twice): it ${landed ? `is on ${where}, so it was appended` : `is not on ${where}, so it was not appended`}; the next append or wait settles it, acp doctor --git --fix does it now`, true);
  }
  const rewritten = synced !== undefined && !(await isAncestor(repo, synced, remote));
  if (rewritten) add('problem', `${where} was rewritten (force-pushed) under the folder: ${await goneEvents(repo, synced, remote)}; acp neither re-pushes nor drops them. If the rewrite was meant, acp doctor --git --fix makes the folder follow ${where} (the old history is kept as ${backupRef(repo)}); if not, push it back with git push --force-with-lease ${repo.settings.remote} ${synced}:refs/heads/${repo.branch}`, true);
  if (!rewritten && !pending) await folderFindings(repo, { ...refs, remote }, add);
  await headFindings(repo, remote, add);
  await historyFindings(repo, remote, add);
}

/** The folder against its synced commit and the remote: unpublished log lines, edits, how far behind. */
async function folderFindings(repo: Repo, refs: Refs & { remote: string }, add: Add): Promise<void> {
  const where = `${repo.settings.remote}/${repo.branch}`;
  const { remote } = refs;
  try {
    await checkCheckout(repo, refs);
  } catch (error) {
    const code = (error as AcpError).code;
    if (code !== 'git_checkout' && code !== 'git_unappended') throw error;
    add('problem', (error as Error).message.replace(/^git: /, '').replace('; nothing was done: ', ': ').replace(/, then run the command again.*$/, ''), code === 'git_unappended');
    return;
  }
  const base = folderBase(repo, refs);
  const state = await worktreeState(repo, base);
  const differs = new Set((await folderDiff(repo, state.tree, remote)).map((d) => d.path));
  const edits = state.edits.filter((p) => differs.has(p));
  const log = logFiles(repo).filter((p) => edits.includes(p));
  const cause = (await tornTail(repo)) ? 'events.jsonl ends in a torn line: a writer was interrupted in the middle of an append' : 'an append cut short before its push, or one made without --git';
  if (log.length) add('problem', `${log.join(' and ')} ${log.length > 1 ? 'hold' : 'holds'} changes on no remote, with no push pending (${cause}): they were never appended; acp doctor --git --fix puts the folder back as ${where} has it (a copy goes to .git/acp-backup/)`, true);
  const stale = await staleCopies(repo, remote, edits.filter((p) => !log.includes(p)));
  if (stale.length) add('problem', `${stale.join(', ')} ${stale.length > 1 ? 'are' : 'is'} as an older commit of ${where} had ${stale.length > 1 ? 'them' : 'it'}, not as ${stale.length > 1 ? 'they are' : 'it is'} now: a stale copy (an editor's old buffer, a copy from an older checkout), not an edit; an append naming it would undo what was published since. acp doctor --git --fix brings ${stale.length > 1 ? 'them' : 'it'} to ${where} (a copy goes to .git/acp-backup/)`, true);
  const documents = edits.filter((p) => !log.includes(p) && !stale.includes(p));
  if (documents.length) add('note', `changed in the folder and not on ${where}: ${documents.join(', ')} (an append whose event names them publishes them; any other append is refused until they are committed, stashed or removed)`);
  const behind = base === remote ? 0 : Number((await repo.git(['rev-list', '--count', `${base ?? remote}..${remote}`])).stdout.trim());
  if (behind) add('note', `the folder is ${behind} commit(s) behind ${where} (the next append or wait brings it up)`);
  if (!log.length && !behind) add('ok', `the folder is in step with ${where}`);
}

/** The clone's own branch: commits on no remote are the user's; acp commits among them were never appended. */
async function headFindings(repo: Repo, remote: string, add: Add): Promise<void> {
  if (!repo.attached) {
    add('note', `HEAD is not on '${repo.branch}': the folder's files follow ${repo.settings.remote}/${repo.branch}, the rest of the work tree is left alone`);
    return;
  }
  const log = await repo.git(['log', '--format=%H %s', remote ? `${remote}..HEAD` : 'HEAD', '--'], { allowFail: true });
  const ahead = log.stdout.split('\n').filter(Boolean).map((line) => ({ hash: line.slice(0, 40), subject: line.slice(41) }));
  const dropped = new Set((await droppedFromRemote(repo, remote)).map((c) => c.hash));
  const events = ahead.filter((c) => ACP_SUBJECT_RE.test(c.subject) && !dropped.has(c.hash));
  const forced = ahead.filter((c) => dropped.has(c.hash));
  if (events.length) {
    add('note', `${events.length} acp commit(s) on ${repo.branch} are not on the remote (${events.map((c) => c.subject.slice(5)).join(', ')}): they were never appended and acp will not push them; to drop them: git reset --keep ${repo.settings.remote}/${repo.branch}`);
  }
  if (forced.length) add('note', `${forced.length} commit(s) on ${repo.branch} were on ${repo.settings.remote}/${repo.branch} until a force-push dropped them (${forced.map((c) => c.subject).join(', ')}); acp doctor --git --fix takes acp's off HEAD, keeping them as ${backupRef(repo)}`);
  if (ahead.length > events.length + forced.length) add('note', `${ahead.length - events.length - forced.length} commit(s) of your own on ${repo.branch}, not pushed: acp leaves them alone`);
}

/** Whether events.jsonl's history, local and remote, is append-only, and whether the remote was force-pushed. */
async function historyFindings(repo: Repo, remote: string, add: Add): Promise<void> {
  const where = `${repo.settings.remote}/${repo.branch}`;
  const rewrites = await logRewrites(repo);
  const dropped = await droppedFromRemote(repo, remote);
  if (rewrites.length) add('problem', `events.jsonl history is not append-only: ${rewrites.join(', ')} changed or removed lines (needs a person: events are never edited)`);
  if (dropped.length) {
    const events = dropped.filter((c) => ACP_SUBJECT_RE.test(c.subject)).map((c) => c.subject.slice(5));
    add('problem', `${where} was rewritten (force-pushed): ${dropped.length} commit(s) it had are gone from it${events.length ? `, with the events ${events.join(', ')}` : ''}; events.jsonl history is not append-only`);
  }
  if (!rewrites.length && !dropped.length) add('ok', 'events.jsonl history is append-only');
}

async function goneEvents(repo: Repo, synced: string, remote: string): Promise<string> {
  const gone = (await repo.git(['log', '--format=%s', synced, '--not', remote, '--'])).stdout.split('\n').filter(Boolean);
  const events = gone.filter((s) => ACP_SUBJECT_RE.test(s)).map((s) => s.slice(5));
  return `${gone.length} commit(s) the folder had are gone from it${events.length ? ` (${events.join(', ')})` : ''}`;
}

const backupRef = (repo: Repo): string => repo.backupRef;

/**
 * `--fix`: settle a pending push; follow a rewritten remote, keeping the
 * old history as a ref; put unpublished log lines aside (a copy under
 * .git/acp-backup/) and the log back as the remote has it. Edits of
 * documents stay; a conflict with the remote is left for a person.
 */
async function repair(repo: Repo, changes: string[]): Promise<void> {
  await fetch(repo);
  const { remote } = await readRefs(repo);
  if (!remote) return;
  await settlePending(repo, (line) => changes.push(line.replace(/^git: /, '')));
  await moveBackupsOut(repo, changes);
  await dropRewritten(repo, remote, changes);
  const refs = await readRefs(repo);
  try {
    await checkCheckout(repo, { ...refs, remote });
  } catch (error) {
    // A checkout acp must not move (the user's own commits, a rebase): the finding names the way out.
    if ((error as AcpError).code === 'git_checkout' || (error as AcpError).code === 'git_unappended') return;
    throw error;
  }
  let base = folderBase(repo, refs);
  if (base && !(await isAncestor(repo, base, remote))) {
    await repo.git(['update-ref', backupRef(repo), base]);
    changes.push(`kept the folder's history that ${repo.settings.remote}/${repo.branch} no longer has as ${backupRef(repo)} (${base.slice(0, 12)})`);
  }
  const state = await worktreeState(repo, base);
  const differs = new Set((await folderDiff(repo, state.tree, remote)).map((d) => d.path));
  const log = logFiles(repo).filter((p) => state.edits.includes(p) && differs.has(p));
  await replaceStaleCopies(repo, remote, state.edits.filter((p) => differs.has(p) && !log.includes(p)), changes);
  if (log.length) {
    const dir = await backupDir(repo);
    for (const path of log) await repo.ctx.host.fs.writeFile(`${dir}/${path.slice(path.lastIndexOf('/') + 1)}`, await repo.ctx.host.fs.readFile(`${repo.top}/${path}`));
    // Take the log back to the base: bringFolderTo then brings it to the remote.
    base = base ?? remote;
    await writeFromCommit(repo, base, log);
    changes.push(`put ${log.join(' and ')} back as ${base === remote ? 'the remote' : 'the folder\'s synced commit'} has ${log.length > 1 ? 'them' : 'it'} (the changes on no remote are kept in ${dir})`);
  }
  const after = await worktreeState(repo, base);
  const stillDiffers = new Set((await folderDiff(repo, after.tree, remote)).map((d) => d.path));
  if (base !== remote) {
    await bringFolderTo(repo, base, remote, { tree: after.tree, edits: after.edits.filter((p) => stillDiffers.has(p)) });
    changes.push(`brought the folder to ${repo.settings.remote}/${repo.branch}`);
  }
  if (base !== remote || refs.synced !== remote) await recordSynced(repo, remote, (await readRefs(repo)).head);
}

/** A new backup directory under the common `.git/acp-backup/` (never in the folder: the next append would publish it). */
async function backupDir(repo: Repo): Promise<string> {
  const stamp = repo.ctx.api.formatTimestamp(repo.ctx.host.now()).replace(/[-:]/g, '');
  const dir = `${repo.gitDir}/acp-backup/${stamp}`;
  await repo.ctx.host.fs.mkdir(dir);
  return dir;
}

/**
 * Folder paths whose work-tree content is exactly what an older commit of
 * the remote branch had, and not what it has now: stale copies (an
 * editor's old buffer, a file copied from an older checkout), which an
 * append naming them would publish as a revert of later edits.
 */
async function staleCopies(repo: Repo, remote: string, paths: string[]): Promise<string[]> {
  const stale: string[] = [];
  for (const path of paths) {
    const file = `${repo.top}/${path}`;
    if (!(await repo.ctx.host.fs.stat(file))) continue;
    const blob = (await repo.git(['hash-object', '--', file])).stdout.trim();
    // --raw lines: ":<mode> <mode> <old blob> <new blob> <status>\t<path>".
    const history = await repo.git(['log', '--raw', '--no-abbrev', '--no-renames', '--format=', remote, '--', top(path)]);
    if (history.stdout.split('\n').some((line) => line.split(' ')[3] === blob)) stale.push(path);
  }
  return stale;
}

/** `--fix` of stale copies: each goes to .git/acp-backup/, and the remote's version takes its place. */
async function replaceStaleCopies(repo: Repo, remote: string, paths: string[], changes: string[]): Promise<void> {
  const stale = await staleCopies(repo, remote, paths);
  if (!stale.length) return;
  const dir = await backupDir(repo);
  for (const path of stale) await repo.ctx.host.fs.writeFile(`${dir}/${path.slice(path.lastIndexOf('/') + 1)}`, await repo.ctx.host.fs.readFile(`${repo.top}/${path}`));
  await writeFromCommit(repo, remote, stale);
  changes.push(`brought ${stale.join(', ')} (a stale copy of an older commit) to ${repo.settings.remote}/${repo.branch} (the stale copy is kept in ${dir})`);
}

/**
 * The copies of events.jsonl that doctor's own --fix keeps in the folder
 * (`events.jsonl.torn-….bak`, `events.jsonl.at-….bak`) go to
 * .git/acp-backup/ in a git folder: in the folder, every later append
 * would be refused (a change it does not name) or publish them.
 */
async function moveBackupsOut(repo: Repo, changes: string[]): Promise<void> {
  const { fs } = repo.ctx.host;
  const names = (await fs.readDir(repo.folder)).filter((name) => /^events\.jsonl\.[a-z]+-[0-9TZ]+(-\d+)?\.bak$/.test(name));
  if (!names.length) return;
  const tracked = new Set((await repo.git(['ls-files', '-z', '--full-name', '--', ...names.map((n) => top(repo.prefix + n))])).stdout.split('\0'));
  const loose = names.filter((name) => !tracked.has(repo.prefix + name));
  if (!loose.length) return;
  const dir = await backupDir(repo);
  for (const name of loose) await fs.rename(`${repo.folder}/${name}`, `${dir}/${name}`);
  changes.push(`moved ${loose.join(', ')} out of the folder to ${dir} (a copy in the folder would stop every later append)`);
}

/**
 * HEAD on acp commits the remote no longer has (it was force-pushed after
 * acp fast-forwarded HEAD): HEAD goes back to the remote with `git reset
 * --keep` (which refuses rather than lose a local change), the old history
 * kept as the backup ref. A branch with commits of the user's own is left
 * to the user.
 */
async function dropRewritten(repo: Repo, remote: string, changes: string[]): Promise<void> {
  const { head } = await readRefs(repo);
  if (!head || (await isAncestor(repo, head, remote))) return;
  const ahead = (await repo.git(['log', '--format=%s', head, '--not', remote, '--'])).stdout.split('\n').filter(Boolean);
  if (!ahead.every((subject) => ACP_SUBJECT_RE.test(subject))) return;
  const wasOnRemote = new Set((await droppedFromRemote(repo, remote)).map((c) => c.hash));
  const hashes = (await repo.git(['rev-list', head, '--not', remote])).stdout.split('\n').filter(Boolean);
  const cause = hashes.every((h) => wasOnRemote.has(h)) ? `${repo.settings.remote}/${repo.branch} lost them to a force-push` : 'they were never appended';
  await repo.git(['update-ref', backupRef(repo), head]);
  const reset = await repo.git(['reset', '--quiet', '--keep', remote], { allowFail: true });
  if (reset.code !== 0) return;
  changes.push(`took ${ahead.length} acp commit(s) off HEAD (${ahead.map((a) => a.slice(5)).join(', ')}): ${cause}; HEAD is ${repo.settings.remote}/${repo.branch} again, the old history is kept as ${backupRef(repo)}`);
}

/**
 * Commits the remote branch had (as this clone fetched it, in the
 * remote-tracking ref's reflog) that it no
 * longer has: a force-push rewrote its history. Only the last 100 fetches
 * are looked at.
 */
async function droppedFromRemote(repo: Repo, remote: string): Promise<{ hash: string; subject: string }[]> {
  const reflog = await repo.git(['reflog', 'show', '--format=%H', '-n', '100', repo.remoteRef, '--'], { allowFail: true });
  const previous = [...new Set(reflog.code === 0 ? reflog.stdout.split('\n').filter(Boolean) : [])];
  if (!previous.length) return [];
  const gone = await repo.git(['log', '--format=%H %s', ...previous, '--not', remote, '--']);
  return gone.stdout.split('\n').filter(Boolean).map((line) => ({ hash: line.slice(0, 40), subject: line.slice(41) }));
}

/** Commits (short hash) whose change to events.jsonl deleted lines, on the local branch's history and the remote's. */
async function logRewrites(repo: Repo): Promise<string[]> {
  const heads = [...(repo.attached ? ['HEAD'] : []), repo.remoteRef];
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
